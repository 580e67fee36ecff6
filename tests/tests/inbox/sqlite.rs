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

/// What opening sets: WAL, `synchronous=FULL`, the schema's version.
#[test]
fn opening_sets_wal_full_sync_and_the_schema_version() {
    let store = SqliteStore::fresh("pragmas").expect("a store");
    let ledger = store.connect();
    let connection = ledger.connection();
    let pragma = |name: &str| -> String {
        connection
            .pragma_query_value(None, name, |row| row.get::<_, rusqlite::types::Value>(0))
            .map(|value| format!("{value:?}"))
            .expect("read")
    };
    assert_eq!(pragma("journal_mode"), r#"Text("wal")"#);
    // FULL is 2.
    assert_eq!(pragma("synchronous"), "Integer(2)");
    assert_eq!(
        pragma("user_version"),
        format!("Integer({})", contract_core::inbox::SQLITE_SCHEMA_VERSION)
    );
    // Opening again migrates nothing and keeps what is there.
    drop(ledger);
    let again = store.connect();
    let tables: i64 = again
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'handoff_%'",
            [],
            |row| row.get(0),
        )
        .expect("counted");
    // handoff_ledger, its index, handoff_artifact (and its primary key's index).
    assert!(tables >= 3, "{tables}");
}

/// A database a newer version wrote is refused, and left as it is.
#[test]
fn a_newer_database_is_refused_unwritten() {
    use contract_core::inbox::SqliteError;

    let store = SqliteStore::fresh("newer").expect("a store");
    let newer = contract_core::inbox::SQLITE_SCHEMA_VERSION + 1;
    rusqlite::Connection::open(&store.path)
        .and_then(|c| c.pragma_update(None, "user_version", newer))
        .expect("set");
    match SqliteLedger::open(&store.path) {
        Err(SqliteError::NewerDatabase { found, known }) => {
            assert_eq!(
                (found, known),
                (newer, contract_core::inbox::SQLITE_SCHEMA_VERSION)
            );
        }
        other => panic!("expected NewerDatabase, got {other:?}"),
    }
    let version: i64 = rusqlite::Connection::open(&store.path)
        .and_then(|c| c.pragma_query_value(None, "user_version", |row| row.get(0)))
        .expect("read");
    assert_eq!(version, newer);
}

/// A ledger file the release before the journey's steps wrote (schema version 1, checked in
/// under `contract-core/tests/fixtures`) opens: it is migrated to today's version, keeps its
/// entries, and records steps from then on.
#[test]
fn a_ledger_of_schema_version_1_migrates_and_keeps_its_entries() {
    use contract_core::inbox::{Inbox, Ledger as _, Outcome};

    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../contract-core/tests/fixtures/ledger-v1.sqlite");
    let store = SqliteStore::fresh("migrate-v1").expect("a store");
    std::fs::copy(&fixture, &store.path).expect("copied");
    let version = |path: &std::path::Path| -> i64 {
        rusqlite::Connection::open(path)
            .and_then(|c| c.pragma_query_value(None, "user_version", |row| row.get(0)))
            .expect("read")
    };
    assert_eq!(version(&store.path), 1);

    let mut ledger = SqliteLedger::open(&store.path).expect("opens");
    assert_eq!(
        version(&store.path),
        contract_core::inbox::SQLITE_SCHEMA_VERSION
    );
    for (handoff, seq) in [("handoff-0", 1), ("handoff-1", 2)] {
        let entry = ledger.entry("ctx-1", handoff).expect("read").expect("kept");
        assert_eq!(entry.seq, seq);
    }
    assert_eq!(
        ledger.last_accepted("ctx-1").expect("read").map(|e| e.seq),
        Some(2)
    );
    // The entries of before have no steps; a retry of one now leaves a duplicate's.
    assert!(ledger.session("sess-1").expect("read").is_empty());
    let envelope = ledger.entry("ctx-1", "handoff-1").expect("read").expect("kept").envelope;
    let mut inbox = Inbox::new(ledger);
    let again = inbox
        .accept(
            &envelope,
            |_: &mut rusqlite::Transaction<'_>, _: &contract_core::Delivery<super::fixture::Order>| {
                Ok::<_, std::convert::Infallible>(String::new())
            },
        );
    // The retry is answered from its key and digest before its payload is read (the
    // fixture's contract is not the one read here), as a duplicate.
    assert!(matches!(again, Ok(contract_core::inbox::Acceptance::Duplicate(_))), "{again:?}");
    let steps = inbox.ledger_mut().session("sess-1").expect("read");
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].outcome, Outcome::Duplicate);
    assert_eq!(steps[0].handoff_id.as_deref(), Some("handoff-1"));
    assert_eq!(steps[0].from.as_deref(), Some("refund-specialist"));
    assert_eq!(steps[0].contract, "fixture-refund/v1");
}
