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
//!
//! Each warning is also a `WARN` event inside the span, and a refusal other than the
//! envelope's rejection (which `receive` reports in its own span) one more. No field holds a
//! value of the envelope.

#[cfg(feature = "tracing")]
use crate::inbox::outcome::{AcceptError, Warning};

/// The span of one acceptance (nothing without the `tracing` feature).
#[cfg(feature = "tracing")]
pub(crate) struct AcceptSpan(tracing::Span);

/// Without the `tracing` feature an acceptance has no span.
#[cfg(not(feature = "tracing"))]
pub(crate) struct AcceptSpan;

#[cfg(feature = "tracing")]
impl AcceptSpan {
    /// Opens the span of an acceptance of a payload of contract `contract`.
    pub(crate) fn start(contract: &dyn core::fmt::Display) -> AcceptSpan {
        use tracing::field::Empty;
        AcceptSpan(tracing::info_span!(
            "handoff.accept",
            otel.name = %format_args!("accept {contract}"),
            handoff.contract = %contract,
            handoff.acceptance = Empty,
            handoff.warnings = Empty,
            handoff.attempt = Empty,
            handoff.seq = Empty,
        ))
    }

    /// The span entered: the acceptance runs inside it.
    pub(crate) fn enter(&self) -> tracing::span::Entered<'_> {
        self.0.enter()
    }

    /// Records the envelope's attempt.
    pub(crate) fn attempt(&self, attempt: Option<u32>) {
        if let Some(attempt) = attempt {
            self.0.record("handoff.attempt", attempt);
        }
    }

    /// Records an acceptance: applied now or a duplicate.
    pub(crate) fn accepted(&self, outcome: &'static str, seq: u64, warnings: &[Warning]) {
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
    pub(crate) fn refused<E>(&self, error: &AcceptError<E>) {
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

#[cfg(not(feature = "tracing"))]
impl AcceptSpan {
    #[inline(always)]
    pub(crate) fn start(_: &dyn core::fmt::Display) -> AcceptSpan {
        AcceptSpan
    }

    #[inline(always)]
    pub(crate) fn enter(&self) {}

    #[inline(always)]
    pub(crate) fn attempt(&self, _: Option<u32>) {}

    #[inline(always)]
    pub(crate) fn accepted(&self, _: &'static str, _: u64, _: &[crate::inbox::outcome::Warning]) {}

    #[inline(always)]
    pub(crate) fn refused<E>(&self, _: &crate::inbox::outcome::AcceptError<E>) {}
}
