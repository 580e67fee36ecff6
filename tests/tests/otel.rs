//! The `otel` feature: what an OpenTelemetry backend receives from the spans of `send`,
//! `receive`, the envelope's calls, `Inbox::accept` and (with `a2a`) the A2A reader, read back
//! from the SDK's in-memory span exporter; and the acceptance metrics, from the in-memory
//! metric exporter.
//!
//! Every span of every test goes through [`checked`]: no attribute key twice (OTLP requires
//! unique keys), no payload value in any attribute, event or status (the payloads carry
//! [`MARKER`]). Beside it, each test checks the GenAI operation, the agent names, the types
//! of the numbers (`i64`, which the layer exports as integers), and for every refusal the
//! status `Error` with its `error.type`.
#![cfg(feature = "otel")]

use std::collections::BTreeSet;
use std::convert::Infallible;

use contract_core::inbox::{AcceptError, Acceptance, Inbox, MemoryLedger, MemoryTx};
use contract_core::{
    receive_handoff, receive_with, send_handoff, send_to_with, send_with, ArtifactRef, Delivery,
    Handoff, HandoffContract, Journey, ReceiveOptions, SendOptions, Status as HandoffStatus,
};
use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry::{Array, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde::{Deserialize, Serialize};
use tracing_subscriber::layer::SubscriberExt;

/// In every value of every payload: found on no span.
const MARKER: &str = "SECRET-MARKER-7f3";

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "otel-refund", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub category: String,
    pub order_ref: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What a producer that never writes `orderRef` sends, for `send_to`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Triage {
    category: String,
}

fn refund() -> Refund {
    Refund {
        category: format!("{MARKER}-category"),
        order_ref: format!("{MARKER}-order"),
        note: None,
    }
}

/// The spans `f` produced, as the SDK exports them, each [`checked`].
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
    let spans = exporter.get_finished_spans().expect("spans");
    for span in &spans {
        checked(span);
    }
    spans
}

/// Fails on a key that a span (or one of its events) carries twice, and on the payloads'
/// marker anywhere in it.
fn checked(span: &SpanData) {
    let mut seen = BTreeSet::new();
    for kv in &span.attributes {
        assert!(
            seen.insert(kv.key.as_str()),
            "{}: the attribute {} twice: {:#?}",
            span.name,
            kv.key,
            span.attributes
        );
    }
    for event in span.events.iter() {
        let mut seen = BTreeSet::new();
        for kv in &event.attributes {
            assert!(
                seen.insert(kv.key.as_str()),
                "{}: the event attribute {} twice",
                span.name,
                kv.key
            );
        }
    }
    let mut all = vec![span.name.to_string()];
    all.extend(
        span.attributes
            .iter()
            .map(|kv| format!("{}={}", kv.key, kv.value)),
    );
    for event in span.events.iter() {
        all.push(event.name.to_string());
        all.extend(
            event
                .attributes
                .iter()
                .map(|kv| format!("{}={}", kv.key, kv.value)),
        );
    }
    if let Status::Error { description } = &span.status {
        all.push(description.to_string());
    }
    let all = all.join("\n");
    assert!(!all.contains(MARKER), "a payload value on the span: {all}");
}

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

/// A text attribute, `None` when absent; fails on another type.
fn text(span: &SpanData, key: &str) -> Option<String> {
    match attribute(span, key) {
        None => None,
        Some(Value::String(s)) => Some(s.as_str().to_owned()),
        Some(other) => panic!("{key} is not a string: {other:?}"),
    }
}

/// An integer attribute: it must be present, and exported as an `i64`.
fn int(span: &SpanData, key: &str) -> i64 {
    match attribute(span, key) {
        Some(Value::I64(n)) => *n,
        other => panic!("{}: {key} is not an i64: {other:?}", span.name),
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(Array::String(items))) => {
            items.iter().map(|s| s.as_str().to_owned()).collect()
        }
        other => panic!("not a string array: {other:?}"),
    }
}

/// The span's status is `Error` and its `error.type` is `error_type`.
fn refused_as(span: &SpanData, error_type: &str) {
    assert_eq!(
        text(span, "error.type").as_deref(),
        Some(error_type),
        "{}",
        span.name
    );
    assert!(
        matches!(span.status, Status::Error { .. }),
        "{}: {:?}",
        span.name,
        span.status
    );
}

