//! The properties the fuzz targets (`fuzz/`) check, shared with the regression tests that
//! replay every input the fuzzers found: `receive` on the nested contract below
//! ([`check_receive`]), a snapshot file's text ([`check_snapshot`]) and a peer's JSON Schema
//! ([`check_import`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use contract_core::schema::compat::{self, CompatReport};
use contract_core::schema::json_schema::{self, dialect, View};
use contract_core::schema::snapshot::{self, SnapshotErrorKind};
use contract_core::schema::{text, Schema};
use contract_core::{receive, send, Dialect, HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A string enum with a catch-all.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ready,
    Blocked,
    #[serde(other)]
    Unknown,
}

/// An externally tagged enum with every variant kind.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub enum External {
    Unit,
    Newtype(u16),
    Tuple(i8, String),
    Struct { a: bool, b: Option<f64> },
}

/// An internally tagged enum with struct, newtype and unit variants.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum Internal {
    Note { text: String },
    Score(Scored),
    Empty,
}

/// A struct inlined beside an internal tag.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Scored {
    pub score: u8,
}

/// An adjacently tagged enum that denies unknown fields.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum Adjacent {
    Num(i64),
    Pair(u8, u8),
    Nothing,
}

/// An untagged enum with every variant kind.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum Untagged {
    Flag(bool),
    Count(u32),
    Named { name: String },
    List(Vec<u8>),
}

/// An internally tagged enum whose last variants are untagged: read after the tagged ones.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum WithUntagged {
    Stop,
    Move {
        x: i32,
    },
    #[serde(untagged)]
    Code(u16),
    #[serde(untagged)]
    Words(Vec<String>),
}

/// An artifact with an alias and an optional field.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Artifact {
    pub name: String,
    #[serde(alias = "ver")]
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

/// A struct that denies unknown fields.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    pub tokens: u64,
    pub seconds: Option<f32>,
}

/// Flattened into the envelope.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Meta {
    pub owner: String,
    #[serde(default)]
    pub tags: BTreeSet<String>,
}

/// The contract: every shape at once.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "fuzz-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    pub handoff_id: String,
    pub status: Status,
    pub artifacts: Vec<Artifact>,
    pub budget: Option<Budget>,
    pub external: External,
    pub internal: Internal,
    pub adjacent: Adjacent,
    pub untagged: Vec<Untagged>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_untagged: Option<WithUntagged>,
    pub scores: BTreeMap<u8, i32>,
    pub pair: (char, u64),
    pub fixed: [i16; 2],
    #[serde(flatten)]
    pub meta: Meta,
}

/// The fields of [`Envelope`] that `receive`'s one-pass fast path follows (no set, no
/// flatten, externally tagged enums only), so that the same inputs exercise it, and the
/// check that every payload it accepts the full path accepts too.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "fuzz-fast-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct FastEnvelope {
    pub handoff_id: String,
    pub status: Status,
    pub artifacts: Vec<Artifact>,
    pub budget: Option<Budget>,
    pub external: External,
    pub scores: BTreeMap<u8, i32>,
    pub pair: (char, u64),
    pub fixed: [i16; 2],
    #[serde(default)]
    pub extra: Option<serde_json::Value>,
}

/// The fuzz target's properties on one input: no panic; `receive` accepts only what
/// `serde_json::from_slice` accepts, and reads the same value; an accepted payload round-trips through `send`, and
/// what `send` writes is received again; a rejection lists at least one problem, and a
/// string the payload holds as a value (`"SECRET"` in the seeds) never appears in its text
/// (unless the payload also has it inside a key: field names, even unknown ones, are
/// structure and may be shown). Panics when one fails.
pub fn check_receive(data: &[u8]) {
    check::<Envelope>(data);
    check::<FastEnvelope>(data);
}

fn check<T>(data: &[u8])
where
    T: serde::de::DeserializeOwned + Serialize + HandoffSchema + 'static,
{
    let serde = serde_json::from_slice::<T>(data);
    match receive::<T>(data) {
        Ok(received) => {
            let Ok(by_serde) = serde else {
                panic!("receive accepted what serde rejects")
            };
            let value = received.into_inner();
            // The same value as serde_json's: what each writes back is the same.
            assert_eq!(
                serde_json::to_vec(&value).ok(),
                serde_json::to_vec(&by_serde).ok(),
                "receive read another value than serde"
            );
            if let Ok(sent) = send(&value) {
                assert!(
                    receive::<T>(sent.bytes()).is_ok(),
                    "what send wrote is refused"
                );
            }
        }
        Err(rejection) => {
            assert!(!rejection.problems().is_empty());
            let text = format!(
                "{rejection} {rejection:?} {}",
                serde_json::to_string(&rejection).unwrap()
            );
            let as_key = in_a_key(data, b"SECRET");
            assert!(as_key || !text.contains("SECRET"), "a value leaked: {text}");
        }
    }
}

/// Whether `word` occurs inside a string that is followed by `:` (an object key).
fn in_a_key(data: &[u8], word: &[u8]) -> bool {
    (0..data.len()).any(|i| {
        if !data[i..].starts_with(word) {
            return false;
        }
        let rest = &data[i + word.len()..];
        // The string's closing quote: the first one not escaped by a backslash.
        let mut escaped = false;
        let Some(quote) = rest.iter().position(|b| {
            let closing = *b == b'"' && !escaped;
            escaped = *b == b'\\' && !escaped;
            closing
        }) else {
            return false;
        };
        rest[quote + 1..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| *b == b':')
    })
}

