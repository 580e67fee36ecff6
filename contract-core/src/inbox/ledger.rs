//! [`Ledger`]: where an inbox records what it accepted, and the transaction a handler's
//! effects commit in with that record.

use core::fmt;
use std::error::Error;
use std::time::SystemTime;

use crate::envelope::Digest;
use crate::inbox::journal::{SessionFilter, SessionSummary, Step};

/// A store of acceptances: one entry per key (`contextId`, `handoffId`), written in the same
/// transaction as the handler's effects, so that both commit or neither does.
///
/// The trait is synchronous on purpose: the handler runs inside a database transaction, and
/// an `.await` there would hold the transaction's locks across whatever it waits for (and the
/// `postgres` client panics inside a tokio task). Async code uses
/// `AsyncInbox` (feature `tokio`), which runs each acceptance on a
/// blocking thread.
///
/// [`Inbox::accept`](crate::inbox::Inbox::accept) calls, for one envelope:
///
/// 1. [`entry`](Ledger::entry), outside any transaction: a key already committed is a
///    duplicate or a conflict, and nothing is written. A store whose
///    [`KEY_IN_TRANSACTION`](Ledger::KEY_IN_TRANSACTION) is `true` (PostgreSQL) reads the
///    key in its transaction instead, in [`open`](Ledger::open), before the payload is read;
/// 2. [`begin`](Ledger::begin), then in that transaction [`open`](Ledger::open): the
///    context's last owner and artifact versions (and, where the store reads it there, the
///    key's committed entry), read after whatever serializes the context's acceptances;
/// 3. the handler, with the transaction ([`Ledger::Tx`]);
/// 4. [`settle`](Ledger::settle): the key's entry with its receipt, the context's artifact
///    versions and the applied step, unless another transaction committed the key first
///    ([`Claimed::Taken`]: the handler's effects are then rolled back), then
///    [`commit`](Ledger::commit). A refusal, a handler error or a failure in between calls
///    [`rollback`](Ledger::rollback), or drops the transaction, which must roll it back too.
///
/// [`open`](Ledger::open) and [`settle`](Ledger::settle) have default implementations
/// through [`context`](Ledger::context), [`claim`](Ledger::claim),
/// [`record`](Ledger::record) and [`note_in`](Ledger::note_in), one call each; a store
/// overrides them to do the same in fewer statements (or round trips).
///
/// An implementation guarantees:
///
/// - a claimed key is seen by no other transaction until it commits, and a second claim of
///   the same key waits for the first transaction to end (then returns [`Claimed::Taken`]
///   with the committed entry, or claims the key when the first rolled back); the same of
///   [`settle`](Ledger::settle);
/// - [`entry`](Ledger::entry) and [`last_accepted`](Ledger::last_accepted) see only
///   committed entries, whole (receipt included);
/// - a commit that returned is durable (what "durable" means is the store's: SQLite with
///   `synchronous=FULL`, PostgreSQL's `synchronous_commit`).
///
/// The per-transaction functions take what the ledger lends beside its transaction
/// ([`Ledger::Statements`]: table names, prepared statements), since the transaction borrows
/// the ledger's connection for as long as it lives.
pub trait Ledger {
    /// The transaction a handler runs in, and writes its effects to: `rusqlite::Transaction`,
    /// `postgres::Transaction`, [`MemoryTx`](crate::inbox::MemoryTx).
    type Tx<'t>
    where
        Self: 't;

    /// What the ledger's own statements need inside a transaction, lent by
    /// [`begin`](Ledger::begin) beside it (its table names, prepared statements; `()` when
    /// they need nothing).
    type Statements;

    /// What the store fails with.
    type Error: Error + Send + Sync + 'static;

    /// Whether the inbox reads an envelope's key in its transaction ([`open`](Ledger::open)
    /// with [`Open::touch`], before the payload is read) rather than before it
    /// ([`entry`](Ledger::entry)): `true` where a statement costs a round trip to a server
    /// and a transaction's `BEGIN` and `COMMIT` are cheap beside it (PostgreSQL), `false`
    /// where a write transaction takes a lock every other writer waits for (SQLite's
    /// `BEGIN IMMEDIATE`), so that a duplicate or a refusal never takes it.
    const KEY_IN_TRANSACTION: bool = false;

