//! [`AsyncInbox`] (feature `tokio`): acceptance from async code, each on a blocking thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::envelope::Delivery;
use crate::inbox::accept::Inbox;
use crate::inbox::artifacts::{ArtifactStore, NoArtifacts};
use crate::inbox::ledger::{Ledger, StoreError, StoreErrorKind};
use crate::inbox::outcome::{AcceptError, Acceptance, LastAcceptance};
use crate::traits::HandoffContract;

/// Accepts envelopes from async code: a pool of [`Inbox`]es, one per connection, each
/// acceptance on tokio's blocking threads (`spawn_blocking`) with an inbox of the pool.
///
/// The handler stays synchronous: it runs inside the database transaction, where an
/// `.await` would hold the transaction's locks across whatever it waits for (and the
/// `postgres` client panics when called inside a tokio task). As many acceptances run at
/// once as the pool has inboxes; the others wait for one. Clones share the pool.
///
/// A handler that panics takes its inbox with it (its transaction rolls back); the panic
/// goes on in the caller's task. When no inbox is left, acceptances fail with
/// [`StoreErrorKind::NoConnection`].
///
/// ```
/// use contract_core::inbox::{AsyncInbox, Inbox, MemoryLedger};
///
/// let ledger = MemoryLedger::new();
/// let inbox = AsyncInbox::new((0..4).map(|_| Inbox::new(ledger.clone())));
/// assert_eq!(inbox.connections(), 4);
/// ```
pub struct AsyncInbox<L, A = NoArtifacts> {
    pool: Arc<Pool<L, A>>,
}

struct Pool<L, A> {
    idle: Mutex<Vec<Inbox<L, A>>>,
    /// One permit per idle inbox; closed when the last is lost.
    permits: Semaphore,
    /// The inboxes not lost to a panic.
    alive: AtomicUsize,
}

impl<L, A> Clone for AsyncInbox<L, A> {
    fn clone(&self) -> Self {
        AsyncInbox {
            pool: Arc::clone(&self.pool),
        }
    }
}

impl<L, A> core::fmt::Debug for AsyncInbox<L, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AsyncInbox")
            .field("connections", &self.connections())
            .finish_non_exhaustive()
    }
}

impl<L, A> AsyncInbox<L, A> {
    /// How many inboxes (connections) the pool has.
    #[must_use]
    pub fn connections(&self) -> usize {
        self.pool.alive.load(Ordering::Acquire)
    }
}

impl<L, A> AsyncInbox<L, A>
where
    L: Ledger + Send + 'static,
    A: ArtifactStore + Send + 'static,
{
    /// A pool of inboxes, each with its own connection (a clone of a [`MemoryLedger`], an
    /// [`SqliteLedger`] opened on the same file, …).
    ///
    /// [`MemoryLedger`]: crate::inbox::MemoryLedger
    /// [`SqliteLedger`]: crate::inbox::SqliteLedger
    #[must_use]
    pub fn new(inboxes: impl IntoIterator<Item = Inbox<L, A>>) -> Self {
        let idle: Vec<_> = inboxes.into_iter().collect();
        let count = idle.len();
        let permits = Semaphore::new(count);
        if count == 0 {
            permits.close();
        }
        AsyncInbox {
            pool: Arc::new(Pool {
                idle: Mutex::new(idle),
                permits,
                alive: AtomicUsize::new(count),
            }),
        }
    }

    /// [`Inbox::accept`] on a blocking thread, with an inbox of the pool.
    ///
    /// # Errors
    ///
    /// As [`Inbox::accept`]; [`StoreErrorKind::NoConnection`] when the pool has no inbox
    /// left.
    pub async fn accept<T, R, E, F>(
        &self,
        bytes: Vec<u8>,
        handler: F,
    ) -> Result<Acceptance<T, R>, AcceptError<E>>
    where
        T: DeserializeOwned + HandoffContract + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
        E: Send + 'static,
        F: FnOnce(&mut L::Tx<'_>, &Delivery<T>) -> Result<R, E> + Send + 'static,
    {
        self.with_inbox(move |inbox| inbox.accept(&bytes, handler))
            .await
            .unwrap_or_else(|error| Err(AcceptError::Store(error)))
    }

    /// [`Inbox::last_accepted`] on a blocking thread, with an inbox of the pool.
    ///
    /// ```
    /// use contract_core::inbox::{AsyncInbox, Inbox, MemoryLedger};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let inbox = AsyncInbox::new([Inbox::new(MemoryLedger::new())]);
    /// assert!(inbox.last_accepted("ctx-1").await?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Inbox::last_accepted`].
    pub async fn last_accepted(
        &self,
        context_id: &str,
    ) -> Result<Option<LastAcceptance>, StoreError> {
        let context_id = context_id.to_owned();
        self.with_inbox(move |inbox| inbox.last_accepted(&context_id))
            .await?
    }

    /// [`Inbox::prune`] on a blocking thread.
    ///
    /// # Errors
    ///
    /// As [`Inbox::prune`].
    pub async fn prune(&self, before: SystemTime) -> Result<u64, StoreError> {
        self.with_inbox(move |inbox| inbox.prune(before)).await?
    }

    /// Runs `work` with an idle inbox on a blocking thread, then returns the inbox to the
    /// pool.
    async fn with_inbox<O, W>(&self, work: W) -> Result<O, StoreError>
    where
        O: Send + 'static,
        W: FnOnce(&mut Inbox<L, A>) -> O + Send + 'static,
    {
        let no_connection = || StoreError::of_kind(StoreErrorKind::NoConnection);
        let permit = self
            .pool
            .permits
            .acquire()
            .await
            .map_err(|_| no_connection())?;
        let taken = self
            .pool
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        // A permit is only held while an inbox is idle.
        let Some(mut inbox) = taken else {
            return Err(no_connection());
        };
        let joined = tokio::task::spawn_blocking(move || {
            let out = work(&mut inbox);
            (inbox, out)
        })
        .await;
        match joined {
            Ok((inbox, out)) => {
                self.pool
                    .idle
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(inbox);
                drop(permit);
                Ok(out)
            }
            Err(error) => {
                // The inbox went with the task: the pool has one fewer.
                permit.forget();
                if self.pool.alive.fetch_sub(1, Ordering::AcqRel) == 1 {
                    self.pool.permits.close();
                }
                match error.try_into_panic() {
                    Ok(panic) => std::panic::resume_unwind(panic),
                    Err(_) => Err(no_connection()),
                }
            }
        }
    }
}
