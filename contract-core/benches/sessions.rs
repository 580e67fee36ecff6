//! Reading journeys back from a large SQLite ledger, opened read-only as `handoff session`
//! and `handoff sessions` open it: 1,000,000 steps in 100,000 sessions of 10 steps each, the
//! sessions overlapping in time as a busy inbox sees them (a session's steps 10 minutes
//! apart, a new session every minute, so that about 90 are under way at any time and their
//! steps interleave in the ledger's sequence).
//!
//! - `session`: `Ledger::session(id)`, one session's 10 steps (target ≤ 50 ms);
//! - `since/100` and `since/1000`: `Ledger::sessions` with `since` covering the last 100
//!   and the last 1,000 sessions: the work is proportional to the steps seen since then
//!   (550 and 9,550 here: the oldest of those sessions have only their last steps after
//!   `since`), not to the ledger's size;
//! - `all`: `Ledger::sessions` without a filter, every one of the 1,000,000 steps, for scale.
//!
//! The ledger is built once with batched inserts into `handoff_step` in one transaction,
//! each row as the inbox writes it (its key, session, workflow, outcome, the step's JSON,
//! count and times), and kept in `std::env::temp_dir()` across runs (about 0.7 GB; set
//! `TMPDIR` for another disk), under a name that changes with the ledger's tables and the
//! steps' keys and JSON, so that a stale file is never read.
//!
//! Run: `cargo bench -p contract-core --features sqlite --bench sessions`. Measured on 2
//! cores (the ledger built in 6.7 s): `session` 43–47 µs; `since/100` 0.28–0.30 ms,
//! `since/1000` 6.1–6.5 ms (21× for 17× the steps); `all` 0.94–1.04 s.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use contract_core::inbox::rusqlite::{params, Connection};
use contract_core::inbox::{Ledger, Outcome, SessionFilter, SqliteLedger, Step, StepProblem};
use criterion::{criterion_group, criterion_main, Criterion};

/// How many sessions, and steps in each.
const SESSIONS: u64 = 100_000;
const STEPS_PER_SESSION: u64 = 10;
/// A new session starts every minute; a session's steps are 10 minutes apart.
const SESSION_EVERY: u64 = 60;
const STEP_EVERY: u64 = 600;

/// The ledger's first second: 2026-01-01T00:00:00Z.
fn epoch() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

fn at(session: u64, step: u64) -> SystemTime {
    epoch() + Duration::from_secs(session * SESSION_EVERY + step * STEP_EVERY)
}

fn session_id(session: u64) -> String {
    format!("sess-{session:06}")
}

/// Step `n` of session `session`: a three-agent journey with a refusal, an explicit retry,
/// a redelivery and a related retry along the way.
fn step(session: u64, n: u64) -> Step {
    let (from, to, contract) = if n < 6 {
        ("triage-agent", "refund-specialist", "refund-request/v2")
    } else {
        (
            "refund-specialist",
            "escalation-agent",
            "refund-escalation/v1",
        )
    };
    let (outcome, attempt, retry_of) = match n {
        0 => (Outcome::Refused, 1, None),
        1 => (Outcome::Applied, 2, Some(format!("h-{session}-0"))),
        2 => (Outcome::Duplicate, 2, Some(format!("h-{session}-0"))),
        6 => (Outcome::NotReady, 1, None),
        7 => (Outcome::Applied, 2, None),
        _ => (Outcome::Applied, 1, None),
    };
    let refused = outcome == Outcome::Refused;
    let time = at(session, n);
    Step {
        seq: 0,
        session: Some(session_id(session)),
        workflow: Some("support-refund".to_owned()),
        from: Some(from.to_owned()),
        to: Some(to.to_owned()),
        attempt: Some(attempt),
        retry_of,
        contract: contract.to_owned(),
        context_id: Some(format!("ctx-{session:06}")),
        handoff_id: Some(format!("h-{session}-{}", if n == 2 { 1 } else { n })),
        outcome,
        reason: (!outcome.is_accepted()).then(|| "rejected".to_owned()),
        received_fields: if refused {
            vec!["category".to_owned()]
        } else {
            vec!["orderRef".to_owned(), "category".to_owned()]
        },
        missing_fields: if refused {
            vec!["orderRef".to_owned()]
        } else {
            vec![]
        },
        sender_fields: Some(vec!["orderRef".to_owned(), "category".to_owned()]),
        causes: if refused {
            BTreeMap::from([("orderRef".to_owned(), "dropped-on-the-way".to_owned())])
        } else {
            BTreeMap::new()
        },
        problems: if refused {
            vec![StepProblem {
                pointer: "/payload/orderRef".to_owned(),
                kind: "missing_field".to_owned(),
            }]
        } else {
            vec![]
        },
        spent: None,
        count: 1,
        first_seen: time,
        last_seen: time,
    }
}

fn micros(time: SystemTime) -> i64 {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("after 1970");
    i64::try_from(since.as_micros()).expect("in range")
}

/// FNV-1a: a name for the cache that a Rust release does not change.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The cached ledger's file: its name holds a digest of the tables a ledger has today and of
/// the form of a step (its key, its JSON).
fn cache_path() -> PathBuf {
    let fresh = SqliteLedger::from_connection(Connection::open_in_memory().expect("in memory"))
        .expect("a ledger");
    let tables: String = fresh
        .connection()
        .query_row(
            "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master ORDER BY name)",
            [],
            |row| row.get(0),
        )
        .expect("the tables");
    // One session's steps as this bench writes them: their keys and JSON.
    let samples: Vec<String> = (0..STEPS_PER_SESSION)
        .map(|n| {
            let sample = step(7, n);
            format!(
                "{} {}",
                sample.key(),
                serde_json::to_string(&sample).expect("JSON")
            )
        })
        .collect();
    let form = format!(
        "{tables}\n{}\n{SESSIONS}x{STEPS_PER_SESSION}",
        samples.join("\n")
    );
    std::env::temp_dir().join(format!(
        "handoff-bench-sessions-{:016x}.sqlite",
        fnv1a(&form)
    ))
}

