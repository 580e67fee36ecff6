//! One field of the item rebuilt from its syntax, as the plain description of
//! `contract_schema::views` reads it, with what the syntax cannot tell taken from the
//! published field it most likely continues. A struct's fields and a struct variant's are
//! rebuilt alike.

use contract_schema::model::{Emit, FieldDef, Schema, Type};
use contract_schema::views::{Content, FieldSpec};
use contract_schema::Provenance;

use crate::ast::Field;
use crate::wire::Wire;

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

/// The field as [`contract_schema::views`] reads it: its serde flags as serde's front end reads them, and its
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
    let skip_if_none = field.skip_if_none && some_is_never_null(&wire, counterpart);
    FieldSpec {
        rust_name: field.name.clone(),
        ser_name: field.ser_name.clone(),
        de_name: field.de_name.clone(),
        aliases: field.aliases.clone(),
        skip_serializing: field.skip_serializing,
        skip_serializing_if: field.skip_serializing_if,
        skip_if_none,
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

/// Whether a field written only when `Some` is never `null`, as the builder decides it from
/// the shape (an `Option` whose content is not nullable): from the syntax when it tells
/// (`Option<Option<T>>` and `Option<()>` write `Some` as `null`), else as the published
/// field is written (a named content is assumed unchanged; a new field's named content is
/// assumed not nullable, as a struct or an enum is not).
fn some_is_never_null(wire: &Wire, counterpart: Option<&FieldDef>) -> bool {
    let published = || {
        counterpart
            .and_then(|o| o.sender.as_ref())
            .map(|s| s.emit == Emit::IfSome)
    };
    match wire {
        Wire::Option(content) => match &**content {
            Wire::Option(_) | Wire::Leaf(Type::Unit) => false,
            Wire::Unknown => published().unwrap_or(true),
            _ => true,
        },
        Wire::Unknown => published().unwrap_or(false),
        _ => false,
    }
}