/// The span is no error: no `error.type`, status unset.
fn not_refused(span: &SpanData) {
    assert_eq!(text(span, "error.type"), None, "{}", span.name);
    assert_eq!(span.status, Status::Unset, "{}", span.name);
}

/// The receive side's GenAI attributes: the receiving agent invoked by its caller.
fn invoke_agent(span: &SpanData, agent: &str, caller: &str) {
    assert_eq!(span.span_kind, SpanKind::Consumer, "{}", span.name);
    assert_eq!(
        text(span, "gen_ai.operation.name").as_deref(),
        Some("invoke_agent")
    );
    assert_eq!(text(span, "gen_ai.agent.name").as_deref(), Some(agent));
    assert_eq!(text(span, "gen_ai.caller.name").as_deref(), Some(caller));
    assert_eq!(text(span, "gen_ai.caller.type").as_deref(), Some("agent"));
    assert_eq!(text(span, "gen_ai.transfer.mode"), None);
    // The proposal's names are gone.
    assert_eq!(text(span, "gen_ai.agent.handoff.source.name"), None);
    assert_eq!(text(span, "gen_ai.agent.handoff.target.name"), None);
}

/// The send side's GenAI attributes: the source agent transferring control to the target.
fn execute_tool(span: &SpanData, tool: &str, agent: &str, target: &str) {
    assert_eq!(span.span_kind, SpanKind::Producer, "{}", span.name);
    assert_eq!(
        text(span, "gen_ai.operation.name").as_deref(),
        Some("execute_tool")
    );
    assert_eq!(text(span, "gen_ai.tool.name").as_deref(), Some(tool));
    assert_eq!(text(span, "gen_ai.agent.name").as_deref(), Some(agent));
    assert_eq!(
        text(span, "gen_ai.transfer.target.name").as_deref(),
        Some(target)
    );
    assert_eq!(
        text(span, "gen_ai.transfer.target.type").as_deref(),
        Some("agent")
    );
    assert_eq!(
        text(span, "gen_ai.transfer.mode").as_deref(),
        Some("pass_control")
    );
    assert_eq!(text(span, "gen_ai.caller.name"), None);
    assert_eq!(text(span, "gen_ai.agent.handoff.source.name"), None);
}

fn journey() -> Journey {
    Journey::new("triage-agent", "refund-specialist")
        .session("sess-42")
        .workflow("support-refund")
        .retry(2, "run-1")
}

