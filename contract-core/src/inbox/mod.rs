//! Idempotent, durable acceptance of handoff envelopes: an [`Inbox`] runs a
//! handler once per key (`contextId`, `handoffId`), in one transaction with its [`Ledger`]'s
//! record of the acceptance, and answers a retry with the first [`Ack`].
//!
//! | store | feature | the handler's transaction |
//! |---|---|---|
//! | [`MemoryLedger`] | — | [`MemoryTx`] (staged effects) |
//! | `SqliteLedger` | `sqlite` | `rusqlite::Transaction` |
//! | `PostgresLedger` | `postgres` | `postgres::Transaction` |
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
#[cfg(feature = "postgres")]
mod postgres;
mod span;
#[cfg(feature = "sqlite")]
mod sqlite;
mod steps;
pub(crate) mod time;

pub use accept::Inbox;
pub use artifacts::{ArtifactStore, MemoryArtifacts, NoArtifacts};
#[cfg(feature = "tokio")]
pub use async_inbox::AsyncInbox;
#[cfg(feature = "__fail-points")]
#[doc(hidden)]
pub use fail::{FailAction, FailPoint};
pub use journal::{Outcome, SessionFilter, SessionSummary, Step, StepProblem};
pub use ledger::{
    Claim, Claimed, ContextState, Entry, Ledger, Open, Opened, Record, Settle, StoreError,
    StoreErrorKind,
};
pub use memory::{MemoryLedger, MemoryTx};
pub use outcome::{AcceptError, Acceptance, Accepted, Ack, Warning};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresError, PostgresLedger, PostgresStatements, POSTGRES_SCHEMA_VERSION};
/// The rusqlite this crate's [`SqliteLedger`] is built on: the handler's
/// `rusqlite::Transaction` is this crate's.
#[cfg(feature = "sqlite")]
pub use rusqlite;
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteError, SqliteLedger, DEFAULT_BUSY_TIMEOUT, SQLITE_SCHEMA_VERSION};
