//! [`Inbox`]: idempotent, durable acceptance of handoff envelopes.

use std::time::SystemTime;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::envelope::{noted_digest, receive_handoff, Delivery, Digest, Status};
use crate::inbox::artifacts::{ArtifactStore, NoArtifacts};
#[cfg(feature = "__fail-points")]
use crate::inbox::fail::FailAction;
use crate::inbox::fail::{FailPoint, FailPoints};
use crate::inbox::journal::{Outcome, Step};
use crate::inbox::ledger::{
    Claim, Claimed, Entry, Ledger, Open, Opened, Settle, StoreError, StoreErrorKind,
};
use crate::inbox::outcome::{AcceptError, Acceptance, Ack, LastAcceptance, Warning};
use crate::inbox::span::AcceptSpan;
use crate::inbox::steps::{self, Head};
use crate::inbox::time::to_micro_precision;
use crate::runtime::options::ReceiveOptions;
use crate::runtime::presence::Presence;
use crate::traits::HandoffContract;

/// Accepts handoff envelopes exactly once per key (`contextId`, `handoffId`): each envelope's
/// handler runs in one transaction with the ledger's record of it, so that its effects and
/// the record commit together, and a retry of a committed envelope gets the first
/// acknowledgement back without running anything.
///
/// Effects written **in the same database** through the transaction the handler gets apply
/// once. Effects elsewhere (an email, a call to another service) cannot join the
/// transaction: the handler should pass them on with the key (`contextId`, `handoffId`) as
/// their idempotency key, or record them in the transaction for an outbox to send.
///
/// One inbox uses one connection (its ledger) and is not shared: threads and tasks each
/// have their own inbox over a clone of the ledger or another connection to its database
/// (`AsyncInbox`, feature `tokio`, keeps a pool of them).
///
/// ```
/// use contract_core::inbox::{Acceptance, Inbox, MemoryLedger, MemoryTx};
/// use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-order", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundOrder {
///     order_ref: String,
/// }
///
/// let order = RefundOrder { order_ref: "A-1".into() };
/// let mut handoff = Handoff::new("ctx-1", "handoff-7", "refund-specialist", order).ready();
/// let bytes = send_handoff(&mut handoff)?.into_bytes();
///
/// // The handler: its signature names the payload, the receipt and the error, so the
/// // calls below name no type.
/// fn apply(tx: &mut MemoryTx<'_>, delivery: &Delivery<RefundOrder>) -> Result<String, std::io::Error> {
///     tx.put(format!("refund/{}", delivery.payload().order_ref), "issued");
///     Ok("refund issued".to_owned())
/// }
///
/// let ledger = MemoryLedger::new();
/// let mut inbox = Inbox::new(ledger.clone());
/// let first = inbox.accept(&bytes, apply)?;
/// assert!(first.is_applied());
/// // A retry of the same envelope: nothing runs, the first acknowledgement comes back.
/// let again = inbox.accept(&bytes, apply)?;
/// assert!(matches!(again, Acceptance::Duplicate(ref ack) if ack == first.ack()));
/// assert_eq!(ledger.get("refund/A-1").as_deref(), Some(&b"issued"[..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Inbox<L, A = NoArtifacts> {
    ledger: L,
    artifacts: A,
    options: ReceiveOptions,
    steps: bool,
    fail: FailPoints,
}

impl<L: Ledger> Inbox<L, NoArtifacts> {
    /// An inbox over a ledger, for envelopes without artifacts (one naming an artifact is
    /// refused: [`NoArtifacts`] resolves none).
    #[must_use]
    pub fn new(ledger: L) -> Self {
        Inbox::with_artifacts(ledger, NoArtifacts)
    }
}

impl<L: Ledger, A: ArtifactStore> Inbox<L, A> {
    /// An inbox over a ledger, that resolves the envelopes' artifacts in `artifacts`.
    #[must_use]
    pub fn with_artifacts(ledger: L, artifacts: A) -> Self {
        Inbox {
            ledger,
            artifacts,
            options: ReceiveOptions::default(),
            steps: true,
            fail: FailPoints::default(),
        }
    }