#[test]
fn a_refused_receive_is_an_invoke_agent_span_with_arrays_integers_and_an_error() {
    let options = ReceiveOptions::default().journey(journey());
    let payload = format!(r#"{{"category":"{MARKER}","orderId":"{MARKER}"}}"#);
    let spans = exported(|| {
        assert!(receive_with::<Refund>(payload.as_bytes(), &options).is_err());
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    assert_eq!(span.name, "receive otel-refund/v1");
    invoke_agent(span, "refund-specialist", "triage-agent");
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
    assert_eq!(int(span, "handoff.received_count"), 1);
    assert_eq!(int(span, "handoff.missing_count"), 1);
    assert_eq!(int(span, "handoff.unknown_count"), 1);
    assert_eq!(int(span, "handoff.problem_count"), 1);
    assert_eq!(int(span, "handoff.attempt"), 2);
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("rejected"));
    assert_eq!(
        text(span, "handoff.contract").as_deref(),
        Some("otel-refund/v1")
    );
    assert_eq!(
        text(span, "gen_ai.conversation.id").as_deref(),
        Some("sess-42")
    );
    refused_as(span, "contract");
    assert_eq!(
        span.status,
        Status::error("receive refused: 1 problem"),
        "singular"
    );
    // The WARN event inside the span: its count an integer too.
    let warn = span.events.iter().next().expect("the WARN event");
    let count = warn
        .attributes
        .iter()
        .find(|kv| kv.key.as_str() == "handoff.problem_count")
        .map(|kv| &kv.value);
    assert_eq!(count, Some(&Value::I64(1)));
}

#[test]
fn a_receive_refused_as_not_json_says_so_and_counts_in_the_plural() {
    let spans = exported(|| {
        let _ = receive_with::<Refund>(
            b"{\"category\": 7, \"orderRef\": 8}",
            &ReceiveOptions::default(),
        );
        let _ = receive_with::<Refund>(b"{", &ReceiveOptions::default());
    });
    assert_eq!(spans.len(), 2);
    refused_as(&spans[0], "contract");
    assert_eq!(
        spans[0].status,
        Status::error("receive refused: 2 problems")
    );
    refused_as(&spans[1], "not_json");
    // No journey: no agent names, no attempt.
    assert_eq!(text(&spans[1], "gen_ai.agent.name"), None);
    assert_eq!(attribute(&spans[1], "handoff.attempt"), None);
    assert_eq!(
        text(&spans[1], "gen_ai.operation.name").as_deref(),
        Some("invoke_agent")
    );
}

#[test]
fn an_accepted_receive_has_no_error() {
    let options = ReceiveOptions::default().journey(journey());
    let payload = serde_json::to_vec(&refund()).unwrap();
    let spans = exported(|| {
        receive_with::<Refund>(&payload, &options).expect("received");
    });
    let span = &spans[0];
    invoke_agent(span, "refund-specialist", "triage-agent");
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("accepted"));
    assert_eq!(int(span, "handoff.problem_count"), 0);
    assert_eq!(int(span, "handoff.received_count"), 2);
    not_refused(span);
}

#[test]
fn an_accepted_send_is_an_execute_tool_transfer_from_the_sender_to_the_receiver() {
    let options = SendOptions::default().journey(journey());
    let spans = exported(|| {
        send_with(&refund(), &options).expect("sent");
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    assert_eq!(span.name, "send otel-refund/v1");
    execute_tool(span, "send", "triage-agent", "refund-specialist");
    assert_eq!(
        strings(attribute(span, "handoff.written_fields")),
        ["category", "orderRef"]
    );
    assert!(strings(attribute(span, "handoff.missing_fields")).is_empty());
    assert_eq!(int(span, "handoff.written_count"), 2);
    assert_eq!(int(span, "handoff.missing_count"), 0);
    assert_eq!(int(span, "handoff.unknown_count"), 0);
    assert_eq!(int(span, "handoff.attempt"), 2);
    assert_eq!(text(span, "handoff.retry_of").as_deref(), Some("run-1"));
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("accepted"));
    not_refused(span);
}

#[test]
fn a_refused_send_is_an_error_too() {
    let options = SendOptions::default().journey(journey());
    let spans = exported(|| {
        let triage = Triage {
            category: MARKER.into(),
        };
        assert!(send_to_with::<Refund, _>(&triage, &options).is_err());
    });
    let span = &spans[0];
    execute_tool(span, "send", "triage-agent", "refund-specialist");
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("rejected"));
    assert_eq!(
        strings(attribute(span, "handoff.missing_fields")),
        ["orderRef"]
    );
    assert_eq!(int(span, "handoff.problem_count"), 1);
    refused_as(span, "contract");
    assert_eq!(span.status, Status::error("send refused: 1 problem"));
}

fn handoff(handoff_id: &str, goal: &str, attempt: u32) -> Handoff<Refund> {
    let mut handoff = Handoff::new("ctx-otel", handoff_id, "triage-agent", refund()).goal(goal);
    handoff.status = HandoffStatus::Ready;
    let mut journey = Journey::new("triage-agent", "refund-specialist").workflow("support-refund");
    if attempt > 1 {
        journey = journey.retry(attempt, "run-1");
    } else {
        journey = journey.attempt(1);
    }
    handoff.journey = journey;
    handoff
}

fn envelope(handoff_id: &str, goal: &str, attempt: u32) -> Vec<u8> {
    send_handoff(&mut handoff(handoff_id, goal, attempt))
        .expect("sent")
        .into_bytes()
}

/// The envelope with its payload's `orderRef` removed, the rest as `send_handoff` wrote it:
/// the payload last, where `receive_handoff`'s fast path reads it on a guess, which fails, and
/// reads the envelope again.
fn without_order_ref(handoff_id: &str) -> Vec<u8> {
    let sent = String::from_utf8(envelope(handoff_id, "refund the order", 2)).unwrap();
    let member = format!(r#","orderRef":"{MARKER}-order""#);
    assert!(sent.contains(&member), "{sent}");
    assert!(sent.ends_with("}}"), "the payload last: {sent}");
    sent.replace(&member, "").into_bytes()
}

#[test]
fn an_envelope_s_spans_take_its_context_as_the_conversation_and_name_both_agents() {
    let spans = exported(|| {
        let bytes = send_handoff(&mut handoff("h-span", "refund the order", 3))
            .expect("sent")
            .into_bytes();
        receive_handoff::<Refund>(&bytes, &ReceiveOptions::default()).expect("received");
    });
    assert_eq!(spans.len(), 2, "{spans:#?}");
    let (send, receive) = (&spans[0], &spans[1]);
    assert_eq!(send.name, "send_handoff otel-refund/v1");
    execute_tool(send, "send_handoff", "triage-agent", "refund-specialist");
    assert_eq!(receive.name, "receive_handoff otel-refund/v1");
    invoke_agent(receive, "refund-specialist", "triage-agent");
    for span in [send, receive] {
        // No session in the journey: the envelope's context is the conversation.
        assert_eq!(
            text(span, "gen_ai.conversation.id").as_deref(),
            Some("ctx-otel")
        );
        assert_eq!(text(span, "handoff.id").as_deref(), Some("h-span"));
        assert_eq!(
            text(span, "handoff.context_id").as_deref(),
            Some("ctx-otel")
        );
        assert_eq!(int(span, "handoff.attempt"), 3);
        assert_eq!(int(span, "handoff.problem_count"), 0);
        not_refused(span);
    }
    assert_eq!(
        strings(attribute(receive, "handoff.received_fields")),
        ["category", "orderRef"]
    );
    assert_eq!(int(receive, "handoff.received_count"), 2);
}

#[test]
fn a_refused_envelope_read_twice_records_each_attribute_once() {
    let bytes = without_order_ref("h-twice");
    // The options name the session and the receiver; the envelope names the rest.
    let options = ReceiveOptions::default()
        .journey(Journey::default().session("sess-given").to("refund-desk"));
    let spans = exported(|| {
        assert!(receive_handoff::<Refund>(&bytes, &options).is_err());
    });
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let span = &spans[0];
    invoke_agent(span, "refund-desk", "triage-agent");
    assert_eq!(
        text(span, "gen_ai.conversation.id").as_deref(),
        Some("sess-given")
    );
    assert_eq!(text(span, "handoff.to").as_deref(), Some("refund-desk"));
    assert_eq!(text(span, "handoff.from").as_deref(), Some("triage-agent"));
    assert_eq!(
        text(span, "handoff.workflow").as_deref(),
        Some("support-refund")
    );
    assert_eq!(text(span, "handoff.id").as_deref(), Some("h-twice"));
    assert_eq!(int(span, "handoff.attempt"), 2);
    assert_eq!(
        strings(attribute(span, "handoff.missing_fields")),
        ["orderRef"]
    );
    assert_eq!(int(span, "handoff.problem_count"), 1);
    refused_as(span, "contract");
    assert_eq!(span.status, Status::error("receive refused: 1 problem"));
}

/// The `accept` span among `spans` (the others are the envelope's `receive_handoff`).
fn accept_span(spans: &[SpanData]) -> &SpanData {
    let accepts: Vec<&SpanData> = spans
        .iter()
        .filter(|s| s.name.starts_with("accept "))
        .collect();
    assert_eq!(accepts.len(), 1, "{spans:#?}");
    accepts[0]
}

/// What every `accept` span says, whatever its outcome: the handoff, its agents, its contract.
fn names_the_handoff(span: &SpanData, handoff_id: &str) {
    assert_eq!(span.name, "accept otel-refund/v1");
    invoke_agent(span, "refund-specialist", "triage-agent");
    assert_eq!(text(span, "handoff.id").as_deref(), Some(handoff_id));
    assert_eq!(
        text(span, "handoff.context_id").as_deref(),
        Some("ctx-otel")
    );
    assert_eq!(text(span, "handoff.from").as_deref(), Some("triage-agent"));
    assert_eq!(
        text(span, "handoff.to").as_deref(),
        Some("refund-specialist")
    );
    assert_eq!(
        text(span, "handoff.contract").as_deref(),
        Some("otel-refund/v1")
    );
    // No session: the context is the conversation.
    assert_eq!(
        text(span, "gen_ai.conversation.id").as_deref(),
        Some("ctx-otel")
    );
}

#[test]
fn every_acceptance_names_its_handoff_and_every_refusal_is_an_error() {
    let handler = |_: &mut MemoryTx<'_>, _: &Delivery<Refund>| Ok::<_, Infallible>(());
    let mut inbox = Inbox::new(MemoryLedger::new());
    let first = envelope("h-1", "refund the order", 1);
    let retried = envelope("h-1", "refund the order", 2);
    let changed = envelope("h-1", "refund half", 1);
    let draft = {
        let mut draft = handoff("h-draft", "refund the order", 1);
        draft.status = HandoffStatus::Draft;
        send_handoff(&mut draft).expect("sent").into_bytes()
    };
    let with_artifact = {
        let mut h = handoff("h-artifact", "refund the order", 1);
        h.artifacts
            .push(ArtifactRef::new("policy", "s3://policies/refund", 3));
        send_handoff(&mut h).expect("sent").into_bytes()
    };
    let rejected = without_order_ref("h-rejected");

    let applied = exported(|| {
        assert!(matches!(
            inbox.accept(&first, handler),
            Ok(Acceptance::Applied { .. })
        ));
    });
    let span = accept_span(&applied);
    names_the_handoff(span, "h-1");
    assert_eq!(text(span, "handoff.acceptance").as_deref(), Some("applied"));
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("accepted"));
    assert_eq!(int(span, "handoff.seq"), 1);
    assert_eq!(int(span, "handoff.attempt"), 1);
    assert!(text(span, "handoff.digest").is_some_and(|d| d.starts_with("sha256:")));
    assert!(strings(attribute(span, "handoff.missing_fields")).is_empty());
    assert_eq!(int(span, "handoff.missing_count"), 0);
    not_refused(span);

    // A retry of it: answered before its payload is read, and named all the same.
    let duplicate = exported(|| {
        assert!(matches!(
            inbox.accept(&retried, handler),
            Ok(Acceptance::Duplicate(_))
        ));
    });
    assert_eq!(duplicate.len(), 1, "no receive_handoff: {duplicate:#?}");
    let span = accept_span(&duplicate);
    names_the_handoff(span, "h-1");
    assert_eq!(
        text(span, "handoff.acceptance").as_deref(),
        Some("duplicate")
    );
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("accepted"));
    assert_eq!(int(span, "handoff.seq"), 1);
    assert_eq!(int(span, "handoff.attempt"), 2);
    assert_eq!(text(span, "handoff.retry_of").as_deref(), Some("run-1"));
    not_refused(span);

    for (bytes, handoff_id, reason) in [
        (&changed, "h-1", "conflict"),
        (&draft, "h-draft", "not_ready"),
        (&with_artifact, "h-artifact", "artifact_unavailable"),
        (&rejected, "h-rejected", "rejected"),
    ] {
        let spans = exported(|| {
            let err = inbox.accept(bytes, handler).map(|_| ()).unwrap_err();
            assert_eq!(err.as_str(), reason);
        });
        let span = accept_span(&spans);
        names_the_handoff(span, handoff_id);
        assert_eq!(text(span, "handoff.acceptance").as_deref(), Some(reason));
        refused_as(span, reason);
        assert_eq!(
            span.status,
            Status::error(format!("accept refused: {reason}")),
        );
        if reason == "rejected" {
            assert_eq!(text(span, "handoff.outcome").as_deref(), Some("rejected"));
            assert_eq!(int(span, "handoff.problem_count"), 1);
            assert_eq!(
                strings(attribute(span, "handoff.missing_fields")),
                ["orderRef"]
            );
            // The envelope's own span says why, as an error too.
            let receive = spans
                .iter()
                .find(|s| s.name.starts_with("receive_handoff"))
                .expect("the envelope's span");
            refused_as(receive, "contract");
        } else {
            // The payload read and accepted by its contract; the acceptance refused.
            assert_eq!(text(span, "handoff.outcome").as_deref(), Some("accepted"));
            assert_eq!(attribute(span, "handoff.problem_count"), None);
        }
    }

    // Not an envelope at all: refused, named by nothing it could not read.
    let spans = exported(|| {
        assert!(matches!(
            inbox.accept(b"{", handler),
            Err(AcceptError::Rejected(_))
        ));
    });
    let span = accept_span(&spans);
    refused_as(span, "rejected");
    assert_eq!(text(span, "handoff.id"), None);
    assert_eq!(text(span, "handoff.outcome").as_deref(), Some("rejected"));
}

