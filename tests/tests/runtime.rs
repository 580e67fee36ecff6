//! The runtime on its own: `receive`, `send` and `send_to` on hostile input, the points where
//! `receive` is stricter than serde (each pinned: serde accepts, `receive` refuses), presence
//! records, and the promise that no value of a payload appears in any output.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use contract_core::{
    receive, receive_with, send, send_to, HandoffContract, HandoffSchema, Limits, Presence,
    ProblemKind, ReceiveOptions, Rejection,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Artifact {
    pub name: String,
    pub uri: String,
    pub version: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ready,
    Blocked,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "runtime-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    pub context_id: String,
    pub handoff_id: String,
    pub status: Status,
    pub artifacts: Vec<Artifact>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub budget: BTreeMap<String, u32>,
}

fn envelope() -> serde_json::Value {
    json!({
        "contextId": "ctx-1",
        "handoffId": "h-1",
        "status": "ready",
        "artifacts": [
            { "name": "plan", "uri": "s3://plans/1", "version": 3 },
            { "name": "draft", "uri": "s3://drafts/1", "version": 1 }
        ],
        "budget": { "tokens": 1000 }
    })
}

/// The paths an envelope with artifacts records, its keys written in sorted order.
const ENVELOPE_RECEIVED: [&str; 8] = [
    "artifacts",
    "artifacts[].name",
    "artifacts[].uri",
    "artifacts[].version",
    "budget",
    "contextId",
    "handoffId",
    "status",
];

fn bytes(value: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("a Value serializes")
}

fn rejection<T: DeserializeOwned + HandoffSchema + 'static>(input: &[u8]) -> Rejection {
    match receive::<T>(input) {
        Ok(_) => panic!("receive accepted {}", String::from_utf8_lossy(input)),
        Err(r) => r,
    }
}

fn kinds(r: &Rejection) -> Vec<(String, ProblemKind)> {
    r.problems()
        .iter()
        .map(|p| (p.pointer.clone(), p.kind.clone()))
        .collect()
}

#[test]
fn a_valid_payload_is_received_with_its_presence() {
    let received = receive::<Envelope>(&bytes(&envelope())).expect("valid");
    let presence = received.presence();
    assert_eq!(presence.contract(), Some("runtime-envelope/v1"));
    // In the order of first arrival (serde_json writes a `Value`'s keys sorted).
    assert_eq!(presence.received(), ENVELOPE_RECEIVED);
    assert_eq!(presence.count("artifacts[].version"), 2);
    assert_eq!(presence.count("contextId"), 1);
    assert_eq!(presence.count("note"), 0);
    assert_eq!(presence.is_present("note"), Some(false));
    assert_eq!(presence.is_present("handoffId"), Some(true));
    assert!(presence.missing().is_empty());
    assert_eq!(received.into_inner().artifacts.len(), 2);
}

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "runtime-kept", version = 1)]
struct Kept {
    id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tags: Option<Vec<String>>,
}

