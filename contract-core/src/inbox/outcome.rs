//! What an acceptance returns: [`Acceptance`] with its [`Ack`] and [`Warning`]s, or an
//! [`AcceptError`]; and [`Accepted`], a context's last acceptance read back.

use core::fmt;
use std::error::Error;
use std::time::SystemTime;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::envelope::{receive_handoff, Delivery, Digest, DigestError, HandoffRejection, ENVELOPE};
use crate::inbox::ledger::{Entry, StoreError, StoreErrorKind};
use crate::runtime::options::ReceiveOptions;
use crate::traits::HandoffContract;

/// The acknowledgement of an accepted handoff: its key, its digest, where it stands in the
/// ledger, when it was accepted and the handler's receipt. A duplicate gets the first
/// acceptance's, unchanged.
///
/// It serializes with camelCase keys (`contextId`, `handoffId`, `digest`, `seq`,
/// `acceptedAt` as RFC 3339 in UTC, `receipt`), to be sent back to the sender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ack<R> {
    /// The envelope's `contextId`.
    pub context_id: String,
    /// The envelope's `handoffId`.
    pub handoff_id: String,
    /// The envelope's digest ([`Digest::of_envelope`]).
    pub digest: Digest,
    /// The ledger's sequence number of the acceptance.
    pub seq: u64,
    /// When it was accepted (microseconds, as the ledger keeps it).
    #[serde(with = "crate::inbox::time::rfc3339")]
    pub accepted_at: SystemTime,
    /// What the handler returned.
    pub receipt: R,
}

impl<R: DeserializeOwned> Ack<R> {
    /// The acknowledgement a ledger entry holds.
    pub(crate) fn of_entry(entry: Entry) -> Result<Ack<R>, StoreError> {
        // serde_json's message may quote a value of the receipt: it is not passed on.
        let receipt = serde_json::from_slice(&entry.receipt)
            .map_err(|_| StoreError::of_kind(StoreErrorKind::ReceiptNotRead))?;
        Ok(Ack {
            context_id: entry.context_id,
            handoff_id: entry.handoff_id,
            digest: entry.digest,
            seq: entry.seq,
            accepted_at: entry.accepted_at,
            receipt,
        })
    }
}

/// An envelope accepted: applied now, or a duplicate of one applied before.
#[derive(Debug, Clone)]
// `Applied` is the common case and holds the delivery by value: boxing it would allocate on
// every acceptance to shrink the duplicate.
#[allow(clippy::large_enum_variant)]
pub enum Acceptance<T, R> {
    /// Applied now: the handler ran and its effects committed with the ledger's entry.
    Applied {
        /// The acknowledgement.
        ack: Ack<R>,
        /// The envelope, read.
        delivery: Delivery<T>,
        /// What was accepted but is worth a look (also on the `accept` span).
        warnings: Vec<Warning>,
    },
    /// The same envelope (the same digest) was accepted before: nothing ran, and this is the
    /// first acceptance's acknowledgement.
    Duplicate(Ack<R>),
}

impl<T, R> Acceptance<T, R> {
    /// The acknowledgement, applied now or before.
    #[must_use]
    pub fn ack(&self) -> &Ack<R> {
        match self {
            Acceptance::Applied { ack, .. } | Acceptance::Duplicate(ack) => ack,
        }
    }

    /// The acknowledgement, owned.
    #[must_use]
    pub fn into_ack(self) -> Ack<R> {
        match self {
            Acceptance::Applied { ack, .. } | Acceptance::Duplicate(ack) => ack,
        }
    }

    /// Whether the handler ran now.
    #[must_use]
    pub fn is_applied(&self) -> bool {
        matches!(self, Acceptance::Applied { .. })
    }

    /// The warnings of an acceptance applied now (none for a duplicate).
    #[must_use]
    pub fn warnings(&self) -> &[Warning] {
        match self {
            Acceptance::Applied { warnings, .. } => warnings,
            Acceptance::Duplicate(_) => &[],
        }
    }
}

/// What an acceptance did but is worth a look: signals for whoever runs the inbox, not
/// faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Warning {
    /// The envelope's `journey.handoffFrom` is not the `owner` of the context's last
    /// accepted handoff (the agent that handoff made responsible for the context): the
    /// context is handed off by an agent that does not hold it.
    OwnerConflict,
    /// `journey.attempt` is above 1 but `journey.retryOf` does not name the run retried.
    RetryWithoutRetryOf,
}

impl Warning {
    /// The warning's name, as the span and its JSON write it (`owner_conflict`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Warning::OwnerConflict => "owner_conflict",
            Warning::RetryWithoutRetryOf => "retry_without_retry_of",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Warning::OwnerConflict => {
                "journey.handoffFrom is not the owner of the context's last accepted handoff"
            }
            Warning::RetryWithoutRetryOf => {
                "journey.attempt is above 1 but journey.retryOf does not name the run retried"
            }
        })
    }
}

