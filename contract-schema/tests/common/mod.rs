//! What the compatibility tests share: schema builders and fixers.
// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use contract_schema::model::{
    Body, FieldDef, Presence, ReceiverField, Schema, SenderField, StructDef, Type, VariantDefKind,
};
use contract_schema::shape::Provenance;

/// A field sent always under `name`, read under the same name, and required by the reader
/// unless its type is an `Option`: what the derive emits for `name: ty` without attributes.
pub fn field(name: &str, ty: Type) -> FieldDef {
    let required = !matches!(ty, Type::Option(_));
    FieldDef {
        rust_name: name.to_owned(),
        ty,
        sender: Some(SenderField {
            name: name.to_owned(),
            presence: Presence::Always,
        }),
        receiver: Some(ReceiverField {
            name: name.to_owned(),
            aliases: Vec::new(),
            required,
        }),
        provenance: Provenance::Confirmed,
        renamed_from: Vec::new(),
        doc: String::new(),
    }
}

/// Makes every type read what it writes, as a serde type that round-trips does: each field
/// is read under the name it is sent (no `rename(serialize, deserialize)`, no aliases), a
/// field sent only when present may be absent, a field never sent is never read, and each
/// variant is read under the tag it is sent.
pub fn consistent(mut schema: Schema) -> Schema {
    for def in schema.types.values_mut() {
        match &mut def.body {
            Body::Struct(s) => consistent_struct(s),
            Body::Enum(e) => {
                for v in &mut e.variants {
                    if let Some(tag) = &v.sender {
                        v.receiver = vec![tag.clone()];
                    } else if !v.other {
                        v.receiver.clear();
                    }
                    if let VariantDefKind::Struct(s) = &mut v.kind {
                        consistent_struct(s);
                    }
                }
            }
            Body::Newtype(_) => {}
        }
    }
    schema
}

fn consistent_struct(s: &mut StructDef) {
    for f in &mut s.fields {
        match &f.sender {
            Some(sent) => {
                let required = f.receiver.as_ref().is_some_and(|r| r.required)
                    && sent.presence == Presence::Always;
                f.receiver = Some(ReceiverField {
                    name: sent.name.clone(),
                    aliases: Vec::new(),
                    required,
                });
            }
            None => f.receiver = None,
        }
    }
}
