//! `receive` on any bytes, for a nested contract with every shape: enums of each
//! representation, flatten, maps, options, sets, tuples, arrays. The properties:
//! no panic; `receive` accepts only what `serde_json::from_slice` accepts; an accepted
//! payload round-trips through `send`, and what `send` writes is received again; a
//! rejection lists at least one problem, and a string the payload holds as a value
//! (`"SECRET"` in the seeds) never appears in its text — unless the payload also has it as a
//! key, since field names, even unknown ones, are structure and may be shown.
#![no_main]

use std::collections::{BTreeMap, BTreeSet};

use contract_core::{receive, send, HandoffContract, HandoffSchema};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
enum Status {
    Ready,
    Blocked,
    #[serde(other)]
    Unknown,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
enum External {
    Unit,
    Newtype(u16),
    Tuple(i8, String),
    Struct { a: bool, b: Option<f64> },
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
enum Internal {
    Note { text: String },
    Score(Scored),
    Empty,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Scored {
    score: u8,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
enum Adjacent {
    Num(i64),
    Pair(u8, u8),
    Nothing,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum Untagged {
    Flag(bool),
    Count(u32),
    Named { name: String },
    List(Vec<u8>),
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Artifact {
    name: String,
    #[serde(alias = "ver")]
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uri: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
struct Budget {
    tokens: u64,
    seconds: Option<f32>,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Meta {
    owner: String,
    #[serde(default)]
    tags: BTreeSet<String>,
}

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "fuzz-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
struct Envelope {
    handoff_id: String,
    status: Status,
    artifacts: Vec<Artifact>,
    budget: Option<Budget>,
    external: External,
    internal: Internal,
    adjacent: Adjacent,
    untagged: Vec<Untagged>,
    scores: BTreeMap<u8, i32>,
    pair: (char, u64),
    fixed: [i16; 2],
    #[serde(flatten)]
    meta: Meta,
}

fuzz_target!(|data: &[u8]| {
    let serde = serde_json::from_slice::<Envelope>(data);
    match receive::<Envelope>(data) {
        Ok(received) => {
            assert!(serde.is_ok(), "receive accepted what serde rejects");
            let value = received.into_inner();
            if let Ok(sent) = send(&value) {
                assert!(receive::<Envelope>(sent.bytes()).is_ok(), "what send wrote is refused");
            }
        }
        Err(rejection) => {
            assert!(!rejection.problems().is_empty());
            let text = format!("{rejection} {rejection:?} {}", serde_json::to_string(&rejection).unwrap());
            let as_key = [&b"SECRET\":"[..], b"SECRET\" :"]
                .iter()
                .any(|key| data.windows(key.len()).any(|w| w == *key));
            assert!(as_key || !text.contains("SECRET"), "a value leaked: {text}");
        }
    }
});
