//! The cost of exporting a contract's receiver view in each provider dialect
//! (`json_schema::dialect::to_dialect`), at 1,000 and 10,000 fields of the scale snapshot
//! (`shared/pydantic_shaped.rs`'s Rust contract: strings, `u32`s, optional strings, lists of
//! a struct, a string enum). OpenAI refuses 10,000 properties (its limit is 5,000) and
//! Anthropic a `u32`'s range, after the whole walk: each export does the same work either
//! way, and the result is checked below so that a change in verdict shows.
//!
//! One criterion group per export, its two widths side by side:
//!
//! - `dialect-json-schema`: the baseline, the plain JSON Schema export of the same view;
//! - `dialect-openai-strict`, `dialect-anthropic`, `dialect-gemini`: each dialect;
//! - `dialect-value-clone`: the calibration, a clone of the plain export (a
//!   `serde_json::Value` of the same size built and dropped, nothing else): what linear
//!   growth looks like on the machine at hand, where a document of 10,000 fields no longer
//!   fits in the cache one of 1,000 fields fits in.
//!
//! Target: from 1,000 to 10,000 fields each dialect's time grows at most 12×. `-- ratios`
//! prints, instead of criterion's report, each export's growth as the ratio of the medians
//! of runs taken by turns (1,000 fields, then 10,000, so that a busy machine slows both alike).
//!
//! Run: `cargo bench -p contract-schema --bench dialect` (or `-- ratios`).
//!
//! Where the clock grows with the memory a document takes (see `dialect-value-clone`), count
//! instructions: `DIALECT_PROFILE=<fields>:<export>:<n>` (fields `1000` or `10000`, export one
//! of the names above without `dialect-`, such as `openai-strict`) runs that export `n` times
//! inside `profiled` and nothing else, after one run outside it, so that
//! `valgrind --tool=callgrind --toggle-collect='*profiled*' target/release/deps/dialect-… --bench`
//! counts the `n` runs alone.

use std::hint::black_box;
use std::time::{Duration, Instant};

use contract_schema::json_schema::dialect::{to_dialect, Dialect};
use contract_schema::json_schema::{to_json_schema, View};
use contract_schema::model::Schema;
use contract_schema::snapshot;
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use serde_json::Value;

#[path = "shared/pydantic_shaped.rs"]
#[allow(dead_code)]
mod pydantic_shaped;

const FIELDS: [usize; 2] = [1_000, 10_000];

/// The growth allowed from 1,000 to 10,000 fields.
const TARGET: f64 = 12.0;

/// One thing timed: its name and what it does with the inputs of one width.
struct Export {
    name: String,
    run: fn(&Input, Option<Dialect>),
    dialect: Option<Dialect>,
}

/// The inputs of one width: the parsed contract and its plain export (the calibration's
/// source).
struct Input {
    n: usize,
    schema: Schema,
    export: Value,
}

fn input(n: usize) -> Input {
    let schema = snapshot::parse(&pydantic_shaped::rust_contract(n)).expect("parses");
    for dialect in Dialect::ALL {
        let verdict = to_dialect(&schema, dialect).map(|_| ()).map_err(|e| {
            e.problems
                .iter()
                .map(|p| p.rule.id())
                .collect::<std::collections::BTreeSet<_>>()
        });
        match dialect {
            Dialect::Gemini => assert!(verdict.is_ok(), "{verdict:?}"),
            Dialect::Anthropic => assert!(verdict.is_err()),
            Dialect::OpenAiStrict => assert_eq!(verdict.is_ok(), n <= 5_000),
        }
    }
    let export = to_json_schema(&schema, View::Receiver);
    Input { n, schema, export }
}

fn plain(input: &Input, _: Option<Dialect>) {
    black_box(to_json_schema(black_box(&input.schema), View::Receiver));
}

fn dialect(input: &Input, dialect: Option<Dialect>) {
    if let Some(d) = dialect {
        black_box(to_dialect(black_box(&input.schema), d).is_ok());
    }
}

fn value_clone(input: &Input, _: Option<Dialect>) {
    black_box(black_box(&input.export).clone());
}

