//! The PostgreSQL server itself killed while accepts run: a cluster of this test's own (so
//! that the kill disturbs no other test), stopped with `pg_ctl -m immediate stop` while
//! [`THREADS`] threads accept envelopes, each on its own connection, each handler writing
//! one effect row in the acceptance's transaction; then started again. Each thread retries
//! an envelope until it is accepted, on a new [`PostgresLedger`] after every failure; the
//! retry must be `Applied` or `Duplicate`.
//!
//! After the restart: **0 double-applied** (each effect row exactly once), **0 lost** (every
//! handoff acknowledged before or after the kill keeps its entry, its effect and the same
//! acknowledgement: [`Ledger::entry`], `Inbox::last_accepted`, a redelivery's duplicate),
//! and the journey's steps agree with the acceptances: exactly one `applied` step for each
//! handoff accepted, none for a handoff without an entry (the applied step commits in the
//! acceptance's transaction).
//!
//! The cluster: `initdb` in a temporary directory, reached only through a Unix socket there
//! (`listen_addresses=''`), from the binaries in the directory `HANDOFF_TEST_POSTGRES_BIN`
//! names (`.ci/run` exports it); as root, run as the `postgres` user (`runuser`), the
//! directory given to it. Stopped and removed however the test ends ([`Cluster`]'s `Drop`).
//! Unset, the test passes printing `SKIPPED: … need HANDOFF_TEST_POSTGRES_BIN`, unless
//! `HANDOFF_REQUIRE_POSTGRES=1` makes that a failure. Every wait is bounded: attempts per
//! envelope, envelopes per thread, a deadline for the whole run, the connections' timeouts.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use contract_core::inbox::{
    AcceptError, Acceptance, Ack, Entry, Inbox, Ledger as _, Outcome, PostgresLedger,
};
use contract_core::{Delivery, Journey};
use postgres::{Client, NoTls, Transaction};

use super::fixture::{
    bytes, effect_of, order, unique, HandlerError, LastWithReceipt, Order, Receipt, OWNER,
};

/// The variable naming the directory of the server's binaries (`initdb`, `pg_ctl`).
const BIN: &str = "HANDOFF_TEST_POSTGRES_BIN";

/// The variable that makes a missing variable a failure.
const REQUIRE: &str = "HANDOFF_REQUIRE_POSTGRES";

/// The test's name in its messages.
const TEST: &str = "server-killed";

/// The schema of the ledger and of the effects table.
const SCHEMA: &str = "handoff";

/// The threads accepting, each on its own connection, in its own context and session.
const THREADS: usize = 4;

/// The acknowledgements the threads get before the server is killed.
const BEFORE_KILL: usize = 60;

/// The acknowledgements they get after it started again, before they are told to stop.
const AFTER_RESTART: usize = 60;

/// How long the server stays down.
const DOWN: Duration = Duration::from_millis(300);

/// How long a handler holds its transaction open after writing its effect, so that the kill
/// finds transactions open.
const HOLD: Duration = Duration::from_millis(2);

/// The pause before a retry.
const PAUSE: Duration = Duration::from_millis(25);

/// The failed attempts an envelope may take (connecting included): 20 s of pauses.
const MAX_FAILURES: u32 = 800;

/// The envelopes a thread accepts at most.
const MAX_PER_THREAD: usize = 2_000;

/// The end of the threads' run, from its start.
const DEADLINE: Duration = Duration::from_secs(40);

/// The longest wait for the threads' acknowledgements, before the kill and after the restart.
const WAIT: Duration = Duration::from_secs(20);

/// What every connection of the test sets: no wait lasts forever.
const SESSION: &str = "SET lock_timeout = '10s'; SET statement_timeout = '10s'; \
                       SET idle_in_transaction_session_timeout = '10s';";

/// A PostgreSQL cluster of the test's own, stopped and removed when dropped.
struct Cluster {
    bin: PathBuf,
    /// The temporary directory: the data (`data/`), the log (`log`), the socket.
    dir: PathBuf,
    /// Run as root: the tools run as `postgres`.
    as_postgres: bool,
}

