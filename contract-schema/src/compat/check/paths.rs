//! Finding paths and the names of kinds in a finding's text.
//!
//! A path is a list of segments ([`Seg`]) the checker pushes as it steps into a field, an
//! item, a key, a variant or a flattened enum, and prints as the finding's `path` (with the
//! innermost field's wire name as its `field`). The texts here name a type's kind ("a
//! newtype"), a variant's content ("a tuple of N") and an enum's representation
//! ("internally tagged (tag `type`)").

use std::fmt::Write as _;

use crate::model::{Body, Repr, VariantDefKind};

/// One segment of a finding's path.
#[derive(Debug, Clone, Copy)]
pub(super) enum Seg<'a> {
    /// A struct field, by wire name.
    Field(&'a str),
    /// Any item of a list or set.
    Item,
    /// Any key of a map (keys are data: never shown).
    Key,
    /// A tuple item.
    Index(usize),
    /// An enum variant, by tag.
    Variant(&'a str),
    /// A flattened enum (`#[serde(flatten)]`), by Rust field name: it has no key of its own,
    /// its variant's keys sit beside the struct's fields. Rendered `(flatten kind)`.
    Flatten(&'a str),
}

pub(super) fn body_kind(body: &Body) -> &'static str {
    match body {
        Body::Struct(_) => "a struct",
        Body::Enum(_) => "an enum",
        Body::Newtype(_) => "a newtype",
        Body::Views { .. } => "a type with two views",
    }
}

pub(super) fn variant_kind_text(kind: &VariantDefKind) -> String {
    match kind {
        VariantDefKind::Unit => "nothing".to_owned(),
        VariantDefKind::Newtype(t) => format!("`{t}`"),
        VariantDefKind::Tuple(items) => format!("a tuple of {}", items.len()),
        VariantDefKind::Struct(_) => "named fields".to_owned(),
    }
}

pub(super) fn repr_text(repr: &Repr) -> String {
    match repr {
        Repr::External => "externally tagged".to_owned(),
        Repr::Internal { tag } => format!("internally tagged (tag `{tag}`)"),
        Repr::Adjacent { tag, content } => {
            format!("adjacently tagged (tag `{tag}`, content `{content}`)")
        }
        Repr::Untagged => "untagged".to_owned(),
    }
}

/// The path text and the innermost field's wire name.
pub(super) fn render(path: &[Seg<'_>]) -> (String, Option<String>) {
    let mut out = String::new();
    let mut field = None;
    for seg in path {
        match seg {
            Seg::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
                field = Some(*name);
            }
            Seg::Item => out.push_str("[]"),
            Seg::Key => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('*');
            }
            Seg::Index(i) => {
                if !out.is_empty() {
                    out.push('.');
                }
                let _ = write!(out, "{i}");
            }
            Seg::Variant(tag) => {
                out.push('(');
                out.push_str(tag);
                out.push(')');
            }
            Seg::Flatten(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str("(flatten ");
                out.push_str(name);
                out.push(')');
            }
        }
    }
    (out, field.map(str::to_owned))
}
