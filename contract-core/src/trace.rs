//! Spans for `send` and `receive` (feature `tracing`): one span per call, named and
//! attributed so that OpenTelemetry backends file it.
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `receive refund-request/v2` (`send …`) |
//! | `handoff.contract` | the contract id |
//! | `handoff.direction` | `send` or `receive` |
//! | `gen_ai.conversation.id` | the journey's session id |
//! | `handoff.workflow`, `handoff.from`, `handoff.to`, `handoff.attempt`, `handoff.retry_of` | the journey |
//! | `handoff.received_fields`, `handoff.missing_fields`, `handoff.unknown_fields` | JSON arrays of paths (unambiguous when a name holds a comma) |
//! | `handoff.received_count`, `handoff.missing_count`, `handoff.unknown_count` | their lengths (unknown: with those past the cap) |
//! | `handoff.outcome` | `accepted` or `rejected` |
//! | `handoff.problem_count` | how many problems a rejection listed |
//!
//! No field holds a value of the payload.

use contract_schema::Schema;

use crate::runtime::options::Journey;
use crate::runtime::presence::Presence;
use crate::runtime::problem::{Rejection, Side};

/// The span of one call (nothing without the `tracing` feature).
#[cfg(feature = "tracing")]
pub(crate) type CallSpan = tracing::Span;
/// Without the `tracing` feature a call has no span.
#[cfg(not(feature = "tracing"))]
pub(crate) struct CallSpan;

/// Opens the span of a call.
#[cfg(feature = "tracing")]
pub(crate) fn start(side: Side, schema: &Schema, journey: &Journey) -> CallSpan {
    use tracing::field::Empty;
    // Written only if a subscriber records the span: nothing is built for a disabled one.
    let contract = ContractName(schema);
    let span = tracing::info_span!(
        "handoff",
        otel.name = %format_args!("{} {contract}", side.as_str()),
        handoff.contract = %contract,
        handoff.direction = side.as_str(),
        gen_ai.conversation.id = journey.session_id.as_deref(),
        handoff.workflow = journey.workflow_name.as_deref(),
        handoff.from = journey.handoff_from.as_deref(),
        handoff.to = journey.handoff_to.as_deref(),
        handoff.attempt = journey.attempt,
        handoff.retry_of = journey.retry_of.as_deref(),
        handoff.received_fields = Empty,
        handoff.missing_fields = Empty,
        handoff.unknown_fields = Empty,
        handoff.received_count = Empty,
        handoff.missing_count = Empty,
        handoff.unknown_count = Empty,
        handoff.outcome = Empty,
        handoff.problem_count = Empty,
    );
    span
}

/// The contract id of a schema as a span shows it (`payload` for a schema of no contract).
#[cfg(feature = "tracing")]
#[derive(Clone, Copy)]
struct ContractName<'a>(&'a Schema);

#[cfg(feature = "tracing")]
impl std::fmt::Display for ContractName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0.contract {
            Some(id) => std::fmt::Display::fmt(id, f),
            None => f.write_str("payload"),
        }
    }
}

/// Records the outcome of a call on its span.
#[cfg(feature = "tracing")]
pub(crate) fn finish(span: &CallSpan, result: Result<&Presence, &Rejection>) {
    if span.is_disabled() {
        // No subscriber wants the span: the presence is not rendered for it.
        return;
    }
    let (presence, outcome, problems) = match result {
        Ok(p) => (p, "accepted", 0),
        Err(r) => (r.presence(), "rejected", r.problems().len()),
    };
    let json = |items: &[crate::runtime::presence::FieldPath]| {
        serde_json::to_string(items).unwrap_or_default()
    };
    span.record(
        "handoff.received_fields",
        json(presence.received()).as_str(),
    );
    span.record("handoff.missing_fields", json(presence.missing()).as_str());
    span.record("handoff.unknown_fields", json(presence.unknown()).as_str());
    span.record("handoff.received_count", presence.received().len() as u64);
    span.record("handoff.missing_count", presence.missing().len() as u64);
    span.record(
        "handoff.unknown_count",
        presence.unknown().len() as u64 + presence.unknown_omitted(),
    );
    span.record("handoff.outcome", outcome);
    span.record("handoff.problem_count", problems as u64);
}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn start(_: Side, _: &Schema, _: &Journey) -> CallSpan {
    CallSpan
}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn finish(_: &CallSpan, _: Result<&Presence, &Rejection>) {}
