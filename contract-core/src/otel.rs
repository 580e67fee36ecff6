//! OpenTelemetry on the spans and the acceptance metrics (feature `otel`).
//!
//! The spans stay `tracing` spans, whose fields `tracing-opentelemetry` exports as attributes
//! by name (`otel.name` and `otel.kind` as the span's name and kind); the `trace`,
//! `inbox::span` and `a2a::span` modules list them, and the [`semconv`](crate::semconv)
//! module the semantic conventions they follow (GenAI, Development status, pinned there).
//! Each attribute is recorded once per span: OTLP requires unique keys, and neither the layer
//! nor the SDK merges a key set twice. What a `tracing` field cannot say is set through
//! [`tracing_opentelemetry::OpenTelemetrySpanExt`], and only when an OpenTelemetry layer
//! stands behind the span (else nothing is built):
//!
//! | attribute | value |
//! |---|---|
//! | `handoff.received_fields` / `handoff.written_fields`, `handoff.missing_fields`, `handoff.unknown_fields` | string arrays of paths (without an OpenTelemetry layer: JSON strings, as `tracing` fields) |
//! | the span status | `Error` on every refusal (a call's rejection, an acceptance's refusal or failure, an A2A object refused), described without a value: `receive refused: 1 problem`, `accept refused: not_ready` |
//!
//! With the status goes `error.type`, a field of the span: a rejection's class (`not_json`,
//! `limit`, `contract`, `protocol`) or an acceptance's reason (`not_ready`, `conflict`, …).
//! Every count, the attempt and the sequence number are `i64` fields, exported as integers
//! (`tracing-opentelemetry` 0.34 exports a `u64` as text).
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

/// Sets the span's OpenTelemetry status to `Error`, with a description that names no
/// value (nothing without an OpenTelemetry layer behind the span).
pub(crate) fn error_status(span: &tracing::Span, description: &str) {
    if has_otel_span(span) {
        span.set_status(Status::error(description.to_owned()));
    }
}

/// What one `accept` did, for the metrics.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the inbox's, which needs `derive`
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
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the inbox's, which needs `derive`
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
