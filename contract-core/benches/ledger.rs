//! The cost of durable, idempotent acceptance on SQLite against what a user would write
//! instead, on the same database file with the same settings (WAL, `synchronous=FULL`,
//! `BEGIN IMMEDIATE`), for an envelope of about 1 KB whose handler inserts one row:
//!
//! - `inbox`: `Inbox::accept` on a `SqliteLedger`: the RFC 8785 digest (which notes the key
//!   on its way) and the ledger's read of the key, then for a new key `receive_handoff` and
//!   one transaction of the context's state, the claim, the handler's row, the receipt and
//!   the commit;
//! - `plain`: `serde_json::from_slice::<Handoff<T>>` (the key and the row's values), then
//!   one transaction of `INSERT … ON CONFLICT DO NOTHING` of the key and the bytes and, when
//!   it inserted, the same row.
//!
//! Each twice: a **new** envelope (each call a new key: the commit's `fsync` dominates) and a
//! **duplicate** (a key accepted before: nothing is written; `plain` still opens and commits
//! its transaction, the inbox reads the key before any and answers with the first
//! acknowledgement without reading the payload again).
//!
//! The figures to quote are those of `ratios`: rounds in which each method runs one batch in
//! turn, every other round in reverse order, and the median over rounds of the accepts per
//! second of `inbox` over `plain` in the same round (target ≥ 0.9× on SQLite, 0.8× on
//! PostgreSQL), with the middle half of those ratios, and each method's median accepts per
//! second, and beside the ratios of new envelopes what a commit alone costs.
//!
//! Run: `cargo bench -p contract-core --features sqlite --bench ledger -- ratios`; the
//! database lives in `std::env::temp_dir()` (set `TMPDIR` for another disk).
//!
//! With feature `postgres` too, the same on PostgreSQL (`PostgresLedger` against the same
//! plain transaction, `READ COMMITTED`, the server's `synchronous_commit`, both sides'
//! statements prepared once per connection), in a schema of its own (dropped after) of the
//! database `HANDOFF_TEST_POSTGRES` names (skipped, saying so, when it is unset):
//! `HANDOFF_TEST_POSTGRES="host=/tmp/pg user=postgres dbname=postgres" cargo bench -p
//! contract-core --features sqlite,postgres --bench ledger -- ratios`.
//!
//! Beside PostgreSQL's ratios, `-- ratios` prints three calibrations of the client, each
//! the median over interleaved rounds as above: the inbox's own statements for a new
//! envelope (`handoff_open`, the handler's row, the settling claim with a step like the one
//! the inbox records, and the same `receive_handoff` and digest), sent through
//! `tokio-postgres` with `BEGIN` and `handoff_open` in one flight and the claim and `COMMIT`
//! in another (three waits) over the same statements awaited one by one (five waits, as the
//! synchronous client sends them); the pipelined statements over the plain transaction
//! through the same client; and the plain transaction through `tokio-postgres` over the
//! synchronous `postgres` client. They measure what an acceptance over a pipelining client
//! would gain, before the library is changed to one.
//!
//! On a machine of virtual processors, where the bench and the server run moves PostgreSQL's
//! figures more than the work does (a round trip that wakes an idle processor costs more than
//! the statement): to see the work alone, put both on one processor (`taskset -pc 0` on the
//! server's processes, then the bench under `taskset -c 0`).
//!
//! Where the commit hides the rest, count instructions: `LEDGER_PROFILE=<method>:<n>` (method
//! `inbox`, `bare`, the inbox without its steps, or `plain`) accepts `n` new envelopes on
//! SQLite inside `profiled` and nothing else, after one outside it, so that `TMPDIR=/dev/shm
//! valgrind --tool=callgrind --toggle-collect='*profiled*' target/release/deps/ledger-… --bench`
//! counts the `n` acceptances alone.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use contract_core::inbox::{Inbox, SqliteLedger};
use contract_core::{send_handoff, Delivery, Handoff, HandoffContract, Journey};
use criterion::{criterion_group, Criterion};
use rusqlite::{params, Connection, Transaction, TransactionBehavior};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "bench-refund", version = 1)]
#[serde(rename_all = "camelCase")]
struct Refund {
    order_ref: String,
    amount_cents: i64,
    reason: String,
}

