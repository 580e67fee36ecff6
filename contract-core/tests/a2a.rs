//! Feature `a2a`: a payload and its contract in an A2A 1.0 Message or Artifact, written and
//! read back; the field names checked against the specification's (`lf.a2a.v1`); every
//! required field, the contract's URI, the one `data` Part and its duplicate keys checked on
//! reading, with problems located in the A2A document and no payload value in them.

use contract_core::a2a::{A2a, ArtifactHead, MessageHead, Role, MEDIA_TYPE};
use contract_core::runtime::{Cause, Certainty};
use contract_core::{
    send, Handoff, HandoffContract, Numbers, ProblemClass, ProblemKind, ReceiveOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A refund request, second major.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-refund", version = 2, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
struct Refund {
    order_id: String,
    amount_cents: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// A line of a ledger: integers a double cannot always hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-ledger", version = 1, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
struct Ledger {
    entry_id: u64,
    count: u32,
    lines: Vec<Line>,
}

/// One line of a ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, contract_core::HandoffSchema)]
struct Line {
    cents: i64,
    qty: i16,
}

/// A reading, whose `NaN` `send` refuses.
#[derive(Serialize, HandoffContract)]
#[handoff(name = "a2a-reading", version = 1, snapshots = "tests/contracts")]
struct Reading {
    celsius: f64,
}

const BASE: &str = "https://example.com/contracts/";
const URI: &str = "https://example.com/contracts/a2a-refund/v2";
/// A value of the payload no problem may repeat.
const SECRET: &str = "SECRET-ORDER-4711";

fn a2a() -> A2a {
    A2a::new(BASE)
}

fn refund() -> Refund {
    Refund {
        order_id: SECRET.into(),
        amount_cents: 1250,
        note: None,
    }
}

fn options() -> ReceiveOptions {
    ReceiveOptions::default()
}

/// A Message carrying a `Refund` as a peer writes it.
fn message() -> Value {
    json!({
        "messageId": "m-1",
        "role": "ROLE_USER",
        "contextId": "ctx-1",
        "parts": [{"data": {"orderId": SECRET, "amountCents": 5}, "mediaType": "application/json"}],
        "extensions": [URI],
    })
}

fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

/// The problems of reading `value` as a Message carrying a `Refund`, as (pointer, kind).
fn refused(value: &Value) -> Vec<(String, ProblemKind)> {
    let err = a2a()
        .receive_message::<Refund>(&bytes(value), &options())
        .unwrap_err();
    no_value_in(&err);
    err.problems()
        .iter()
        .map(|p| (p.pointer.clone(), p.kind.clone()))
        .collect()
}

/// Neither the rejection's text, its `Debug` nor its JSON holds the payload's value.
fn no_value_in(err: &contract_core::a2a::A2aRejection) {
    for text in [
        err.to_string(),
        format!("{err:?}"),
        serde_json::to_string(err).unwrap(),
    ] {
        assert!(!text.contains(SECRET), "{text}");
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_message_made_from_a_handoff_round_trips_with_its_context_task_and_presence() {
    let handoff = Handoff::new("ctx-7", "h-1", "triage", refund()).task("task-3");
    let head = MessageHead::of_handoff(&handoff, "m-1", Role::Agent);
    let sent = a2a().message(&head, &handoff.payload).unwrap();
    // The Part holds exactly what `send` writes.
    let payload = send(&refund()).unwrap();
    assert!(contains(sent.bytes(), payload.bytes()));

    let written: Value = serde_json::from_slice(sent.bytes()).unwrap();
    assert_eq!(written["contextId"], "ctx-7");
    assert_eq!(written["taskId"], "task-3");
    assert_eq!(written["role"], "ROLE_AGENT");
    assert_eq!(written["extensions"], json!([URI]));
    assert_eq!(
        written["metadata"][URI],
        serde_json::to_value(payload.presence()).unwrap()
    );

    let received = a2a()
        .receive_message::<Refund>(sent.bytes(), &options())
        .unwrap();
    assert_eq!(received.payload(), &refund());
    assert_eq!(
        received.head(),
        &MessageHead::new("m-1", Role::Agent)
            .context("ctx-7")
            .task("task-3")
    );
    assert_eq!(received.presence().received(), ["orderId", "amountCents"]);
    let sender = received.sender_presence().expect("the sender's presence");
    assert_eq!(sender.received(), ["orderId", "amountCents"]);
    assert_eq!(sender.contract(), Some("a2a-refund/v2"));
}

#[test]
fn an_artifact_round_trips_with_its_name_and_description() {
    let head = ArtifactHead::new("art-1")
        .name("refund")
        .description("the refund to make");
    let sent = a2a().artifact(&head, &refund()).unwrap();
    let received = a2a()
        .receive_artifact::<Refund>(sent.bytes(), &options())
        .unwrap();
    assert_eq!(received.head(), &head);
    assert_eq!(received.into_payload(), refund());

    // Without the optional members, none is written.
    let sent = a2a()
        .artifact(&ArtifactHead::new("art-2"), &refund())
        .unwrap();
    let written: Value = serde_json::from_slice(sent.bytes()).unwrap();
    assert_eq!(written.get("name"), None);
    assert_eq!(written.get("description"), None);
    let received = a2a()
        .receive_artifact::<Refund>(sent.bytes(), &options())
        .unwrap();
    assert_eq!(received.head(), &ArtifactHead::new("art-2"));
}

/// The members of `lf.a2a.v1`'s Message, Artifact and Part (JSON names), and which are
/// required: what is written has those names only, every required one present.
#[test]
fn what_is_written_uses_the_specifications_field_names() {
    const MESSAGE: &[&str] = &[
        "messageId",
        "contextId",
        "taskId",
        "role",
        "parts",
        "metadata",
        "extensions",
        "referenceTaskIds",
    ];
    const MESSAGE_REQUIRED: &[&str] = &["messageId", "role", "parts"];
    const ARTIFACT: &[&str] = &[
        "artifactId",
        "name",
        "description",
        "parts",
        "metadata",
        "extensions",
    ];
    const ARTIFACT_REQUIRED: &[&str] = &["artifactId", "parts"];
    const PART: &[&str] = &[
        "text",
        "raw",
        "url",
        "data",
        "metadata",
        "filename",
        "mediaType",
    ];
    const PART_MEMBER: &[&str] = &["text", "raw", "url", "data"];

    let check = |bytes: &[u8], names: &[&str], required: &[&str]| {
        let written: Value = serde_json::from_slice(bytes).unwrap();
        let object = written.as_object().unwrap();
        for key in object.keys() {
            assert!(names.contains(&key.as_str()), "{key} is no member");
        }
        for key in required {
            assert!(object.contains_key(*key), "{key} is required");
        }
        let parts = object["parts"].as_array().unwrap();
        assert_eq!(parts.len(), 1);
        let part = parts[0].as_object().unwrap();
        for key in part.keys() {
            assert!(PART.contains(&key.as_str()), "{key} is no member of Part");
        }
        let members: Vec<_> = part
            .keys()
            .filter(|k| PART_MEMBER.contains(&k.as_str()))
            .collect();
        assert_eq!(members, ["data"]);
        assert_eq!(part["mediaType"], MEDIA_TYPE);
    };
    let head = MessageHead::new("m", Role::User).context("c").task("t");
    let sent = a2a().message(&head, &refund()).unwrap();
    check(sent.bytes(), MESSAGE, MESSAGE_REQUIRED);
    let written: Value = serde_json::from_slice(sent.bytes()).unwrap();
    assert_eq!(written["role"], "ROLE_USER");
    let head = ArtifactHead::new("a").name("n").description("d");
    let sent = a2a().artifact(&head, &refund()).unwrap();
    check(sent.bytes(), ARTIFACT, ARTIFACT_REQUIRED);
}

#[test]
fn a_duplicate_key_inside_the_part_is_refused_where_a_parsed_value_keeps_the_last() {
    let text = format!(
        r#"{{"messageId": "m", "role": "ROLE_USER", "extensions": ["{URI}"],
            "parts": [{{"text": "hi"}}, {{"data": {{"orderId": "{SECRET}", "amountCents": 1, "amountCents": 2}}}}]}}"#
    );
    // serde_json's Value keeps the last, silently.
    let parsed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed["parts"][1]["data"]["amountCents"], 2);
    let err = a2a()
        .receive_message::<Refund>(text.as_bytes(), &options())
        .unwrap_err();
    no_value_in(&err);
    assert_eq!(err.problems().len(), 1);
    assert_eq!(err.problems()[0].pointer, "/parts/1/data/amountCents");
    assert!(matches!(
        err.problems()[0].kind,
        ProblemKind::DuplicateKey { .. }
    ));
}

#[test]
fn the_payloads_problems_are_located_in_the_a2a_document() {
    let mut value = message();
    value["parts"][0]["data"] = json!({"orderId": SECRET, "amountCents": "many"});
    assert_eq!(
        refused(&value),
        [(
            "/parts/0/data/amountCents".to_owned(),
            ProblemKind::WrongType {
                expected: "u32".into(),
                found: contract_core::runtime::JsonKind::String
            }
        )]
    );
    value["parts"][0]["data"] = json!({"orderId": SECRET});
    let err = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap_err();
    assert_eq!(err.problems()[0].pointer, "/parts/0/data/amountCents");
    assert_eq!(err.presence().unwrap().missing(), ["amountCents"]);
}

#[test]
fn each_missing_required_field_is_refused() {
    for (object, field) in [
        ("message", "messageId"),
        ("message", "role"),
        ("message", "parts"),
        ("artifact", "artifactId"),
        ("artifact", "parts"),
    ] {
        let mut value = message();
        if object == "artifact" {
            let map = value.as_object_mut().unwrap();
            map.remove("messageId");
            map.remove("role");
            map.insert("artifactId".into(), json!("a-1"));
            let ok = a2a().receive_artifact::<Refund>(&bytes(&value), &options());
            assert!(ok.is_ok(), "{value}");
        } else {
            assert!(a2a()
                .receive_message::<Refund>(&bytes(&value), &options())
                .is_ok());
        }
        value.as_object_mut().unwrap().remove(field);
        let problems = if object == "artifact" {
            let err = a2a()
                .receive_artifact::<Refund>(&bytes(&value), &options())
                .unwrap_err();
            no_value_in(&err);
            err.problems().to_vec()
        } else {
            let err = a2a()
                .receive_message::<Refund>(&bytes(&value), &options())
                .unwrap_err();
            no_value_in(&err);
            err.problems().to_vec()
        };
        assert_eq!(problems.len(), 1, "{object} without {field}: {problems:?}");
        assert_eq!(problems[0].pointer, format!("/{field}"));
        // Named as A2A's member, not blamed on the payload's contract.
        let member = ProblemKind::MissingMember {
            member: field,
            protocol: "A2A 1.0",
        };
        assert_eq!(problems[0].kind, member);
        assert_eq!(problems[0].kind.class(), ProblemClass::Protocol);
        assert_eq!(
            problems[0].to_string(),
            format!("/{field}: missing member `{field}`, which A2A 1.0 requires")
        );
    }
    // `parts` needs at least one element.
    let mut value = message();
    value["parts"] = json!([]);
    assert_eq!(
        refused(&value),
        [("/parts".to_owned(), ProblemKind::EmptyArray)]
    );
    // A required string of another type.
    let mut value = message();
    value["messageId"] = json!(7);
    assert_eq!(
        refused(&value),
        [(
            "/messageId".to_owned(),
            ProblemKind::WrongType {
                expected: "string".into(),
                found: contract_core::runtime::JsonKind::Integer
            }
        )]
    );
}

#[test]
fn another_major_of_the_contract_is_refused_naming_both() {
    let mut value = message();
    value["extensions"] = json!([
        "https://example.com/ext/other/v1",
        "https://example.com/contracts/a2a-refund/v1"
    ]);
    let err = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap_err();
    no_value_in(&err);
    assert_eq!(
        err.problems()
            .iter()
            .map(|p| (p.pointer.as_str(), p.kind.clone()))
            .collect::<Vec<_>>(),
        [(
            "/extensions/1",
            ProblemKind::OtherMajor {
                expected: "a2a-refund/v2".into(),
                found: "a2a-refund/v1".into()
            }
        )]
    );
    assert!(err.presence().is_none(), "the payload was not read");
    let text = err.to_string();
    assert!(
        text.contains("a2a-refund/v1") && text.contains("a2a-refund/v2"),
        "{text}"
    );

    // No URI of the contract at all.
    for extensions in [json!(["https://example.com/contracts/other/v2"]), json!([])] {
        let mut value = message();
        value["extensions"] = extensions;
        assert_eq!(
            refused(&value),
            [(
                "/extensions".to_owned(),
                ProblemKind::NoContractExtension {
                    expected: URI.into()
                }
            )]
        );
    }
    let mut value = message();
    value.as_object_mut().unwrap().remove("extensions");
    let err = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "receive of A2A Message carrying a2a-refund/v2 refused: 1 problem
  /extensions: no extension names the contract: expected {URI} in `extensions`; the payload was not read"
        )
    );
}

