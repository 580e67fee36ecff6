//! The span of the A2A reader (features `a2a` and `tracing`): one per
//! [`A2a::receive_message`](super::A2a::receive_message) and
//! [`A2a::receive_artifact`](super::A2a::receive_artifact), `INFO`, entered around the read.
//! For the GenAI conventions it is the receiving agent's `invoke_agent` operation (the
//! [`semconv`](crate::semconv) module). Each field is recorded once.
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `receive_a2a refund-request/v2` (the payload's contract) |
//! | `otel.kind` | `consumer` |
//! | `handoff.contract`, `handoff.direction` | the payload's contract id; `receive` |
//! | `handoff.a2a.object` | `message` or `artifact` |
//! | `gen_ai.operation.name` | `invoke_agent` |
//! | `gen_ai.agent.name`, `gen_ai.caller.name`, `gen_ai.caller.type` | the journey's `handoffTo`, `handoffFrom`, and `agent` when it names one |
//! | `handoff.workflow`, `handoff.from`, `handoff.to`, `handoff.retry_of`, `handoff.attempt` | the options' journey (the attempt an integer) |
//! | `gen_ai.conversation.id` | the journey's session, else the Message's `contextId` |
//! | `a2a.protocol.version` | `1.0`, the version read (an earlier one is refused) |
//! | `a2a.message.id`, `a2a.task.id` | the Message's `messageId` and `taskId`, when read |
//! | `handoff.artifact_id` | the Artifact's `artifactId`, when read |
//! | `handoff.received_fields`, `handoff.missing_fields`, `handoff.unknown_fields` and their `_count`s | the payload's presence, when the payload was read |
//! | `handoff.outcome` | `accepted`, or `rejected` for a refusal at any level (A2A's or the payload's) |
//! | `handoff.problem_count` | every problem of a refusal, an integer |
//! | `error.type` | a refusal's class, its first problem's: `protocol` (A2A's members, the contract's extension, the `data` Part), `contract`, `not_json`, `limit` |
//!
//! A refusal also emits a `WARN` event inside the span listing the problems' pointers (into
//! the A2A document) and kinds, and with `otel` sets the span status `Error`.
//!
//! The payload is read **without a span of its own**: one span says what happened to the
//! A2A object, as one says it for an envelope (whose payload is read within its span). A
//! child `receive` span would repeat the contract's fields, and would say `accepted` for a
//! payload whose Message was refused around it; its presence is recorded here instead. No
//! field holds a value of the payload: A2A's ids are identifiers.

use crate::runtime::options::Journey;
use crate::runtime::presence::Presence;
use crate::trace::CallSpan;

use crate::runtime::problem::Problem;

use super::read::{Fields, Object};

/// A refused read as its span records it: the payload's presence when it was read, and
/// every problem.
pub(crate) type Refused<'a> = (Option<&'a Presence>, &'a [Problem]);

/// The span of one A2A read (nothing without the `tracing` feature), and whether the options'
/// journey named a session.
pub(crate) struct A2aSpan {
    span: CallSpan,
    #[cfg(feature = "tracing")]
    session: bool,
}

impl A2aSpan {
    /// Opens the span of a read of `object` carrying contract `contract`, its journey
    /// recorded.
    #[cfg(feature = "tracing")]
    pub(crate) fn start(object: Object, contract: &'static str, journey: &Journey) -> A2aSpan {
        use crate::runtime::presence::Side;
        use crate::semconv::{
            A2A_MESSAGE_ID, A2A_PROTOCOL, A2A_PROTOCOL_VERSION, A2A_TASK_ID, ERROR_TYPE,
            GEN_AI_AGENT_NAME, GEN_AI_CALLER_NAME, GEN_AI_CALLER_TYPE, GEN_AI_CONVERSATION_ID,
            GEN_AI_OPERATION_NAME, INVOKE_AGENT,
        };
        use tracing::field::Empty;
        let span = tracing::info_span!(
            "handoff",
            otel.name = %format_args!("receive_a2a {contract}"),
            otel.kind = "consumer",
            handoff.contract = contract,
            handoff.direction = "receive",
            handoff.a2a.object = match object {
                Object::Message => "message",
                Object::Artifact => "artifact",
            },
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
            { A2A_PROTOCOL_VERSION } = A2A_PROTOCOL,
            { A2A_MESSAGE_ID } = Empty,
            { A2A_TASK_ID } = Empty,
            handoff.artifact_id = Empty,
            handoff.received_fields = Empty,
            handoff.missing_fields = Empty,
            handoff.unknown_fields = Empty,
            handoff.received_count = Empty,
            handoff.missing_count = Empty,
            handoff.unknown_count = Empty,
            handoff.outcome = Empty,
            handoff.problem_count = Empty,
            { ERROR_TYPE } = Empty,
        );
        crate::trace::record_journey(&span, Side::Receive, journey, &Journey::NONE);
        A2aSpan {
            span,
            session: journey.session_id.is_some(),
        }
    }

    /// Without the `tracing` feature a read has no span.
    #[cfg(not(feature = "tracing"))]
    #[inline]
    pub(crate) fn start(_: Object, _: &'static str, _: &Journey) -> A2aSpan {
        A2aSpan { span: CallSpan }
    }

    /// The span, to enter around the read.
    pub(crate) fn span(&self) -> &CallSpan {
        &self.span
    }

    /// Records the object's own fields as read: its ids, and its `contextId` as the
    /// conversation where the journey names no session.
    #[cfg(feature = "tracing")]
    pub(crate) fn fields(&self, object: Object, fields: &Fields) {
        use crate::semconv::{A2A_MESSAGE_ID, A2A_TASK_ID, GEN_AI_CONVERSATION_ID};
        let span = &self.span;
        if span.is_disabled() {
            return;
        }
        // An id absent or not a string is read as empty: not recorded.
        let id = (!fields.id.is_empty()).then_some(fields.id.as_str());
        match object {
            Object::Message => {
                if let Some(id) = id {
                    span.record(A2A_MESSAGE_ID, id);
                }
                if let Some(task) = &fields.task_id {
                    span.record(A2A_TASK_ID, task.as_str());
                }
            }
            Object::Artifact => {
                if let Some(id) = id {
                    span.record("handoff.artifact_id", id);
                }
            }
        }
        if let (false, Some(context)) = (self.session, &fields.context_id) {
            span.record(GEN_AI_CONVERSATION_ID, context.as_str());
        }
    }

    /// Without the `tracing` feature there is nothing to record.
    #[cfg(not(feature = "tracing"))]
    #[inline]
    pub(crate) fn fields(&self, _: Object, _: &Fields) {}

    /// Records the read's outcome: the payload's presence, and for a refusal (the presence
    /// when the payload was read, and every problem) its problems, `error.type`, status and
    /// `WARN` event.
    #[cfg(feature = "tracing")]
    pub(crate) fn finish(&self, object: Object, result: Result<&Presence, Refused<'_>>) {
        match result {
            Ok(presence) => crate::trace::outcome(&self.span, Some(presence), None),
            Err((presence, problems)) => crate::trace::outcome(
                &self.span,
                presence,
                Some((
                    match object {
                        Object::Message => "receive of A2A Message",
                        Object::Artifact => "receive of A2A Artifact",
                    },
                    problems,
                )),
            ),
        }
    }

    /// Without the `tracing` feature there is nothing to record.
    #[cfg(not(feature = "tracing"))]
    #[inline]
    pub(crate) fn finish(&self, _: Object, _: Result<&Presence, Refused<'_>>) {}
}