/// An envelope of about 1 KB with the handoff id `handoff`.
fn envelope(handoff: &str) -> Vec<u8> {
    let refund = Refund {
        order_ref: format!("A-{handoff}"),
        amount_cents: 4_250,
        reason: "the parcel arrived crushed; the customer sent two photographs".into(),
    };
    let mut handoff = Handoff::new("ctx-7f3a9c", handoff, "refund-specialist", refund)
        .goal("Refund the damaged order and tell the customer what happens next")
        .task("task-0192")
        .constraint("only use confirmed order data; never guess an amount")
        .constraint("no refund above 500 EUR without a supervisor's approval")
        .decision("the order was damaged in transit (photographs confirm it)")
        .decision("refund to the original payment method")
        .open_question("does the customer want a replacement instead?")
        .assumption("the carrier's claim is filed separately by logistics")
        .journey(
            Journey::new("triage-agent", "refund-specialist")
                .session("session-3f9e2b")
                .workflow("support-refund")
                .attempt(1),
        )
        .ready();
    send_handoff(&mut handoff)
        .expect("the bench's envelope is valid")
        .into_bytes()
}

/// The row both handlers insert.
const INSERT_REFUND: &str = "INSERT INTO refunds (order_ref, amount_cents) VALUES (?1, ?2)";

/// A database file with the application's tables, removed when dropped.
struct Database(PathBuf);