#[test]
fn a_role_written_as_a2a_0_3_writes_it_is_refused_naming_the_version() {
    for (role, expected) in [("agent", "ROLE_AGENT"), ("user", "ROLE_USER")] {
        let mut value = message();
        value["role"] = json!(role);
        let err = a2a()
            .receive_message::<Refund>(&bytes(&value), &options())
            .unwrap_err();
        assert_eq!(err.problems().len(), 1);
        assert_eq!(err.problems()[0].pointer, "/role");
        let text = err.problems()[0].to_string();
        assert!(
            text.contains("A2A 0.3") && text.contains(expected),
            "{text}"
        );
        assert!(text.contains("A2A 1.0"), "{text}");
    }
    let mut value = message();
    value["role"] = json!("ROLE_UNSPECIFIED");
    let problems = refused(&value);
    assert!(
        matches!(&problems[..], [(p, ProblemKind::UnknownVariant { known, .. })]
            if p == "/role" && known.len() == 2),
        "{problems:?}"
    );
}

#[test]
fn unknown_members_are_ignored() {
    let mut value = message();
    let map = value.as_object_mut().unwrap();
    map.insert("referenceTaskIds".into(), json!(["t-0"]));
    map.insert("futureField".into(), json!({"deep": [1, 2]}));
    map.insert(
        "metadata".into(),
        json!({"https://other.example/ext/v1": {"x": 1}}),
    );
    value["parts"][0]["filename"] = json!("refund.json");
    value["parts"][0]["futurePartField"] = json!(true);
    let received = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap();
    assert_eq!(received.payload().order_id, SECRET);
    assert!(received.sender_presence().is_none());
    // Other Parts beside the `data` one: read past.
    value["parts"] = json!([{"text": "see data"}, value["parts"][0].clone(), {"url": "https://x"}]);
    assert!(a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .is_ok());
}

