//! The compile-time check of an enum contract: its definition rebuilt from the syntax, and
//! where an error about one of its variants points.
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
//!
//! A finding's path starts with the variant's tag, `(Tag)`, or its Rust name for an untagged
//! enum; what follows is a field of a struct variant (`(Tag).field`), an item of a tuple
//! variant (`(Tag).0`), or a place inside the content's type.

use proc_macro2::TokenStream;
use quote::ToTokens;

use contract_schema::compat::{Concern, Rule};
use contract_schema::model::{EnumDef, Schema, Type, VariantDef, VariantDefKind};
use contract_schema::views::{self, EnumSpec, VariantContent, VariantSpec};

use super::diagnostics::{locate, Spot};
use super::rebuild::field_spec;
use crate::ast::{Input, Repr, Style, Variant};
use crate::attr::find_serde_key;
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

/// The new variant a finding's path starts with, and the field of that variant it goes on
/// to, if any. A tag no new variant has is looked up in the published enum: a variant whose
/// Rust name kept it (a renamed tag) is where the error points.
pub(super) fn locate_in<'f, 'a>(
    path: &str,
    variants: &'f [Variant<'a>],
    old: Option<&EnumDef>,
) -> Option<Spot<'f, 'a>> {
    let rest = path.strip_prefix('(')?;
    let close = rest.find(')')?;
    let (tag, after) = (&rest[..close], &rest[close + 1..]);
    let reads =
        |v: &Variant| v.ser_name == tag || v.de_name == tag || v.aliases.iter().any(|a| a == tag);
    let live = variants.iter().filter(|v| !v.is_skipped());
    let variant = live
        .clone()
        .find(|v| reads(v))
        .or_else(|| live.clone().find(|v| v.name == tag))
        .or_else(|| {
            let published = old?.variants.iter().find(|o| {
                o.sender.as_deref() == Some(tag) || o.receiver.iter().any(|r| r == tag)
            })?;
            live.clone().find(|v| v.name == published.rust_name)
        })?;
    let Some(inner) = after.strip_prefix('.') else {
        return Some(Spot::Variant(variant));
    };
    let field = match variant.style {
        Style::Struct => locate(inner, &variant.fields),
        Style::Tuple => {
            let index: String = inner.chars().take_while(char::is_ascii_digit).collect();
            let rest = &inner[index.len()..];
            let at_item = rest.is_empty() || rest.starts_with(['.', '[', '(']);
            index
                .parse::<usize>()
                .ok()
                .filter(|_| at_item)
                .and_then(|i| variant.fields.iter().filter(|f| !f.is_skipped()).nth(i))
        }
        Style::Unit | Style::Newtype => None,
    };
    Some(field.map_or(Spot::Variant(variant), Spot::Field))
}

/// The tokens an error about `rule` at `variant` (or inside what it carries) points at.
pub(super) fn span_of_variant(rule: Rule, variant: &Variant) -> TokenStream {
    let ident = || variant.original.ident.to_token_stream();
    match rule.concerns() {
        // What the variant carries: its content's type, or all its fields.
        Concern::Type => match (&variant.attrs.schema_as, variant.style) {
            (Some(setting), _) => setting.value.to_token_stream(),
            (None, Style::Newtype) => variant
                .fields
                .first()
                .map_or_else(ident, |f| f.wire_type().to_token_stream()),
            (None, Style::Tuple | Style::Struct) => variant.original.fields.to_token_stream(),
            (None, Style::Unit) => ident(),
        },
        // Its tagging: the `untagged` key when it has one, else its name.
        _ if rule == Rule::VariantTaggingChanged => {
            find_serde_key(&variant.serde_keys, &["untagged"])
                .map_or_else(ident, |k| k.tokens.clone())
        }
        // A tag: the serde attribute that sets it, when the variant has one.
        _ => find_serde_key(&variant.serde_keys, &["rename"])
            .map_or_else(ident, |k| k.tokens.clone()),
    }
}

/// Where an error about the enum as a whole points (no variant on its path): the serde key
/// that sets its representation for a representation change, else its name.
pub(super) fn span_of_enum(rule: Rule, input: &Input) -> TokenStream {
    let ident = || input.original.ident.to_token_stream();
    match rule {
        Rule::EnumReprChanged | Rule::EnumTagChanged => {
            find_serde_key(&input.serde_keys, &["tag", "content", "untagged"])
                .map_or_else(ident, |k| k.tokens.clone())
        }
        _ => ident(),
    }
}
