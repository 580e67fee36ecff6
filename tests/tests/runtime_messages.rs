//! What `receive` says of bad payloads, one case per shape of the catalogue, as a reviewed
//! snapshot: the pointer and message of every problem, the presence record, and the JSON a
//! log receives. A change in any wording shows up in review.

use std::fmt::Write;

use contract_core::{receive, HandoffSchema};
use contract_tests::types::{Category, Figure, IdOrName, Message};
use serde::de::DeserializeOwned;

/// The rejection of `payload` as `T`, as a block of text.
fn rejected<T: DeserializeOwned + HandoffSchema + 'static>(label: &str, payload: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## {label}\npayload: {payload}");
    match receive::<T>(payload.as_bytes()) {
        Ok(_) => {
            let _ = writeln!(out, "accepted");
        }
        Err(rejection) => {
            let _ = writeln!(out, "{rejection}");
            let _ = writeln!(out, "presence: {}", rejection.presence());
            let json = serde_json::to_string(&rejection.problems()).unwrap_or_default();
            let _ = writeln!(out, "json: {json}");
        }
    }
    out
}

#[test]
fn every_shape_says_what_is_wrong_and_where() {
    let cases = [
        rejected::<Category>("string enum with a catch-all: any string", r#""refunded""#),
        rejected::<Vec<contract_tests::types::HandoffStatus>>(
            "string enum: values not in the set (not repeated)",
            r#"["ready", "SECRET-state", null]"#,
        ),
        rejected::<Category>("string enum: not a string", r#"7"#),
        rejected::<Vec<Figure>>(
            "internally tagged: unknown tag, then a wrong field type",
            r#"[{"type": "hexagon"}, {"type": "circle", "radius": "big"}]"#,
        ),
        rejected::<Vec<Figure>>(
            "internally tagged: a missing tag and a missing field",
            r#"[{"radius": 1.5}, {"type": "rect", "w": 2.0}]"#,
        ),
        rejected::<Vec<Message>>(
            "adjacently tagged: content of the wrong shape, a missing content, content for a unit variant",
            r#"[{"t": "Pair", "c": [1]}, {"t": "Move"}, {"t": "Ping", "c": 1}]"#,
        ),
        rejected::<Vec<IdOrName>>("untagged: nothing fits", r#"[1, "x", true]"#),
        rejected::<std::collections::BTreeMap<u8, bool>>(
            "map: keys that are not u8, a value of the wrong type",
            r#"{"1": true, "300": false, "x": true, "2": "yes"}"#,
        ),
        rejected::<(u8, char, [i8; 2])>(
            "tuple: a char of two characters, an array too short",
            r#"[1, "ab", [1]]"#,
        ),
    ];
    insta::assert_snapshot!("receive_rejections", cases.concat());
}
