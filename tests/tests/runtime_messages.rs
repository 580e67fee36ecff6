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

/// The refusal of the envelope `payload` of a `refund-request/v2`, as a block of text.
fn envelope_refused(label: &str, payload: &str) -> String {
    use contract_core::{receive_handoff, ReceiveOptions};
    use contract_tests::types::RefundRequest;

    let mut out = String::new();
    let _ = writeln!(out, "## {label}\nenvelope: {payload}");
    match receive_handoff::<RefundRequest>(payload.as_bytes(), &ReceiveOptions::default()) {
        Ok(_) => {
            let _ = writeln!(out, "accepted");
        }
        Err(rejection) => {
            let _ = writeln!(out, "{rejection}");
            match rejection.presence() {
                Some(presence) => {
                    let _ = writeln!(out, "payload presence: {presence}");
                }
                None => {
                    let _ = writeln!(out, "payload not read");
                }
            }
            let json = serde_json::to_string(&rejection.problems()).unwrap_or_default();
            let _ = writeln!(out, "json: {json}");
        }
    }
    out
}

#[test]
fn an_envelope_says_which_contract_it_refused_and_where() {
    let envelope = |schema_version: &str, contract: &str, payload: &str| {
        format!(
            r#"{{"schemaVersion": {schema_version}, "contract": {contract}, "contextId": "ctx-1", "handoffId": "h-1", "goal": "g", "owner": "triage", "status": "ready", "payload": {payload}}}"#
        )
    };
    let payload = r#"{"category": "damaged", "orderId": "A-1", "useCase": null}"#;
    let cases = [
        envelope_refused(
            "another contract: the payload is not read",
            &envelope(r#""handoff-envelope/v1""#, r#""invoice/v1""#, "7"),
        ),
        envelope_refused(
            "another major with no published snapshot",
            &envelope(
                r#""handoff-envelope/v1""#,
                r#""refund-request/v7""#,
                payload,
            ),
        ),
        envelope_refused(
            "ids that are no contract ids (not repeated)",
            &envelope(r#""SECRET envelope""#, r#""SECRET/v1""#, payload),
        ),
        envelope_refused(
            "another envelope version",
            &envelope(
                r#""handoff-envelope/v2""#,
                r#""refund-request/v2""#,
                payload,
            ),
        ),
        envelope_refused(
            "the envelope's and the payload's problems, located from the envelope's root",
            &envelope(
                r#""handoff-envelope/v1""#,
                r#""refund-request/v2""#,
                r#"{"category": "SECRET", "orderRef": 7}"#,
            )
            .replace(r#""status": "ready""#, r#""status": 1"#),
        ),
    ];
    insta::assert_snapshot!("envelope_rejections", cases.concat());
}