/// Why an envelope was not accepted. A refusal wrote nothing; no variant's message holds a
/// value of the envelope (artifacts are named by their JSON pointer, `/artifacts/0`).
#[derive(Debug)]
#[non_exhaustive]
pub enum AcceptError<E> {
    /// The envelope or its payload was refused by [`receive_handoff`].
    Rejected(HandoffRejection),
    /// The envelope has no RFC 8785 form, so no digest.
    Digest(DigestError),
    /// Its key (`contextId`, `handoffId`) was accepted before with another digest: a retry
    /// that changed the envelope, or two handoffs given one id.
    Conflict {
        /// The sequence number of the acceptance of the key.
        seq: u64,
        /// The digest accepted then.
        accepted: Digest,
        /// The digest of the envelope refused.
        received: Digest,
    },
    /// The envelope's `status` is not `ready`.
    NotReady,
    /// The artifact store has no such version of an artifact.
    ArtifactUnavailable {
        /// Its index in `artifacts`.
        index: usize,
    },
    /// An artifact's version is below the one the context last accepted for its `uri`.
    ArtifactRegressed {
        /// Its index in `artifacts`.
        index: usize,
    },
    /// An artifact's `digest` does not match the content the store has for its version.
    ArtifactChanged {
        /// Its index in `artifacts`.
        index: usize,
    },
    /// The handler failed: everything it wrote in the transaction was rolled back.
    Handler(E),
    /// The ledger or the artifact store failed (or a test injected a failure).
    Store(StoreError),
}

impl<E> AcceptError<E> {
    /// The refusal's name, as the span writes it: `rejected`, `digest`, `conflict`,
    /// `not_ready`, `artifact_unavailable`, `artifact_regressed`, `artifact_changed`,
    /// `handler`, `store`.
    #[must_use]
    pub fn as_str(&self) -> &'static str {
        match self {
            AcceptError::Rejected(_) => "rejected",
            AcceptError::Digest(_) => "digest",
            AcceptError::Conflict { .. } => "conflict",
            AcceptError::NotReady => "not_ready",
            AcceptError::ArtifactUnavailable { .. } => "artifact_unavailable",
            AcceptError::ArtifactRegressed { .. } => "artifact_regressed",
            AcceptError::ArtifactChanged { .. } => "artifact_changed",
            AcceptError::Handler(_) => "handler",
            AcceptError::Store(_) => "store",
        }
    }
}

impl<E> From<StoreError> for AcceptError<E> {
    fn from(error: StoreError) -> Self {
        AcceptError::Store(error)
    }
}

/// Each refusal says "handoff refused" once, then why: a rejection's problems follow its
/// count, one line each, as [`HandoffRejection`]'s own `Display` lists them.
impl<E: fmt::Display> fmt::Display for AcceptError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AcceptError::Rejected(rejection) => {
                let n = rejection.problems().len();
                write!(
                    f,
                    "handoff refused: {n} problem{} in {ENVELOPE} carrying {}",
                    if n == 1 { "" } else { "s" },
                    rejection.payload_contract()
                )?;
                for problem in rejection.problems() {
                    write!(f, "\n  {problem}")?;
                }
                Ok(())
            }
            AcceptError::Digest(error) => write!(f, "handoff refused: {error}"),
            AcceptError::Conflict { seq, .. } => write!(
                f,
                "handoff refused: its key (contextId, handoffId) was accepted before (seq {seq}) \
                 with another digest"
            ),
            AcceptError::NotReady => f.write_str("handoff refused: /status is not `ready`"),
            AcceptError::ArtifactUnavailable { index } => write!(
                f,
                "handoff refused: /artifacts/{index}: the artifact store has no such version"
            ),
            AcceptError::ArtifactRegressed { index } => write!(
                f,
                "handoff refused: /artifacts/{index}/version: below the version the context \
                 last accepted for this uri"
            ),
            AcceptError::ArtifactChanged { index } => write!(
                f,
                "handoff refused: /artifacts/{index}/digest: the stored content of this version \
                 has another digest"
            ),
            AcceptError::Handler(error) => write!(f, "the handler failed: {error}"),
            AcceptError::Store(error) => fmt::Display::fmt(error, f),
        }
    }
}

/// Its `Display` already says what a rejection, a digest error, the handler's error or the
/// store's error says: `source` goes on from there (the handler's and the store's own
/// causes), so that a report walking the chain (`anyhow`'s `{:#}`) says each thing once.
/// The variants hold the errors themselves.
impl<E: Error + 'static> Error for AcceptError<E> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            AcceptError::Handler(error) => error.source(),
            AcceptError::Store(error) => error.source(),
            _ => None,
        }
    }
}

/// A context's last acceptance, read back ([`Inbox::last_accepted`]): the rollback target,
/// with the envelope as it was received.
///
/// [`Inbox::last_accepted`]: crate::inbox::Inbox::last_accepted
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted<R> {
    /// Its acknowledgement.
    pub ack: Ack<R>,
    /// The envelope's `owner`.
    pub owner: String,
    /// The envelope, as received.
    pub envelope: Vec<u8>,
}

impl<R: DeserializeOwned> Accepted<R> {
    pub(crate) fn of_entry(mut entry: Entry) -> Result<Accepted<R>, StoreError> {
        let owner = std::mem::take(&mut entry.owner);
        let envelope = std::mem::take(&mut entry.envelope);
        Ok(Accepted {
            ack: Ack::of_entry(entry)?,
            owner,
            envelope,
        })
    }
}

impl<R> Accepted<R> {
    /// The envelope read again, its payload as `T`.
    ///
    /// # Errors
    ///
    /// When `T` does not read it (another contract, or a version `T` cannot read).
    pub fn delivery<T>(&self, options: &ReceiveOptions) -> Result<Delivery<T>, HandoffRejection>
    where
        T: DeserializeOwned + HandoffContract + 'static,
    {
        receive_handoff::<T>(&self.envelope, options)
    }
}
