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
//! | `handoff.received_fields` (receive) or `handoff.written_fields` (send), `handoff.missing_fields`, `handoff.unknown_fields` | JSON arrays of paths (unambiguous when a name holds a comma) |
//! | `handoff.received_count` or `handoff.written_count`, `handoff.missing_count`, `handoff.unknown_count` | their lengths (unknown: with those past the cap) |
//! | `handoff.outcome` | `accepted` or `rejected` |
//! | `otel.kind` | `producer` (send) or `consumer` (receive), the span kind OpenTelemetry gets |
//! | `handoff.problem_count` | how many problems a rejection listed |
//!
//! The span is `INFO` and is entered around the call's work, so its time is the call's and
//! whatever the work logs is inside it. A rejection also emits one `WARN` event inside the
//! span (a span's level is fixed when it is created, and a refused handoff is worth a
//! warning whatever the outcome is), with `handoff.problems`: the first
//! 32 problems (`MAX_TRACED_PROBLEMS`) as one JSON array of their pointers and kinds, and
//! `handoff.problem_count`, all of them.
//!
//! The envelope's calls, `send_handoff` and `receive_handoff` (feature `derive`), have one
//! span each, named `handoff` too, with the fields above for the payload (its contract, its
//! presence, payload-relative, the journey: the envelope's, or for a receive the options'
//! where they name one) and the envelope's own:
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `receive_handoff refund-request/v2` (`send_handoff …`) |
//! | `handoff.envelope` | `handoff-envelope/v1` |
//! | `handoff.context_id`, `handoff.id` | the envelope's `contextId` and `handoffId`, once read |
//!
//! A refused envelope's `WARN` event lists the problems of the envelope and of its payload,
//! each pointer from the envelope's root (`/payload/orderRef`).
//!
//! No field holds a value of the payload.
//!
//! With the feature `otel` and an OpenTelemetry layer behind the span, the field lists are
//! string arrays instead of JSON strings, and the GenAI agent names, `error.type` and the
//! status are set too (the `otel` module's docs list them); an envelope's span takes its
//! `contextId` as `gen_ai.conversation.id` when no journey names a session.

use contract_schema::Schema;

use crate::runtime::options::Journey;
use crate::runtime::presence::Presence;
use crate::runtime::presence::Side;
use crate::runtime::problem::{Problem, Rejection};

/// The span of one call (nothing without the `tracing` feature).
#[cfg(feature = "tracing")]
pub(crate) type CallSpan = tracing::Span;
/// Without the `tracing` feature a call has no span.
#[cfg(not(feature = "tracing"))]
pub(crate) struct CallSpan;

/// How many problems a rejection's `WARN` event lists (the count says how many there were).
#[cfg(feature = "tracing")]
pub(crate) const MAX_TRACED_PROBLEMS: usize = 32;

/// Opens the span of a call. Its field names depend on the side: what a send wrote is not
/// what arrived.
#[cfg(feature = "tracing")]
pub(crate) fn start(side: Side, schema: &Schema, journey: &Journey) -> CallSpan {
    use tracing::field::Empty;
    // Written only if a subscriber records the span: nothing is built for a disabled one.
    let contract = ContractName(schema);
    macro_rules! call_span {
        ($fields:ident, $count:ident) => {
            tracing::info_span!(
                "handoff",
                otel.name = %format_args!("{} {contract}", side.as_str()),
                handoff.contract = %contract,
                handoff.direction = side.as_str(),
                otel.kind = if matches!(side, Side::Send) { "producer" } else { "consumer" },
                gen_ai.conversation.id = journey.session_id.as_deref(),
                handoff.workflow = journey.workflow_name.as_deref(),
                handoff.from = journey.handoff_from.as_deref(),
                handoff.to = journey.handoff_to.as_deref(),
                handoff.attempt = journey.attempt,
                handoff.retry_of = journey.retry_of.as_deref(),
                handoff.$fields = Empty,
                handoff.missing_fields = Empty,
                handoff.unknown_fields = Empty,
                handoff.$count = Empty,
                handoff.missing_count = Empty,
                handoff.unknown_count = Empty,
                handoff.outcome = Empty,
                handoff.problem_count = Empty,
            )
        };
    }
    let span = match side {
        Side::Send => call_span!(written_fields, written_count),
        _ => call_span!(received_fields, received_count),
    };
    #[cfg(feature = "otel")]
    crate::otel::on_start(
        &span,
        matches!(side, Side::Send),
        journey.handoff_from.as_deref(),
        journey.handoff_to.as_deref(),
    );
    span
}