impl Cluster {
    /// A new cluster from the binaries in `bin`, started.
    fn start(bin: &Path) -> Cluster {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("handoff-pg-killed-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir)
            .unwrap_or_else(|e| panic!("{TEST}: cannot create {}: {e}", dir.display()));
        let as_postgres = std::fs::metadata(&dir).is_ok_and(|m| m.uid() == 0);
        // The guard from here on: whatever fails below, the directory is removed.
        let cluster = Cluster {
            bin: bin.to_owned(),
            dir,
            as_postgres,
        };
        if as_postgres {
            // PostgreSQL refuses to run as root: the cluster is the `postgres` user's.
            let chowned = Command::new("chown")
                .arg("postgres:")
                .arg(&cluster.dir)
                .status();
            assert!(
                chowned.is_ok_and(|s| s.success()),
                "{TEST}: cannot give {} to the postgres user",
                cluster.dir.display()
            );
        }
        let data = cluster.data();
        cluster
            .run(
                "initdb",
                &[
                    "-D".as_ref(),
                    data.as_os_str(),
                    "-A".as_ref(),
                    "trust".as_ref(),
                    "-U".as_ref(),
                    "postgres".as_ref(),
                    "--no-sync".as_ref(),
                ],
            )
            .unwrap_or_else(|e| panic!("{TEST}: initdb failed: {e}"));
        cluster.start_again();
        cluster
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The connection string of the cluster's socket.
    fn params(&self) -> String {
        format!(
            "host={} user=postgres dbname=postgres connect_timeout=5",
            self.dir.display()
        )
    }

    /// Runs the tool `tool` of the binaries with `args`, as the cluster's owner.
    fn run(&self, tool: &str, args: &[&OsStr]) -> Result<(), String> {
        let path = self.bin.join(tool);
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&path);
            command
        } else {
            Command::new(&path)
        };
        let output = command
            .args(args)
            .output()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if output.status.success() {
            return Ok(());
        }
        Err(format!(
            "{} ({}): {}{}",
            path.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }

    /// `pg_ctl start`, waiting until the server accepts connections (30 s at most); the
    /// server's log in the failure.
    fn start_again(&self) {
        let data = self.data();
        let log = self.dir.join("log");
        let options = format!("-k '{}' -c listen_addresses=''", self.dir.display());
        let started = self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
                "-w".as_ref(),
                "-t".as_ref(),
                "30".as_ref(),
                "start".as_ref(),
            ],
        );
        if let Err(error) = started {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            panic!("{TEST}: the server did not start: {error}\n{log}");
        }
    }

    /// `pg_ctl -m immediate stop`: every server process quits at once, without a
    /// checkpoint (the next start recovers from the WAL); waits until they are gone.
    fn kill(&self) -> Result<(), String> {
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "-t".as_ref(),
                "20".as_ref(),
                "stop".as_ref(),
            ],
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.data().join("postmaster.pid").exists() {
            if let Err(error) = self.kill() {
                eprintln!("{TEST}: could not stop the test's server: {error}");
            }
        }
        if let Err(error) = std::fs::remove_dir_all(&self.dir) {
            eprintln!("{TEST}: could not remove {}: {error}", self.dir.display());
        }
    }
}

/// The directory of the server's binaries, or `None` after printing why the test skips (a
/// failure when required).
fn binaries() -> Option<PathBuf> {
    match std::env::var_os(BIN) {
        Some(bin) if !bin.is_empty() => Some(PathBuf::from(bin)),
        _ => {
            assert!(
                std::env::var(REQUIRE).as_deref() != Ok("1"),
                "{TEST}: {REQUIRE}=1, but {BIN} is not set: no PostgreSQL binaries to start \
                 the cluster this test kills"
            );
            println!(
                "SKIPPED: {TEST}: a PostgreSQL cluster of its own, to kill: \
                 need {BIN} (the directory of initdb and pg_ctl)"
            );
            None
        }
    }
}

/// A ledger on a new connection, its waits bounded.
fn connect(params: &str) -> Result<PostgresLedger, String> {
    let mut client = Client::connect(params, NoTls).map_err(|e| e.to_string())?;
    client.batch_execute(SESSION).map_err(|e| e.to_string())?;
    PostgresLedger::open(client, SCHEMA).map_err(|e| e.to_string())
}