impl Database {
    fn new() -> Database {
        let path =
            std::env::temp_dir().join(format!("handoff-ledger-bench-{}.db", std::process::id()));
        let database = Database(path);
        database.remove();
        let ledger = SqliteLedger::open(&database.0).expect("opens");
        ledger
            .connection()
            .execute_batch(
                "CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_ref TEXT NOT NULL, \
                 amount_cents INTEGER NOT NULL);
                 CREATE TABLE plain_inbox (context_id TEXT NOT NULL, handoff_id TEXT NOT NULL, \
                 envelope BLOB NOT NULL, PRIMARY KEY (context_id, handoff_id));
                 CREATE TABLE commit_probe (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
                 INSERT INTO commit_probe (id, n) VALUES (1, 0);",
            )
            .expect("the tables");
        database
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The inbox on its own connection.
fn inbox(database: &Database) -> Inbox<SqliteLedger> {
    Inbox::new(SqliteLedger::open(database.path()).expect("opens"))
}

/// The inbox's acceptance, the handler inserting the row.
fn accept(inbox: &mut Inbox<SqliteLedger>, bytes: &[u8]) -> bool {
    inbox
        .accept(
            bytes,
            |tx: &mut Transaction<'_>, delivery: &Delivery<Refund>| {
                let refund = delivery.payload();
                tx.prepare_cached(INSERT_REFUND)?
                    .execute(params![refund.order_ref, refund.amount_cents])?;
                Ok::<_, rusqlite::Error>(())
            },
        )
        .is_ok()
}

/// What a user would write instead, on a connection with the same settings as the
/// ledger's (WAL, `synchronous=FULL`, the same `busy_timeout`).
struct Plain(Connection);

impl Plain {
    fn new(database: &Database) -> Plain {
        let connection = Connection::open(database.path()).expect("opens");
        connection
            .busy_timeout(contract_core::inbox::DEFAULT_BUSY_TIMEOUT)
            .expect("busy_timeout");
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .expect("WAL");
        connection
            .pragma_update(None, "synchronous", "FULL")
            .expect("synchronous");
        Plain(connection)
    }

    fn accept(&mut self, bytes: &[u8]) -> bool {
        let Ok(handoff) = serde_json::from_slice::<Handoff<Refund>>(bytes) else {
            return false;
        };
        let mut run = || -> rusqlite::Result<()> {
            let tx = self
                .0
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let inserted = tx
                .prepare_cached(
                    "INSERT INTO plain_inbox (context_id, handoff_id, envelope) \
                     VALUES (?1, ?2, ?3) ON CONFLICT (context_id, handoff_id) DO NOTHING",
                )?
                .execute(params![handoff.context_id, handoff.handoff_id, bytes])?;
            if inserted == 1 {
                let refund = &handoff.payload;
                tx.prepare_cached(INSERT_REFUND)?
                    .execute(params![refund.order_ref, refund.amount_cents])?;
            }
            tx.commit()
        };
        run().is_ok()
    }

    /// The commit's own cost: a transaction of the same settings that changes one small row.
    fn commit_alone(&mut self) -> bool {
        let mut run = || -> rusqlite::Result<()> {
            let tx = self
                .0
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.prepare_cached("UPDATE commit_probe SET n = n + 1 WHERE id = 1")?
                .execute([])?;
            tx.commit()
        };
        run().is_ok()
    }
}

/// Envelopes with new keys, handed out in turn.
struct Fresh {
    envelopes: Vec<Vec<u8>>,
    next: usize,
}

impl Fresh {
    fn new(prefix: &str, count: usize) -> Fresh {
        Fresh {
            envelopes: (0..count)
                .map(|i| envelope(&format!("{prefix}-{i}")))
                .collect(),
            next: 0,
        }
    }

    fn next(&mut self) -> &[u8] {
        let at = self.next;
        self.next += 1;
        &self.envelopes[at]
    }
}

fn benches(c: &mut Criterion) {
    let database = Database::new();
    let mut inbox = inbox(&database);
    let mut plain = Plain::new(&database);
    let seen = envelope("seen");
    assert!(accept(&mut inbox, &seen) && accept(&mut inbox, &seen));
    assert!(plain.accept(&seen) && plain.accept(&seen));

    let mut group = c.benchmark_group("ledger");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    let mut counter = 0u64;
    group.bench_function("inbox_new", |b| {
        b.iter(|| {
            counter += 1;
            accept(&mut inbox, &envelope(&format!("inbox-{counter}")))
        })
    });
    group.bench_function("plain_new", |b| {
        b.iter(|| {
            counter += 1;
            plain.accept(&envelope(&format!("plain-{counter}")))
        })
    });
    group.bench_function("inbox_duplicate", |b| {
        b.iter(|| accept(&mut inbox, black_box(&seen)))
    });
    group.bench_function("plain_duplicate", |b| {
        b.iter(|| plain.accept(black_box(&seen)))
    });
    group.finish();
    #[cfg(feature = "postgres")]
    on_postgres::benches(c);
}

/// Times `batch` runs of `f`.
fn timed(batch: u32, mut f: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        assert!(black_box(f()), "an acceptance failed");
    }
    start.elapsed()
}

/// Interleaved rounds of the two methods: the median (and the middle half) of the per-round
/// ratios of their accepts per second, and each one's median accepts per second; with
/// `commit`, a transaction that changes one small row, timed in the same rounds, and its
/// median time printed beside: the commit's own cost, which the ratio of new envelopes
/// depends on (the more a commit costs, the less the rest shows).
fn ratios_of(
    label: &str,
    rounds: usize,
    batch: u32,
    inbox: &mut dyn FnMut() -> bool,
    plain: &mut dyn FnMut() -> bool,
    mut commit: Option<&mut dyn FnMut() -> bool>,
) {
    timed(batch, &mut *inbox);
    timed(batch, &mut *plain);
    let mut ratios = Vec::with_capacity(rounds);
    let (mut inbox_rates, mut plain_rates) = (Vec::new(), Vec::new());
    let mut commits = Vec::new();
    for round in 0..rounds {
        // Every other round in reverse order: neither always runs right after the other.
        let (inbox_time, plain_time) = if round % 2 == 0 {
            let i = timed(batch, &mut *inbox);
            (i, timed(batch, &mut *plain))
        } else {
            let p = timed(batch, &mut *plain);
            (timed(batch, &mut *inbox), p)
        };
        let rate = |t: Duration| f64::from(batch) / t.as_secs_f64();
        inbox_rates.push(rate(inbox_time));
        plain_rates.push(rate(plain_time));
        ratios.push(rate(inbox_time) / rate(plain_time));
        if let Some(commit) = commit.as_mut() {
            commits.push(timed(batch, &mut **commit).as_secs_f64() * 1e6 / f64::from(batch));
        }
    }
    let quartile = |values: &mut Vec<f64>, q: usize| {
        values.sort_by(f64::total_cmp);
        values[(values.len() - 1) * q / 4]
    };
    let commit = if commits.is_empty() {
        String::new()
    } else {
        format!(
            "; a commit alone {:.0} us (middle half {:.0}-{:.0})",
            quartile(&mut commits, 2),
            quartile(&mut commits, 1),
            quartile(&mut commits, 3)
        )
    };
    println!(
        "ratio ledger {label} accepts per second = {:.2}x (median of {rounds} rounds of \
         {batch}; middle half {:.2}-{:.2}); first {:.0}/s, second {:.0}/s{commit}",
        quartile(&mut ratios, 2),
        quartile(&mut ratios, 1),
        quartile(&mut ratios, 3),
        quartile(&mut inbox_rates, 2),
        quartile(&mut plain_rates, 2),
    );
}

fn ratios(c: &mut Criterion) {
    // The ratios are printed, not measured by criterion; a filter naming them runs them.
    let _ = c;
    let database = Database::new();
    let mut inbox = inbox(&database);
    let mut plain = Plain::new(&database);
    let mut probe = Plain::new(&database);
    let seen = envelope("seen");
    println!("envelope: {} bytes", seen.len());
    assert!(accept(&mut inbox, &seen) && plain.accept(&seen));

    // New keys: the commit's fsync dominates; batches of 10, 41 rounds.
    let (rounds, batch) = (41, 10);
    let count = (rounds + 1) * batch as usize;
    let mut fresh_inbox = Fresh::new("inbox", count);
    let mut fresh_plain = Fresh::new("plain", count);
    ratios_of(
        "new: inbox / plain (target >= 0.90x)",
        rounds,
        batch,
        &mut || accept(&mut inbox, fresh_inbox.next()),
        &mut || plain.accept(fresh_plain.next()),
        Some(&mut || probe.commit_alone()),
    );
    // What recording the journey's steps costs: the inbox with its steps against the inbox
    // without them (what it did before it recorded them), new keys.
    let mut bare = Inbox::new(SqliteLedger::open(database.path()).expect("opens")).steps(false);
    let mut fresh_steps = Fresh::new("steps", count);
    let mut fresh_bare = Fresh::new("bare", count);
    ratios_of(
        "new: with the journey's steps / without (target >= 0.90x)",
        rounds,
        batch,
        &mut || accept(&mut inbox, fresh_steps.next()),
        &mut || accept(&mut bare, fresh_bare.next()),
        Some(&mut || probe.commit_alone()),
    );
    // Duplicates: nothing written.
    ratios_of(
        "duplicate: inbox / plain",
        101,
        2_000,
        &mut || accept(&mut inbox, &seen),
        &mut || plain.accept(&seen),
        None,
    );
    #[cfg(feature = "postgres")]
    on_postgres::ratios();
}

/// The same two methods on PostgreSQL.
#[cfg(feature = "postgres")]
mod on_postgres {
    use std::hint::black_box;
    use std::time::Duration;

