//! The conformance suite on [`PostgresLedger`], against the server `HANDOFF_TEST_POSTGRES`
//! names (a connection string: `host=/tmp/pg user=postgres dbname=postgres`). Unset, each
//! test passes printing `SKIPPED: … need HANDOFF_TEST_POSTGRES`, unless
//! `HANDOFF_REQUIRE_POSTGRES=1` (`.ci/run` sets both) makes that a failure.
//!
//! Each test gets a schema of its own (dropped when it ends), so that the tests run in
//! parallel on one database; the effects table is in that schema, found through the
//! connections' `search_path`. Every connection bounds its waits (`lock_timeout`,
//! `statement_timeout`, `idle_in_transaction_session_timeout`): a test that would wait for
//! a transaction that never ends fails instead of hanging.
//!
//! The killed-process tests: the child's connection is its own (opened after it started,
//! never inherited), and the server ends its transaction as soon as the child dies, since
//! the backend is idle in that transaction, reading from the socket the kernel closed
//! ("unexpected EOF on client connection with an open transaction" in the server's log).
//! The parent's retry waits for that, on the context's advisory lock and the key's row,
//! within its `lock_timeout`; the suite waits for the child at most two minutes.
//!
//! Beside the suite, what only this store has: its migration (once, however many open a new
//! schema at once; a newer schema refused), its lock per context, its errors without the
//! database's `DETAIL`.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use contract_core::inbox::PostgresLedger;
use postgres::{Client, NoTls, Transaction};

use super::fixture::{HandlerError, Store};

/// The variable naming the server.
const SERVER: &str = "HANDOFF_TEST_POSTGRES";

/// The variable that makes a missing server a failure.
const REQUIRE: &str = "HANDOFF_REQUIRE_POSTGRES";

/// What every connection of the tests sets: no wait lasts forever. A claim waits for
/// another transaction holding its key (milliseconds in these tests); a transaction left
/// open by a process that stopped is ended by the server.
const SESSION: &str = "SET lock_timeout = '20s'; SET statement_timeout = '30s'; \
                       SET idle_in_transaction_session_timeout = '30s';";

/// At most this many tests hold a schema (and their connections) at once, so that a
/// machine with many cores does not exceed the server's `max_connections` (100 by
/// default; a test opens up to 10).
const AT_ONCE: usize = 4;

/// The permits of [`AT_ONCE`].
static PERMITS: Permits = Permits {
    taken: Mutex::new(0),
    freed: Condvar::new(),
};

struct Permits {
    taken: Mutex<usize>,
    freed: Condvar,
}

/// One of [`AT_ONCE`] permits, returned when dropped.
struct Permit;

impl Permits {
    fn lock(&self) -> MutexGuard<'_, usize> {
        self.taken.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn take(&'static self) -> Permit {
        let mut taken = self.lock();
        while *taken >= AT_ONCE {
            taken = self
                .freed
                .wait(taken)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *taken += 1;
        Permit
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        *PERMITS.lock() -= 1;
        PERMITS.freed.notify_one();
    }
}

/// A schema of the server [`SERVER`] names.
pub struct Postgres {
    params: String,
    schema: String,
    /// Held by the process that made the schema, which drops it when done; a child process
    /// reopening it holds none.
    owner: Option<Permit>,
}

/// A client connected to `params`, its waits bounded.
fn client(params: &str) -> Client {
    let mut client =
        Client::connect(params, NoTls).unwrap_or_else(|e| panic!("{SERVER}: cannot connect: {e}"));
    client
        .batch_execute(SESSION)
        .unwrap_or_else(|e| panic!("{SERVER}: cannot set the session's timeouts: {e}"));
    client
}

/// An identifier quoted for SQL.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A schema name for the test `test` of this process: the process id and a counter keep it
/// apart from every other test's, now and in earlier runs still on the server.
fn schema_name(test: &str) -> String {
    let unique = super::fixture::unique(&format!("handoff_{}", std::process::id()));
    let mut name = format!("{unique}_{test}");
    name.retain(|c| c.is_ascii_alphanumeric() || c == '_');
    name.make_ascii_lowercase();
    // PostgreSQL keeps 63 bytes of a name.
    name.truncate(63);
    name
}

impl Store for Postgres {
    type Ledger = PostgresLedger;

