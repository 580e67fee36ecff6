//! Spans for `send` and `receive` (feature `tracing`): one span per call, named and
//! attributed so that OpenTelemetry backends file it, each attribute recorded once.
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `receive refund-request/v2` (`send …`) |
//! | `otel.kind` | `producer` (send) or `consumer` (receive), the span kind OpenTelemetry gets |
//! | `handoff.contract` | the contract id |
//! | `handoff.direction` | `send` or `receive` |
//! | `gen_ai.operation.name` | `execute_tool` (send) or `invoke_agent` (receive): the [`semconv`](crate::semconv) module says why |
//! | `gen_ai.agent.name` | the agent running: the journey's `handoffFrom` on a send, `handoffTo` on a receive |
//! | `gen_ai.caller.name`, `gen_ai.caller.type` (receive) | the journey's `handoffFrom`; `agent` |
//! | `gen_ai.tool.name`, `gen_ai.transfer.target.name`, `gen_ai.transfer.target.type`, `gen_ai.transfer.mode` (send) | `send`; the journey's `handoffTo`; `agent`; `pass_control` |
//! | `gen_ai.conversation.id` | the journey's session id |
//! | `handoff.workflow`, `handoff.from`, `handoff.to`, `handoff.retry_of` | the journey |
//! | `handoff.attempt` | the journey's attempt, an integer |
//! | `handoff.received_fields` (receive) or `handoff.written_fields` (send), `handoff.missing_fields`, `handoff.unknown_fields` | JSON arrays of paths (unambiguous when a name holds a comma) |
//! | `handoff.received_count` or `handoff.written_count`, `handoff.missing_count`, `handoff.unknown_count` | their lengths (unknown: with those past the cap), integers |
//! | `handoff.outcome` | `accepted` or `rejected` |
//! | `handoff.problem_count` | how many problems a rejection listed, an integer |
//! | `error.type` | a rejection's class: `not_json`, `limit`, `contract` or `protocol`, its first problem's |
//!
//! A field of the journey is recorded when the journey names it, and a GenAI agent name when
//! the journey names that agent. Every number is an `i64` (saturated, though every count
//! fits): `tracing-opentelemetry` exports an `i64` as an integer and a `u64` as text.
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
//! where they name a field, the envelope's for the others) and the envelope's own:
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `receive_handoff refund-request/v2` (`send_handoff …`) |
//! | `gen_ai.tool.name` (send) | `send_handoff` |
//! | `handoff.envelope` | `handoff-envelope/v1` |
//! | `handoff.context_id`, `handoff.id` | the envelope's `contextId` and `handoffId`, once read |
//! | `gen_ai.conversation.id` | the journey's session, else the envelope's `contextId` |
//!
//! The envelope's own fields are recorded once, from the read that decides the outcome:
//! where `receive_handoff`'s fast path guesses the payload's place wrong and reads the
//! envelope again, only the second read is recorded. A refused envelope's `WARN` event lists
//! the problems of the envelope and of its payload, each pointer from the envelope's root
//! (`/payload/orderRef`).
//!
//! No field holds a value of the payload.
//!
//! With the feature `otel` and an OpenTelemetry layer behind the span, the field lists are
//! string arrays instead of JSON strings, and a refused call's span status is `Error`,
//! described by its side and problem count (the `otel` module's docs).

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

