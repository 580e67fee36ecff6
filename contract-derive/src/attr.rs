//! Parsing `#[handoff(...)]` attributes and scanning the keys of `#[serde(...)]` ones.
//!
//! Every problem is collected (never only the first) and every value keeps the tokens it
//! was written with, so that errors point at the narrowest tokens and quote the attribute
//! as written.

use proc_macro2::{TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Error, Ident, Lit, LitInt, LitStr, Token};

use crate::allow::{self, Allow};
use crate::symbol::{
    ALLOW, ASSUMPTION, BOUND, BY_NAME, CONFIRMED, CONTAINER_KEYS, CRATE, HANDOFF, MODE, NAME,
    RENAMED_FROM, REPR, SCHEMA_AS, SNAPSHOTS, VERSION,
};
use crate::syntax::{skip_to_comma, string_literal, value_tokens, written, Position};
use contract_schema::suggest::did_you_mean;
use contract_schema::Mode;

/// One `key = value` (or bare `key`) as written, with its parsed value.
pub struct Setting<T> {
    /// The parsed value.
    pub value: T,
    /// The key's identifier (for errors about the key).
    pub key: Ident,
    /// The tokens `key = value`, for errors spanning the whole setting.
    pub tokens: TokenStream,
    /// Where the setting is written, to tell adjacent settings apart.
    pub place: Place,
}

/// Where a key is written: which `#[handoff(...)]` attribute of the item, and which key
/// of it.
// Ordered as written: by attribute, then by key.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Place {
    /// The index of the attribute among the item's `#[handoff(...)]` attributes.
    pub attr: usize,
    /// The index of the key inside its attribute.
    pub key: usize,
}

impl Place {
    /// Whether `later` is the key written right after `self`, in the same attribute.
    pub fn is_followed_by(self, later: Place) -> bool {
        self.attr == later.attr && self.key + 1 == later.key
    }
}

/// One error for two settings that conflict: spanning both when they are adjacent in the
/// same attribute (`assumption, confirmed`), else at the later one, whose message names
/// the earlier.
pub fn conflict<A, B>(
    earlier: &Setting<A>,
    later: &Setting<B>,
    message: impl std::fmt::Display,
) -> Error {
    if earlier.place.is_followed_by(later.place) {
        let (first, second) = (&earlier.tokens, &later.tokens);
        Error::new_spanned(quote!(#first #second), message)
    } else {
        later.error(message)
    }
}

/// One error for several keys that are one mistake (they need one fix), `keys` in the order
/// written, each with its place, tokens and text as written: spanning them all when they
/// follow each other in one attribute, else at the first. `message` gets their texts as a
/// list (`` `a`, `b` and `c` ``) and whether there are several. `None` for no key.
pub fn together(
    keys: &[(Place, &TokenStream, String)],
    message: impl FnOnce(&str, bool) -> String,
) -> Option<Error> {
    let ((_, first, _), (_, last, _)) = (keys.first()?, keys.last()?);
    let adjacent = keys
        .windows(2)
        .all(|pair| pair[0].0.is_followed_by(pair[1].0));
    let tokens = if adjacent {
        quote!(#first #last)
    } else {
        (*first).clone()
    };
    let listed: Vec<String> = keys.iter().map(|(_, _, w)| format!("`{w}`")).collect();
    let listed = match listed.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Some(Error::new_spanned(tokens, message(&listed, keys.len() > 1)))
}

impl<T> Setting<T> {
    /// The setting as written, for messages: `version = 0`.
    pub fn written(&self) -> String {
        written(&self.tokens)
    }

    /// An error spanning the whole setting.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::new_spanned(&self.tokens, message)
    }
}

/// The `#[handoff(...)]` settings of a struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `name = "kebab-case"`.
    pub name: Option<Setting<LitStr>>,
    /// `version = N`.
    pub version: Option<Setting<u32>>,
    /// `mode = "full"`.
    pub mode: Option<Setting<Mode>>,
    /// `crate = "path"`.
    pub krate: Option<Setting<syn::Path>>,
    /// `snapshots = "dir"`.
    pub snapshots: Option<Setting<LitStr>>,
    /// `schema_as = Type`.
    pub schema_as: Option<Setting<syn::Type>>,
    /// `allow(RULE_ID, field = "wireName", reason = "…")`, in order (valid ones only).
    pub allows: Vec<Allow>,
    /// `repr`: the enum is written as its `#[repr(int)]` discriminant (serde_repr).
    pub repr: Option<Setting<()>>,
    /// `by_name`: the enum with a `#[repr(int)]` is written by variant name (serde's derive).
    pub by_name: Option<Setting<()>>,
    /// `bound = "T: Trait, …"`: the impl's `where` predicates, instead of the `HandoffSchema`
    /// bounds inferred from the fields.
    pub bound: Option<Setting<Vec<syn::WherePredicate>>>,
    /// The first `#[handoff(...)]` attribute, to point at when a key is missing.
    pub first_attr: Option<TokenStream>,
    /// Every key written (or, for a misspelt key, the key it was likely meant to be),
    /// even when its value was rejected: a key already reported is not also "missing".
    pub seen: Vec<String>,
}

/// The `#[handoff(...)]` settings of a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `renamed_from = "old"`, in order.
    pub renamed_from: Vec<Setting<LitStr>>,
    /// `assumption`.
    pub assumption: Option<Setting<()>>,
    /// `confirmed`.
    pub confirmed: Option<Setting<()>>,
    /// `schema_as = Type`.
    pub schema_as: Option<Setting<syn::Type>>,
    /// `allow(RULE_ID, reason = "…")`, in order (valid ones only).
    pub allows: Vec<Allow>,
    /// Every key written, even when its value was rejected.
    pub seen: Vec<String>,
}