/// The span entered: the call's work runs inside it (nothing without the feature).
#[cfg(feature = "tracing")]
pub(crate) fn enter(span: &CallSpan) -> tracing::span::Entered<'_> {
    span.enter()
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

/// Records the outcome of a call on its span, and a rejection's problems in a `WARN` event
/// inside it.
#[cfg(feature = "tracing")]
pub(crate) fn finish(span: &CallSpan, result: Result<&Presence, &Rejection>) {
    match result {
        Ok(presence) => outcome(span, Some(presence), None),
        Err(r) => outcome(span, Some(r.presence()), Some((r.side(), r.problems()))),
    }
}

/// Opens the span of an envelope's call (`send_handoff`, `receive_handoff`): the fields of
/// [`start`] for the payload's contract `schema`, and the envelope's own, its id and context
/// recorded once known ([`envelope_read`]).
#[cfg(feature = "tracing")]
pub(crate) fn start_envelope(
    side: Side,
    envelope: &'static str,
    schema: &Schema,
    journey: &Journey,
) -> CallSpan {
    use tracing::field::Empty;
    let contract = ContractName(schema);
    macro_rules! call_span {
        ($call:literal, $fields:ident, $count:ident) => {
            tracing::info_span!(
                "handoff",
                otel.name = %format_args!("{} {contract}", $call),
                handoff.contract = %contract,
                handoff.direction = side.as_str(),
                otel.kind = if matches!(side, Side::Send) { "producer" } else { "consumer" },
                handoff.envelope = envelope,
                handoff.context_id = Empty,
                handoff.id = Empty,
                gen_ai.conversation.id = journey.session_id.as_deref(),
                handoff.workflow = journey.workflow_name.as_deref(),
                handoff.from = journey.handoff_from.as_deref(),
                handoff.to = journey.handoff_to.as_deref(),
                handoff.attempt = journey.attempt,
                handoff.retry_of = journey.retry_of.as_deref(),
                handoff.$fields = Empty,
                handoff.missing_fields = Empty,
                handoff.unknown_fields = Empty,
                handoff.$count = Empty,
                handoff.missing_count = Empty,
                handoff.unknown_count = Empty,
                handoff.outcome = Empty,
                handoff.problem_count = Empty,
            )
        };
    }
    match side {
        Side::Send => call_span!("send_handoff", written_fields, written_count),
        _ => call_span!("receive_handoff", received_fields, received_count),
    }
}

/// Records what an envelope says of itself: its context and id, and, where `given` (the
/// journey the span was opened with) names none, the envelope's journey.
#[cfg(feature = "tracing")]
pub(crate) fn envelope_read(
    span: &CallSpan,
    context_id: &str,
    handoff_id: &str,
    given: &Journey,
    journey: &Journey,
) {
    if span.is_disabled() {
        return;
    }
    span.record("handoff.context_id", context_id);
    span.record("handoff.id", handoff_id);
    let text = |field: &str, given: &Option<String>, value: &Option<String>| {
        if let (None, Some(value)) = (given, value) {
            span.record(field, value.as_str());
        }
    };
    text(
        "gen_ai.conversation.id",
        &given.session_id,
        &journey.session_id,
    );
    text(
        "handoff.workflow",
        &given.workflow_name,
        &journey.workflow_name,
    );
    text("handoff.from", &given.handoff_from, &journey.handoff_from);
    text("handoff.to", &given.handoff_to, &journey.handoff_to);
    text("handoff.retry_of", &given.retry_of, &journey.retry_of);
    if let (None, Some(attempt)) = (given.attempt, journey.attempt) {
        span.record("handoff.attempt", attempt);
    }
    if given.session_id.is_none() && journey.session_id.is_none() {
        // No session named: the envelope's context is the conversation.
        span.record("gen_ai.conversation.id", context_id);
    }
    #[cfg(feature = "otel")]
    crate::otel::on_start(
        span,
        span.metadata()
            .is_some_and(|m| m.fields().field("handoff.written_fields").is_some()),
        given
            .handoff_from
            .as_deref()
            .or(journey.handoff_from.as_deref()),
        given
            .handoff_to
            .as_deref()
            .or(journey.handoff_to.as_deref()),
    );
}

/// Records the outcome of an envelope's call: the payload's presence when it was read or
/// written, and a refusal's problems in a `WARN` event.
#[cfg(feature = "tracing")]
pub(crate) fn finish_envelope(
    span: &CallSpan,
    presence: Option<&Presence>,
    refused: Option<(Side, &[Problem])>,
) {
    outcome(span, presence, refused);
}

