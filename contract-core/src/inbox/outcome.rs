//! What an acceptance returns: [`Acceptance`] with its [`Ack`] and [`Warning`]s, or an
//! [`AcceptError`]; and [`LastAcceptance`], a context's last acceptance read back.

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
/// value of the envelope (artifacts are named by their JSON pointer, `/artifacts/0`; a
/// conflict by the ids of its key).
///
/// ```
/// use contract_core::inbox::{AcceptError, Inbox, MemoryLedger, MemoryTx};
/// use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-order", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundOrder {
///     order_ref: String,
/// }
///
/// fn issue(_: &mut MemoryTx<'_>, _: &Delivery<RefundOrder>) -> Result<(), std::io::Error> {
///     Ok(())
/// }
///
/// let mut inbox = Inbox::new(MemoryLedger::new());
/// let order = |order_ref: &str| RefundOrder { order_ref: order_ref.into() };
/// let mut first = Handoff::new("ctx-1", "h-7", "billing", order("A-1")).ready();
/// inbox.accept(&send_handoff(&mut first)?.into_bytes(), issue)?;
/// // Another handoff given the same id: refused, naming the key reused.
/// let mut reused = Handoff::new("ctx-1", "h-7", "billing", order("A-2")).ready();
/// let error = inbox.accept(&send_handoff(&mut reused)?.into_bytes(), issue).unwrap_err();
/// assert!(matches!(&error, AcceptError::Conflict { handoff_id, .. } if handoff_id == "h-7"));
/// assert!(error.to_string().contains("(contextId `ctx-1`, handoffId `h-7`)"));
/// assert!(!error.to_string().contains("A-2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
        /// The `contextId` of the key reused.
        context_id: String,
        /// The `handoffId` of the key reused: the handoff accepted first under it.
        handoff_id: String,
        /// The sequence number of the acceptance of the key.
        seq: u64,
        /// The digest accepted then.
        accepted: Digest,
        /// The digest of the envelope refused.
        received: Digest,
    },
    /// The envelope's `status` is not `ready`.
    NotReady,
    /// The artifact store has no such version of an artifact (or, for an artifact that
    /// names a `digest`, no content of that version to check it against).
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