#[test]
fn exactly_one_data_part_of_media_type_json_is_read() {
    let mut value = message();
    let part = value["parts"][0].clone();
    value["parts"] = json!([part.clone(), part]);
    assert_eq!(
        refused(&value),
        [(
            "/parts".to_owned(),
            ProblemKind::NotOneDataPart { found: 2 }
        )]
    );
    value["parts"] = json!([{"text": "no data"}]);
    assert_eq!(
        refused(&value),
        [(
            "/parts".to_owned(),
            ProblemKind::NotOneDataPart { found: 0 }
        )]
    );
    let mut value = message();
    value["parts"][0]["mediaType"] = json!("text/plain");
    assert_eq!(
        refused(&value),
        [(
            "/parts/0/mediaType".to_owned(),
            ProblemKind::WrongMediaType {
                expected: MEDIA_TYPE
            }
        )]
    );
    // Without a media type the Part is read.
    let mut value = message();
    value["parts"][0]
        .as_object_mut()
        .unwrap()
        .remove("mediaType");
    assert!(a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .is_ok());
}

#[test]
fn duplicate_members_of_the_a2a_document_and_bad_json_are_refused() {
    let text = format!(
        r#"{{"messageId": "m", "messageId": "n", "role": "ROLE_USER", "extensions": ["{URI}"],
            "parts": [{{"data": {{"orderId": "x", "amountCents": 1}}}}]}}"#
    );
    let err = a2a()
        .receive_message::<Refund>(text.as_bytes(), &options())
        .unwrap_err();
    assert_eq!(err.problems()[0].pointer, "/messageId");
    assert!(matches!(
        err.problems()[0].kind,
        ProblemKind::DuplicateKey { .. }
    ));
    // A key twice in `metadata`, whose keys are data: not named.
    let text = format!(
        r#"{{"messageId": "m", "role": "ROLE_USER", "extensions": ["{URI}"],
            "metadata": {{"{SECRET}": 1, "{SECRET}": 2}},
            "parts": [{{"data": {{"orderId": "x", "amountCents": 1}}}}]}}"#
    );
    let err = a2a()
        .receive_message::<Refund>(text.as_bytes(), &options())
        .unwrap_err();
    no_value_in(&err);
    assert_eq!(err.problems()[0].pointer, "/metadata/*");
    assert_eq!(
        err.problems()[0].kind,
        ProblemKind::DuplicateKey { key: None }
    );
    // Nested past the depth limit in a member nobody reads: refused where it is too deep.
    let limit = contract_core::Limits::default().max_depth;
    let deep = format!(r#"{{"x": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    let err = a2a()
        .receive_message::<Refund>(deep.as_bytes(), &options())
        .unwrap_err();
    assert_eq!(
        err.problems(),
        [contract_core::Problem {
            pointer: String::new(),
            kind: ProblemKind::TooDeep {
                offset: 6 + limit - 1,
                limit
            }
        }]
    );
    for bad in [&b""[..], b"[]", b"{\"messageId\": ", b"\xff{}", b"null"] {
        let err = a2a()
            .receive_message::<Refund>(bad, &options())
            .unwrap_err();
        assert!(!err.problems().is_empty());
    }
}