/// The properties of the fuzz target of snapshot files (`fuzz/fuzz_targets/snapshot.rs`) on
/// one input, as `handoff` and the published check read a committed `.snap` file: no panic on
/// any bytes; bytes that are not UTF-8 are refused as a file's bytes are; text is read the
/// same with and without the lines of its elements; a refusal is located; and a schema that
/// reads has a canonical text that reads back as it (`check_text_roundtrip`) and keeps the
/// laws of [`check_schema`], with the line of each of its findings. Panics when one fails.
pub fn check_snapshot(data: &[u8]) {
    let as_file = snapshot::read_bytes(Path::new("fuzz.snap"), data.to_vec());
    let Ok(contents) = std::str::from_utf8(data) else {
        let error = as_file.expect_err("bytes that are not UTF-8 were read as a snapshot");
        assert_eq!(error.kind(), SnapshotErrorKind::NotUtf8);
        assert!(error.line().is_some() && error.column().is_some());
        let _ = error.to_string();
        return;
    };
    let parsed = snapshot::parse(contents);
    assert_eq!(
        as_file.as_ref().ok(),
        parsed.as_ref().ok(),
        "a file's bytes and its text read differently"
    );
    let with_lines = snapshot::parse_with_lines(contents);
    assert_eq!(
        with_lines.as_ref().map(|(schema, _)| schema),
        parsed.as_ref(),
        "read with and without lines differently"
    );
    match with_lines {
        Ok((schema, lines)) => {
            check_text_roundtrip(&schema);
            let report = check_schema(&schema);
            for finding in report.findings() {
                let _ = snapshot::finding_line(&schema, &lines, finding);
            }
        }
        Err(error) => {
            assert!(error.line() >= 1 && error.column() >= 1, "{error}");
            let _ = error.to_string();
            if let Err(error) = as_file {
                let _ = error.to_string();
            }
        }
    }
}

/// The properties of the fuzz target of a peer's JSON Schema (`fuzz/fuzz_targets/import.rs`)
/// on one input, as `handoff diff peer.json SNAP` reads it: bytes that are JSON are imported
/// as a producer's and as a consumer's schema without panic; a refusal points at a keyword
/// of the document, and so does every warning; an imported schema reads back from its
/// canonical text as itself, is imported the same the second time, and keeps the laws of
/// [`check_schema`]. Panics when one fails.
pub fn check_import(data: &[u8]) {
    let Ok(doc) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for view in [View::Sender, View::Receiver] {
        match json_schema::import(&doc, view) {
            Ok(imported) => {
                for warning in &imported.warnings {
                    assert!(pointer_in(&doc, &warning.pointer), "{warning}");
                }
                // The import's type names (from a peer's titles, `$defs` keys and places)
                // are display names the text reads back: `handoff diff` shows them, and a
                // user may keep the imported schema as a snapshot.
                check_text_roundtrip(&imported.schema);
                let again = json_schema::import(&doc, view).map(|i| i.schema).ok();
                assert_eq!(
                    again.as_ref(),
                    Some(&imported.schema),
                    "the document imports differently the second time"
                );
                check_schema(&imported.schema);
            }
            Err(error) => {
                assert!(pointer_in(&doc, &error.pointer), "{error}");
                let _ = error.to_string();
            }
        }
    }
}

/// The law of the canonical text (`contract-schema/tests/text_roundtrip.rs`): it reads back
/// as the schema it was written from, and writing that again gives the same text. Panics
/// when it does not.
fn check_text_roundtrip(schema: &Schema) {
    let written = text::to_text(schema);
    match text::parse(&written) {
        Ok(again) => {
            assert_eq!(&again, schema, "the text does not read back:\n{written}");
            assert_eq!(text::to_text(&again), written, "the text is not canonical");
        }
        Err(error) => panic!("the text does not parse: {error}\n{written}"),
    }
}

/// What a user runs on a schema read from an untrusted document, each without panic: the
/// compatibility engine against itself (`compat::check`, and `compat::evolve` in the
/// schema's mode), the JSON Schema export of both views, and the export in every provider
/// dialect (refused with at least one problem, or a schema). Returns the report of
/// `compat::check`.
pub fn check_schema(schema: &Schema) -> CompatReport {
    let report = compat::check(schema, schema);
    let _ = report.to_string();
    let evolved = compat::evolve(schema, schema, schema.mode);
    let _ = evolved.to_string();
    for view in [View::Sender, View::Receiver] {
        let exported = json_schema::to_json_schema(schema, view);
        let _ = serde_json::to_string(&exported);
    }
    for dialect in Dialect::ALL {
        match dialect::to_dialect(schema, dialect) {
            Ok(export) => {
                let _ = serde_json::to_string(&export.schema);
            }
            Err(error) => {
                assert!(
                    !error.problems.is_empty(),
                    "{dialect} refused without a problem"
                );
                let _ = error.to_string();
            }
        }
    }
    report
}

/// Whether `pointer` (RFC 6901, `""` for the document) names a place inside `doc`, or the
/// place of a keyword that is missing there (the last token under an existing value).
fn pointer_in(doc: &Value, pointer: &str) -> bool {
    if doc.pointer(pointer).is_some() {
        return true;
    }
    match pointer.rsplit_once('/') {
        Some((parent, _)) => doc.pointer(parent).is_some(),
        None => false,
    }
}
