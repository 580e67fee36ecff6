//! The cost of judging a peer's JSON Schema against a Rust contract, against the same
//! judgement between two snapshots, measured in the same run.
//!
//! - `import/pydantic`: a pydantic-shaped producer schema of 1,000 and 10,000 fields
//!   (`shared/pydantic_shaped.rs`, compared at 20 fields with pydantic's own output by
//!   `tests/tests/peers.rs`) read from its JSON text, imported in the sender view, the Rust
//!   contract's snapshot parsed, and `compat::check` of the two.
//! - `import/snapshots`: the baseline, `snapshot::parse` of the two equivalent snapshots (the
//!   producer's is the canonical text of the imported schema) and `compat::check` of the two.
//!
//! Targets (issue 24): at 1,000 fields the import path takes at most 2× the baseline; from
//! 1,000 to 10,000 fields each path grows at most 12×. `-- ratios` prints the ratios of the
//! medians of interleaved runs instead of criterion's report.
//!
//! Run: `cargo bench -p contract-schema --bench import` (or `-- ratios`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use contract_schema::compat::check;
use contract_schema::json_schema::{import, View};
use contract_schema::model::Schema;
use contract_schema::{snapshot, text};
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};

#[path = "shared/pydantic_shaped.rs"]
mod pydantic_shaped;

const FIELDS: [usize; 2] = [1_000, 10_000];

/// The inputs of one width: the peer's JSON text, the contract's snapshot text, and the
/// producer's equivalent snapshot text.
struct Inputs {
    peer_json: String,
    contract: String,
    producer_snapshot: String,
}

fn inputs(n: usize) -> Inputs {
    let doc = pydantic_shaped::pydantic_producer(n);
    let peer_json = serde_json::to_string_pretty(&doc).expect("a Value writes");
    let contract = pydantic_shaped::rust_contract(n);
    let imported = import(&doc, View::Sender).expect("the generated schema imports");
    assert!(
        imported.warnings.is_empty(),
        "the generated schema imports without warnings: {:?}",
        imported.warnings
    );
    let producer_snapshot = text::to_text(&imported.schema);
    let (peer, reader) = (
        by_import(&peer_json, &contract),
        by_snapshots(&producer_snapshot, &contract),
    );
    assert!(peer.is_compatible(), "the generated pair is compatible");
    assert_eq!(
        peer.findings().len(),
        reader.findings().len(),
        "both paths find the same"
    );
    Inputs {
        peer_json,
        contract,
        producer_snapshot,
    }
}

fn parse_contract(text: &str) -> Schema {
    snapshot::parse(text).expect("the generated contract parses")
}

/// The import path: the peer's JSON text read, imported, the contract parsed, checked.
fn by_import(peer_json: &str, contract: &str) -> contract_schema::compat::CompatReport {
    let doc: serde_json::Value = serde_json::from_str(peer_json).expect("JSON");
    let writer = import(&doc, View::Sender).expect("imports").schema;
    let reader = parse_contract(contract);
    check(&writer, &reader)
}

/// The baseline: the two equivalent snapshots parsed, checked.
fn by_snapshots(producer: &str, contract: &str) -> contract_schema::compat::CompatReport {
    let writer = snapshot::parse(producer).expect("the producer's snapshot parses");
    let reader = parse_contract(contract);
    check(&writer, &reader)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("import");
    for n in FIELDS {
        let input = inputs(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("pydantic", n), &input, |b, i| {
            b.iter(|| by_import(black_box(&i.peer_json), black_box(&i.contract)));
        });
        group.bench_with_input(BenchmarkId::new("snapshots", n), &input, |b, i| {
            b.iter(|| by_snapshots(black_box(&i.producer_snapshot), black_box(&i.contract)));
        });
    }
    group.finish();
}

/// The median of the timings.
fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// `-- ratios`: both paths timed by turns (so that a machine busy with something else slows
/// both alike), the medians' ratios printed against the targets.
fn ratios() {
    let mut medians = Vec::new();
    for n in FIELDS {
        let input = inputs(n);
        let iters = if n >= 10_000 { 3 } else { 30 };
        let (mut ours, mut base) = (Vec::new(), Vec::new());
        for _ in 0..31 {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(by_import(&input.peer_json, &input.contract));
            }
            ours.push(start.elapsed() / iters);
            let start = Instant::now();
            for _ in 0..iters {
                black_box(by_snapshots(&input.producer_snapshot, &input.contract));
            }
            base.push(start.elapsed() / iters);
        }
        let (o, b) = (median(&mut ours), median(&mut base));
        println!(
            "{n} fields: import+check {o:?}, snapshots {b:?}: {:.2}x the baseline (target <= 2x)",
            o.as_secs_f64() / b.as_secs_f64()
        );
        medians.push((o, b));
    }
    let grow = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
    println!(
        "1,000 -> 10,000 fields: import path {:.2}x, baseline {:.2}x (target <= 12x each)",
        grow(medians[0].0, medians[1].0),
        grow(medians[0].1, medians[1].1)
    );
}

criterion_group!(benches, bench);

fn main() {
    if std::env::args().any(|a| a == "ratios") {
        ratios();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
