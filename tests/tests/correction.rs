//! Corrections (`Rejection::correction`, `HandoffRejection::correction`) and the retry loop
//! (`retry::Retry`): what a model is told after a refusal — per problem its pointer and what
//! the contract expects there, never a value it wrote, within the bound — and the loop that
//! asks again under a budget, each attempt on the journey.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::num::NonZeroU8;

use contract_core::correction::{Correction, CorrectionOptions, DEFAULT_MAX_CHARS};
use contract_core::inbox::{AcceptError, Inbox, Ledger, MemoryLedger, MemoryTx, Outcome};
use contract_core::retry::{Attempt, Checked, Retry, RetryError};
use contract_core::session::{Relation, SessionView};
use contract_core::task::{Budget, BudgetMeter, Call, Limit};
use contract_core::{
    receive, receive_handoff, receive_with, send, Delivery, Handoff, HandoffContract,
    HandoffSchema, Journey, Limits, ReceiveOptions, Rejection,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "kebab-case")]
enum Category {
    Damaged,
    NotDelivered,
    ChangedMind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
enum Action {
    Refund { cents: u32 },
    Replace(String),
    Close,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Evidence {
    Photo { url: String },
    Receipt { total: u32 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum Amount {
    Cents(u32),
    Text { text: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
struct Line {
    sku: String,
    quantity: NonZeroU8,
}

/// A payload with a place for every problem kind a payload of its own can have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Claim {
    category: Category,
    #[serde(alias = "orderRef")]
    order_id: String,
    amount_cents: u32,
    initial: char,
    urgent: bool,
    note: Option<String>,
    lines: Vec<Line>,
    rgb: [u8; 3],
    tags: BTreeSet<String>,
    by_slot: BTreeMap<u8, String>,
    scores: BTreeMap<String, u8>,
    action: Action,
    evidence: Evidence,
    amount: Amount,
    when: chrono::NaiveDate,
}

fn claim() -> Value {
    json!({
        "category": "damaged",
        "orderId": "A-1",
        "amountCents": 1250,
        "initial": "d",
        "urgent": false,
        "note": null,
        "lines": [{"sku": "S-1", "quantity": 1}],
        "rgb": [1, 2, 3],
        "tags": ["a"],
        "bySlot": {"1": "x"},
        "scores": {"k": 1},
        "action": {"Refund": {"cents": 5}},
        "evidence": {"type": "photo", "url": "u"},
        "amount": 3,
        "when": "2024-01-31",
    })
}

fn refused<T: serde::de::DeserializeOwned + HandoffSchema + 'static>(bytes: &[u8]) -> Rejection {
    match receive::<T>(bytes) {
        Ok(_) => panic!("accepted: {}", String::from_utf8_lossy(bytes)),
        Err(rejection) => rejection,
    }
}

fn with(path: &[&str], value: Value) -> Vec<u8> {
    let mut doc = claim();
    let mut at = &mut doc;
    for (i, key) in path.iter().enumerate() {
        if i + 1 == path.len() {
            match at {
                Value::Object(map) => {
                    map.insert((*key).to_owned(), value.clone());
                }
                Value::Array(items) => items[key.parse::<usize>().unwrap()] = value.clone(),
                _ => unreachable!(),
            }
        } else {
            at = match at {
                Value::Object(map) => map.get_mut(*key).unwrap(),
                Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
                _ => unreachable!(),
            };
        }
    }
    serde_json::to_vec(&doc).unwrap()
}

fn without(key: &str) -> Vec<u8> {
    let mut doc = claim();
    doc.as_object_mut().unwrap().remove(key);
    serde_json::to_vec(&doc).unwrap()
}

/// The one fix of a correction, its kind, and the text of its line.
fn one_fix(bytes: &[u8]) -> (Correction, String) {
    let rejection = refused::<Claim>(bytes);
    let correction = rejection.correction();
    assert_eq!(
        correction.fixes().len(),
        1,
        "{rejection}\n---\n{correction}"
    );
    let line = correction.text().lines().nth(1).unwrap().to_owned();
    (correction, line)
}

#[test]
fn the_payload_itself_is_read() {
    assert!(receive::<Claim>(&serde_json::to_vec(&claim()).unwrap()).is_ok());
}

/// Every kind of problem a payload can have, each with what the contract expects at its
/// pointer, from the contract.
#[test]
fn each_kind_says_what_the_contract_expects_there() {
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        (
            without("orderId"),
            "missing_field",
            "- /orderId: missing. Expected string: a string; required.",
        ),
        (
            with(&["amountCents"], json!("zz-marker")),
            "wrong_type",
            "- /amountCents: a string is the wrong type here. Expected u32: an integer from 0 to 4294967295; required.",
        ),
        (
            with(&["urgent"], Value::Null),
            "null_not_allowed",
            "- /urgent: null is not allowed here. Expected bool: true or false; required.",
        ),
        (
            with(&["amountCents"], json!(-7)),
            "out_of_range",
            "- /amountCents: a number outside the allowed range. Expected u32: an integer from 0 to 4294967295; required.",
        ),
        (
            with(&["lines", "0", "quantity"], json!(0)),
            "out_of_range",
            "- /lines/0/quantity: a number outside the allowed range. Expected u8(1..): an integer in 1..=255; required.",
        ),
        (
            with(&["initial"], json!("dd")),
            "not_one_character",
            "- /initial: not a string of exactly one character. Expected char: a string of exactly one character; required.",
        ),
        (
            with(&["rgb"], json!([1, 2])),
            "wrong_length",
            "- /rgb: an array of 2 items where exactly 3 belong. Expected array<u8; 3>: an array of exactly 3 items, each an integer from 0 to 255; required.",
        ),
        (
            with(&["tags"], json!(["a", "a"])),
            "duplicate_item",
            "- /tags/1: the same item twice: the items must be distinct. Expected string: a string.",
        ),
        (
            with(&["lines", "0", "colour"], json!("red")),
            "unknown_field",
            "- /lines/0/colour: `colour` is not a member of this object, which takes no other. Expected object: an object with members sku (required string), quantity (required u8(1..)); no other member.",
        ),
        (
            with(&["category"], json!("zz-marker")),
            "unknown_variant",
            "- /category: not one of the allowed values. Expected Category: one of \"damaged\", \"not-delivered\", \"changed-mind\"; required.",
        ),
        (
            with(&["bySlot"], json!({"zz-marker": "x"})),
            "invalid_key",
            "- /bySlot/*: a key that does not read as u8. Expected string: a string.",
        ),
        (
            with(&["action"], json!({"Refund": {"cents": 1}, "Close": null})),
            "not_one_key",
            "- /action: not an object with exactly one key, the variant's name. Expected Action: a variant of 3: a string for a variant without content, else an object with exactly one key, the variant's name; the variants are \"Refund\", \"Replace\", \"Close\"; required.",
        ),
        (
            with(&["action", "Refund", "cents"], json!("zz-marker")),
            "wrong_type",
            "- /action/Refund/cents: a string is the wrong type here. Expected u32: an integer from 0 to 4294967295; required.",
        ),
        (
            with(&["evidence", "type"], json!("zz-marker")),
            "unknown_variant",
            "- /evidence/type: not one of the allowed values. Expected tag: a string, one of \"photo\", \"receipt\".",
        ),
        (
            with(&["amount"], json!(["zz-marker"])),
            "no_variant_matches",
            "- /amount: matches none of the forms the contract allows here. Expected Amount: any one of these forms: an integer from 0 to 4294967295; the object of Text; required.",
        ),
        (
            with(&["when"], json!("zz-marker")),
            "refused",
            "",
        ),
    ];
    for (bytes, kind, line) in cases {
        let (correction, got) = one_fix(&bytes);
        assert_eq!(correction.fixes()[0].kind, kind, "{correction}");
        if !line.is_empty() {
            assert_eq!(got, line, "{correction}");
        }
        assert!(
            !correction.to_string().contains("zz-marker"),
            "{correction}"
        );
    }
}

/// The kinds whose place the table above leaves to a payload of its own.
#[test]
fn duplicates_say_the_name_never_the_value() {
    let (c, line) = one_fix(&with(&["orderRef"], json!("zz-marker")));
    assert_eq!(c.fixes()[0].kind, "duplicate_field");
    assert_eq!(
        line,
        "- /orderRef: `orderId` given twice, under two of its names: give it once. Expected string: a string; required."
    );
    let mut text = serde_json::to_string(&claim()).unwrap();
    text.insert_str(1, r#""urgent": true, "#);
    let (c, line) = one_fix(text.as_bytes());
    assert_eq!(c.fixes()[0].kind, "duplicate_key");
    assert!(
        line.starts_with("- /urgent: the key `urgent` twice in one object."),
        "{line}"
    );

    let text = serde_json::to_string(&claim()).unwrap().replace(
        r#""scores":{"k":1}"#,
        r#""scores":{"zz-marker":1,"zz-marker":2}"#,
    );
    let (c, line) = one_fix(text.as_bytes());
    assert_eq!(c.fixes()[0].kind, "duplicate_key");
    assert!(!c.to_string().contains("zz-marker"), "{c}");
    assert!(
        line.starts_with("- /scores/*: the same key twice"),
        "{line}"
    );
}

/// An internally tagged variant's field is found through its tag's variants.
#[test]
fn a_field_of_an_internally_tagged_variant() {
    let bytes = with(
        &["evidence"],
        json!({"type": "receipt", "total": "zz-marker"}),
    );
    let (c, line) = one_fix(&bytes);
    assert_eq!(c.fixes()[0].kind, "wrong_type");
    assert_eq!(
        line,
        "- /evidence/total: a string is the wrong type here. Expected u32: an integer from 0 to 4294967295; required."
    );
}

/// Output that is not JSON, cut off, or too large: `receive`'s problems and limits, said
/// without echoing any of it.
#[test]
fn bytes_that_are_not_json_are_said_without_echo() {
    let full = serde_json::to_vec(&claim()).unwrap();
    let cut = &full[..full.len() / 2];
    for (bytes, kind) in [
        (cut.to_vec(), "malformed"),
        (b"".to_vec(), "empty"),
        (b"   ".to_vec(), "empty"),
        (b"\xEF\xBB\xBF{}".to_vec(), "byte_order_mark"),
        (b"{\"orderId\": \"\xFF\"}".to_vec(), "invalid_utf8"),
        (br#"{"x": "\udc00"}"#.to_vec(), "lone_surrogate"),
        ([&full[..], b" zz-marker"].concat(), "trailing_data"),
        (
            b"Sure! Here is the JSON: {\"zz-marker\": 1}".to_vec(),
            "malformed",
        ),
    ] {
        let rejection = refused::<Claim>(&bytes);
        let c = rejection.correction();
        assert_eq!(c.fixes()[0].kind, kind, "{c}");
        assert!(c.fixes()[0].expected.is_none(), "{c}");
        let text = c.to_string();
        assert!(
            text.starts_with("Your output was refused: it is not one complete JSON document"),
            "{text}"
        );
        assert!(
            !text.contains("zz-marker") && !text.contains("A-1"),
            "{text}"
        );
    }

    let mut limits = Limits::default();
    limits.max_bytes = 64;
    limits.max_depth = 4;
    limits.max_string_bytes = 8;
    limits.max_keys_per_object = 3;
    let options = ReceiveOptions::default().limits(limits);
    for (bytes, kind) in [
        (full.clone(), "too_large"),
        (br#"[[[[[["zz"]]]]]]"#.to_vec(), "too_deep"),
        (
            br#"{"orderId": "zz-marker-long"}"#.to_vec(),
            "string_too_long",
        ),
        (br#"{"a":1,"b":2,"c":3,"d":4}"#.to_vec(), "too_many_keys"),
    ] {
        let rejection = match receive_with::<Claim>(&bytes, &options) {
            Ok(_) => panic!("accepted"),
            Err(r) => r,
        };
        let c = rejection.correction();
        assert_eq!(c.fixes()[0].kind, kind, "{c}");
        assert!(!c.to_string().contains("zz-marker"), "{c}");
    }
}

/// What `send` refuses is said from the sender view.
#[test]
fn a_send_refusal_too() {
    #[derive(Serialize, HandoffSchema)]
    struct Reading {
        celsius: f64,
    }
    let rejection = match send(&Reading { celsius: f64::NAN }) {
        Ok(_) => panic!("sent NaN"),
        Err(r) => r,
    };
    let c = rejection.correction();
    assert_eq!(c.fixes()[0].pointer, "/celsius");
    assert_eq!(
        c.fixes()[0].expected.as_ref().map(|e| e.json.as_str()),
        Some("a number; required")
    );
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct Item {
    name: String,
}

fn many_wrong(n: usize) -> Vec<u8> {
    let items: Vec<Value> = (0..n).map(|i| json!({"name": i})).collect();
    serde_json::to_vec(&items).unwrap()
}

/// The bound holds in both forms; the rest is counted and located.
#[test]
fn a_correction_keeps_within_its_bound() {
    let rejection = refused::<Vec<Item>>(&many_wrong(5_000));
    assert_eq!(rejection.problems().len(), 5_000);
    let c = rejection.correction();
    let text = c.to_string();
    let json = serde_json::to_string(&c.to_json()).unwrap();
    assert!(text.chars().count() <= DEFAULT_MAX_CHARS, "{}", text.len());
    assert!(json.chars().count() <= DEFAULT_MAX_CHARS, "{}", json.len());
    assert_eq!(c.total(), 5_000);
    assert!(!c.fixes().is_empty());
    assert_eq!(c.fixes().len() + c.omitted(), 5_000);
    assert!(!c.omitted_at().is_empty());
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "- and {} more problems at /{}/name, /{}/name",
            c.omitted(),
            c.fixes().len(),
            c.fixes().len() + 1
        )),
        "{last}"
    );
    assert!(
        last.ends_with(", … (fix these first; the others are told after the next attempt)."),
        "{last}"
    );

    for max in [300, 500, 1_000, 4_000, 20_000] {
        let c = rejection.correction_with(&CorrectionOptions::default().max_chars(max));
        let text = c.to_string();
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            text.chars().count() <= max,
            "{max}: {}",
            text.chars().count()
        );
        assert!(
            json.chars().count() <= max,
            "{max}: {}",
            json.chars().count()
        );
        // Within a few fixes' room of the bound in the longer form (the JSON): the room is used.
        assert!(json.chars().count() + 2 * 250 > max, "{max}: {json}");
    }

    // A refusal that fits is told whole, with no last line.
    let c = refused::<Vec<Item>>(&many_wrong(3)).correction();
    assert_eq!((c.fixes().len(), c.omitted()), (3, 0));
    assert!(!c.to_string().contains("more problem"), "{c}");
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "retry-refund", version = 1)]
#[serde(rename_all = "camelCase")]
struct RetryRefund {
    /// Why the customer wants the refund.
    category: Category,
    /// The order to refund.
    order_ref: String,
    /// The amount, in cents.
    amount_cents: u64,
}

/// An envelope's refusal: pointers from its root, the payload's expectations from the
/// payload's contract, the envelope's from its own.
#[test]
fn a_refused_envelope() {
    let envelope = json!({
        "schemaVersion": "handoff-envelope/v1", "contract": "retry-refund/v1",
        "contextId": "ctx-1", "handoffId": "h-1", "goal": "", "owner": "billing",
        "status": "zz-marker", "payload": {"category": "damaged", "amountCents": 1}
    });
    let refused = receive_handoff::<RetryRefund>(
        &serde_json::to_vec(&envelope).unwrap(),
        &ReceiveOptions::default(),
    )
    .unwrap_err();
    let c = refused.correction();
    let text = c.to_string();
    assert!(!text.contains("zz-marker"), "{text}");
    let pointers: Vec<&str> = c.fixes().iter().map(|f| f.pointer.as_str()).collect();
    assert!(pointers.contains(&"/payload/orderRef"), "{text}");
    let order = c
        .fixes()
        .iter()
        .find(|f| f.pointer == "/payload/orderRef")
        .unwrap();
    assert_eq!(order.expected.as_ref().unwrap().ty, "string");
    if let Some(status) = c.fixes().iter().find(|f| f.pointer == "/status") {
        assert_eq!(status.expected.as_ref().unwrap().ty, "Status");
    }
}

fn marker_string(n: u32) -> String {
    format!("mk{n:05}qx")
}

/// A payload whose every value is a unique marker, in every place a value can be (and the
/// keys of maps), mostly of the wrong type for its place.
fn marked_payload(seed: u32, choices: &[u8]) -> (Value, Vec<String>) {
    struct Markers {
        n: u32,
        all: Vec<String>,
    }
    impl Markers {
        fn string(&mut self) -> Value {
            self.n += 1;
            let m = marker_string(self.n);
            self.all.push(m.clone());
            Value::String(m)
        }
        fn key(&mut self) -> String {
            match self.string() {
                Value::String(m) => m,
                _ => unreachable!(),
            }
        }
        /// A number marker: a fraction, which no limit or offset is written as.
        fn number(&mut self) -> Value {
            self.n += 1;
            let m = format!("{}.{:05}", 31_000 + self.n, self.n);
            self.all.push(m.clone());
            serde_json::from_str(&m).unwrap()
        }
    }
    let mut m = Markers {
        n: seed * 100,
        all: Vec::new(),
    };
    let mut doc = serde_json::Map::new();
    let fields = [
        "category",
        "orderId",
        "amountCents",
        "initial",
        "urgent",
        "note",
        "lines",
        "rgb",
        "tags",
        "bySlot",
        "scores",
        "action",
        "evidence",
        "amount",
        "when",
        "extra",
    ];
    for (i, field) in fields.iter().enumerate() {
        let value = match choices.get(i).copied().unwrap_or(0) % 7 {
            0 => m.string(),
            1 => m.number(),
            2 => json!([m.string(), {"sku": m.string(), "quantity": m.number()}, m.number()]),
            3 => {
                let mut map = serde_json::Map::new();
                map.insert(m.key(), m.string());
                map.insert(m.key(), json!(-1));
                Value::Object(map)
            }
            4 => json!({"type": m.string(), "url": m.string(), "total": m.number()}),
            5 => json!({ "Replace": m.string() }),
            _ => continue, // absent
        };
        doc.insert((*field).to_owned(), value);
    }
    (Value::Object(doc), m.all)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No value of a payload appears in its correction, in either form, whatever the
    /// payload, cut anywhere, and whatever the bound.
    #[test]
    fn no_marker_in_any_correction(
        seed in 0u32..1_000,
        choices in proptest::collection::vec(any::<u8>(), 16),
        cut in any::<proptest::sample::Index>(),
        whole in any::<bool>(),
        max in 200usize..3_000,
    ) {
        let (doc, markers) = marked_payload(seed, &choices);
        let mut bytes = serde_json::to_vec(&doc).unwrap();
        if !whole {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        let Err(rejection) = receive::<Claim>(&bytes) else {
            return Ok(());
        };
        let options = CorrectionOptions::default().max_chars(max);
        let c = rejection.correction_with(&options);
        let text = c.to_string();
        let json = serde_json::to_string(&c).unwrap();
        prop_assert!(text.chars().count() <= max.max(300), "{}", text);
        for marker in &markers {
            prop_assert!(!text.contains(marker.as_str()), "{} in {}", marker, text);
            prop_assert!(!json.contains(marker.as_str()), "{} in {}", marker, json);
        }
        // Through an envelope too.
        let envelope = json!({
            "schemaVersion": "handoff-envelope/v1", "contract": "retry-refund/v1",
            "contextId": "ctx-1", "handoffId": "h-1", "goal": "", "owner": "billing",
            "status": "ready", "payload": doc,
        });
        if let Err(refused) = receive_handoff::<RetryRefund>(
            &serde_json::to_vec(&envelope).unwrap(),
            &ReceiveOptions::default(),
        ) {
            let text = refused.correction_with(&options).to_string();
            for marker in &markers {
                prop_assert!(!text.contains(marker.as_str()), "{} in {}", marker, text);
            }
        }
    }
}

const COMPLETE: &[u8] = br#"{"category": "damaged", "orderRef": "A-1", "amountCents": 1250}"#;
const NO_ORDER: &[u8] = br#"{"category": "damaged", "amountCents": 1250}"#;

fn meter(model_calls: u32) -> BudgetMeter {
    BudgetMeter::new(&Budget {
        max_model_calls: Some(model_calls),
        ..Budget::default()
    })
}

fn template(handoff_id: &str) -> Handoff<()> {
    Handoff::new("ctx-retry", handoff_id, "refund-specialist", ())
        .goal("refund the order")
        .journey(
            Journey::new("triage-agent", "refund-specialist")
                .session("sess-retry")
                .workflow("support-refund"),
        )
        .ready()
}

fn apply(_: &mut MemoryTx, delivery: &Delivery<RetryRefund>) -> Result<String, Infallible> {
    Ok(delivery.payload().order_ref.clone())
}

/// Accepted at the second attempt: the correction reached the model, both attempts are on
/// the journey, the second an explicit retry of the first.
#[test]
fn accepted_on_the_second_attempt_through_an_inbox() {
    let meter = meter(3);
    let mut inbox = Inbox::new(MemoryLedger::new());
    let mut told = Vec::new();
    let model = |attempt: &Attempt<'_>| {
        attempt.record_tokens(100);
        told.push(attempt.correction().map(ToString::to_string));
        Ok::<_, Infallible>(if attempt.is_retry() {
            COMPLETE
        } else {
            NO_ORDER
        })
    };
    let retried = Retry::new(&meter)
        .accept(&mut inbox, &template("h-1"), model, apply)
        .expect("accepted");
    assert_eq!(retried.attempts(), 2);
    assert!(retried.value().is_applied());
    assert_eq!(retried.corrections().len(), 1);
    assert_eq!(told[0], None);
    let correction = told[1].as_deref().unwrap();
    assert!(
        correction.contains("- /orderRef: missing. Expected string: a string; required."),
        "{correction}"
    );
    assert_eq!(meter.spent(Call::Model), 2);
    assert_eq!(meter.tokens(), 200);

    let steps = inbox.ledger_mut().session("sess-retry").unwrap();
    let seen: Vec<_> = steps
        .iter()
        .map(|s| {
            (
                s.attempt,
                s.retry_of.as_deref(),
                s.outcome,
                s.handoff_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (Some(1), None, Outcome::Refused, Some("h-1")),
            (Some(2), Some("h-1"), Outcome::Applied, Some("h-1")),
        ]
    );
    assert_eq!(steps[0].missing_fields, ["orderRef"]);
    let view = SessionView::from_ledgers("sess-retry", [("specialist", steps)]);
    let relations: Vec<Relation> = view.steps().iter().map(|s| s.relation).collect();
    assert_eq!(relations, [Relation::First, Relation::Explicit]);
    assert!(view.diagnostics().is_empty(), "{:?}", view.diagnostics());
    let text = contract_core::session::text(&view);
    assert!(text.contains("attempt 2, retry of h-1"), "{text}");
}

/// The budget ends the loop with a clear error, the last correction kept.
#[test]
fn the_budget_spent_stops_the_loop() {
    let meter = meter(2);
    let mut inbox = Inbox::new(MemoryLedger::new());
    let mut calls = 0;
    let model = |_: &Attempt<'_>| {
        calls += 1;
        Ok::<_, Infallible>(NO_ORDER)
    };
    let error = Retry::new(&meter)
        .accept(&mut inbox, &template("h-2"), model, apply)
        .unwrap_err();
    assert_eq!(calls, 2);
    let RetryError::BudgetSpent {
        exceeded,
        attempts,
        last,
    } = &error
    else {
        panic!("{error}");
    };
    assert_eq!((exceeded.limit(), *attempts), (Limit::MaxModelCalls, 2));
    assert!(last
        .as_ref()
        .unwrap()
        .to_string()
        .contains("/orderRef: missing"));
    assert_eq!(
        error.to_string(),
        "no attempt 3: model call refused: the budget's maxModelCalls is spent; 2 attempts refused, the last with 1 problem"
    );
    let steps = inbox.ledger_mut().session("sess-retry").unwrap();
    assert_eq!(steps.len(), 2);
    assert!(steps.iter().all(|s| s.outcome == Outcome::Refused));
    assert_eq!(steps[1].retry_of.as_deref(), Some("h-2"));

    // No budget at all: no attempt.
    let spent = meter.clone();
    let error = Retry::new(&spent)
        .receive::<RetryRefund, _, _>(|_: &Attempt<'_>| Ok::<_, Infallible>(COMPLETE))
        .unwrap_err();
    assert!(
        matches!(
            error,
            RetryError::BudgetSpent {
                attempts: 0,
                last: None,
                ..
            }
        ),
        "{error}"
    );
}

/// Output that is not JSON: the correction says so; the attempt is still on the journey.
#[test]
fn output_that_is_not_json_is_corrected_and_recorded() {
    let meter = meter(3);
    let mut inbox = Inbox::new(MemoryLedger::new());
    let model = |attempt: &Attempt<'_>| {
        Ok::<_, Infallible>(match attempt.number() {
            1 => &b"Here is the refund: {\"orderRef\": \"zz-marker\""[..],
            _ => {
                let told = attempt.correction().unwrap().to_string();
                assert!(told.contains("not one complete JSON document"), "{told}");
                assert!(!told.contains("zz-marker"), "{told}");
                COMPLETE
            }
        })
    };
    let retried = Retry::new(&meter)
        .accept(&mut inbox, &template("h-3"), model, apply)
        .expect("accepted");
    assert_eq!(retried.attempts(), 2);
    let steps = inbox.ledger_mut().session("sess-retry").unwrap();
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(steps[0].outcome, Outcome::Refused);
    // Output that is not JSON is not carried: the envelope went without a payload.
    let problems: Vec<_> = steps[0]
        .problems
        .iter()
        .map(|p| (p.pointer.as_str(), p.kind.as_str()))
        .collect();
    assert_eq!(problems, [("/payload", "missing_field")], "{:?}", steps[0]);
    assert_eq!(steps[1].retry_of.as_deref(), Some("h-3"));
}

/// A refusal that is not the payload's ends the loop: the model cannot correct it.
#[test]
fn a_refusal_that_is_not_the_models_stops() {
    let meter = meter(3);
    let mut inbox = Inbox::new(MemoryLedger::new());
    let draft = template("h-4").status(contract_core::Status::Draft);
    let error = Retry::new(&meter)
        .accept(
            &mut inbox,
            &draft,
            |_: &Attempt<'_>| Ok::<_, Infallible>(COMPLETE),
            apply,
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            RetryError::Stopped {
                attempt: 1,
                error: AcceptError::NotReady
            }
        ),
        "{error}"
    );
    assert_eq!(meter.spent(Call::Model), 1);
}

/// A failed model call ends the loop with its error.
#[test]
fn a_failed_model_call_stops() {
    let meter = meter(3);
    let error = Retry::new(&meter)
        .receive::<RetryRefund, Vec<u8>, &str>(|attempt: &Attempt<'_>| {
            if attempt.is_retry() {
                Err("provider unavailable")
            } else {
                Ok(NO_ORDER.to_vec())
            }
        })
        .unwrap_err();
    assert!(matches!(
        error,
        RetryError::Model {
            attempt: 2,
            error: "provider unavailable"
        }
    ));
    assert_eq!(
        error.to_string(),
        "the model call of attempt 2 failed: provider unavailable"
    );
}

/// The plain loop, and one with a check of the caller's.
#[test]
fn the_loop_over_receive_and_over_any_check() {
    let meter = meter(5);
    let retried = Retry::new(&meter)
        .corrections(CorrectionOptions::default().max_chars(400))
        .receive::<RetryRefund, _, _>(|attempt: &Attempt<'_>| {
            Ok::<_, Infallible>(match attempt.number() {
                1 => &b"{}"[..],
                2 => NO_ORDER,
                _ => COMPLETE,
            })
        })
        .expect("accepted");
    assert_eq!(retried.attempts(), 3);
    assert_eq!(retried.corrections()[0].total(), 3);
    assert!(retried.corrections()[0].to_string().chars().count() <= 400);
    assert_eq!(retried.value().value().order_ref, "A-1");

    let checked = Retry::new(&meter).run(
        |attempt: &Attempt<'_>| {
            Ok::<_, Infallible>(if attempt.is_retry() {
                COMPLETE
            } else {
                NO_ORDER
            })
        },
        |_, output| match receive::<RetryRefund>(output) {
            Ok(r) if r.value().amount_cents > 1_000 => {
                Checked::<_, Infallible>::Accepted(r.into_inner())
            }
            Ok(_) => unreachable!(),
            Err(rejection) => Checked::Refused(rejection.correction()),
        },
    );
    assert_eq!(checked.expect("accepted").attempts(), 2);
    assert_eq!(meter.spent(Call::Model), 5);
}
