//! The compile-time check of a contract against its published snapshot.
//!
//! For `#[derive(HandoffContract)]` on a non-generic struct with named fields (no `flatten`,
//! no container `schema_as`), the derive reads `<snapshots dir>/<name>.v<N>.snap`:
//!
//! - no file: the version is new and unpublished; nothing more is emitted;
//! - a file: `include_bytes!` of it is emitted, so that editing the snapshot recompiles the
//!   contract; the file is read by `contract_schema::snapshot`, as the snapshot test and the
//!   `handoff` command read it (an unreadable file is an error at `version` naming the file,
//!   line and column: `contracts/NAME.vN.snap:LINE:COLUMN: …`); the new schema is rebuilt
//!   from the syntax (see [`crate::wire`]) and the compatibility engine runs under the
//!   contract's mode with its allowances. Every breaking finding becomes an error at the
//!   offending field (at the struct for a field that no longer exists), with the rule, why,
//!   the snapshot file and the fixes.
//!
//! What the syntax cannot tell (a named type, an alias, a type from another crate) is taken
//! from the snapshot, i.e. assumed unchanged: the snapshot test, which runs the engine on
//! the real description, catches a change there. Enums, generic contracts and structs with
//! `flatten` are left to the snapshot test entirely.

use std::collections::BTreeMap;
use std::path::Path;

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::Error;

use contract_schema::compat::{self, Allowance, Allowances, Concern, Direction, Finding, Rule};
use contract_schema::model::{
    Body, Emit, FieldDef, ReceiverField, Schema, SenderField, StructDef, Type, TypeDef, Unknown,
};
use contract_schema::snapshot::{self, PublishedError};
use contract_schema::{ContractId, Mode, Provenance};

use crate::ast::{Data, Field, Input};
use crate::attr::find_serde_key;
use crate::wire::Wire;

/// What the check needs to know about the contract.
pub struct Contract<'a> {
    /// The kebab-case name.
    pub name: &'a str,
    /// The major version.
    pub version: u32,
    /// The compatibility mode.
    pub mode: Mode,
    /// The absolute snapshots folder.
    pub dir: &'a str,
    /// The snapshots folder as written (relative to `Cargo.toml`), for messages.
    pub relative: &'a str,
}

impl Contract<'_> {
    /// The contract's id, displayed `name/vN`.
    fn id(&self) -> ContractId {
        ContractId {
            name: self.name.to_owned(),
            version: self.version,
        }
    }
}

/// The outcome: tokens to emit inside the const block, and the errors.
#[derive(Default)]
pub struct Outcome {
    /// `const _: &[u8] = include_bytes!("…");` when the snapshot exists.
    pub track: TokenStream,
    /// `const PUBLISHED: …` with every published snapshot of the contract's name.
    pub embedded: TokenStream,
    /// One error per breaking finding (or one for an unreadable snapshot).
    pub errors: Vec<Error>,
}

/// Whether the compile-time check applies to `input` (otherwise only the snapshot test
/// checks it).
fn applies<'i, 'a>(input: &'i Input<'a>) -> Option<&'i [Field<'a>]> {
    if input.original.generics.params.iter().next().is_some() || input.attrs.schema_as.is_some() {
        return None;
    }
    match &input.data {
        Data::Struct(fields) if !fields.iter().any(|f| f.flatten && !f.is_skipped()) => {
            Some(fields)
        }
        _ => None,
    }
}