/// The paths a call meets are remembered for the next calls of the thread and shared with
/// the records already handed out: a record kept while later calls add paths (a field that
/// first arrives later, another contract, the sender's side) reads as it did.
#[test]
fn a_presence_kept_across_calls_reads_as_it_did() {
    let first = receive::<Kept>(br#"{"id":1}"#).expect("valid");
    let second = receive::<Kept>(br#"{"tags":["a","b"],"id":2}"#).expect("valid");
    let other = receive::<Envelope>(&bytes(&envelope())).expect("valid");
    let sent = send(&Kept {
        id: 3,
        tags: Some(vec!["c".into()]),
    })
    .expect("valid");
    let third = receive::<Kept>(br#"{"id":3,"tags":[]}"#).expect("valid");
    assert_eq!(first.presence().received(), ["id"]);
    assert_eq!(first.presence().count("tags[]"), 0);
    assert_eq!(first.presence().is_present("tags"), Some(false));
    assert_eq!(second.presence().received(), ["tags", "id"]);
    assert_eq!(second.presence().count("tags[]"), 0);
    assert_eq!(second.presence().is_present("tags"), Some(true));
    assert_eq!(third.presence().received(), ["id", "tags"]);
    assert_eq!(sent.presence().received(), ["id", "tags"]);
    assert_eq!(other.presence().count("artifacts[].version"), 2);
    assert_eq!(first.presence().received(), ["id"]);
}

/// Records of one thread whose fields arrived in the same order share the lists rendered
/// from that order; each keeps its own counts, and a record rendered after others of another
/// order (or on another thread) reads as a record rendered alone.
#[test]
fn records_rendered_in_any_order_read_as_their_own_payload() {
    // Written by hand: a `Value` writes its keys sorted.
    let payload = |artifacts: usize, note_first: bool| {
        let artifacts: Vec<String> = (0..artifacts)
            .map(|i| format!(r#"{{"name":"a","uri":"u","version":{i}}}"#))
            .collect();
        let note = if note_first { r#""note":"n","# } else { "" };
        format!(
            r#"{{{note}"artifacts":[{}],"budget":{{"tokens":1}},"contextId":"c","handoffId":"h","status":"ready"}}"#,
            artifacts.join(",")
        )
        .into_bytes()
    };
    let two = receive::<Envelope>(&payload(2, false)).expect("valid");
    let three = receive::<Envelope>(&payload(3, false)).expect("valid");
    let noted = receive::<Envelope>(&payload(1, true)).expect("valid");
    let none = receive::<Envelope>(&payload(0, false)).expect("valid");
    let flipped = receive::<Envelope>(
        br#"{"status":"ready","handoffId":"h","contextId":"c","budget":{},"artifacts":[{"name":"a","uri":"u","version":1}]}"#,
    )
    .expect("valid");
    let plain = ENVELOPE_RECEIVED;
    // Rendered out of the order they were received in, the same order twice in between.
    assert_eq!(three.presence().received(), plain);
    assert_eq!(
        flipped.presence().received(),
        [
            "status",
            "handoffId",
            "contextId",
            "budget",
            "artifacts",
            "artifacts[].name",
            "artifacts[].uri",
            "artifacts[].version",
        ]
    );
    assert_eq!(noted.presence().received()[0], "note");
    assert_eq!(noted.presence().is_present("note"), Some(true));
    assert_eq!(two.presence().received(), plain);
    assert_eq!(two.presence().count("artifacts[].version"), 2);
    assert_eq!(three.presence().count("artifacts[].version"), 3);
    assert_eq!(noted.presence().count("artifacts[].version"), 1);
    assert_eq!(two.presence().is_present("note"), Some(false));
    assert_eq!(
        none.presence().received(),
        ["artifacts", "budget", "contextId", "handoffId", "status"]
    );
    assert_eq!(none.presence().count("artifacts[].name"), 0);
    // A record handed to another thread, rendered there after this thread rendered others.
    let later = receive::<Envelope>(&payload(4, false)).expect("valid");
    let _ = receive::<Envelope>(&payload(5, true))
        .expect("valid")
        .presence()
        .to_string();
    let there = std::thread::spawn(move || {
        let presence = later.presence();
        (
            presence.received().to_vec(),
            presence.count("artifacts[].uri"),
        )
    })
    .join()
    .expect("the thread ends");
    assert_eq!(there.0, plain);
    assert_eq!(there.1, 4);
}

/// A call that records what the call before it recorded (the same payload shape again)
/// shares that record and its rendering; one that differs in a count, an order, a missing or
/// an unknown name has its own, and the shared one still reads as its payload.
#[test]
fn a_record_like_the_last_one_reads_as_its_own_payload() {
    let payload = |artifacts: usize, extra: &str| {
        let artifacts: Vec<String> = (0..artifacts)
            .map(|i| format!(r#"{{"name":"a","uri":"u","version":{i}}}"#))
            .collect();
        format!(
            r#"{{"artifacts":[{}],"budget":{{"tokens":1}},"contextId":"c","handoffId":"h","status":"ready"{extra}}}"#,
            artifacts.join(",")
        )
        .into_bytes()
    };
    let two = receive::<Envelope>(&payload(2, "")).expect("valid");
    let two_again = receive::<Envelope>(&payload(2, "")).expect("valid");
    assert_eq!(two_again.presence().count("artifacts[].version"), 2);
    let three = receive::<Envelope>(&payload(3, "")).expect("valid");
    let extra = receive::<Envelope>(&payload(2, r#","x":1"#)).expect("valid");
    let other_extra = receive::<Envelope>(&payload(2, r#","y":1"#)).expect("valid");
    let two_later = receive::<Envelope>(&payload(2, "")).expect("valid");
    assert_eq!(two.presence().count("artifacts[].version"), 2);
    assert_eq!(three.presence().count("artifacts[].version"), 3);
    assert_eq!(two_later.presence().count("artifacts[].version"), 2);
    assert_eq!(two.presence(), two_again.presence());
    assert_eq!(two.presence(), two_later.presence());
    assert_eq!(extra.presence().unknown(), ["x"]);
    assert_eq!(other_extra.presence().unknown(), ["y"]);
    assert!(two_later.presence().unknown().is_empty());
    // Rejections alike, and one missing another field.
    let missing = |field: &str| {
        let mut value = envelope();
        value.as_object_mut().expect("an object").remove(field);
        rejection::<Envelope>(&bytes(&value))
    };
    let (a, b, c) = (
        missing("contextId"),
        missing("contextId"),
        missing("handoffId"),
    );
    assert_eq!(a.presence().missing(), ["contextId"]);
    assert_eq!(b.presence().missing(), ["contextId"]);
    assert_eq!(c.presence().missing(), ["handoffId"]);
    let sent = |id: u32| send(&Kept { id, tags: None }).expect("valid");
    let (one, again) = (sent(1), sent(2));
    assert_eq!(one.presence().received(), ["id"]);
    assert_eq!(again.presence().received(), ["id"]);
    assert_eq!(again.bytes(), br#"{"id":2}"#);
}

/// What the runtime hands out moves between threads and async tasks.
#[test]
fn what_the_runtime_returns_is_send_and_sync() {
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<contract_core::Received<Envelope>>();
    send_sync::<contract_core::Sent>();
    send_sync::<Rejection>();
    send_sync::<Presence>();
    send_sync::<contract_core::FieldPath>();
}

/// Options and limits chain on values, as a Rust user writes them; what they set is what a
/// call applies.
#[test]
fn options_and_limits_are_chainable_builders() {
    let journey = contract_core::Journey::default()
        .from("triage-agent")
        .to("refund-specialist")
        .attempt(1);
    assert_eq!(journey.handoff_from.as_deref(), Some("triage-agent"));
    assert_eq!(journey.handoff_to.as_deref(), Some("refund-specialist"));
    assert_eq!(journey.attempt, Some(1));
    assert_eq!(journey.retry_of, None, "an attempt alone retries nothing");
    let retried = journey.clone().retry(2, "run-41");
    assert_eq!(
        (retried.attempt, retried.retry_of.as_deref()),
        (Some(2), Some("run-41"))
    );

    let payload = bytes(&envelope());
    let small = Limits::default().max_bytes(64).max_depth(8);
    let options = ReceiveOptions::default()
        .journey(journey.clone())
        .limits(small);
    assert_eq!(options.journey, journey);
    let r = receive_with::<Envelope>(&payload, &options).unwrap_err();
    assert_eq!(
        kinds(&r),
        [(String::new(), ProblemKind::TooLarge { limit: 64 })]
    );
    assert_eq!(
        r.problems()[0].kind.class(),
        contract_core::ProblemClass::Limit
    );
    let malformed = receive::<Envelope>(b"{\"contextId\":").unwrap_err();
    assert_eq!(
        malformed.problems()[0].kind.class(),
        contract_core::ProblemClass::NotJson
    );
    let missing = receive::<Envelope>(b"{}").unwrap_err();
    assert!(missing
        .problems()
        .iter()
        .all(|p| p.kind.class() == contract_core::ProblemClass::Contract));

    let value: Envelope = serde_json::from_slice(&payload).expect("valid");
    let options = contract_core::SendOptions::default()
        .journey(journey)
        .limits(Limits::default().max_bytes(64));
    let r = contract_core::send_with(&value, &options).unwrap_err();
    assert_eq!(
        kinds(&r),
        [(String::new(), ProblemKind::TooLarge { limit: 64 })]
    );
    assert!(contract_core::send_with(&value, &contract_core::SendOptions::default()).is_ok());

    let all = Limits::default()
        .max_string_bytes(5)
        .max_keys_per_object(6)
        .max_unknown_names(7);
    assert_eq!(
        (
            all.max_string_bytes,
            all.max_keys_per_object,
            all.max_unknown_names
        ),
        (5, 6, 7)
    );
}

/// `Sent` gives its bytes as `AsRef<[u8]>` and `Into<Vec<u8>>`; `Received` its value as
/// `AsRef<T>`.
#[test]
fn sent_and_received_convert_as_rust_users_take_them() {
    fn body(bytes: impl AsRef<[u8]>) -> usize {
        bytes.as_ref().len()
    }
    let value: Envelope = serde_json::from_slice(&bytes(&envelope())).expect("valid");
    let sent = send(&value).expect("valid");
    let expected = serde_json::to_vec(&value).expect("serializes");
    assert_eq!(body(&sent), expected.len());
    let owned: Vec<u8> = sent.clone().into();
    assert_eq!(owned, expected);
    assert_eq!(Vec::from(sent), expected);

    let received = receive::<Envelope>(&expected).expect("valid");
    let borrowed: &Envelope = received.as_ref();
    assert_eq!(borrowed.artifacts.len(), value.artifacts.len());
}

#[test]
fn every_problem_is_listed_with_its_pointer() {
    let mut payload = envelope();
    payload["artifacts"][1]["version"] = json!(-1);
    payload["artifacts"][0]
        .as_object_mut()
        .expect("an object")
        .remove("uri");
    payload["status"] = json!("SECRET-status");
    payload["budget"]["tokens"] = json!("many");
    payload
        .as_object_mut()
        .expect("an object")
        .remove("handoffId");
    let r = rejection::<Envelope>(&bytes(&payload));
    // serde_json writes a `Value`'s keys sorted: the problems follow the document's order.
    let expected: Vec<(String, ProblemKind)> = vec![
        (
            "/artifacts/0/uri".into(),
            ProblemKind::MissingField {
                field: "uri".into(),
            },
        ),
        (
            "/artifacts/1/version".into(),
            ProblemKind::OutOfRange {
                expected: "u64".into(),
            },
        ),
        (
            "/budget/*".into(),
            ProblemKind::WrongType {
                expected: "u32".into(),
                found: contract_core::runtime::JsonKind::String,
            },
        ),
        (
            "/status".into(),
            ProblemKind::UnknownVariant {
                expected: "Status".into(),
                known: vec!["ready".into(), "blocked".into()],
                known_count: 2,
            },
        ),
        (
            "/handoffId".into(),
            ProblemKind::MissingField {
                field: "handoffId".into(),
            },
        ),
    ];
    assert_eq!(kinds(&r), expected);
    assert_eq!(r.presence().missing(), ["artifacts[].uri", "handoffId"]);
    let text = r.to_string();
    assert!(
        text.starts_with("receive of runtime-envelope/v1 refused: 5 problems"),
        "{text}"
    );
    assert!(text.contains("\n  /artifacts/1/version: number out of range: expected u64"));
    assert!(!text.contains("SECRET"));
    assert!(!text.contains("many"));
}

#[test]
fn a_rejection_serializes_for_logs() {
    let r = rejection::<Envelope>(br#"{"contextId": 1}"#);
    let json = serde_json::to_value(&r).expect("serializes");
    assert_eq!(json["side"], "receive");
    assert_eq!(json["problems"][0]["pointer"], "/contextId");
    assert_eq!(json["problems"][0]["kind"], "wrong_type");
    assert_eq!(json["problems"][0]["expected"], "string");
    assert_eq!(json["problems"][0]["found"], "integer");
    assert_eq!(json["problems"][1]["kind"], "missing_field");
    assert_eq!(json["presence"]["handoffContract"], "runtime-envelope/v1");
    assert_eq!(json["presence"]["contextIdPresent"], true);
    assert_eq!(json["presence"]["handoffIdPresent"], false);
    let error: &dyn std::error::Error = &r;
    assert!(error.to_string().contains("/contextId: wrong type"));
}

#[test]
fn presence_serializes_with_the_seed_names_and_reads_back() {
    let r = rejection::<Envelope>(br#"{"contextId": "c", "orderRef": "x", "status": "ready"}"#);
    let presence = r.presence();
    assert_eq!(presence.unknown(), ["orderRef"]);
    let json = serde_json::to_value(presence).expect("serializes");
    assert_eq!(json["receivedFields"], json!(["contextId", "status"]));
    assert_eq!(json["unknownFields"], json!(["orderRef"]));
    assert_eq!(json["handoffIdPresent"], false);
    let back: Presence = serde_json::from_value(json).expect("reads back");
    assert_eq!(&back, presence);
    // The presence record describes itself, and receives itself.
    let again = receive::<Presence>(&serde_json::to_vec(presence).expect("serializes"))
        .expect("a presence record is a valid payload of its own schema");
    assert_eq!(again.value(), presence);
    assert_eq!(
        presence.to_string(),
        "runtime-envelope/v1: received [contextId, status]; missing [handoffId, artifacts, budget]; unknown [orderRef]"
    );
}

/// A send's presence reads as a send: `written [...]` and `writtenFields`, and reads back as
/// one; the receiving side keeps the seed's `receivedFields`.
#[test]
fn a_sent_presence_names_what_was_written() {
    let value: Envelope = serde_json::from_slice(&bytes(&envelope())).expect("valid");
    let sent = send(&value).expect("valid");
    let presence = sent.presence();
    assert_eq!(presence.side(), contract_core::Side::Send);
    assert!(
        presence
            .to_string()
            .starts_with("runtime-envelope/v1: written [contextId, handoffId, status, artifacts"),
        "{presence}"
    );
    let json = serde_json::to_value(presence).expect("serializes");
    assert!(json.get("receivedFields").is_none(), "{json}");
    assert_eq!(json["writtenFields"][0], "contextId");
    assert_eq!(json["contextIdPresent"], true);
    let back: Presence = serde_json::from_value(json).expect("reads back");
    assert_eq!(back.side(), contract_core::Side::Send);
    assert_eq!(&back, presence);
    // The record describes itself on either side.
    let again = receive::<Presence>(&serde_json::to_vec(presence).expect("serializes"))
        .expect("a sent presence record is a valid payload of its own schema");
    assert_eq!(again.value(), presence);

    let received = receive::<Envelope>(sent.bytes()).expect("valid");
    assert_eq!(received.presence().side(), contract_core::Side::Receive);
    assert!(received
        .presence()
        .to_string()
        .contains(": received [contextId"));

    // A record names one side, not both and not neither.
    let both = json!({"receivedFields": [], "writtenFields": [], "missingFields": [], "unknownFields": []});
    assert!(serde_json::from_value::<Presence>(both).is_err());
    let neither = json!({"missingFields": [], "unknownFields": []});
    let error = serde_json::from_value::<Presence>(neither).unwrap_err();
    assert!(error.to_string().contains("receivedFields"), "{error}");
}

#[test]
fn unknown_names_are_capped() {
    let mut object = serde_json::Map::new();
    for i in 0..100 {
        object.insert(format!("extra{i}"), json!(i));
    }
    let options = ReceiveOptions::default().limits(Limits::default().max_unknown_names(3));
    let r = receive_with::<Envelope>(&bytes(&object.into()), &options).unwrap_err();
    assert_eq!(r.presence().unknown().len(), 3);
    assert_eq!(r.presence().unknown_omitted(), 97);
}

// ---- hostile input: each a clean rejection ----------------------------------------------

#[test]
fn a_million_levels_of_nesting() {
    let deep = "[".repeat(1_000_000);
    let r = rejection::<Envelope>(deep.as_bytes());
    assert_eq!(
        kinds(&r),
        [(
            String::new(),
            ProblemKind::TooDeep {
                offset: 127,
                limit: 127
            }
        )]
    );
    let deep_objects = "{\"a\":".repeat(1_000_000);
    assert!(matches!(
        rejection::<serde_json::Value>(deep_objects.as_bytes()).problems()[0].kind,
        ProblemKind::TooDeep { .. }
    ));
}

#[test]
fn a_huge_string_is_refused_by_the_size_limit() {
    let mut huge = Vec::with_capacity(128 << 20);
    huge.extend_from_slice(br#"{"contextId": ""#);
    huge.resize(128 << 20, b'a');
    huge.extend_from_slice(b"\"}");
    let r = rejection::<Envelope>(&huge);
    assert_eq!(
        kinds(&r),
        [(String::new(), ProblemKind::TooLarge { limit: 16 << 20 })]
    );
    let options = ReceiveOptions::default().limits(Limits::default().max_bytes(256 << 20));
    assert_eq!(Limits::default().max_bytes, 16 << 20);
    let r = receive_with::<Envelope>(&huge, &options).unwrap_err();
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::StringTooLong { offset: 14, .. }
    ));
}

#[test]
fn invalid_utf8_and_lone_surrogates() {
    let r = rejection::<Envelope>(b"{\"contextId\": \"\xff\"}");
    assert_eq!(
        kinds(&r),
        [(String::new(), ProblemKind::InvalidUtf8 { offset: 15 })]
    );
    let r = rejection::<Envelope>(br#"{"contextId": "\udc00"}"#);
    assert_eq!(
        kinds(&r),
        [(String::new(), ProblemKind::LoneSurrogate { offset: 15 })]
    );
    let r = rejection::<Envelope>(br#"{"contextId": "\ud800"}"#);
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::LoneSurrogate { .. }
    ));
}

#[test]
fn numbers_out_of_the_field_range() {
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Numbers {
        count: u64,
        ratio: f64,
    }
    for (input, pointer) in [
        (r#"{"count": -1, "ratio": 1}"#, "/count"),
        (r#"{"count": 18446744073709551616, "ratio": 1}"#, "/count"),
        (r#"{"count": 1, "ratio": 1e400}"#, "/ratio"),
        (r#"{"count": 1, "ratio": -1e400}"#, "/ratio"),
    ] {
        let r = rejection::<Numbers>(input.as_bytes());
        assert_eq!(r.problems().len(), 1, "{input}");
        assert_eq!(r.problems()[0].pointer, pointer, "{input}");
        assert!(
            matches!(r.problems()[0].kind, ProblemKind::OutOfRange { .. }),
            "{input}"
        );
        assert!(
            serde_json::from_str::<Numbers>(input).is_err(),
            "serde agrees: {input}"
        );
    }
    let r = rejection::<Numbers>(br#"{"count": 1.0, "ratio": 1}"#);
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
}

#[test]
fn duplicate_keys_at_every_level() {
    let cases: [(&str, &str, Option<&str>); 4] = [
        (
            r#"{"contextId":"a","contextId":"b"}"#,
            "/contextId",
            Some("contextId"),
        ),
        (r#"{"budget":{"t":1,"t":2}}"#, "/budget/*", None),
        (
            r#"{"artifacts":[{"name":"a","name":"b"}]}"#,
            "/artifacts/0/name",
            Some("name"),
        ),
        (r#"{"x":{"y":[{"z":1,"z":1}]}}"#, "/x", None),
    ];
    for (input, pointer, key) in cases {
        let r = rejection::<Envelope>(input.as_bytes());
        let dup = r
            .problems()
            .iter()
            .find(|p| matches!(p.kind, ProblemKind::DuplicateKey { .. }))
            .unwrap_or_else(|| panic!("no duplicate found in {input}: {r}"));
        assert_eq!(dup.pointer, pointer, "{input}");
        assert_eq!(
            dup.kind,
            ProblemKind::DuplicateKey {
                key: key.map(|k| k.to_owned().into())
            }
        );
    }
    // serde keeps the last of a map's duplicate keys and skips a duplicate unknown field.
    assert!(serde_json::from_str::<BTreeMap<String, u8>>(r#"{"a":1,"a":2}"#).is_ok());
    assert!(receive::<BTreeMap<String, u8>>(br#"{"a":1,"a":2}"#).is_err());
    // Past the keys an object keeps in line, a repeat is still found, and distinct keys pass.
    let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
    let distinct = format!("{{{}}}", keys.join(","));
    let repeated = format!("{{{},\"k3\":0}}", keys.join(","));
    assert_eq!(
        receive::<BTreeMap<String, u8>>(distinct.as_bytes())
            .map(|r| r.into_inner().len())
            .ok(),
        Some(40)
    );
    let map: BTreeMap<String, u8> = (0..40).map(|i| (format!("k{i}"), i)).collect();
    assert_eq!(
        send(&map).expect("distinct keys").bytes(),
        serde_json::to_vec(&map).expect("serializes")
    );
    let r = rejection::<BTreeMap<String, u8>>(repeated.as_bytes());
    assert!(
        r.problems()
            .iter()
            .any(|p| matches!(p.kind, ProblemKind::DuplicateKey { .. })),
        "{r}"
    );
}

#[test]
fn framing_errors() {
    let cases: [(&[u8], ProblemKind); 6] = [
        (b"", ProblemKind::Empty),
        (b"  \n", ProblemKind::Empty),
        (b"\xEF\xBB\xBF{}", ProblemKind::ByteOrderMark),
        (b"{} garbage", ProblemKind::TrailingData { offset: 3 }),
        (b"{}{}", ProblemKind::TrailingData { offset: 2 }),
        (
            b"{\"a\":}",
            ProblemKind::Malformed {
                offset: 5,
                expected: "a JSON value",
            },
        ),
    ];
    for (input, kind) in cases {
        let r = rejection::<Envelope>(input);
        assert_eq!(kinds(&r), [(String::new(), kind)], "{input:?}");
    }
}

#[test]
fn null_and_an_empty_array_are_wrong_types() {
    let r = rejection::<Envelope>(b"null");
    assert_eq!(
        kinds(&r),
        [(
            String::new(),
            ProblemKind::NullNotAllowed {
                expected: "Envelope".into()
            }
        )]
    );
    let r = rejection::<Envelope>(b"[]");
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
}

// ---- stricter than serde, pinned: serde accepts, receive refuses ------------------------

fn stricter<T: DeserializeOwned + HandoffSchema + 'static>(input: &str) -> Rejection {
    assert!(
        serde_json::from_str::<T>(input).is_ok(),
        "serde should accept {input}"
    );
    rejection::<T>(input.as_bytes())
}

#[test]
fn stricter_points_are_pinned() {
    stricter::<Artifact>(r#"["plan", "s3://x", 1]"#);
    stricter::<contract_tests::types::Category>(r#"{"damaged": null}"#);
    stricter::<BTreeSet<u8>>("[1, 1]");
    stricter::<HashMap<String, u8>>(r#"{"a": 1, "a": 2}"#);
    stricter::<Artifact>(r#"{"name": "a", "uri": "u", "version": 1, "x": 1, "x": 2}"#);
    stricter::<Artifact>(r#"{"name": "a", "uri": "u", "version": 1, "x": "\udc00"}"#);
    stricter::<Artifact>(
        r#"{"name": "a", "uri": "u", "version": 1, "x": {"y": {"y": 1, "y": 2}}}"#,
    );
    // An internally tagged enum written as an array.
    let r = stricter::<contract_tests::types::Figure>(r#"["circle", 1.5]"#);
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
    // A variant's index as the tag, where serde buffers the content: here the tagged part
    // of an enum with untagged variants (`Ping` is variant 0).
    let r = stricter::<contract_tests::types::InternalWithUntagged>(r#"{"kind": 0, "x": "s"}"#);
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::NoVariantMatches { .. }
    ));
    // Invalid UTF-8 inside a value the type ignores: serde_json skips it unchecked.
    let ignored = b"{\"name\": \"a\", \"uri\": \"u\", \"version\": 1, \"x\": \"\xff\"}";
    assert!(serde_json::from_slice::<Artifact>(ignored).is_ok());
    let r = rejection::<Artifact>(ignored);
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::InvalidUtf8 { .. }
    ));
}

#[test]
fn a_format_serde_refuses_is_located_without_its_value() {
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Stamp {
        id: uuid::Uuid,
    }
    let r = rejection::<Stamp>(br#"{"id": "SECRET-not-a-uuid"}"#);
    assert_eq!(r.problems().len(), 1);
    assert_eq!(r.problems()[0].pointer, "/id");
    assert!(matches!(
        r.problems()[0].kind,
        ProblemKind::Refused {
            category: "data",
            ..
        }
    ));
    assert!(!format!("{r} {r:?}").contains("SECRET"));
}

// ---- send and send_to --------------------------------------------------------------------

#[derive(Debug, Serialize, HandoffContract)]
#[handoff(name = "runtime-triage-out", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct TriageOut {
    pub category: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_ref: Option<String>,
}

#[derive(Debug, Deserialize, HandoffContract)]
#[handoff(name = "runtime-specialist-in", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct SpecialistIn {
    pub category: String,
    pub order_ref: String,
}

#[test]
fn send_checks_the_own_sender_view_and_send_to_the_consumer() {
    let dropped = TriageOut {
        category: "damaged".into(),
        order_ref: None,
    };
    // Its own contract allows leaving `orderRef` out.
    let sent = send(&dropped).expect("the producer's own view allows it");
    assert_eq!(sent.presence().received(), ["category"]);
    assert_eq!(sent.presence().is_present("orderRef"), Some(false));
    // The consumer requires it: caught before the bytes leave.
    let r = send_to::<SpecialistIn, _>(&dropped).unwrap_err();
    assert_eq!(
        kinds(&r),
        [(
            "/orderRef".into(),
            ProblemKind::MissingField {
                field: "orderRef".into()
            }
        )]
    );
    assert!(r
        .to_string()
        .starts_with("send of runtime-specialist-in/v1 refused: 1 problem"));
    let ok = send_to::<SpecialistIn, _>(&TriageOut {
        category: "damaged".into(),
        order_ref: Some("A-1".into()),
    })
    .expect("complete");
    assert!(receive::<SpecialistIn>(ok.bytes()).is_ok());
}

#[test]
fn send_catches_a_custom_serialize_that_writes_something_else() {
    #[derive(Debug, HandoffSchema)]
    struct Liar {
        #[allow(dead_code)]
        count: u32,
    }
    impl Serialize for Liar {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(Some(1))?;
            map.serialize_entry("count", "SECRET")?;
            map.serialize_entry("extra", &1)?;
            map.end()
        }
    }
    let r = send(&Liar { count: 1 }).unwrap_err();
    assert_eq!(r.problems().len(), 2);
    assert_eq!(r.problems()[0].pointer, "/count");
    assert_eq!(
        r.problems()[1].kind,
        ProblemKind::UnknownField {
            field: "extra".into()
        }
    );
    // `Liar` denies nothing: the sender view is closed because a type writes its own fields.
    let message = r.problems()[1].to_string();
    assert!(!message.contains("denies"), "{message}");
    assert!(message.contains("admits no other key"), "{message}");
    assert!(!r.to_string().contains("SECRET"));
}

// ---- never values -----------------------------------------------------------------------

const SECRET: &str = "S3CR3T";

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "runtime-secrets", version = 1)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    pub text: String,
    pub number: u8,
    pub keyed: BTreeMap<String, u8>,
    pub status: Status,
    pub when: uuid::Uuid,
    pub pair: (char, bool),
}

/// An unknown enum value names the values the contract knows (structure, never the value
/// that arrived), a long list shortened with its count.
#[test]
fn an_unknown_variant_names_the_known_ones() {
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[serde(rename_all = "kebab-case")]
    #[allow(dead_code)] // read by serde only
    enum Reason {
        Damaged,
        NotDelivered,
        #[serde(alias = "mind")]
        ChangedMind,
    }
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Refund {
        reason: Reason,
    }
    let r = rejection::<Refund>(br#"{"reason":"SECRET-REASON"}"#);
    assert_eq!(
        r.problems()[0].to_string(),
        "/reason: unknown variant: expected one of damaged, not-delivered, changed-mind, mind"
    );
    assert!(!format!("{r} {r:?}").contains("SECRET"));

    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    enum Many {
        A0,
        A1,
        A2,
        A3,
        A4,
        A5,
        A6,
        A7,
        A8,
        A9,
        B0,
        B1,
        B2,
        B3,
        B4,
        B5,
        B6,
        B7,
        B8,
        B9,
    }
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Holder {
        many: Many,
    }
    let r = rejection::<Holder>(br#"{"many":"C0"}"#);
    assert_eq!(
        r.problems()[0].to_string(),
        "/many: unknown variant: expected one of A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, B0, B1, and 8 more of Many (20 in all)"
    );
}

/// Found by the fuzz target: the key of an externally tagged enum's object is the variant's
/// name, a value the sender chose; an unknown one is not shown.
#[test]
fn an_unknown_external_variant_is_not_echoed() {
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    enum External {
        Newtype(u16),
    }
    #[derive(Debug, Deserialize, HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Holder {
        external: External,
    }
    let r = rejection::<Holder>(br#"{"external":{"SECRET":1}}"#);
    assert_eq!(
        kinds(&r),
        [(
            "/external".into(),
            ProblemKind::UnknownVariant {
                expected: "External".into(),
                known: vec!["Newtype".into()],
                known_count: 1,
            }
        )]
    );
    assert!(!format!("{r} {r:?}").contains("SECRET"));
}

#[test]
fn no_value_appears_in_any_output() {
    let secret_number = "918273645";
    let payloads = [
        format!(
            r#"{{"text": 7, "number": {secret_number}, "keyed": {{"{SECRET}": "{SECRET}", "{SECRET}": 1}}, "status": "{SECRET}", "when": "{SECRET}", "pair": ["{SECRET}", "{SECRET}"], "{SECRET}x": 1}}"#
        ),
        format!(r#"{{"text": "{SECRET}", "number": 1.{secret_number}}}"#),
        format!(r#"{{"text": "{SECRET}\udc00"}}"#),
        format!(r#"{{"text": "{SECRET}"}} {SECRET}"#),
        format!(r#"{{"text": "{SECRET}", "text": "{SECRET}"}}"#),
        format!(
            r#"{{"text": "{SECRET}", "number": 1, "keyed": {{}}, "status": "ready", "when": "{SECRET}", "pair": ["a", true]}}"#
        ),
        format!(
            r#"{{"keyed": {{"{SECRET}": 1}}, "number": 1, "text": "x", "status": "ready", "pair": ["a", true], "when": "00000000-0000-0000-0000-00000000000{SECRET}"}}"#
        ),
    ];
    for payload in payloads {
        let r = rejection::<Secrets>(payload.as_bytes());
        let outputs = [
            r.to_string(),
            format!("{r:?}"),
            serde_json::to_string(&r).expect("serializes"),
            r.presence().to_string(),
            serde_json::to_string(r.presence()).expect("serializes"),
        ];
        for out in outputs {
            // An unknown field's name is structure and may appear: the payload above names
            // one `S3CR3Tx`, so only the value forms are checked here.
            let scrubbed = out.replace(&format!("{SECRET}x"), "");
            assert!(!scrubbed.contains(SECRET), "{payload}\n{out}");
            assert!(!out.contains(secret_number), "{payload}\n{out}");
        }
    }
    // The accepted path: the presence of a valid payload holds no value either.
    let ok = format!(
        r#"{{"text": "{SECRET}", "number": 1, "keyed": {{"{SECRET}": 2}}, "status": "ready", "when": "67e55044-10b1-426f-9247-bb680e5fe0c8", "pair": ["s", true]}}"#
    );
    let received = receive::<Secrets>(ok.as_bytes()).expect("valid");
    let p = received.presence();
    for out in [
        p.to_string(),
        format!("{p:?}"),
        serde_json::to_string(p).expect("ok"),
    ] {
        assert!(!out.contains(SECRET), "{out}");
    }
}

// ---- the value from the tape is serde_json's value ---------------------------------------

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Numbers {
    pub u: Option<u64>,
    pub i: Option<i64>,
    pub big: Option<u128>,
    pub signed_big: Option<i128>,
    pub small: Option<f32>,
    pub float: Option<f64>,
    pub any: Option<serde_json::Value>,
    pub by_int: Option<BTreeMap<i16, u8>>,
    pub by_bool: Option<BTreeMap<bool, u8>>,
    pub by_u128: Option<BTreeMap<u128, u8>>,
}

#[test]
fn the_value_is_the_one_serde_json_reads() {
    let fields = [
        (
            "u",
            vec![
                "0",
                "18446744073709551615",
                "-0",
                "1e2",
                "1.0",
                "18446744073709551616",
            ],
        ),
        (
            "i",
            vec![
                "-9223372036854775808",
                "-0",
                "9223372036854775807",
                "-9223372036854775809",
            ],
        ),
        (
            "big",
            vec![
                "340282366920938463463374607431768211455",
                "18446744073709551616",
                "-1",
            ],
        ),
        (
            "signed_big",
            vec!["-170141183460469231731687303715884105728", "-0", "1"],
        ),
        (
            "small",
            vec!["3.4028235e38", "1e39", "-0", "0.1", "16777217"],
        ),
        (
            "float",
            vec![
                "0.1",
                "-0.0",
                "-0",
                "5e-324",
                "1.7976931348623157e308",
                "2.2250738585072011e-308",
                "123456789012345678901234567890",
                "0.30000000000000000000000000000000000000000001",
                "1e400",
            ],
        ),
        (
            "any",
            vec![
                "-0",
                "1e2",
                "18446744073709551616",
                "-9223372036854775809",
                "[1, -1, 1.5, \"\\u00e9\"]",
            ],
        ),
        (
            "by_int",
            vec![
                r#"{"1": 1}"#,
                r#"{"-1": 1}"#,
                r#"{"01": 1}"#,
                r#"{"1.5": 1}"#,
                r#"{"70000": 1}"#,
                r#"{"\u0031": 1}"#,
            ],
        ),
        (
            "by_bool",
            vec![r#"{"true": 1}"#, r#"{"false": 2}"#, r#"{"yes": 1}"#],
        ),
        (
            "by_u128",
            vec![
                r#"{"340282366920938463463374607431768211455": 1}"#,
                r#"{"-1": 1}"#,
            ],
        ),
    ];
    let mut compared = 0;
    for (field, values) in fields {
        for value in values {
            let payload = format!(r#"{{"{field}": {value}}}"#);
            let ours = receive::<Numbers>(payload.as_bytes());
            let theirs = serde_json::from_str::<Numbers>(&payload);
            match (&ours, &theirs) {
                (Ok(ours), Ok(theirs)) => {
                    let ours = serde_json::to_string(ours.value()).expect("writes");
                    let theirs = serde_json::to_string(theirs).expect("writes");
                    assert_eq!(ours, theirs, "{payload}");
                    // Bit for bit, not only by the text written.
                    if let (Some(a), Some(b)) = (
                        receive::<Numbers>(payload.as_bytes())
                            .ok()
                            .and_then(|r| r.into_inner().float),
                        theirs_float(&payload),
                    ) {
                        assert_eq!(a.to_bits(), b.to_bits(), "{payload}");
                    }
                    compared += 1;
                }
                (Err(_), Err(_)) => {}
                (Ok(_), Err(e)) => panic!("receive accepts {payload}, serde rejects it: {e}"),
                (Err(r), Ok(_)) => panic!("serde accepts {payload}, receive rejects it: {r}"),
            }
        }
    }
    assert!(compared >= 25, "only {compared} values compared");
}

fn theirs_float(payload: &str) -> Option<f64> {
    serde_json::from_str::<Numbers>(payload).ok()?.float
}

/// Integers of a constrained set (`NonZero*`): an excluded value is a problem at its
/// pointer, in a value, an item or a key, all listed at once; the message names the type's
/// set, never the value; `send` refuses nothing serde writes.
#[test]
fn an_excluded_integer_is_out_of_range_at_its_pointer() {
    #[derive(Debug, Serialize, Deserialize, HandoffSchema)]
    struct Counts {
        total: std::num::NonZeroU64,
        delta: std::num::NonZeroI32,
        items: Vec<std::num::NonZeroU8>,
        by_id: BTreeMap<std::num::NonZeroU16, bool>,
    }
    let ok = json!({"total": 1, "delta": -1, "items": [255, 1], "by_id": {"65535": true}});
    let received = receive::<Counts>(&bytes(&ok)).expect("nonzero values are received");
    send(received.value()).expect("what serde writes is sent");
    let bad =
        json!({"total": 0, "delta": 0, "items": [1, 0, 256], "by_id": {"0": true, "7": false}});
    let r = rejection::<Counts>(&bytes(&bad));
    let out_of_range = |expected: &str| ProblemKind::OutOfRange {
        expected: expected.to_owned().into(),
    };
    assert_eq!(
        kinds(&r),
        // In the order of the bytes (`json!` sorts the keys).
        [
            (
                "/by_id/*".to_owned(),
                ProblemKind::InvalidKey {
                    expected: "u16(1..)".into()
                }
            ),
            ("/delta".to_owned(), out_of_range("i32(..=-1, 1..)")),
            ("/items/1".to_owned(), out_of_range("u8(1..)")),
            ("/items/2".to_owned(), out_of_range("u8(1..)")),
            ("/total".to_owned(), out_of_range("u64(1..)")),
        ]
    );
    assert_eq!(
        r.problems()[1].to_string(),
        "/delta: number out of range: expected i32(..=-1, 1..)"
    );
    // serde agrees that each is refused.
    for (key, value) in [("total", json!(0)), ("delta", json!(0))] {
        let mut one = ok.clone();
        one[key] = value;
        assert!(serde_json::from_value::<Counts>(one).is_err(), "{key}");
    }
    // `-0` is the float `-0.0` to serde_json, which no integer type reads.
    let minus_zero = br#"{"total": 1, "delta": -0, "items": [], "by_id": {}}"#;
    assert!(serde_json::from_slice::<Counts>(minus_zero).is_err());
    assert!(receive::<Counts>(minus_zero).is_err());
}

/// `receive` takes the description's position on `Duration`: nanoseconds below 10⁹, as
/// serde writes them, where serde also reads more and carries whole seconds.
#[test]
fn a_duration_with_a_second_of_nanoseconds_is_refused_where_serde_carries_it() {
    let carried = br#"{"secs": 1, "nanos": 1500000000}"#;
    assert_eq!(
        serde_json::from_slice::<std::time::Duration>(carried).ok(),
        Some(std::time::Duration::from_millis(2500))
    );
    let r = rejection::<std::time::Duration>(carried);
    assert_eq!(
        kinds(&r),
        [(
            "/nanos".to_owned(),
            ProblemKind::OutOfRange {
                expected: "u32(0..=999999999)".into()
            }
        )]
    );
    let written = send(&std::time::Duration::new(u64::MAX, 999_999_999)).expect("sent");
    let received = receive::<std::time::Duration>(written.bytes()).expect("received");
    assert_eq!(
        received.into_inner(),
        std::time::Duration::new(u64::MAX, 999_999_999)
    );
}

/// `receive` takes the description's position on chrono's names: those chrono writes and
/// their other spelling in chrono's case, not the other cases chrono also reads.
#[test]
fn a_chrono_name_in_another_case_is_refused_where_chrono_reads_it() {
    assert_eq!(
        serde_json::from_slice::<chrono::Weekday>(br#""mon""#).ok(),
        Some(chrono::Weekday::Mon)
    );
    assert!(receive::<chrono::Weekday>(br#""mon""#).is_err());
    assert!(receive::<Vec<chrono::Month>>(br#"["jan"]"#).is_err());
    let read = receive::<Vec<chrono::Weekday>>(br#"["Mon", "Sunday"]"#).expect("received");
    assert_eq!(
        read.into_inner(),
        [chrono::Weekday::Mon, chrono::Weekday::Sun]
    );
}

/// `receive` reads a `CString` as the array of nonzero bytes serde writes, not as the string
/// serde_json also reads; an OS string in this platform's form.
#[test]
fn a_c_string_is_its_byte_array() {
    let written = send(&std::ffi::CString::new("ab").expect("no NUL")).expect("sent");
    assert_eq!(written.bytes(), b"[97,98]");
    assert!(receive::<std::ffi::CString>(b"[97,98]").is_ok());
    assert!(serde_json::from_slice::<std::ffi::CString>(br#""ab""#).is_ok());
    assert_eq!(
        kinds(&rejection::<std::ffi::CString>(br#""ab""#)),
        [(
            String::new(),
            ProblemKind::WrongType {
                expected: "list<u8(1..)>".into(),
                found: contract_core::runtime::JsonKind::String,
            }
        )]
    );
    assert_eq!(
        kinds(&rejection::<std::ffi::CString>(b"[97,0]")),
        [(
            "/1".to_owned(),
            ProblemKind::OutOfRange {
                expected: "u8(1..)".into()
            }
        )]
    );
    #[cfg(unix)]
    {
        let os = send(&std::ffi::OsString::from("a")).expect("sent");
        assert_eq!(os.bytes(), br#"{"Unix":[97]}"#);
        assert!(receive::<std::ffi::OsString>(br#"{"Windows":[97]}"#).is_err());
    }
}

/// A string of a constrained length (a description written by hand, as an imported schema
/// will give one): a string outside it is a problem at its pointer, as a value and as a key,
/// on both sides, and no message holds the string.
#[test]
fn a_string_outside_its_length_is_refused_at_its_pointer() {
    use contract_core::schema::shape::{ConstraintShape, Kind, Shape, StringFormat};

    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(transparent)]
    struct Code(String);

    impl HandoffSchema for Code {
        const SHAPE: &'static Shape =
            &Shape::builtin(Kind::Constrained(&ConstraintShape::String {
                format: StringFormat::Plain,
                min_len: 1,
                max_len: Some(4),
                pattern: None,
            }));
    }

    #[derive(Debug, Serialize, Deserialize, HandoffSchema)]
    struct Coded {
        code: Code,
        by_code: BTreeMap<Code, u8>,
    }

    // Four characters, counted as characters rather than bytes.
    let ok = json!({"code": "日本語語", "by_code": {"a": 1}});
    assert!(receive::<Coded>(&bytes(&ok)).is_ok());
    let secret = "secret-value";
    let bad = json!({"code": "", "by_code": {secret: 1}});
    let r = rejection::<Coded>(&bytes(&bad));
    let expected: std::borrow::Cow<'static, str> = "string(len 1..=4)".into();
    assert_eq!(
        kinds(&r),
        [
            (
                "/by_code/*".to_owned(),
                ProblemKind::InvalidKey {
                    expected: expected.clone()
                }
            ),
            (
                "/code".to_owned(),
                ProblemKind::WrongStringLength { expected }
            ),
        ]
    );
    assert_eq!(
        r.problems()[1].to_string(),
        "/code: wrong string length: expected string(len 1..=4)"
    );
    let value = Coded {
        code: Code(secret.to_owned()),
        by_code: BTreeMap::new(),
    };
    let refused = send(&value).expect_err("the sender view holds the length too");
    let text = format!(
        "{refused} {} {refused:?}",
        serde_json::to_string(&refused).expect("serializes")
    );
    assert!(
        text.contains("wrong string length") && !text.contains(secret),
        "{text}"
    );
}