#[test]
fn the_senders_presence_feeds_the_diagnosis() {
    // The sender wrote `amountCents` (its presence says so); a mapper dropped it.
    let sent = a2a()
        .message(&MessageHead::new("m", Role::Agent), &refund())
        .unwrap();
    let mut value: Value = serde_json::from_slice(sent.bytes()).unwrap();
    value["parts"][0]["data"]
        .as_object_mut()
        .unwrap()
        .remove("amountCents");
    let err = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap_err();
    assert_eq!(
        err.sender_presence().unwrap().received(),
        ["orderId", "amountCents"]
    );
    let diagnosis = err.why_missing::<Refund>().unwrap().explain();
    assert_eq!(
        diagnosis.causes("amountCents"),
        [Cause::DroppedOnTheWay {
            certainty: Certainty::Established
        }]
    );
    // Without the sender's presence, that is only possible.
    value["metadata"] = json!({});
    let err = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap_err();
    let diagnosis = err.why_missing::<Refund>().unwrap().explain();
    assert!(diagnosis
        .causes("amountCents")
        .iter()
        .all(|c| c.certainty() == Certainty::Possible));
    // Another contract's diagnosis is not offered.
    assert!(err.why_missing::<Ledger>().is_none());
}

#[test]
fn a_senders_presence_that_does_not_read_is_refused_where_it_is() {
    let mut value = message();
    value["metadata"] = json!({URI: {"missingFields": 3}});
    let problems = refused(&value);
    assert!(
        problems
            .iter()
            .all(|(p, _)| p
                .starts_with("/metadata/https:~1~1example.com~1contracts~1a2a-refund~1v2")),
        "{problems:?}"
    );
    assert!(!problems.is_empty());
}