/// Every export timed, the baseline first and the calibration last.
fn exports() -> Vec<Export> {
    let mut out = vec![Export {
        name: "json-schema".to_owned(),
        run: plain,
        dialect: None,
    }];
    out.extend(Dialect::ALL.into_iter().map(|d| Export {
        name: d.name().to_owned(),
        run: dialect,
        dialect: Some(d),
    }));
    out.push(Export {
        name: "value-clone".to_owned(),
        run: value_clone,
        dialect: None,
    });
    out
}

fn bench(c: &mut Criterion) {
    let inputs: Vec<Input> = FIELDS.into_iter().map(input).collect();
    for export in exports() {
        let mut group = c.benchmark_group(format!("dialect-{}", export.name));
        for input in &inputs {
            group.throughput(Throughput::Elements(input.n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(input.n), input, |b, i| {
                b.iter(|| (export.run)(i, export.dialect));
            });
        }
        group.finish();
    }
}

/// The median of the timings.
fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// `-- ratios`: each export timed at both widths by turns, 31 rounds, the medians' ratio
/// printed against the target.
fn ratios() {
    let inputs: Vec<Input> = FIELDS.into_iter().map(input).collect();
    let (small, large) = (&inputs[0], &inputs[1]);
    let iters = |input: &Input| if input.n >= 10_000 { 2 } else { 20 };
    let time = |export: &Export, input: &Input| {
        let k = iters(input);
        let start = Instant::now();
        for _ in 0..k {
            (export.run)(input, export.dialect);
        }
        start.elapsed() / k
    };
    println!(
        "{} -> {} fields, medians of 31 rounds by turns (target <= {TARGET}x for each dialect):",
        small.n, large.n
    );
    for export in exports() {
        // Warm up both widths once.
        time(&export, small);
        time(&export, large);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..31 {
            a.push(time(&export, small));
            b.push(time(&export, large));
        }
        let (a, b) = (median(&mut a), median(&mut b));
        let growth = b.as_secs_f64() / a.as_secs_f64();
        let verdict = match export.dialect {
            Some(_) if growth <= TARGET => "within the target",
            Some(_) => "OVER the target",
            None => "reference",
        };
        println!(
            "  {:<14} {:>10.3?} -> {:>10.3?}: {growth:>5.1}x ({verdict})",
            export.name, a, b
        );
    }
}

/// `DIALECT_PROFILE`'s runs, the only code callgrind's `--toggle-collect='*profiled*'`
/// counts.
#[inline(never)]
fn profiled(export: &Export, input: &Input, n: usize) {
    for _ in 0..n {
        (export.run)(input, export.dialect);
    }
}

/// `DIALECT_PROFILE=<fields>:<export>:<n>`: one export at one width, `n` times inside
/// [`profiled`]; `None` when the variable is unset.
fn profile() -> Option<Result<(), String>> {
    let spec = std::env::var("DIALECT_PROFILE").ok()?;
    let mut parts = spec.split(':');
    let (Some(fields), Some(name), Some(n), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Some(Err(format!(
            "DIALECT_PROFILE is <fields>:<export>:<n>, not {spec:?}"
        )));
    };
    let Some(fields) = fields.parse().ok().filter(|f| FIELDS.contains(f)) else {
        return Some(Err(format!("fields are one of {FIELDS:?}, not {fields:?}")));
    };
    let Ok(n) = n.parse::<usize>() else {
        return Some(Err(format!("n is a count, not {n:?}")));
    };
    let exports = exports();
    let Some(export) = exports.iter().find(|e| e.name == name) else {
        let names: Vec<&str> = exports.iter().map(|e| e.name.as_str()).collect();
        return Some(Err(format!("the exports are {names:?}, not {name:?}")));
    };
    let input = input(fields);
    (export.run)(&input, export.dialect);
    profiled(export, &input, n);
    Some(Ok(()))
}

criterion_group!(benches, bench);

fn main() {
    if let Some(done) = profile() {
        if let Err(error) = done {
            eprintln!("{error}");
            std::process::exit(2);
        }
        return;
    }
    if std::env::args().any(|a| a == "ratios") {
        ratios();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
