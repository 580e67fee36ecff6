//! The `otel` feature: what an OpenTelemetry backend receives from the spans of `send` and
//! `receive`, read back from the SDK's in-memory span exporter: presence lists as string
//! arrays, the span kind, the GenAI agent names, `error.type` and the status; and the
//! acceptance metrics, from the in-memory metric exporter; never a value.
#![cfg(feature = "otel")]

use std::convert::Infallible;

use contract_core::inbox::{AcceptError, Acceptance, Inbox, MemoryLedger, MemoryTx};
use contract_core::{
    receive_handoff, receive_with, send_handoff, send_with, Delivery, Handoff, HandoffContract,
    Journey, ReceiveOptions, SendOptions, Status as HandoffStatus,
};
use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry::{Array, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
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

fn envelope(handoff_id: &str, goal: &str, attempt: u32) -> Vec<u8> {
    let refund = Refund {
        category: "SECRET-CATEGORY".into(),
        order_ref: "SECRET-ORDER".into(),
        note: None,
    };
    let mut handoff = Handoff::new("ctx-otel", handoff_id, "triage-agent", refund).goal(goal);
    handoff.status = HandoffStatus::Ready;
    let mut journey = Journey::new("triage-agent", "refund-specialist");
    if attempt > 1 {
        journey = journey.retry(attempt, "run-1");
    }
    handoff.journey = journey;
    send_handoff(&mut handoff).expect("sent").into_bytes()
}

#[test]
fn an_envelope_s_spans_take_its_context_as_the_conversation_and_name_both_agents() {
    let bytes = envelope("h-span", "refund the order", 1);
    let spans = exported(|| {
        receive_handoff::<Refund>(&bytes, &ReceiveOptions::default()).expect("received");
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    assert_eq!(span.span_kind, SpanKind::Consumer);
    let text = |key| attribute(span, key).map(Value::to_string);
    // No session in the journey: the envelope's context is the conversation.
    assert_eq!(text("gen_ai.conversation.id").as_deref(), Some("ctx-otel"));
    assert_eq!(
        text("gen_ai.agent.name").as_deref(),
        Some("refund-specialist")
    );
    assert_eq!(
        text("gen_ai.agent.handoff.source.name").as_deref(),
        Some("triage-agent")
    );
    assert_eq!(
        strings(attribute(span, "handoff.received_fields")),
        ["category", "orderRef"]
    );
    let values = all_values(span);
    assert!(!values.contains("SECRET"), "a value on the span: {values}");
}

/// One metric's data points: (attributes as `key=value` text, sorted; the sum or count).
fn points(metrics: &[ResourceMetrics], name: &str) -> Vec<(Vec<String>, f64)> {
    let mut found = Vec::new();
    for resource in metrics {
        for scope in resource.scope_metrics() {
            for metric in scope.metrics().filter(|m| m.name() == name) {
                let attributes = |kvs: &mut dyn Iterator<Item = &opentelemetry::KeyValue>| {
                    let mut kvs: Vec<String> =
                        kvs.map(|kv| format!("{}={}", kv.key, kv.value)).collect();
                    kvs.sort();
                    kvs
                };
                match metric.data() {
                    AggregatedMetrics::U64(MetricData::Sum(sum)) => {
                        for point in sum.data_points() {
                            found.push((attributes(&mut point.attributes()), point.value() as f64));
                        }
                    }
                    AggregatedMetrics::U64(MetricData::Histogram(histogram)) => {
                        for point in histogram.data_points() {
                            found.push((attributes(&mut point.attributes()), point.count() as f64));
                        }
                    }
                    AggregatedMetrics::F64(MetricData::Histogram(histogram)) => {
                        for point in histogram.data_points() {
                            found.push((attributes(&mut point.attributes()), point.count() as f64));
                        }
                    }
                    other => panic!("{name}: unexpected data {other:?}"),
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn acceptances_are_counted_by_outcome_with_retries_sizes_and_latency() {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    opentelemetry::global::set_meter_provider(provider.clone());

    let mut inbox = Inbox::new(MemoryLedger::new());
    let handler = |_: &mut MemoryTx<'_>, _: &Delivery<Refund>| Ok::<_, Infallible>(());
    let first = envelope("h-1", "refund the order", 1);
    assert!(matches!(
        inbox.accept(&first, handler),
        Ok(Acceptance::Applied { .. })
    ));
    // The same handoff retried: a duplicate, and a retry.
    let retried = envelope("h-1", "refund the order", 2);
    assert!(matches!(
        inbox.accept(&retried, handler),
        Ok(Acceptance::Duplicate(_))
    ));
    // The same key with another goal: a conflict.
    let changed = envelope("h-1", "refund half", 1);
    assert!(matches!(
        inbox.accept(&changed, handler),
        Err(AcceptError::Conflict { .. })
    ));
    // Not an envelope at all: refused, rejected.
    assert!(matches!(
        inbox.accept(b"{", handler),
        Err(AcceptError::Rejected(_))
    ));

    provider.force_flush().expect("flushed");
    let metrics = exporter.get_finished_metrics().expect("metrics");
    let contract = "handoff.contract=otel-refund/v1".to_owned();
    let outcome = |o: &str| format!("handoff.outcome={o}");
    assert_eq!(
        points(&metrics, "handoff.acceptances"),
        [
            (vec![contract.clone(), outcome("applied")], 1.0),
            (vec![contract.clone(), outcome("conflict")], 1.0),
            (vec![contract.clone(), outcome("duplicate")], 1.0),
            (
                vec![
                    contract.clone(),
                    outcome("refused"),
                    "handoff.reason=rejected".to_owned()
                ],
                1.0
            ),
        ]
    );
    assert_eq!(
        points(&metrics, "handoff.retries"),
        [(vec![contract.clone()], 1.0)]
    );
    assert!(points(&metrics, "handoff.owner_conflicts").is_empty());
    let sizes: f64 = points(&metrics, "handoff.envelope.size")
        .iter()
        .map(|p| p.1)
        .sum();
    assert_eq!(sizes, 4.0, "one size per envelope offered");
    let latencies: f64 = points(&metrics, "handoff.accept.duration")
        .iter()
        .map(|p| p.1)
        .sum();
    assert_eq!(latencies, 4.0, "one latency per accept");
    let all = format!("{metrics:?}");
    assert!(!all.contains("SECRET"), "a value in the metrics");
}
