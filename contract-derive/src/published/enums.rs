//! The compile-time check of an enum contract: its definition rebuilt from the syntax (where
//! an error about one of its variants points is [`super::locate`]'s).
//!
//! The rebuild translates the enum into the plain description of `contract_schema::views`,
//! which gives the variants their views as the builder's do (skips, the tag each variant
//! reads, an internally tagged newtype variant serde cannot write), so that an unchanged enum
//! rebuilds to its published definition. What the syntax decides here:
//!
//! - the representation is serde's (`tag`, `content`, `untagged`; an enum whose every variant
//!   is `#[serde(untagged)]` is untagged, as the description says, and otherwise a variant
//!   marked `#[serde(untagged)]` keeps the mark);
//! - what a variant carries is read from the syntax like a struct's fields (see
//!   [`crate::wire`]): a hole takes the published variant's type at the same place, a struct
//!   variant's fields are described as a struct's are;
//! - whether a newtype variant's content can be written beside an internal tag (see
//!   [`writable_beside_tag`]).

use contract_schema::model::{EnumDef, Schema, Type, VariantDef, VariantDefKind};
use contract_schema::views::{self, EnumSpec, VariantContent, VariantSpec};

use super::field::field_spec;
use crate::ast::{Input, Repr, Style, Variant};
use crate::wire::Wire;

/// The enum's definition rebuilt from the syntax; `old` is its published definition, if it
/// was an enum.
pub(super) fn rebuild(
    input: &Input,
    repr: &Repr,
    variants: &[Variant],
    old: Option<&EnumDef>,
    published: &Schema,
) -> EnumDef {
    let repr = repr.on_the_wire(variants);
    let variants = variants
        .iter()
        .map(|v| variant_spec(v, counterpart(v, old), published))
        .collect();
    views::enum_def(EnumSpec {
        repr,
        variants,
        deny_unknown_fields: input.deny_unknown_fields,
    })
}

/// The published variant the new one most likely continues: the same serialize tag, a tag
/// the published one reads, or the same Rust name.
fn counterpart<'p>(variant: &Variant, old: Option<&'p EnumDef>) -> Option<&'p VariantDef> {
    let old = old?;
    let tags = || {
        std::iter::once(&variant.ser_name)
            .chain(std::iter::once(&variant.de_name))
            .chain(variant.aliases.iter())
    };
    tags()
        .find_map(|tag| {
            old.variants
                .iter()
                .find(|o| o.sender.as_deref() == Some(tag.as_str()) || o.receiver.contains(tag))
        })
        .or_else(|| old.variants.iter().find(|o| o.rust_name == variant.name))
}

fn variant_spec(variant: &Variant, old: Option<&VariantDef>, published: &Schema) -> VariantSpec {
    VariantSpec {
        rust_name: variant.name.clone(),
        ser_name: variant.ser_name.clone(),
        de_name: variant.de_name.clone(),
        aliases: variant.aliases.clone(),
        skip_serializing: variant.skip_serializing,
        skip_deserializing: variant.skip_deserializing,
        other: variant.other,
        untagged: variant.untagged,
        content: variant_content(variant, old, published),
        doc: variant.doc.clone(),
    }
}

/// What the variant carries, as the description says: `schema_as` makes it a newtype of
/// that type whatever its style.
fn variant_content(
    variant: &Variant,
    old: Option<&VariantDef>,
    published: &Schema,
) -> VariantContent {
    let old_kind = old.map(|o| &o.kind);
    let newtype = |ty: &syn::Type| {
        let published_ty = match old_kind {
            Some(VariantDefKind::Newtype(t)) => Some(t),
            _ => None,
        };
        let ty = Wire::of(ty).fill(published_ty, published);
        VariantContent::Newtype {
            writable_beside_tag: writable_beside_tag(&ty, published),
            ty,
        }
    };
    if let Some(schema_as) = &variant.attrs.schema_as {
        return newtype(&schema_as.value);
    }
    match variant.style {
        Style::Unit => VariantContent::Unit,
        Style::Newtype => match variant.fields.first() {
            Some(field) => newtype(field.wire_type()),
            None => VariantContent::Unit,
        },
        Style::Tuple => {
            let old_items: &[Type] = match old_kind {
                Some(VariantDefKind::Tuple(items)) => items,
                _ => &[],
            };
            let items = variant.fields.iter().filter(|f| !f.is_skipped());
            VariantContent::Tuple(
                items
                    .enumerate()
                    .map(|(i, f)| Wire::of(f.wire_type()).fill(old_items.get(i), published))
                    .collect(),
            )
        }
        Style::Struct => {
            let old_fields = match old_kind {
                Some(VariantDefKind::Struct(s)) => s.fields.as_slice(),
                _ => &[],
            };
            VariantContent::Struct(
                variant
                    .fields
                    .iter()
                    .map(|f| field_spec(f, old_fields, published))
                    .collect(),
            )
        }
    }
}

/// Whether serde can write a value of `ty` beside an internal tag: a unit, a map, a struct
/// or an enum, through newtypes (as the builder decides it on the shape). A named type the
/// published schema does not define is assumed writable, as the builder assumes of a type it
/// cannot see through.
fn writable_beside_tag(ty: &Type, published: &Schema) -> bool {
    match published.resolve(ty) {
        // A struct or an enum; a name the schema does not define, or a cycle of newtypes,
        // is assumed writable as the builder assumes it.
        Type::Unit | Type::Any | Type::Map(..) | Type::Named(_) => true,
        Type::Option(_)
        | Type::Bool
        | Type::Int(_)
        | Type::Float(_)
        | Type::Char
        | Type::String(_)
        | Type::Constrained(_)
        | Type::List(_)
        | Type::Set(_)
        | Type::Array(..)
        | Type::Tuple(_) => false,
    }
}
