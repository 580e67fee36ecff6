//! What the compatibility tests share: schema fixers (plain fields are
//! `FieldDef::plain`).
// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use contract_schema::model::{Body, Emit, ReceiverField, Schema, StructDef, VariantDefKind};

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
    for f in &mut s.flattened {
        f.read = f.sent;
    }
    for f in &mut s.fields {
        match &f.sender {
            Some(sent) => {
                let required =
                    f.receiver.as_ref().is_some_and(|r| r.required) && sent.emit == Emit::Always;
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
