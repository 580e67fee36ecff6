//! The cost of the runtime against what a user would do instead, on handoff envelopes of
//! three sizes (seed `000_…`'s envelope with 2, 115 and 11,500 artifacts: about 0.6 KB, 10 KB
//! and 1 MB):
//!
//! - `receive/*`: `receive::<T>` (every problem, presence recorded; `receive_presence_read`
//!   also renders it, as a caller that logs it does) beside `serde_json::from_slice::<T>`
//!   (what a user pays today: the first error only, no presence) and `from_slice::<Value>` +
//!   `jsonschema` + `from_value::<T>` (what a user would build);
//! - `reject/*`: `receive::<T>` on a payload with problems in every artifact, beside the same
//!   `from_slice::<T>` failing at its first;
//! - `send/*`: `send` beside `serde_json::to_vec`;
//! - in `ratios`, two acceptance shapes beside the envelope, with their targets printed: a
//!   flat struct of 8 scalars (`flat8`) and an envelope-like struct of about 0.5 KB with a
//!   nested struct, an enum and lists of strings (`task`).
//!
//! Absolute times on a shared 2-core machine swing ±30 %, so the figures to quote are the
//! ratios printed by `ratios`: per size, 101 rounds in which every method runs one batch (about
//! 2 MB of payload) in turn, every other round in reverse order, and the median over rounds of
//! each method's time divided by the baseline's in the same round (with the middle half of
//! those ratios, to show the spread).
//!
//! Run: `cargo bench -p contract-core --bench runtime` (add `-- ratios` for the ratios alone,
//! and `RATIOS_ONLY=send` in the environment for those whose label holds `send`).
//!
//! For an instruction count (deterministic where the machine is busy),
//! `RATIOS_PROFILE=<shape>:<method>:<n>` runs one method of one shape `n` times inside
//! `profiled` and nothing else, after one run outside it (the per-type caches). The shapes
//! are `flat8`, `task`, `small`, `medium` and `large`; the methods `from_slice`, `receive`,
//! `receive_presence_read`, `receive_rejected`, `to_vec` and `send`. Under callgrind,
//! `--toggle-collect=*profiled*` counts the `n` runs alone:
//! `valgrind --tool=callgrind --toggle-collect='*profiled*' target/release/deps/runtime-… --bench`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use contract_core::{json_schema, receive, send, HandoffContract, HandoffSchema, View};
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Artifact {
    name: String,
    uri: String,
    version: u32,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
enum Status {
    Draft,
    Ready,
    Accepted,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Budget {
    tokens: u64,
    seconds: f64,
}

#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "bench-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
struct Envelope {
    schema_version: u32,
    context_id: String,
    task_id: String,
    handoff_id: String,
    goal: String,
    constraints: Vec<String>,
    decisions: Vec<String>,
    open_questions: Vec<String>,
    artifacts: Vec<Artifact>,
    budget: Budget,
    owner: String,
    status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn envelope(artifacts: usize) -> Envelope {
    Envelope {
        schema_version: 2,
        context_id: "ctx-7f3a9c".into(),
        task_id: "task-0192".into(),
        handoff_id: "handoff-55e1".into(),
        goal: "Refund the damaged order and notify the customer".into(),
        constraints: vec!["no refunds above 500 EUR without approval".into()],
        decisions: vec!["the order was damaged in transit".into()],
        open_questions: vec!["does the customer want a replacement?".into()],
        artifacts: (0..artifacts)
            .map(|i| Artifact {
                name: format!("evidence-{i}"),
                uri: format!("s3://handoffs/ctx-7f3a9c/evidence-{i}.json"),
                version: (i % 7) as u32 + 1,
            })
            .collect(),
        budget: Budget {
            tokens: 12_000,
            seconds: 90.5,
        },
        owner: "refund-specialist".into(),
        status: Status::Ready,
        note: None,
    }
}

/// An acceptance shape: a flat struct of 8 scalars (the smallest contract a service hands on).
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "bench-flat", version = 1)]
#[serde(rename_all = "camelCase")]
struct Flat {
    id: u64,
    attempt: u32,
    score: f64,
    ready: bool,
    owner: String,
    priority: u8,
    delta: i64,
    region: String,
}

fn flat() -> Flat {
    Flat {
        id: 9_007_199_254,
        attempt: 3,
        score: 0.875,
        ready: true,
        owner: "refund-specialist".into(),
        priority: 2,
        delta: -1250,
        region: "eu-west-1".into(),
    }
}

/// An acceptance shape: an envelope-like struct of about 0.5 KB with a nested struct, an
/// enum and lists of strings (the form that measured 1.35x `to_vec` for `send`).
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "bench-task", version = 1)]
#[serde(rename_all = "camelCase")]
struct Task {
    task_id: String,
    goal: String,
    owner: Owner,
    status: Status,
    required_fields: Vec<String>,
    excluded_actions: Vec<String>,
    acceptance: Vec<String>,
    task_revision: u32,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Owner {
    agent: String,
    team: String,
    on_call: bool,
}

fn task() -> Task {
    let words = |list: &[&str]| list.iter().map(|w| (*w).to_owned()).collect();
    Task {
        task_id: "task-0192-refund".into(),
        goal: "Decide the refund of order A-1 and tell the customer what happens next".into(),
        owner: Owner {
            agent: "refund-specialist".into(),
            team: "billing".into(),
            on_call: true,
        },
        status: Status::Ready,
        required_fields: words(&[
            "orderRef",
            "category",
            "amountCents",
            "currency",
            "customerId",
        ]),
        excluded_actions: words(&["refund above 500 EUR", "close the account", "email legal"]),
        acceptance: words(&[
            "the decision names the policy it follows",
            "the customer message is under 80 words",
            "every amount is in cents",
            "open questions are listed, not guessed",
        ]),
        task_revision: 4,
    }
}

/// Sends, receives and rejects one value of an acceptance shape, with the targets beside the
/// ratios (receive with its presence read <= 1.0x `from_slice`, send <= 1.0x `to_vec`, a
/// rejection <= 1.5x a success).
fn acceptance<T>(label: &str, value: &T, bad: &[u8])
where
    T: Serialize + serde::de::DeserializeOwned + HandoffSchema + 'static,
{
    let bytes = serde_json::to_vec(value).expect("serializes");
    assert!(receive::<T>(&bytes).is_ok());
    assert!(receive::<T>(bad).is_err());
    let batch = (2_000_000 / bytes.len().max(1)).clamp(4, 20_000) as u32;
    let rounds = 101;
    println!("payload {label}: {} bytes, batch {batch}", bytes.len());
    println!(
        "targets {label}: receive_presence_read <= 1.00x, send <= 1.00x, receive_rejected <= 1.50x"
    );
    ratios_of(
        &format!("receive {label}"),
        rounds,
        batch,
        &mut [
            ("from_slice", &mut || {
                serde_json::from_slice::<T>(&bytes).is_ok()
            }),
            ("receive", &mut || receive::<T>(&bytes).is_ok()),
            ("receive_presence_read", &mut || {
                receive::<T>(&bytes).is_ok_and(|r| !r.presence().received().is_empty())
            }),
        ],
    );
    ratios_of(
        &format!("reject {label}"),
        rounds,
        batch,
        &mut [
            ("receive_ok", &mut || receive::<T>(&bytes).is_ok()),
            ("receive_rejected", &mut || receive::<T>(bad).is_err()),
        ],
    );
    ratios_of(
        &format!("send {label}"),
        rounds,
        batch,
        &mut [
            ("to_vec", &mut || serde_json::to_vec(value).is_ok()),
            ("send", &mut || send(value).is_ok()),
        ],
    );
}

/// A flat8 payload that breaks two of its fields.
const FLAT_BAD: &[u8] = br#"{"id":-1,"attempt":3,"score":"high","ready":true,"owner":"o","priority":2,"delta":0,"region":"r"}"#;

/// A task payload that breaks two of its fields.
fn task_bad() -> String {
    serde_json::to_vec(&task())
        .map(|b| {
            String::from_utf8_lossy(&b)
                .replace("\"onCall\":true", "\"onCall\":1")
                .replace("\"taskRevision\":4", "\"taskRevision\":-4")
        })
        .expect("serializes")
}

const SIZES: [(&str, usize); 3] = [("small", 2), ("medium", 115), ("large", 11_500)];

/// The payload with problems in every artifact: a version out of range and a missing uri.
fn broken(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes)
        .replace("\"version\":1", "\"version\":-1")
        .replace("\"uri\":", "\"url\":")
        .into_bytes()
}