/// The ledger of 1,000,000 steps, built unless a run before left it.
fn ledger_file() -> PathBuf {
    let path = cache_path();
    if path.exists() {
        if let Ok(mut ledger) = SqliteLedger::open_read_only(&path) {
            let rows: i64 = ledger
                .connection_mut()
                .query_row("SELECT count(*) FROM handoff_step", [], |row| row.get(0))
                .unwrap_or(0);
            if rows == i64::try_from(SESSIONS * STEPS_PER_SESSION).expect("in range") {
                eprintln!(
                    "sessions bench: the ledger of {rows} steps in {}",
                    path.display()
                );
                return path;
            }
        }
    }
    let started = Instant::now();
    let building = path.with_extension("building");
    for suffix in ["", "-wal", "-shm"] {
        let mut name = building.clone().into_os_string();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
    let mut ledger = SqliteLedger::open(&building).expect("a new ledger");
    // Steps in the order an inbox meets them: by time, the sessions' steps interleaved.
    let mut order: Vec<(SystemTime, u64, u64)> = (0..SESSIONS)
        .flat_map(|session| (0..STEPS_PER_SESSION).map(move |n| (at(session, n), session, n)))
        .collect();
    order.sort_unstable();
    let connection = ledger.connection_mut();
    let tx = connection.transaction().expect("a transaction");
    {
        // 100 rows a statement: the columns and values `note_step` writes.
        const BATCH: usize = 100;
        let values = vec!["(?, ?, ?, ?, ?, ?, ?, ?)"; BATCH].join(", ");
        let mut insert = tx
            .prepare(&format!(
                "INSERT INTO handoff_step \
                 (step_key, session, workflow, outcome, step, count, first_seen, last_seen) \
                 VALUES {values}"
            ))
            .expect("prepared");
        for chunk in order.chunks(BATCH) {
            assert_eq!(chunk.len(), BATCH, "the steps fill whole batches");
            let rows: Vec<(String, Step, String)> = chunk
                .iter()
                .map(|&(_, session, n)| {
                    let step = step(session, n);
                    let body = serde_json::to_string(&step).expect("JSON");
                    (step.key(), step, body)
                })
                .collect();
            let mut values: Vec<&dyn contract_core::inbox::rusqlite::ToSql> =
                Vec::with_capacity(BATCH * 8);
            let times: Vec<(i64, i64)> = rows
                .iter()
                .map(|(_, step, _)| (micros(step.first_seen), micros(step.last_seen)))
                .collect();
            let outcomes: Vec<&str> = rows.iter().map(|(_, s, _)| s.outcome.as_str()).collect();
            const COUNT: i64 = 1;
            for (i, (key, step, body)) in rows.iter().enumerate() {
                values.extend([
                    key as &dyn contract_core::inbox::rusqlite::ToSql,
                    &step.session,
                    &step.workflow,
                    &outcomes[i],
                    body,
                    &COUNT,
                    &times[i].0,
                    &times[i].1,
                ]);
            }
            insert.execute(values.as_slice()).expect("inserted");
        }
    }
    tx.commit().expect("committed");
    let rows: i64 = ledger
        .connection()
        .query_row("SELECT count(*) FROM handoff_step", params![], |row| {
            row.get(0)
        })
        .expect("counted");
    drop(ledger);
    std::fs::rename(&building, &path).expect("moved into place");
    eprintln!(
        "sessions bench: built a ledger of {rows} steps in {:.1?}: {}",
        started.elapsed(),
        path.display()
    );
    path
}

/// The time from which the last `n` sessions are active (their last step at or after it).
fn since_last(n: u64) -> SystemTime {
    at(SESSIONS - n, STEPS_PER_SESSION - 1)
}

fn sessions(c: &mut Criterion) {
    let path = ledger_file();
    let mut ledger = SqliteLedger::open_read_only(&path).expect("opens read-only");

    // What is measured lists what it should.
    let one = ledger.session(&session_id(54_321)).expect("read");
    assert_eq!(one.len() as u64, STEPS_PER_SESSION);
    assert!(one.windows(2).all(|w| w[0].seq < w[1].seq));
    for (n, steps) in [(100, 550), (1_000, 9_550)] {
        let listed = ledger
            .sessions(&SessionFilter::default().since(since_last(n)))
            .expect("read");
        assert_eq!(listed.len() as u64, n, "since the last {n}");
        assert_eq!(listed.iter().map(|s| s.steps).sum::<u64>(), steps);
    }

    let mut group = c.benchmark_group("sessions");
    let mut next = 0u64;
    group.bench_function("session", |b| {
        b.iter(|| {
            // A different session each time, spread over the whole ledger.
            next = (next + 7_919) % SESSIONS;
            black_box(ledger.session(&session_id(next)).expect("read"))
        });
    });
    for n in [100u64, 1_000] {
        let filter = SessionFilter::default().since(since_last(n));
        group.bench_function(format!("since/{n}"), |b| {
            b.iter(|| black_box(ledger.sessions(&filter).expect("read")));
        });
    }
    group.sample_size(10);
    let all = SessionFilter::default();
    group.bench_function("all", |b| {
        b.iter(|| black_box(ledger.sessions(&all).expect("read")));
    });
    group.finish();
}

criterion_group!(benches, sessions);
criterion_main!(benches);
