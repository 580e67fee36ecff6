//! Where an error about a finding points in the item's syntax: the field or variant its path
//! starts with, and the narrowest tokens there that cause it.
//!
//! A struct's finding path starts with a field's wire name. An enum's starts with the variant's
//! tag, `(Tag)`, or its Rust name for an untagged enum; what follows is a field of a struct
//! variant (`(Tag).field`), an item of a tuple variant (`(Tag).0`), or a place inside the
//! content's type.

use proc_macro2::TokenStream;
use quote::ToTokens;

use contract_schema::compat::{Concern, Rule};
use contract_schema::model::EnumDef;

use crate::ast::{Field, Input, Style, Variant};
use crate::attr::find_serde_key;

/// Where a finding is: a field (of the struct, or of an enum's variant), or a variant.
pub(super) enum Spot<'f, 'a> {
    /// A field.
    Field(&'f Field<'a>),
    /// A variant (or a place inside what it carries).
    Variant(&'f Variant<'a>),
}

/// The field a finding's path starts with: the longest wire name that is the whole path or
/// is followed by `.`, `[` or `(`.
pub(super) fn locate<'f, 'a>(path: &str, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
    let starts = |name: &str| {
        path.strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[', '(']))
    };
    fields
        .iter()
        .filter(|f| !f.is_skipped())
        .filter_map(|f| {
            let names = [&f.ser_name, &f.de_name]
                .into_iter()
                .chain(f.aliases.iter());
            names
                .filter(|n| !n.is_empty() && starts(n))
                .map(|n| n.len())
                .max()
                .map(|len| (len, f))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, f)| f)
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

/// Whether a rule is about the field's type (the error points at the type): the catalogue
/// says what each rule concerns, and a variant lives inside the field's type.
pub(super) fn about_type(rule: Rule) -> bool {
    matches!(rule.concerns(), Concern::Type | Concern::Variant)
}

/// Where an error about `finding` at `field` points.
pub(super) fn span_of(rule: Rule, field: &Field) -> TokenStream {
    let ident = || match &field.original.ident {
        Some(ident) => ident.to_token_stream(),
        None => field.original.ty.to_token_stream(),
    };
    match rule {
        Rule::FieldRenamedWithoutAlias | Rule::FieldRenamed => field
            .attrs
            .renamed_from
            .first()
            .map_or_else(ident, |r| r.tokens.clone()),
        Rule::ProvenanceWeakened => field
            .attrs
            .assumption
            .as_ref()
            .map_or_else(ident, |a| a.tokens.clone()),
        // The serde attribute that causes it, when the field has one.
        Rule::FieldBecameOmittable => serde_key(field, &["skip_serializing_if"], ident),
        Rule::FieldLikelyRenamed => serde_key(field, &["rename"], ident),
        rule if about_type(rule) => field.wire_type().to_token_stream(),
        _ => ident(),
    }
}

/// The tokens of the field's first serde key among `keys`, else `otherwise()`.
pub(super) fn serde_key(
    field: &Field,
    keys: &[&str],
    otherwise: impl FnOnce() -> TokenStream,
) -> TokenStream {
    find_serde_key(&field.serde_keys, keys).map_or_else(otherwise, |k| k.tokens.clone())
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