    /// Whether `error` is transient: the same call may succeed if retried (a lock held by
    /// another connection, a connection dropped or reset, a serialization failure). The
    /// inbox marks its [`StoreError`] so ([`StoreError::is_transient`]). The default: no
    /// error is.
    ///
    /// ```
    /// use contract_core::inbox::{Ledger, MemoryLedger};
    ///
    /// // The memory ledger never fails; a store of a database says which of its errors
    /// // pass (SQLite busy or locked, PostgreSQL's connection lost).
    /// fn retry_helps<L: Ledger>(error: &L::Error) -> bool {
    ///     L::is_transient(error)
    /// }
    /// # let _ = retry_helps::<MemoryLedger>;
    /// ```
    #[must_use]
    fn is_transient(error: &Self::Error) -> bool {
        let _ = error;
        false
    }

    /// The committed entry of a key, if any.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn entry(&mut self, context_id: &str, handoff_id: &str) -> Result<Option<Entry>, Self::Error>;

    /// Opens a write transaction, and lends what the ledger's own statements in it need.
    ///
    /// # Errors
    ///
    /// When the store fails (SQLite: busy past its timeout).
    fn begin(&mut self) -> Result<(Self::Tx<'_>, &Self::Statements), Self::Error>;

    /// What the context has accepted so far: the `owner` of its last accepted envelope, and
    /// the highest version accepted of each of `uris` (in their order; `None` where none was).
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn context(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        context_id: &str,
        uris: &[&str],
    ) -> Result<ContextState, Self::Error>;

    /// Claims a key: writes its entry (without its receipt yet), or, when another
    /// transaction committed the key first, returns that entry. Waits while another open
    /// transaction holds a claim on the same key.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn claim(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        claim: &Claim<'_>,
    ) -> Result<Claimed, Self::Error>;

    /// Completes a claimed entry with its receipt, and sets the context's artifact versions
    /// (`record.artifacts`, each the version to keep for its `uri`).
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn record(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        record: &Record<'_>,
    ) -> Result<(), Self::Error>;