    use contract_core::inbox::{Inbox, PostgresLedger};
    use contract_core::{Delivery, Handoff};
    use criterion::Criterion;
    use postgres::{Client, IsolationLevel, NoTls, Statement, Transaction};

    use super::{envelope, ratios_of, Fresh, Refund};

    /// The variable naming the server.
    const SERVER: &str = "HANDOFF_TEST_POSTGRES";

    /// The row both handlers insert.
    const INSERT_REFUND: &str = "INSERT INTO refunds (order_ref, amount_cents) VALUES ($1, $2)";

    /// A schema of its own with the application's tables, dropped when done.
    struct Database {
        params: String,
        schema: String,
    }

    impl Database {
        /// `None` (said on the output) without a server.
        fn new() -> Option<Database> {
            let Ok(params) = std::env::var(SERVER) else {
                println!("postgres: skipped, {SERVER} is not set");
                return None;
            };
            let schema = format!("handoff_ledger_bench_{}", std::process::id());
            let database = Database { params, schema };
            database
                .client()
                .batch_execute(&format!(
                    "DROP SCHEMA IF EXISTS {s} CASCADE; CREATE SCHEMA {s};
                 CREATE TABLE {s}.refunds (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
                 order_ref text NOT NULL, amount_cents bigint NOT NULL);
                 CREATE TABLE {s}.plain_inbox (context_id text NOT NULL, \
                 handoff_id text NOT NULL, envelope bytea NOT NULL, \
                 PRIMARY KEY (context_id, handoff_id));
                 CREATE TABLE {s}.commit_probe (id bigint PRIMARY KEY, n bigint NOT NULL);
                 INSERT INTO {s}.commit_probe (id, n) VALUES (1, 0);",
                    s = database.schema
                ))
                .expect("the bench's tables");
            Some(database)
        }

        /// A connection whose `search_path` finds the application's tables.
        fn client(&self) -> Client {
            let mut client = Client::connect(&self.params, NoTls).expect("connects");
            client
                .batch_execute(&format!("SET search_path TO {}", self.schema))
                .expect("search_path");
            client
        }
    }

