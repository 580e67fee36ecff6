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
    let envelope = ledger
        .entry("ctx-1", "handoff-1")
        .expect("read")
        .expect("kept")
        .envelope;
    let mut inbox = Inbox::new(ledger);
    let again = inbox.accept(
        &envelope,
        |_: &mut rusqlite::Transaction<'_>, _: &contract_core::Delivery<super::fixture::Order>| {
            Ok::<_, std::convert::Infallible>(String::new())
        },
    );
    // The retry is answered from its key and digest before its payload is read (the
    // fixture's contract is not the one read here), as a duplicate.
    assert!(
        matches!(again, Ok(contract_core::inbox::Acceptance::Duplicate(_))),
        "{again:?}"
    );
    let steps = inbox.ledger_mut().session("sess-1").expect("read");
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].outcome, Outcome::Duplicate);
    assert_eq!(steps[0].handoff_id.as_deref(), Some("handoff-1"));
    assert_eq!(steps[0].from.as_deref(), Some("refund-specialist"));
    assert_eq!(steps[0].contract, "fixture-refund/v1");
}

/// The bytes of `path` and whether its `-wal` and `-shm` companions exist: what a reader that
/// writes nothing leaves as it found.
fn on_disk(path: &std::path::Path) -> (Vec<u8>, [bool; 2]) {
    let companion = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::Path::new(&name).exists()
    };
    (
        std::fs::read(path).unwrap_or_default(),
        [companion("-wal"), companion("-shm")],
    )
}

/// A read-only opening refuses, and leaves as it was: a path with no file, a folder, a file
/// that is no SQLite database, a database that is no ledger, a ledger of a newer version, and
/// one of version 1 (written before the journey's steps: it has none to read), whether its
/// writer has it open or not.
#[test]
fn a_read_only_opening_refuses_what_is_no_ledger_of_today_writing_nothing() {
    use contract_core::inbox::{SqliteError, SQLITE_SCHEMA_VERSION};

    let store = SqliteStore::fresh("read-only-refusals").expect("a store");
    let dir = store.path.with_extension("refusals");
    std::fs::create_dir_all(&dir).expect("a folder");
    let refused = |path: &std::path::Path| -> SqliteError {
        let before = on_disk(path);
        let error = SqliteLedger::open_read_only(path).expect_err("refused");
        assert_eq!(on_disk(path), before, "{}: written", path.display());
        assert!(!error.to_string().contains('\n'), "{error}");
        error
    };

    assert!(matches!(
        refused(&dir.join("none.sqlite")),
        SqliteError::NoFile
    ));
    assert!(!dir.join("none.sqlite").exists());
    assert!(matches!(refused(&dir), SqliteError::NoFile));

    let text = dir.join("notes.db");
    std::fs::write(
        &text,
        "not a database at all, longer than a header ".repeat(4),
    )
    .expect("written");
    let empty = dir.join("empty.db");
    std::fs::write(&empty, "").expect("written");
    let other = dir.join("other.db");
    rusqlite::Connection::open(&other)
        .and_then(|c| c.execute_batch("CREATE TABLE notes (body TEXT)"))
        .expect("another database");
    let other_wal = dir.join("other-wal.db");
    rusqlite::Connection::open(&other_wal)
        .and_then(|c| {
            c.pragma_update(None, "journal_mode", "WAL")?;
            c.execute_batch("CREATE TABLE notes (body TEXT)")
        })
        .expect("another WAL database");
    for path in [&text, &empty, &other, &other_wal] {
        let error = refused(path);
        assert!(
            matches!(error, SqliteError::NotALedger),
            "{}: {error:?}",
            path.display()
        );
        assert_eq!(
            error.to_string(),
            "not a handoff ledger (no handoff_ledger and handoff_step tables)"
        );
    }

    let newer = store.path.clone();
    rusqlite::Connection::open(&newer)
        .and_then(|c| c.pragma_update(None, "user_version", SQLITE_SCHEMA_VERSION + 1))
        .expect("set");
    match refused(&newer) {
        SqliteError::NewerDatabase { found, known } => {
            assert_eq!(
                (found, known),
                (SQLITE_SCHEMA_VERSION + 1, SQLITE_SCHEMA_VERSION)
            );
        }
        other => panic!("expected NewerDatabase, got {other:?}"),
    }

    let v1 = dir.join("ledger-v1.sqlite");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../contract-core/tests/fixtures/ledger-v1.sqlite"),
        &v1,
    )
    .expect("copied");
    let error = refused(&v1);
    assert!(matches!(error, SqliteError::NoJourney), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("schema version 1"), "{message}");
    assert!(message.contains("no journey"), "{message}");
    assert!(message.contains("opening it read-write"), "{message}");
    // Its writer has it open (its log beside it): SQLite's own reading says the same.
    let writer = rusqlite::Connection::open(&v1).expect("opens");
    let _: i64 = writer
        .query_row("SELECT COUNT(*) FROM handoff_ledger", [], |row| row.get(0))
        .expect("read");
    assert!(on_disk(&v1).1[0], "the writer's log");
    assert!(matches!(refused(&v1), SqliteError::NoJourney));
    let version: i64 = writer
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .expect("read");
    assert_eq!(version, 1, "not migrated");
    drop(writer);
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// A ledger opened read-only reads what its writer recorded (while the writer goes on), and
/// every write through it fails: an acceptance is refused as the store's failure, and
/// records nothing.
#[test]
fn a_read_only_ledger_reads_the_journey_and_writes_nothing() {
    use contract_core::inbox::{AcceptError, Inbox, Ledger as _, Outcome, SessionFilter};

    use super::fixture::{bytes, effect_of, order};

    let store = SqliteStore::fresh("read-only").expect("a store");
    let mut writer = Inbox::new(store.connect());
    let first = bytes(order("ctx-ro", "h-1"));
    super::fixture::accept::<SqliteStore, _>(&mut writer, &first, &effect_of("ctx-ro", "h-1"))
        .expect("applied");

    let mut reader = SqliteLedger::open_read_only(&store.path).expect("opens");
    let steps = reader.session("session-1").expect("read");
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].outcome, Outcome::Applied);
    // The writer goes on; the reader sees it.
    super::fixture::accept::<SqliteStore, _>(
        &mut writer,
        &bytes(order("ctx-ro", "h-2")),
        &effect_of("ctx-ro", "h-2"),
    )
    .expect("applied");
    assert_eq!(reader.session("session-1").expect("read").len(), 2);
    let sessions = reader.sessions(&SessionFilter::default()).expect("read");
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].steps, 2);

    let mut refused = Inbox::new(reader);
    let again = super::fixture::accept::<SqliteStore, _>(
        &mut refused,
        &bytes(order("ctx-ro", "h-3")),
        &effect_of("ctx-ro", "h-3"),
    );
    assert!(matches!(again, Err(AcceptError::Store(_))), "{again:?}");
    assert_eq!(store.effects(&effect_of("ctx-ro", "h-3")), 0);
    assert_eq!(
        refused
            .ledger_mut()
            .session("session-1")
            .expect("read")
            .len(),
        2,
        "no step of the refusal"
    );
}