/// A count or an attempt as the spans record it: an `i64`, saturated (every count fits).
#[cfg(feature = "tracing")]
pub(crate) fn number<N: TryInto<i64>>(n: N) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// Opens the span of one call: `send` or `receive` on `side` of the payload's contract, or,
/// with `envelope`, `send_handoff` or `receive_handoff` of an envelope of that name. Its field
/// names depend on the side: what a send wrote is not what arrived, an agent invoked is not a
/// transfer. `journey` is recorded on it: the call's, known when it opens.
#[cfg(feature = "tracing")]
fn open(
    side: Side,
    envelope: Option<&'static str>,
    schema: &Schema,
    journey: &Journey,
) -> CallSpan {
    use crate::semconv::{
        ERROR_TYPE, EXECUTE_TOOL, GEN_AI_AGENT_NAME, GEN_AI_CALLER_NAME, GEN_AI_CALLER_TYPE,
        GEN_AI_CONVERSATION_ID, GEN_AI_OPERATION_NAME, GEN_AI_TOOL_NAME, GEN_AI_TRANSFER_MODE,
        GEN_AI_TRANSFER_TARGET_NAME, GEN_AI_TRANSFER_TARGET_TYPE, INVOKE_AGENT,
        TRANSFER_MODE_PASS_CONTROL, TRANSFER_TARGET_TYPE_AGENT,
    };
    use tracing::field::Empty;
    // Written only if a subscriber records the span: nothing is built for a disabled one.
    let contract = ContractName(schema);
    macro_rules! call_span {
        (send, $call:expr, $($envelope:tt)*) => {
            tracing::info_span!(
                "handoff",
                otel.name = %format_args!("{} {contract}", $call),
                otel.kind = "producer",
                handoff.contract = %contract,
                handoff.direction = "send",
                $($envelope)*
                { GEN_AI_OPERATION_NAME } = EXECUTE_TOOL,
                { GEN_AI_TOOL_NAME } = $call,
                { GEN_AI_AGENT_NAME } = Empty,
                { GEN_AI_TRANSFER_TARGET_NAME } = Empty,
                { GEN_AI_TRANSFER_TARGET_TYPE } = TRANSFER_TARGET_TYPE_AGENT,
                { GEN_AI_TRANSFER_MODE } = TRANSFER_MODE_PASS_CONTROL,
                { GEN_AI_CONVERSATION_ID } = Empty,
                handoff.workflow = Empty,
                handoff.from = Empty,
                handoff.to = Empty,
                handoff.attempt = Empty,
                handoff.retry_of = Empty,
                handoff.written_fields = Empty,
                handoff.missing_fields = Empty,
                handoff.unknown_fields = Empty,
                handoff.written_count = Empty,
                handoff.missing_count = Empty,
                handoff.unknown_count = Empty,
                handoff.outcome = Empty,
                handoff.problem_count = Empty,
                { ERROR_TYPE } = Empty,
            )
        };
        (receive, $call:expr, $($envelope:tt)*) => {
            tracing::info_span!(
                "handoff",
                otel.name = %format_args!("{} {contract}", $call),
                otel.kind = "consumer",
                handoff.contract = %contract,
                handoff.direction = "receive",
                $($envelope)*
                { GEN_AI_OPERATION_NAME } = INVOKE_AGENT,
                { GEN_AI_AGENT_NAME } = Empty,
                { GEN_AI_CALLER_NAME } = Empty,
                { GEN_AI_CALLER_TYPE } = Empty,
                { GEN_AI_CONVERSATION_ID } = Empty,
                handoff.workflow = Empty,
                handoff.from = Empty,
                handoff.to = Empty,
                handoff.attempt = Empty,
                handoff.retry_of = Empty,
                handoff.received_fields = Empty,
                handoff.missing_fields = Empty,
                handoff.unknown_fields = Empty,
                handoff.received_count = Empty,
                handoff.missing_count = Empty,
                handoff.unknown_count = Empty,
                handoff.outcome = Empty,
                handoff.problem_count = Empty,
                { ERROR_TYPE } = Empty,
            )
        };
    }
    let span = match (side, envelope) {
        (Side::Send, None) => call_span!(send, "send",),
        (Side::Send, Some(envelope)) => call_span!(
            send,
            "send_handoff",
            handoff.envelope = envelope,
            handoff.context_id = Empty,
            handoff.id = Empty,
        ),
        (_, None) => call_span!(receive, "receive",),
        (_, Some(envelope)) => call_span!(
            receive,
            "receive_handoff",
            handoff.envelope = envelope,
            handoff.context_id = Empty,
            handoff.id = Empty,
        ),
    };
    record_journey(&span, side, journey, &Journey::NONE);
    span
}

