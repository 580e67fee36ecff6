//! The new schema of a contract, rebuilt from its syntax, with what the syntax cannot tell
//! taken from the published snapshot.
//!
//! The rebuild applies none of serde's rules for the two views itself: it translates each
//! field into the plain description of `contract_schema::views` (serde's reading of its
//! attributes, its type with the holes filled, whether that type reads a missing key as
//! `None`), which gives the views exactly as the builder's do for the description the
//! derive emits. `tests/tests/field_views.rs` holds the two to the same schema.

use contract_schema::model::{Body, EnumDef, FieldDef, Schema, Type, TypeDef};
use contract_schema::views::{self, Content, FieldSpec};
use contract_schema::Provenance;

use super::{allowances, enums, Contract, Target};
use crate::ast::{Field, Input};
use crate::wire::Wire;

/// The display name of the published root type (the contract's own name when the root is
/// not a named type).
pub(super) fn root_name(input: &Input, published: &Schema) -> String {
    match &published.root {
        Type::Named(name) => name.clone(),
        _ => syn::ext::IdentExt::unraw(&input.original.ident).to_string(),
    }
}

/// The published definition of the root enum, when the root was an enum.
pub(super) fn published_enum<'p>(input: &Input, published: &'p Schema) -> Option<&'p EnumDef> {
    match published.def(&root_name(input, published)).map(|d| &d.body) {
        Some(Body::Enum(e)) => Some(e),
        _ => None,
    }
}

/// The new schema: the published one with the root type rebuilt from the syntax.
pub(crate) fn rebuild(
    input: &Input,
    target: Target,
    contract: &Contract,
    published: &Schema,
) -> Schema {
    let root_name = root_name(input, published);
    let body = match target {
        Target::Struct(fields) => {
            let old_fields: &[FieldDef] = match published.def(&root_name).map(|d| &d.body) {
                Some(Body::Struct(s)) => &s.fields,
                _ => &[],
            };
            Body::Struct(views::struct_def(
                fields
                    .iter()
                    .map(|f| field_spec(f, old_fields, published))
                    .collect(),
                input.deny_unknown_fields,
            ))
        }
        Target::Enum(repr, variants) => Body::Enum(enums::rebuild(
            input,
            repr,
            variants,
            published_enum(input, published),
            published,
        )),
    };
    let mut types = published.types.clone();
    let rust_path = types
        .get(&root_name)
        .map(|d| d.rust_path.clone())
        .unwrap_or_else(|| root_name.clone());
    types.insert(
        root_name.clone(),
        TypeDef {
            rust_path,
            doc: input.doc.clone(),
            body,
        },
    );
    Schema {
        contract: Some(contract.id()),
        mode: contract.mode,
        allowances: allowances(input),
        root: Type::Named(root_name),
        types,
    }
}

/// The published field the new one most likely continues: the same serialize name, the
/// same deserialize name, one of its aliases or earlier names, or the same Rust name.
pub(super) fn counterpart<'p>(field: &Field, old: &'p [FieldDef]) -> Option<&'p FieldDef> {
    let sent = |name: &str| {
        old.iter()
            .find(|o| o.sender.as_ref().is_some_and(|s| s.name == name))
    };
    let read = |name: &str| {
        old.iter()
            .find(|o| o.receiver.as_ref().is_some_and(|r| r.accepts(name)))
    };
    let by_name = |name: &str| sent(name).or_else(|| read(name));
    by_name(&field.ser_name)
        .or_else(|| by_name(&field.de_name))
        .or_else(|| field.aliases.iter().find_map(|a| by_name(a)))
        .or_else(|| {
            field
                .attrs
                .renamed_from
                .iter()
                .find_map(|r| by_name(&r.value.value()))
        })
        .or_else(|| old.iter().find(|o| o.rust_name == field.name))
}

/// The field as [`views`] reads it: its serde flags as serde's front end reads them, and its
/// type from the syntax, holes filled from the published field it most likely continues.
pub(super) fn field_spec(field: &Field, old: &[FieldDef], published: &Schema) -> FieldSpec {
    let wire = Wire::of(field.wire_type());
    let counterpart = counterpart(field, old);
    // A type the syntax cannot tell takes the published field's type (assumed unchanged);
    // a new field of such a type is `any`, which the engine reads as matching every type:
    // it is then compared by its presence and optionality only.
    let ty = wire.fill(counterpart.map(|o| &o.ty), published);
    // A named type around an `Option` may be absent when it is `#[serde(transparent)]` and
    // must be present when it is a newtype struct: the syntax cannot tell, so such a hole
    // keeps the published field's optionality (assumed unchanged, like the type itself).
    let transparent_option = wire == Wire::Unknown
        && matches!(ty, Type::Named(_))
        && matches!(published.resolve(&ty), Type::Option(_))
        && counterpart
            .is_some_and(|o| o.ty == ty && o.receiver.as_ref().is_some_and(|r| !r.required));
    // serde reads a missing `Option` as `None`: for a hole, the published type says whether
    // it is one (an alias of `Option` is assumed unchanged too).
    let absent_is_none = matches!(ty, Type::Option(_)) || transparent_option;
    FieldSpec {
        rust_name: field.name.clone(),
        ser_name: field.ser_name.clone(),
        de_name: field.de_name.clone(),
        aliases: field.aliases.clone(),
        skip_serializing: field.skip_serializing,
        skip_serializing_if: field.skip_serializing_if,
        skip_deserializing: field.skip_deserializing,
        default: field.default,
        // A flattened field is never rebuilt (the check does not apply to its struct), and a
        // skipped one is left out whatever it holds.
        content: Content::Value { ty, absent_is_none },
        provenance: if field.attrs.assumption.is_some() {
            Provenance::Assumption
        } else {
            Provenance::Confirmed
        },
        renamed_from: field
            .attrs
            .renamed_from
            .iter()
            .map(|r| r.value.value())
            .collect(),
        doc: field.doc.clone(),
    }
}