    const DURABLE: bool = true;

    fn fresh(test: &str) -> Option<Self> {
        let Ok(params) = std::env::var(SERVER) else {
            assert!(
                std::env::var(REQUIRE).as_deref() != Ok("1"),
                "{test}: {REQUIRE}=1, but {SERVER} is not set: no PostgreSQL server to test"
            );
            println!("SKIPPED: {test}: the PostgreSQL tests need {SERVER}");
            return None;
        };
        let owner = PERMITS.take();
        let schema = schema_name(test);
        let mut admin = client(&params);
        admin
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {s} CASCADE; CREATE SCHEMA {s}; \
                 CREATE TABLE {s}.effects (effect text NOT NULL);",
                s = quoted(&schema)
            ))
            .unwrap_or_else(|e| panic!("{SERVER}: cannot create the test's schema: {e}"));
        Some(Postgres {
            params,
            schema,
            owner: Some(owner),
        })
    }

    fn locator(&self) -> String {
        self.schema.clone()
    }

    fn reopen(locator: &str) -> Self {
        let params = std::env::var(SERVER)
            .unwrap_or_else(|_| panic!("a child process of a PostgreSQL test needs {SERVER}"));
        Postgres {
            params,
            schema: locator.to_owned(),
            owner: None,
        }
    }

    fn connect(&self) -> PostgresLedger {
        let mut client = client(&self.params);
        client
            .batch_execute(&format!("SET search_path TO {}", quoted(&self.schema)))
            .unwrap_or_else(|e| panic!("{SERVER}: cannot set the search_path: {e}"));
        PostgresLedger::open(client, &self.schema)
            .unwrap_or_else(|e| panic!("{SERVER}: cannot open the ledger: {e}"))
    }

    fn apply(tx: &mut Transaction<'_>, effect: &str) -> Result<(), HandlerError> {
        tx.execute("INSERT INTO effects (effect) VALUES ($1)", &[&effect])?;
        Ok(())
    }

    fn effects(&self, effect: &str) -> u64 {
        // On a thread of its own: the suite also counts inside a tokio runtime (the
        // `AsyncInbox` test), where the synchronous client refuses to start its own.
        thread::scope(|scope| {
            scope
                .spawn(|| self.count(effect))
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }
}

impl Postgres {
    /// How many committed effects are named `effect`, read through a new connection.
    fn count(&self, effect: &str) -> u64 {
        let mut client = client(&self.params);
        let count: i64 = client
            .query_one(
                &format!(
                    "SELECT count(*) FROM {}.effects WHERE effect = $1",
                    quoted(&self.schema)
                ),
                &[&effect],
            )
            .unwrap_or_else(|e| panic!("{SERVER}: cannot count the effects: {e}"))
            .get(0);
        u64::try_from(count).unwrap_or_default()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if self.owner.is_none() {
            return;
        }
        // Best effort: a schema left behind (the server gone, a lock past the timeout) is
        // named by process and counter, and never reused.
        if let Ok(mut admin) = Client::connect(&self.params, NoTls) {
            let dropped = admin.batch_execute(&format!(
                "SET lock_timeout = '20s'; DROP SCHEMA IF EXISTS {} CASCADE",
                quoted(&self.schema)
            ));
            if let Err(error) = dropped {
                eprintln!("could not drop the test schema {}: {error}", self.schema);
            }
        }
    }
}

crate::inbox::suite::conformance!(Postgres);

// What only the PostgreSQL ledger has: its schema's migration and version, its advisory lock
// per context under READ COMMITTED, its errors without the database's DETAIL.

/// A fixture, or `None` after printing why the test skips (or a failure, when required).
fn fresh(test: &str) -> Option<Postgres> {
    <Postgres as Store>::fresh(test)
}

/// Opening migrates a new schema once, however many connections open it at once; a schema
/// a newer version wrote is refused and left as it was.
#[test]
fn opening_migrates_once_and_refuses_a_newer_schema() {
    use contract_core::inbox::{PostgresError, POSTGRES_SCHEMA_VERSION};
    use std::sync::{Arc, Barrier};

    let Some(store) = fresh("migrate") else {
        return;
    };
    // Not the fixture's schema, which already exists: one that does not, with a name that
    // needs quoting.
    let schema = format!("{} \"new\"", store.schema);
    let schema = &schema[..schema.len().min(63)];
    let barrier = Arc::new(Barrier::new(6));
    let opened: Vec<_> = (0..6)
        .map(|_| {
            let (params, schema, barrier) = (
                store.params.clone(),
                schema.to_owned(),
                Arc::clone(&barrier),
            );
            thread::spawn(move || {
                let client = client(&params);
                barrier.wait();
                PostgresLedger::open(client, &schema).map(|ledger| ledger.schema().to_owned())
            })
        })
        .collect();
    for opening in opened {
        let opened = opening.join().expect("no panic");
        assert_eq!(opened.expect("opens").as_str(), schema);
    }
    let mut admin = client(&store.params);
    let versions: Vec<i32> = admin
        .query(
            &format!(
                "SELECT version FROM {}.handoff_ledger_version",
                quoted(schema)
            ),
            &[],
        )
        .expect("read")
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, [POSTGRES_SCHEMA_VERSION]);

    // A version from the future: refused, nothing written.
    admin
        .execute(
            &format!(
                "UPDATE {}.handoff_ledger_version SET version = $1",
                quoted(schema)
            ),
            &[&(POSTGRES_SCHEMA_VERSION + 1)],
        )
        .expect("updated");
    match PostgresLedger::open(client(&store.params), schema) {
        Err(PostgresError::NewerDatabase { found, known }) => {
            assert_eq!(
                (found, known),
                (POSTGRES_SCHEMA_VERSION + 1, POSTGRES_SCHEMA_VERSION)
            );
        }
        other => panic!("expected NewerDatabase, got {other:?}"),
    }
    let after: i32 = admin
        .query_one(
            &format!(
                "SELECT version FROM {}.handoff_ledger_version",
                quoted(schema)
            ),
            &[],
        )
        .expect("read")
        .get(0);
    assert_eq!(after, POSTGRES_SCHEMA_VERSION + 1);
    admin
        .batch_execute(&format!("DROP SCHEMA {} CASCADE", quoted(schema)))
        .expect("dropped");

    // Names PostgreSQL would not keep as given are refused before anything is written.
    for bad in ["", "a\0b", &"s".repeat(64)] {
        assert!(matches!(
            PostgresLedger::open(client(&store.params), bad),
            Err(PostgresError::SchemaName)
        ));
    }
}

