//! The envelope `handoff-envelope/v1`: `send_handoff` and `receive_handoff` end to end, the
//! top level read first (any key order, duplicates refused), the ids checked before the
//! payload (another contract, another major with and without a published snapshot the reader
//! reads), problems located from the envelope's root, the payload's presence
//! payload-relative, and the one snapshot every `Handoff<T>` publishes.

use contract_core::envelope::{Digest, ENVELOPE};
use contract_core::task::Budget;
use contract_core::{
    fill_sender_presence, fill_sender_presence_to, receive_handoff, send_handoff, send_handoff_to,
    why_missing, ArtifactRef, Handoff, HandoffContract, HandoffRejection, Journey, Limits,
    ProblemKind, ReceiveOptions, Side, Status, HANDOFF_SCHEMA_VERSION,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// `env-refund/v1`: the payload as its first version wrote it.
mod v1 {
    use super::*;

    /// A refund request, v1.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "env-refund", version = 1, snapshots = "tests/contracts")]
    #[serde(rename_all = "camelCase")]
    pub struct Refund {
        /// The order.
        pub order_ref: String,
        /// How much, in cents.
        pub amount_cents: u32,
        /// A note for the specialist.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
    }
}

/// `env-refund/v2`: `orderRef` renamed `orderId`, old writers still read by alias.
mod v2 {
    use super::*;

    /// A refund request, v2.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "env-refund", version = 2, snapshots = "tests/contracts")]
    #[serde(rename_all = "camelCase")]
    pub struct Refund {
        /// The order.
        #[serde(alias = "orderRef")]
        #[handoff(renamed_from = "orderRef")]
        pub order_id: String,
        /// How much, in cents.
        pub amount_cents: u32,
        /// A note for the specialist.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
    }
}

/// Another contract altogether.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "env-invoice", version = 1, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
pub struct Invoice {
    /// The invoice's number.
    pub number: String,
}

fn refund() -> v1::Refund {
    v1::Refund {
        order_ref: "A-1".into(),
        amount_cents: 1250,
        note: None,
    }
}

fn handoff<T>(payload: T) -> Handoff<T> {
    Handoff::new("ctx-1", "h-1", "triage", payload)
        .goal("refund a damaged order")
        .task("task-9")
        .constraint("no refund above 500 EUR")
        .decision("the customer keeps the item")
        .open_question("was it shipped insured?")
        .assumption("the order is within 30 days")
        .artifact(ArtifactRef::new("policy", "s3://policies/refunds", 4).digest(digest()))
        .budget(Budget {
            max_tool_calls: Some(3),
            ..Budget::default()
        })
        .journey(Journey::new("triage", "specialist").session("sess-1"))
        .ready()
}

fn digest() -> Digest {
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        .parse()
        .expect("a digest")
}

fn options() -> ReceiveOptions {
    ReceiveOptions::default()
}

/// A valid envelope of a v1 refund as JSON, to reorder and break.
fn envelope_json() -> Value {
    let mut handoff = handoff(refund());
    let sent = send_handoff(&mut handoff).expect("sent");
    serde_json::from_slice(sent.bytes()).expect("JSON")
}

/// An object's members written in the order of `keys` (the rest after them, as they come).
fn ordered(value: &Value, keys: &[&str]) -> Vec<u8> {
    let object = value.as_object().expect("an object");
    let mut parts: Vec<String> = keys
        .iter()
        .filter_map(|k| object.get(*k).map(|v| format!("{}:{}", json!(k), v)))
        .collect();
    parts.extend(
        object
            .iter()
            .filter(|(k, _)| !keys.contains(&k.as_str()))
            .map(|(k, v)| format!("{}:{}", json!(k), v)),
    );
    format!("{{{}}}", parts.join(",")).into_bytes()
}

fn refused(bytes: &[u8]) -> HandoffRejection {
    match receive_handoff::<v1::Refund>(bytes, &options()) {
        Ok(delivery) => panic!("accepted: {:?}", delivery.envelope()),
        Err(rejection) => rejection,
    }
}

fn pointers_and_kinds(rejection: &HandoffRejection) -> Vec<(String, ProblemKind)> {
    rejection
        .problems()
        .iter()
        .map(|p| (p.pointer.clone(), p.kind.clone()))
        .collect()
}

#[test]
fn a_sent_envelope_is_received_whole_with_the_payload_s_presence() {
    let mut sent_handoff = handoff(refund());
    let sent = send_handoff(&mut sent_handoff).expect("sent");
    assert_eq!(sent_handoff.contract, "env-refund/v1");
    assert_eq!(sent_handoff.schema_version, ENVELOPE);
    let sender = sent_handoff.sender_presence.as_ref().expect("filled");
    assert_eq!(sender.side(), Side::Send);
    assert_eq!(sender.received(), ["orderRef", "amountCents"]);
    assert_eq!(sent.presence(), sender);
    // What serde writes of the filled envelope, byte for byte.
    assert_eq!(
        sent.bytes(),
        serde_json::to_vec(&sent_handoff).expect("serializes")
    );

    let delivery = receive_handoff::<v1::Refund>(sent.bytes(), &options()).expect("received");
    assert_eq!(delivery.envelope(), &sent_handoff);
    assert_eq!(delivery.payload(), &refund());
    assert_eq!(delivery.presence().contract(), Some("env-refund/v1"));
    assert_eq!(delivery.presence().received(), ["orderRef", "amountCents"]);
    assert_eq!(delivery.presence().is_present("note"), Some(false));
    assert_eq!(
        delivery.envelope_presence().contract(),
        Some("handoff-envelope/v1")
    );
    assert!(delivery
        .envelope_presence()
        .received()
        .iter()
        .any(|p| p == "payload"));
    // And serde reads the same envelope.
    let by_serde: Handoff<v1::Refund> = serde_json::from_slice(sent.bytes()).expect("serde");
    assert_eq!(&by_serde, delivery.envelope());
    assert_eq!(delivery.into_envelope(), sent_handoff);
}

#[test]
fn the_envelope_s_keys_are_camel_case_and_its_enum_values_snake_case() {
    let value = envelope_json();
    let keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "schemaVersion",
        "contract",
        "contextId",
        "taskId",
        "handoffId",
        "goal",
        "constraints",
        "decisions",
        "openQuestions",
        "assumptions",
        "artifacts",
        "budget",
        "owner",
        "status",
        "journey",
        "senderPresence",
        "payload",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
    assert_eq!(keys.len(), 17, "{keys:?}");
    assert_eq!(value["status"], "ready");
    assert_eq!(value["budget"], json!({"maxToolCalls": 3}));
    assert_eq!(value["journey"]["handoffFrom"], "triage");
    assert_eq!(value["artifacts"][0]["digest"], digest().to_string());
    assert_eq!(value["senderPresence"]["handoffContract"], "env-refund/v1");
    assert_eq!(value["senderPresence"]["orderRefPresent"], true);
    // An unknown status is read, as not `ready`.
    let status: Status = serde_json::from_value(json!("accepted")).expect("read");
    assert_eq!(status, Status::Other);
}

#[test]
fn the_top_level_is_read_in_any_key_order() {
    let value = envelope_json();
    let expected: Handoff<v1::Refund> = serde_json::from_value(value.clone()).expect("serde");
    for first in [
        &["contract", "schemaVersion", "payload"][..],
        &["payload", "contract", "schemaVersion"],
        &["payload", "journey", "senderPresence", "contract"],
        &["status", "payload"],
    ] {
        let bytes = ordered(&value, first);
        let delivery = receive_handoff::<v1::Refund>(&bytes, &options())
            .unwrap_or_else(|e| panic!("{first:?}: {e}"));
        assert_eq!(delivery.envelope(), &expected, "{first:?}");
        // serde_json's `Value` writes the payload's keys sorted.
        assert_eq!(delivery.presence().received(), ["amountCents", "orderRef"]);
    }
    // The contract last of all, after the payload, with whitespace everywhere.
    let object = value.as_object().expect("an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.retain(|k| *k != "contract");
    keys.push("contract");
    let pretty = serde_json::to_string_pretty(&value).expect("JSON");
    let bytes = ordered(&serde_json::from_str(&pretty).expect("JSON"), &keys);
    let spaced = String::from_utf8(bytes)
        .expect("UTF-8")
        .replace(",\"", " ,\n \"")
        .replace("\":", "\" :\t");
    let delivery = receive_handoff::<v1::Refund>(format!(" {spaced} \n").as_bytes(), &options())
        .expect("received");
    assert_eq!(delivery.envelope(), &expected);
}

#[test]
fn members_after_the_payload_are_read_and_checked_too() {
    // The ids first and the payload last is how `send_handoff` writes it, and the top level
    // is then read only up to the payload; members after it must be found all the same.
    let value = envelope_json();
    let expected: Handoff<v1::Refund> = serde_json::from_value(value.clone()).expect("serde");
    let bytes = ordered(&value, &["schemaVersion", "contract", "payload"]);
    let delivery = receive_handoff::<v1::Refund>(&bytes, &options()).expect("received");
    assert_eq!(delivery.envelope(), &expected);
    let text = String::from_utf8(bytes).expect("UTF-8");
    let body = &text[..text.len() - 1];
    for (key, again) in [
        ("contract", json!("env-refund/v1")),
        ("payload", value["payload"].clone()),
        ("goal", value["goal"].clone()),
    ] {
        let twice = format!("{body},{}:{again}}}", json!(key));
        let rejection = refused(twice.as_bytes());
        assert!(
            pointers_and_kinds(&rejection).contains(&(
                format!("/{key}"),
                ProblemKind::DuplicateKey {
                    key: Some(key.into())
                }
            )),
            "{key}: {rejection}"
        );
    }
    // A payload that is last but does not read: located under it, as in any order.
    let object = value.as_object().expect("an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_by_key(|k| (*k == "payload", !matches!(*k, "schemaVersion" | "contract")));
    assert_eq!(keys.last(), Some(&"payload"));
    let text = String::from_utf8(ordered(&value, &keys)).expect("UTF-8");
    let bad = text.replacen("\"amountCents\":", "\"amountCents\":\"x\",\"_\":", 1);
    let rejection = refused(bad.as_bytes());
    assert_eq!(
        rejection.problems()[0].pointer,
        "/payload/amountCents",
        "{rejection}"
    );
}

#[test]
fn a_contract_written_last_after_the_payload_is_checked_before_it() {
    // `schemaVersion` first and `contract` last, after the payload: the top level is read up
    // to the payload, the contract found at the end; whatever does not fit that is read whole.
    let value = envelope_json();
    let expected: Handoff<v1::Refund> = serde_json::from_value(value.clone()).expect("serde");
    let object = value.as_object().expect("an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_by_key(|k| match *k {
        "schemaVersion" => 0,
        "payload" => 2,
        "contract" => 3,
        _ => 1,
    });
    let text = String::from_utf8(ordered(&value, &keys)).expect("UTF-8");
    assert!(text.ends_with(r#"},"contract":"env-refund/v1"}"#), "{text}");
    let body = text
        .strip_suffix(r#","contract":"env-refund/v1"}"#)
        .expect("last");
    for accepted in [
        text.clone(),
        format!("{body} ,\n \"contract\" :\t\"env-refund/v1\" }}\n"),
        format!(r#"{body},"contract":"env-refund\/v1"}}"#),
        format!(r#"{body},"contr\u0061ct":"env-refund/v1"}}"#),
    ] {
        let delivery = receive_handoff::<v1::Refund>(accepted.as_bytes(), &options())
            .unwrap_or_else(|e| panic!("{accepted}: {e}"));
        assert_eq!(delivery.envelope(), &expected, "{accepted}");
        assert_eq!(delivery.presence().received(), ["amountCents", "orderRef"]);
    }
    // Another contract: refused before the payload is read.
    let other = format!(r#"{body},"contract":"env-invoice/v1"}}"#);
    let rejection = refused(other.as_bytes());
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/contract".to_owned(),
            ProblemKind::OtherContract {
                expected: "env-refund/v1".into(),
                found: "env-invoice/v1".into()
            }
        )]
    );
    assert!(rejection.presence().is_none());
    // A second payload, or another member, between the payload and the contract.
    let payload = value["payload"].to_string();
    for (key, again) in [("payload", payload.as_str()), ("goal", r#""again""#)] {
        let twice = format!(r#"{body},"{key}":{again},"contract":"env-refund/v1"}}"#);
        let rejection = refused(twice.as_bytes());
        assert!(
            pointers_and_kinds(&rejection).contains(&(
                format!("/{key}"),
                ProblemKind::DuplicateKey {
                    key: Some(key.into())
                }
            )),
            "{key}: {rejection}"
        );
    }
    // A payload that does not read: located under it.
    let bad = text.replacen("\"amountCents\":", "\"amountCents\":\"x\",\"_\":", 1);
    let rejection = refused(bad.as_bytes());
    assert_eq!(
        rejection.problems()[0].pointer,
        "/payload/amountCents",
        "{rejection}"
    );
    // The payload left open: the contract found at the end is inside it, and the envelope is
    // not one JSON object.
    let open = body.strip_suffix('}').expect("the payload's end");
    let open = format!(r#"{open},"contract":"env-refund/v1"}}"#);
    let rejection = refused(open.as_bytes());
    assert!(
        matches!(rejection.problems()[0].kind, ProblemKind::Malformed { .. }),
        "{rejection}"
    );
}

#[test]
fn the_sender_s_presence_is_read_where_the_top_level_meets_it() {
    // Before the payload, the sender's presence is read as the top level meets it; what that
    // read does not accept is read from its span, as in any order.
    let value = envelope_json();
    let expected: Handoff<v1::Refund> = serde_json::from_value(value.clone()).expect("serde");
    let keys = ["schemaVersion", "contract", "senderPresence", "payload"];
    let text = String::from_utf8(ordered(&value, &keys)).expect("UTF-8");
    let delivery = receive_handoff::<v1::Refund>(text.as_bytes(), &options()).expect("read");
    assert_eq!(delivery.envelope(), &expected);
    let mut none = value.clone();
    none["senderPresence"] = Value::Null;
    let delivery = receive_handoff::<v1::Refund>(&ordered(&none, &keys), &options()).expect("read");
    assert!(delivery.envelope().sender_presence.is_none());
    // A key twice inside it (its keys are data: `*`), and the member twice: located.
    let inside = text.replacen(
        r#""senderPresence":{"#,
        r#""senderPresence":{"unknownFields":[],"#,
        1,
    );
    let rejection = refused(inside.as_bytes());
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/senderPresence/*".to_owned(),
            ProblemKind::DuplicateKey { key: None }
        )],
        "{rejection}"
    );
    let sender = value["senderPresence"].to_string();
    let twice = text.replacen(
        r#""senderPresence":"#,
        &format!(r#""senderPresence":{sender},"senderPresence":"#),
        1,
    );
    let rejection = refused(twice.as_bytes());
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/senderPresence".to_owned(),
            ProblemKind::DuplicateKey {
                key: Some("senderPresence".into())
            }
        )],
        "{rejection}"
    );
    // A value its record does not read: serde's verdict, located under it.
    let wrong = text.replacen(r#""unknownFields":[]"#, r#""unknownFields":7"#, 1);
    let rejection = refused(wrong.as_bytes());
    assert!(
        rejection.problems()[0]
            .pointer
            .starts_with("/senderPresence"),
        "{rejection}"
    );
}

#[test]
fn an_escaped_key_is_the_key_it_decodes_to() {
    let value = envelope_json();
    let text = String::from_utf8(ordered(&value, &["payload"])).expect("UTF-8");
    let escaped = text.replacen("\"payload\"", "\"pay\\u006coad\"", 1);
    let delivery = receive_handoff::<v1::Refund>(escaped.as_bytes(), &options()).expect("read");
    assert_eq!(delivery.payload(), &refund());
    let escaped = text.replacen("\"contract\"", "\"contr\\u0061ct\"", 1);
    let escaped = escaped.replacen("\"env-refund/v1\"", "\"env-invoice/v1\"", 1);
    let rejection = refused(escaped.as_bytes());
    assert_eq!(rejection.problems()[0].pointer, "/contract");
}

#[test]
fn a_key_twice_at_the_top_is_refused_and_the_payload_not_read() {
    let value = envelope_json();
    let text = String::from_utf8(ordered(&value, &["payload"])).expect("UTF-8");
    let body = &text[1..];
    for key in ["payload", "contract", "schemaVersion", "goal"] {
        let again = format!("{{{}:{},{body}", json!(key), value[key]);
        let rejection = refused(again.as_bytes());
        assert!(
            pointers_and_kinds(&rejection).contains(&(
                format!("/{key}"),
                ProblemKind::DuplicateKey {
                    key: Some(key.into())
                }
            )),
            "{key}: {rejection}"
        );
        if key != "goal" {
            assert!(rejection.presence().is_none(), "{key}: payload read");
        }
    }
    // Twice inside the payload: the payload's own duplicate.
    let twice = text.replacen(
        "\"orderRef\":\"A-1\"",
        "\"orderRef\":\"A-1\",\"orderRef\":\"A-2\"",
        1,
    );
    let rejection = refused(twice.as_bytes());
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/payload/orderRef".to_owned(),
            ProblemKind::DuplicateKey {
                key: Some("orderRef".into())
            }
        )]
    );
}

#[test]
fn another_contract_is_refused_before_the_payload_naming_both() {
    let mut value = envelope_json();
    value["contract"] = json!("env-invoice/v1");
    // A payload that would be refused too: it is not read.
    value["payload"] = json!({"number": 7});
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/contract".to_owned(),
            ProblemKind::OtherContract {
                expected: "env-refund/v1".into(),
                found: "env-invoice/v1".into()
            }
        )]
    );
    assert!(rejection.presence().is_none());
    assert_eq!(rejection.payload_contract(), "env-refund/v1");
    assert_eq!(rejection.side(), Side::Receive);
    assert_eq!(
        rejection.to_string(),
        "receive of handoff-envelope/v1 carrying env-refund/v1 refused: 1 problem\n  \
         /contract: another contract: expected env-refund/v1, found env-invoice/v1; the payload was not read"
    );
}

#[test]
fn an_id_that_is_no_contract_id_is_refused_without_repeating_it() {
    for (key, found, expected) in [
        ("contract", json!("secret customer text"), "env-refund/v1"),
        ("contract", json!("env-refund/v01"), "env-refund/v1"),
        (
            "schemaVersion",
            json!("handoff envelope"),
            "handoff-envelope/v1",
        ),
    ] {
        let mut value = envelope_json();
        value[key] = found.clone();
        let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
        assert_eq!(
            pointers_and_kinds(&rejection),
            [(
                format!("/{key}"),
                ProblemKind::UnreadableVersion {
                    expected: expected.into()
                }
            )],
            "{found}"
        );
        let text = rejection.to_string();
        let json = serde_json::to_string(&rejection).expect("JSON");
        let found = found.as_str().expect("text");
        assert!(
            !text.contains(found) && !json.contains(found),
            "{text}\n{json}"
        );
    }
    // Not a string: the envelope's own check says what arrived.
    let mut value = envelope_json();
    value["contract"] = json!(7);
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert_eq!(rejection.problems()[0].pointer, "/contract");
    assert!(matches!(
        rejection.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
    assert!(rejection.presence().is_none());
}

#[test]
fn another_envelope_version_is_refused_before_the_payload() {
    let mut value = envelope_json();
    value["schemaVersion"] = json!("handoff-envelope/v2");
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/schemaVersion".to_owned(),
            ProblemKind::OtherVersion {
                expected: "handoff-envelope/v1".into(),
                found: "handoff-envelope/v2".into(),
                rule: None,
                path: None
            }
        )]
    );
    value["schemaVersion"] = json!("task-envelope/v1");
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert!(matches!(
        &rejection.problems()[0].kind,
        ProblemKind::OtherContract { found, .. } if found == "task-envelope/v1"
    ));
}

#[test]
fn another_major_is_read_when_its_published_snapshot_passes_the_reader() {
    // A v1 writer's envelope, read by v2: v2 embeds v1's snapshot, and reads it (`orderRef`
    // is an alias of `orderId`).
    let mut sent = handoff(refund());
    let bytes = send_handoff(&mut sent).expect("sent").into_bytes();
    let delivery = receive_handoff::<v2::Refund>(&bytes, &options()).expect("v2 reads v1");
    assert_eq!(delivery.payload().order_id, "A-1");
    assert_eq!(delivery.envelope().contract, "env-refund/v1");
    assert_eq!(delivery.presence().contract(), Some("env-refund/v2"));
}

#[test]
fn another_major_is_refused_when_its_snapshot_breaks_the_reader_or_is_unknown() {
    let mut sent = handoff(v2::Refund {
        order_id: "A-1".into(),
        amount_cents: 1250,
        note: None,
    });
    let bytes = send_handoff(&mut sent).expect("sent").into_bytes();
    assert_eq!(sent.contract, "env-refund/v2");
    // v1 reads `orderRef` only: v2's snapshot, as a writer, breaks it.
    let rejection = refused(&bytes);
    assert!(rejection.presence().is_none(), "the payload was not read");
    let [problem] = rejection.problems() else {
        panic!("{rejection}");
    };
    assert_eq!(problem.pointer, "/contract");
    let ProblemKind::OtherVersion {
        expected,
        found,
        rule,
        path,
    } = &problem.kind
    else {
        panic!("{rejection}");
    };
    assert_eq!((&**expected, &**found), ("env-refund/v1", "env-refund/v2"));
    assert_eq!(*rule, Some("FIELD_RENAMED"), "{rejection}");
    assert_eq!(path.as_deref(), Some("orderRef"));
    assert_eq!(
        problem.to_string(),
        "/contract: another version: env-refund/v2 is not readable as env-refund/v1: its \
         published snapshot breaks this reader (FIELD_RENAMED at orderRef); the \
         payload was not read"
    );
    // A major with no snapshot at all.
    let mut value: Value = serde_json::from_slice(&bytes).expect("JSON");
    value["contract"] = json!("env-refund/v3");
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/contract".to_owned(),
            ProblemKind::OtherVersion {
                expected: "env-refund/v1".into(),
                found: "env-refund/v3".into(),
                rule: None,
                path: None
            }
        )]
    );
}

#[test]
fn problems_point_from_the_envelope_s_root_and_the_payload_s_presence_is_its_own() {
    let mut value = envelope_json();
    value["payload"] = json!({"orderId": "A-1", "amountCents": -5});
    value.as_object_mut().expect("object").remove("contextId");
    value["status"] = json!(3);
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    let pointers: Vec<&str> = rejection
        .problems()
        .iter()
        .map(|p| p.pointer.as_str())
        .collect();
    assert_eq!(
        pointers,
        [
            "/status",
            "/contextId",
            "/payload/amountCents",
            "/payload/orderRef"
        ],
        "{rejection}"
    );
    let presence = rejection.presence().expect("the payload was read");
    assert_eq!(presence.contract(), Some("env-refund/v1"));
    assert_eq!(presence.received(), ["amountCents"]);
    assert_eq!(presence.missing(), ["orderRef"]);
    assert_eq!(presence.unknown(), ["orderId"]);
    let envelope = rejection
        .envelope_presence()
        .expect("the envelope was read");
    assert_eq!(envelope.missing(), ["contextId"]);
    // No value of the payload or the envelope in any rendering.
    let text = format!(
        "{rejection}\n{rejection:?}\n{}",
        serde_json::to_string(&rejection).expect("JSON")
    );
    for value in ["A-1", "-5", "ctx-1", "refund a damaged order"] {
        assert!(!text.contains(value), "{value} in {text}");
    }
}

#[test]
fn byte_offsets_are_the_envelope_s() {
    let value = envelope_json();
    let text = String::from_utf8(ordered(&value, &["payload", "goal"])).expect("UTF-8");
    // A lone surrogate in the payload, where the type ignores it, and one in the goal, after
    // the payload.
    let broken = text
        .replacen(
            "\"amountCents\":1250",
            "\"amountCents\":1250,\"x\":\"\\udc00\"",
            1,
        )
        .replacen("\"refund a damaged order\"", "\"\\udc00\"", 1);
    let in_payload = broken.find("\\udc00").expect("there");
    let in_goal = broken.rfind("\\udc00").expect("there");
    let rejection = refused(broken.as_bytes());
    let offsets: Vec<(String, usize)> = rejection
        .problems()
        .iter()
        .filter_map(|p| match p.kind {
            ProblemKind::LoneSurrogate { offset } => Some((p.pointer.clone(), offset)),
            _ => None,
        })
        .collect();
    assert_eq!(
        offsets,
        [
            ("".to_owned(), in_goal),
            ("/payload".to_owned(), in_payload)
        ],
        "{rejection}"
    );
}

#[test]
fn what_is_not_an_envelope_is_refused_with_its_place() {
    for (bytes, kind) in [
        (&b"[1, 2]"[..], "wrong_type"),
        (b"{\"contract\": ", "malformed"),
        (b"", "empty"),
        (b"{} x", "trailing_data"),
    ] {
        let rejection = refused(bytes);
        let json = serde_json::to_value(&rejection).expect("JSON");
        assert_eq!(json["problems"][0]["kind"], kind, "{rejection}");
        assert!(rejection.presence().is_none());
    }
    // Too deep: one level of the limit is the envelope's.
    let deep = |levels: usize| {
        let mut value = envelope_json();
        let mut note = json!("n");
        for _ in 0..levels {
            note = json!([note]);
        }
        value["payload"]["x"] = note;
        serde_json::to_vec(&value).expect("JSON")
    };
    let limits = ReceiveOptions::default().limits(Limits::default().max_depth(8));
    assert!(receive_handoff::<v1::Refund>(&deep(6), &limits).is_ok());
    let rejection = receive_handoff::<v1::Refund>(&deep(7), &limits).expect_err("too deep");
    assert!(
        matches!(rejection.problems()[0].kind, ProblemKind::TooDeep { .. }),
        "{rejection}"
    );
    // Too large: the whole envelope counts.
    let bytes = deep(0);
    let limits = ReceiveOptions::default().limits(Limits::default().max_bytes(bytes.len() - 1));
    let rejection = receive_handoff::<v1::Refund>(&bytes, &limits).expect_err("too large");
    assert!(matches!(
        rejection.problems()[0].kind,
        ProblemKind::TooLarge { .. }
    ));
    // No payload at all.
    let mut value = envelope_json();
    value.as_object_mut().expect("object").remove("payload");
    let rejection = refused(&serde_json::to_vec(&value).expect("JSON"));
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/payload".to_owned(),
            ProblemKind::MissingField {
                field: "payload".into()
            }
        )]
    );
}

#[test]
fn why_missing_reads_the_payload_s_presence() {
    // A mapper wrote v2's name to a v1 reader: the payload's presence, payload-relative,
    // explains it.
    let mut value = envelope_json();
    value["payload"] = json!({"orderId": "A-1", "amountCents": 1250});
    let bytes = serde_json::to_vec(&value).expect("JSON");
    let rejection = refused(&bytes);
    let presence = rejection.presence().expect("read");
    assert_eq!(presence.unknown(), ["orderId"]);
    let sender = value["senderPresence"].clone();
    let sender: contract_core::Presence = serde_json::from_value(sender).expect("a presence");
    let diagnosis = why_missing::<v1::Refund>(presence)
        .sender(&sender)
        .explain();
    assert_eq!(diagnosis.fields().len(), 1);
    // The payload's path, not `payload.orderRef`; the sender's record (naming v1) matched to
    // it, and v2's name for the field arrived: a mapper's rename.
    assert_eq!(diagnosis.fields()[0].path, "orderRef");
    assert_eq!(
        diagnosis.to_string(),
        "env-refund/v1: why fields are missing\n  orderRef: renamed on the way: it arrived as \
         `orderId` (its name in env-refund/v2)"
    );

    // A delivery's presence: nothing is missing, and the diagnosis says so of the payload's
    // contract (not the envelope's).
    let delivery = receive_handoff::<v1::Refund>(
        &serde_json::to_vec(&envelope_json()).expect("JSON"),
        &options(),
    )
    .expect("read");
    let diagnosis = why_missing::<v1::Refund>(delivery.presence())
        .sender(delivery.envelope().sender_presence.as_ref().expect("sent"))
        .explain();
    assert!(diagnosis.fields().is_empty());
    assert!(
        diagnosis.to_string().starts_with("env-refund/v1"),
        "{diagnosis}"
    );
}

#[test]
fn a_payload_refused_at_send_points_under_payload() {
    let mut sent = handoff(refund()).status(Status::Draft);
    let rejection = send_handoff_to::<Invoice, _>(&mut sent).expect_err("refused");
    assert_eq!(sent.contract, "env-invoice/v1");
    assert!(sent.sender_presence.is_none());
    assert_eq!(rejection.side(), Side::Send);
    assert_eq!(rejection.payload_contract(), "env-invoice/v1");
    assert_eq!(
        pointers_and_kinds(&rejection),
        [(
            "/payload/number".to_owned(),
            ProblemKind::MissingField {
                field: "number".into()
            }
        )]
    );
    let presence = rejection.presence().expect("written");
    assert_eq!(presence.side(), Side::Send);
    assert_eq!(presence.missing(), ["number"]);
    assert!(rejection
        .to_string()
        .starts_with("send of handoff-envelope/v1 carrying env-invoice/v1 refused: 1 problem"));

    // `send_to` against the payload's own contract, as `send_handoff_to`.
    let mut sent = handoff(refund());
    let bytes = send_handoff_to::<v1::Refund, _>(&mut sent).expect("sent");
    assert_eq!(sent.contract, "env-refund/v1");
    assert!(receive_handoff::<v1::Refund>(bytes.bytes(), &options()).is_ok());
}

/// A reading, whose `NaN` serde_json writes as `null`.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "env-reading", version = 1, snapshots = "tests/contracts")]
pub struct Reading {
    /// Degrees.
    pub celsius: f64,
}

#[test]
fn a_payload_written_as_another_shape_is_located_under_payload() {
    let mut sent = handoff(Reading { celsius: f64::NAN });
    let rejection = send_handoff(&mut sent).expect_err("refused");
    assert_eq!(rejection.problems()[0].pointer, "/payload/celsius");
}

/// Every `Handoff<T>` publishes one text: the payload a hole, the root named without
/// arguments; the committed snapshot is that text.
#[test]
fn every_handoff_publishes_the_one_committed_snapshot() {
    let text = |schema| contract_core::schema::text::to_text(&schema);
    let refund = text(<Handoff<v1::Refund> as HandoffContract>::published_schema());
    let invoice = text(<Handoff<Invoice> as HandoffContract>::published_schema());
    let value = text(<Handoff<Value> as HandoffContract>::published_schema());
    assert_eq!(refund, invoice);
    assert_eq!(refund, value);
    assert!(refund.contains("root Handoff\n"), "{refund}");
    assert!(refund.contains("field payload: any"), "{refund}");
    assert!(!refund.contains("orderRef"), "{refund}");
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/contracts/handoff-envelope.v1.snap"
    ))
    .expect("the published snapshot");
    let body = committed
        .splitn(3, "---\n")
        .nth(2)
        .expect("an insta header, then the text");
    assert_eq!(body.trim_end(), refund.trim_end());
    assert!(contract_core::check_published::<Handoff<v1::Refund>>().is_ok());
    assert!(contract_core::check_published::<Handoff<Invoice>>().is_ok());
}

/// The envelope's snapshot test (feature `snapshots`), at two instantiations: a generic
/// contract's derive emits none of its own.
#[cfg(feature = "snapshots")]
#[test]
fn the_envelope_is_published() {
    contract_core::assert_contract_snapshot!(Handoff<v1::Refund>);
    contract_core::assert_contract_snapshot!(Handoff<Invoice>);
}

/// An envelope written by other means carries the same `senderPresence` and `contract` as
/// one `send_handoff` writes: the same bytes.
#[test]
fn sender_presence_is_filled_for_an_envelope_written_elsewhere() {
    let mut built = handoff(refund());
    built.contract = "stale/v9".into();
    let presence = fill_sender_presence(&mut built).expect("filled").clone();
    assert_eq!(presence.received(), ["orderRef", "amountCents"]);
    assert_eq!(built.contract, "env-refund/v1");
    assert_eq!(built.sender_presence.as_ref(), Some(&presence));

    let mut sent = handoff(refund());
    let bytes = send_handoff(&mut sent).expect("sent");
    assert_eq!(
        serde_json::to_vec(&built).expect("serializes"),
        bytes.bytes()
    );

    // A payload that cannot be sent leaves `senderPresence` as it was.
    let mut bad = handoff(Reading { celsius: f64::NAN });
    let rejection = fill_sender_presence(&mut bad).expect_err("refused");
    assert_eq!(rejection.problems()[0].pointer, "/payload/celsius");
    assert_eq!(rejection.side(), Side::Send);
    assert!(bad.sender_presence.is_none());

    // Against the consumer's contract: `contract` is the consumer's.
    let mut to = handoff(refund());
    fill_sender_presence_to::<v1::Refund, _>(&mut to).expect("filled");
    assert_eq!(to.contract, "env-refund/v1");
    assert_eq!(to.sender_presence.as_ref(), Some(&presence));
    let err = fill_sender_presence_to::<Invoice, _>(&mut handoff(refund())).expect_err("refused");
    assert_eq!(err.payload_contract(), "env-invoice/v1");
}

/// The envelope's schema version needs no payload type, and is what every envelope holds.
#[test]
fn the_schema_version_is_one_constant_whatever_the_payload() {
    assert_eq!(HANDOFF_SCHEMA_VERSION, "handoff-envelope/v1");
    assert_eq!(HANDOFF_SCHEMA_VERSION, ENVELOPE);
    assert_eq!(
        Handoff::<v1::Refund>::SCHEMA_VERSION,
        HANDOFF_SCHEMA_VERSION
    );
    assert_eq!(Handoff::<Invoice>::SCHEMA_VERSION, HANDOFF_SCHEMA_VERSION);
    assert_eq!(envelope_json()["schemaVersion"], HANDOFF_SCHEMA_VERSION);
    assert_eq!(
        <Handoff<Invoice> as HandoffContract>::CONTRACT.id,
        HANDOFF_SCHEMA_VERSION
    );
}

/// Every message of an error and of its `source` chain, as a report walking it prints them.
fn chain(error: &dyn std::error::Error) -> Vec<String> {
    let mut out = vec![error.to_string()];
    let mut next = error.source();
    while let Some(error) = next {
        out.push(error.to_string());
        next = error.source();
    }
    out
}

/// A handler's error with a cause of its own.
#[derive(Debug)]
struct HandlerFailed(std::io::Error);

impl std::fmt::Display for HandlerFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the refund was not booked")
    }
}

impl std::error::Error for HandlerFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// A refused acceptance says "refused" once, then every problem; its chain repeats nothing.
#[test]
fn a_refused_acceptance_says_refused_once() {
    use contract_core::inbox::{AcceptError, Inbox, MemoryLedger, MemoryTx};
    use contract_core::Delivery;

    let mut inbox = Inbox::new(MemoryLedger::new());
    let mut json = envelope_json();
    json["payload"]["amountCents"] = json!("SECRET");
    json["payload"]["orderRef"] = json!(7);
    let bytes = serde_json::to_vec(&json).expect("JSON");
    let apply = |_: &mut MemoryTx<'_>, _: &Delivery<v1::Refund>| Ok::<_, HandlerFailed>(());
    let error = inbox.accept(&bytes, apply).expect_err("refused");
    assert!(matches!(error, AcceptError::Rejected(_)), "{error:?}");
    let messages = chain(&error);
    assert_eq!(
        messages,
        [
            "handoff refused: 2 problems in handoff-envelope/v1 carrying env-refund/v1\n  \
             /payload/amountCents: wrong type: expected u32, found a string\n  \
             /payload/orderRef: wrong type: expected string, found an integer"
        ],
        "{messages:#?}"
    );
    assert!(!messages[0].contains("SECRET"));

    // The handler's error is said once, then its own cause.
    let mut plain = Handoff::new("ctx-1", "h-2", "specialist", refund()).ready();
    let ok = send_handoff(&mut plain).expect("sent").into_bytes();
    let fail = |_: &mut MemoryTx<'_>, _: &Delivery<v1::Refund>| {
        Err::<(), _>(HandlerFailed(std::io::Error::other("disk full")))
    };
    let error = inbox.accept(&ok, fail).expect_err("the handler failed");
    assert_eq!(
        chain(&error),
        ["the handler failed: the refund was not booked", "disk full"]
    );
}

/// A version registered without its content resolves for an envelope that names no digest
/// of it; one that names a digest is refused (no content to check it against), as is a
/// version not registered.
#[test]
fn an_artifact_version_without_content_is_accepted_without_a_digest() {
    use contract_core::inbox::MemoryTx;
    use contract_core::inbox::{AcceptError, ArtifactStore, Inbox, MemoryArtifacts, MemoryLedger};
    use contract_core::{ArtifactRef, Delivery};

    fn apply(_: &mut MemoryTx<'_>, _: &Delivery<v1::Refund>) -> Result<(), HandlerFailed> {
        Ok(())
    }
    let artifacts = MemoryArtifacts::new();
    artifacts.put_version("store://draft/7", 3);
    assert!(artifacts
        .contains("store://draft/7", 3)
        .expect("infallible"));
    assert_eq!(
        artifacts.resolve("store://draft/7", 3).expect("infallible"),
        None
    );
    let mut inbox = Inbox::with_artifacts(MemoryLedger::new(), artifacts.clone());
    let send = |handoff: &str, artifact: ArtifactRef| {
        let mut handoff = Handoff::new("ctx-a", handoff, "specialist", refund())
            .artifact(artifact)
            .ready();
        send_handoff(&mut handoff).expect("sent").into_bytes()
    };

    let named = send("h-1", ArtifactRef::new("draft", "store://draft/7", 3));
    assert!(inbox.accept(&named, apply).expect("applied").is_applied());

    let with_digest = send(
        "h-2",
        ArtifactRef::new("draft", "store://draft/7", 3).digest(Digest::of_bytes(b"draft")),
    );
    assert!(matches!(
        inbox.accept(&with_digest, apply),
        Err(AcceptError::ArtifactUnavailable { index: 0 })
    ));

    let unknown = send("h-3", ArtifactRef::new("draft", "store://draft/7", 4));
    assert!(matches!(
        inbox.accept(&unknown, apply),
        Err(AcceptError::ArtifactUnavailable { index: 0 })
    ));

    // Its content put later: the digest is checked against it.
    artifacts.put("store://draft/7", 3, b"draft");
    assert!(inbox
        .accept(&with_digest, apply)
        .expect("applied")
        .is_applied());
}

/// An envelope read as `send_handoff` lays it out, and the same read with the top level
/// walked member by member (a space after the opening brace: every offset one further on),
/// give the same delivery or the same problems.
fn same_as_walked(text: &str) {
    let walked = format!("{{ {}", &text[1..]);
    let by_layout = receive_handoff::<v1::Refund>(text.as_bytes(), &options());
    let by_walk = receive_handoff::<v1::Refund>(walked.as_bytes(), &options());
    match (by_layout, by_walk) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.envelope(), b.envelope(), "{text}");
            assert_eq!(a.presence(), b.presence(), "{text}");
            assert_eq!(a.envelope_presence(), b.envelope_presence(), "{text}");
        }
        (Err(a), Err(b)) => {
            // Every offset in the walked one's problems, one back.
            let walked = format!("{:?}", pointers_and_kinds(&b));
            let mut shifted = String::new();
            let mut rest = walked.as_str();
            while let Some(at) = rest.find("offset: ") {
                let (head, tail) = rest.split_at(at + "offset: ".len());
                let digits =
                    tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let offset: usize = tail[..digits].parse().expect("an offset");
                shifted.push_str(head);
                shifted.push_str(&(offset - 1).to_string());
                rest = &tail[digits..];
            }
            shifted.push_str(rest);
            assert_eq!(format!("{:?}", pointers_and_kinds(&a)), shifted, "{text}");
            assert_eq!(a.presence(), b.presence(), "{text}");
            assert_eq!(a.envelope_presence(), b.envelope_presence(), "{text}");
        }
        (a, b) => panic!("{text}: by the layout {}, walked {}", a.is_ok(), b.is_ok()),
    }
}

#[test]
fn the_layout_send_handoff_writes_is_read_as_any_other() {
    // As `send_handoff` writes it (the ids first, the sender's presence then the payload
    // last), the top level is found without walking the envelope's own fields; what that
    // finds stands only where it reads, and reads as the walked top level does.
    let mut sent = handoff(refund());
    let text =
        String::from_utf8(send_handoff(&mut sent).expect("sent").into_bytes()).expect("UTF-8");
    assert!(text.starts_with(r#"{"schemaVersion":"#), "{text}");
    assert!(text.contains(r#"},"payload":{"#), "{text}");
    let delivery = receive_handoff::<v1::Refund>(text.as_bytes(), &options()).expect("read");
    assert_eq!(delivery.payload(), &refund());
    assert!(delivery.envelope().sender_presence.is_some());
    let member = r#","contract":"env-refund/v1""#;
    let last = format!(
        "{}{member}}}",
        text.replacen(member, "", 1)
            .strip_suffix('}')
            .expect("an object")
    );
    let value = envelope_json();
    let payload = value["payload"].to_string();
    let sender = value["senderPresence"].to_string();
    let before = r#","senderPresence":"#;
    for text in [text.as_str(), last.as_str()] {
        same_as_walked(text);
        // A member twice, the second among the envelope's own fields (escaped or not), or
        // after the payload.
        for again in [
            format!(r#","payload":{payload}"#),
            r#","pay\u006coad":1"#.to_owned(),
            format!(r#","senderPresence":{sender}"#),
            r#","senderPresence":null"#.to_owned(),
            r#","contract":"env-refund/v1""#.to_owned(),
            r#","schemaVersion":"handoff-envelope/v1""#.to_owned(),
            r#","schemaVersion":"handoff-envelope/v2""#.to_owned(),
            r#","goal":"again""#.to_owned(),
            // A presence and a payload nested in another member, met first by the search.
            r#","extra":{"senderPresence":{"a":1},"payload":{}}"#.to_owned(),
            r#","extra":[{"x":",\"senderPresence\":{}"}]"#.to_owned(),
        ] {
            same_as_walked(&text.replacen(before, &format!("{again}{before}"), 1));
            let end = text.strip_suffix('}').expect("an object");
            same_as_walked(&format!("{end}{again}}}"));
        }
        // Another contract, a payload or a presence that does not read, the payload left
        // open, whitespace where the layout has none.
        for (from, to) in [
            ("env-refund/v1", "env-invoice/v1"),
            ("env-refund/v1", "env-refund/v2"),
            ("\"amountCents\":", "\"amountCents\":\"x\",\"_\":"),
            ("\"unknownFields\":[]", "\"unknownFields\":7"),
            (
                "\"unknownFields\":[]",
                "\"unknownFields\":[],\"unknownFields\":[]",
            ),
            ("\"payload\":{", "\"payload\": {"),
            ("\"payload\":{", "\"payload\":[{"),
            ("},\"payload\"", "} ,\"payload\""),
            (
                "\"orderRef\":\"A-1\"",
                "\"orderRef\":\"A-1\",\"orderRef\":\"A-2\"",
            ),
        ] {
            same_as_walked(&text.replacen(from, to, 1));
        }
        let open = text.replacen(r#""payload":{"#, r#""payload":{"x":{"#, 1);
        same_as_walked(&open);
    }
}