/// Accepts `envelope` with the test's handler: one effect row named `effect`, then the
/// transaction held open for [`HOLD`].
fn accept(
    inbox: &mut Inbox<PostgresLedger>,
    envelope: &[u8],
    effect: &str,
) -> Result<Acceptance<Order, Receipt>, AcceptError<HandlerError>> {
    inbox.accept(
        envelope,
        |tx: &mut Transaction<'_>, delivery: &Delivery<Order>| {
            tx.execute(
                "INSERT INTO handoff.effects (effect) VALUES ($1)",
                &[&effect],
            )?;
            thread::sleep(HOLD);
            Ok::<Receipt, HandlerError>(format!("refunded {}", delivery.payload().order_ref))
        },
    )
}

/// What the threads share with the test's thread.
struct Shared {
    /// Acknowledgements got, all threads together.
    acks: AtomicUsize,
    /// Set just before the kill.
    killed: AtomicBool,
    /// Set when the threads are to stop (after the envelope each is on).
    stop: AtomicBool,
    /// The end of the run.
    deadline: Instant,
}

/// Sets [`Shared::stop`] when dropped: the threads stop however the test's thread leaves.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A handoff a thread got accepted.
struct Accepted {
    handoff: String,
    envelope: Vec<u8>,
    effect: String,
    ack: Ack<Receipt>,
    /// `Applied` (else a duplicate).
    applied: bool,
    /// The failed attempts before.
    failures: u32,
    /// Acknowledged before the kill was asked for.
    before_kill: bool,
}

/// What one thread did.
struct Run {
    context: String,
    session: String,
    accepted: Vec<Accepted>,
}

/// One thread: envelopes `h0`, `h1`, … of its context and session, each retried until it
/// is accepted, until told to stop.
fn accepting(params: &str, shared: &Shared) -> Run {
    let context = unique("killed-ctx");
    let session = unique("killed-session");
    let mut inbox: Option<Inbox<PostgresLedger>> = None;
    let mut accepted = Vec::new();
    for index in 0..MAX_PER_THREAD {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let handoff = format!("h{index}");
        let envelope = bytes(
            order(&context, &handoff)
                .journey(Journey::new("triage", OWNER).session(&session).attempt(1)),
        );
        let effect = effect_of(&context, &handoff);
        let mut failures = 0;
        let mut last_error = String::new();
        let outcome = loop {
            assert!(
                failures < MAX_FAILURES && Instant::now() < shared.deadline,
                "{context}/{handoff}: not accepted after {failures} failed attempts \
                 (the last: {last_error})"
            );
            if failures > 0 {
                thread::sleep(PAUSE);
            }
            let current = match inbox.as_mut() {
                Some(current) => current,
                None => match connect(params) {
                    Ok(ledger) => inbox.insert(Inbox::new(ledger)),
                    Err(error) => {
                        failures += 1;
                        last_error = error;
                        continue;
                    }
                },
            };
            match accept(current, &envelope, &effect) {
                Ok(outcome) => break outcome,
                // The connection failed (the claim, the handler's insert, the commit): a new
                // one, and the same envelope again.
                Err(AcceptError::Store(error)) => last_error = format!("{error:?}"),
                Err(AcceptError::Handler(error)) => last_error = error.to_string(),
                Err(refused) => panic!(
                    "{context}/{handoff}: the retry after {failures} failed attempts is \
                     neither Applied nor Duplicate: {refused:?}"
                ),
            }
            failures += 1;
            inbox = None;
        };
        let before_kill = !shared.killed.load(Ordering::SeqCst);
        shared.acks.fetch_add(1, Ordering::SeqCst);
        accepted.push(Accepted {
            handoff,
            envelope,
            effect,
            applied: outcome.is_applied(),
            ack: outcome.into_ack(),
            failures,
            before_kill,
        });
    }
    Run {
        context,
        session,
        accepted,
    }
}