#[test]
fn a_handler_failure_is_an_error_on_the_accept_span() {
    #[derive(Debug)]
    struct Failed;
    let mut inbox = Inbox::new(MemoryLedger::new());
    let bytes = envelope("h-fail", "refund the order", 1);
    let spans = exported(|| {
        let failing = |_: &mut MemoryTx<'_>, _: &Delivery<Refund>| Err::<(), _>(Failed);
        assert!(matches!(
            inbox.accept(&bytes, failing),
            Err(AcceptError::Handler(Failed))
        ));
    });
    let span = accept_span(&spans);
    names_the_handoff(span, "h-fail");
    refused_as(span, "handler");
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
    let first = envelope("h-m1", "refund the order", 1);
    assert!(matches!(
        inbox.accept(&first, handler),
        Ok(Acceptance::Applied { .. })
    ));
    // The same handoff retried: a duplicate, and a retry.
    let retried = envelope("h-m1", "refund the order", 2);
    assert!(matches!(
        inbox.accept(&retried, handler),
        Ok(Acceptance::Duplicate(_))
    ));
    // The same key with another goal: a conflict.
    let changed = envelope("h-m1", "refund half", 1);
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
    // Other tests of this binary accept on the same global meter provider, once it is set:
    // only this test's points (at least) are asserted.
    let acceptances = points(&metrics, "handoff.acceptances");
    for expected in [
        vec![contract.clone(), outcome("applied")],
        vec![contract.clone(), outcome("conflict")],
        vec![contract.clone(), outcome("duplicate")],
        vec![
            contract.clone(),
            outcome("refused"),
            "handoff.reason=rejected".to_owned(),
        ],
    ] {
        assert!(
            acceptances.iter().any(|(a, n)| *a == expected && *n >= 1.0),
            "{expected:?} in {acceptances:?}"
        );
    }
    assert!(points(&metrics, "handoff.retries")
        .iter()
        .any(|(a, n)| *a == [contract.clone()] && *n >= 1.0));
    assert!(points(&metrics, "handoff.owner_conflicts").is_empty());
    let sizes: f64 = points(&metrics, "handoff.envelope.size")
        .iter()
        .map(|p| p.1)
        .sum();
    assert!(sizes >= 4.0, "one size per envelope offered");
    let latencies: f64 = points(&metrics, "handoff.accept.duration")
        .iter()
        .map(|p| p.1)
        .sum();
    assert!(latencies >= 4.0, "one latency per accept");
    let all = format!("{metrics:?}");
    assert!(!all.contains(MARKER), "a value in the metrics");
}