    /// With these options for [`receive_handoff`] (limits, the journey of the traces).
    #[must_use]
    pub fn options(mut self, options: ReceiveOptions) -> Self {
        self.options = options;
        self
    }

    /// With the journey's steps recorded in the ledger (`true`, the default) or not: each
    /// outcome of [`accept`](Inbox::accept) leaves a [`Step`](crate::inbox::Step) of its
    /// session (an applied one in the acceptance's transaction), which
    /// [`Ledger::session`] and the session view read. Without them, a session's journey
    /// cannot be shown from this ledger.
    #[must_use]
    pub fn steps(mut self, record: bool) -> Self {
        self.steps = record;
        self
    }

    /// The ledger.
    #[must_use]
    pub fn ledger(&self) -> &L {
        &self.ledger
    }

    /// The ledger, mutably (its connection, for reads outside an acceptance).
    #[must_use]
    pub fn ledger_mut(&mut self) -> &mut L {
        &mut self.ledger
    }

    /// The ledger, the inbox given up (to close it, or for what only the ledger gives:
    /// `PostgresLedger::into_client`, say).
    ///
    /// ```
    /// use contract_core::inbox::{Inbox, MemoryLedger};
    ///
    /// let inbox = Inbox::new(MemoryLedger::new());
    /// let ledger: MemoryLedger = inbox.into_ledger();
    /// # let _ = ledger;
    /// ```
    #[must_use]
    pub fn into_ledger(self) -> L {
        self.ledger
    }

    /// The artifact store.
    #[must_use]
    pub fn artifacts(&self) -> &A {
        &self.artifacts
    }