struct Validator(jsonschema::Validator);

impl Validator {
    fn new() -> Self {
        Validator(
            jsonschema::draft202012::new(&json_schema::<Envelope>(View::Receiver))
                .expect("the export compiles"),
        )
    }

    /// What a user would build: parse to a `Value`, validate, then convert.
    fn receive(&self, bytes: &[u8]) -> Option<Envelope> {
        let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
        if !self.0.is_valid(&value) {
            return None;
        }
        serde_json::from_value(value).ok()
    }
}

fn benches(c: &mut Criterion) {
    let validator = Validator::new();
    for (size, n) in SIZES {
        let value = envelope(n);
        let bytes = serde_json::to_vec(&value).expect("serializes");
        let bad = broken(&bytes);
        assert!(receive::<Envelope>(&bytes).is_ok());
        assert!(receive::<Envelope>(&bad).is_err());

        let mut group = c.benchmark_group("receive");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("receive", size), &bytes, |b, bytes| {
            b.iter(|| receive::<Envelope>(black_box(bytes)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("from_slice", size), &bytes, |b, bytes| {
            b.iter(|| serde_json::from_slice::<Envelope>(black_box(bytes)).is_ok())
        });
        group.bench_with_input(
            BenchmarkId::new("value_jsonschema", size),
            &bytes,
            |b, bytes| b.iter(|| validator.receive(black_box(bytes)).is_some()),
        );
        group.finish();

        let mut group = c.benchmark_group("reject");
        group.throughput(Throughput::Bytes(bad.len() as u64));
        group.bench_with_input(BenchmarkId::new("receive", size), &bad, |b, bad| {
            b.iter(|| receive::<Envelope>(black_box(bad)).is_err())
        });
        group.bench_with_input(BenchmarkId::new("from_slice", size), &bad, |b, bad| {
            b.iter(|| serde_json::from_slice::<Envelope>(black_box(bad)).is_err())
        });
        group.finish();

        let mut group = c.benchmark_group("send");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("send", size), &value, |b, value| {
            b.iter(|| send(black_box(value)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("to_vec", size), &value, |b, value| {
            b.iter(|| serde_json::to_vec(black_box(value)).is_ok())
        });
        group.finish();
    }
}

/// Times `batch` runs of `f`.
fn timed(batch: u32, mut f: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        black_box(f());
    }
    start.elapsed()
}

/// Interleaved rounds: each method runs one batch per round; the median (and the middle
/// half) of per-round ratios to the first method.
fn ratios_of(
    label: &str,
    rounds: usize,
    batch: u32,
    methods: &mut [(&str, &mut dyn FnMut() -> bool)],
) {
    // `RATIOS_ONLY=send` (any part of a label) runs those ratios alone.
    if let Ok(only) = std::env::var("RATIOS_ONLY") {
        if !label.contains(only.as_str()) {
            return;
        }
    }
    let mut per_method: Vec<Vec<f64>> = vec![Vec::new(); methods.len()];
    for (_, f) in methods.iter_mut() {
        timed(batch, f);
    }
    let mut times = vec![0.0; methods.len()];
    for round in 0..rounds {
        // Every other round in reverse order: no method always runs right after another.
        for m in 0..methods.len() {
            let m = if round % 2 == 0 {
                m
            } else {
                methods.len() - 1 - m
            };
            times[m] = timed(batch, &mut methods[m].1).as_secs_f64();
        }
        for (m, t) in times.iter().enumerate() {
            per_method[m].push(t / times[0]);
        }
    }
    let (base, _) = methods[0];
    for (m, (name, _)) in methods.iter().enumerate().skip(1) {
        let mut ratios = per_method[m].clone();
        ratios.sort_by(f64::total_cmp);
        let at = |q: usize| ratios[(ratios.len() - 1) * q / 4];
        println!(
            "ratio {label}: {name} / {base} = {:.2}x (median of {rounds} rounds; middle half {:.2}-{:.2})",
            at(2),
            at(1),
            at(3)
        );
    }
}

fn ratios(c: &mut Criterion) {
    // The ratios are printed, not measured by criterion; a filter naming them runs them.
    let _ = c;
    // The two acceptance shapes, each with a payload that breaks two of its fields.
    acceptance("flat8", &flat(), FLAT_BAD);
    acceptance("task", &task(), task_bad().as_bytes());
    let validator = Validator::new();
    for (size, n) in SIZES {
        let value = envelope(n);
        let bytes = serde_json::to_vec(&value).expect("serializes");
        let bad = broken(&bytes);
        // Batches of about 2 MB of payload (a few milliseconds), long beside the timer's
        // resolution and a scheduler's tick.
        let batch = (2_000_000 / bytes.len().max(1)).clamp(4, 20_000) as u32;
        let rounds = 101;
        println!("payload {size}: {} bytes, batch {batch}", bytes.len());
        ratios_of(
            &format!("receive {size}"),
            rounds,
            batch,
            &mut [
                ("from_slice", &mut || {
                    serde_json::from_slice::<Envelope>(&bytes).is_ok()
                }),
                ("receive", &mut || receive::<Envelope>(&bytes).is_ok()),
                // The presence rendered too: what a caller that logs it pays.
                ("receive_presence_read", &mut || {
                    receive::<Envelope>(&bytes).is_ok_and(|r| !r.presence().received().is_empty())
                }),
                ("value_jsonschema", &mut || {
                    validator.receive(&bytes).is_some()
                }),
            ],
        );
        ratios_of(
            &format!("reject {size}"),
            rounds,
            batch,
            &mut [
                ("receive_ok", &mut || receive::<Envelope>(&bytes).is_ok()),
                ("receive_rejected", &mut || {
                    receive::<Envelope>(&bad).is_err()
                }),
            ],
        );
        ratios_of(
            &format!("send {size}"),
            rounds,
            batch,
            &mut [
                ("to_vec", &mut || serde_json::to_vec(&value).is_ok()),
                ("send", &mut || send(&value).is_ok()),
            ],
        );
    }
}

/// Runs `f` `n` times: the function callgrind's `--toggle-collect` names.
#[inline(never)]
fn profiled(n: u32, f: &mut dyn FnMut() -> bool) -> u32 {
    let mut ok = 0;
    for _ in 0..n {
        ok += u32::from(black_box(f()));
    }
    ok
}

/// One method of one shape, `n` times (see the module docs), for a profiler.
fn profile_one<T>(value: &T, bad: &[u8], method: &str, n: u32)
where
    T: Serialize + serde::de::DeserializeOwned + HandoffSchema + 'static,
{
    let bytes = serde_json::to_vec(value).expect("serializes");
    let mut f: Box<dyn FnMut() -> bool + '_> = match method {
        "from_slice" => Box::new(|| serde_json::from_slice::<T>(black_box(&bytes)).is_ok()),
        "receive" => Box::new(|| receive::<T>(black_box(&bytes)).is_ok()),
        "receive_presence_read" => Box::new(|| {
            receive::<T>(black_box(&bytes)).is_ok_and(|r| !r.presence().received().is_empty())
        }),
        "receive_rejected" => Box::new(|| receive::<T>(black_box(bad)).is_err()),
        "to_vec" => Box::new(|| serde_json::to_vec(black_box(value)).is_ok()),
        "send" => Box::new(|| send(black_box(value)).is_ok()),
        other => panic!("RATIOS_PROFILE: no method `{other}`"),
    };
    // Once outside the count: the per-type caches and the thread's buffers.
    assert!(f(), "RATIOS_PROFILE: {method} did not succeed");
    let ok = profiled(n, &mut *f);
    println!(
        "profiled {method}: {ok} of {n} succeeded, {} bytes",
        bytes.len()
    );
}

/// `RATIOS_PROFILE=<shape>:<method>:<n>`.
fn profile(spec: &str) {
    let mut parts = spec.split(':');
    let (Some(shape), Some(method), Some(n)) = (parts.next(), parts.next(), parts.next()) else {
        panic!("RATIOS_PROFILE is <shape>:<method>:<n>, not `{spec}`");
    };
    let n: u32 = n.parse().expect("RATIOS_PROFILE: n is a number");
    match shape {
        "flat8" => profile_one(&flat(), FLAT_BAD, method, n),
        "task" => profile_one(&task(), task_bad().as_bytes(), method, n),
        size => {
            let (_, artifacts) = SIZES
                .iter()
                .find(|(name, _)| *name == size)
                .unwrap_or_else(|| panic!("RATIOS_PROFILE: no shape `{size}`"));
            let value = envelope(*artifacts);
            let bad = broken(&serde_json::to_vec(&value).expect("serializes"));
            profile_one(&value, &bad, method, n);
        }
    }
}

criterion_group!(runtime, benches);
criterion_group!(ratio, ratios);

fn main() {
    if let Ok(spec) = std::env::var("RATIOS_PROFILE") {
        profile(&spec);
        return;
    }
    runtime();
    ratio();
    Criterion::default().configure_from_args().final_summary();
}
