//! The span of one acceptance (feature `tracing`): `accept <contract>`, `INFO`, entered around
//! the whole of [`Inbox::accept`](crate::inbox::Inbox::accept), so the `receive_handoff` span
//! of the envelope and whatever the handler logs are inside it. For the GenAI conventions it
//! is the receiving agent's `invoke_agent` operation (the [`semconv`](crate::semconv) module).
//! Each field is recorded once.
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `accept refund-request/v2` (the payload's contract) |
//! | `otel.kind` | `consumer` |
//! | `handoff.contract` | the payload's contract id |
//! | `gen_ai.operation.name` | `invoke_agent` |
//! | `handoff.id`, `handoff.context_id` | the envelope's `handoffId` and `contextId` |
//! | `handoff.from`, `handoff.to`, `handoff.workflow`, `handoff.retry_of` | the journey: the inbox's options' where they name a field, else the envelope's |
//! | `handoff.attempt` | the journey's attempt, an integer |
//! | `gen_ai.agent.name`, `gen_ai.caller.name`, `gen_ai.caller.type` | the journey's `handoffTo`, `handoffFrom`, and `agent` when it names one |
//! | `gen_ai.conversation.id` | the journey's session, else the envelope's `contextId` |
//! | `handoff.acceptance` | `applied`, `duplicate`, or the refusal (`conflict`, `not_ready`, `artifact_unavailable`, …, [`AcceptError::as_str`]) |
//! | `handoff.outcome` | the payload's contract verdict, once known: `accepted` (read, or a duplicate of one read before) or `rejected` |
//! | `handoff.received_fields`, `handoff.missing_fields`, `handoff.unknown_fields` and their `_count`s | the payload's presence, when it was read (not for a duplicate answered before its payload is read) |
//! | `handoff.problem_count` | a rejected envelope's problems, an integer |
//! | `handoff.warnings` | a JSON array of the warnings' names (`["owner_conflict"]`) |
//! | `handoff.seq` | the acknowledgement's sequence number, an integer |
//! | `handoff.digest` | the envelope's [`Digest`](crate::envelope::Digest) (`sha256:…`), once computed |
//! | `error.type` | every refusal or failure: its [`AcceptError::as_str`] (`not_ready`, `conflict`, `rejected`, `handler`, …); with `otel`, the span status `Error` too |
//!
//! The handoff is named once its envelope's top level is read, whatever the outcome: from
//! the envelope read in full where it was; else (a duplicate answered before its payload is
//! read, an envelope rejected) from a read of the envelope's ids and journey alone, done only
//! when a subscriber records the span, and only for an envelope within the inbox's size limit.
//!
//! Each warning is also a `WARN` event inside the span, and a refusal other than the
//! envelope's rejection (which `receive_handoff` reports in its own span) one more. No field
//! holds a value of the envelope: its ids, agent names and digest are identifiers.
//!
//! With the feature `otel`, every acceptance is also counted on the global meter provider's
//! `handoff-contract` meter (acceptances by outcome and refusal reason, retries, owner
//! conflicts, envelope bytes, accept latency: the `otel` module's docs list the instruments),
//! whether or not a subscriber records the span.

#[cfg(feature = "tracing")]
use std::cell::Cell;

#[cfg(feature = "tracing")]
use crate::inbox::outcome::{AcceptError, Warning};
#[cfg(feature = "tracing")]
use crate::runtime::options::Journey;
#[cfg(feature = "tracing")]
use crate::runtime::presence::{Presence, Side};

/// The span of one acceptance (nothing without the `tracing` feature), what it has recorded,
/// and with `otel` what its metrics need.
#[cfg(feature = "tracing")]
pub(crate) struct AcceptSpan {
    span: tracing::Span,
    /// The journey the inbox's options give, recorded when the span opened.
    given: Journey,
    /// Whether the handoff's ids and journey are recorded.
    named: Cell<bool>,
    /// Whether the payload's verdict (`handoff.outcome`) is recorded.
    judged: Cell<bool>,
    #[cfg(feature = "otel")]
    metered: Metered,
}

/// What an acceptance's metrics need beyond its outcome: when it started, the envelope's size
/// and attempt.
#[cfg(feature = "otel")]
pub(crate) struct Metered {
    started: std::time::Instant,
    bytes: usize,
    attempt: Cell<Option<u32>>,
}

/// Without the `tracing` feature an acceptance has no span.
#[cfg(not(feature = "tracing"))]
pub(crate) struct AcceptSpan;

#[cfg(feature = "tracing")]
impl AcceptSpan {
    /// Opens the span of an acceptance of a payload of contract `contract`, `bytes` long, by
    /// an inbox whose options give the journey `given` (recorded now).
    pub(crate) fn start(contract: &dyn core::fmt::Display, bytes: usize, given: &Journey) -> Self {
        use crate::semconv::{
            ERROR_TYPE, GEN_AI_AGENT_NAME, GEN_AI_CALLER_NAME, GEN_AI_CALLER_TYPE,
            GEN_AI_CONVERSATION_ID, GEN_AI_OPERATION_NAME, INVOKE_AGENT,
        };
        use tracing::field::Empty;
        #[cfg(not(feature = "otel"))]
        let _ = bytes;
        let span = tracing::info_span!(
            "handoff.accept",
            otel.name = %format_args!("accept {contract}"),
            otel.kind = "consumer",
            handoff.contract = %contract,
            { GEN_AI_OPERATION_NAME } = INVOKE_AGENT,
            handoff.id = Empty,
            handoff.context_id = Empty,
            handoff.workflow = Empty,
            handoff.from = Empty,
            handoff.to = Empty,
            handoff.attempt = Empty,
            handoff.retry_of = Empty,
            { GEN_AI_AGENT_NAME } = Empty,
            { GEN_AI_CALLER_NAME } = Empty,
            { GEN_AI_CALLER_TYPE } = Empty,
            { GEN_AI_CONVERSATION_ID } = Empty,
            handoff.acceptance = Empty,
            handoff.outcome = Empty,
            handoff.received_fields = Empty,
            handoff.missing_fields = Empty,
            handoff.unknown_fields = Empty,
            handoff.received_count = Empty,
            handoff.missing_count = Empty,
            handoff.unknown_count = Empty,
            handoff.problem_count = Empty,
            handoff.warnings = Empty,
            handoff.seq = Empty,
            handoff.digest = Empty,
            { ERROR_TYPE } = Empty,
        );
        crate::trace::record_journey(&span, Side::Receive, given, &Journey::NONE);
        // Kept only for a span a subscriber records.
        let given = if span.is_disabled() {
            Journey::NONE
        } else {
            given.clone()
        };
        AcceptSpan {
            span,
            given,
            named: Cell::new(false),
            judged: Cell::new(false),
            #[cfg(feature = "otel")]
            metered: Metered {
                started: std::time::Instant::now(),
                bytes,
                attempt: Cell::new(None),
            },
        }
    }

    /// The span entered: the acceptance runs inside it.
    pub(crate) fn enter(&self) -> tracing::span::Entered<'_> {
        self.span.enter()
    }

    /// Records the envelope's digest.
    pub(crate) fn digest(&self, digest: &crate::envelope::Digest) {
        if !self.span.is_disabled() {
            self.span
                .record("handoff.digest", tracing::field::display(digest));
        }
    }

    /// Notes the envelope's attempt, for the metrics.
    pub(crate) fn attempt(&self, attempt: Option<u32>) {
        #[cfg(feature = "otel")]
        self.metered.attempt.set(attempt);
        #[cfg(not(feature = "otel"))]
        let _ = attempt;
    }

    /// Names the handoff on the span, once: its ids, the fields of its `journey` that the
    /// inbox's options do not name, and its conversation (the session, else `context_id`).
    pub(crate) fn handoff(&self, context_id: &str, handoff_id: &str, journey: &Journey) {
        if self.span.is_disabled() || self.named.replace(true) {
            return;
        }
        self.span.record("handoff.context_id", context_id);
        self.span.record("handoff.id", handoff_id);
        crate::trace::record_journey(&self.span, Side::Receive, journey, &self.given);
        if self.given.session_id.is_none() && journey.session_id.is_none() {
            self.span
                .record(crate::semconv::GEN_AI_CONVERSATION_ID, context_id);
        }
    }

    /// Whether the span would take the handoff's names: a subscriber records it and it has
    /// not named the handoff yet.
    pub(crate) fn names_wanted(&self) -> bool {
        !self.span.is_disabled() && !self.named.get()
    }

    /// Records the payload's verdict once: `accepted` with its presence when it was read,
    /// `rejected` with its problem count and presence.
    fn judge(&self, presence: Option<&Presence>, problems: Option<usize>) {
        if self.span.is_disabled() || self.judged.replace(true) {
            return;
        }
        let outcome = if problems.is_some() {
            "rejected"
        } else {
            "accepted"
        };
        self.span.record("handoff.outcome", outcome);
        if let Some(problems) = problems {
            self.span
                .record("handoff.problem_count", crate::trace::number(problems));
        }
        if let Some(presence) = presence {
            crate::trace::record_presence(&self.span, presence);
        }
    }

    /// Records the payload read in full and accepted by its contract: its presence.
    pub(crate) fn payload(&self, presence: &Presence) {
        self.judge(Some(presence), None);
    }

    /// Records an acceptance: applied now or a duplicate.
    pub(crate) fn accepted(
        &self,
        contract: &dyn core::fmt::Display,
        outcome: &'static str,
        seq: u64,
        warnings: &[Warning],
    ) {
        #[cfg(feature = "otel")]
        self.meter(
            contract,
            outcome,
            None,
            warnings.contains(&Warning::OwnerConflict),
        );
        #[cfg(not(feature = "otel"))]
        let _ = contract;
        if self.span.is_disabled() {
            return;
        }
        // A duplicate answered before its payload was read: the payload is the one accepted
        // under the same digest.
        self.judge(None, None);
        self.span.record("handoff.acceptance", outcome);
        self.span.record("handoff.seq", crate::trace::number(seq));
        if !warnings.is_empty() {
            let names: Vec<&str> = warnings.iter().map(|w| w.as_str()).collect();
            let names = serde_json::to_string(&names).unwrap_or_default();
            self.span.record("handoff.warnings", names.as_str());
            for warning in warnings {
                tracing::warn!(
                    parent: &self.span,
                    handoff.warning = warning.as_str(),
                    "handoff accepted with a warning: {warning}"
                );
            }
        }
    }

    /// Records a refusal or a failure: `error.type`, the status with `otel`, and for an
    /// envelope rejected the payload's verdict.
    pub(crate) fn refused<E>(&self, contract: &dyn core::fmt::Display, error: &AcceptError<E>) {
        #[cfg(feature = "otel")]
        match error {
            AcceptError::Conflict { .. } => self.meter(contract, "conflict", None, false),
            AcceptError::Handler(_) | AcceptError::Store(_) => {
                self.meter(contract, "failed", Some(error.as_str()), false);
            }
            _ => self.meter(contract, "refused", Some(error.as_str()), false),
        }
        #[cfg(not(feature = "otel"))]
        let _ = contract;
        if self.span.is_disabled() {
            return;
        }
        if let AcceptError::Rejected(rejection) = error {
            self.judge(rejection.presence(), Some(rejection.problems().len()));
        }
        self.span.record("handoff.acceptance", error.as_str());
        self.span.record(crate::semconv::ERROR_TYPE, error.as_str());
        #[cfg(feature = "otel")]
        crate::otel::error_status(&self.span, &format!("accept refused: {}", error.as_str()));
        if !matches!(error, AcceptError::Rejected(_)) {
            tracing::warn!(
                parent: &self.span,
                handoff.acceptance = error.as_str(),
                "handoff not accepted: {}",
                error.as_str()
            );
        }
    }
}