/// The A2A reader (feature `a2a`): one span per Message or Artifact read, the payload read
/// without a span of its own.
#[cfg(feature = "a2a")]
mod a2a {
    use super::*;
    use contract_core::a2a::{A2a, ArtifactHead, MessageHead, Role};

    const BASE: &str = "https://example.com/contracts/";

    fn a2a() -> A2a {
        A2a::new(BASE)
    }

    fn message() -> Vec<u8> {
        let head = MessageHead::new("msg-1", Role::Agent)
            .context("ctx-a2a")
            .task("task-9");
        a2a()
            .message(&head, &refund())
            .expect("written")
            .into_bytes()
    }

    /// `message()` as JSON, changed by `f`.
    fn changed(f: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
        let mut value: serde_json::Value = serde_json::from_slice(&message()).unwrap();
        f(&mut value);
        serde_json::to_vec(&value).unwrap()
    }

    fn options() -> ReceiveOptions {
        ReceiveOptions::default().journey(Journey::new("triage-agent", "refund-specialist"))
    }

    /// The one span of reading `bytes` as a Message, and whether the read accepted it.
    fn read_message(bytes: &[u8], options: &ReceiveOptions) -> (SpanData, bool) {
        let mut accepted = false;
        let spans = exported(|| {
            accepted = a2a().receive_message::<Refund>(bytes, options).is_ok();
        });
        assert_eq!(spans.len(), 1, "one span, no payload span: {spans:#?}");
        (spans.into_iter().next().unwrap(), accepted)
    }

