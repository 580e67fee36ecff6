//! The cost of the compatibility engine and of the JSON Schema export, against a floor
//! measured in the same run: the derived structural equality of two equal schemas (`==`),
//! the cheapest thing a user could do instead, which says nothing about why.
//!
//! - `compat/fields`: one comparison of two wide schemas (1,000, 10,000 and 20,000 fields)
//!   that differ in one field, as `handoff diff --mode check` (`check`) and plain `handoff
//!   diff` (`evolve_full`, both directions) make it. Throughput is per field: the cost per
//!   field should stay flat as the fields grow (fields are matched by wire name through maps
//!   built once per struct, never by scanning the other side's fields).
//! - `json_schema/fields`: the export of the same wide schemas, each view. Throughput is per
//!   field and should stay flat too.
//! - `compat/history`, two transitive histories of 10 and 100 older versions of a
//!   1,000-field schema, throughput per version:
//!   - `full_transitive_1000_fields`: older version `v` of `n` lacks the widenings of
//!     versions `v + 1 ..= n`, so it differs from the newest in `n - v` fields (up to 100).
//!     The findings grow with the distance (55 in all for 10 versions, 5,050 for 100, about
//!     ten times more per version): this measures a long history whose old versions drift
//!     further and further, and the cost per version grows with the findings reported.
//!   - `full_transitive_1000_fields_one_change`: every older version differs from the
//!     newest in exactly one field (a different one for each), so each comparison walks the
//!     same schemas and reports one finding: this measures the engine's cost per version,
//!     which should stay flat from 10 to 100 versions.
//!
//! Run: `cargo bench -p contract-schema --bench compat` (a quick look:
//! `-- --warm-up-time 1 --measurement-time 3`).

use std::collections::BTreeMap;
use std::hint::black_box;

use contract_schema::compat::{check, evolve, evolve_history, Mode};
use contract_schema::json_schema::{to_json_schema, View};
use contract_schema::model::{Body, FieldDef, Schema, StructDef, Type, TypeDef, Unknown};
use contract_schema::shape::{IntKind, StringFormat};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The widths of the wide schemas: at 20,000 fields a cost that grew with the square of the
/// fields would show as twenty times the cost per field of 1,000.
const FIELDS: [usize; 3] = [1_000, 10_000, 20_000];

/// How many nested struct types the wide schemas use.
const NESTED: usize = 50;

fn strukt(fields: Vec<FieldDef>) -> TypeDef {
    TypeDef {
        rust_path: String::new(),
        doc: String::new(),
        body: Body::Struct(StructDef {
            fields,
            unknown: Unknown::Ignore,
            extra: None,
            flattened: Vec::new(),
        }),
    }
}

/// A root struct of `n` fields of mixed types (a tenth of them nested structs), in
/// version `version`: each version widens one integer field, so that consecutive versions
/// differ and every comparison walks everything.
fn wide(n: usize, version: usize) -> Schema {
    let string = || Type::String(StringFormat::Plain);
    let fields = (0..n)
        .map(|i| {
            let ty = match i % 10 {
                0 => Type::Named(format!("Item{}", i % NESTED)),
                1 | 2 => string(),
                3 => Type::Int(if i / 10 < version {
                    IntKind::U64
                } else {
                    IntKind::U32
                }),
                4 => Type::Option(Box::new(string())),
                5 => Type::List(Box::new(Type::Int(IntKind::I64))),
                6 => Type::Map(Box::new(string()), Box::new(Type::Bool)),
                7 => Type::Float(contract_schema::shape::FloatKind::F64),
                8 => Type::Char,
                _ => Type::Tuple(vec![string(), Type::Int(IntKind::U8)]),
            };
            FieldDef::plain(format!("field{i}"), ty)
        })
        .collect();
    let mut types = BTreeMap::new();
    types.insert("Root".to_owned(), strukt(fields));
    for k in 0..NESTED {
        let inner = (0..5)
            .map(|j| FieldDef::plain(format!("inner{j}"), Type::Int(IntKind::U32)))
            .collect();
        types.insert(format!("Item{k}"), strukt(inner));
    }
    Schema {
        contract: None,
        mode: Mode::Full,
        allowances: Default::default(),
        root: Type::Named("Root".to_owned()),
        types,
    }
}

