//! Rules across attributes, fields and variants: what is missing, contradictory or beyond
//! what the description can say faithfully. Every problem is collected.

use contract_schema::contract::is_contract_name;
use syn::Error;

use crate::ast::{Data, DeriveKind, Field, Input, Style, Variant};
use crate::attr::{conflict, find_serde_key, was_seen, SerdeKey};
use crate::case::to_kebab_case;
use crate::symbol::{ASSUMPTION, CONFIRMED, SCHEMA_AS};
use crate::symbol::{NAME, VERSION};
use crate::syntax::written;

/// The serde keys on a field or variant that change its wire form invisibly.
const FIELD_CODEC_KEYS: &[&str] = &["with", "serialize_with", "deserialize_with", "getter"];
/// The serde keys on a container that change its wire form invisibly.
const CONTAINER_CODEC_KEYS: &[&str] = &["from", "into", "try_from", "remote"];

fn serde_written(key: &SerdeKey) -> String {
    format!("#[serde({})]", written(&key.tokens))
}

/// An error for each of `keys` among the serde keys written: they change `what` (the wire
/// form of a container, field or variant) invisibly, so `schema_as` must describe `described`.
fn check_codec_keys(
    written: &[SerdeKey],
    keys: &[&str],
    what: &str,
    described: &str,
    errors: &mut Vec<Error>,
) {
    // One fix (`schema_as`) for every such key of the item: one error.
    let found: Vec<(crate::attr::Place, &proc_macro2::TokenStream, String)> = written
        .iter()
        .filter(|k| keys.contains(&k.key.as_str()))
        .map(|k| (k.place, &k.tokens, serde_written(k)))
        .collect();
    errors.extend(crate::attr::together(&found, |listed, several| {
        let verb = if several { "change" } else { "changes" };
        format!(
            "{listed} {verb} {what} in a way the derive cannot see: add \
             `#[handoff(schema_as = WireType)]` naming a type whose schema describes \
             {described}"
        )
    }));
}

/// Checks `input`, appending every problem to `errors`.
pub fn check(input: &Input, errors: &mut Vec<Error>) {
    check_identity(input, errors);
    check_generic_flatten(input, errors);
    check_allows_on_schema(input, errors);
    check_container_serde(input, errors);
    crate::repr::check(input, errors);
    let container_schema_as = was_seen(&input.attrs.seen, SCHEMA_AS);
    match &input.data {
        Data::Struct(fields) => {
            check_fields(fields, true, container_schema_as, errors);
        }
        Data::Newtype(field) => {
            check_fields(
                std::slice::from_ref(&**field),
                false,
                container_schema_as,
                errors,
            );
        }
        Data::Tuple(fields) => {
            check_fields(fields, false, container_schema_as, errors);
            if !container_schema_as {
                check_tuple_skips(fields, Tuple::Struct, errors);
            }
        }
        Data::Unit => {}
        Data::Enum(repr, variants) => {
            check_untagged_variants(repr, variants, errors);
            for variant in variants.iter().filter(|v| !v.is_skipped()) {
                check_variant(variant, container_schema_as, errors);
            }
        }
    }
}