    /// Opens an acceptance in the transaction, before its handler runs: the context's last
    /// owner and artifact versions ([`Opened`]), read after whatever serializes the
    /// acceptances of one context (PostgreSQL: an advisory lock). A store that reads the key
    /// here ([`KEY_IN_TRANSACTION`](Ledger::KEY_IN_TRANSACTION)) returns its committed entry
    /// in [`Opened::entry`], and, when its digest is [`Open::digest`], may count one more
    /// sighting of the step [`Open::touch`] names ([`Opened::touched`], as
    /// [`touch`](Ledger::touch) does), which then commits with the transaction; a store
    /// that does not (the PostgreSQL ledger counts in memory, writing nothing in a
    /// duplicate's transaction) leaves `touched` false and the inbox calls
    /// [`touch`](Ledger::touch) after the transaction.
    ///
    /// The default reads [`context`](Ledger::context) of [`Open::uris`] and no entry.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn open(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        open: &Open<'_>,
    ) -> Result<Opened, Self::Error> {
        let state = Self::context(statements, tx, open.context_id, open.uris)?;
        let artifacts = open
            .uris
            .iter()
            .zip(state.versions)
            .filter_map(|(uri, version)| Some(((*uri).to_owned(), version?)))
            .collect();
        Ok(Opened {
            owner: state.owner,
            artifacts,
            entry: None,
            touched: false,
        })
    }

    /// Settles an acceptance after its handler ran: claims the key with its receipt
    /// ([`Settle::claim`], [`Settle::receipt`]), sets the context's artifact versions and
    /// records the applied step, in the transaction; or, when another transaction committed
    /// the key first, returns that entry ([`Claimed::Taken`]) and writes nothing. Waits while
    /// another open transaction holds a claim on the same key.
    ///
    /// The default calls [`claim`](Ledger::claim), then [`record`](Ledger::record) and
    /// [`note_in`](Ledger::note_in).
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn settle(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        settle: &Settle<'_>,
    ) -> Result<Claimed, Self::Error> {
        let seq = match Self::claim(statements, tx, &settle.claim)? {
            Claimed::New { seq } => seq,
            taken @ Claimed::Taken(_) => return Ok(taken),
        };
        let record = Record {
            seq,
            context_id: settle.claim.context_id,
            receipt: settle.receipt,
            artifacts: settle.artifacts,
        };
        Self::record(statements, tx, &record)?;
        if let Some(step) = settle.step {
            Self::note_in(statements, tx, step)?;
        }
        Ok(Claimed::New { seq })
    }

    /// Commits the transaction: the entry, its receipt and the handler's effects together.
    ///
    /// # Errors
    ///
    /// When the store fails; then nothing was committed, unless the store cannot tell (a
    /// connection lost during the commit), which a retry resolves: the key is then either
    /// a duplicate or claimable.
    fn commit(tx: Self::Tx<'_>) -> Result<(), Self::Error>;

    /// Rolls the transaction back: nothing of it is written.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn rollback(tx: Self::Tx<'_>) -> Result<(), Self::Error>;

    /// The committed entry with the highest `seq` of a context: the last handoff it
    /// accepted, which a rollback returns to. It takes `&self`: a read, never inside an
    /// acceptance's transaction (which borrows the ledger mutably while it lives).
    ///
    /// ```
    /// use contract_core::inbox::{Ledger, MemoryLedger};
    ///
    /// let ledger = MemoryLedger::new();
    /// let shared = &ledger;
    /// assert_eq!(shared.last_accepted("ctx-1")?, None);
    /// # Ok::<(), std::convert::Infallible>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn last_accepted(&self, context_id: &str) -> Result<Option<Entry>, Self::Error>;

    /// Deletes the entries accepted before `before`, except the last of each context (its
    /// rollback target), and the journey's steps last seen before it, and returns how many
    /// entries it deleted. The contexts' artifact versions stay.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn prune(&mut self, before: SystemTime) -> Result<u64, Self::Error>;

    /// Records a step of a journey in the acceptance's transaction, so that it commits with
    /// the acceptance (an applied handoff), or not at all. A step of the same
    /// [`key`](Step::key) as one recorded before counts on it ([`Step::count`],
    /// [`Step::last_seen`]); a new one gets the ledger's next step sequence number.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn note_in(
        statements: &Self::Statements,
        tx: &mut Self::Tx<'_>,
        step: &Step,
    ) -> Result<(), Self::Error>;

    /// Records a step of a journey on its own, outside any acceptance (a refusal, a
    /// duplicate, a conflict, a handler's failure after its rollback), as
    /// [`note_in`](Ledger::note_in) counts it.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn note(&mut self, step: &Step) -> Result<(), Self::Error>;

    /// One more sighting, at `at`, of the step of `key` ([`Step::key`]) if the ledger has
    /// it ([`Step::count`] up by one, [`Step::last_seen`] moved): whether it had. A repeat
    /// (a redelivery answered as a duplicate) is counted so without its step being built
    /// again.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn touch(&mut self, key: &str, at: SystemTime) -> Result<bool, Self::Error>;

    /// The steps this ledger recorded of `session`, in its own sequence.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn session(&mut self, session: &str) -> Result<Vec<Step>, Self::Error>;

    /// The sessions this ledger recorded steps of that `filter` keeps, the most recently
    /// active first.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn sessions(&mut self, filter: &SessionFilter) -> Result<Vec<SessionSummary>, Self::Error>;
}

/// One acceptance as a ledger keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The ledger's sequence number of the acceptance, increasing with each claim.
    pub seq: u64,
    /// The envelope's `contextId`.
    pub context_id: String,
    /// The envelope's `handoffId`.
    pub handoff_id: String,
    /// The envelope's digest ([`Digest::of_envelope`]).
    pub digest: Digest,
    /// The envelope's `owner`.
    pub owner: String,
    /// When it was accepted (as the inbox's clock read it at the claim).
    pub accepted_at: SystemTime,
    /// The handler's receipt, as JSON.
    pub receipt: Vec<u8>,
    /// The envelope, as received.
    pub envelope: Vec<u8>,
}

/// A key to claim: what [`Ledger::claim`] writes.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    /// The envelope's `contextId`.
    pub context_id: &'a str,
    /// The envelope's `handoffId`.
    pub handoff_id: &'a str,
    /// The envelope's digest.
    pub digest: &'a Digest,
    /// The envelope's `owner`.
    pub owner: &'a str,
    /// When it is accepted.
    pub accepted_at: SystemTime,
    /// The envelope, as received.
    pub envelope: &'a [u8],
}

