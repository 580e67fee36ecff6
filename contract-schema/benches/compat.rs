//! The cost of the compatibility engine: two wide schemas (1,000 and 10,000 fields) and a
//! transitive history (10 and 100 versions), to show that it grows linearly. The floor it is
//! compared with in the same run is the derived structural equality of two equal schemas
//! (`==`), the cheapest thing a user could do instead, which says nothing about why.
//!
//! Run: `cargo bench -p contract-schema --bench compat`.

use std::collections::BTreeMap;
use std::hint::black_box;

use contract_schema::compat::{check, evolve, evolve_history, Mode};
use contract_schema::model::{
    Body, FieldDef, Presence, ReceiverField, Schema, SenderField, StructDef, Type, TypeDef, Unknown,
};
use contract_schema::shape::{IntKind, Provenance, StringFormat};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// How many nested struct types the wide schemas use.
const NESTED: usize = 50;

fn field(name: String, ty: Type) -> FieldDef {
    let required = !matches!(ty, Type::Option(_));
    FieldDef {
        rust_name: name.clone(),
        ty,
        sender: Some(SenderField {
            name: name.clone(),
            presence: Presence::Always,
        }),
        receiver: Some(ReceiverField {
            name,
            aliases: Vec::new(),
            required,
        }),
        provenance: Provenance::Confirmed,
        renamed_from: Vec::new(),
        doc: String::new(),
    }
}

fn strukt(fields: Vec<FieldDef>) -> TypeDef {
    TypeDef {
        rust_path: String::new(),
        doc: String::new(),
        body: Body::Struct(StructDef {
            fields,
            unknown: Unknown::Ignore,
            extra: None,
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
            field(format!("field{i}"), ty)
        })
        .collect();
    let mut types = BTreeMap::new();
    types.insert("Root".to_owned(), strukt(fields));
    for k in 0..NESTED {
        let inner = (0..5)
            .map(|j| field(format!("inner{j}"), Type::Int(IntKind::U32)))
            .collect();
        types.insert(format!("Item{k}"), strukt(inner));
    }
    Schema {
        contract: None,
        mode: Mode::Full,
        root: Type::Named("Root".to_owned()),
        types,
    }
}

fn wide_schemas(c: &mut Criterion) {
    let mut group = c.benchmark_group("compat/fields");
    for n in [1_000, 10_000] {
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

fn history(c: &mut Criterion) {
    let mut group = c.benchmark_group("compat/history");
    group.sample_size(10);
    for versions in [10, 100] {
        let older: Vec<Schema> = (0..versions).map(|v| wide(1_000, v)).collect();
        let new = wide(1_000, versions);
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

criterion_group!(benches, wide_schemas, history);
criterion_main!(benches);