/// `HandoffContract::PUBLISHED`: every snapshot file of the contract's name in its folder
/// (`<name>.v<N>.snap`, any `N`), embedded with `include_str!` so that editing one
/// recompiles the contract. A file added later is seen after the next rebuild; a file that
/// is not UTF-8 is left out (the published check reports it). Empty when the folder cannot
/// be listed.
pub fn embedded(contract: &Contract, krate: &syn::Path) -> TokenStream {
    let mut files: Vec<(u32, String)> = std::fs::read_dir(contract.dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let id = snapshot::parse_file_name(entry.file_name().to_str()?)?;
            let path = entry.path();
            let readable = std::fs::read_to_string(&path).is_ok();
            (id.name == contract.name && readable)
                .then(|| Some((id.version, path.to_str()?.to_owned())))
                .flatten()
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return TokenStream::new();
    }
    let entries = files.iter().map(|(version, path)| {
        quote!(#krate::PublishedSnapshot { version: #version, text: ::core::include_str!(#path) })
    });
    quote! {
        const PUBLISHED: &'static [#krate::PublishedSnapshot] = &[#(#entries),*];
    }
}

/// Checks `input` against its published snapshot, if any.
pub fn check(input: &Input, contract: &Contract) -> Outcome {
    let Some(fields) = applies(input) else {
        return Outcome::default();
    };
    let path = snapshot::path(Path::new(contract.dir), contract.name, contract.version);
    // The file as the user names it: relative to `Cargo.toml`.
    let shown = format!(
        "{}/{}",
        contract.relative.trim_end_matches(['/', '\\']),
        snapshot::file_name(contract.name, contract.version)
    );
    let at_version = || match &input.attrs.version {
        Some(version) => version.tokens.clone(),
        None => input.original.ident.to_token_stream(),
    };
    let read = snapshot::read_published(&path);
    // A file that exists is tracked, even when it does not parse: fixing it recompiles.
    let exists = match &read {
        Ok(published) => published.is_some(),
        Err(e) => e.is_in_contents(),
    };
    let track = match path.to_str() {
        Some(abs) if exists => quote!(
            const _: &[u8] = ::core::include_bytes!(#abs);
        ),
        _ => TokenStream::new(),
    };
    let published = match read {
        Ok(Some(published)) => published,
        // No file: the version is new and unpublished.
        Ok(None) => return Outcome::default(),
        Err(error) => {
            let error = PublishedError::Unreadable {
                contract: contract.id(),
                error: error.with_path(&shown),
            };
            return Outcome {
                track,
                errors: vec![Error::new_spanned(at_version(), error)],
                ..Outcome::default()
            };
        }
    };
    let new = rebuild(input, fields, contract, &published);
    let allowances = allowances(input);
    let report = compat::evolve_with(&published, &new, contract.mode, &allowances);
    let errors = report_errors(input, fields, contract, &shown, report.findings());
    Outcome {
        track,
        errors,
        ..Outcome::default()
    }
}

/// The allowances as the runtime reads them from `ContractInfo::allows`.
fn allowances(input: &Input) -> Allowances {
    allow_entries(input)
        .into_iter()
        .map(|(rule, field, reason)| Allowance {
            rule: rule.id().to_owned(),
            field,
            reason,
        })
        .collect()
}

/// Every allowance as (rule, field, reason): the container's name their field, a field's
/// own apply to its wire names (the serialize name, and the deserialize name when it
/// differs, since a finding names the field as the new side sends or reads it).
pub fn allow_entries(input: &Input) -> Vec<(Rule, String, String)> {
    let mut out = Vec::new();
    for allow in &input.attrs.allows {
        if let Some(field) = &allow.field {
            out.push((allow.rule, field.value(), allow.reason.clone()));
        }
    }
    for field in input.all_fields() {
        for allow in &field.attrs.allows {
            out.push((allow.rule, field.ser_name.clone(), allow.reason.clone()));
            if field.de_name != field.ser_name {
                out.push((allow.rule, field.de_name.clone(), allow.reason.clone()));
            }
        }
    }
    out
}

/// The new schema: the published one with the root struct rebuilt from the syntax.
fn rebuild(input: &Input, fields: &[Field], contract: &Contract, published: &Schema) -> Schema {
    let root_name = match &published.root {
        Type::Named(name) => name.clone(),
        _ => syn::ext::IdentExt::unraw(&input.original.ident).to_string(),
    };
    let old_fields: &[FieldDef] = match published.def(&root_name).map(|d| &d.body) {
        Some(Body::Struct(s)) => &s.fields,
        _ => &[],
    };
    let def = StructDef {
        fields: fields
            .iter()
            .filter(|f| !f.is_skipped())
            .map(|f| field_def(f, old_fields, published))
            .collect(),
        unknown: if input.deny_unknown_fields {
            Unknown::Deny
        } else {
            Unknown::Ignore
        },
        extra: None,
        flattened: Vec::new(),
    };
    let mut types = published.types.clone();
    let rust_path = types
        .get(&root_name)
        .map(|d| d.rust_path.clone())
        .unwrap_or_else(|| root_name.clone());
    types.insert(
        root_name.clone(),
        TypeDef {
            rust_path,
            doc: input.doc.clone(),
            body: Body::Struct(def),
        },
    );
    Schema {
        contract: Some(contract.id()),
        mode: contract.mode,
        allowances: allowances(input),
        root: Type::Named(root_name),
        types,
    }
}

/// The published field the new one most likely continues: the same serialize name, the
/// same deserialize name, one of its aliases or earlier names, or the same Rust name.
fn counterpart<'p>(field: &Field, old: &'p [FieldDef]) -> Option<&'p FieldDef> {
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

fn field_def(field: &Field, old: &[FieldDef], published: &Schema) -> FieldDef {
    let wire = Wire::of(field.wire_type());
    let counterpart = counterpart(field, old);
    // A type the syntax cannot tell takes the published field's type (assumed unchanged);
    // a new field of such a type is `any`, which the engine reads as matching every type:
    // it is then compared by its presence and optionality only.
    let ty = wire.fill(counterpart.map(|o| &o.ty), published);
    let sender = (!field.skip_serializing).then(|| SenderField {
        name: field.ser_name.clone(),
        emit: if field.skip_serializing_if {
            Emit::IfPresent
        } else {
            Emit::Always
        },
    });
    // A named type around an `Option` may be absent when it is `#[serde(transparent)]` and
    // must be present when it is a newtype struct: the syntax cannot tell, so such a hole
    // keeps the published field's optionality (assumed unchanged, like the type itself).
    let transparent_option = wire == Wire::Unknown
        && matches!(ty, Type::Named(_))
        && matches!(published.resolve(&ty), Type::Option(_))
        && counterpart
            .is_some_and(|o| o.ty == ty && o.receiver.as_ref().is_some_and(|r| !r.required));
    let receiver = (!field.skip_deserializing).then(|| ReceiverField {
        name: field.de_name.clone(),
        aliases: field.aliases.clone(),
        // serde reads a missing `Option` as `None`: for a hole, the published type says
        // whether it is one (an alias of `Option` is assumed unchanged too).
        required: !(field.default || matches!(ty, Type::Option(_)) || transparent_option),
    });
    FieldDef {
        rust_name: field.name.clone(),
        ty,
        sender,
        receiver,
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

/// The field a finding's path starts with: the longest wire name that is the whole path or
/// is followed by `.`, `[` or `(`.
fn locate<'f, 'a>(path: &str, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
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

/// Whether a rule is about the field's type (the error points at the type): the catalogue
/// says what each rule concerns, and a variant lives inside the field's type.
fn about_type(rule: Rule) -> bool {
    matches!(rule.concerns(), Concern::Type | Concern::Variant)
}

/// Where an error about `finding` at `field` points.
fn span_of(rule: Rule, field: &Field) -> TokenStream {
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
fn serde_key(field: &Field, keys: &[&str], otherwise: impl FnOnce() -> TokenStream) -> TokenStream {
    find_serde_key(&field.serde_keys, keys).map_or_else(otherwise, |k| k.tokens.clone())
}

/// One error per breaking finding; a finding reported in both directions under the same
/// rule and path is one error.
fn report_errors(
    input: &Input,
    fields: &[Field],
    contract: &Contract,
    shown: &str,
    findings: &[Finding],
) -> Vec<Error> {
    let mut grouped: BTreeMap<(Rule, String), (&Finding, Vec<Direction>)> = BTreeMap::new();
    let mut order = Vec::new();
    for finding in findings.iter().filter(|f| f.is_breaking()) {
        let key = (finding.rule, finding.path.clone());
        match grouped.get_mut(&key) {
            Some((_, directions)) => directions.push(finding.direction),
            None => {
                order.push(key.clone());
                grouped.insert(key, (finding, vec![finding.direction]));
            }
        }
    }
    let id = contract.id().to_string();
    let next = contract.version.saturating_add(1);
    order
        .iter()
        .filter_map(|key| grouped.get(key))
        .map(|(finding, directions)| {
            let located = if finding.rule == Rule::ContractNameChanged {
                None
            } else {
                locate(&finding.path, fields)
            };
            let subject = finding
                .field
                .clone()
                .unwrap_or_else(|| finding.display_path().to_owned());
            let pairing: Vec<String> = directions
                .iter()
                .map(|d| format!("{d}: {}", d.pairing()))
                .collect();
            let allow_hint = match (located, &finding.field) {
                (Some(field), Some(name))
                    if *name == field.ser_name || *name == field.de_name =>
                {
                    format!(
                        "#[handoff(allow({}, reason = \"…\"))] on the field",
                        finding.rule
                    )
                }
                _ if finding.path.is_empty() => String::new(),
                _ => format!(
                    "#[handoff(allow({}, field = \"{}\", reason = \"…\"))] on the struct",
                    finding.rule, finding.path
                ),
            };
            // No help line repeats another: a rule's hint that already offers a new major
            // version gets the concrete `version = N` instead of a second such line.
            let major = format!(
                "`version = {next}` (the published v{} stays for its peers)",
                contract.version
            );
            let offers_major = finding.hint.contains("new major version");
            let hint = if finding.hint.ends_with("new major version") {
                format!("{}: {major}", finding.hint)
            } else {
                finding.hint.clone()
            };
            let mut message = format!(
                "`{subject}` breaks the published contract `{id}` [{rule}]: {why}\n\
                 = note: published in `{shown}`, checked under mode `{mode}` ({pairing})\n\
                 = help: {hint}",
                rule = finding.rule,
                why = finding.why,
                mode = contract.mode.as_str(),
                pairing = pairing.join("; "),
            );
            if !allow_hint.is_empty() {
                message.push_str(&format!(
                    "\n= help: or accept it on purpose, with a reason kept in the report: {allow_hint}"
                ));
            }
            if !offers_major {
                message.push_str(&format!(
                    "\n= help: or publish the change as a new major version: {major}"
                ));
            }
            let tokens = match (finding.rule, located) {
                (Rule::ContractNameChanged, _) => input
                    .attrs
                    .name
                    .as_ref()
                    .map_or_else(|| input.original.ident.to_token_stream(), |n| n.tokens.clone()),
                (_, Some(field)) => span_of(finding.rule, field),
                // Old writers send a field the new struct denies: the cause is the denial.
                (Rule::UnknownFieldDenied, None) => {
                    find_serde_key(&input.serde_keys, &["deny_unknown_fields"]).map_or_else(
                        || input.original.ident.to_token_stream(),
                        |k| k.tokens.clone(),
                    )
                }
                (_, None) => input.original.ident.to_token_stream(),
            };
            spanned_error(tokens, message)
        })
        .collect()
}

/// An error spanning `tokens` (or the call site when they are empty).
fn spanned_error(tokens: TokenStream, message: String) -> Error {
    if tokens.is_empty() {
        Error::new(Span::call_site(), message)
    } else {
        Error::new_spanned(tokens, message)
    }
}

#[cfg(test)]
mod tests {
    use super::{check, Contract, Outcome};
    use crate::ast::{self, DeriveKind};
    use contract_schema::Mode;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh folder holding `ping.v1.snap` with `contents` (none when `None`).
    fn folder(contents: Option<&[u8]>) -> PathBuf {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "contract-derive-published-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let file = dir.join("ping.v1.snap");
        match contents {
            Some(bytes) => std::fs::write(&file, bytes).expect("write the snapshot"),
            None => {
                let _ = std::fs::remove_file(&file);
            }
        }
        dir
    }

    const PUBLISHED: &str = "\
contract ping/v1
mode full
root Ping

struct Ping
  rust \"app::Ping\"
  unknown ignore
  field seq: list<u64>
    send \"seq\" always
    receive \"seq\" required
  field kind: Kind
    send \"kind\" always
    receive \"kind\" required
  field order_ref: string
    send \"orderRef\" always
    receive \"orderRef\" required

newtype Kind: string
  rust \"app::Kind\"
";

    fn run(source: &str, contents: Option<&[u8]>, mode: Mode) -> (Outcome, Vec<String>) {
        let item: syn::DeriveInput = syn::parse_str(source).expect("test input parses");
        let parsed = ast::parse(&item, DeriveKind::Contract);
        assert!(parsed.errors.is_empty(), "the test input is valid");
        let input = parsed.input.expect("serde reads the test input");
        let dir = folder(contents);
        let outcome = check(
            &input,
            &Contract {
                name: "ping",
                version: 1,
                mode,
                dir: dir.to_str().expect("a UTF-8 temporary folder"),
                relative: "contracts",
            },
        );
        let messages = outcome.errors.iter().map(ToString::to_string).collect();
        let _ = std::fs::remove_dir_all(dir);
        (outcome, messages)
    }

    /// Asserts that there is exactly one error and that it contains each of `parts`.
    fn assert_one_error(errors: &[String], parts: &[&str]) {
        let [error] = errors else {
            panic!("expected one error, got {errors:?}");
        };
        for part in parts {
            assert!(error.contains(part), "`{part}` is not in: {error}");
        }
    }

    const SAME: &str = r#"#[handoff(name = "ping", version = 1)]
        struct Ping { seq: Vec<u64>, kind: Kind, #[serde(rename = "orderRef")] order_ref: String }"#;

    #[test]
    fn a_version_without_a_snapshot_is_new() {
        let (outcome, errors) = run(SAME, None, Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(outcome.track.is_empty());
    }

    #[test]
    fn an_unchanged_contract_is_tracked_and_passes() {
        let (outcome, errors) = run(SAME, Some(PUBLISHED.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        let track = outcome.track.to_string();
        assert!(track.contains("include_bytes"), "{track}");
        assert!(track.contains("ping.v1.snap"), "{track}");
    }

    #[test]
    fn any_bytes_give_one_error_naming_the_file_never_a_panic() {
        let cases: [&[u8]; 7] = [
            b"",
            b"\xff\xfe\x00garbage",
            b"---\nsource: x\n",
            b"root Nowhere\n",
            b"contract ping/v1\nroot u64\n",
            b"\x00\x01\x02\x03",
            "contract ping/v1\nroot Ping\n\nstruct Ping\n  field \u{1F600}: ??\n".as_bytes(),
        ];
        for bytes in cases {
            let (_, errors) = run(SAME, Some(bytes), Mode::Full);
            assert_one_error(&errors, &["contracts/ping.v1.snap"]);
        }
        // Cut the valid text anywhere: never a panic, at most one error naming the file
        // (or, cut after a field, findings about what the cut text no longer holds).
        for end in 0..PUBLISHED.len() {
            let Some(prefix) = PUBLISHED.get(..end) else {
                continue;
            };
            let (_, errors) = run(SAME, Some(prefix.as_bytes()), Mode::Full);
            for error in &errors {
                assert!(error.contains("contracts/ping.v1.snap"), "{error}");
            }
        }
    }

    #[test]
    fn an_unreadable_snapshot_is_located_as_everywhere_and_still_tracked() {
        let (outcome, errors) = run(SAME, Some(b"root Nowhere\n"), Mode::Full);
        assert_one_error(
            &errors,
            &[
                "the published snapshot of `ping/v1` does not parse: \
                 contracts/ping.v1.snap:1:6: type `Nowhere` is not defined in this schema",
                "= help: restore the file from version control",
            ],
        );
        // Fixing the file recompiles the contract.
        assert!(outcome.track.to_string().contains("include_bytes"));
        let (_, errors) = run(SAME, Some(b"root u8\n\xff"), Mode::Full);
        assert_one_error(
            &errors,
            &["contracts/ping.v1.snap:2:1: not UTF-8 text: a snapshot is canonical schema text"],
        );
    }

    #[test]
    fn a_nested_change_of_a_known_type_points_at_the_field() {
        let source = r#"#[handoff(name = "ping", version = 1)]
            struct Ping { seq: Vec<u32>, kind: Kind, #[serde(rename = "orderRef")] order_ref: String }"#;
        let (_, errors) = run(source, Some(PUBLISHED.as_bytes()), Mode::Full);
        assert_one_error(&errors, &["[INT_NARROWED]"]);
        assert!(errors[0].starts_with("`seq` breaks"), "{}", errors[0]);
    }

    #[test]
    fn a_named_type_is_taken_from_the_snapshot() {
        // `Kind` is now some other type: the syntax cannot tell, so no error here (the
        // snapshot test catches it); a field of an unknown type that is new and optional
        // is no break either.
        let source = r#"#[handoff(name = "ping", version = 1)]
            struct Ping {
                seq: Vec<u64>,
                kind: OtherKind,
                #[serde(rename = "orderRef")] order_ref: String,
                extra: Option<Extra>,
            }"#;
        let (_, errors) = run(source, Some(PUBLISHED.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn a_new_required_field_of_an_unknown_type_breaks_by_its_presence() {
        let source = r#"#[handoff(name = "ping", version = 1)]
            struct Ping {
                seq: Vec<u64>,
                kind: Kind,
                #[serde(rename = "orderRef")] order_ref: String,
                extra: Extra,
            }"#;
        let (_, errors) = run(source, Some(PUBLISHED.as_bytes()), Mode::Backward);
        assert_one_error(&errors, &["[FIELD_ADDED_REQUIRED]"]);
    }

    #[test]
    fn a_published_transparent_option_stays_optional() {
        // `Note` is `#[serde(transparent)]` around an `Option`: serde reads its absence as
        // `None`, which the snapshot records and the syntax cannot see.
        let published = PUBLISHED.replace(
            "newtype Kind",
            "  field note: Note
    send \"note\" if-present
    receive \"note\" optional

newtype Note: option<string>
  rust \"app::Note\"

newtype Kind",
        );
        let source = r#"#[handoff(name = "ping", version = 1)]
            struct Ping {
                seq: Vec<u64>,
                kind: Kind,
                #[serde(rename = "orderRef")] order_ref: String,
                #[serde(skip_serializing_if = "Note::is_none")] note: Note,
            }"#;
        let (_, errors) = run(source, Some(published.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        // A new field of a named type is required by its presence: the optionality of a
        // published field is kept, never invented.
        let (_, errors) = run(
            &source.replace("note: Note", "other: Note"),
            Some(published.as_bytes()),
            Mode::Backward,
        );
        assert_one_error(&errors, &["[FIELD_ADDED_REQUIRED]"]);
    }

    #[test]
    fn the_mode_decides_the_directions() {
        // Removing `orderRef` breaks old readers (forward) only.
        let source = r#"#[handoff(name = "ping", version = 1)]
            struct Ping { seq: Vec<u64>, kind: Kind }"#;
        let (_, backward) = run(source, Some(PUBLISHED.as_bytes()), Mode::Backward);
        assert!(backward.is_empty(), "{backward:?}");
        let (_, forward) = run(source, Some(PUBLISHED.as_bytes()), Mode::Forward);
        assert_one_error(&forward, &["[FIELD_REMOVED]", "field = \"orderRef\""]);
    }

    #[test]
    fn allowed_findings_are_not_errors() {
        let source = r#"#[handoff(name = "ping", version = 1)]
            #[handoff(allow(FIELD_REMOVED, field = "orderRef", reason = "nobody reads it"))]
            struct Ping {
                #[handoff(allow(INT_NARROWED, reason = "small enough"))]
                seq: Vec<u16>,
                kind: Kind,
            }"#;
        let (_, errors) = run(source, Some(PUBLISHED.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn enums_generics_and_flatten_are_left_to_the_snapshot_test() {
        for source in [
            r#"#[handoff(name = "ping", version = 1)] enum Ping { A, B }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping<T> { seq: T }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping { #[serde(flatten)] inner: Inner }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping(u64);"#,
        ] {
            let (outcome, errors) = run(source, Some(b"not a snapshot"), Mode::Full);
            assert!(errors.is_empty(), "{source}: {errors:?}");
            assert!(outcome.track.is_empty(), "{source}");
        }
    }
}
