//! Enums written as their integer: `#[handoff(repr)]` for serde_repr's `Serialize_repr` and
//! `Deserialize_repr`, `#[handoff(by_name)]` for serde's own derive.
//!
//! The derive sees `#[repr(u8)]` but not which derives sit beside it, and the two write
//! different things: serde_repr the discriminant (`1`), serde the variant's name
//! (`"Active"`). A fieldless enum with an integer `#[repr]` must therefore say which, or
//! its description could be silently wrong.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Attribute, Error, Ident};

use crate::ast::{Data, Input, Variant};

/// The integer types `#[repr(..)]` may name.
const INT_REPRS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// The integer of an item's `#[repr(..)]`, with the attribute as written.
pub struct IntRepr {
    /// `u8`, `i32`, …
    pub int: Ident,
    /// The whole `#[repr(..)]` attribute, for errors.
    pub attr: TokenStream,
}

/// The integer named by the item's `#[repr(..)]` attributes, if any (`#[repr(C, u8)]` too).
pub fn int_repr(attrs: &[Attribute]) -> Option<IntRepr> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("repr"))
        .find_map(|a| {
            let mut found = None;
            // A `repr` this parser does not follow (`align(8)`) is not an integer: ignored.
            let _ = a.parse_nested_meta(|meta| {
                if let Some(id) = meta.path.get_ident() {
                    if INT_REPRS.contains(&id.to_string().as_str()) {
                        found = Some(id.clone());
                    }
                }
                if meta.input.peek(syn::token::Paren) {
                    let _ = meta.input.parse::<TokenStream>();
                }
                Ok(())
            });
            found.map(|int| IntRepr {
                int,
                attr: a.to_token_stream(),
            })
        })
}

/// Whether every variant is a unit variant (what serde_repr can write).
fn fieldless(variants: &[Variant]) -> bool {
    variants.iter().all(|v| v.original.fields.is_empty())
}

/// The errors of `repr` and `by_name`: on an enum only, not both, not `repr` beside
/// `schema_as`, `repr` only with an integer `#[repr]` and unit variants, and one of them (or
/// `schema_as`) wherever a fieldless enum has an integer `#[repr]`.
pub fn check(input: &Input, errors: &mut Vec<Error>) {
    let attrs = &input.attrs;
    let repr = int_repr(&input.original.attrs);
    let variants = match &input.data {
        Data::Enum(_, variants) => Some(variants),
        _ => None,
    };
    for setting in [&attrs.repr, &attrs.by_name].into_iter().flatten() {
        if variants.is_none() {
            errors.push(Error::new_spanned(
                &setting.tokens,
                format!(
                    "`{}` belongs on an enum with an integer `#[repr(..)]`, to say how serde \
                     writes it",
                    setting.key
                ),
            ));
        }
    }
    let Some(variants) = variants else {
        return;
    };
    if let (Some(repr_setting), Some(by_name)) = (&attrs.repr, &attrs.by_name) {
        errors.push(crate::attr::conflict(
            repr_setting,
            by_name,
            "`repr` and `by_name` contradict each other: the enum is written either as its \
             discriminant (serde_repr) or by variant name (serde's derive)",
        ));
        return;
    }
    if let (Some(repr_setting), Some(schema_as)) = (&attrs.repr, &attrs.schema_as) {
        errors.push(crate::attr::conflict(
            repr_setting,
            schema_as,
            "`repr` and `schema_as` both say what the enum is on the wire: keep one",
        ));
        return;
    }
    if let Some(setting) = &attrs.repr {
        if repr.is_none() {
            errors.push(Error::new_spanned(
                &setting.tokens,
                "`#[handoff(repr)]` describes the enum as its `#[repr(..)]` integer, and this \
                 enum has none: add the `#[repr(u8)]` (or other integer) that serde_repr \
                 requires",
            ));
        }
        for v in variants.iter().filter(|v| !v.original.fields.is_empty()) {
            errors.push(Error::new_spanned(
                &v.original.ident,
                format!(
                    "`#[handoff(repr)]`: variant `{}` carries data, and serde_repr writes \
                     fieldless enums only",
                    v.name
                ),
            ));
        }
        return;
    }
    // `schema_as` names the wire form itself: nothing is ambiguous.
    if let (Some(repr), None, None) = (&repr, &attrs.by_name, &attrs.schema_as) {
        if fieldless(variants) && !variants.is_empty() {
            let int = &repr.int;
            errors.push(Error::new_spanned(
                &repr.attr,
                format!(
                    "`#[repr({int})]` on an enum: say how it is written, since serde_repr \
                     writes the discriminant and serde's derive the variant name; add \
                     `#[handoff(repr)]` when it derives `Serialize_repr`/`Deserialize_repr` \
                     (described as the set of its `{int}` discriminants), or \
                     `#[handoff(by_name)]` when it derives serde's `Serialize`/`Deserialize`"
                ),
            ));
        }
    }
}

/// `Kind::Constrained` of the discriminants, for an enum with `#[handoff(repr)]` (checked);
/// `None` otherwise. With a `#[serde(other)]` variant (serde_repr reads any other integer
/// into it) every value of the integer is read: the plain integer kind.
pub fn kind(input: &Input, krate: &syn::Path) -> Option<TokenStream> {
    input.attrs.repr.as_ref()?;
    let IntRepr { int, .. } = int_repr(&input.original.attrs)?;
    let Data::Enum(_, variants) = &input.data else {
        return None;
    };
    let p = quote!(#krate::__private);
    let name = int.to_string();
    let kind = match name.as_str() {
        "usize" => quote!(match ::core::primitive::usize::BITS {
            64 => #p::IntKind::U64,
            32 => #p::IntKind::U32,
            _ => #p::IntKind::U16,
        }),
        "isize" => quote!(match ::core::primitive::usize::BITS {
            64 => #p::IntKind::I64,
            32 => #p::IntKind::I32,
            _ => #p::IntKind::I16,
        }),
        other => {
            let variant = Ident::new(&other.to_uppercase(), int.span());
            quote!(#p::IntKind::#variant)
        }
    };
    if variants.iter().any(|v| v.other) {
        return Some(quote!(#p::Kind::Int(#kind)));
    }
    let signed = name.starts_with('i');
    let values = variants.iter().map(|v| {
        let ident = &v.original.ident;
        if signed {
            quote!(#p::IntRange::one(#p::IntValue::from_i128(Self::#ident as ::core::primitive::i128)))
        } else {
            quote!(#p::IntRange::one(#p::IntValue::from_u128(Self::#ident as ::core::primitive::u128)))
        }
    });
    Some(quote!(#p::Kind::Constrained(&#p::ConstraintShape::Int {
        kind: #kind,
        ranges: &[#(#values),*],
    })))
}