/// The `#[handoff(...)]` settings of an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `schema_as = Type`.
    pub schema_as: Option<Setting<syn::Type>>,
    /// Every key written, even when its value was rejected.
    pub seen: Vec<String>,
}

/// Calls `f` on each key of every `#[handoff(...)]` attribute; syntax errors are collected.
fn for_each_key(
    attrs: &[Attribute],
    errors: &mut Vec<Error>,
    mut f: impl FnMut(&Ident, &ParseNestedMeta, Place, &mut Vec<Error>) -> syn::Result<()>,
) {
    for (attr_index, attr) in attrs
        .iter()
        .filter(|a| a.path().is_ident(HANDOFF))
        .enumerate()
    {
        let mut key_index = 0;
        let result = attr.parse_nested_meta(|meta| {
            let place = Place {
                attr: attr_index,
                key: key_index,
            };
            key_index += 1;
            let Some(key) = meta.path.get_ident() else {
                let path = &meta.path;
                errors.push(Error::new_spanned(
                    path,
                    format!(
                        "expected a handoff attribute key, found the path `{}`",
                        written(&path.to_token_stream())
                    ),
                ));
                return skip_value(&meta);
            };
            let key = key.clone();
            f(&key, &meta, place, errors)
        });
        if let Err(err) = result {
            errors.push(err);
        }
    }
}

/// Consumes the value of a key that is not understood, so that parsing goes on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.input.parse::<Token![=]>()?;
        skip_to_comma(meta.input)?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// Parses the value of `key` with `parse`, recording the setting (or the error).
