//! Idempotent, durable acceptance of handoff envelopes (seed `000_…`): an `Inbox` runs a
//! handler once per key (`contextId`, `handoffId`), in one transaction with its [`Ledger`]'s
//! record of the acceptance, and answers a retry with the first acknowledgement.
//!
//! | store | feature | the handler's transaction |
//! |---|---|---|
//! | [`MemoryLedger`] | — | [`MemoryTx`] (staged effects) |
//! | `SqliteLedger` | `sqlite` | `rusqlite::Transaction` |
//! | `PostgresLedger` | `postgres` | `postgres::Transaction` |

mod artifacts;
mod ledger;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "sqlite")]
mod sqlite;

pub use artifacts::{ArtifactStore, MemoryArtifacts, NoArtifacts};
pub use ledger::{
    Claim, Claimed, ContextState, Entry, Ledger, Record, StoreError, StoreErrorKind,
};
pub use memory::{MemoryLedger, MemoryTx};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresError, PostgresLedger, PostgresStatements, POSTGRES_SCHEMA_VERSION};
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteError, SqliteLedger, DEFAULT_BUSY_TIMEOUT, SQLITE_SCHEMA_VERSION};
