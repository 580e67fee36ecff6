//! The cost of exporting a contract's receiver view in each provider dialect
//! (`json_schema::dialect::to_dialect`), at 1,000 and 10,000 fields of the scale snapshot
//! (`shared/pydantic_shaped.rs`'s Rust contract: strings, `u32`s, optional strings, lists of
//! a struct, a string enum). OpenAI refuses 10,000 properties (its limit is 5,000) and
//! Anthropic a `u32`'s range, after the whole walk: each export does the same work either
//! way, and the result is checked below so that a change in verdict shows.
//!
//! Target: from 1,000 to 10,000 fields each dialect's time grows at most 12×.
//!
//! Run: `cargo bench -p contract-schema --bench dialect`.

use std::hint::black_box;

use contract_schema::json_schema::dialect::{to_dialect, Dialect};
use contract_schema::json_schema::{to_json_schema, View};
use contract_schema::snapshot;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

#[path = "shared/pydantic_shaped.rs"]
#[allow(dead_code)]
mod pydantic_shaped;

const FIELDS: [usize; 2] = [1_000, 10_000];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dialect");
    for n in FIELDS {
        let schema = snapshot::parse(&pydantic_shaped::rust_contract(n)).expect("parses");
        // The baseline: the plain JSON Schema export of the same receiver view.
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("json-schema", n), &schema, |b, s| {
            b.iter(|| black_box(to_json_schema(black_box(s), View::Receiver)));
        });
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
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::new(dialect.name(), n), &schema, |b, s| {
                b.iter(|| black_box(to_dialect(black_box(s), dialect)).is_ok());
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