/// What [`Ledger::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// The key is this transaction's, with this sequence number.
    New {
        /// The entry's sequence number.
        seq: u64,
    },
    /// Another transaction committed the key first: its entry.
    Taken(Entry),
}

/// What [`Ledger::record`] writes to complete a claimed entry.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// The claimed entry's sequence number.
    pub seq: u64,
    /// The envelope's `contextId`.
    pub context_id: &'a str,
    /// The handler's receipt, as JSON.
    pub receipt: &'a [u8],
    /// The version to keep for each artifact `uri` of the context (each at least the one
    /// kept before).
    pub artifacts: &'a [(&'a str, u64)],
}

/// What [`Ledger::open`] is asked.
#[derive(Debug, Clone, Copy)]
pub struct Open<'a> {
    /// The envelope's `contextId`.
    pub context_id: &'a str,
    /// The envelope's `handoffId`.
    pub handoff_id: &'a str,
    /// The envelope's digest: an entry of the key with this digest is a duplicate.
    pub digest: &'a Digest,
    /// The artifact `uri`s whose versions are asked for (a store may return more); empty
    /// where the envelope was not read yet.
    pub uris: &'a [&'a str],
    /// Where the store reads the key here: the [`key`](Step::key) of the step a duplicate
    /// is counted on, and when it was seen; `None` when no step is counted.
    pub touch: Option<(&'a str, SystemTime)>,
}

/// What [`Ledger::open`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Opened {
    /// The `owner` of the context's last accepted envelope; `None` for a new context.
    pub owner: Option<String>,
    /// The highest version accepted of artifacts of the context, by `uri`: at least those
    /// asked for that have one.
    pub artifacts: Vec<(String, u64)>,
    /// The key's committed entry, where the store reads it here
    /// ([`Ledger::KEY_IN_TRANSACTION`]).
    pub entry: Option<Entry>,
    /// Whether the step [`Open::touch`] named was counted (only with an entry of the same
    /// digest).
    pub touched: bool,
}

impl Opened {
    /// The highest version the context accepted of `uri`, if any.
    #[must_use]
    pub fn version(&self, uri: &str) -> Option<u64> {
        self.artifacts
            .iter()
            .find(|(known, _)| known == uri)
            .map(|(_, version)| *version)
    }
}

/// What [`Ledger::settle`] writes.
#[derive(Debug, Clone, Copy)]
pub struct Settle<'a> {
    /// The key's entry.
    pub claim: Claim<'a>,
    /// The handler's receipt, as JSON.
    pub receipt: &'a [u8],
    /// The version to keep for each artifact `uri` of the context (each at least the one
    /// kept before).
    pub artifacts: &'a [(&'a str, u64)],
    /// The applied step of the journey, when steps are recorded.
    pub step: Option<&'a Step>,
}

/// What a context has accepted so far ([`Ledger::context`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextState {
    /// The `owner` of the context's last accepted envelope; `None` for a new context.
    pub owner: Option<String>,
    /// The highest version accepted of each `uri` asked for, in their order.
    pub versions: Vec<Option<u64>>,
}

/// A failure of a ledger or an artifact store (the connection, the disk, a database newer
/// than this version reads), of a stored receipt that does not read back, or one a test
/// injected. Its message never holds a value of an envelope.
///
/// [`is_transient`](StoreError::is_transient) tells a failure a retry may get past (SQLite
/// busy or locked, a PostgreSQL connection dropped or reset, a serialization failure) from
/// one it will not, without downcasting [`source`](Error::source):
///
/// ```
/// use contract_core::inbox::{AcceptError, StoreError};
///
/// fn should_retry<E>(error: &AcceptError<E>) -> bool {
///     matches!(error, AcceptError::Store(store) if store.is_transient())
/// }
/// let failed: AcceptError<()> = AcceptError::Store(StoreError::ledger("disk full"));
/// assert!(!should_retry(&failed));
/// assert!(!failed.is_transient());
/// ```
pub struct StoreError {
    kind: StoreErrorKind,
    transient: bool,
    source: Option<Box<dyn Error + Send + Sync + 'static>>,
}