/// Acceptances in one context are serialized: a second one, in another connection, waits
/// for the first to commit and reads what it committed. Here the first accepts version 5 of
/// an artifact and holds its transaction open; the second, version 3 of the same uri, is
/// then a regression (without the context's lock, READ COMMITTED would have let it read
/// the context before the first committed, and accept it).
#[test]
fn acceptances_in_one_context_see_each_other() {
    use contract_core::inbox::{AcceptError, MemoryArtifacts};
    use contract_core::ArtifactRef;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use super::fixture::{accept, bytes, effect_of, order, unique, Order};

    let Some(store) = fresh("context-lock") else {
        return;
    };
    let artifacts = MemoryArtifacts::new();
    let uri = "store://answer/7";
    artifacts.put(uri, 3, b"three");
    artifacts.put(uri, 5, b"five");
    let context = unique("ctx");
    let (first, second) = (unique("v5"), unique("v3"));
    let v5 = bytes(order(&context, &first).artifact(ArtifactRef::new("answer", uri, 5)));
    let v3 = bytes(order(&context, &second).artifact(ArtifactRef::new("answer", uri, 3)));

    let mut holder = super::fixture::inbox(&store, &artifacts);
    let (in_handler, entered) = mpsc::channel();
    let hold = Duration::from_millis(300);
    let effect = effect_of(&context, &first);
    let holding = thread::spawn(move || {
        holder
            .accept(
                &v5,
                move |tx: &mut Transaction<'_>, _: &contract_core::Delivery<Order>| {
                    Postgres::apply(tx, &effect)?;
                    in_handler.send(()).expect("the test waits");
                    thread::sleep(hold);
                    Ok::<_, HandlerError>("five".to_owned())
                },
            )
            .map(|outcome| outcome.is_applied())
    });
    entered.recv().expect("the first is in its handler");
    let started = Instant::now();
    let mut other = super::fixture::inbox(&store, &artifacts);
    let refused = accept::<Postgres, _>(&mut other, &v3, &effect_of(&context, &second));
    let waited = started.elapsed();
    assert!(
        matches!(refused, Err(AcceptError::ArtifactRegressed { index: 0 })),
        "{refused:?}"
    );
    assert!(holding.join().expect("no panic").expect("applied"));
    // It waited for the first's commit (the handler's hold, less what passed before).
    assert!(waited >= hold / 2, "did not wait: {waited:?}");
    assert_eq!(store.effects(&effect_of(&context, &second)), 0);
    assert_eq!(store.effects(&effect_of(&context, &first)), 1);
}

