//! OpenTelemetry on the spans and the acceptance metrics (feature `otel`).
//!
//! The spans stay `tracing` spans; what OpenTelemetry needs that a `tracing` field cannot say
//! is set through [`tracing_opentelemetry::OpenTelemetrySpanExt::set_attribute`], and only when
//! an OpenTelemetry layer stands behind the span (else nothing is built):
//!
//! | attribute | value |
//! |---|---|
//! | `handoff.received_fields` / `handoff.written_fields`, `handoff.missing_fields`, `handoff.unknown_fields` | string arrays of paths (without an OpenTelemetry layer: JSON strings, as `tracing` fields) |
//! | `gen_ai.agent.name` | the side running: the journey's `handoffFrom` on a send, `handoffTo` on a receive |
//! | `gen_ai.agent.handoff.source.name`, `gen_ai.agent.handoff.target.name` | the journey's `handoffFrom`, `handoffTo` (proposed, unstable names) |
//! | `error.type` | a refusal's class: `not_json`, `limit` or `contract`; an acceptance's refusal reason |
//!
//! `otel.kind` (`producer` on a send, `consumer` on a receive) and `gen_ai.conversation.id` are
//! `tracing` fields of the span, which `tracing-opentelemetry` maps by name. A refused call also
//! gets the span status `Error`, described by its side and problem count. Not set:
//! `gen_ai.operation.name`, since a handoff received is no agent invocation.
//!
//! The metrics (meter `handoff-contract`, through [`opentelemetry::global::meter`], so the
//! application's meter provider receives them):
//!
//! | instrument | kind | attributes |
//! |---|---|---|
//! | `handoff.acceptances` | counter | `handoff.outcome` (`applied`, `duplicate`, `conflict`, `refused`, `failed`), `handoff.reason` for a refusal, `handoff.contract` |
//! | `handoff.retries` | counter | `handoff.contract`: acceptances of an envelope whose `attempt` is above 1 |
//! | `handoff.owner_conflicts` | counter | `handoff.contract`: applied with an [`OwnerConflict`](crate::inbox::Warning::OwnerConflict) warning |
//! | `handoff.envelope.size` | histogram, `By` | `handoff.outcome`: the bytes of each envelope offered |
//! | `handoff.accept.duration` | histogram, `s` | `handoff.outcome`: the time of each `accept` |
//!
//! No attribute holds a value of a payload or an envelope: names of fields, contract ids,
//! outcomes and reasons only.

use opentelemetry::trace::{Status, TraceContextExt};
use opentelemetry::{Array, KeyValue, StringValue, Value};
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Whether an OpenTelemetry layer stands behind the span (it gave the span a valid context).
pub(crate) fn has_otel_span(span: &tracing::Span) -> bool {
    !span.is_disabled() && span.context().span().span_context().is_valid()
}

/// The agent names of a call's journey on its span: the side running, the source, the target.
pub(crate) fn on_start(span: &tracing::Span, sending: bool, from: Option<&str>, to: Option<&str>) {
    if !has_otel_span(span) {
        return;
    }
    let running = if sending { from } else { to };
    if let Some(name) = running {
        span.set_attribute("gen_ai.agent.name", name.to_owned());
    }
    if let Some(name) = from {
        span.set_attribute("gen_ai.agent.handoff.source.name", name.to_owned());
    }
    if let Some(name) = to {
        span.set_attribute("gen_ai.agent.handoff.target.name", name.to_owned());
    }
}

/// A list of field paths as an OpenTelemetry string array.
pub(crate) fn string_array<'a>(items: impl IntoIterator<Item = &'a str>) -> Value {
    Value::Array(Array::String(
        items
            .into_iter()
            .map(|item| StringValue::from(item.to_owned()))
            .collect(),
    ))
}

/// Sets one attribute on the span's OpenTelemetry span.
pub(crate) fn set(span: &tracing::Span, key: &'static str, value: impl Into<Value>) {
    span.set_attribute(key, value);
}

/// Marks the span's OpenTelemetry span as failed: `error.type` and the status `Error` with a
/// description that names no value.
pub(crate) fn refused(span: &tracing::Span, error_type: &'static str, description: String) {
    span.set_attribute("error.type", error_type);
    span.set_status(Status::error(description));
}

/// What one `accept` did, for the metrics.
pub(crate) struct Accepted<'a> {
    /// `applied`, `duplicate`, `conflict`, `refused` or `failed`.
    pub(crate) outcome: &'static str,
    /// Why a refusal refused (`rejected`, `not_ready`, …); `None` otherwise.
    pub(crate) reason: Option<&'static str>,
    /// The payload's contract id, when the envelope named one that could be read.
    pub(crate) contract: Option<&'a str>,
    /// The envelope's `journey.attempt`.
    pub(crate) attempt: Option<u32>,
    /// Whether the acceptance carried an owner-conflict warning.
    pub(crate) owner_conflict: bool,
    /// The envelope's size in bytes.
    pub(crate) bytes: usize,
    /// How long the call took.
    pub(crate) duration: std::time::Duration,
}

/// Records one `accept` on the global meter provider's `handoff-contract` meter.
pub(crate) fn record_acceptance(accepted: &Accepted<'_>) {
    let meter = opentelemetry::global::meter("handoff-contract");
    let contract = accepted
        .contract
        .map(|id| KeyValue::new("handoff.contract", id.to_owned()));
    let mut attributes = vec![KeyValue::new("handoff.outcome", accepted.outcome)];
    if let Some(reason) = accepted.reason {
        attributes.push(KeyValue::new("handoff.reason", reason));
    }
    attributes.extend(contract.clone());
    meter
        .u64_counter("handoff.acceptances")
        .with_description("Envelopes offered to an inbox, by outcome")
        .build()
        .add(1, &attributes);
    let by_contract: Vec<KeyValue> = contract.into_iter().collect();
    if accepted.attempt.is_some_and(|attempt| attempt > 1) {
        meter
            .u64_counter("handoff.retries")
            .with_description("Envelopes offered again (journey.attempt above 1)")
            .build()
            .add(1, &by_contract);
    }
    if accepted.owner_conflict {
        meter
            .u64_counter("handoff.owner_conflicts")
            .with_description(
                "Handoffs applied from an agent that is not the owner of the context's last accepted one",
            )
            .build()
            .add(1, &by_contract);
    }
    let outcome = [KeyValue::new("handoff.outcome", accepted.outcome)];
    meter
        .u64_histogram("handoff.envelope.size")
        .with_description("The size of each envelope offered to an inbox")
        .with_unit("By")
        .build()
        .record(accepted.bytes as u64, &outcome);
    meter
        .f64_histogram("handoff.accept.duration")
        .with_description("The time of each accept, the handler's included")
        .with_unit("s")
        .build()
        .record(accepted.duration.as_secs_f64(), &outcome);
}