    impl Drop for Database {
        fn drop(&mut self) {
            let dropped = Client::connect(&self.params, NoTls).and_then(|mut client| {
                client.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema))
            });
            if let Err(error) = dropped {
                eprintln!(
                    "postgres: the bench's schema {} stays: {error}",
                    self.schema
                );
            }
        }
    }

    /// The inbox on its own connection, and its handler's statement prepared on it.
    struct Accepting {
        inbox: Inbox<PostgresLedger>,
        insert: Statement,
    }

    impl Accepting {
        fn new(database: &Database) -> Accepting {
            let mut ledger =
                PostgresLedger::open(database.client(), &database.schema).expect("opens");
            let insert = ledger.client().prepare(INSERT_REFUND).expect("prepared");
            Accepting {
                inbox: Inbox::new(ledger),
                insert,
            }
        }

        /// The inbox's acceptance, the handler inserting the row.
        fn accept(&mut self, bytes: &[u8]) -> bool {
            let insert = &self.insert;
            self.inbox
                .accept(
                    bytes,
                    |tx: &mut Transaction<'_>, delivery: &Delivery<Refund>| {
                        let refund = delivery.payload();
                        tx.execute(insert, &[&refund.order_ref, &refund.amount_cents])?;
                        Ok::<_, postgres::Error>(())
                    },
                )
                .is_ok()
        }
    }

    /// A `READ COMMITTED` transaction, as the plain ones begin.
    fn begin(client: &mut Client) -> Result<Transaction<'_>, postgres::Error> {
        client
            .build_transaction()
            .isolation_level(IsolationLevel::ReadCommitted)
            .start()
    }

    /// What a user would write instead: one `READ COMMITTED` transaction of `INSERT … ON
    /// CONFLICT DO NOTHING` of the key and the bytes and, when it inserted, the row.
    struct Plain {
        client: Client,
        claim: Statement,
        insert: Statement,
        /// [`Plain::commit_alone`]'s update.
        probe: Statement,
    }

    impl Plain {
        fn new(database: &Database) -> Plain {
            let mut client = database.client();
            let claim = client
                .prepare(
                    "INSERT INTO plain_inbox (context_id, handoff_id, envelope) \
                     VALUES ($1, $2, $3) ON CONFLICT (context_id, handoff_id) DO NOTHING",
                )
                .expect("prepared");
            let insert = client.prepare(INSERT_REFUND).expect("prepared");
            let probe = client
                .prepare("UPDATE commit_probe SET n = n + 1 WHERE id = 1")
                .expect("prepared");
            Plain {
                client,
                claim,
                insert,
                probe,
            }
        }

        /// The commit's own cost: a transaction of the same settings that changes one
        /// small row (three round trips: `BEGIN`, the update, `COMMIT`).
        fn commit_alone(&mut self) -> bool {
            let mut run = || -> Result<(), postgres::Error> {
                let mut tx = begin(&mut self.client)?;
                tx.execute(&self.probe, &[])?;
                tx.commit()
            };
            run().is_ok()
        }

        fn accept(&mut self, bytes: &[u8]) -> bool {
            let Ok(handoff) = serde_json::from_slice::<Handoff<Refund>>(bytes) else {
                return false;
            };
            let mut run = || -> Result<(), postgres::Error> {
                let mut tx = begin(&mut self.client)?;
                let inserted = tx.execute(
                    &self.claim,
                    &[&handoff.context_id, &handoff.handoff_id, &bytes],
                )?;
                if inserted == 1 {
                    let refund = &handoff.payload;
                    tx.execute(&self.insert, &[&refund.order_ref, &refund.amount_cents])?;
                }
                tx.commit()
            };
            run().is_ok()
        }
    }

    /// A calibration, not the library: the statements a `PostgresLedger` sends for a new
    /// envelope (`handoff_open`, the handler's row, the settling claim with its step), with
    /// the same client work (`receive_handoff` and the digest), sent through
    /// `tokio-postgres` two ways on one connection:
    ///
    /// - **awaited**: each statement waits for its answer before the next is sent, as the
    ///   synchronous `postgres` client does: `BEGIN`, `handoff_open`, the row, the claim,
    ///   `COMMIT` (five waits);
    /// - **pipelined**: `BEGIN` with `handoff_open` in one flight, the row, then the claim
    ///   with `COMMIT` in one flight (three waits). The claim then has to fail when the key
    ///   is taken, so that the `COMMIT` sent behind it rolls back: here a function that
    ///   raises, called only then (`coalesce`).
    ///
    /// Their ratio says what an acceptance over a pipelining client would gain, measured
    /// rather than guessed; the plain transaction through the same client calibrates it
    /// against the synchronous plain one.
    mod pipelined {
        use std::time::SystemTime;

        use contract_core::envelope::Digest;
        use contract_core::{receive_handoff, ReceiveOptions};
        use futures_util::future::join;
        use tokio::runtime::{Builder, Runtime};
        use tokio_postgres::{Client, NoTls, Statement};

        use super::super::Refund;
        use super::{Database, INSERT_REFUND};

        /// A step as the inbox records it for an applied envelope, read back from its
        /// ledger: each acceptance writes one like it under a key of its own.
        pub(crate) struct StepRow {
            pub key: String,
            pub session: Option<String>,
            pub workflow: Option<String>,
            pub outcome: String,
            pub body: String,
        }

        /// How the statements are sent.
        #[derive(Clone, Copy)]
        pub(crate) enum Flights {
            Awaited,
            Pipelined,
            /// The plain transaction: `BEGIN`, the insert of the key, the row, `COMMIT`.
            Plain,
        }

        pub(crate) struct Connection {
            runtime: Runtime,
            client: Client,
            open: Statement,
            settle: Statement,
            claim: Statement,
            insert: Statement,
            step: StepRow,
            next: u64,
        }

        impl Connection {
            pub(crate) fn new(database: &Database, step: StepRow) -> Connection {
                let runtime = Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                let (client, connection) = runtime
                    .block_on(tokio_postgres::connect(&database.params, NoTls))
                    .expect("connects");
                runtime.spawn(connection);
                let s = &database.schema;
                let (open, settle, claim, insert) = runtime.block_on(async {
                    client
                        .batch_execute(&format!(
                            "SET search_path TO {s};
                             CREATE OR REPLACE FUNCTION {s}.bench_taken() RETURNS bigint
                             LANGUAGE plpgsql AS $f$ BEGIN
                             RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'taken';
                             END $f$;"
                        ))
                        .await
                        .expect("the bench's function");
                    let open = client
                        .prepare(&format!(
                            "SELECT e_seq, e_digest, e_owner, e_accepted_at, e_receipt, \
                             e_envelope, last_owner, uris, versions, touched \
                             FROM {s}.handoff_open($1, $2, $3, $4, $5, $6)"
                        ))
                        .await
                        .expect("prepared");
                    // The ledger's settling statement, its last line made to fail when
                    // nothing was inserted.
                    let settle = client
                        .prepare(&format!(
                            "WITH claim AS (\
                             INSERT INTO {s}.handoff_ledger \
                             (context_id, handoff_id, digest, owner, accepted_at, receipt, envelope) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7) \
                             ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq), \
                             artifacts AS (\
                             INSERT INTO {s}.handoff_artifact (context_id, uri, version) \
                             SELECT $1, u.uri, u.version \
                             FROM unnest($8::text[], $9::bigint[]) AS u(uri, version) \
                             WHERE EXISTS (SELECT 1 FROM claim) \
                             ON CONFLICT (context_id, uri) DO UPDATE SET version = excluded.version), \
                             step AS (\
                             INSERT INTO {s}.handoff_step AS t \
                             (step_key, session, workflow, outcome, step, count, first_seen, last_seen) \
                             SELECT $10::text, $11::text, $12::text, $13::text, $14::text, $15::bigint, \
                             $16::timestamptz, $17::timestamptz \
                             WHERE $10::text IS NOT NULL AND EXISTS (SELECT 1 FROM claim) \
                             ON CONFLICT (step_key) DO UPDATE SET count = t.count + excluded.count, \
                             last_seen = greatest(t.last_seen, excluded.last_seen)) \
                             SELECT coalesce((SELECT seq FROM claim), {s}.bench_taken())"
                        ))
                        .await
                        .expect("prepared");
                    let claim = client
                        .prepare(
                            "INSERT INTO plain_inbox (context_id, handoff_id, envelope) \
                             VALUES ($1, $2, $3) ON CONFLICT (context_id, handoff_id) DO NOTHING",
                        )
                        .await
                        .expect("prepared");
                    let insert = client.prepare(INSERT_REFUND).await.expect("prepared");
                    (open, settle, claim, insert)
                });
                Connection {
                    runtime,
                    client,
                    open,
                    settle,
                    claim,
                    insert,
                    step,
                    next: 0,
                }
            }

            /// One new envelope accepted, its statements sent as `flights` says.
            pub(crate) fn accept(&mut self, bytes: &[u8], flights: Flights) -> bool {
                let Ok(delivery) = receive_handoff::<Refund>(bytes, &ReceiveOptions::default())
                else {
                    return false;
                };
                let handoff = delivery.envelope();
                let refund = &handoff.payload;
                let client = &self.client;
                let insert = &self.insert;
                if let Flights::Plain = flights {
                    let claim = &self.claim;
                    return self
                        .runtime
                        .block_on(async {
                            client
                                .batch_execute("BEGIN ISOLATION LEVEL READ COMMITTED")
                                .await?;
                            let inserted = client
                                .execute(claim, &[&handoff.context_id, &handoff.handoff_id, &bytes])
                                .await?;
                            if inserted == 1 {
                                client
                                    .execute(insert, &[&refund.order_ref, &refund.amount_cents])
                                    .await?;
                            }
                            client.batch_execute("COMMIT").await
                        })
                        .is_ok();
                }
                let Ok(digest) = Digest::of_envelope(bytes) else {
                    return false;
                };
                self.next += 1;
                let key = format!("{}-{}", self.step.key, self.next);
                let lock = i64::try_from(self.next).unwrap_or(i64::MAX);
                let (none_text, none_at): (Option<&str>, Option<SystemTime>) = (None, None);
                let digest = &digest.as_bytes()[..];
                let open_params: [&(dyn tokio_postgres::types::ToSql + Sync); 6] = [
                    &lock,
                    &handoff.context_id,
                    &handoff.handoff_id,
                    &digest,
                    &none_text,
                    &none_at,
                ];
                let now = SystemTime::now();
                let receipt: Vec<u8> = b"null".to_vec();
                let (uris, versions): (Vec<&str>, Vec<i64>) = (Vec::new(), Vec::new());
                let count = 1_i64;
                let step = &self.step;
                let settle_params: [&(dyn tokio_postgres::types::ToSql + Sync); 17] = [
                    &handoff.context_id,
                    &handoff.handoff_id,
                    &digest,
                    &handoff.owner,
                    &now,
                    &receipt,
                    &bytes,
                    &uris,
                    &versions,
                    &key,
                    &step.session,
                    &step.workflow,
                    &step.outcome,
                    &step.body,
                    &count,
                    &now,
                    &now,
                ];
                let (open, settle) = (&self.open, &self.settle);
                self.runtime
                    .block_on(async {
                        let opened = match flights {
                            Flights::Pipelined => {
                                let (begun, opened) = join(
                                    client.batch_execute("BEGIN ISOLATION LEVEL READ COMMITTED"),
                                    client.query_one(open, &open_params),
                                )
                                .await;
                                begun?;
                                opened?
                            }
                            _ => {
                                client
                                    .batch_execute("BEGIN ISOLATION LEVEL READ COMMITTED")
                                    .await?;
                                client.query_one(open, &open_params).await?
                            }
                        };
                        assert!(opened.get::<_, Option<i64>>(0).is_none(), "a new key");
                        client
                            .execute(insert, &[&refund.order_ref, &refund.amount_cents])
                            .await?;
                        match flights {
                            Flights::Pipelined => {
                                let (settled, committed) = join(
                                    client.query_one(settle, &settle_params),
                                    client.batch_execute("COMMIT"),
                                )
                                .await;
                                settled?;
                                committed
                            }
                            _ => {
                                client.query_one(settle, &settle_params).await?;
                                client.batch_execute("COMMIT").await
                            }
                        }
                    })
                    .is_ok()
            }
        }
    }

    /// [`pipelined`]'s three ways of sending, by turns: what pipelining the inbox's
    /// statements would gain, and the plain transaction through the same client against
    /// the synchronous one.
    fn calibrate_pipelining(database: &Database) {
        use pipelined::{Connection, Flights, StepRow};

        let mut client = database.client();
        let row = client
            .query_one(
                &format!(
                    "SELECT step_key, session, workflow, outcome, step FROM {}.handoff_step \
                     WHERE outcome = 'applied' ORDER BY seq DESC LIMIT 1",
                    database.schema
                ),
                &[],
            )
            .expect("the inbox recorded an applied step");
        let step = || StepRow {
            key: row.get(0),
            session: row.get(1),
            workflow: row.get(2),
            outcome: row.get(3),
            body: row.get(4),
        };
        let (rounds, batch) = (41, 10);
        let count = (rounds + 1) * batch as usize;
        let mut awaited = Connection::new(database, step());
        let mut pipelined = Connection::new(database, step());
        let mut fresh_awaited = Fresh::new("awaited", count);
        let mut fresh_pipelined = Fresh::new("pipelined", count);
        ratios_of(
            "postgres calibration: the inbox's statements pipelined / awaited (tokio-postgres)",
            rounds,
            batch,
            &mut || pipelined.accept(fresh_pipelined.next(), Flights::Pipelined),
            &mut || awaited.accept(fresh_awaited.next(), Flights::Awaited),
            None,
        );
        let mut fresh_pipelined = Fresh::new("pipelined-again", count);
        let mut plain = Connection::new(database, step());
        let mut fresh_plain = Fresh::new("plain-tokio", count);
        ratios_of(
            "postgres calibration: the inbox's statements pipelined / plain (tokio-postgres)",
            rounds,
            batch,
            &mut || pipelined.accept(fresh_pipelined.next(), Flights::Pipelined),
            &mut || plain.accept(fresh_plain.next(), Flights::Plain),
            None,
        );
        let mut sync_plain = Plain::new(database);
        let mut fresh_sync = Fresh::new("plain-sync", count);
        let mut fresh_plain = Fresh::new("plain-tokio-again", count);
        ratios_of(
            "postgres calibration: the plain transaction, tokio-postgres / postgres",
            rounds,
            batch,
            &mut || plain.accept(fresh_plain.next(), Flights::Plain),
            &mut || sync_plain.accept(fresh_sync.next()),
            None,
        );
    }

    pub(super) fn benches(c: &mut Criterion) {
        let Some(database) = Database::new() else {
            return;
        };
        let mut inbox = Accepting::new(&database);
        let mut plain = Plain::new(&database);
        let seen = envelope("seen");
        assert!(inbox.accept(&seen) && inbox.accept(&seen));
        assert!(plain.accept(&seen) && plain.accept(&seen));

        let mut group = c.benchmark_group("ledger_postgres");
        group.sample_size(20);
        group.measurement_time(Duration::from_secs(4));
        let mut counter = 0u64;
        group.bench_function("inbox_new", |b| {
            b.iter(|| {
                counter += 1;
                inbox.accept(&envelope(&format!("inbox-{counter}")))
            })
        });
        group.bench_function("plain_new", |b| {
            b.iter(|| {
                counter += 1;
                plain.accept(&envelope(&format!("plain-{counter}")))
            })
        });
        group.bench_function("inbox_duplicate", |b| {
            b.iter(|| inbox.accept(black_box(&seen)))
        });
        group.bench_function("plain_duplicate", |b| {
            b.iter(|| plain.accept(black_box(&seen)))
        });
        group.finish();
    }

    pub(super) fn ratios() {
        let Some(database) = Database::new() else {
            return;
        };
        let mut inbox = Accepting::new(&database);
        let mut plain = Plain::new(&database);
        let mut probe = Plain::new(&database);
        let seen = envelope("seen");
        assert!(inbox.accept(&seen) && plain.accept(&seen));

        let (rounds, batch) = (41, 10);
        let count = (rounds + 1) * batch as usize;
        let mut fresh_inbox = Fresh::new("inbox", count);
        let mut fresh_plain = Fresh::new("plain", count);
        ratios_of(
            "postgres new: inbox / plain (target >= 0.80x)",
            rounds,
            batch,
            &mut || inbox.accept(fresh_inbox.next()),
            &mut || plain.accept(fresh_plain.next()),
            Some(&mut || probe.commit_alone()),
        );
        calibrate_pipelining(&database);
        ratios_of(
            "postgres duplicate: inbox / plain",
            101,
            200,
            &mut || inbox.accept(&seen),
            &mut || plain.accept(&seen),
            None,
        );
    }
}