/// The ledger's errors name the database's code and message, never its `DETAIL`, which
/// quotes the values of the row at fault.
#[test]
fn errors_leave_out_the_detail_that_quotes_values() {
    use contract_core::inbox::PostgresError;

    let Some(store) = fresh("errors") else {
        return;
    };
    let mut admin = client(&store.params);
    let table = format!("{}.unique_refs", quoted(&store.schema));
    admin
        .batch_execute(&format!(
            "CREATE TABLE {table} (order_ref text PRIMARY KEY)"
        ))
        .expect("created");
    let insert = format!("INSERT INTO {table} VALUES ($1)");
    admin.execute(&insert, &[&"A-SECRET-1"]).expect("inserted");
    let error = admin
        .execute(&insert, &[&"A-SECRET-1"])
        .expect_err("a unique violation");
    let detail = error.as_db_error().and_then(|db| db.detail()).unwrap_or("");
    assert!(
        detail.contains("A-SECRET-1"),
        "the server quotes it: {detail}"
    );
    let error = PostgresError::from(error);
    let message = error.to_string();
    assert!(message.contains("23505"), "{message}");
    assert!(!message.contains("A-SECRET-1"), "{message}");
    assert!(std::error::Error::source(&error).is_none());
}

/// A schema of version 1, as the release before the journey's steps created it (its tables,
/// written here as that release wrote them, and one entry), opens: it is migrated to today's
/// version, keeps its entry, and records steps from then on.
#[test]
fn a_schema_of_version_1_migrates_and_keeps_its_entries() {
    use contract_core::inbox::{Ledger as _, POSTGRES_SCHEMA_VERSION};

    let Some(store) = fresh("migrate_v1") else {
        return;
    };
    let schema = format!("{}_v1", store.schema);
    let schema = &schema[..schema.len().min(63)];
    let s = quoted(schema);
    let mut admin = client(&store.params);
    admin
        .batch_execute(&format!(
            "CREATE SCHEMA {s};
             CREATE TABLE {s}.handoff_ledger_version (version integer NOT NULL);
             INSERT INTO {s}.handoff_ledger_version VALUES (1);
             CREATE TABLE {s}.handoff_ledger (
                 seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                 context_id text NOT NULL, handoff_id text NOT NULL, digest bytea NOT NULL,
                 owner text NOT NULL, accepted_at timestamptz NOT NULL, receipt bytea,
                 envelope bytea NOT NULL, UNIQUE (context_id, handoff_id));
             CREATE INDEX handoff_ledger_context ON {s}.handoff_ledger (context_id, seq);
             CREATE TABLE {s}.handoff_artifact (context_id text NOT NULL, uri text NOT NULL,
                 version bigint NOT NULL, PRIMARY KEY (context_id, uri));
             INSERT INTO {s}.handoff_ledger (context_id, handoff_id, digest, owner, accepted_at, receipt, envelope)
                 VALUES ('ctx-1', 'handoff-0', decode(repeat('ab', 32), 'hex'), 'refund-specialist',
                         now(), '\"done\"', '{{}}');"
        ))
        .expect("a version 1 schema");
    let mut ledger = PostgresLedger::open(client(&store.params), schema).expect("opens");
    let version: i32 = admin
        .query_one(
            &format!("SELECT version FROM {s}.handoff_ledger_version"),
            &[],
        )
        .expect("read")
        .get(0);
    assert_eq!(version, POSTGRES_SCHEMA_VERSION);
    let entry = ledger
        .entry("ctx-1", "handoff-0")
        .expect("read")
        .expect("kept");
    assert_eq!(entry.receipt, b"\"done\"");
    assert!(ledger.session("any").expect("the steps' table").is_empty());
    drop(ledger);
    admin
        .batch_execute(&format!("DROP SCHEMA {s} CASCADE"))
        .expect("dropped");
}