fn setting<T>(
    key: &Ident,
    meta: &ParseNestedMeta,
    place: Place,
    slot: &mut Option<Setting<T>>,
    errors: &mut Vec<Error>,
    parse: impl FnOnce(&ParseNestedMeta) -> syn::Result<T>,
) -> syn::Result<()> {
    let rest = value_tokens(meta.input);
    let tokens = quote!(#key #rest);
    let value = match parse(meta) {
        Ok(value) => value,
        Err(err) => {
            errors.push(err);
            return skip_to_comma(meta.input);
        }
    };
    let new = Setting {
        value,
        key: key.clone(),
        tokens,
        place,
    };
    match slot {
        Some(first) => errors.push(conflict(
            first,
            &new,
            format!(
                "duplicate handoff attribute `{key}`: `{}` is already given",
                first.written()
            ),
        )),
        None => *slot = Some(new),
    }
    Ok(())
}

/// `key = "string"`.
fn string_value(key: &Ident, meta: &ParseNestedMeta, example: &str) -> syn::Result<LitStr> {
    string_literal(expect_value(key, meta, example)?, key, example)
}

/// The `=` after `key`, with an error that shows the expected form.
fn expect_value<'a>(
    key: &Ident,
    meta: &'a ParseNestedMeta,
    example: &str,
) -> syn::Result<syn::parse::ParseStream<'a>> {
    if meta.input.peek(Token![=]) {
        meta.value()
    } else {
        Err(Error::new_spanned(
            key,
            format!("`{key}` takes a value: `{key} = {example}`"),
        ))
    }
}

/// `version = N`.
fn version_value(key: &Ident, meta: &ParseNestedMeta) -> syn::Result<u32> {
    let value = expect_value(key, meta, "1")?;
    let lit = match value.parse::<Lit>() {
        Ok(Lit::Int(lit)) => lit,
        Ok(Lit::Str(lit)) => {
            return Err(Error::new_spanned(
                &lit,
                format!(
                    "`{key}` takes an integer literal, not a string: `{key} = {}`",
                    lit.value().trim()
                ),
            ))
        }
        Ok(other) => {
            return Err(Error::new_spanned(
                &other,
                format!("`{key}` takes an integer literal: `{key} = 1`"),
            ))
        }
        Err(_) => {
            return Err(Error::new(
                value.span(),
                format!("`{key}` takes an integer literal: `{key} = 1`"),
            ))
        }
    };
    parse_version(key, &lit)
}

fn parse_version(key: &Ident, lit: &LitInt) -> syn::Result<u32> {
    if !lit.suffix().is_empty() {
        return Err(Error::new_spanned(
            lit,
            format!(
                "`{key}` takes a plain integer without a suffix: `{key} = {}`",
                lit.base10_digits()
            ),
        ));
    }
    lit.base10_parse::<u32>().map_err(|_| {
        Error::new_spanned(
            lit,
            format!("`{key}` must be a major version between 1 and {}", u32::MAX),
        )
    })
}

/// `key = Type`.
fn type_value(key: &Ident, meta: &ParseNestedMeta) -> syn::Result<syn::Type> {
    let value = expect_value(key, meta, "WireType")?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        return Err(Error::new_spanned(
            &lit,
            format!(
                "`{key}` takes a type, not a string: `{key} = {}`",
                lit.value().trim()
            ),
        ));
    }
    value.parse::<syn::Type>()
}

/// `bound = "T: Trait, U: Other"`: `where` predicates, possibly none (`bound = ""`).
fn bound_value(key: &Ident, meta: &ParseNestedMeta) -> syn::Result<Vec<syn::WherePredicate>> {
    let lit = string_value(key, meta, "\"T: HandoffSchema\"")?;
    let parser = syn::punctuated::Punctuated::<syn::WherePredicate, Token![,]>::parse_terminated;
    syn::parse::Parser::parse_str(parser, &lit.value())
        .map(|predicates| predicates.into_iter().collect())
        .map_err(|e| {
            Error::new_spanned(
                &lit,
                format!(
                    "`{key} = {}` is not a list of where predicates ({e}): write \
                     `{key} = \"T: HandoffSchema\"`, or `{key} = \"\"` for none",
                    lit.to_token_stream()
                ),
            )
        })
}

/// A flag without value: `assumption`.
fn flag_value(key: &Ident, meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(Error::new_spanned(
            key,
            format!("`{key}` takes no value: write `#[handoff({key})]`"),
        ));
    }
    Ok(())
}

