//! `#[handoff(allow(RULE_ID, reason = "…"))]`: a finding of the compatibility engine
//! accepted on purpose, with the reason kept in the report.
//!
//! On a field, the allowance applies to that field (its wire names). On the container it
//! names the field with `field = "wireName"`: the field a finding is about may no longer
//! exist (`FIELD_REMOVED`). The rule id must be one of the catalogue's
//! (`contract_schema::compat::Rule`), so that a typo never silently allows nothing.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Error, Ident, LitStr, Token};

use contract_schema::compat::Rule;
use contract_schema::suggest::did_you_mean;

use crate::symbol::{ALLOW_FIELD, ALLOW_KEYS, ALLOW_REASON};
use crate::syntax::{skip_to_comma, string_literal, value_tokens, written, Position};

/// One valid `allow(...)`, as written.
pub struct Allow {
    /// The rule it accepts.
    pub rule: Rule,
    /// `field = "wireName"` (container only).
    pub field: Option<LitStr>,
    /// `reason = "…"`, not empty.
    pub reason: String,
    /// The tokens `allow(...)`, for errors about the whole allowance.
    pub tokens: TokenStream,
}

/// The form an `allow` takes where it is written, for messages.
fn example(position: Position) -> &'static str {
    match position {
        Position::Container => {
            "allow(FIELD_REMOVED, field = \"wireName\", reason = \"why it is accepted\")"
        }
        Position::Field | Position::Variant => {
            "allow(FIELD_BECAME_REQUIRED, reason = \"why it is accepted\")"
        }
    }
}