/// A read-only opening refuses, and writes nothing: a schema that does not exist (nor is
/// created), a schema without the ledger's tables, a schema of a newer version, and one of
/// version 1 (written before the journey's steps: it has none to read, and it is not
/// migrated). A schema of today's version reads, and every write through it fails.
#[test]
fn a_read_only_opening_refuses_what_is_no_ledger_of_today_writing_nothing() {
    use contract_core::inbox::{
        AcceptError, Inbox, Ledger as _, PostgresError, POSTGRES_SCHEMA_VERSION,
    };

    use super::fixture::{bytes, effect_of, order};

    let Some(store) = fresh("read_only") else {
        return;
    };
    let mut admin = client(&store.params);
    let exists = |admin: &mut Client, schema: &str| -> bool {
        admin
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                &[&schema],
            )
            .expect("read")
            .get(0)
    };
    let version = |admin: &mut Client, schema: &str| -> i32 {
        admin
            .query_one(
                &format!(
                    "SELECT version FROM {}.handoff_ledger_version",
                    quoted(schema)
                ),
                &[],
            )
            .expect("read")
            .get(0)
    };

    let missing = format!("{}_none", store.schema);
    let missing = &missing[..missing.len().min(63)];
    let error = PostgresLedger::connect_read_only(&store.params, missing).expect_err("refused");
    assert!(matches!(error, PostgresError::NoSchema), "{error:?}");
    assert_eq!(error.to_string(), "no such schema");
    assert!(!exists(&mut admin, missing), "created");

    // The fixture's schema holds only the effects table.
    let error =
        PostgresLedger::connect_read_only(&store.params, &store.schema).expect_err("refused");
    assert!(matches!(error, PostgresError::NotALedger), "{error:?}");
    let tables: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1",
            &[&store.schema],
        )
        .expect("read")
        .get(0);
    assert_eq!(tables, 1, "nothing created beside the effects");

    // Today's version: it reads, and refuses every write.
    let mut writer = Inbox::new(store.connect());
    super::fixture::accept::<Postgres, _>(
        &mut writer,
        &bytes(order("ctx-ro", "h-1")),
        &effect_of("ctx-ro", "h-1"),
    )
    .expect("applied");
    let mut reader =
        PostgresLedger::connect_read_only(&store.params, &store.schema).expect("opens");
    assert_eq!(reader.session("session-1").expect("read").len(), 1);
    let mut refused = Inbox::new(reader);
    let again = super::fixture::accept::<Postgres, _>(
        &mut refused,
        &bytes(order("ctx-ro", "h-2")),
        &effect_of("ctx-ro", "h-2"),
    );
    assert!(matches!(again, Err(AcceptError::Store(_))), "{again:?}");
    assert_eq!(store.effects(&effect_of("ctx-ro", "h-2")), 0);
    drop(refused);

    // A newer version, then version 1: refused, the version row as it was.
    let s = quoted(&store.schema);
    admin
        .execute(
            &format!("UPDATE {s}.handoff_ledger_version SET version = $1"),
            &[&(POSTGRES_SCHEMA_VERSION + 1)],
        )
        .expect("updated");
    match PostgresLedger::connect_read_only(&store.params, &store.schema) {
        Err(PostgresError::NewerDatabase { found, known }) => {
            assert_eq!(
                (found, known),
                (POSTGRES_SCHEMA_VERSION + 1, POSTGRES_SCHEMA_VERSION)
            );
        }
        other => panic!("expected NewerDatabase, got {other:?}"),
    }
    assert_eq!(
        version(&mut admin, &store.schema),
        POSTGRES_SCHEMA_VERSION + 1
    );
    admin
        .batch_execute(&format!(
            "UPDATE {s}.handoff_ledger_version SET version = 1; DROP TABLE {s}.handoff_step"
        ))
        .expect("a version 1 schema");
    let error =
        PostgresLedger::connect_read_only(&store.params, &store.schema).expect_err("refused");
    assert!(matches!(error, PostgresError::NoJourney), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("schema version 1"), "{message}");
    assert!(message.contains("opening it read-write"), "{message}");
    assert_eq!(version(&mut admin, &store.schema), 1, "not migrated");

    for bad in ["", "a\0b", &"s".repeat(64)] {
        assert!(matches!(
            PostgresLedger::connect_read_only(&store.params, bad),
            Err(PostgresError::SchemaName)
        ));
    }
}

