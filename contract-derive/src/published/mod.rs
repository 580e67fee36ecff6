//! The compile-time check of a contract against its published snapshot.
//!
//! For `#[derive(HandoffContract)]` on a non-generic struct with named fields or enum (no
//! `flatten`, no container `schema_as`, not an integer enum), the derive reads `<snapshots dir>/<name>.v<N>.snap`:
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
//! the real description, catches a change there. Generic contracts, types with `flatten` and
//! integer enums (`#[handoff(repr)]`) are left to the snapshot test entirely.

use std::path::Path;

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Error;

use contract_schema::compat;
use contract_schema::snapshot::{self, PublishedError};

use crate::ast::Input;

/// The outcome: tokens to emit inside the const block, and the errors.
#[derive(Default)]
pub struct Outcome {
    /// `const _: &[u8] = include_bytes!("…");` when the snapshot exists.
    pub track: TokenStream,
    /// `const PUBLISHED: …` with every published snapshot of the contract's name.
    pub embedded: TokenStream,
    /// One error per breaking finding (or one for an unreadable snapshot).
    pub errors: Vec<Error>,
    /// The types the root asks (see [`nested`]): the contract's number among the crate's
    /// snapshot folders, and the types its fields hold that its published schema's tree
    /// reaches first through it.
    pub asks: Option<(u32, Vec<syn::Type>)>,
}

mod diagnostics;
mod enums;
mod field;
mod locate;
mod nested;
mod rebuild;
mod target;

use diagnostics::report_errors;
pub(crate) use nested::{answer, probe_items};
pub(crate) use rebuild::{rebuild, rebuild_def};
use target::allowances;
pub(crate) use target::{allow_entries, applies, Contract};

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
    let asks = nested::contract_number(contract.name, contract.dir).map(|number| {
        let root = target::root_name(input, &published);
        (
            number,
            nested::held_types(input, &nested::child_idents(&published, &root)),
        )
    });
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
        asks,
        ..Outcome::default()
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
    fn untagged_variants_of_a_tagged_enum_rebuild_and_are_located() {
        let published = "\
contract ping/v1
mode full
root Ping

enum Ping
  rust \"app::Ping\"
  repr internal tag \"kind\"
  variant Stop: unit
    send \"Stop\"
    receive \"Stop\"
  variant Note: struct
    send \"Note\"
    receive \"Note\"
    unknown ignore
    field text: string
      send \"text\" always
      receive \"text\" required
  variant Count: newtype u64
    send \"Count\"
    receive \"Count\"
    untagged
";
        // `Count(u64)` untagged is written alone (an internal tag cannot sit beside a
        // number): the rebuild keeps it sent, and marks it untagged.
        let source = r#"#[handoff(name = "ping", version = 1)]
            #[serde(tag = "kind")]
            enum Ping { Stop, Note { text: String }, #[serde(untagged)] Count(u64) }"#;
        assert_eq!(
            contract_schema::text::to_text(&rebuilt(source, published)),
            published
        );
        let (_, errors) = run(source, Some(published.as_bytes()), Mode::Full);
        assert!(errors.is_empty(), "{errors:?}");
        // An untagged variant's content narrowed: found under its Rust name.
        let (_, errors) = run(
            &source.replace("Count(u64)", "Count(u8)"),
            Some(published.as_bytes()),
            Mode::Backward,
        );
        assert_one_error(&errors, &["`(Count)` breaks", "[INT_NARROWED]"]);
        // `Note` made untagged: new writers drop its tag, which old readers need (a whole
        // enum made untagged would be `ENUM_REPR_CHANGED`).
        let (_, errors) = run(
            &source.replace("Note {", "#[serde(untagged)] Note {"),
            Some(published.as_bytes()),
            Mode::Forward,
        );
        assert_one_error(&errors, &["[VARIANT_TAGGING_CHANGED]", "`Note`"]);
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
    fn generics_flatten_and_integer_enums_are_left_to_the_snapshot_test() {
        for source in [
            r#"#[handoff(name = "ping", version = 1)] struct Ping<T> { seq: T }"#,
            r#"#[handoff(name = "ping", version = 1)] enum Ping<T> { A(T), B }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping { #[serde(flatten)] inner: Inner }"#,
            r#"#[handoff(name = "ping", version = 1)] enum Ping { A { #[serde(flatten)] inner: Inner } }"#,
            r#"#[handoff(name = "ping", version = 1)] struct Ping(u64);"#,
            r#"#[handoff(name = "ping", version = 1, repr)] #[repr(u8)] enum Ping { A = 1, B }"#,
        ] {
            let (outcome, errors) = run(source, Some(b"not a snapshot"), Mode::Full);
            assert!(errors.is_empty(), "{source}: {errors:?}");
            assert!(outcome.track.is_empty(), "{source}");
        }
    }
}