    /// Accepts an envelope, running `handler` once per key (`contextId`, `handoffId`):
    ///
    /// 1. [`receive_handoff`] reads the envelope and its payload as `T`, else
    ///    [`AcceptError::Rejected`]. A retry of an envelope accepted before is answered
    ///    first (step 2), without its payload being read again: its key and digest are read
    ///    in one pass, and the same digest is the same envelope, read when it was accepted.
    /// 2. Its [`Digest`] ([`Digest::of_envelope`]: a retry keeps it, since it leaves out
    ///    `journey.attempt` and `journey.retryOf`). A key accepted before with the same
    ///    digest is a [`Acceptance::Duplicate`] with the first acknowledgement, and nothing
    ///    runs; with another digest, [`AcceptError::Conflict`].
    /// 3. Refused, writing nothing: a `status` other than `ready`
    ///    ([`AcceptError::NotReady`]); an artifact version the [`ArtifactStore`] does not
    ///    resolve ([`ArtifactUnavailable`](AcceptError::ArtifactUnavailable)), one whose
    ///    `digest` is not its content's ([`ArtifactChanged`](AcceptError::ArtifactChanged)),
    ///    one below the version the context last accepted for its `uri`
    ///    ([`ArtifactRegressed`](AcceptError::ArtifactRegressed)). Accepted with a
    ///    [`Warning::OwnerConflict`]: a `journey.handoffFrom` that is not the `owner` of the
    ///    context's last accepted handoff.
    /// 4. In one transaction: the claim of the key, the handler, the acknowledgement, the
    ///    commit: [`Acceptance::Applied`]. A handler error ([`AcceptError::Handler`]) rolls
    ///    all of it back. `journey.attempt` above 1 without `journey.retryOf` is accepted with
    ///    a [`Warning::RetryWithoutRetryOf`].
    ///
    /// Two inboxes accepting the same envelope at once (two connections to one database):
    /// one applies it, the other waits for its commit and gets a duplicate.
    ///
    /// # No type arguments
    ///
    /// The call names no type: the payload type `T` comes from the handler's delivery
    /// argument (`&Delivery<RefundOrder>`), the receipt `R` and the error `E` from its
    /// return (`Result<R, E>`). Write the handler as a function, as an axum or a sqlx
    /// handler is written, or as a closure whose delivery and return are typed. (A closure
    /// returning `Ok(..)` after a `?` leaves Rust no error type to infer: give it its return
    /// type, `|tx, delivery: &Delivery<RefundOrder>| -> Result<u64, MyError> { .. }`.)
    ///
    /// ```
    /// use contract_core::inbox::{AcceptError, Inbox, MemoryLedger, MemoryTx};
    /// use contract_core::{send_handoff, Delivery, Handoff, HandoffContract};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize, HandoffContract)]
    /// #[handoff(name = "refund-order", version = 1)]
    /// #[serde(rename_all = "camelCase")]
    /// struct RefundOrder {
    ///     order_ref: String,
    ///     amount_cents: u32,
    /// }
    ///
    /// #[derive(Debug)]
    /// struct TooLarge;
    /// impl std::fmt::Display for TooLarge {
    ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    ///         f.write_str("the refund is above the limit")
    ///     }
    /// }
    /// impl std::error::Error for TooLarge {}
    ///
    /// fn issue(tx: &mut MemoryTx<'_>, delivery: &Delivery<RefundOrder>) -> Result<u32, TooLarge> {
    ///     let order = delivery.payload();
    ///     if order.amount_cents > 10_000 {
    ///         return Err(TooLarge);
    ///     }
    ///     tx.put(format!("refund/{}", order.order_ref), order.amount_cents.to_string());
    ///     Ok(order.amount_cents)
    /// }
    ///
    /// let mut inbox = Inbox::new(MemoryLedger::new());
    /// let order = RefundOrder { order_ref: "A-1".into(), amount_cents: 20_000 };
    /// let mut handoff = Handoff::new("ctx-1", "h-1", "billing", order).ready();
    /// let bytes = send_handoff(&mut handoff)?.into_bytes();
    /// // The handler refused: its effects rolled back, nothing recorded.
    /// assert!(matches!(inbox.accept(&bytes, issue), Err(AcceptError::Handler(TooLarge))));
    ///
    /// // A closure: its delivery and its return typed.
    /// let order = RefundOrder { order_ref: "A-2".into(), amount_cents: 1_250 };
    /// let mut handoff = Handoff::new("ctx-1", "h-2", "billing", order).ready();
    /// let bytes = send_handoff(&mut handoff)?.into_bytes();
    /// let acceptance = inbox.accept(&bytes, |tx, delivery: &Delivery<RefundOrder>| -> Result<u32, TooLarge> {
    ///     let cents = issue(tx, delivery)?;
    ///     Ok(cents)
    /// })?;
    /// assert_eq!(acceptance.ack().receipt, 1_250);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`AcceptError`]: a refusal (nothing written), the handler's error (rolled back), or
    /// the store's failure.
    pub fn accept<T, R, E, F>(
        &mut self,
        bytes: &[u8],
        handler: F,
    ) -> Result<Acceptance<T, R>, AcceptError<E>>
    where
        T: DeserializeOwned + HandoffContract + 'static,
        R: Serialize + DeserializeOwned,
        F: FnOnce(&mut L::Tx<'_>, &Delivery<T>) -> Result<R, E>,
    {
        let span = AcceptSpan::start(&T::CONTRACT, bytes.len(), &self.options.journey);
        let contract = &T::CONTRACT;
        #[allow(clippy::let_unit_value)]
        let _entered = span.enter();
        let mut seen = Seen::default();
        let result = self.accept_in_span(bytes, handler, &span, &mut seen);
        // Where the envelope was not read in full (a duplicate answered early, a rejection),
        // one lenient read of its top level, when the span or the step needs it, names the
        // handoff for both.
        let max_bytes = self.options.limits.max_bytes;
        let lenient = std::cell::OnceCell::new();
        let lenient = || lenient.get_or_init(|| Head::lenient(bytes, max_bytes));
        if !seen.read && span.names_wanted() {
            let (head, _) = lenient();
            if let (Some(context_id), Some(handoff_id)) = (&head.context_id, &head.handoff_id) {
                span.handoff(context_id, handoff_id, &head.journey);
            }
        }
        if self.steps {
            self.note_step::<T, R, E>(&result, seen, lenient);
        }
        match &result {
            Ok(Acceptance::Applied { ack, warnings, .. }) => {
                span.accepted(contract, "applied", ack.seq, warnings);
            }
            Ok(Acceptance::Duplicate(ack)) => {
                span.accepted(contract, "duplicate", ack.seq, &[]);
            }
            Err(error) => span.refused(contract, error),
        }
        result
    }

    /// Records the step of an acceptance that was not applied (an applied one is recorded
    /// in its transaction): what the acceptance read of the envelope, else a lenient read
    /// of its top level. A failure to record it does not hide the outcome: the step is lost,
    /// the refusal or the duplicate is answered.
    fn note_step<'b, T, R, E>(
        &mut self,
        result: &Result<Acceptance<T, R>, AcceptError<E>>,
        seen: Seen<T>,
        lenient: impl FnOnce() -> &'b (Head, Option<Presence>),
    ) where
        T: HandoffContract + 'static,
    {
        // A redelivery answered before its payload was read: counted on its step, if it has
        // one, without building it again (where the ledger read the key in its transaction,
        // counted there already).
        if let (Ok(Acceptance::Duplicate(_)), Some(key)) = (result, &seen.duplicate) {
            if seen.touched {
                return;
            }
            let now = to_micro_precision(SystemTime::now());
            if let Ok(true) = self.ledger.touch(key, now) {
                return;
            }
        }
        let now = to_micro_precision(SystemTime::now());
        let (outcome, reason, problems, presence) = match result {
            Ok(Acceptance::Applied { .. }) => return,
            Ok(Acceptance::Duplicate(_)) => (Outcome::Duplicate, None, &[][..], None),
            Err(error) => {
                let Some(outcome) = steps::outcome_of(error) else {
                    return;
                };
                match error {
                    AcceptError::Rejected(rejection) => (
                        outcome,
                        Some(error.as_str()),
                        rejection.problems(),
                        rejection.presence(),
                    ),
                    _ => (outcome, Some(error.as_str()), &[][..], None),
                }
            }
        };
        let step = match &seen.delivery {
            Some(delivery) => steps::step::<T>(
                outcome,
                reason,
                Head::of(delivery),
                Some(delivery.presence()),
                delivery.envelope().sender_presence.as_ref(),
                problems,
                now,
            ),
            None => {
                let (head, sender) = lenient();
                steps::step::<T>(
                    outcome,
                    reason,
                    head.clone(),
                    presence,
                    sender.as_ref(),
                    problems,
                    now,
                )
            }
        };
        let _ = self.ledger.note(&step);
    }