/// Records an outcome on a span: the presence (when there is one), accepted or rejected, and
/// a rejection's problems in a `WARN` event inside it.
#[cfg(feature = "tracing")]
fn outcome(span: &CallSpan, presence: Option<&Presence>, refused: Option<(Side, &[Problem])>) {
    if span.is_disabled() {
        // No subscriber wants the span: the presence is not rendered for it.
        return;
    }
    let (outcome, problems) = match refused {
        None => ("accepted", 0),
        Some((_, problems)) => ("rejected", problems.len()),
    };
    span.record("handoff.outcome", outcome);
    span.record("handoff.problem_count", problems as u64);
    if let Some(presence) = presence {
        record_presence(span, presence);
    }
    if let Some((side, all)) = refused {
        #[cfg(feature = "otel")]
        if crate::otel::has_otel_span(span) {
            let class = all.first().map_or("contract", |p| match p.kind.class() {
                crate::runtime::problem::ProblemClass::NotJson => "not_json",
                crate::runtime::problem::ProblemClass::Limit => "limit",
                crate::runtime::problem::ProblemClass::Contract => "contract",
            });
            crate::otel::refused(
                span,
                class,
                format!("{} refused: {problems} problems", side.as_str()),
            );
        }
        let listed = &all[..problems.min(MAX_TRACED_PROBLEMS)];
        // Pointers and kinds: structure, never a value (a map key is `*`).
        let listed = serde_json::to_string(listed).unwrap_or_default();
        tracing::warn!(
            parent: span,
            handoff.problems = listed.as_str(),
            handoff.problem_count = problems as u64,
            "{} refused: {} problem{}",
            side.as_str(),
            problems,
            if problems == 1 { "" } else { "s" },
        );
    }
}

/// Records a presence's lists and counts on a span.
#[cfg(feature = "tracing")]
fn record_presence(span: &CallSpan, presence: &Presence) {
    let (fields, count) = match presence.side() {
        Side::Send => ("handoff.written_fields", "handoff.written_count"),
        _ => ("handoff.received_fields", "handoff.received_count"),
    };
    record_lists(span, fields, presence);
    span.record(count, presence.received().len() as u64);
    span.record("handoff.missing_count", presence.missing().len() as u64);
    span.record(
        "handoff.unknown_count",
        presence.unknown().len() as u64 + presence.unknown_omitted(),
    );
}

/// Records the three field lists of a presence on the span: string arrays when an
/// OpenTelemetry layer stands behind it (feature `otel`), else JSON strings, which say a path
/// holding a comma unambiguously.
#[cfg(feature = "tracing")]
fn record_lists(span: &CallSpan, fields: &'static str, presence: &Presence) {
    use crate::runtime::presence::FieldPath;
    #[cfg(feature = "otel")]
    if crate::otel::has_otel_span(span) {
        let array =
            |items: &[FieldPath]| crate::otel::string_array(items.iter().map(FieldPath::as_str));
        crate::otel::set(span, fields, array(presence.received()));
        crate::otel::set(span, "handoff.missing_fields", array(presence.missing()));
        crate::otel::set(span, "handoff.unknown_fields", array(presence.unknown()));
        return;
    }
    let json = |items: &[FieldPath]| serde_json::to_string(items).unwrap_or_default();
    span.record(fields, json(presence.received()).as_str());
    span.record("handoff.missing_fields", json(presence.missing()).as_str());
    span.record("handoff.unknown_fields", json(presence.unknown()).as_str());
}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn start(_: Side, _: &Schema, _: &Journey) -> CallSpan {
    CallSpan
}

/// Without the `tracing` feature there is no span to enter.
#[cfg(not(feature = "tracing"))]
pub(crate) struct NotEntered;

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn enter(_: &CallSpan) -> NotEntered {
    NotEntered
}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn finish(_: &CallSpan, _: Result<&Presence, &Rejection>) {}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn start_envelope(_: Side, _: &'static str, _: &Schema, _: &Journey) -> CallSpan {
    CallSpan
}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn envelope_read(_: &CallSpan, _: &str, _: &str, _: &Journey, _: &Journey) {}

#[cfg(not(feature = "tracing"))]
#[inline]
pub(crate) fn finish_envelope(_: &CallSpan, _: Option<&Presence>, _: Option<(Side, &[Problem])>) {}
