//! The JSON Schema export read back by the import (`contract_schema::json_schema::import`):
//! for every snapshot S of `examples/contracts/` and `tests/contracts/` and every type of the
//! fidelity catalogue, with R the receiver view's export imported as a consumer's schema and
//! W the sender view's imported as a producer's, `check(S, R)` and `check(W, S)` find
//! nothing and `check(W, R)` finds what `check(S, S)` finds. The export shapes the import
//! does not read back (listed in the import's module docs) are pinned below, each with the
//! problem it has, so that a change in either direction shows.

use std::collections::BTreeSet;
use std::path::Path;

use contract_core::compat::{self, CompatReport};
use contract_core::schema::json_schema::{import, to_json_schema};
use contract_core::{HandoffSchema, Schema, View};
use contract_tests::types::*;

/// The findings of a report, as `RULE path (direction)`.
fn findings(report: &CompatReport) -> BTreeSet<String> {
    report
        .findings()
        .iter()
        .map(|f| format!("{} {} ({:?})", f.rule.id(), f.path, f.direction))
        .collect()
}

/// What differs when `schema`'s exports are read back: empty when the round trip holds.
fn round_trip(schema: &Schema) -> Vec<String> {
    let mut problems = Vec::new();
    let receiver = import(&to_json_schema(schema, View::Receiver), View::Receiver);
    let sender = import(&to_json_schema(schema, View::Sender), View::Sender);
    let (r, w) = match (receiver, sender) {
        (Ok(r), Ok(w)) => (r.schema, w.schema),
        (r, w) => {
            if let Err(e) = r {
                problems.push(format!("receiver view not imported: {e}"));
            }
            if let Err(e) = w {
                problems.push(format!("sender view not imported: {e}"));
            }
            return problems;
        }
    };
    let s_r = findings(&compat::check(schema, &r));
    if !s_r.is_empty() {
        problems.push(format!("check(S, R) finds {s_r:?}"));
    }
    let w_s = findings(&compat::check(&w, schema));
    if !w_s.is_empty() {
        problems.push(format!("check(W, S) finds {w_s:?}"));
    }
    let w_r = findings(&compat::check(&w, &r));
    let s_s = findings(&compat::check(schema, schema));
    if w_r != s_s {
        problems.push(format!("check(W, R) finds {w_r:?} where check(S, S) finds {s_s:?}"));
    }
    problems
}

/// Every problem of `cases`, `name: problem`, sorted.
fn problems<'a>(cases: impl IntoIterator<Item = (String, &'a Schema)>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, schema) in cases {
        for problem in round_trip(schema) {
            out.push(format!("{name}: {problem}"));
        }
    }
    out.sort();
    out
}

fn snapshots(dir: &Path) -> Vec<(String, Schema)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "snap"))
        .collect();
    entries.sort();
    for path in entries {
        let schema = contract_core::schema::snapshot::read(&path).expect("a snapshot reads");
        let name = path.file_name().expect("a file").to_string_lossy().into_owned();
        out.push((name, schema));
    }
    out
}

#[test]
fn every_snapshot_of_the_repository_reads_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = snapshots(&root.join("../examples/contracts"));
    all.extend(snapshots(&root.join("contracts")));
    assert!(all.len() >= 20, "{} snapshots", all.len());
    let found = problems(all.iter().map(|(n, s)| (n.clone(), s)));
    assert_eq!(found, Vec::<String>::new(), "\n{}", found.join("\n"));
}

macro_rules! catalogue {
    ($($ty:ty),* $(,)?) => {
        vec![$((stringify!($ty).to_owned(), <$ty as HandoffSchema>::schema())),*]
    };
}

#[test]
fn every_catalogue_type_reads_back() {
    let all = catalogue![
        Category, RefundRequest, Scope, Budget, TaskContract, TaskStatus, Evidence, TaskResult,
        Artifact, HandoffStatus, Renames, RenameAllSplit, Defaults, FieldDefaults, Skips, Meta,
        FlattenStruct, FlattenMap, Figure, Message, IdOrName, Command, Level, OrderId, Meters,
        Point, Marker, Plan, NetAddrs, NonZeros, Times, FfiStrings, StdWrappers, StdTypes,
        TimeAndIds, ChronoNames, OtherCrates, WithSchemaAs, StrictNote, Priority, Offset, Code,
        Tier, Reprs, Payment, FlattenExternal, FlattenInternalEnum, FlattenAdjacentEnum,
        Placement, FlattenUntaggedEnum, FlattenOptionalEnums, Labels, Rest, FlattenRest, Counted,
        FlattenCounted, ExternalWithUntagged, InternalWithUntagged, AdjacentWithUntagged,
        Channel, WithUntaggedVariants,
    ];
    let found = problems(all.iter().map(|(n, s)| (n.clone(), s)));
    assert_eq!(found, Vec::<String>::new(), "\n{}", found.join("\n"));
}