/// What failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The ledger.
    Ledger,
    /// The artifact store.
    Artifacts,
    /// The handler's receipt does not serialize as JSON.
    ReceiptNotSerialized,
    /// A stored receipt does not read as the receipt type asked for.
    ReceiptNotRead,
    /// A failure a test injected (hidden feature `__fail-points`).
    Injected,
    /// An `AsyncInbox` (feature `tokio`) has no connection left (each lost to a
    /// panicking handler), or its runtime shut down.
    NoConnection,
}

impl StoreError {
    /// A failure of a ledger.
    /// Not transient, unless marked so ([`transient`](StoreError::transient)).
    pub fn ledger(source: impl Into<Box<dyn Error + Send + Sync + 'static>>) -> Self {
        StoreError {
            kind: StoreErrorKind::Ledger,
            transient: false,
            source: Some(source.into()),
        }
    }

    /// A failure of the ledger `L`, transient when [`Ledger::is_transient`] says so.
    pub(crate) fn of_ledger<L: Ledger>(error: L::Error) -> Self {
        let transient = L::is_transient(&error);
        StoreError::ledger(error).transient(transient)
    }

    /// A failure of an artifact store.
    pub fn artifacts(source: impl Into<Box<dyn Error + Send + Sync + 'static>>) -> Self {
        StoreError {
            kind: StoreErrorKind::Artifacts,
            transient: false,
            source: Some(source.into()),
        }
    }

    /// Marked transient or not: whether a retry of the same call may succeed (an artifact
    /// store's timeout, say).
    ///
    /// ```
    /// use contract_core::inbox::StoreError;
    ///
    /// let timeout = StoreError::artifacts("the object store timed out").transient(true);
    /// assert!(timeout.is_transient());
    /// ```
    #[must_use]
    pub fn transient(mut self, transient: bool) -> Self {
        self.transient = transient;
        self
    }

    pub(crate) fn of_kind(kind: StoreErrorKind) -> Self {
        StoreError {
            kind,
            transient: false,
            source: None,
        }
    }

    /// With the error that caused it.
    pub(crate) fn with(
        mut self,
        source: impl Into<Box<dyn Error + Send + Sync + 'static>>,
    ) -> Self {
        self.source = Some(source.into());
        self
    }

    /// What failed.
    #[must_use]
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }

    /// Whether a retry of the same call may succeed: the store was busy or locked by another
    /// connection past its timeout (SQLite), its connection was dropped or reset, or the
    /// database gave up a transaction that may go through again (PostgreSQL: a
    /// serialization failure, a deadlock, a lock timeout, the server shutting down). A
    /// retry loop retries these, and reports the others.
    ///
    /// ```
    /// use contract_core::inbox::StoreError;
    ///
    /// assert!(!StoreError::ledger("no such table").is_transient());
    /// ```
    #[must_use]
    pub fn is_transient(&self) -> bool {
        self.transient
    }
}

impl fmt::Debug for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoreError")
            .field("kind", &self.kind)
            .field("transient", &self.transient)
            .field("source", &self.source.as_ref().map(ToString::to_string))
            .finish()
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            StoreErrorKind::Ledger => "the ledger failed",
            StoreErrorKind::Artifacts => "the artifact store failed",
            StoreErrorKind::ReceiptNotSerialized => "the handler's receipt does not serialize",
            StoreErrorKind::ReceiptNotRead => {
                "a stored receipt does not read as the receipt type asked for"
            }
            StoreErrorKind::Injected => "a failure injected by a test",
            StoreErrorKind::NoConnection => "the async inbox has no connection left",
        };
        match &self.source {
            Some(source) => write!(f, "{what}: {source}"),
            None => f.write_str(what),
        }
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// The application's own migrations (its handler's tables), run when a ledger opens, in the
/// transaction that migrates the ledger's own tables, so that both are there or neither is:
/// `SqliteLedger::open_with_migrations`, `PostgresLedger::connect_with_migrations`.
///
/// The `n`th step (from 1) takes the application's tables to version `n`, as a sqlx or
/// refinery migration does. Their versions are tracked apart from the ledger's, in
/// `handoff_app_migration` (one row per step applied, with the SHA-256 of its text): a
/// reopen applies the steps not applied yet, and only those, so opening is idempotent; a
/// step whose text changed after it was applied, or a database with more steps applied than
/// the list has (a newer version of the application), is refused and nothing is written.
/// Add a step to change a table; never edit one that shipped.
///
/// ```
/// use contract_core::inbox::Migrations;
///
/// const REFUNDS: Migrations<'static> = Migrations::new(&[
///     "CREATE TABLE refunds (order_ref TEXT PRIMARY KEY, amount_cents INTEGER NOT NULL)",
///     "ALTER TABLE refunds ADD COLUMN reason TEXT",
/// ]);
/// assert_eq!(REFUNDS.version(), 2);
/// assert_eq!(REFUNDS.steps().len(), 2);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Migrations<'a> {
    steps: &'a [&'a str],
}