/// Opens the span of a call (`send`, `receive`) on `side`, its journey recorded.
#[cfg(feature = "tracing")]
pub(crate) fn start(side: Side, schema: &Schema, journey: &Journey) -> CallSpan {
    open(side, None, schema, journey)
}

/// Records on the span of `side` the fields of `journey` that `known` (what was recorded
/// before) does not name, each under its `handoff.*` field and its GenAI agent names: on a
/// send, `handoffFrom` is the agent running and `handoffTo` the transfer's target; on a
/// receive, `handoffTo` is the agent running and `handoffFrom` its caller, an agent. A field
/// the span does not have is not recorded (`tracing` ignores it).
#[cfg(feature = "tracing")]
pub(crate) fn record_journey(span: &CallSpan, side: Side, journey: &Journey, known: &Journey) {
    use crate::semconv::{
        CALLER_TYPE_AGENT, GEN_AI_AGENT_NAME, GEN_AI_CALLER_NAME, GEN_AI_CALLER_TYPE,
        GEN_AI_CONVERSATION_ID, GEN_AI_TRANSFER_TARGET_NAME,
    };
    if span.is_disabled() {
        return;
    }
    // Whether `value` is to be recorded: named by `journey`, not by `known`.
    let new = |value: &Option<String>, known: &Option<String>| -> bool {
        known.is_none() && value.is_some()
    };
    let text = |field: &str, value: &Option<String>, known: &Option<String>| {
        if let (None, Some(value)) = (known, value) {
            span.record(field, value.as_str());
        }
    };
    text(
        GEN_AI_CONVERSATION_ID,
        &journey.session_id,
        &known.session_id,
    );
    text(
        "handoff.workflow",
        &journey.workflow_name,
        &known.workflow_name,
    );
    text("handoff.from", &journey.handoff_from, &known.handoff_from);
    text("handoff.to", &journey.handoff_to, &known.handoff_to);
    text("handoff.retry_of", &journey.retry_of, &known.retry_of);
    if let (None, Some(attempt)) = (known.attempt, journey.attempt) {
        span.record("handoff.attempt", number(attempt));
    }
    match side {
        Side::Send => {
            text(
                GEN_AI_AGENT_NAME,
                &journey.handoff_from,
                &known.handoff_from,
            );
            text(
                GEN_AI_TRANSFER_TARGET_NAME,
                &journey.handoff_to,
                &known.handoff_to,
            );
        }
        _ => {
            text(GEN_AI_AGENT_NAME, &journey.handoff_to, &known.handoff_to);
            text(
                GEN_AI_CALLER_NAME,
                &journey.handoff_from,
                &known.handoff_from,
            );
            if new(&journey.handoff_from, &known.handoff_from) {
                span.record(GEN_AI_CALLER_TYPE, CALLER_TYPE_AGENT);
            }
        }
    }
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
        Err(r) => outcome(
            span,
            Some(r.presence()),
            Some((r.side().as_str(), r.problems())),
        ),
    }
}

/// Opens the span of an envelope's call (`send_handoff`, `receive_handoff`): the fields of
/// [`start`] for the payload's contract `schema`, and the envelope's own, its id and context
/// recorded once known ([`envelope_read`]).
#[cfg(feature = "tracing")]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn start_envelope(
    side: Side,
    envelope: &'static str,
    schema: &Schema,
    journey: &Journey,
) -> CallSpan {
    open(side, Some(envelope), schema, journey)
}

/// Records what an envelope says of itself: its context and id, and, where `given` (the
/// journey the span was opened with) names none, the envelope's journey; and the envelope's
/// context as the conversation where neither names a session. Called once per span, with
/// the read that decides the call's outcome.
#[cfg(feature = "tracing")]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
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
    let side = if span
        .metadata()
        .is_some_and(|m| m.fields().field("handoff.written_fields").is_some())
    {
        Side::Send
    } else {
        Side::Receive
    };
    record_journey(span, side, journey, given);
    if given.session_id.is_none() && journey.session_id.is_none() {
        // No session named: the envelope's context is the conversation.
        span.record(crate::semconv::GEN_AI_CONVERSATION_ID, context_id);
    }
}