/// The ledger's schema goes first on the connection's `search_path`: the application's
/// migrations create their unqualified tables there, in the ledger's migration transaction,
/// and the handler's unqualified statements write there, not to `public`. The steps run
/// once each (a reopen only reads); an edited step or a newer schema is refused.
#[test]
fn the_applications_tables_land_in_the_ledgers_schema() {
    use contract_core::inbox::{Inbox, MigrationError, Migrations, NoArtifacts, PostgresError};
    use contract_core::{send_handoff, Delivery, Handoff};

    use super::fixture::{order, Order};

    let Some(store) = fresh("app-tables") else {
        return;
    };
    // A schema that does not exist yet, opened on a connection whose search_path is the
    // server's default.
    let schema = format!("{}_app", store.schema);
    let schema = &schema[..schema.len().min(63)];
    const V1: &str = "CREATE TABLE app_refunds (order_ref text PRIMARY KEY)";
    const V2: &str = "ALTER TABLE app_refunds ADD COLUMN amount_cents bigint";
    let steps = Migrations::new(&[V1, V2]);
    let ledger =
        PostgresLedger::connect_with_migrations(&store.params, schema, &steps).expect("opens");
    let mut admin = client(&store.params);
    let located: (bool, bool) = {
        let row = admin
            .query_one(
                "SELECT to_regclass(format('%I.app_refunds', $1::text)) IS NOT NULL, \
                 to_regclass('public.app_refunds') IS NOT NULL",
                &[&schema],
            )
            .expect("read");
        (row.get(0), row.get(1))
    };
    assert_eq!(located, (true, false), "the table is the ledger schema's");

    let mut inbox = Inbox::with_artifacts(ledger, NoArtifacts);
    let path: String = inbox
        .ledger_mut()
        .client()
        .query_one("SHOW search_path", &[])
        .expect("read")
        .get(0);
    assert!(
        path.starts_with(&format!("\"{schema}\"")) || path.starts_with(schema),
        "{path}"
    );
    fn issue(
        tx: &mut postgres::Transaction<'_>,
        delivery: &Delivery<Order>,
    ) -> Result<(), postgres::Error> {
        let order = delivery.payload();
        tx.execute(
            "INSERT INTO app_refunds (order_ref, amount_cents) VALUES ($1, $2)",
            &[
                &order.order_ref,
                &i64::try_from(order.amount_cents).unwrap_or(i64::MAX),
            ],
        )?;
        Ok(())
    }
    let mut handoff: Handoff<Order> = order("ctx-app", "h-1");
    let envelope = send_handoff(&mut handoff).expect("sent").into_bytes();
    assert!(inbox
        .accept(&envelope, issue)
        .expect("applied")
        .is_applied());
    let written: i64 = admin
        .query_one(
            &format!("SELECT count(*) FROM {}.app_refunds", quoted(schema)),
            &[],
        )
        .expect("read")
        .get(0);
    assert_eq!(written, 1);
    drop(inbox);

    let versions = |admin: &mut Client| -> Vec<i64> {
        admin
            .query(
                &format!(
                    "SELECT version FROM {}.handoff_app_migration ORDER BY version",
                    quoted(schema)
                ),
                &[],
            )
            .expect("read")
            .iter()
            .map(|row| row.get(0))
            .collect()
    };
    assert_eq!(versions(&mut admin), [1, 2]);
    // Reopened: nothing runs again (V1 again would fail: the table exists).
    drop(PostgresLedger::connect_with_migrations(&store.params, schema, &steps).expect("reopens"));
    assert_eq!(versions(&mut admin), [1, 2]);
    // Edited, or fewer than the schema has: refused, nothing written.
    let edited = Migrations::new(&[V1, "ALTER TABLE app_refunds ADD COLUMN reason text"]);
    match PostgresLedger::connect_with_migrations(&store.params, schema, &edited) {
        Err(PostgresError::Migration(MigrationError::Changed { version: 2 })) => {}
        other => panic!("expected a changed migration, got {other:?}"),
    }
    match PostgresLedger::connect_with_migrations(&store.params, schema, &Migrations::new(&[V1])) {
        Err(PostgresError::Migration(MigrationError::Newer { found: 2, known: 1 })) => {}
        other => panic!("expected a newer schema, got {other:?}"),
    }
    assert_eq!(versions(&mut admin), [1, 2]);
    // A step that fails rolls back every step of its opening with it.
    let failing = Migrations::new(&[V1, V2, "CREATE INDEX ON app_refunds (no_such_column)"]);
    assert!(matches!(
        PostgresLedger::connect_with_migrations(&store.params, schema, &failing),
        Err(PostgresError::Postgres(_))
    ));
    assert_eq!(versions(&mut admin), [1, 2]);
    admin
        .batch_execute(&format!("DROP SCHEMA {} CASCADE", quoted(schema)))
        .expect("dropped");
}