#[test]
fn integers_beyond_two_to_the_53_are_warned_of() {
    assert_eq!(
        A2a::inexact_integers::<Ledger>(),
        ["entryId", "lines[].cents"]
    );
    assert!(A2a::inexact_integers::<Refund>().is_empty());
    let ledger = Ledger {
        entry_id: u64::MAX,
        count: 1,
        lines: vec![Line { cents: -1, qty: 2 }],
    };
    let sent = a2a().artifact(&ArtifactHead::new("a"), &ledger).unwrap();
    assert_eq!(sent.inexact_integers(), ["entryId", "lines[].cents"]);
    // The bytes stay exact: the reader gets the value back whole.
    let received = a2a()
        .receive_artifact::<Ledger>(sent.bytes(), &options())
        .unwrap();
    assert_eq!(received.payload().entry_id, u64::MAX);
}

#[test]
fn what_send_refuses_is_located_under_the_data_part() {
    let err = a2a()
        .message(
            &MessageHead::new("m", Role::Agent),
            &Reading { celsius: f64::NAN },
        )
        .unwrap_err();
    assert_eq!(err.problems()[0].pointer, "/parts/0/data/celsius");
    assert_eq!(err.side(), contract_core::Side::Send);
}

#[test]
fn no_input_panics_and_every_refusal_names_a_problem() {
    let sent = a2a()
        .message(&MessageHead::new("m", Role::Agent).context("c"), &refund())
        .unwrap();
    let whole = Vec::from(sent);
    let read = |bytes: &[u8]| {
        if let Err(err) = a2a().receive_message::<Refund>(bytes, &options()) {
            assert!(!err.problems().is_empty());
            no_value_in(&err);
        }
        let _ = a2a().receive_artifact::<Refund>(bytes, &options());
    };
    for end in 0..whole.len() {
        read(&whole[..end]);
    }
    for at in 0..whole.len() {
        for byte in [b'"', b'{', b'}', b'[', b'\\', b',', 0xff] {
            let mut bytes = whole.clone();
            bytes[at] = byte;
            read(&bytes);
        }
    }
}