/// A generic contract publishes one snapshot for all its arguments, each type parameter a
/// hole (`any`): a flattened field of a parameter's type makes the argument's fields the
/// contract's own top-level fields, which a hole cannot say, so it cannot be published.
fn check_generic_flatten(input: &Input, errors: &mut Vec<Error>) {
    if input.derive != DeriveKind::Contract {
        return;
    }
    let params: Vec<String> = input
        .original
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    if params.is_empty() {
        return;
    }
    let fields: Vec<&Field> = match &input.data {
        Data::Struct(fields) => fields.iter().collect(),
        Data::Enum(_, variants) => variants
            .iter()
            .filter(|v| !v.is_skipped())
            .flat_map(|v| v.fields.iter())
            .collect(),
        _ => Vec::new(),
    };
    for field in fields {
        if !field.flatten || field.is_skipped() {
            continue;
        }
        let ty = field.wire_type();
        let Some(param) = params
            .iter()
            .find(|p| crate::syntax::mentions_ident(&quote::quote!(#ty), p))
        else {
            continue;
        };
        errors.push(Error::new_spanned(
            ty,
            format!(
                "`#[serde(flatten)]` of a type that holds the parameter `{param}` cannot be \
                 published: a generic contract publishes one snapshot for every argument, each \
                 type parameter as a hole (`any`), and a flattened argument's fields are the \
                 contract's own fields, which a hole cannot say; nest it in a field instead of \
                 flattening it, or make a non-generic contract per argument"
            ),
        ));
    }
}

/// `name` and `version`: required, valid, and only on contracts.
fn check_identity(input: &Input, errors: &mut Vec<Error>) {
    let attrs = &input.attrs;
    match input.derive {
        DeriveKind::Contract => {
            let missing = |key: &str, example: &str| {
                let message = format!("missing `{key}`: a contract needs `#[handoff({example})]`");
                match &attrs.first_attr {
                    Some(tokens) => Error::new_spanned(tokens, message),
                    None => Error::new_spanned(&input.original.ident, message),
                }
            };
            let example = format!(
                "name = \"{}\", version = 1",
                to_kebab_case(&input.original.ident.to_string())
            );
            let name_missing = attrs.name.is_none() && !was_seen(&attrs.seen, NAME);
            let version_missing = attrs.version.is_none() && !was_seen(&attrs.seen, VERSION);
            if name_missing && version_missing {
                // One mistake (no identity at all), one error.
                errors.push(missing("name` and `version", &example));
            }
            match &attrs.name {
                None if was_seen(&attrs.seen, NAME) || version_missing => {}
                None => errors.push(missing(NAME, &example)),
                Some(name) => {
                    let value = name.value.value();
                    if !is_contract_name(&value) {
                        let suggestion = to_kebab_case(&value);
                        let hint = if value.starts_with(|c: char| c.is_ascii_digit()) {
                            // The kebab spelling would silently drop the leading digits.
                            "begin it with a letter, like `refund-request`".to_owned()
                        } else if suggestion.is_empty() {
                            "use lowercase words joined by hyphens, like `refund-request`"
                                .to_owned()
                        } else {
                            format!("use `name = \"{suggestion}\"`")
                        };
                        errors.push(Error::new_spanned(
                            &name.value,
                            format!(
                                "contract name `{value}` is not kebab-case \
                                 (lowercase words joined by hyphens, starting with a letter): \
                                 {hint}"
                            ),
                        ));
                    }
                }
            }
            match &attrs.version {
                None if was_seen(&attrs.seen, VERSION) || name_missing => {}
                None => errors.push(missing(VERSION, &example)),
                Some(version) if version.value == 0 => errors.push(version.error(format!(
                    "`{}`: contract versions start at 1",
                    version.written()
                ))),
                Some(_) => {}
            }
        }
        DeriveKind::Schema => {
            // The settings of a contract written on a nested type: one mistake (the derive
            // chosen), one error.
            let mut settings: Vec<(crate::attr::Place, &proc_macro2::TokenStream, String)> =
                Vec::new();
            if let Some(s) = &attrs.name {
                settings.push((s.place, &s.tokens, s.written()));
            }
            if let Some(s) = &attrs.version {
                settings.push((s.place, &s.tokens, s.written()));
            }
            if let Some(s) = &attrs.mode {
                settings.push((s.place, &s.tokens, s.written()));
            }
            if let Some(s) = &attrs.snapshots {
                settings.push((s.place, &s.tokens, s.written()));
            }
            settings.sort_by_key(|(place, _, _)| *place);
            errors.extend(crate::attr::together(&settings, |listed, several| {
                let verb = if several { "belong" } else { "belongs" };
                format!(
                    "{listed} {verb} on #[derive(HandoffContract)]: #[derive(HandoffSchema)] \
                     describes a nested type, without a name, version or snapshots"
                )
            }));
        }
    }
}

/// `allow(...)` accepts a finding between versions of a contract: a nested type has none.
fn check_allows_on_schema(input: &Input, errors: &mut Vec<Error>) {
    if input.derive != DeriveKind::Schema {
        return;
    }
    let fields = input.all_fields();
    let allows = input
        .attrs
        .allows
        .iter()
        .chain(fields.iter().flat_map(|f| f.attrs.allows.iter()));
    for allow in allows {
        errors.push(Error::new_spanned(
            &allow.tokens,
            format!(
                "`{}` belongs on #[derive(HandoffContract)]: only a contract is checked against \
                 its published versions; put the `allow` on the contract that contains this type",
                written(&allow.tokens)
            ),
        ));
    }
}

/// serde container attributes that hide the wire form, or that the description cannot say.
fn check_container_serde(input: &Input, errors: &mut Vec<Error>) {
    if !was_seen(&input.attrs.seen, SCHEMA_AS) {
        check_codec_keys(
            &input.serde_keys,
            CONTAINER_CODEC_KEYS,
            "the wire form",
            "it",
            errors,
        );
    }
    if !matches!(input.data, Data::Enum(..)) {
        if let Some(key) = find_serde_key(&input.serde_keys, &["tag"]) {
            errors.push(Error::new_spanned(
                &key.tokens,
                format!(
                    "`{}` on a struct is not supported by handoff-contract: \
                     add the tag as a field, or wrap the struct in an internally tagged enum",
                    serde_written(key)
                ),
            ));
        }
    }
    if let Some(key) = find_serde_key(
        &input.serde_keys,
        &["variant_identifier", "field_identifier"],
    ) {
        errors.push(Error::new_spanned(
            &key.tokens,
            format!(
                "`{}` is not supported by handoff-contract: it describes identifiers, not a payload",
                serde_written(key)
            ),
        ));
    }
}

fn check_fields(fields: &[Field], named: bool, container_schema_as: bool, errors: &mut Vec<Error>) {
    for field in fields.iter().filter(|f| !f.is_skipped()) {
        check_field(field, named, container_schema_as, errors);
    }
}

fn check_field(field: &Field, named: bool, container_schema_as: bool, errors: &mut Vec<Error>) {
    let attrs = &field.attrs;
    if container_schema_as {
        if let Some(schema_as) = &attrs.schema_as {
            errors.push(schema_as.error(format!(
                "`{}` has no effect: an enclosing `schema_as` already describes the whole \
                 wire form; remove one of them",
                schema_as.key
            )));
        }
    }
    for renamed in &attrs.renamed_from {
        let old = renamed.value.value();
        if !named {
            errors.push(renamed.error(format!(
                "`{}` applies to named fields only: an unnamed field is matched by position",
                renamed.written()
            )));
        } else if old == field.ser_name || old == field.de_name {
            errors.push(renamed.error(format!(
                "`{}` names the field's current wire name: `renamed_from` lists names \
                 the field had in earlier versions",
                renamed.written()
            )));
        }
    }
    if let (Some(assumption), Some(confirmed)) = (&attrs.assumption, &attrs.confirmed) {
        // One mistake, one error: at the later of the two keys (or across both).
        let message = |later: &str, earlier: &str| {
            format!(
                "`{later}` conflicts with `{earlier}` on the same field: a field is either an \
                 `assumption` or `confirmed`, not both; remove one"
            )
        };
        errors.push(if assumption.place < confirmed.place {
            conflict(assumption, confirmed, message(CONFIRMED, ASSUMPTION))
        } else {
            conflict(confirmed, assumption, message(ASSUMPTION, CONFIRMED))
        });
    }
    if !container_schema_as {
        check_option_with_deserializer(field, errors);
    }
    if !was_seen(&attrs.seen, SCHEMA_AS) && !container_schema_as {
        check_codec_keys(
            &field.serde_keys,
            FIELD_CODEC_KEYS,
            "the field's wire form",
            "it",
            errors,
        );
    }
}

/// serde reads a missing `Option` field as `None` only through `Option`'s own
/// deserializer: with `deserialize_with` (or `with`) the field is required unless it has a
/// `default`, which the description, where every `Option` may be absent, cannot say.
fn check_option_with_deserializer(field: &Field, errors: &mut Vec<Error>) {
    if field.default || field.skip_deserializing || !crate::option::is_option(field.wire_type()) {
        return;
    }
    if let Some(key) = find_serde_key(&field.serde_keys, &["with", "deserialize_with"]) {
        errors.push(Error::new_spanned(
            &key.tokens,
            format!(
                "`{}` on an `Option` field makes serde require the field (a missing field is \
                 no longer read as `None`); add `#[serde(default)]` so that it may be absent",
                serde_written(key)
            ),
        ));
    }
}

/// Whose fields [`check_tuple_skips`] checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tuple {
    /// A tuple struct's: a type of its own, which may have two views.
    Struct,
    /// A tuple variant's: one array inside its enum's description.
    Variant,
}

/// The fields of a tuple struct or a tuple variant that serde writes in a way no array of
/// fixed length says: skipped when a predicate holds (serde writes a shorter array then, the
/// later items moving up), or, in a tuple variant, skipped in one direction only (a tuple
/// struct then has two views, each with its own length).
fn check_tuple_skips(fields: &[Field], tuple: Tuple, errors: &mut Vec<Error>) {
    let whose = match tuple {
        Tuple::Struct => "a tuple struct's",
        Tuple::Variant => "a tuple variant's",
    };
    for field in fields {
        let (keys, message): (&[&str], String) = if field.skip_serializing_if
            && !field.skip_serializing
        {
            (
                &["skip_serializing_if"],
                format!(
                    "`skip_serializing_if` on {whose} field: serde writes a shorter array \
                         when the predicate holds (the later items move up), which a tuple of \
                         fixed length cannot describe; use `#[serde(skip)]`, named fields, or \
                         `#[handoff(schema_as = …)]` on the type naming its wire form"
                ),
            )
        } else if tuple == Tuple::Variant && field.skip_serializing != field.skip_deserializing {
            (
                &["skip_serializing", "skip_deserializing"],
                format!(
                    "skipping {whose} field in one direction only is not supported: the \
                         variant's array would differ in length between the sender and the \
                         receiver (serde cannot read back what it writes); use \
                         `#[serde(skip)]`, a tuple struct (whose two views are described), or \
                         `#[handoff(schema_as = …)]` on the variant naming its wire form"
                ),
            )
        } else {
            continue;
        };
        match find_serde_key(&field.serde_keys, keys) {
            Some(key) => errors.push(Error::new_spanned(&key.tokens, message)),
            None => errors.push(Error::new_spanned(field.original, message)),
        }
    }
}

/// `#[serde(untagged)]` on some variants of a tagged enum: described, except beside
/// `#[serde(other)]` on the same variant (serde accepts it there, as the last variant, but
/// the variant then reads only its content, never an unknown tag: the attribute would say
/// what serde does not do). serde's own front end rejects an untagged variant before a
/// tagged one.
fn check_untagged_variants(repr: &crate::ast::Repr, variants: &[Variant], errors: &mut Vec<Error>) {
    if matches!(repr, crate::ast::Repr::Untagged) || variants.iter().all(|v| v.untagged) {
        return;
    }
    for variant in variants.iter().filter(|v| v.untagged && v.other) {
        let message = format!(
            "`#[serde(other)]` on the untagged variant `{}` is not supported by \
             handoff-contract: serde never reads an unknown tag into an untagged variant; \
             remove `other`, or `untagged`",
            variant.name
        );
        match find_serde_key(&variant.serde_keys, &["other"]) {
            Some(key) => errors.push(Error::new_spanned(&key.tokens, message)),
            None => errors.push(Error::new_spanned(&variant.original.ident, message)),
        }
    }
}

fn check_variant(variant: &Variant, container_schema_as: bool, errors: &mut Vec<Error>) {
    if !was_seen(&variant.attrs.seen, SCHEMA_AS) && !container_schema_as {
        check_codec_keys(
            &variant.serde_keys,
            FIELD_CODEC_KEYS,
            "the variant's wire form",
            "the variant's content",
            errors,
        );
    }
    let named = variant.style == Style::Struct;
    let skip_fields = variant.attrs.schema_as.is_some() || container_schema_as;
    check_fields(&variant.fields, named, skip_fields, errors);
    if variant.style == Style::Tuple && !skip_fields {
        check_tuple_skips(&variant.fields, Tuple::Variant, errors);
    }
}