/// A connection the server terminates (as a restart or a failover would) fails the next
/// acceptance with a transient store error; a serialization failure and a deadlock are
/// transient too; a unique violation is not.
#[test]
fn a_dropped_connection_is_a_transient_failure() {
    use contract_core::inbox::{AcceptError, Inbox, MemoryArtifacts, PostgresError};

    use super::fixture::{accept, bytes, effect_of, order};

    let Some(store) = fresh("transient") else {
        return;
    };
    let mut ledger = store.connect();
    let pid: i32 = ledger
        .client()
        .query_one("SELECT pg_backend_pid()", &[])
        .expect("read")
        .get(0);
    let mut inbox = Inbox::with_artifacts(ledger, MemoryArtifacts::new());
    let mut admin = client(&store.params);
    let terminated: bool = admin
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .expect("terminated")
        .get(0);
    assert!(terminated);
    let envelope = bytes(order("ctx-dropped", "h-1"));
    let effect = effect_of("ctx-dropped", "h-1");
    match accept::<Postgres, _>(&mut inbox, &envelope, &effect) {
        Err(error @ AcceptError::Store(_)) => assert!(error.is_transient(), "{error:?}"),
        other => panic!("expected a dropped connection, got {other:?}"),
    }
    // A new connection: the same envelope is applied.
    let mut inbox = Inbox::with_artifacts(store.connect(), MemoryArtifacts::new());
    assert!(accept::<Postgres, _>(&mut inbox, &envelope, &effect)
        .expect("applied")
        .is_applied());
    assert_eq!(store.effects(&effect), 1);

    // A serialization failure: two SERIALIZABLE transactions that each read what the other
    // writes.
    let table = format!("{}.skew", quoted(&store.schema));
    admin
        .batch_execute(&format!(
            "CREATE TABLE {table} (k int PRIMARY KEY, v int); INSERT INTO {table} VALUES (1, 0), (2, 0)"
        ))
        .expect("created");
    let (mut a, mut b) = (client(&store.params), client(&store.params));
    let serializable = "BEGIN ISOLATION LEVEL SERIALIZABLE";
    a.batch_execute(serializable).expect("begun");
    b.batch_execute(serializable).expect("begun");
    a.batch_execute(&format!(
        "UPDATE {table} SET v = (SELECT sum(v) FROM {table}) + 1 WHERE k = 1"
    ))
    .expect("a");
    let b_update = b.batch_execute(&format!(
        "UPDATE {table} SET v = (SELECT sum(v) FROM {table}) + 1 WHERE k = 2"
    ));
    a.batch_execute("COMMIT").expect("the first commits");
    // The second fails at its next statement or at its commit, as the server finds it.
    let failure = match b_update {
        Err(failure) => failure,
        Ok(()) => b
            .batch_execute("COMMIT")
            .expect_err("a serialization failure"),
    };
    let failure = PostgresError::from(failure);
    assert_eq!(failure.code().map(|c| c.code()), Some("40001"), "{failure}");
    assert!(failure.is_transient(), "{failure}");

    // Not every failure is: a unique violation is the same on a retry.
    let duplicate = admin
        .batch_execute(&format!("INSERT INTO {table} VALUES (1, 0)"))
        .expect_err("a unique violation");
    assert!(!PostgresError::from(duplicate).is_transient());
}