/// Parses the value of an `allow` key at `position`. Every problem is pushed to `errors`;
/// the allowance is returned only when it is valid.
pub fn parse(
    key: &Ident,
    meta: &ParseNestedMeta,
    position: Position,
    errors: &mut Vec<Error>,
) -> syn::Result<Option<Allow>> {
    let rest = value_tokens(meta.input);
    let tokens = quote!(#key #rest);
    if !meta.input.peek(syn::token::Paren) {
        errors.push(Error::new_spanned(
            &tokens,
            format!(
                "`{key}` takes a rule id and a reason: `{}`",
                example(position)
            ),
        ));
        skip_to_comma(meta.input)?;
        return Ok(None);
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let before = errors.len();
    let parts = parse_parts(&content, position, errors);
    let mut valid = errors.len() == before;
    let rule = match parts.rule {
        Some((rule, _)) => Some(rule),
        None => {
            if !parts.rule_seen {
                errors.push(Error::new_spanned(
                    &tokens,
                    format!(
                        "`{}` needs a rule id first: `{}`",
                        written(&tokens),
                        example(position)
                    ),
                ));
            }
            valid = false;
            None
        }
    };
    let reason = match parts.reason {
        Some(lit) if lit.value().trim().is_empty() => {
            errors.push(Error::new_spanned(
                &lit,
                "the reason of an `allow` must say why the finding is accepted: it is kept in \
                 the compatibility report",
            ));
            None
        }
        Some(lit) => Some(lit.value()),
        None => {
            if !parts.reason_seen {
                errors.push(Error::new_spanned(
                    &tokens,
                    format!(
                        "`{}` needs a reason, kept in the compatibility report: `{}`",
                        written(&tokens),
                        example(position)
                    ),
                ));
            }
            None
        }
    };
    match (&parts.field, position) {
        (Some(field), Position::Field | Position::Variant) => {
            errors.push(Error::new_spanned(
                field,
                format!(
                    "`{ALLOW_FIELD} = {}` belongs on an `allow` on the struct: on a field, the \
                     allowance already applies to that field",
                    field.to_token_stream()
                ),
            ));
            valid = false;
        }
        (None, Position::Container) if !parts.field_seen => {
            errors.push(Error::new_spanned(
                &tokens,
                format!(
                    "`{}` on the struct needs `{ALLOW_FIELD} = \"wireName\"`, the field the \
                     finding is about (for a field that still exists, put the `allow` on the \
                     field): `{}`",
                    written(&tokens),
                    example(position)
                ),
            ));
            valid = false;
        }
        _ => {}
    }
    Ok(match (rule, reason) {
        (Some(rule), Some(reason)) if valid => Some(Allow {
            rule,
            field: parts.field,
            reason,
            tokens,
        }),
        _ => None,
    })
}

/// What was found inside the parentheses; `*_seen` records a part written but rejected, so
/// that it is not also reported missing.
#[derive(Default)]
struct Parts {
    rule: Option<(Rule, Ident)>,
    rule_seen: bool,
    field: Option<LitStr>,
    field_seen: bool,
    reason: Option<LitStr>,
    reason_seen: bool,
}

fn parse_parts(content: ParseStream, position: Position, errors: &mut Vec<Error>) -> Parts {
    let mut parts = Parts::default();
    while !content.is_empty() {
        if let Err(err) = parse_part(content, position, &mut parts, errors) {
            errors.push(err);
            // Resynchronise at the next comma.
            if skip_to_comma(content).is_err() {
                return parts;
            }
        }
        if content.is_empty() {
            break;
        }
        if let Err(err) = content.parse::<Token![,]>() {
            errors.push(err);
            return parts;
        }
    }
    parts
}

fn parse_part(
    content: ParseStream,
    position: Position,
    parts: &mut Parts,
    errors: &mut Vec<Error>,
) -> syn::Result<()> {
    if content.peek(LitStr) {
        let lit: LitStr = content.parse()?;
        parts.rule_seen = true;
        return Err(Error::new_spanned(
            &lit,
            format!(
                "write the rule id without quotes: `allow({}, …)`",
                lit.value().trim()
            ),
        ));
    }
    let ident: Ident = content.parse().map_err(|err| {
        Error::new(
            err.span(),
            format!(
                "expected a rule id or `reason = \"…\"`: `{}`",
                example(position)
            ),
        )
    })?;
    if !content.peek(Token![=]) {
        if ALLOW_KEYS.iter().any(|k| ident == k) {
            if ident == ALLOW_REASON {
                parts.reason_seen = true;
            } else {
                parts.field_seen = true;
            }
            return Err(Error::new_spanned(
                &ident,
                format!("`{ident}` takes a value: `{ident} = \"…\"`"),
            ));
        }
        if let Some((_, first)) = &parts.rule {
            errors.push(Error::new_spanned(
                &ident,
                format!(
                    "one rule per `allow`: `{first}` is already given; write another `allow(...)` \
                     for `{ident}`"
                ),
            ));
            return Ok(());
        }
        parts.rule_seen = true;
        let id = ident.to_string();
        match Rule::from_id(&id) {
            Some(rule) => parts.rule = Some((rule, ident)),
            None => errors.push(unknown_rule(&ident, &id)),
        }
        return Ok(());
    }
    content.parse::<Token![=]>()?;
    let key = ident.to_string();
    let (slot, seen) = if key == ALLOW_FIELD {
        (&mut parts.field, &mut parts.field_seen)
    } else if key == ALLOW_REASON {
        (&mut parts.reason, &mut parts.reason_seen)
    } else {
        let message = match did_you_mean(&key, ALLOW_KEYS.iter().copied()) {
            Some(close) => format!("unknown key `{key}` in `allow(...)`: did you mean `{close}`?"),
            None => format!(
                "unknown key `{key}` in `allow(...)`: expected `{ALLOW_REASON} = \"…\"` (and, on \
                 the struct, `{ALLOW_FIELD} = \"wireName\"`)"
            ),
        };
        errors.push(Error::new_spanned(&ident, message));
        skip_to_comma(content)?;
        return Ok(());
    };
    *seen = true;
    let lit = string_literal(content, &key, "\"…\"")?;
    if key == ALLOW_FIELD && lit.value().trim().is_empty() {
        return Err(Error::new_spanned(
            &lit,
            "`field` must name the wire name of the field the finding is about",
        ));
    }
    match slot {
        Some(first) => Err(Error::new_spanned(
            &lit,
            format!(
                "duplicate `{key}` in `allow(...)`: `{key} = {}` is already given",
                first.to_token_stream()
            ),
        )),
        None => {
            *slot = Some(lit);
            Ok(())
        }
    }
}

/// An unknown rule id, with the closest id of the catalogue.
fn unknown_rule(ident: &Ident, id: &str) -> Error {
    let upper = id.to_ascii_uppercase();
    let close = Rule::from_id(&upper)
        .map(Rule::id)
        .or_else(|| did_you_mean(&upper, Rule::ALL.iter().map(|r| r.id())));
    let message = match close {
        Some(close) => format!("unknown compatibility rule `{id}`: did you mean `{close}`?"),
        None => format!(
            "unknown compatibility rule `{id}`: expected a rule id of the catalogue, such as \
             `FIELD_REMOVED` or `TYPE_CHANGED` (see `contract_core::compat`)"
        ),
    };
    Error::new_spanned(ident, message)
}

#[cfg(test)]
mod tests {
    use crate::ast::DeriveKind;
    use crate::expand::derive;

    fn errors(source: &str) -> Vec<String> {
        let item: syn::DeriveInput = syn::parse_str(source).expect("test input parses");
        let out = derive(&item, DeriveKind::Contract).to_string();
        out.split("compile_error")
            .skip(1)
            .map(|s| s.chars().take(200).collect())
            .collect()
    }

    fn field(allow: &str) -> String {
        format!(r#"#[handoff(name = "a", version = 1)] struct A {{ #[handoff({allow})] x: u8 }}"#)
    }

    #[test]
    fn valid_allows_expand_into_the_contract_info() {
        let item: syn::DeriveInput = syn::parse_str(
            r#"#[handoff(name = "a", version = 1)]
               #[handoff(allow(FIELD_REMOVED, field = "old", reason = "gone"))]
               struct A { #[handoff(allow(TYPE_CHANGED, reason = "why"))] x: u8 }"#,
        )
        .expect("test input parses");
        let out = derive(&item, DeriveKind::Contract).to_string();
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("rule : \"FIELD_REMOVED\""), "{out}");
        assert!(out.contains("field : \"old\""), "{out}");
        assert!(out.contains("rule : \"TYPE_CHANGED\""), "{out}");
        assert!(out.contains("field : \"x\""), "{out}");
    }

    #[test]
    fn each_mistake_is_one_located_error() {
        let cases = [
            ("allow", "takes a rule id and a reason"),
            ("allow = \"FIELD_REMOVED\"", "takes a rule id and a reason"),
            ("allow()", "needs a rule id first"),
            ("allow(reason = \"r\")", "needs a rule id first"),
            ("allow(FIELD_REMOVED)", "needs a reason"),
            ("allow(FIELD_REMOVED, reason = \"\")", "must say why"),
            ("allow(FIELD_REMOVED, reason = 3)", "takes a string literal"),
            ("allow(FIELD_REMOVED, reason)", "`reason` takes a value"),
            ("allow(\"FIELD_REMOVED\", reason = \"r\")", "without quotes"),
            (
                "allow(field_removed, reason = \"r\")",
                "did you mean `FIELD_REMOVED`",
            ),
            (
                "allow(NO_SUCH_THING_AT_ALL, reason = \"r\")",
                "unknown compatibility rule",
            ),
            (
                "allow(FIELD_REMOVED, TYPE_CHANGED, reason = \"r\")",
                "one rule per `allow`",
            ),
            (
                "allow(FIELD_REMOVED, reasn = \"r\")",
                "did you mean `reason`",
            ),
            (
                "allow(FIELD_REMOVED, reason = \"a\", reason = \"b\")",
                "duplicate `reason`",
            ),
            (
                "allow(FIELD_REMOVED, field = \"x\", reason = \"r\")",
                "belongs on an `allow` on the struct",
            ),
            (
                "allow(FIELD_REMOVED, reason = \"r\"), allow(FIELD_REMOVED, reason = \"s\")",
                "duplicate `allow`",
            ),
            ("allow(FIELD_REMOVED reason = \"r\")", "expected"),
            ("allow(FIELD_REMOVED, reason = \"r\",,)", "expected"),
        ];
        for (allow, expected) in cases {
            let errors = errors(&field(allow));
            assert!(!errors.is_empty(), "no error for {allow}");
            assert!(
                errors.iter().any(|e| e.contains(expected)),
                "{allow}: expected `{expected}` in {errors:?}"
            );
        }
    }

    #[test]
    fn the_container_form_needs_a_field() {
        let found = errors(
            r#"#[handoff(name = "a", version = 1, allow(FIELD_REMOVED, reason = "r"))] struct A { x: u8 }"#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("needs `field = \\\"wireName\\\"`"),
            "{found:?}"
        );
        let found = errors(
            r#"#[handoff(name = "a", version = 1, allow(FIELD_REMOVED, field = " ", reason = "r"))] struct A { x: u8 }"#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn allow_on_a_variant_is_not_a_key_of_variants() {
        let errors = errors(
            r#"#[handoff(name = "a", version = 1)] enum A { #[handoff(allow(FIELD_REMOVED, reason = "r"))] X }"#,
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("does not belong on an enum variant")),
            "{errors:?}"
        );
    }
}