#[test]
fn members_under_their_proto_field_names_are_read_as_protojson_parsers_read_them() {
    // ProtoJSON: a parser accepts a field's lowerCamelCase name and its proto name.
    let value = json!({
        "message_id": "m-1",
        "role": "ROLE_AGENT",
        "context_id": "ctx-1",
        "task_id": "task-1",
        "parts": [{"data": {"orderId": SECRET, "amountCents": 5}, "media_type": "application/json"}],
        "extensions": [URI],
    });
    let received = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap();
    assert_eq!(received.head().message_id, "m-1");
    assert_eq!(received.head().context_id.as_deref(), Some("ctx-1"));
    assert_eq!(received.head().task_id.as_deref(), Some("task-1"));
    let artifact = json!({
        "artifact_id": "a-1",
        "parts": [{"data": {"orderId": SECRET, "amountCents": 5}}],
        "extensions": [URI],
    });
    let received = a2a()
        .receive_artifact::<Refund>(&bytes(&artifact), &options())
        .unwrap();
    assert_eq!(received.head().artifact_id, "a-1");
    // The payload's own keys are the contract's: no second name is read there.
    let mut snake_payload = message();
    snake_payload["parts"][0]["data"] = json!({"order_id": SECRET, "amount_cents": 5});
    let problems = refused(&snake_payload);
    assert!(problems
        .iter()
        .all(|(pointer, _)| pointer.starts_with("/parts/0/data")));
    assert!(problems.iter().any(|(_, kind)| matches!(
        kind,
        ProblemKind::MissingField { field } if field == "orderId"
    )));
    // A member under both names: refused at the second, the lowerCamelCase one named.
    let mut both = message();
    both["message_id"] = json!("m-2");
    assert_eq!(
        refused(&both),
        [(
            "/message_id".to_owned(),
            ProblemKind::DuplicateField {
                field: "messageId".into()
            }
        )]
    );
}

#[test]
fn integers_written_as_doubles_are_read_where_the_contract_has_an_integer() {
    // What a protobuf `Value` writer (the A2A SDKs) writes for the integers 1250, 2 and 7.
    let mut value = message();
    value["parts"][0]["data"] = json!({"orderId": SECRET, "amountCents": 1250.0});
    let received = a2a()
        .receive_message::<Refund>(&bytes(&value), &options())
        .unwrap();
    assert_eq!(received.payload().amount_cents, 1250);
    // The fields in the order they arrived (`json!` writes its keys sorted).
    assert_eq!(received.presence().received(), ["amountCents", "orderId"]);
    let ledger = json!({
        "artifactId": "a-1",
        "parts": [{"data": {"entryId": 9.0e3, "count": 2.0, "lines": [{"cents": -7.0, "qty": 3.0}]}}],
        "extensions": [format!("{BASE}a2a-ledger/v1")],
    });
    let received = a2a()
        .receive_artifact::<Ledger>(&bytes(&ledger), &options())
        .unwrap();
    assert_eq!(
        received.payload(),
        &Ledger {
            entry_id: 9000,
            count: 2,
            lines: vec![Line { cents: -7, qty: 3 }],
        }
    );
    // Beyond 2^53 a double may be the rounding of another integer: refused, located.
    let mut beyond = ledger.clone();
    beyond["parts"][0]["data"]["entryId"] = json!(9007199254740992.0_f64 * 2.0);
    let err = a2a()
        .receive_artifact::<Ledger>(&bytes(&beyond), &options())
        .unwrap_err();
    assert_eq!(err.problems().len(), 1, "{err}");
    assert_eq!(err.problems()[0].pointer, "/parts/0/data/entryId");
    // A fraction stays refused.
    value["parts"][0]["data"]["amountCents"] = json!(1250.5);
    let problems = refused(&value);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].0, "/parts/0/data/amountCents");
    // A reader that asks for serde's rule gets it.
    value["parts"][0]["data"]["amountCents"] = json!(1250.0);
    let exact = a2a()
        .numbers(Numbers::Exact)
        .receive_message::<Refund>(&bytes(&value), &options());
    assert!(exact.is_err());
}