/// A redelivery of a recorded step is counted in memory: its transaction writes nothing (the
/// server's count of the step's row updates does not move), its count is written before the
/// ledger reads its steps, and when it gives up its client.
#[test]
fn redeliveries_are_counted_in_memory_and_written_before_a_read() {
    use contract_core::inbox::{Inbox, Ledger as _, Outcome};

    use super::fixture::{bytes, effect_of, order};

    let Some(store) = fresh("pending") else {
        return;
    };
    let mut writer = Inbox::new(store.connect());
    let envelope = bytes(order("ctx-p", "h-1"));
    let effect = effect_of("ctx-p", "h-1");
    let accept = |writer: &mut Inbox<PostgresLedger>| {
        super::fixture::accept::<Postgres, _>(writer, &envelope, &effect).expect("accepted")
    };
    accept(&mut writer);
    // The first duplicate records its step; the next ones are counted on it.
    accept(&mut writer);
    let mut reader = store.connect();
    let duplicates = |reader: &mut PostgresLedger| -> u64 {
        let steps = reader.session("session-1").expect("read");
        assert_eq!(steps.len(), 2, "{steps:?}");
        assert_eq!(steps[0].outcome, Outcome::Applied);
        assert_eq!(steps[1].outcome, Outcome::Duplicate);
        steps[1].count
    };
    assert_eq!(duplicates(&mut reader), 1);
    accept(&mut writer);
    accept(&mut writer);
    assert_eq!(duplicates(&mut reader), 1, "not written yet");
    // The writer's own read writes them first.
    assert_eq!(duplicates(writer.ledger_mut()), 3);
    assert_eq!(duplicates(&mut reader), 3);
    accept(&mut writer);
    accept(&mut writer);
    let client = writer.into_ledger().into_client();
    drop(client);
    assert_eq!(
        duplicates(&mut reader),
        5,
        "written when the client was given up"
    );
    // Counts that waited a second are written with the next redelivery.
    let mut writer = Inbox::new(store.connect());
    accept(&mut writer);
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    accept(&mut writer);
    assert_eq!(duplicates(&mut reader), 7, "written after a second");
    assert_eq!(store.effects(&effect), 1);
}