fn wide_schemas(c: &mut Criterion) {
    let mut group = c.benchmark_group("compat/fields");
    group.sample_size(10);
    for n in FIELDS {
        let old = wide(n, 0);
        let new = wide(n, 1);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("check", n), &n, |b, _| {
            b.iter(|| check(black_box(&old), black_box(&new)));
        });
        group.bench_with_input(BenchmarkId::new("evolve_full", n), &n, |b, _| {
            b.iter(|| evolve(black_box(&old), black_box(&new), Mode::Full));
        });
        // Equality of two equal schemas walks everything (unequal ones stop early).
        let same = old.clone();
        group.bench_with_input(BenchmarkId::new("equality_floor", n), &n, |b, _| {
            b.iter(|| black_box(&old) == black_box(&same));
        });
    }
    group.finish();
}

fn export(c: &mut Criterion) {
    let mut group = c.benchmark_group("json_schema/fields");
    group.sample_size(10);
    for n in FIELDS {
        let schema = wide(n, 0);
        group.throughput(Throughput::Elements(n as u64));
        for (name, view) in [("sender", View::Sender), ("receiver", View::Receiver)] {
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| to_json_schema(black_box(&schema), view));
            });
        }
    }
    group.finish();
}

fn history(c: &mut Criterion) {
    let mut group = c.benchmark_group("compat/history");
    group.sample_size(10);
    for versions in [10, 100] {
        let older: Vec<Schema> = (0..versions).map(|v| wide(1_000, v)).collect();
        let new = wide(1_000, versions);
        // The premise of the measurement: version `v` differs in `versions - v` fields.
        let findings = evolve_history(&older, &new, Mode::FullTransitive)
            .findings()
            .len();
        assert_eq!(
            findings,
            versions * (versions + 1) / 2,
            "findings grow with distance"
        );
        group.throughput(Throughput::Elements(versions as u64));
        group.bench_with_input(
            BenchmarkId::new("full_transitive_1000_fields", versions),
            &versions,
            |b, _| {
                b.iter(|| evolve_history(black_box(&older), black_box(&new), Mode::FullTransitive));
            },
        );
    }
    group.finish();
}

/// Every integer field of `wide` is an `i % 10 == 3` field: 100 of them in 1,000 fields.
fn int_field_index(k: usize) -> usize {
    10 * k + 3
}

/// The newest schema with one integer field, the `k`-th, narrowed back to `u32`: a
/// version that differs from the newest by exactly one change, whatever `k`.
fn one_change_from(newest: &Schema, k: usize) -> Schema {
    let mut old = newest.clone();
    let root = old
        .types
        .get_mut("Root")
        .expect("the wide schema has a root");
    let Body::Struct(fields) = &mut root.body else {
        panic!("the wide schema's root is a struct");
    };
    let field = fields
        .fields
        .get_mut(int_field_index(k))
        .expect("k is below the number of integer fields");
    assert_eq!(
        field.ty,
        Type::Int(IntKind::U64),
        "field {k} is widened in the newest"
    );
    field.ty = Type::Int(IntKind::U32);
    old
}

fn history_one_change(c: &mut Criterion) {
    let mut group = c.benchmark_group("compat/history");
    group.sample_size(10);
    // Every integer field widened: the newest of any history up to 100 versions.
    let new = wide(1_000, 100);
    for versions in [10, 100] {
        let older: Vec<Schema> = (0..versions).map(|k| one_change_from(&new, k)).collect();
        // The premise of the measurement: one finding per older version.
        let findings = evolve_history(&older, &new, Mode::FullTransitive)
            .findings()
            .len();
        assert_eq!(findings, versions, "one finding per older version");
        group.throughput(Throughput::Elements(versions as u64));
        group.bench_with_input(
            BenchmarkId::new("full_transitive_1000_fields_one_change", versions),
            &versions,
            |b, _| {
                b.iter(|| evolve_history(black_box(&older), black_box(&new), Mode::FullTransitive));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, wide_schemas, export, history, history_one_change);
criterion_main!(benches);
