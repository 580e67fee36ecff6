//! The span of one acceptance (feature `tracing`): `accept <contract>`, `INFO`, entered around
//! the whole of [`Inbox::accept`](crate::inbox::Inbox::accept), so the `receive` span of the
//! envelope and whatever the handler logs are inside it.
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `accept refund-request/v2` (the payload's contract) |
//! | `handoff.contract` | the payload's contract id |
//! | `handoff.acceptance` | `applied`, `duplicate`, or the refusal (`conflict`, `not_ready`, `artifact_unavailable`, …, [`AcceptError::as_str`]) |
//! | `handoff.warnings` | a JSON array of the warnings' names (`["owner_conflict"]`) |
//! | `handoff.attempt` | the envelope's `journey.attempt` |
//! | `handoff.seq` | the acknowledgement's sequence number |
//! | `handoff.digest` | the envelope's [`Digest`](crate::envelope::Digest) (`sha256:…`), once computed |
//! | `gen_ai.conversation.id` | the journey's session, else the envelope's `contextId` |
//!
//! Each warning is also a `WARN` event inside the span, and a refusal other than the
//! envelope's rejection (which `receive` reports in its own span) one more. No field holds a
//! value of the envelope.
//!
//! With the feature `otel`, every acceptance is also counted on the global meter provider's
//! `handoff-contract` meter (acceptances by outcome and refusal reason, retries, owner
//! conflicts, envelope bytes, accept latency: the `otel` module's docs list the instruments),
//! whether or not a subscriber records the span.

#[cfg(feature = "tracing")]
use crate::inbox::outcome::{AcceptError, Warning};

/// The span of one acceptance (nothing without the `tracing` feature), and with `otel` what
/// its metrics need.
#[cfg(feature = "tracing")]
pub(crate) struct AcceptSpan(tracing::Span, #[cfg(feature = "otel")] Metered);

/// What an acceptance's metrics need beyond its outcome: when it started, the envelope's size
/// and attempt.
#[cfg(feature = "otel")]
pub(crate) struct Metered {
    started: std::time::Instant,
    bytes: usize,
    attempt: std::cell::Cell<Option<u32>>,
}

/// Without the `tracing` feature an acceptance has no span.
#[cfg(not(feature = "tracing"))]
pub(crate) struct AcceptSpan;

#[cfg(feature = "tracing")]
impl AcceptSpan {
    /// Opens the span of an acceptance of a payload of contract `contract`, `bytes` long.
    pub(crate) fn start(contract: &dyn core::fmt::Display, bytes: usize) -> AcceptSpan {
        use tracing::field::Empty;
        #[cfg(not(feature = "otel"))]
        let _ = bytes;
        AcceptSpan(
            tracing::info_span!(
                "handoff.accept",
                otel.name = %format_args!("accept {contract}"),
                otel.kind = "consumer",
                handoff.contract = %contract,
                handoff.acceptance = Empty,
                handoff.warnings = Empty,
                handoff.attempt = Empty,
                handoff.seq = Empty,
                handoff.digest = Empty,
                gen_ai.conversation.id = Empty,
            ),
            #[cfg(feature = "otel")]
            Metered {
                started: std::time::Instant::now(),
                bytes,
                attempt: std::cell::Cell::new(None),
            },
        )
    }

    /// Records the envelope's digest and its conversation: the session, else the context.
    pub(crate) fn envelope(&self, digest: &crate::envelope::Digest, session: &str) {
        if self.0.is_disabled() {
            return;
        }
        self.0
            .record("handoff.digest", tracing::field::display(digest));
        self.0.record("gen_ai.conversation.id", session);
    }

    /// The span entered: the acceptance runs inside it.
    pub(crate) fn enter(&self) -> tracing::span::Entered<'_> {
        self.0.enter()
    }

    /// Records the envelope's attempt.
    pub(crate) fn attempt(&self, attempt: Option<u32>) {
        #[cfg(feature = "otel")]
        self.1.attempt.set(attempt);
        if let Some(attempt) = attempt {
            self.0.record("handoff.attempt", attempt);
        }
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
        self.0.record("handoff.acceptance", outcome);
        self.0.record("handoff.seq", seq);
        if !warnings.is_empty() {
            let names: Vec<&str> = warnings.iter().map(|w| w.as_str()).collect();
            let names = serde_json::to_string(&names).unwrap_or_default();
            self.0.record("handoff.warnings", names.as_str());
            for warning in warnings {
                tracing::warn!(
                    parent: &self.0,
                    handoff.warning = warning.as_str(),
                    "handoff accepted with a warning: {warning}"
                );
            }
        }
    }

    /// Records a refusal or a failure.
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
        self.0.record("handoff.acceptance", error.as_str());
        if !matches!(error, AcceptError::Rejected(_)) {
            tracing::warn!(
                parent: &self.0,
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
            attempt: self.1.attempt.get(),
            owner_conflict,
            bytes: self.1.bytes,
            duration: self.1.started.elapsed(),
        });
    }
}

#[cfg(not(feature = "tracing"))]
impl AcceptSpan {
    #[inline(always)]
    pub(crate) fn start(_: &dyn core::fmt::Display, _: usize) -> AcceptSpan {
        AcceptSpan
    }

    #[inline(always)]
    pub(crate) fn envelope(&self, _: &crate::envelope::Digest, _: &str) {}

    #[inline(always)]
    pub(crate) fn enter(&self) {}

    #[inline(always)]
    pub(crate) fn attempt(&self, _: Option<u32>) {}

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
