//! The `tracing` feature: one span per `send` and `receive`, with the attributes
//! OpenTelemetry backends file, recorded by a subscriber that keeps what it is given.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use contract_core::{
    receive_with, send_with, HandoffContract, Journey, ReceiveOptions, SendOptions,
};
use serde::{Deserialize, Serialize};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

/// A span's name and its fields.
type Span = (String, BTreeMap<String, String>);

/// Every span, by span id.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<BTreeMap<u64, Span>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Captured {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let mut spans = self.0.lock().expect("not poisoned");
        spans.insert(id.into_u64(), (attrs.metadata().name().to_owned(), fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.0.lock().expect("not poisoned");
        if let Some((_, fields)) = spans.get_mut(&id.into_u64()) {
            values.record(&mut Fields(fields));
        }
    }
}

fn capture(f: impl FnOnce()) -> Vec<Span> {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    tracing::subscriber::with_default(subscriber, f);
    let spans = captured.0.lock().expect("not poisoned");
    spans.values().cloned().collect()
}

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "traced-refund", version = 2)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub category: String,
    pub order_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn journey() -> Journey {
    Journey::new("triage-agent", "refund-specialist")
        .session("sess-42")
        .workflow("support-refund")
        .retry(2, "run-7")
}

#[test]
fn a_rejected_receive_is_one_span_with_the_journey_and_the_presence() {
    let spans = capture(|| {
        let payload = br#"{"category":"damaged","orderRef":"VALUE-1","x,y":1}"#;
        let _ = receive_with::<Refund>(payload, &ReceiveOptions::default().journey(journey()));
    });
    assert_eq!(spans.len(), 1);
    let (name, fields) = &spans[0];
    assert_eq!(name, "handoff");
    let field = |k: &str| fields.get(k).map(String::as_str);
    assert_eq!(field("otel.name"), Some("receive traced-refund/v2"));
    assert_eq!(field("handoff.contract"), Some("traced-refund/v2"));
    assert_eq!(field("handoff.direction"), Some("receive"));
    assert_eq!(field("gen_ai.conversation.id"), Some("sess-42"));
    assert_eq!(field("handoff.workflow"), Some("support-refund"));
    assert_eq!(field("handoff.from"), Some("triage-agent"));
    assert_eq!(field("handoff.to"), Some("refund-specialist"));
    assert_eq!(field("handoff.attempt"), Some("2"));
    assert_eq!(field("handoff.retry_of"), Some("run-7"));
    assert_eq!(field("handoff.received_fields"), Some(r#"["category"]"#));
    assert_eq!(field("handoff.missing_fields"), Some(r#"["orderId"]"#));
    // A name with a comma stays one item.
    assert_eq!(
        field("handoff.unknown_fields"),
        Some(r#"["orderRef","x,y"]"#)
    );
    assert_eq!(field("handoff.received_count"), Some("1"));
    assert_eq!(field("handoff.missing_count"), Some("1"));
    assert_eq!(field("handoff.unknown_count"), Some("2"));
    assert_eq!(field("handoff.outcome"), Some("rejected"));
    assert_eq!(field("handoff.problem_count"), Some("1"));
    let all = format!("{fields:?}");
    assert!(
        !all.contains("VALUE-1") && !all.contains("damaged"),
        "{all}"
    );
}

#[test]
fn an_accepted_send_is_one_span_too() {
    let spans = capture(|| {
        let refund = Refund {
            category: "damaged".into(),
            order_id: "VALUE-2".into(),
            note: None,
        };
        send_with(&refund, &SendOptions::default().journey(journey())).expect("valid");
    });
    assert_eq!(spans.len(), 1);
    let fields = &spans[0].1;
    let field = |k: &str| fields.get(k).map(String::as_str);
    assert_eq!(field("otel.name"), Some("send traced-refund/v2"));
    assert_eq!(field("handoff.direction"), Some("send"));
    assert_eq!(field("handoff.outcome"), Some("accepted"));
    // A send's span names what was written, not what arrived.
    assert_eq!(
        field("handoff.written_fields"),
        Some(r#"["category","orderId"]"#)
    );
    assert_eq!(field("handoff.written_count"), Some("2"));
    assert_eq!(field("handoff.received_fields"), None);
    assert_eq!(field("handoff.problem_count"), Some("0"));
    assert!(!format!("{fields:?}").contains("VALUE-2"));
}

/// What a JSON-formatting subscriber writes, line by line.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The JSON lines a `tracing_subscriber::fmt().json()` subscriber writes while `f` runs, with
/// an event when each span closes (which carries the span's busy time).
fn json_lines(f: impl FnOnce()) -> Vec<serde_json::Value> {
    let out = Output::default();
    let writer = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_max_level(tracing::Level::TRACE)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_current_span(true)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, f);
    let bytes = out.0.lock().expect("not poisoned").clone();
    String::from_utf8(bytes)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn a_rejection_warns_inside_its_entered_span_with_pointers_and_kinds() {
    let lines = json_lines(|| {
        let payload = br#"{"category":7,"orderRef":"VALUE-3"}"#;
        let _ = receive_with::<Refund>(payload, &ReceiveOptions::default().journey(journey()));
    });
    let text = serde_json::to_string(&lines).expect("serializes");
    assert!(!text.contains("VALUE-3"), "{text}");
    let warn = lines
        .iter()
        .find(|line| line["level"] == "WARN")
        .unwrap_or_else(|| panic!("a WARN event: {text}"));
    assert_eq!(warn["span"]["name"], "handoff", "inside the span: {text}");
    assert_eq!(warn["fields"]["handoff.problem_count"], 2);
    let problems: serde_json::Value =
        serde_json::from_str(warn["fields"]["handoff.problems"].as_str().expect("text"))
            .expect("a JSON array");
    let listed: Vec<(&str, &str)> = problems
        .as_array()
        .expect("an array")
        .iter()
        .map(|p| {
            (
                p["pointer"].as_str().expect("pointer"),
                p["kind"].as_str().expect("kind"),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [("/category", "wrong_type"), ("/orderId", "missing_field")]
    );
    // The span was entered around the work: its busy time is not zero.
    let close = lines
        .iter()
        .find(|line| line["fields"]["message"] == "close")
        .unwrap_or_else(|| panic!("the span's close event: {text}"));
    assert_eq!(close["level"], "INFO");
    assert_ne!(close["fields"]["time.busy"], "0.00ns", "{text}");
}

#[test]
fn a_rejection_lists_its_first_32_problems_and_counts_them_all() {
    #[derive(Debug, Deserialize, contract_core::HandoffSchema)]
    #[allow(dead_code)] // read by serde only
    struct Many {
        items: Vec<u32>,
    }
    let lines = json_lines(|| {
        let items = vec!["\"x\""; 40].join(",");
        let payload = format!(r#"{{"items":[{items}]}}"#);
        let _ = receive_with::<Many>(payload.as_bytes(), &ReceiveOptions::default());
    });
    let warn = lines
        .iter()
        .find(|line| line["level"] == "WARN")
        .expect("a WARN event");
    assert_eq!(warn["fields"]["handoff.problem_count"], 40);
    let problems: serde_json::Value =
        serde_json::from_str(warn["fields"]["handoff.problems"].as_str().expect("text"))
            .expect("a JSON array");
    let problems = problems.as_array().expect("an array");
    assert_eq!(problems.len(), 32);
    assert_eq!(problems[31]["pointer"], "/items/31");
}

#[test]
fn an_accepted_call_warns_nothing() {
    let lines = json_lines(|| {
        let payload = br#"{"category":"damaged","orderId":"A-1"}"#;
        receive_with::<Refund>(payload, &ReceiveOptions::default()).expect("valid");
    });
    assert!(lines.iter().all(|line| line["level"] != "WARN"));
    assert!(lines
        .iter()
        .any(|line| line["span"]["name"] == "handoff" || line["fields"]["message"] == "close"));
}

/// The envelope's calls: one span each, the payload's contract and presence (payload-relative)
/// with the envelope's id, context and journey, never a value.
mod envelope {
    use super::*;
    use contract_core::{receive_handoff, send_handoff, Handoff};

    fn handoff() -> Handoff<Refund> {
        let refund = Refund {
            category: "VALUE-cat".into(),
            order_id: "VALUE-order".into(),
            note: None,
        };
        Handoff::new("ctx-9", "h-9", "triage-agent", refund)
            .goal("VALUE-goal")
            .journey(journey())
            .ready()
    }

    #[test]
    fn a_send_handoff_and_a_receive_handoff_are_one_span_each() {
        let spans = capture(|| {
            let mut handoff = handoff();
            let sent = send_handoff(&mut handoff).expect("sent");
            receive_handoff::<Refund>(sent.bytes(), &ReceiveOptions::default()).expect("read");
        });
        assert_eq!(spans.len(), 2, "{spans:?}");
        for (name, fields) in &spans {
            assert_eq!(name, "handoff");
            let field = |k: &str| fields.get(k).map(String::as_str);
            let side = field("handoff.direction").expect("a direction");
            assert_eq!(
                field("otel.name"),
                Some(format!("{side}_handoff traced-refund/v2").as_str())
            );
            assert_eq!(field("handoff.contract"), Some("traced-refund/v2"));
            assert_eq!(field("handoff.envelope"), Some("handoff-envelope/v1"));
            assert_eq!(field("handoff.context_id"), Some("ctx-9"));
            assert_eq!(field("handoff.id"), Some("h-9"));
            // The receive was given no journey: the envelope's is recorded.
            assert_eq!(field("gen_ai.conversation.id"), Some("sess-42"));
            assert_eq!(field("handoff.from"), Some("triage-agent"));
            assert_eq!(field("handoff.attempt"), Some("2"));
            assert_eq!(field("handoff.outcome"), Some("accepted"));
            let fields_key = match side {
                "send" => "handoff.written_fields",
                _ => "handoff.received_fields",
            };
            // The payload's paths, not `payload.category`.
            assert_eq!(field(fields_key), Some(r#"["category","orderId"]"#));
            let all = format!("{fields:?}");
            assert!(!all.contains("VALUE-"), "{all}");
        }
    }

    #[test]
    fn a_refused_envelope_warns_with_pointers_from_its_root() {
        let lines = json_lines(|| {
            let payload = br#"{"schemaVersion":"handoff-envelope/v1","contract":"traced-refund/v2",
                "contextId":"ctx-9","handoffId":"h-9","goal":"VALUE-goal","owner":"o",
                "status":"ready","payload":{"category":7,"orderRef":"VALUE-3"}}"#;
            let _ =
                receive_handoff::<Refund>(payload, &ReceiveOptions::default().journey(journey()));
        });
        let text = serde_json::to_string(&lines).expect("serializes");
        assert!(!text.contains("VALUE-"), "{text}");
        let warn = lines
            .iter()
            .find(|line| line["level"] == "WARN")
            .unwrap_or_else(|| panic!("a WARN event: {text}"));
        assert_eq!(warn["span"]["name"], "handoff", "inside the span: {text}");
        let problems: serde_json::Value =
            serde_json::from_str(warn["fields"]["handoff.problems"].as_str().expect("text"))
                .expect("a JSON array");
        let pointers: Vec<&str> = problems
            .as_array()
            .expect("an array")
            .iter()
            .map(|p| p["pointer"].as_str().expect("pointer"))
            .collect();
        assert_eq!(pointers, ["/payload/category", "/payload/orderId"]);
        let close = lines
            .iter()
            .find(|line| line["fields"]["message"] == "close")
            .unwrap_or_else(|| panic!("the span's close event: {text}"));
        assert_eq!(close["span"]["handoff.outcome"], "rejected", "{text}");
        assert_eq!(close["span"]["handoff.id"], "h-9", "{text}");
    }
}