impl<'a> Migrations<'a> {
    /// The steps, in order: the first creates version 1.
    ///
    /// ```
    /// use contract_core::inbox::Migrations;
    ///
    /// let none = Migrations::new(&[]);
    /// assert_eq!(none.version(), 0);
    /// ```
    #[must_use]
    pub const fn new(steps: &'a [&'a str]) -> Self {
        Migrations { steps }
    }

    /// The steps, in order.
    ///
    /// ```
    /// use contract_core::inbox::Migrations;
    ///
    /// let m = Migrations::new(&["CREATE TABLE refunds (order_ref TEXT)"]);
    /// assert!(m.steps()[0].starts_with("CREATE TABLE"));
    /// ```
    #[must_use]
    pub const fn steps(&self) -> &'a [&'a str] {
        self.steps
    }

    /// The version the steps take the application's tables to: how many there are.
    ///
    /// ```
    /// use contract_core::inbox::Migrations;
    ///
    /// assert_eq!(Migrations::new(&["CREATE TABLE a (x TEXT)"]).version(), 1);
    /// ```
    #[must_use]
    pub const fn version(&self) -> usize {
        self.steps.len()
    }

    /// The SHA-256 of the text of step `version` (from 1), as the ledger records it.
    #[cfg(any(feature = "sqlite", feature = "postgres"))]
    pub(crate) fn digest(&self, version: usize) -> Option<Digest> {
        let step = self.steps.get(version.checked_sub(1)?)?;
        Some(Digest::of_bytes(step.as_bytes()))
    }
}

/// Why the application's migrations ([`Migrations`]) were refused when a ledger opened; it
/// names the versions, never the steps' text.
///
/// ```
/// use contract_core::inbox::MigrationError;
///
/// let edited = MigrationError::Changed { version: 2 };
/// assert!(edited.to_string().contains("migration 2 was applied with another text"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MigrationError {
    /// The step of this version was applied with another text: edited after it shipped.
    Changed {
        /// The step's version (from 1).
        version: u64,
    },
    /// The database has more steps applied than the list has: a newer version of the
    /// application migrated it.
    Newer {
        /// The highest version applied in the database.
        found: u64,
        /// The steps given.
        known: u64,
    },
}

impl MigrationError {
    /// Checks the steps applied (`(version, digest)`, in any order) against `migrations`:
    /// the first version to apply (from 1), or the refusal.
    #[cfg(any(feature = "sqlite", feature = "postgres"))]
    pub(crate) fn check(
        migrations: &Migrations<'_>,
        applied: &[(u64, Digest)],
    ) -> Result<usize, MigrationError> {
        let known = migrations.version() as u64;
        let found = applied.iter().map(|(v, _)| *v).max().unwrap_or(0);
        if found > known {
            return Err(MigrationError::Newer { found, known });
        }
        for (version, digest) in applied {
            let expected = usize::try_from(*version)
                .ok()
                .and_then(|v| migrations.digest(v));
            if expected != Some(*digest) {
                return Err(MigrationError::Changed { version: *version });
            }
        }
        Ok(usize::try_from(found).unwrap_or(usize::MAX) + 1)
    }
}

impl fmt::Display for MigrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigrationError::Changed { version } => write!(
                f,
                "the application's migration {version} was applied with another text: a \
                 step that shipped is never edited, add one instead"
            ),
            MigrationError::Newer { found, known } => write!(
                f,
                "the database has the application's migrations up to {found}, newer than the \
                 {known} given: refused, not written"
            ),
        }
    }
}

impl Error for MigrationError {}