/// The error for a key that `position` does not accept.
fn unknown_key(key: &Ident, position: Position) -> Error {
    let name = key.to_string();
    let message = if let Some(elsewhere) = [Position::Container, Position::Field, Position::Variant]
        .into_iter()
        .find(|p| *p != position && p.keys().contains(&name.as_str()))
    {
        format!(
            "`{name}` does not belong on {}; it is an attribute of {}",
            position.describe(),
            elsewhere.describe()
        )
    } else if let Some(close) = did_you_mean(&name, position.keys().iter().copied()) {
        format!("unknown handoff attribute `{name}`: did you mean `{close}`?")
    } else {
        let expected: Vec<String> = position.keys().iter().map(|k| format!("`{k}`")).collect();
        format!(
            "unknown handoff attribute `{name}` on {}: expected {}",
            position.describe(),
            expected.join(", ")
        )
    };
    Error::new_spanned(key, message)
}

/// Parses the container's `#[handoff(...)]` attributes.
pub fn container(attrs: &[Attribute], errors: &mut Vec<Error>) -> ContainerAttrs {
    let mut out = ContainerAttrs {
        first_attr: attrs
            .iter()
            .find(|a| a.path().is_ident(HANDOFF))
            .map(ToTokens::to_token_stream),
        ..ContainerAttrs::default()
    };
    for_each_key(attrs, errors, |key, meta, place, errors| {
        out.seen.push(key.to_string());
        if let Some(close) = did_you_mean(&key.to_string(), CONTAINER_KEYS.iter().copied()) {
            out.seen.push(close.to_owned());
        }
        if key == NAME {
            setting(key, meta, place, &mut out.name, errors, |m| {
                string_value(key, m, "\"kebab-case-name\"")
            })
        } else if key == VERSION {
            setting(key, meta, place, &mut out.version, errors, |m| {
                version_value(key, m)
            })
        } else if key == MODE {
            setting(key, meta, place, &mut out.mode, errors, |m| {
                let lit = string_value(key, m, "\"full\"")?;
                Mode::parse(&lit.value()).ok_or_else(|| {
                    Error::new_spanned(
                        &lit,
                        format!(
                            "unknown mode `{}`: expected \"full\", \"backward\", \"forward\", \
                             \"full-transitive\", \"backward-transitive\" or \"forward-transitive\"",
                            lit.value()
                        ),
                    )
                })
            })
        } else if key == CRATE {
            setting(key, meta, place, &mut out.krate, errors, |m| {
                let lit = string_value(key, m, "\"::contract_core\"")?;
                lit.parse::<syn::Path>().map_err(|_| {
                    Error::new_spanned(
                        &lit,
                        format!(
                            "`crate = {}` is not a path: write `crate = \"::contract_core\"`",
                            lit.to_token_stream()
                        ),
                    )
                })
            })
        } else if key == SNAPSHOTS {
            setting(key, meta, place, &mut out.snapshots, errors, |m| {
                let lit = string_value(key, m, "\"contracts\"")?;
                if lit.value().trim().is_empty() {
                    return Err(Error::new_spanned(
                        &lit,
                        "`snapshots` must name a folder, relative to the crate's Cargo.toml",
                    ));
                }
                Ok(lit)
            })
        } else if key == SCHEMA_AS {
            setting(key, meta, place, &mut out.schema_as, errors, |m| {
                type_value(key, m)
            })
        } else if key == ALLOW {
            let new = allow::parse(key, meta, Position::Container, errors)?;
            push_allow(&mut out.allows, new, errors);
            Ok(())
        } else if key == REPR {
            setting(key, meta, place, &mut out.repr, errors, |m| {
                flag_value(key, m)
            })
        } else if key == BY_NAME {
            setting(key, meta, place, &mut out.by_name, errors, |m| {
                flag_value(key, m)
            })
        } else if key == BOUND {
            setting(key, meta, place, &mut out.bound, errors, |m| {
                bound_value(key, m)
            })
        } else {
            errors.push(unknown_key(key, Position::Container));
            skip_value(meta)
        }
    });
    out
}