#[cfg(feature = "otel")]
impl AcceptSpan {
    /// Counts the acceptance on the `handoff-contract` meter.
    fn meter(
        &self,
        contract: &dyn core::fmt::Display,
        outcome: &'static str,
        reason: Option<&'static str>,
        owner_conflict: bool,
    ) {
        let contract = contract.to_string();
        crate::otel::record_acceptance(&crate::otel::Accepted {
            outcome,
            reason,
            contract: Some(&contract),
            attempt: self.metered.attempt.get(),
            owner_conflict,
            bytes: self.metered.bytes,
            duration: self.metered.started.elapsed(),
        });
    }
}

#[cfg(not(feature = "tracing"))]
impl AcceptSpan {
    #[inline(always)]
    pub(crate) fn start(
        _: &dyn core::fmt::Display,
        _: usize,
        _: &crate::runtime::options::Journey,
    ) -> AcceptSpan {
        AcceptSpan
    }

    #[inline(always)]
    pub(crate) fn enter(&self) {}

    #[inline(always)]
    pub(crate) fn digest(&self, _: &crate::envelope::Digest) {}

    #[inline(always)]
    pub(crate) fn attempt(&self, _: Option<u32>) {}

    #[inline(always)]
    pub(crate) fn handoff(&self, _: &str, _: &str, _: &crate::runtime::options::Journey) {}

    #[inline(always)]
    pub(crate) fn names_wanted(&self) -> bool {
        false
    }

    #[inline(always)]
    pub(crate) fn payload(&self, _: &crate::runtime::presence::Presence) {}

    #[inline(always)]
    pub(crate) fn accepted(
        &self,
        _: &dyn core::fmt::Display,
        _: &'static str,
        _: u64,
        _: &[crate::inbox::outcome::Warning],
    ) {
    }

    #[inline(always)]
    pub(crate) fn refused<E>(
        &self,
        _: &dyn core::fmt::Display,
        _: &crate::inbox::outcome::AcceptError<E>,
    ) {
    }
}
