//! The compile-time check of a contract against its published snapshot.
//!
//! For `#[derive(HandoffContract)]` on a non-generic struct with named fields or enum (no
//! `flatten`, no container `schema_as`), the derive reads `<snapshots dir>/<name>.v<N>.snap`:
//!
//! - no file: the version is new and unpublished; nothing more is emitted;
//! - a file: `include_bytes!` of it is emitted, so that editing the snapshot recompiles the
//!   contract; the file is read by `contract_schema::snapshot`, as the snapshot test and the
//!   `handoff` command read it (an unreadable file is an error at `version` naming the file,
//!   line and column: `contracts/NAME.vN.snap:LINE:COLUMN: …`); the new schema is rebuilt
//!   from the syntax (see [`crate::wire`], and [`enums`] for an enum) and the compatibility
//!   engine runs under the contract's mode with its allowances. Every breaking finding
//!   becomes an error at the offending field or variant (at the struct or enum for one that
//!   no longer exists), with the rule, why, the snapshot file and the fixes.
//!
//! What the syntax cannot tell (a named type, an alias, a type from another crate) is taken
//! from the snapshot, i.e. assumed unchanged: the snapshot test, which runs the engine on
//! the real description, catches a change there. Generic contracts and types with `flatten`
//! are left to the snapshot test entirely.

use std::collections::BTreeMap;
use std::path::Path;

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::Error;

use contract_schema::compat::{self, Allowance, Allowances, Concern, Direction, Finding, Rule};
use contract_schema::model::{
    Body, Emit, EnumDef, FieldDef, ReceiverField, Schema, SenderField, StructDef, Type, TypeDef,
    Unknown,
};
use contract_schema::snapshot::{self, PublishedError};
use contract_schema::{ContractId, Mode, Provenance};

use crate::ast::{Data, Field, Input, Repr, Variant};
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

mod enums;