/// Waits until `done`, at most [`WAIT`]; fails when a thread ended first (it panicked, or
/// ran out of envelopes).
fn wait_for(what: &str, done: impl Fn() -> bool, threads: &[thread::ScopedJoinHandle<'_, Run>]) {
    let until = Instant::now() + WAIT;
    while !done() {
        assert!(
            !threads.iter().any(thread::ScopedJoinHandle::is_finished),
            "{TEST}: a thread ended before {what}"
        );
        assert!(Instant::now() < until, "{TEST}: no {what} within {WAIT:?}");
        thread::sleep(Duration::from_millis(5));
    }
}

/// The entry the ledger holds is the acknowledgement the thread got.
fn assert_same(entry: &Entry, ack: &Ack<Receipt>) {
    let what = format!("{}/{}", ack.context_id, ack.handoff_id);
    assert_eq!(
        (entry.context_id.as_str(), entry.handoff_id.as_str()),
        (ack.context_id.as_str(), ack.handoff_id.as_str())
    );
    assert_eq!(entry.seq, ack.seq, "{what}: another seq");
    assert_eq!(entry.digest, ack.digest, "{what}: another digest");
    assert_eq!(entry.accepted_at, ack.accepted_at, "{what}: another time");
    let receipt: Receipt = serde_json::from_slice(&entry.receipt).expect("a receipt");
    assert_eq!(receipt, ack.receipt, "{what}: another receipt");
}

/// A count of a query.
fn count(admin: &mut Client, query: &str) -> usize {
    let count: i64 = admin.query_one(query, &[]).expect("counted").get(0);
    usize::try_from(count).expect("a count")
}

#[test]
fn the_server_killed_while_accepts_run_loses_nothing_and_applies_once() {
    let Some(bin) = binaries() else {
        return;
    };
    let started = Instant::now();
    let cluster = Cluster::start(&bin);
    let params = cluster.params();
    let mut admin = Client::connect(&params, NoTls).expect("connected");
    admin
        .batch_execute(&format!(
            "{SESSION} CREATE SCHEMA {SCHEMA}; \
             CREATE TABLE {SCHEMA}.effects (effect text NOT NULL);"
        ))
        .expect("the effects table");
    drop(admin);
    // The ledger's tables, before the threads open it at once.
    drop(connect(&params).expect("the ledger opens"));

    let shared = Shared {
        acks: AtomicUsize::new(0),
        killed: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        deadline: Instant::now() + DEADLINE,
    };
    let runs: Vec<Run> = thread::scope(|scope| {
        let stop = StopOnDrop(&shared.stop);
        let threads: Vec<_> = (0..THREADS)
            .map(|_| scope.spawn(|| accepting(&params, &shared)))
            .collect();
        let acks = || shared.acks.load(Ordering::SeqCst);
        wait_for(
            &format!("{BEFORE_KILL} acknowledgements before the kill"),
            || acks() >= BEFORE_KILL,
            &threads,
        );
        shared.killed.store(true, Ordering::SeqCst);
        cluster
            .kill()
            .unwrap_or_else(|e| panic!("{TEST}: the kill failed: {e}"));
        thread::sleep(DOWN);
        cluster.start_again();
        let at_restart = acks();
        wait_for(
            &format!("{AFTER_RESTART} acknowledgements after the restart"),
            || acks() >= at_restart + AFTER_RESTART,
            &threads,
        );
        drop(stop);
        threads
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let accepting_took = started.elapsed();

    let mut admin = Client::connect(&params, NoTls).expect("connected after the restart");
    admin
        .batch_execute(SESSION)
        .expect("the session's timeouts");
    let mut inbox = Inbox::new(connect(&params).expect("the ledger reopens"));
    let total: usize = runs.iter().map(|run| run.accepted.len()).sum();
    for run in &runs {
        let what = &run.context;
        // The kill reached every thread's connection.
        assert!(
            run.accepted.iter().any(|a| a.failures > 0),
            "{what}: no attempt failed: the kill missed this thread"
        );
        for accepted in &run.accepted {
            // The retry was `Applied` or `Duplicate` (else the thread failed); an envelope
            // applied at the first attempt is no duplicate.
            assert!(
                accepted.applied || accepted.failures > 0,
                "{what}/{}: a duplicate at the first attempt",
                accepted.handoff
            );
            // 0 lost: the entry is the acknowledgement got, before or after the kill.
            let entry = inbox
                .ledger_mut()
                .entry(&run.context, &accepted.handoff)
                .expect("read")
                .unwrap_or_else(|| panic!("{what}/{}: its entry is lost", accepted.handoff));
            assert_same(&entry, &accepted.ack);
            assert_eq!(
                accepted.ack.receipt,
                format!("refunded A-{}", accepted.handoff)
            );
        }
        // The context's last acceptance is the thread's last.
        let last = inbox
            .last_with_receipt(&run.context)
            .expect("read")
            .expect("the context's last acceptance");
        assert_eq!(
            Some(&last.ack),
            run.accepted.last().map(|a| &a.ack),
            "{what}: another last acceptance"
        );
        // The journey: exactly one applied step for each handoff accepted, and each has
        // an entry.
        let steps = inbox.ledger_mut().session(&run.session).expect("read");
        let mut applied: BTreeMap<String, u64> = BTreeMap::new();
        for step in steps.iter().filter(|s| s.outcome == Outcome::Applied) {
            let handoff = step.handoff_id.clone().expect("the step's handoff");
            assert_eq!(step.context_id.as_deref(), Some(run.context.as_str()));
            assert_eq!(step.count, 1, "{what}/{handoff}: applied more than once");
            assert!(
                inbox
                    .ledger_mut()
                    .entry(&run.context, &handoff)
                    .expect("read")
                    .is_some(),
                "{what}/{handoff}: an applied step without an entry"
            );
            *applied.entry(handoff).or_default() += 1;
        }
        for accepted in &run.accepted {
            assert_eq!(
                applied.get(&accepted.handoff),
                Some(&1),
                "{what}/{}: not exactly one applied step",
                accepted.handoff
            );
        }
        assert_eq!(applied.len(), run.accepted.len(), "{what}: applied steps");
    }

    // 0 double-applied: each effect row exactly once, and none of a handoff not accepted.
    let rows = admin
        .query(
            "SELECT effect, count(*) FROM handoff.effects GROUP BY effect",
            &[],
        )
        .expect("the effects");
    let effects: BTreeMap<String, i64> = rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    let expected: BTreeSet<&str> = runs
        .iter()
        .flat_map(|run| run.accepted.iter().map(|a| a.effect.as_str()))
        .collect();
    for (effect, times) in &effects {
        assert_eq!(*times, 1, "{effect}: applied {times} times");
        assert!(
            expected.contains(effect.as_str()),
            "{effect}: applied, never accepted"
        );
    }
    assert_eq!(effects.len(), expected.len(), "an accepted effect is lost");
    // As many entries and applied steps as handoffs accepted, in all the ledger.
    assert_eq!(
        count(&mut admin, "SELECT count(*) FROM handoff.handoff_ledger"),
        total
    );
    assert_eq!(
        count(
            &mut admin,
            "SELECT count(*) FROM handoff.handoff_step WHERE outcome = 'applied'"
        ),
        total
    );

    // A redelivery of each, after the restart: the first acknowledgement, nothing run.
    for run in &runs {
        for accepted in &run.accepted {
            match accept(&mut inbox, &accepted.envelope, &accepted.effect) {
                Ok(Acceptance::Duplicate(ack)) => assert_eq!(ack, accepted.ack),
                other => panic!(
                    "{}/{}: redelivered, not a duplicate: {other:?}",
                    run.context, accepted.handoff
                ),
            }
        }
    }
    assert_eq!(
        count(&mut admin, "SELECT count(*) FROM handoff.effects"),
        total
    );

    let all = || runs.iter().flat_map(|run| &run.accepted);
    let before = all().filter(|a| a.before_kill).count();
    let retried: Vec<&Accepted> = all().filter(|a| a.failures > 0).collect();
    let rolled_back = retried.iter().filter(|a| a.applied).count();
    let failures: u32 = all().map(|a| a.failures).sum();
    assert!(
        before > 0 && total - before >= AFTER_RESTART,
        "{before} of {total}"
    );
    println!(
        "{TEST}: {total} handoffs accepted by {THREADS} threads ({before} acknowledged \
         before the kill, {} after); {} retried after {failures} failed attempts ({rolled_back} \
         applied on the retry, {} duplicates: committed, their acknowledgement lost); \
         accepting took {accepting_took:?}, all {:?}",
        total - before,
        retried.len(),
        retried.len() - rolled_back,
        started.elapsed()
    );
}