criterion_group!(ledger, benches);
criterion_group!(ratio, ratios);
/// `LEDGER_PROFILE`'s acceptances, the only code callgrind's `--toggle-collect='*profiled*'`
/// counts.
#[inline(never)]
fn profiled(n: usize, accept: &mut dyn FnMut() -> bool) {
    for _ in 0..n {
        assert!(black_box(accept()), "an acceptance failed");
    }
}

/// One method's acceptance of an envelope, for [`profile`].
type ProfiledMethod = Box<dyn FnMut(&[u8]) -> bool>;

/// `LEDGER_PROFILE=<method>:<n>`: `n` new envelopes accepted by one method inside
/// [`profiled`]; `None` when the variable is unset.
fn profile() -> Option<Result<(), String>> {
    let spec = std::env::var("LEDGER_PROFILE").ok()?;
    let Some((method, n)) = spec.split_once(':') else {
        return Some(Err(format!("LEDGER_PROFILE is <method>:<n>, not {spec:?}")));
    };
    let Ok(n) = n.parse::<usize>() else {
        return Some(Err(format!("n is a count, not {n:?}")));
    };
    let database = Database::new();
    let mut fresh = Fresh::new(method, n + 1);
    let mut run: ProfiledMethod = match method {
        "inbox" => {
            let mut inbox = inbox(&database);
            Box::new(move |bytes| accept(&mut inbox, bytes))
        }
        "bare" => {
            let mut bare =
                Inbox::new(SqliteLedger::open(database.path()).expect("opens")).steps(false);
            Box::new(move |bytes| accept(&mut bare, bytes))
        }
        "plain" => {
            let mut plain = Plain::new(&database);
            Box::new(move |bytes| plain.accept(bytes))
        }
        other => {
            return Some(Err(format!(
                "the methods are inbox, bare and plain, not {other:?}"
            )))
        }
    };
    assert!(run(fresh.next()), "an acceptance failed");
    profiled(n, &mut || run(fresh.next()));
    Some(Ok(()))
}

fn main() {
    if let Some(done) = profile() {
        if let Err(error) = done {
            eprintln!("{error}");
            std::process::exit(2);
        }
        return;
    }
    ledger();
    ratio();
    Criterion::default().configure_from_args().final_summary();
}