    fn accept_in_span<T, R, E, F>(
        &mut self,
        bytes: &[u8],
        handler: F,
        span: &AcceptSpan,
        seen: &mut Seen<T>,
    ) -> Result<Acceptance<T, R>, AcceptError<E>>
    where
        T: DeserializeOwned + HandoffContract + 'static,
        R: Serialize + DeserializeOwned,
        F: FnOnce(&mut L::Tx<'_>, &Delivery<T>) -> Result<R, E>,
    {
        // 0. A retry of an accepted handoff is the common repeat: its key and digest, read in
        //    one pass, find the first acknowledgement before the payload is read again. The
        //    same digest is the same envelope (but `attempt` and `retryOf`), read and accepted
        //    when it was applied.
        // A new key's acceptance in its open transaction, from step 0 or step 4: the handler,
        // the step's record (when the inbox records steps) and the fail points go with it.
        let (record_steps, fail) = (self.steps, &mut self.fail);
        let accept_new = |tx: L::Tx<'_>,
                          statements: &L::Statements,
                          opened: Opened,
                          delivery: Delivery<T>,
                          applying: Applying<'_>,
                          seen: &mut Seen<T>| {
            apply::<L, T, R, E, F>(
                tx,
                statements,
                opened,
                delivery,
                applying,
                record_steps,
                handler,
                fail,
                seen,
            )
        };
        let noted = noted_digest(bytes);
        let mut found = None;
        if let Ok((digest, noted)) = &noted {
            if let (Some(context_id), Some(handoff_id)) = (&noted.context_id, &noted.handoff_id) {
                let duplicate_key = || {
                    Step::key_of(
                        Some(noted.session_id.as_deref().unwrap_or(context_id)),
                        Some(context_id),
                        Some(handoff_id),
                        noted.attempt,
                        Outcome::Duplicate,
                    )
                };
                if L::KEY_IN_TRANSACTION {
                    // The key read in the transaction, after the context's lock: a duplicate
                    // is answered and counted there, a new key goes on in that transaction.
                    let accepted_at = to_micro_precision(SystemTime::now());
                    let key = self.steps.then(duplicate_key);
                    let (mut tx, statements) =
                        self.ledger.begin().map_err(StoreError::of_ledger::<L>)?;
                    let open = Open {
                        context_id,
                        handoff_id,
                        digest,
                        uris: &[],
                        touch: key.as_deref().map(|key| (key, accepted_at)),
                    };
                    let mut opened =
                        L::open(statements, &mut tx, &open).map_err(StoreError::of_ledger::<L>)?;
                    match opened.entry.take() {
                        Some(entry) if entry.digest == *digest => {
                            // What the transaction wrote is the step's count.
                            L::commit(tx).map_err(StoreError::of_ledger::<L>)?;
                            seen.duplicate = key;
                            seen.touched = opened.touched;
                            span.attempt(noted.attempt);
                            span.digest(digest);
                            return Ok(Acceptance::Duplicate(Ack::of_entry(entry)?));
                        }
                        Some(entry) => {
                            rollback::<L>(tx);
                            found = Some((context_id.clone(), handoff_id.clone(), Some(entry)));
                        }
                        None => {
                            let delivery = match read(bytes, &self.options, span, seen) {
                                Ok(delivery) => delivery,
                                Err(error) => {
                                    rollback::<L>(tx);
                                    return Err(error);
                                }
                            };
                            let envelope = delivery.envelope();
                            if envelope.context_id == **context_id
                                && *envelope.handoff_id == **handoff_id
                            {
                                span.digest(digest);
                                let warnings = match checks(&self.artifacts, &delivery) {
                                    Ok(warnings) => warnings,
                                    Err(error) => {
                                        rollback::<L>(tx);
                                        seen.delivery = Some(delivery);
                                        return Err(error);
                                    }
                                };
                                let applying = Applying {
                                    digest: *digest,
                                    bytes,
                                    accepted_at,
                                    warnings,
                                };
                                return accept_new(
                                    tx, statements, opened, delivery, applying, seen,
                                );
                            }
                            // Not the key the digest's pass noted: read again below.
                            rollback::<L>(tx);
                        }
                    }
                } else {
                    let entry = self
                        .ledger
                        .entry(context_id, handoff_id)
                        .map_err(StoreError::of_ledger::<L>)?;
                    match entry {
                        Some(entry) if entry.digest == *digest => {
                            seen.duplicate = Some(duplicate_key());
                            span.attempt(noted.attempt);
                            span.digest(digest);
                            return Ok(Acceptance::Duplicate(Ack::of_entry(entry)?));
                        }
                        entry => found = Some((context_id.clone(), handoff_id.clone(), entry)),
                    }
                }
            }
        }

        // 1. The envelope and its payload.
        let delivery = read(bytes, &self.options, span, seen)?;
        let envelope = delivery.envelope();

        // 2. The key and the digest: a key committed before is a duplicate or a conflict.
        let digest = match noted {
            Ok((digest, _)) => digest,
            Err(error) => {
                seen.delivery = Some(delivery);
                return Err(AcceptError::Digest(error));
            }
        };
        span.digest(&digest);
        let (context_id, handoff_id) = (envelope.context_id.as_str(), &*envelope.handoff_id);
        let entry = match found {
            // Looked up in step 0 under the same key.
            Some((c, h, entry)) if c == context_id && h == handoff_id => entry,
            _ => self
                .ledger
                .entry(context_id, handoff_id)
                .map_err(StoreError::of_ledger::<L>)?,
        };
        if let Some(entry) = entry {
            seen.delivery = Some(delivery);
            return same_or_conflict(entry, digest);
        }

        // 3. What is refused without the ledger: the status, the artifacts' versions and
        //    contents.
        let warnings = match checks(&self.artifacts, &delivery) {
            Ok(warnings) => warnings,
            Err(error) => {
                seen.delivery = Some(delivery);
                return Err(error);
            }
        };

        // 4. One transaction: the context's state, the handler, the claim with its record.
        let uris: Vec<&str> = envelope.artifacts.iter().map(|a| a.uri.as_str()).collect();
        let accepted_at = to_micro_precision(SystemTime::now());
        let (mut tx, statements) = self.ledger.begin().map_err(StoreError::of_ledger::<L>)?;
        let open = Open {
            context_id,
            handoff_id,
            digest: &digest,
            uris: &uris,
            touch: None,
        };
        let mut opened = L::open(statements, &mut tx, &open).map_err(StoreError::of_ledger::<L>)?;
        if let Some(entry) = opened.entry.take() {
            rollback::<L>(tx);
            seen.delivery = Some(delivery);
            return same_or_conflict(entry, digest);
        }
        drop(uris);
        let applying = Applying {
            digest,
            bytes,
            accepted_at,
            warnings,
        };
        accept_new(tx, statements, opened, delivery, applying, seen)
    }

    /// The last handoff a context accepted (the highest `seq`), with its acknowledgement and
    /// the envelope as received: the rollback target (the last version
    /// accepted, never "the last message"). [`LastAcceptance::delivery`] reads the envelope
    /// again; its receipt is JSON until read as a type ([`LastAcceptance::receipt`]), so that
    /// reading its handoff id names no type. A read through `&self`.
    ///
    /// ```
    /// use contract_core::inbox::{Inbox, MemoryLedger};
    ///
    /// let inbox = Inbox::new(MemoryLedger::new());
    /// assert!(inbox.last_accepted("ctx-1")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the ledger fails.
    pub fn last_accepted(&self, context_id: &str) -> Result<Option<LastAcceptance>, StoreError> {
        match self
            .ledger
            .last_accepted(context_id)
            .map_err(StoreError::of_ledger::<L>)?
        {
            Some(entry) => LastAcceptance::of_entry(entry).map(Some),
            None => Ok(None),
        }
    }

    /// Deletes the entries accepted before `before`, except the last of each context (its
    /// rollback target), and returns how many it deleted.
    ///
    /// A retry of a handoff whose entry was pruned is no longer known: it is applied again.
    /// Prune only past the time within which senders retry.
    ///
    /// # Errors
    ///
    /// When the ledger fails.
    pub fn prune(&mut self, before: SystemTime) -> Result<u64, StoreError> {
        self.ledger
            .prune(before)
            .map_err(StoreError::of_ledger::<L>)
    }

    /// Arms a failure point (hidden feature `__fail-points`, for the conformance suite): the
    /// next acceptance reaching `at` does `action`, once.
    #[cfg(feature = "__fail-points")]
    #[doc(hidden)]
    pub fn arm_fail_point(&mut self, at: FailPoint, action: FailAction) {
        self.fail.arm(at, action);
    }
}

/// What an acceptance saw, for its step in the journey: whether it read the envelope, the
/// delivery of a refusal after it was read, or the key of a redelivery's step when it
/// answered one before reading it (and whether the ledger counted it already).
struct Seen<T> {
    read: bool,
    delivery: Option<Delivery<T>>,
    duplicate: Option<String>,
    touched: bool,
}

impl<T> Default for Seen<T> {
    fn default() -> Self {
        Seen {
            read: false,
            delivery: None,
            duplicate: None,
            touched: false,
        }
    }
}

/// Reads the envelope and its payload, and names them on the span.
fn read<T, E>(
    bytes: &[u8],
    options: &ReceiveOptions,
    span: &AcceptSpan,
    seen: &mut Seen<T>,
) -> Result<Delivery<T>, AcceptError<E>>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    let delivery = receive_handoff::<T>(bytes, options).map_err(AcceptError::Rejected)?;
    let envelope = delivery.envelope();
    span.attempt(envelope.journey.attempt);
    span.handoff(
        &envelope.context_id,
        &envelope.handoff_id,
        &envelope.journey,
    );
    span.payload(delivery.presence());
    seen.read = true;
    Ok(delivery)
}

