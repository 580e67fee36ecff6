//! The nested contract the fuzz target of `receive` runs on (`fuzz/`), and the properties it
//! checks, shared with the regression test that replays every input the fuzzer found.

use std::collections::{BTreeMap, BTreeSet};

use contract_core::{receive, send, HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

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
