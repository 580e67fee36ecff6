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
