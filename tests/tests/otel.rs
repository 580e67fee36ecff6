//! The `otel` feature: what an OpenTelemetry backend receives from the spans of `send` and
//! `receive`, read back from the SDK's in-memory span exporter: presence lists as string
//! arrays, the span kind, the GenAI agent names, `error.type` and the status; never a value.
#![cfg(feature = "otel")]

use contract_core::{
    receive_with, send_with, HandoffContract, Journey, ReceiveOptions, SendOptions,
};
use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry::{Array, Value};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde::{Deserialize, Serialize};
use tracing_subscriber::layer::SubscriberExt;

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "otel-refund", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub category: String,
    pub order_ref: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The spans `f` produced, as the SDK exports them.
fn exported(f: impl FnOnce()) -> Vec<SpanData> {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let tracer = provider.tracer("otel-test");
    let subscriber =
        tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
    tracing::subscriber::with_default(subscriber, f);
    provider.force_flush().expect("flushed");
    exporter.get_finished_spans().expect("spans")
}

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(Array::String(items))) => {
            items.iter().map(|s| s.as_str().to_owned()).collect()
        }
        other => panic!("not a string array: {other:?}"),
    }
}

fn journey() -> Journey {
    Journey::new("triage-agent", "refund-specialist")
        .session("sess-42")
        .workflow("support-refund")
}

/// Every attribute value as text, to look for a payload's value.
fn all_values(span: &SpanData) -> String {
    span.attributes
        .iter()
        .map(|kv| format!("{}={}", kv.key, kv.value))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_refused_receive_is_a_consumer_span_with_arrays_the_agent_names_and_an_error() {
    let options = ReceiveOptions::default().journey(journey());
    let spans = exported(|| {
        let refused = receive_with::<Refund>(
            br#"{"category":"SECRET-CATEGORY","orderId":"SECRET-ORDER"}"#,
            &options,
        );
        assert!(refused.is_err());
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    assert_eq!(span.name, "receive otel-refund/v1");
    assert_eq!(span.span_kind, SpanKind::Consumer);
    assert_eq!(
        strings(attribute(span, "handoff.received_fields")),
        ["category"]
    );
    assert_eq!(
        strings(attribute(span, "handoff.missing_fields")),
        ["orderRef"]
    );
    assert_eq!(
        strings(attribute(span, "handoff.unknown_fields")),
        ["orderId"]
    );
    let text = |key| attribute(span, key).map(Value::to_string);
    assert_eq!(text("gen_ai.conversation.id").as_deref(), Some("sess-42"));
    assert_eq!(
        text("gen_ai.agent.name").as_deref(),
        Some("refund-specialist")
    );
    assert_eq!(
        text("gen_ai.agent.handoff.source.name").as_deref(),
        Some("triage-agent")
    );
    assert_eq!(
        text("gen_ai.agent.handoff.target.name").as_deref(),
        Some("refund-specialist")
    );
    assert_eq!(text("error.type").as_deref(), Some("contract"));
    assert_eq!(text("gen_ai.operation.name"), None);
    assert!(
        matches!(&span.status, Status::Error { description } if description.contains("receive refused")),
        "{:?}",
        span.status
    );
    let values = all_values(span);
    assert!(!values.contains("SECRET"), "a value on the span: {values}");
}

#[test]
fn an_accepted_send_is_a_producer_span_naming_the_sender_as_the_agent() {
    let options = SendOptions::default().journey(journey());
    let spans = exported(|| {
        let refund = Refund {
            category: "SECRET-CATEGORY".into(),
            order_ref: "SECRET-ORDER".into(),
            note: None,
        };
        send_with(&refund, &options).expect("sent");
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    assert_eq!(span.name, "send otel-refund/v1");
    assert_eq!(span.span_kind, SpanKind::Producer);
    assert_eq!(
        strings(attribute(span, "handoff.written_fields")),
        ["category", "orderRef"]
    );
    assert!(strings(attribute(span, "handoff.missing_fields")).is_empty());
    assert_eq!(
        attribute(span, "gen_ai.agent.name")
            .map(Value::to_string)
            .as_deref(),
        Some("triage-agent")
    );
    assert_eq!(attribute(span, "error.type"), None);
    assert_eq!(span.status, Status::Unset);
    let values = all_values(span);
    assert!(!values.contains("SECRET"), "a value on the span: {values}");
}