/// Records the outcome of an envelope's call: the payload's presence when it was read or
/// written, and a refusal's problems in a `WARN` event.
#[cfg(feature = "tracing")]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn finish_envelope(
    span: &CallSpan,
    presence: Option<&Presence>,
    refused: Option<(Side, &[Problem])>,
) {
    outcome(
        span,
        presence,
        refused.map(|(side, problems)| (side.as_str(), problems)),
    );
}

/// The `error.type` of a refusal: the class of its first problem (`contract` for none).
#[cfg(feature = "tracing")]
pub(crate) fn error_type(problems: &[Problem]) -> &'static str {
    use crate::runtime::problem::ProblemClass;
    problems
        .first()
        .map_or("contract", |p| match p.kind.class() {
            ProblemClass::NotJson => "not_json",
            ProblemClass::Limit => "limit",
            ProblemClass::Contract => "contract",
            ProblemClass::Protocol => "protocol",
        })
}

/// How a refusal reads in a status and a `WARN` event: `receive refused: 1 problem`.
#[cfg(feature = "tracing")]
pub(crate) fn refusal(call: &str, problems: usize) -> String {
    format!(
        "{call} refused: {problems} problem{}",
        if problems == 1 { "" } else { "s" }
    )
}

/// Records an outcome on a span: the presence (when there is one), accepted or rejected, and
/// for a rejection by `call` (`receive`) its `error.type`, its status with `otel`, and its
/// problems in a `WARN` event inside it.
#[cfg(feature = "tracing")]
pub(crate) fn outcome(
    span: &CallSpan,
    presence: Option<&Presence>,
    refused: Option<(&str, &[Problem])>,
) {
    if span.is_disabled() {
        // No subscriber wants the span: the presence is not rendered for it.
        return;
    }
    let (outcome, problems) = match refused {
        None => ("accepted", 0),
        Some((_, problems)) => ("rejected", problems.len()),
    };
    span.record("handoff.outcome", outcome);
    span.record("handoff.problem_count", number(problems));
    if let Some(presence) = presence {
        record_presence(span, presence);
    }
    if let Some((call, all)) = refused {
        span.record(crate::semconv::ERROR_TYPE, error_type(all));
        let message = refusal(call, problems);
        #[cfg(feature = "otel")]
        crate::otel::error_status(span, &message);
        let listed = &all[..problems.min(MAX_TRACED_PROBLEMS)];
        // Pointers and kinds: structure, never a value (a map key is `*`).
        let listed = serde_json::to_string(listed).unwrap_or_default();
        tracing::warn!(
            parent: span,
            handoff.problems = listed.as_str(),
            handoff.problem_count = number(problems),
            "{message}",
        );
    }
}

/// Records a presence's lists and counts on a span.
#[cfg(feature = "tracing")]
pub(crate) fn record_presence(span: &CallSpan, presence: &Presence) {
    if span.is_disabled() {
        return;
    }
    let (fields, count) = match presence.side() {
        Side::Send => ("handoff.written_fields", "handoff.written_count"),
        _ => ("handoff.received_fields", "handoff.received_count"),
    };
    record_lists(span, fields, presence);
    span.record(count, number(presence.received().len()));
    span.record("handoff.missing_count", number(presence.missing().len()));
    span.record(
        "handoff.unknown_count",
        number(presence.unknown().len()).saturating_add(number(presence.unknown_omitted())),
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
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn start_envelope(_: Side, _: &'static str, _: &Schema, _: &Journey) -> CallSpan {
    CallSpan
}

#[cfg(not(feature = "tracing"))]
#[inline]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn envelope_read(_: &CallSpan, _: &str, _: &str, _: &Journey, _: &Journey) {}

#[cfg(not(feature = "tracing"))]
#[inline]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn finish_envelope(_: &CallSpan, _: Option<&Presence>, _: Option<(Side, &[Problem])>) {}