/// What the compile-time check rebuilds from the syntax.
#[derive(Clone, Copy)]
enum Target<'i, 'a> {
    /// A struct with named fields.
    Struct(&'i [Field<'a>]),
    /// An enum.
    Enum(&'i Repr, &'i [Variant<'a>]),
}

/// Whether the compile-time check applies to `input` (otherwise only the snapshot test
/// checks it).
fn applies<'i, 'a>(input: &'i Input<'a>) -> Option<Target<'i, 'a>> {
    if input.original.generics.params.iter().next().is_some() || input.attrs.schema_as.is_some() {
        return None;
    }
    let flattens = |fields: &[Field]| fields.iter().any(|f| f.flatten && !f.is_skipped());
    match &input.data {
        Data::Struct(fields) if !flattens(fields) => Some(Target::Struct(fields)),
        Data::Enum(repr, variants)
            if !variants
                .iter()
                .any(|v| !v.is_skipped() && flattens(&v.fields)) =>
        {
            Some(Target::Enum(repr, variants))
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
    let Some(target) = applies(input) else {
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
    let new = rebuild(input, target, contract, &published);
    let allowances = allowances(input);
    let report = compat::evolve_with(&published, &new, contract.mode, &allowances);
    let errors = report_errors(
        input,
        target,
        &published,
        contract,
        &shown,
        report.findings(),
    );
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

/// The display name of the published root type (the contract's own name when the root is
/// not a named type).
fn root_name(input: &Input, published: &Schema) -> String {
    match &published.root {
        Type::Named(name) => name.clone(),
        _ => syn::ext::IdentExt::unraw(&input.original.ident).to_string(),
    }
}

/// The published definition of the root enum, when the root was an enum.
fn published_enum<'p>(input: &Input, published: &'p Schema) -> Option<&'p EnumDef> {
    match published.def(&root_name(input, published)).map(|d| &d.body) {
        Some(Body::Enum(e)) => Some(e),
        _ => None,
    }
}

/// The new schema: the published one with the root type rebuilt from the syntax.
fn rebuild(input: &Input, target: Target, contract: &Contract, published: &Schema) -> Schema {
    let root_name = root_name(input, published);
    let body = match target {
        Target::Struct(fields) => {
            let old_fields: &[FieldDef] = match published.def(&root_name).map(|d| &d.body) {
                Some(Body::Struct(s)) => &s.fields,
                _ => &[],
            };
            Body::Struct(StructDef {
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
            })
        }
        Target::Enum(repr, variants) => Body::Enum(enums::rebuild(
            input,
            repr,
            variants,
            published_enum(input, published),
            published,
        )),
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
            body,
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

/// Where a finding is: a field (of the struct, or of an enum's variant), or a variant.
enum Spot<'f, 'a> {
    /// A field.
    Field(&'f Field<'a>),
    /// A variant (or a place inside what it carries).
    Variant(&'f Variant<'a>),
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
    target: Target,
    published: &Schema,
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
                match target {
                    Target::Struct(fields) => locate(&finding.path, fields).map(Spot::Field),
                    Target::Enum(_, variants) => {
                        enums::locate_in(&finding.path, variants, published_enum(input, published))
                    }
                }
            };
            let container = match target {
                Target::Struct(_) => "struct",
                Target::Enum(..) => "enum",
            };
            // The whole type is named by its Rust name.
            let subject = match &finding.field {
                Some(field) => field.clone(),
                None if finding.path.is_empty() => {
                    syn::ext::IdentExt::unraw(&input.original.ident).to_string()
                }
                None => finding.path.clone(),
            };
            let pairing: Vec<String> = directions
                .iter()
                .map(|d| format!("{d}: {}", d.pairing()))
                .collect();
            let allow_hint = match (&located, &finding.field) {
                (Some(Spot::Field(field)), Some(name))
                    if *name == field.ser_name || *name == field.de_name =>
                {
                    Some((
                        format!("#[handoff(allow({}, reason = \"…\"))]", finding.rule),
                        "field",
                    ))
                }
                _ if finding.path.is_empty() => None,
                _ => Some((
                    format!(
                        "#[handoff(allow({}, field = \"{}\", reason = \"…\"))]",
                        finding.rule, finding.path
                    ),
                    container,
                )),
            };
            // No help line repeats another: a rule's hint that already offers a new major
            // version gets the concrete `version = N` instead of a second such line.
            let major = format!(
                "`version = {next}` (the published v{} stays for its peers)",
                contract.version
            );
            let hint = if finding.hint.ends_with("new major version") {
                format!("{}: {major}", finding.hint)
            } else {
                finding.hint.clone()
            };
            let tokens = match (finding.rule, &located) {
                (Rule::ContractNameChanged, _) => input.attrs.name.as_ref().map_or_else(
                    || input.original.ident.to_token_stream(),
                    |n| n.tokens.clone(),
                ),
                (_, Some(Spot::Field(field))) => span_of(finding.rule, field),
                (_, Some(Spot::Variant(variant))) => enums::span_of_variant(finding.rule, variant),
                // Old writers send a field the new struct denies: the cause is the denial.
                (Rule::UnknownFieldDenied, None) => {
                    find_serde_key(&input.serde_keys, &["deny_unknown_fields"]).map_or_else(
                        || input.original.ident.to_token_stream(),
                        |k| k.tokens.clone(),
                    )
                }
                (_, None) => match target {
                    Target::Struct(_) => input.original.ident.to_token_stream(),
                    Target::Enum(..) => enums::span_of_enum(finding.rule, input),
                },
            };
            let variant = match located {
                Some(Spot::Variant(v)) if finding.rule.concerns() == Concern::Variant => {
                    Some(v.name.clone())
                }
                _ => None,
            };
            Draft {
                subject,
                rule: finding.rule,
                why: finding.why.clone(),
                pairing: pairing.join("; "),
                also: Vec::new(),
                helps: vec![hint],
                allows: allow_hint.into_iter().collect(),
                major,
                variant,
                tokens,
            }
        })
        .fold(Vec::new(), merge_variant_drafts)
        .into_iter()
        .map(|draft| draft.into_error(&id, shown, contract.mode))
        .collect()
}

/// One error being written.
struct Draft {
    /// What breaks: a field's wire name, a path, or the type's name.
    subject: String,
    /// The rule it breaks.
    rule: Rule,
    /// Why, in one line.
    why: String,
    /// The directions it breaks, with their pairings.
    pairing: String,
    /// Further findings of the same change: (subject, rule, why, pairing).
    also: Vec<(String, Rule, String, String)>,
    /// The rules' own fixes, in order, each once.
    helps: Vec<String>,
    /// Where each finding may be allowed: (`#[handoff(allow(…))]`, where it goes).
    allows: Vec<(String, &'static str)>,
    /// The concrete new major version.
    major: String,
    /// The variant whose tag the finding is about, for a variant rule located at one.
    variant: Option<String>,
    /// Where it points.
    tokens: TokenStream,
}

/// One mistake, one error: the findings about one variant's tag (a renamed tag breaks old
/// readers and new readers alike, under two rules) become one error at the variant.
fn merge_variant_drafts(mut drafts: Vec<Draft>, draft: Draft) -> Vec<Draft> {
    let same = draft
        .variant
        .as_ref()
        .and_then(|v| drafts.iter_mut().find(|d| d.variant.as_ref() == Some(v)));
    match same {
        Some(first) => {
            first
                .also
                .push((draft.subject, draft.rule, draft.why, draft.pairing));
            for help in draft.helps {
                if !first.helps.contains(&help) {
                    first.helps.push(help);
                }
            }
            first.allows.extend(draft.allows);
        }
        None => drafts.push(draft),
    }
    drafts
}

impl Draft {
    fn into_error(self, id: &str, shown: &str, mode: Mode) -> Error {
        let mut message = format!(
            "`{}` breaks the published contract `{id}` [{}]: {}\n\
             = note: published in `{shown}`, checked under mode `{mode}` ({})",
            self.subject,
            self.rule,
            self.why,
            self.pairing,
            mode = mode.as_str(),
        );
        for (subject, rule, why, pairing) in &self.also {
            message.push_str(&format!(
                "\n= note: the same change breaks `{subject}` too [{rule}]: {why} ({pairing})"
            ));
        }
        for help in &self.helps {
            message.push_str(&format!("\n= help: {help}"));
        }
        if let Some((_, place)) = self.allows.first() {
            // One place for all when they share it (they do: one variant's findings).
            let allows: Vec<String> = if self.allows.iter().all(|(_, p)| p == place) {
                let attrs: Vec<&str> = self.allows.iter().map(|(a, _)| a.as_str()).collect();
                vec![format!("{} on the {place}", attrs.join(" and "))]
            } else {
                self.allows
                    .iter()
                    .map(|(a, p)| format!("{a} on the {p}"))
                    .collect()
            };
            message.push_str(&format!(
                "\n= help: or accept it on purpose, with a reason kept in the report: {}",
                allows.join("; ")
            ));
        }
        if !self.helps.iter().any(|h| h.contains("new major version")) {
            message.push_str(&format!(
                "\n= help: or publish the change as a new major version: {}",
                self.major
            ));
        }
        spanned_error(self.tokens, message)
    }
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

    const PUBLISHED_ENUM: &str = "\
contract ping/v1
mode full
root Ping

enum Ping
  rust \"app::Ping\"
  repr external
  variant Approved: struct
    send \"approved\"
    receive \"approved\"
    unknown ignore
    field amount_cents: u64
      send \"amount_cents\" always
      receive \"amount_cents\" required
  variant Rejected: newtype string
    send \"rejected\"
    receive \"rejected\"
  variant Escalated: unit
    send \"escalated\"
    receive \"escalated\"
";

    const SAME_ENUM: &str = r#"#[handoff(name = "ping", version = 1)]
        #[serde(rename_all = "kebab-case")]
        enum Ping { Approved { amount_cents: u64 }, Rejected(String), Escalated }"#;

    #[test]
    fn an_unchanged_enum_is_tracked_and_passes() {
        let (outcome, errors) = run(SAME_ENUM, Some(PUBLISHED_ENUM.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(outcome.track.to_string().contains("ping.v1.snap"));
        // An alias of a published tag, a new optional field of a struct variant: compatible.
        let source = SAME_ENUM
            .replace(
                "Escalated }",
                "#[serde(alias = \"handed-over\")] Escalated }",
            )
            .replace(
                "amount_cents: u64 }",
                "amount_cents: u64, note: Option<String> }",
            );
        let (_, errors) = run(&source, Some(PUBLISHED_ENUM.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn enum_breaks_are_located_at_the_variant_or_its_content() {
        let published = Some(PUBLISHED_ENUM.as_bytes());
        for (from, to, parts) in [
            (
                ", Escalated }",
                " }",
                &[
                    "`(escalated)` breaks",
                    "[ENUM_VARIANT_REMOVED]",
                    "on the enum",
                ][..],
            ),
            (
                "Rejected(String)",
                "Rejected(u32)",
                &["`(rejected)` breaks", "[TYPE_CHANGED]"][..],
            ),
            (
                "amount_cents: u64",
                "amount_cents: u16",
                &["`amount_cents` breaks", "[INT_NARROWED]", "on the field"][..],
            ),
            (
                "Rejected(String)",
                "Rejected { reason: String }",
                &["[TYPE_CHANGED]", "named fields"][..],
            ),
        ] {
            let source = SAME_ENUM.replace(from, to);
            let (_, errors) = run(&source, published, Mode::Full);
            assert_one_error(&errors, parts);
        }
        // A new tag breaks old readers only (forward).
        let source = SAME_ENUM.replace("Escalated }", "Escalated, Held }");
        let (_, backward) = run(&source, published, Mode::Backward);
        assert!(backward.is_empty(), "{backward:?}");
        let (_, forward) = run(&source, published, Mode::Forward);
        assert_one_error(&forward, &["`(held)` breaks", "[ENUM_VARIANT_ADDED]"]);
    }

    #[test]
    fn a_renamed_tag_is_one_error_naming_both_findings() {
        let source = SAME_ENUM.replace(
            "Escalated }",
            "#[serde(rename = \"handed-over\")] Escalated }",
        );
        let (_, errors) = run(&source, Some(PUBLISHED_ENUM.as_bytes()), Mode::Full);
        assert_one_error(
            &errors,
            &[
                "[ENUM_VARIANT_REMOVED]",
                "the same change breaks `(handed-over)` too [ENUM_VARIANT_ADDED]",
                "field = \"(escalated)\"",
                "field = \"(handed-over)\"",
            ],
        );
        // Only one direction checked: one finding.
        let (_, errors) = run(&source, Some(PUBLISHED_ENUM.as_bytes()), Mode::Backward);
        assert_one_error(&errors, &["[ENUM_VARIANT_REMOVED]"]);
        assert!(!errors[0].contains("ENUM_VARIANT_ADDED"), "{}", errors[0]);
    }

    #[test]
    fn untagged_and_adjacently_tagged_variants_are_located_too() {
        // An untagged enum's findings name the variant by its Rust name.
        let published = "\
contract ping/v1
mode full
root Ping

enum Ping
  rust \"app::Ping\"
  repr untagged
  variant Count: newtype u64
    send \"Count\"
    receive \"Count\"
  variant Label: newtype string
    send \"Label\"
    receive \"Label\"
";
        let source = r#"#[handoff(name = "ping", version = 1)]
            #[serde(untagged)]
            enum Ping { Count(u64), Label(String) }"#;
        assert_eq!(
            contract_schema::text::to_text(&rebuilt(source, published)),
            published
        );
        let (_, errors) = run(source, Some(published.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        let (_, errors) = run(
            &source.replace("Count(u64)", "Count(u8)"),
            Some(published.as_bytes()),
            Mode::Backward,
        );
        assert_one_error(&errors, &["`(Count)` breaks", "[INT_NARROWED]"]);
        // Adjacently tagged: a tuple variant's item.
        let source = r#"#[handoff(name = "ping", version = 1)]
            #[serde(tag = "t", content = "c")]
            enum Ping { Pair(u64, String) }"#;
        let published = "\
contract ping/v1
mode full
root Ping

enum Ping
  rust \"app::Ping\"
  repr adjacent tag \"t\" content \"c\"
  variant Pair: tuple(u64, string)
    send \"Pair\"
    receive \"Pair\"
";
        assert_eq!(
            contract_schema::text::to_text(&rebuilt(source, published)),
            published
        );
        let item: syn::DeriveInput =
            syn::parse_str(&source.replace("Pair(u64, String)", "Pair(u64, char)"))
                .expect("parses");
        let parsed = ast::parse(&item, DeriveKind::Contract);
        let input = parsed.input.expect("serde reads it");
        let dir = folder(Some(published.as_bytes()));
        let outcome = check(
            &input,
            &Contract {
                name: "ping",
                version: 1,
                mode: Mode::Backward,
                dir: dir.to_str().expect("utf-8"),
                relative: "contracts",
            },
        );
        let _ = std::fs::remove_dir_all(dir);
        let [error] = outcome.errors.as_slice() else {
            panic!("one error expected: {:?}", outcome.errors);
        };
        assert!(
            error.to_string().starts_with("`(Pair).1` breaks"),
            "{error}"
        );
        assert!(
            error.to_string().contains("[STRING_BECAME_CHAR]"),
            "{error}"
        );
    }

    #[test]
    fn a_representation_change_names_the_enum() {
        let source = SAME_ENUM.replace(
            "rename_all = \"kebab-case\"",
            "rename_all = \"kebab-case\", tag = \"kind\"",
        );
        let (_, errors) = run(&source, Some(PUBLISHED_ENUM.as_bytes()), Mode::Full);
        assert_one_error(
            &errors,
            &["`Ping` breaks", "[ENUM_REPR_CHANGED]", "internally tagged"],
        );
    }

    /// The schema the check rebuilds from `source` against the `published` text.
    fn rebuilt(source: &str, published: &str) -> contract_schema::Schema {
        let item: syn::DeriveInput = syn::parse_str(source).expect("test input parses");
        let parsed = ast::parse(&item, DeriveKind::Contract);
        let input = parsed.input.expect("serde reads the test input");
        let published = contract_schema::text::parse(published).expect("the published text");
        let target = super::applies(&input).expect("the check applies");
        let contract = Contract {
            name: "ping",
            version: 1,
            mode: Mode::Full,
            dir: "unused",
            relative: "contracts",
        };
        super::rebuild(&input, target, &contract, &published)
    }

    #[test]
    fn an_unchanged_enum_rebuilds_to_its_published_text() {
        let schema = rebuilt(SAME_ENUM, PUBLISHED_ENUM);
        assert_eq!(contract_schema::text::to_text(&schema), PUBLISHED_ENUM);
        // serde refuses to write `Note(String)` beside an internal tag (it is read only), but
        // writes a struct, a unit and a named type (assumed a struct or an enum); a tag an
        // earlier variant reads is not read by a later one; a skipped variant is left out.
        let published = "\
contract ping/v1
mode full
root Ping

struct Line
  rust \"app::Line\"
  unknown ignore

enum Ping
  rust \"app::Ping\"
  repr internal tag \"type\"
  unknown deny
  variant Note: newtype string
    send never
    receive \"Note\"
  variant Line: newtype Line
    send \"Line\"
    receive \"Line\" alias \"Unit\"
  variant Unit: unit
    send \"Unit\"
    receive never
  variant Priced: struct
    send \"Priced\"
    receive \"Priced\"
    unknown deny
    field total: u64
      send \"total\" always
      receive \"total\" required
";
        let source = r#"#[handoff(name = "ping", version = 1)]
            #[serde(tag = "type", deny_unknown_fields)]
            enum Ping {
                Note(String),
                #[serde(alias = "Unit")] Line(Line),
                Unit,
                #[serde(skip)] Hidden(u8),
                Priced { total: u64 },
            }"#;
        let schema = rebuilt(source, published);
        assert_eq!(contract_schema::text::to_text(&schema), published);
    }

    #[test]
    fn generics_and_flatten_are_left_to_the_snapshot_test() {
        for source in [
            r#"#[handoff(name = "ping", version = 1)] struct Ping<T> { seq: T }"#,
            r#"#[handoff(name = "ping", version = 1)] enum Ping<T> { A(T), B }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping { #[serde(flatten)] inner: Inner }"#,
            r#"#[handoff(name = "ping", version = 1)] enum Ping { A { #[serde(flatten)] inner: Inner } }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping(u64);"#,
        ] {
            let (outcome, errors) = run(source, Some(b"not a snapshot"), Mode::Full);
            assert!(errors.is_empty(), "{source}: {errors:?}");
            assert!(outcome.track.is_empty(), "{source}");
        }
    }
}