/// What is refused without the ledger: the status, the artifacts' versions and contents;
/// else the warnings the envelope alone gives.
fn checks<T, A: ArtifactStore, E>(
    artifacts: &A,
    delivery: &Delivery<T>,
) -> Result<Vec<Warning>, AcceptError<E>> {
    let envelope = delivery.envelope();
    if envelope.status != Status::Ready {
        return Err(AcceptError::NotReady);
    }
    for (index, artifact) in envelope.artifacts.iter().enumerate() {
        // Without a digest named, the version's existence is all there is to check.
        let Some(named) = &artifact.digest else {
            let known = artifacts
                .contains(&artifact.uri, artifact.version)
                .map_err(StoreError::artifacts)?;
            if !known {
                return Err(AcceptError::ArtifactUnavailable { index });
            }
            continue;
        };
        let content = artifacts
            .resolve(&artifact.uri, artifact.version)
            .map_err(StoreError::artifacts)?;
        match content {
            None => return Err(AcceptError::ArtifactUnavailable { index }),
            Some(content) if content != *named => {
                return Err(AcceptError::ArtifactChanged { index });
            }
            Some(_) => {}
        }
    }
    let mut warnings = Vec::new();
    let journey = &envelope.journey;
    if journey.attempt.is_some_and(|a| a > 1) && journey.retry_of.is_none() {
        warnings.push(Warning::RetryWithoutRetryOf);
    }
    Ok(warnings)
}

