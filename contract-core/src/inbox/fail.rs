//! Failure points in [`Inbox::accept`](crate::inbox::Inbox::accept), for the conformance
//! suite (hidden feature `__fail-points`): before the handler (the transaction open), in
//! the handler (after it ran, before the key and its receipt are recorded), after the
//! commit (before the acknowledgement is returned). Each is inert until a test arms it on
//! one inbox, and fires once.
//!
//! Without the feature the points cost nothing: [`FailPoints`] is empty and every point
//! passes.

use crate::inbox::ledger::StoreError;
#[cfg(feature = "__fail-points")]
use crate::inbox::ledger::StoreErrorKind;

/// Where a failure is injected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[doc(hidden)]
pub enum FailPoint {
    /// The transaction is open and the context's state read in it; the handler has not
    /// run. (The key's claim is written after the handler, with its receipt: a key claimed
    /// by another transaction meanwhile is found then, and the handler's effects roll back.)
    AfterClaim,
    /// The handler ran; its receipt is not recorded, nothing is committed.
    InHandler,
    /// The transaction committed; the acknowledgement is not returned.
    AfterCommit,
}

/// What an armed failure point does when it is reached.
#[doc(hidden)]
#[cfg(feature = "__fail-points")]
pub enum FailAction {
    /// `accept` fails with a [`StoreError`] of kind `Injected` (the transaction, when still
    /// open, rolls back).
    Error,
    /// Calls the function, then goes on (a test that kills its own process there).
    Call(Box<dyn FnMut() + Send>),
}

#[cfg(feature = "__fail-points")]
impl core::fmt::Debug for FailAction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            FailAction::Error => "Error",
            FailAction::Call(_) => "Call",
        })
    }
}

/// The failure points armed on one inbox.
#[derive(Debug, Default)]
pub(crate) struct FailPoints {
    #[cfg(feature = "__fail-points")]
    armed: Vec<(FailPoint, FailAction)>,
}

impl FailPoints {
    /// Arms `at`: the next acceptance that reaches it does `action`.
    #[cfg(feature = "__fail-points")]
    pub(crate) fn arm(&mut self, at: FailPoint, action: FailAction) {
        self.armed.push((at, action));
    }

    /// Passes `at`, or fires what is armed there (once).
    #[cfg(feature = "__fail-points")]
    pub(crate) fn hit(&mut self, at: FailPoint) -> Result<(), StoreError> {
        let Some(i) = self.armed.iter().position(|(point, _)| *point == at) else {
            return Ok(());
        };
        match self.armed.remove(i).1 {
            FailAction::Error => Err(StoreError::of_kind(StoreErrorKind::Injected)),
            FailAction::Call(mut call) => {
                call();
                Ok(())
            }
        }
    }

    /// Passes `at`: without the feature nothing can be armed.
    #[cfg(not(feature = "__fail-points"))]
    #[inline(always)]
    pub(crate) fn hit(&mut self, _at: FailPoint) -> Result<(), StoreError> {
        Ok(())
    }
}
