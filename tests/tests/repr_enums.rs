//! Enums written as their integer (`#[handoff(repr)]`, serde_repr) through everything built
//! on the description: canonical text, JSON Schema, compatibility and `receive`/`send`.

use contract_core::schema::compat::{self, Rule};
use contract_core::schema::text::{parse, to_text};
use contract_core::{json_schema, receive, send, HandoffSchema, ProblemKind, View};
use contract_tests::types::{Code, Offset, Priority, Reprs, Tier};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

fn validator(view: View) -> jsonschema::Validator {
    jsonschema::draft202012::new(&json_schema::<Reprs>(view)).expect("the export compiles")
}

fn sample() -> Reprs {
    Reprs {
        priority: Priority::High,
        offset: Offset::Back,
        code: Code::Failed,
        tier: Tier::Pro,
        priorities: vec![Priority::Low, Priority::Urgent],
        maybe: Some(Offset::Forward),
        by_priority: [(Priority::Urgent, 2)].into(),
    }
}

#[test]
fn the_description_is_the_set_of_discriminants() {
    let text = to_text(&Reprs::schema());
    assert!(
        text.contains("newtype Priority: u8(1, 5..=6, 200)"),
        "{text}"
    );
    assert!(text.contains("newtype Offset: i16(-300, 0, 7)"), "{text}");
    // A catch-all reads every other `u8`: the whole kind.
    assert!(text.contains("newtype Code: u8\n"), "{text}");
    // `by_name`: serde's derive writes the variant names.
    assert!(text.contains("enum Tier"), "{text}");
    assert_eq!(parse(&text).expect("the text parses back"), Reprs::schema());
}

#[test]
fn json_schema_agrees_with_serde_repr() {
    let written = serde_json::to_value(sample()).expect("serde writes it");
    assert_eq!(
        written,
        json!({"priority": 6, "offset": -300, "code": 1, "tier": "pro",
               "priorities": [1, 200], "maybe": 7, "by_priority": {"200": 2}})
    );
    let (sender, receiver) = (validator(View::Sender), validator(View::Receiver));
    assert!(sender.is_valid(&written));
    assert!(receiver.is_valid(&written));
    // Each value of each field against serde_repr's verdict.
    for (field, values) in [
        (
            "priority",
            vec![
                json!(0),
                json!(1),
                json!(2),
                json!(5),
                json!(6),
                json!(7),
                json!(200),
                json!(201),
                json!(256),
                json!("1"),
                json!(1.0),
            ],
        ),
        (
            "offset",
            vec![
                json!(-301),
                json!(-300),
                json!(-1),
                json!(0),
                json!(7),
                json!(8),
                json!(40000),
            ],
        ),
        (
            "code",
            vec![
                json!(0),
                json!(1),
                json!(2),
                json!(77),
                json!(255),
                json!(256),
                json!(-1),
            ],
        ),
        (
            "tier",
            vec![json!("pro"), json!("free"), json!(2), json!("Pro")],
        ),
    ] {
        for value in values {
            let mut payload = written.clone();
            payload[field] = value.clone();
            let serde = serde_json::from_value::<Reprs>(payload.clone()).is_ok();
            let integral_float = value.as_f64().is_some_and(|f| f.fract() == 0.0)
                && !value.is_i64()
                && !value.is_u64();
            if integral_float {
                // JSON Schema's `integer` takes `1.0`, serde does not: a documented looser point.
                assert!(!serde && receiver.is_valid(&payload), "{field} = {value}");
                continue;
            }
            assert_eq!(receiver.is_valid(&payload), serde, "{field} = {value}");
            let bytes = serde_json::to_vec(&payload).expect("bytes");
            assert_eq!(
                receive::<Reprs>(&bytes).is_ok(),
                serde,
                "receive: {field} = {value}"
            );
        }
    }
}

#[test]
fn a_value_outside_the_set_is_refused_at_its_pointer_without_the_value() {
    let mut payload = serde_json::to_value(sample()).expect("serde writes it");
    payload["priorities"][1] = json!(42);
    payload["offset"] = json!(-299);
    let bytes = serde_json::to_vec(&payload).expect("bytes");
    let rejection = receive::<Reprs>(&bytes).expect_err("both are outside their sets");
    let problems: Vec<(String, ProblemKind)> = rejection
        .problems()
        .iter()
        .map(|p| (p.pointer.clone(), p.kind.clone()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                "/offset".to_owned(),
                ProblemKind::OutOfRange {
                    expected: "i16(-300, 0, 7)".into()
                }
            ),
            (
                "/priorities/1".to_owned(),
                ProblemKind::OutOfRange {
                    expected: "u8(1, 5..=6, 200)".into()
                }
            ),
        ]
    );
    let message = rejection.to_string();
    assert!(
        !message.contains("42") && !message.contains("299"),
        "{message}"
    );
}

#[test]
fn send_writes_the_discriminants() {
    let sent = send(&sample()).expect("sent");
    assert_eq!(sent.bytes(), serde_json::to_vec(&sample()).expect("bytes"));
}

/// A reader's enum without `Urgent`: the same wire name, a smaller set.
mod reader {
    use super::*;

    #[derive(Serialize, Deserialize, HandoffSchema)]
    pub struct Task {
        pub priority: Priority,
    }

    #[derive(
        Clone, Copy, serde_repr::Serialize_repr, serde_repr::Deserialize_repr, HandoffSchema,
    )]
    #[repr(u8)]
    #[handoff(repr)]
    pub enum Priority {
        Low = 1,
        Normal = 5,
        High = 6,
    }
}

mod writer {
    use super::*;

    #[derive(Serialize, Deserialize, HandoffSchema)]
    pub struct Task {
        pub priority: Priority,
    }
}

#[test]
fn a_discriminant_the_reader_lacks_is_a_finding_and_the_reverse_is_not() {
    let report = compat::check(&writer::Task::schema(), &reader::Task::schema());
    let rules: Vec<Rule> = report.findings().iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::ValueOutsideConstraint], "{report}");
    assert_eq!(report.findings()[0].path, "priority");
    assert!(compat::check(&reader::Task::schema(), &writer::Task::schema()).is_compatible());
}

#[test]
fn every_value_serde_repr_writes_is_in_the_set() {
    for p in [
        Priority::Low,
        Priority::Normal,
        Priority::High,
        Priority::Urgent,
    ] {
        let value: Value = serde_json::to_value(p).expect("written");
        let schema =
            jsonschema::draft202012::new(&json_schema::<Priority>(View::Sender)).expect("compiles");
        assert!(schema.is_valid(&value), "{value}");
    }
}