/// Adds a valid allowance, unless the same rule is already allowed for the same field.
fn push_allow(allows: &mut Vec<Allow>, new: Option<Allow>, errors: &mut Vec<Error>) {
    let Some(new) = new else { return };
    let field = |a: &Allow| a.field.as_ref().map(LitStr::value);
    if let Some(first) = allows
        .iter()
        .find(|a| a.rule == new.rule && field(a) == field(&new))
    {
        errors.push(Error::new_spanned(
            &new.tokens,
            format!(
                "duplicate `allow` of `{}`: `{}` already accepts it here",
                new.rule,
                written(&first.tokens)
            ),
        ));
        return;
    }
    allows.push(new);
}

/// Parses a field's `#[handoff(...)]` attributes.
pub fn field(attrs: &[Attribute], errors: &mut Vec<Error>) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(attrs, errors, |key, meta, place, errors| {
        out.seen.push(key.to_string());
        if key == RENAMED_FROM {
            let mut slot = None;
            setting(key, meta, place, &mut slot, errors, |m| {
                string_value(key, m, "\"oldName\"")
            })?;
            if let Some(new) = slot {
                if let Some(first) = out.renamed_from.iter().find(|s| s.value == new.value) {
                    errors.push(conflict(
                        first,
                        &new,
                        format!(
                            "duplicate `{}`: `{}` is already given",
                            new.written(),
                            first.written()
                        ),
                    ));
                } else {
                    out.renamed_from.push(new);
                }
            }
            Ok(())
        } else if key == ASSUMPTION {
            setting(key, meta, place, &mut out.assumption, errors, |m| {
                flag_value(key, m)
            })
        } else if key == CONFIRMED {
            setting(key, meta, place, &mut out.confirmed, errors, |m| {
                flag_value(key, m)
            })
        } else if key == SCHEMA_AS {
            setting(key, meta, place, &mut out.schema_as, errors, |m| {
                type_value(key, m)
            })
        } else if key == ALLOW {
            let new = allow::parse(key, meta, Position::Field, errors)?;
            push_allow(&mut out.allows, new, errors);
            Ok(())
        } else {
            errors.push(unknown_key(key, Position::Field));
            skip_value(meta)
        }
    });
    out
}

/// Parses an enum variant's `#[handoff(...)]` attributes.
pub fn variant(attrs: &[Attribute], errors: &mut Vec<Error>) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for_each_key(attrs, errors, |key, meta, place, errors| {
        out.seen.push(key.to_string());
        if key == SCHEMA_AS {
            setting(key, meta, place, &mut out.schema_as, errors, |m| {
                type_value(key, m)
            })
        } else {
            errors.push(unknown_key(key, Position::Variant));
            skip_value(meta)
        }
    });
    out
}

/// One key of a `#[serde(...)]` attribute, as written.
pub struct SerdeKey {
    /// The key (`with`, `tag`, `flatten`).
    pub key: String,
    /// The tokens `key = value`.
    pub tokens: TokenStream,
    /// Where it is written among the item's `#[serde(...)]` attributes.
    pub place: Place,
}

/// The keys of every `#[serde(...)]` attribute. serde itself reports malformed ones, so
/// syntax errors here are ignored; only the keys the derive must see are looked up.
pub fn serde_keys(attrs: &[Attribute]) -> Vec<SerdeKey> {
    let mut out = Vec::new();
    for (index, attr) in attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .enumerate()
    {
        let mut key_index = 0;
        let _ignored = attr.parse_nested_meta(|meta| {
            let rest = value_tokens(meta.input);
            let path = &meta.path;
            out.push(SerdeKey {
                key: path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                tokens: quote!(#path #rest),
                place: Place {
                    attr: index,
                    key: key_index,
                },
            });
            key_index += 1;
            skip_value(&meta)
        });
    }
    out
}

/// Whether `key` was written among `seen`.
pub fn was_seen(seen: &[String], key: &str) -> bool {
    seen.iter().any(|k| k == key)
}

/// The first serde key among `keys`.
pub fn find_serde_key<'a>(keys: &'a [SerdeKey], names: &[&str]) -> Option<&'a SerdeKey> {
    keys.iter().find(|k| names.contains(&k.key.as_str()))
}

/// The lines of the doc comments (`#[doc = "..."]`) among `attrs`.
pub fn doc(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    crate::case::trim_doc(&lines)
}
