//! The suite on [`SqliteLedger`]: a temporary file per test, the effects rows of a table
//! `effects` written through the handler's `rusqlite::Transaction`, each connection its own
//! `SqliteLedger::open` of the file.

use std::path::PathBuf;

use contract_core::inbox::rusqlite::{self, Transaction};
use contract_core::inbox::SqliteLedger;

use super::fixture::{unique, HandlerError, Store};

/// An SQLite file, removed when the test's fixture is dropped.
pub struct SqliteStore {
    path: PathBuf,
    /// Whether this process created the file (the parent of a killed child does).
    owned: bool,
}

impl Store for SqliteStore {
    type Ledger = SqliteLedger;

    const DURABLE: bool = true;

    fn fresh(test: &str) -> Option<Self> {
        let dir = std::env::temp_dir().join("handoff-inbox-tests");
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let name = unique(&format!("{}-{test}", std::process::id()));
        let store = SqliteStore {
            path: dir.join(format!("{name}.db")),
            owned: true,
        };
        let ledger = SqliteLedger::open(&store.path).expect("opens");
        ledger
            .connection()
            .execute_batch("CREATE TABLE effects (name TEXT NOT NULL)")
            .expect("the effects table");
        Some(store)
    }

    fn locator(&self) -> String {
        self.path
            .to_str()
            .expect("a UTF-8 temporary path")
            .to_owned()
    }

    fn reopen(locator: &str) -> Self {
        SqliteStore {
            path: PathBuf::from(locator),
            owned: false,
        }
    }

    fn connect(&self) -> SqliteLedger {
        SqliteLedger::open(&self.path).expect("opens")
    }

    fn apply(tx: &mut Transaction<'_>, effect: &str) -> Result<(), HandlerError> {
        // No key: an effect applied twice is two rows.
        tx.execute("INSERT INTO effects (name) VALUES (?1)", [effect])?;
        Ok(())
    }

    fn effects(&self, effect: &str) -> u64 {
        let connection = rusqlite::Connection::open(&self.path).expect("opens");
        let count: i64 = connection
            .query_row(
                "SELECT COUNT(*) FROM effects WHERE name = ?1",
                [effect],
                |row| row.get(0),
            )
            .expect("counted");
        count as u64
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        if self.owned {
            for suffix in ["", "-wal", "-shm"] {
                let mut path = self.path.clone().into_os_string();
                path.push(suffix);
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

crate::inbox::suite::conformance!(SqliteStore);