    #[test]
    fn an_accepted_message_is_an_invoke_agent_span_with_a2a_s_ids() {
        let (span, accepted) = read_message(&message(), &options());
        assert!(accepted);
        assert_eq!(span.name, "receive_a2a otel-refund/v1");
        invoke_agent(&span, "refund-specialist", "triage-agent");
        assert_eq!(text(&span, "a2a.message.id").as_deref(), Some("msg-1"));
        assert_eq!(text(&span, "a2a.task.id").as_deref(), Some("task-9"));
        assert_eq!(text(&span, "a2a.protocol.version").as_deref(), Some("1.0"));
        assert_eq!(
            text(&span, "handoff.a2a.object").as_deref(),
            Some("message")
        );
        // No session: the Message's context is the conversation.
        assert_eq!(
            text(&span, "gen_ai.conversation.id").as_deref(),
            Some("ctx-a2a")
        );
        assert_eq!(text(&span, "handoff.outcome").as_deref(), Some("accepted"));
        assert_eq!(
            strings(attribute(&span, "handoff.received_fields")),
            ["category", "orderRef"]
        );
        assert_eq!(int(&span, "handoff.received_count"), 2);
        assert_eq!(int(&span, "handoff.problem_count"), 0);
        not_refused(&span);

        // A session named: it is the conversation.
        let (span, _) = read_message(&message(), &ReceiveOptions::default().journey(journey()));
        assert_eq!(
            text(&span, "gen_ai.conversation.id").as_deref(),
            Some("sess-42")
        );
        assert_eq!(int(&span, "handoff.attempt"), 2);
    }

