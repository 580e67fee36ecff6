//! Idempotent, durable acceptance of handoff envelopes: an [`Inbox`] runs a
//! handler once per key (`contextId`, `handoffId`), in one transaction with its [`Ledger`]'s
//! record of the acceptance, and answers a retry with the first [`Ack`].
//!
//! | store | feature | the handler's transaction |
//! |---|---|---|
//! | [`MemoryLedger`] | — | [`MemoryTx`] (staged effects) |
//! | `SqliteLedger` | `sqlite` | `rusqlite::Transaction` (re-exported as `inbox::rusqlite`) |
//! | `PostgresLedger` | `postgres` | `postgres::Transaction` (the client re-exported as `inbox::postgres`) |
//!
//! `AsyncInbox` (feature `tokio`) accepts from async code. An [`ArtifactStore`]
//! ([`MemoryArtifacts`], [`NoArtifacts`]) resolves the artifacts an envelope names.
//!
//! `last_accepted` is the rollback target (the last handoff a context accepted, never "the
//! last message"); `prune` forgets old keys, keeping each context's last.

mod accept;
mod artifacts;
#[cfg(feature = "tokio")]
mod async_inbox;
mod fail;
mod journal;
mod ledger;
mod memory;
mod outcome;
// The file keeps the store's name; the module is named apart from the `postgres` crate,
// which this module re-exports.
#[cfg(feature = "postgres")]
#[path = "postgres.rs"]
mod postgres_ledger;
mod span;
#[cfg(feature = "sqlite")]
mod sqlite;
mod steps;
pub(crate) mod time;

/// The postgres client this crate's [`PostgresLedger`] is built on: the handler's
/// `postgres::Transaction` is this crate's, named without a `postgres` dependency of your
/// own (`contract_core::inbox::postgres::Transaction`).
#[cfg(feature = "postgres")]
pub use ::postgres;
pub use accept::Inbox;
pub use artifacts::{ArtifactStore, MemoryArtifacts, NoArtifacts};
#[cfg(feature = "tokio")]
pub use async_inbox::AsyncInbox;
#[cfg(feature = "__fail-points")]
#[doc(hidden)]
pub use fail::{FailAction, FailPoint};
pub use journal::{Outcome, SessionFilter, SessionSummary, Step, StepProblem};
pub use ledger::{
    Claim, Claimed, ContextState, Entry, Ledger, MigrationError, Migrations, Open, Opened, Record,
    Settle, StoreError, StoreErrorKind,
};
pub use memory::{MemoryLedger, MemoryTx};
#[allow(deprecated)]
pub use outcome::Accepted;
pub use outcome::{AcceptError, Acceptance, Ack, LastAcceptance, Warning};
#[cfg(feature = "postgres")]
pub use postgres_ledger::{
    PostgresError, PostgresLedger, PostgresStatements, POSTGRES_SCHEMA_VERSION,
};
/// The rusqlite this crate's [`SqliteLedger`] is built on: the handler's
/// `rusqlite::Transaction` is this crate's.
#[cfg(feature = "sqlite")]
pub use rusqlite;
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteError, SqliteLedger, DEFAULT_BUSY_TIMEOUT, SQLITE_SCHEMA_VERSION};