/// `sessions --since` without an index of the steps' times: the steps seen once are the
/// suffix of the sequence from the first one seen at or after the time (a step's first
/// sighting never goes back along the sequence), the steps seen again come from the partial
/// index of their last sighting; checked against a count of every step, at every cut.
#[test]
fn sessions_since_a_time_are_found_from_the_sequence_and_the_repeats() {
    use std::time::{Duration, UNIX_EPOCH};

    use contract_core::inbox::{Ledger as _, Outcome, SessionFilter, Step};

    let store = SqliteStore::fresh("since").expect("a store");
    let mut ledger = store.connect();
    let at = |second: u64| UNIX_EPOCH + Duration::from_secs(1_800_000_000 + second);
    let step = |session: &str, handoff: &str, second: u64| Step {
        seq: 0,
        session: Some(session.to_owned()),
        workflow: Some("support-refund".to_owned()),
        from: Some("triage".to_owned()),
        to: Some("refund-specialist".to_owned()),
        attempt: Some(1),
        retry_of: None,
        contract: "inbox-order/v1".to_owned(),
        context_id: Some("ctx".to_owned()),
        handoff_id: Some(handoff.to_owned()),
        outcome: Outcome::Refused,
        reason: Some("rejected".to_owned()),
        received_fields: vec![],
        missing_fields: vec![],
        sender_fields: None,
        causes: Default::default(),
        problems: vec![],
        spent: None,
        count: 1,
        first_seen: at(second),
        last_seen: at(second),
    };
    // Ten sessions, one step each, a second apart; the clock of the seventh going back (it
    // is clamped to the step before it); the second session's step seen again later.
    let mut seen: Vec<(String, u64)> = Vec::new();
    for i in 0..10_u64 {
        let second = if i == 6 { 2 } else { i * 10 };
        let session = format!("s{i}");
        ledger.note(&step(&session, "h", second)).expect("noted");
        let recorded = seen.last().map_or(second, |(_, last)| second.max(*last));
        seen.push((session, recorded));
    }
    assert!(ledger
        .touch(&step("s1", "h", 0).key(), at(95))
        .expect("touched"));
    seen[1].1 = 95;
    for cut in [0, 5, 10, 45, 55, 60, 61, 90, 95, 96] {
        let listed = ledger
            .sessions(&SessionFilter::default().since(at(cut)))
            .expect("read");
        let mut got: Vec<&str> = listed.iter().map(|s| s.session.as_str()).collect();
        got.sort_unstable();
        let mut want: Vec<&str> = seen
            .iter()
            .filter(|(_, last)| *last >= cut)
            .map(|(s, _)| s.as_str())
            .collect();
        want.sort_unstable();
        assert_eq!(got, want, "since +{cut}s");
    }
}