impl<E> AcceptError<E> {
    /// Whether a retry of the same envelope may succeed: a store failure that is
    /// [transient](StoreError::is_transient) (SQLite busy or locked, a PostgreSQL connection
    /// dropped, a serialization failure). A refusal, a conflict and the handler's own error
    /// are not: the same envelope gets the same answer.
    ///
    /// ```
    /// use contract_core::inbox::AcceptError;
    ///
    /// assert!(!AcceptError::<()>::NotReady.is_transient());
    /// ```
    #[must_use]
    pub fn is_transient(&self) -> bool {
        matches!(self, AcceptError::Store(error) if error.is_transient())
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
            AcceptError::Conflict {
                context_id,
                handoff_id,
                seq,
                ..
            } => write!(
                f,
                "handoff refused: its key (contextId `{context_id}`, handoffId `{handoff_id}`) \
                 was accepted before (seq {seq}) with another digest"
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
/// Its receipt is read as JSON ([`serde_json::Value`]) unless a type is asked for
/// ([`receipt`](LastAcceptance::receipt), [`typed`](LastAcceptance::typed)), so that its
/// handoff id, its sequence number and its owner are read without naming the receipt's type.
///
/// ```
/// use contract_core::inbox::{Inbox, MemoryLedger, MemoryTx};
/// use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-order", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundOrder {
///     order_ref: String,
/// }
///
/// fn issue(_: &mut MemoryTx<'_>, delivery: &Delivery<RefundOrder>) -> Result<u32, std::io::Error> {
///     Ok(delivery.payload().order_ref.len() as u32)
/// }
///
/// let order = RefundOrder { order_ref: "A-1".into() };
/// let mut handoff = Handoff::new("ctx-1", "h-1", "billing", order).ready();
/// let bytes = send_handoff(&mut handoff)?.into_bytes();
/// let mut inbox = Inbox::new(MemoryLedger::new());
/// inbox.accept(&bytes, issue)?;
///
/// let last = inbox.last_accepted("ctx-1")?.expect("ctx-1 accepted a handoff");
/// assert_eq!(last.ack.handoff_id, "h-1");
/// assert_eq!(last.receipt::<u32>()?, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Inbox::last_accepted`]: crate::inbox::Inbox::last_accepted
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastAcceptance<R = serde_json::Value> {
    /// Its acknowledgement.
    pub ack: Ack<R>,
    /// The envelope's `owner`.
    pub owner: String,
    /// The envelope, as received.
    pub envelope: Vec<u8>,
    /// The receipt as stored (JSON), which a typed read reads exactly.
    stored_receipt: Vec<u8>,
}

/// The name [`LastAcceptance`] had: a context's last acceptance read back (not the outcome
/// of an acceptance, which is [`Acceptance`]).
#[deprecated(note = "renamed `LastAcceptance` (the outcome of `accept` is `Acceptance`)")]
pub type Accepted<R = serde_json::Value> = LastAcceptance<R>;

impl<R: DeserializeOwned> LastAcceptance<R> {
    pub(crate) fn of_entry(mut entry: Entry) -> Result<LastAcceptance<R>, StoreError> {
        let owner = std::mem::take(&mut entry.owner);
        let envelope = std::mem::take(&mut entry.envelope);
        let stored_receipt = entry.receipt.clone();
        Ok(LastAcceptance {
            ack: Ack::of_entry(entry)?,
            owner,
            envelope,
            stored_receipt,
        })
    }
}

impl<R> LastAcceptance<R> {
    /// The receipt read as `R2`, from the JSON stored.
    ///
    /// ```
    /// # use contract_core::inbox::{Inbox, MemoryLedger, MemoryTx};
    /// # use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
    /// # #[derive(serde::Serialize, serde::Deserialize, HandoffContract)]
    /// # #[handoff(name = "refund-order", version = 1)]
    /// # struct RefundOrder { order_ref: String }
    /// fn issue(_: &mut MemoryTx<'_>, _: &Delivery<RefundOrder>) -> Result<String, std::io::Error> {
    ///     Ok("refund 7".to_owned())
    /// }
    /// let order = RefundOrder { order_ref: "A-1".into() };
    /// let mut handoff = Handoff::new("ctx-1", "h-1", "billing", order).ready();
    /// let bytes = send_handoff(&mut handoff)?.into_bytes();
    /// let mut inbox = Inbox::new(MemoryLedger::new());
    /// inbox.accept(&bytes, issue)?;
    /// let last = inbox.last_accepted("ctx-1")?.expect("accepted");
    /// let receipt: String = last.receipt()?;
    /// assert_eq!(receipt, "refund 7");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`StoreErrorKind::ReceiptNotRead`] when the receipt does not read as `R2`.
    pub fn receipt<R2: DeserializeOwned>(&self) -> Result<R2, StoreError> {
        // serde_json's message may quote a value of the receipt: it is not passed on.
        serde_json::from_slice(&self.stored_receipt)
            .map_err(|_| StoreError::of_kind(StoreErrorKind::ReceiptNotRead))
    }

    /// The same acceptance, its receipt read as `R2` ([`receipt`](Self::receipt)).
    ///
    /// ```
    /// # use contract_core::inbox::{Inbox, LastAcceptance, MemoryLedger, MemoryTx};
    /// # use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
    /// # #[derive(serde::Serialize, serde::Deserialize, HandoffContract)]
    /// # #[handoff(name = "refund-order", version = 1)]
    /// # struct RefundOrder { order_ref: String }
    /// fn issue(_: &mut MemoryTx<'_>, _: &Delivery<RefundOrder>) -> Result<u64, std::io::Error> {
    ///     Ok(7)
    /// }
    /// let order = RefundOrder { order_ref: "A-1".into() };
    /// let mut handoff = Handoff::new("ctx-1", "h-1", "billing", order).ready();
    /// let bytes = send_handoff(&mut handoff)?.into_bytes();
    /// let mut inbox = Inbox::new(MemoryLedger::new());
    /// inbox.accept(&bytes, issue)?;
    /// let last: LastAcceptance<u64> = inbox.last_accepted("ctx-1")?.expect("accepted").typed()?;
    /// assert_eq!(last.ack.receipt, 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`receipt`](Self::receipt).
    pub fn typed<R2: DeserializeOwned>(self) -> Result<LastAcceptance<R2>, StoreError> {
        let receipt = self.receipt()?;
        let Ack {
            context_id,
            handoff_id,
            digest,
            seq,
            accepted_at,
            ..
        } = self.ack;
        Ok(LastAcceptance {
            ack: Ack {
                context_id,
                handoff_id,
                digest,
                seq,
                accepted_at,
                receipt,
            },
            owner: self.owner,
            envelope: self.envelope,
            stored_receipt: self.stored_receipt,
        })
    }

    /// The envelope read again, its payload as `T`.
    ///
    /// ```
    /// # use contract_core::inbox::{Inbox, MemoryLedger, MemoryTx};
    /// # use contract_core::ReceiveOptions;
    /// # use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
    /// # #[derive(serde::Serialize, serde::Deserialize, HandoffContract)]
    /// # #[handoff(name = "refund-order", version = 1)]
    /// # struct RefundOrder { order_ref: String }
    /// fn issue(_: &mut MemoryTx<'_>, _: &Delivery<RefundOrder>) -> Result<(), std::io::Error> {
    ///     Ok(())
    /// }
    /// let order = RefundOrder { order_ref: "A-1".into() };
    /// let mut handoff = Handoff::new("ctx-1", "h-1", "billing", order).ready();
    /// let bytes = send_handoff(&mut handoff)?.into_bytes();
    /// let mut inbox = Inbox::new(MemoryLedger::new());
    /// inbox.accept(&bytes, issue)?;
    /// let last = inbox.last_accepted("ctx-1")?.expect("accepted");
    /// let delivery = last.delivery::<RefundOrder>(&ReceiveOptions::default())?;
    /// assert_eq!(delivery.envelope().owner, "billing");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