    #[test]
    fn a_message_refused_at_the_a2a_level_is_an_error_of_the_protocol() {
        // No contract extension: the payload is not read.
        let no_extension = changed(|m| {
            m.as_object_mut().unwrap().remove("extensions");
        });
        let (span, accepted) = read_message(&no_extension, &options());
        assert!(!accepted);
        refused_as(&span, "protocol");
        assert_eq!(text(&span, "handoff.outcome").as_deref(), Some("rejected"));
        assert_eq!(int(&span, "handoff.problem_count"), 1);
        assert_eq!(attribute(&span, "handoff.received_fields"), None);
        assert_eq!(text(&span, "a2a.message.id").as_deref(), Some("msg-1"));
        assert_eq!(
            span.status,
            Status::error("receive of A2A Message refused: 1 problem")
        );

        // A2A 0.3's role: the payload is read and fine, the Message is refused.
        let earlier = changed(|m| m["role"] = "agent".into());
        let (span, accepted) = read_message(&earlier, &options());
        assert!(!accepted);
        refused_as(&span, "protocol");
        assert_eq!(text(&span, "handoff.outcome").as_deref(), Some("rejected"));
        assert_eq!(
            strings(attribute(&span, "handoff.received_fields")),
            ["category", "orderRef"]
        );
        invoke_agent(&span, "refund-specialist", "triage-agent");
    }

    #[test]
    fn a_message_refused_in_its_payload_is_an_error_of_the_contract() {
        let missing = changed(|m| {
            m["parts"][0]["data"]
                .as_object_mut()
                .unwrap()
                .remove("orderRef");
        });
        let (span, accepted) = read_message(&missing, &options());
        assert!(!accepted);
        refused_as(&span, "contract");
        assert_eq!(text(&span, "handoff.outcome").as_deref(), Some("rejected"));
        assert_eq!(
            strings(attribute(&span, "handoff.missing_fields")),
            ["orderRef"]
        );
        assert_eq!(int(&span, "handoff.missing_count"), 1);
        assert_eq!(int(&span, "handoff.problem_count"), 1);
    }

    #[test]
    fn an_artifact_has_its_span_too() {
        let head = ArtifactHead::new("art-1").name("refund");
        let bytes = a2a()
            .artifact(&head, &refund())
            .expect("written")
            .into_bytes();
        let spans = exported(|| {
            a2a()
                .receive_artifact::<Refund>(&bytes, &options())
                .expect("read");
        });
        assert_eq!(spans.len(), 1, "{spans:#?}");
        let span = &spans[0];
        assert_eq!(
            text(span, "handoff.a2a.object").as_deref(),
            Some("artifact")
        );
        assert_eq!(text(span, "handoff.artifact_id").as_deref(), Some("art-1"));
        assert_eq!(text(span, "a2a.message.id"), None);
        invoke_agent(span, "refund-specialist", "triage-agent");
        not_refused(span);
    }
}