/// The application's migrations run in the ledger's migration transaction: once each,
/// recorded by version, only the new ones on a reopen; a step edited after it ran, or a
/// database with more steps than given, is refused and nothing is written; a step that
/// fails on a new file leaves no ledger either.
#[test]
fn the_applications_migrations_run_once_in_the_ledgers_transaction() {
    use contract_core::inbox::{MigrationError, Migrations, SqliteError};

    const V1: &str = "CREATE TABLE refunds (order_ref TEXT PRIMARY KEY)";
    const V2: &str = "ALTER TABLE refunds ADD COLUMN amount_cents INTEGER";
    const V3: &str = "CREATE INDEX refunds_amount ON refunds (amount_cents)";
    let store = SqliteStore::fresh("app-migrations").expect("a store");
    let applied = |ledger: &SqliteLedger| -> Vec<i64> {
        let mut statement = ledger
            .connection()
            .prepare("SELECT version FROM handoff_app_migration ORDER BY version")
            .expect("prepared");
        let rows = statement.query_map([], |row| row.get(0)).expect("read");
        rows.map(|row| row.expect("a version")).collect()
    };

    let two = Migrations::new(&[V1, V2]);
    let ledger = SqliteLedger::open_with_migrations(&store.path, &two).expect("opens");
    assert_eq!(applied(&ledger), [1, 2]);
    ledger
        .connection()
        .execute(
            "INSERT INTO refunds (order_ref, amount_cents) VALUES ('A-1', 1250)",
            [],
        )
        .expect("the table of both steps");
    drop(ledger);
    // Reopened with the same steps: nothing runs again (V1 again would fail: the table
    // exists), the row stays.
    let ledger = SqliteLedger::open_with_migrations(&store.path, &two).expect("reopens");
    assert_eq!(applied(&ledger), [1, 2]);
    drop(ledger);
    // One step more: only it runs.
    let three = Migrations::new(&[V1, V2, V3]);
    let ledger = SqliteLedger::open_with_migrations(&store.path, &three).expect("reopens");
    assert_eq!(applied(&ledger), [1, 2, 3]);
    drop(ledger);
    // Plain `open` reads no migration and leaves them alone.
    drop(SqliteLedger::open(&store.path).expect("opens"));

    // A step edited after it ran: refused, nothing written.
    let edited = Migrations::new(&[V1, "ALTER TABLE refunds ADD COLUMN reason TEXT", V3]);
    match SqliteLedger::open_with_migrations(&store.path, &edited) {
        Err(SqliteError::Migration(MigrationError::Changed { version: 2 })) => {}
        other => panic!("expected a changed migration, got {other:?}"),
    }
    // Fewer steps than the database has: a newer application migrated it.
    match SqliteLedger::open_with_migrations(&store.path, &two) {
        Err(SqliteError::Migration(MigrationError::Newer { found: 3, known: 2 })) => {}
        other => panic!("expected a newer database, got {other:?}"),
    }
    let ledger = store.connect();
    assert_eq!(applied(&ledger), [1, 2, 3]);
    let columns: i64 = ledger
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_info('refunds')",
            [],
            |row| row.get(0),
        )
        .expect("counted");
    assert_eq!(columns, 2, "the edited step did not run");
    drop(ledger);

    // On a new file, a failing step rolls the ledger's own migration back with it.
    let fresh = store.path.with_extension("failing.db");
    let failing = Migrations::new(&[V1, "CREATE TABLE refunds (x TEXT)"]);
    match SqliteLedger::open_with_migrations(&fresh, &failing) {
        Err(SqliteError::Sqlite(_)) => {}
        other => panic!("expected the step's failure, got {other:?}"),
    }
    let connection = rusqlite::Connection::open(&fresh).expect("opens");
    let (version, tables): (i64, i64) = connection
        .query_row(
            "SELECT (SELECT user_version FROM pragma_user_version), \
             (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table')",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("read");
    assert_eq!((version, tables), (0, 0));
    drop(connection);
    for suffix in ["", "-wal", "-shm"] {
        let mut path = fresh.clone().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
}

/// A database locked by another connection's write transaction, past a `busy_timeout` of
/// 0: the acceptance fails with a transient store error, a retry loop's cue; the same
/// envelope is applied once the lock is released. A read-only ledger's refusal is not
/// transient.
#[test]
fn a_busy_database_is_a_transient_failure() {
    use contract_core::inbox::{AcceptError, Inbox, MemoryArtifacts};
    use std::time::Duration;

    use super::fixture::{accept, bytes, effect_of, order};

    let store = SqliteStore::fresh("busy").expect("a store");
    let ledger = store.connect().busy_timeout(Duration::ZERO).expect("set");
    let mut inbox = Inbox::with_artifacts(ledger, MemoryArtifacts::new());
    let holder = rusqlite::Connection::open(&store.path).expect("opens");
    holder
        .execute_batch("BEGIN IMMEDIATE")
        .expect("the write lock");

    let envelope = bytes(order("ctx-busy", "h-1"));
    let effect = effect_of("ctx-busy", "h-1");
    match accept::<SqliteStore, _>(&mut inbox, &envelope, &effect) {
        Err(error @ AcceptError::Store(_)) => {
            assert!(error.is_transient(), "{error:?}");
            let AcceptError::Store(store_error) = &error else {
                unreachable!()
            };
            assert!(store_error.is_transient());
        }
        other => panic!("expected a busy store, got {other:?}"),
    }
    assert_eq!(store.effects(&effect), 0);

    holder.execute_batch("ROLLBACK").expect("released");
    let retried = accept::<SqliteStore, _>(&mut inbox, &envelope, &effect).expect("applied");
    assert!(retried.is_applied());
    assert_eq!(store.effects(&effect), 1);
    drop(inbox);

    // Not every store failure is: a read-only ledger refuses for good.
    let mut read_only = Inbox::with_artifacts(
        SqliteLedger::open_read_only(&store.path).expect("opens"),
        MemoryArtifacts::new(),
    );
    let other = bytes(order("ctx-busy", "h-2"));
    match accept::<SqliteStore, _>(&mut read_only, &other, "none") {
        Err(error @ AcceptError::Store(_)) => assert!(!error.is_transient(), "{error:?}"),
        other => panic!("expected a read-only refusal, got {other:?}"),
    }
}

/// A redelivery of a recorded step is counted in memory: answered without a write (another
/// connection's `data_version` does not move), its count written before the ledger reads
/// its steps, and when it is dropped.
#[test]
fn redeliveries_are_counted_in_memory_and_written_before_a_read_or_a_drop() {
    use contract_core::inbox::{Inbox, Ledger as _, Outcome};

    use super::fixture::{bytes, effect_of, order};

    let store = SqliteStore::fresh("pending").expect("a store");
    let mut writer = Inbox::new(store.connect());
    let envelope = bytes(order("ctx-p", "h-1"));
    let effect = effect_of("ctx-p", "h-1");
    let accept = |writer: &mut Inbox<SqliteLedger>| {
        super::fixture::accept::<SqliteStore, _>(writer, &envelope, &effect).expect("accepted")
    };
    accept(&mut writer);
    // The first duplicate records its step; the next ones are counted on it.
    accept(&mut writer);
    let mut reader = SqliteLedger::open_read_only(&store.path).expect("opens");
    let data_version = |reader: &SqliteLedger| -> i64 {
        reader
            .connection()
            .query_row("PRAGMA data_version", [], |row| row.get(0))
            .expect("read")
    };
    let duplicates = |reader: &mut SqliteLedger| -> u64 {
        let steps = reader.session("session-1").expect("read");
        assert_eq!(steps.len(), 2, "{steps:?}");
        assert_eq!(steps[0].outcome, Outcome::Applied);
        assert_eq!(steps[1].outcome, Outcome::Duplicate);
        steps[1].count
    };
    assert_eq!(duplicates(&mut reader), 1);
    let before = data_version(&reader);
    accept(&mut writer);
    accept(&mut writer);
    assert_eq!(data_version(&reader), before, "a counted duplicate wrote");
    assert_eq!(duplicates(&mut reader), 1, "not written yet");
    // The writer's own read writes them first.
    assert_eq!(duplicates(writer.ledger_mut()), 3);
    assert_eq!(duplicates(&mut reader), 3);
    accept(&mut writer);
    accept(&mut writer);
    drop(writer);
    assert_eq!(
        duplicates(&mut reader),
        5,
        "written when the ledger was dropped"
    );
    // Counts that waited a second are written with the next redelivery.
    let mut writer = Inbox::new(store.connect());
    accept(&mut writer);
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    accept(&mut writer);
    assert_eq!(duplicates(&mut reader), 7, "written after a second");
    drop(writer);
    assert_eq!(store.effects(&effect), 1);
}
