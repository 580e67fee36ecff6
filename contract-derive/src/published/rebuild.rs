//! The new schema of a contract, rebuilt from its syntax, with what the syntax cannot tell
//! taken from the published snapshot.
//!
//! The rebuild applies none of serde's rules for the two views itself: it translates each
//! field into the plain description of `contract_schema::views` (serde's reading of its
//! attributes, its type with the holes filled, whether that type reads a missing key as
//! `None`), which gives the views exactly as the builder's do for the description the
//! derive emits. `tests/tests/field_views.rs` holds the two to the same schema.

use contract_schema::model::{Body, FieldDef, Schema, Type, TypeDef};
use contract_schema::views;

use super::enums;
use super::field::field_spec;
use super::target::{allowances, root_name, Contract, Target};
use crate::ast::Input;

/// The new schema: the published one with the root type rebuilt from the syntax.
pub(crate) fn rebuild(
    input: &Input,
    target: Target,
    contract: &Contract,
    published: &Schema,
) -> Schema {
    let root_name = root_name(input, published);
    let mut types = published.types.clone();
    types.insert(
        root_name.clone(),
        rebuild_def(input, target, &root_name, published),
    );
    Schema {
        contract: Some(contract.id()),
        mode: contract.mode,
        allowances: allowances(input),
        root: Type::Named(root_name),
        types,
    }
}

/// The definition `name` of the published schema, rebuilt from the item's syntax (its Rust
/// path kept).
pub(crate) fn rebuild_def(
    input: &Input,
    target: Target,
    name: &str,
    published: &Schema,
) -> TypeDef {
    let old = published.def(name);
    let body = match target {
        Target::Struct(fields) => {
            let old_fields: &[FieldDef] = match old.map(|d| &d.body) {
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
        Target::Enum(repr, variants) => {
            let old_enum = match old.map(|d| &d.body) {
                Some(Body::Enum(e)) => Some(e),
                _ => None,
            };
            Body::Enum(enums::rebuild(input, repr, variants, old_enum, published))
        }
    };
    TypeDef {
        rust_path: old.map_or_else(|| name.to_owned(), |d| d.rust_path.clone()),
        doc: input.doc.clone(),
        body,
    }
}