/// What an acceptance brings to its transaction beside the delivery.
struct Applying<'a> {
    digest: Digest,
    bytes: &'a [u8],
    accepted_at: SystemTime,
    warnings: Vec<Warning>,
}

/// The acceptance of a new key in its open transaction: the context's artifact versions and
/// owner checked, the handler, the key settled with its receipt, its artifact versions and
/// its step, the commit. A refusal or a failure rolls back; a refusal's delivery is kept in
/// `seen` for its step.
#[allow(clippy::too_many_arguments)]
fn apply<L, T, R, E, F>(
    mut tx: L::Tx<'_>,
    statements: &L::Statements,
    opened: Opened,
    delivery: Delivery<T>,
    applying: Applying<'_>,
    record_step: bool,
    handler: F,
    fail: &mut FailPoints,
    seen: &mut Seen<T>,
) -> Result<Acceptance<T, R>, AcceptError<E>>
where
    L: Ledger,
    T: DeserializeOwned + HandoffContract + 'static,
    R: Serialize + DeserializeOwned,
    F: FnOnce(&mut L::Tx<'_>, &Delivery<T>) -> Result<R, E>,
{
    let Applying {
        digest,
        bytes,
        accepted_at,
        mut warnings,
    } = applying;
    let envelope = delivery.envelope();
    // The version to keep for each uri: the highest of the context's and this envelope's.
    let mut keep: Vec<(&str, u64)> = Vec::with_capacity(envelope.artifacts.len());
    for (index, artifact) in envelope.artifacts.iter().enumerate() {
        if opened
            .version(&artifact.uri)
            .is_some_and(|v| artifact.version < v)
        {
            rollback::<L>(tx);
            seen.delivery = Some(delivery);
            return Err(AcceptError::ArtifactRegressed { index });
        }
        match keep.iter_mut().find(|(uri, _)| *uri == artifact.uri) {
            Some((_, version)) => *version = (*version).max(artifact.version),
            None => keep.push((&artifact.uri, artifact.version)),
        }
    }
    if let (Some(owner), Some(from)) = (&opened.owner, &envelope.journey.handoff_from) {
        if owner != from {
            warnings.push(Warning::OwnerConflict);
        }
    }
    // The failure point "after the claim": the transaction is open and the context read
    // (the key's claim is written after the handler, with its receipt); nothing ran.
    fail.hit(FailPoint::AfterClaim)?;
    let receipt = match handler(&mut tx, &delivery) {
        Ok(receipt) => receipt,
        Err(error) => {
            rollback::<L>(tx);
            seen.delivery = Some(delivery);
            return Err(AcceptError::Handler(error));
        }
    };
    fail.hit(FailPoint::InHandler)?;
    let receipt_json = serde_json::to_vec(&receipt)
        .map_err(|e| StoreError::of_kind(StoreErrorKind::ReceiptNotSerialized).with(e))?;
    let step = record_step.then(|| {
        steps::step::<T>(
            Outcome::Applied,
            None,
            Head::of(&delivery),
            Some(delivery.presence()),
            envelope.sender_presence.as_ref(),
            &[],
            accepted_at,
        )
    });
    let (context_id, handoff_id) = (envelope.context_id.as_str(), &*envelope.handoff_id);
    let settle = Settle {
        claim: Claim {
            context_id,
            handoff_id,
            digest: &digest,
            owner: &envelope.owner,
            accepted_at,
            envelope: bytes,
        },
        receipt: &receipt_json,
        artifacts: &keep,
        step: step.as_ref(),
    };
    let seq = match L::settle(statements, &mut tx, &settle).map_err(StoreError::of_ledger::<L>)? {
        Claimed::New { seq } => seq,
        Claimed::Taken(entry) => {
            // Another connection committed the key while this one ran: the handler's effects
            // roll back, and its acknowledgement is the answer.
            rollback::<L>(tx);
            drop(keep);
            seen.delivery = Some(delivery);
            return same_or_conflict(entry, digest);
        }
    };
    L::commit(tx).map_err(StoreError::of_ledger::<L>)?;
    fail.hit(FailPoint::AfterCommit)?;

    let ack = Ack {
        context_id: context_id.to_owned(),
        handoff_id: handoff_id.to_owned(),
        digest,
        seq,
        accepted_at,
        receipt,
    };
    drop(keep);
    Ok(Acceptance::Applied {
        ack,
        delivery,
        warnings,
    })
}

/// A key's committed entry against the digest received: the first acknowledgement, or a
/// conflict.
fn same_or_conflict<T, R, E>(
    entry: Entry,
    digest: Digest,
) -> Result<Acceptance<T, R>, AcceptError<E>>
where
    R: DeserializeOwned,
{
    if entry.digest == digest {
        Ok(Acceptance::Duplicate(Ack::of_entry(entry)?))
    } else {
        Err(AcceptError::Conflict {
            context_id: entry.context_id,
            handoff_id: entry.handoff_id,
            seq: entry.seq,
            accepted: entry.digest,
            received: digest,
        })
    }
}

/// Rolls a refused transaction back. Its failure is not reported over the refusal: the
/// transaction is dropped either way, which rolls it back.
fn rollback<L: Ledger>(tx: L::Tx<'_>) {
    let _ = L::rollback(tx);
}
