//! The JSON Schema export read back by the import (`contract_schema::json_schema::import`):
//! for every snapshot S of `examples/contracts/` and `tests/contracts/` and every type of the
//! fidelity catalogue, with R the receiver view's export imported as a consumer's schema and
//! W the sender view's imported as a producer's, `check(S, R)` and `check(W, S)` find
//! nothing and `check(W, R)` finds what `check(S, S)` finds, with the export's annotations
//! and without them (`without_annotations`, `handoff json-schema --no-annotations`: the
//! name then ends in ` (no annotations)`). The export shapes the import does not read back
//! (listed in the import's module docs) are pinned below, each with the problem it has, so
//! that a change in either direction shows.

use std::collections::BTreeSet;
use std::path::Path;

use contract_core::compat::{self, CompatReport};
use contract_core::schema::json_schema::{import, to_json_schema, without_annotations};
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
fn round_trip(schema: &Schema, annotations: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let export = |view| {
        let doc = to_json_schema(schema, view);
        if annotations {
            doc
        } else {
            without_annotations(doc)
        }
    };
    let receiver = import(&export(View::Receiver), View::Receiver);
    let sender = import(&export(View::Sender), View::Sender);
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
    // S's own findings (a type that cannot read what it writes has some) are the measure.
    let s_s = findings(&compat::check(schema, schema));
    let s_r = findings(&compat::check(schema, &r));
    if s_r != s_s {
        problems.push(format!(
            "check(S, R) finds {s_r:?} where check(S, S) finds {s_s:?}"
        ));
    }
    let w_s = findings(&compat::check(&w, schema));
    if w_s != s_s {
        problems.push(format!(
            "check(W, S) finds {w_s:?} where check(S, S) finds {s_s:?}"
        ));
    }
    let w_r = findings(&compat::check(&w, &r));
    if w_r != s_s {
        problems.push(format!(
            "check(W, R) finds {w_r:?} where check(S, S) finds {s_s:?}"
        ));
    }
    // The receiver view's export read as a producer's schema P (`handoff diff EXPORT.json
    // SNAP --mode check`): whatever it admits, S reads, so `check(P, S)` finds nothing.
    match import(&export(View::Receiver), View::Sender) {
        Ok(p) => {
            let p_s = findings(&compat::check(&p.schema, schema));
            if !p_s.is_empty() {
                problems.push(format!("check(R as a producer, S) finds {p_s:?}"));
            }
        }
        Err(e) => problems.push(format!("receiver view not imported as a producer: {e}")),
    }
    problems
}

/// Every problem of `cases`, `name: problem`, sorted.
fn problems<'a>(cases: impl IntoIterator<Item = (String, &'a Schema)>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, schema) in cases {
        for problem in round_trip(schema, true) {
            out.push(format!("{name}: {problem}"));
        }
        for problem in round_trip(schema, false) {
            out.push(format!("{name} (no annotations): {problem}"));
        }
    }
    out.sort();
    out
}

/// Each problem found is pinned (it starts with one of `pinned`), and each pinned problem is
/// found.
fn assert_pinned(found: &[String], pinned: &[&str]) {
    let unexpected: Vec<&String> = found
        .iter()
        .filter(|p| !pinned.iter().any(|pin| p.starts_with(pin)))
        .collect();
    let gone: Vec<&&str> = pinned
        .iter()
        .filter(|pin| !found.iter().any(|p| p.starts_with(**pin)))
        .collect();
    assert!(
        unexpected.is_empty() && gone.is_empty(),
        "not read back, and not pinned:\n{}\n\npinned, and now read back (unpin it):\n{}",
        unexpected
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        gone.iter().map(|s| **s).collect::<Vec<_>>().join("\n"),
    );
}

/// The snapshots of the repository whose export is not read back as it was, and why: none.
/// (An internally tagged newtype variant of a struct, written as a struct variant is, and
/// integer map keys, once read as `u128`, now read back: the engine compares the two variant
/// forms field by field, and a key's pattern holds its kind's digits.)
const SNAPSHOTS_NOT_READ_BACK: &[&str] = &[];

/// The catalogue's types whose export is not read back as it was, and why.
const CATALOGUE_NOT_READ_BACK: &[&str] = &[
    // A flattened enum's receiver view read as a producer's schema: `x-handoff-flattened`
    // says the enum by its definition, whose unit variant (read alone as `null`) a producer
    // writes beside the fields as nothing, which no flattened untagged enum reads. The
    // snapshot writes it too: `check(S, S)` finds the same.
    r#"FlattenUntaggedEnum: check(R as a producer, S) finds {"UNTAGGED_VARIANT_UNMATCHED (flatten placement)(Nowhere) (Check)"}"#,
    // Without annotations, a flattened enum is an `allOf` beside the struct's properties
    // whose inlined alternatives are opened for the struct's keys, which a consumer's
    // schema cannot drop.
    // The same without annotations.
    "FlattenAdjacentEnum (no annotations): receiver view not imported: #/$defs/FlattenAdjacentEnum/allOf/0: ",
    "FlattenCounted (no annotations): receiver view not imported: #/$defs/FlattenCounted/allOf/0: ",
    "FlattenExternal (no annotations): receiver view not imported: #/$defs/FlattenExternal/allOf/0: ",
    "FlattenInternalEnum (no annotations): receiver view not imported: #/$defs/FlattenInternalEnum/allOf/0: ",
    "FlattenOptionalEnums (no annotations): receiver view not imported: #/$defs/FlattenOptionalEnums/allOf/0: ",
    "FlattenRest (no annotations): receiver view not imported: #/$defs/FlattenRest/allOf/0: ",
    "FlattenUntaggedEnum (no annotations): receiver view not imported: #/$defs/FlattenUntaggedEnum/allOf/0: ",
    // Without annotations, the formats JSON Schema has no name for (`x-handoff-format`: an
    // address of either family, a socket address, a naive date-time, a time of day) are any
    // string: a producer's is read as writing any string, which the snapshot's format
    // does not read. JSON Schema cannot say these formats; the annotation is what says them.
    r#"NetAddrs (no annotations): check(W, S) finds {"STRING_FORMAT_CHANGED ip (Check)", "STRING_FORMAT_CHANGED socket (Check)", "STRING_FORMAT_CHANGED socket_v4 (Check)", "STRING_FORMAT_CHANGED socket_v6 (Check)"}"#,
    r#"NetAddrs (no annotations): check(R as a producer, S) finds {"STRING_FORMAT_CHANGED ip (Check)", "STRING_FORMAT_CHANGED socket (Check)", "STRING_FORMAT_CHANGED socket_v4 (Check)", "STRING_FORMAT_CHANGED socket_v6 (Check)"}"#,
    r#"TimeAndIds (no annotations): check(W, S) finds {"STRING_FORMAT_CHANGED naive (Check)", "STRING_FORMAT_CHANGED time (Check)"}"#,
    r#"TimeAndIds (no annotations): check(R as a producer, S) finds {"STRING_FORMAT_CHANGED naive (Check)", "STRING_FORMAT_CHANGED time (Check)"}"#,
];

/// A flattened enum in a producer's schema without the annotations: the `allOf` is dropped
/// with a warning and the object is read as open (the producer may write any other key), so
/// that nothing it writes is lost: `check(W, S)` then reports the keys S does not read only
/// where S denies unknown fields. With them, `x-handoff-flattened` names the enum.
#[test]
fn a_producers_flattened_enum_is_read_as_an_open_object_with_a_warning() {
    let s = <FlattenExternal as HandoffSchema>::schema();
    let annotated = import(&to_json_schema(&s, View::Sender), View::Sender).expect("it reads");
    assert_eq!(annotated.warnings, vec![]);
    let contract_core::schema::Body::Struct(def) = &annotated.schema.types["FlattenExternal"].body
    else {
        panic!("a struct");
    };
    let flattened: Vec<String> = def
        .flattened
        .iter()
        .map(|f| format!("{} {}", f.rust_name, f.ty))
        .collect();
    assert_eq!(flattened, ["payment Payment"]);
    let w = import(
        &without_annotations(to_json_schema(&s, View::Sender)),
        View::Sender,
    )
    .expect("a producer's reads");
    let pointers: Vec<&str> = w.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(pointers, ["/$defs/FlattenExternal/allOf/0"]);
    let contract_core::schema::Body::Struct(def) = &w.schema.types["FlattenExternal"].body else {
        panic!("a struct");
    };
    assert_eq!(def.unknown, contract_core::schema::model::Unknown::Capture);
    assert_eq!(def.extra, Some(contract_core::schema::Type::Any));
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
        let name = path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
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
    assert_pinned(&found, SNAPSHOTS_NOT_READ_BACK);
}

macro_rules! catalogue {
    ($($ty:ty),* $(,)?) => {
        vec![$((stringify!($ty).to_owned(), <$ty as HandoffSchema>::schema())),*]
    };
}

/// The catalogue's non-generic types that derive a schema, read from `src/types.rs`: each
/// item's attributes (from the end of the item before it) name `HandoffSchema` or
/// `HandoffContract`.
fn catalogue_names() -> Vec<String> {
    let source = include_str!("../src/types.rs");
    let mut names = Vec::new();
    let mut attributes = String::new();
    for line in source.lines() {
        let trimmed = line.trim_start();
        let item = trimmed
            .strip_prefix("pub struct ")
            .or_else(|| trimmed.strip_prefix("pub enum "));
        match item {
            Some(rest) if line == trimmed => {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let generic = rest[name.len()..].starts_with('<');
                if attributes.contains("Handoff") && !generic {
                    names.push(name);
                }
                attributes.clear();
            }
            _ if line.starts_with('}') => attributes.clear(),
            _ => {
                attributes.push_str(line);
                attributes.push('\n');
            }
        }
    }
    names
}

#[test]
fn every_catalogue_type_reads_back() {
    let all = contract_tests::with_catalogue!(catalogue);
    // A new catalogue type joins the list above.
    let listed: BTreeSet<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    let names = catalogue_names();
    assert_eq!(names.len(), all.len(), "{names:?}");
    let missing: Vec<String> = names
        .into_iter()
        .filter(|n| !listed.contains(n.as_str()))
        .collect();
    assert!(missing.is_empty(), "add to the list: {missing:?}");
    let found = problems(all.iter().map(|(n, s)| (n.clone(), s)));
    assert_pinned(&found, CATALOGUE_NOT_READ_BACK);
}

/// The shapes no catalogue type or snapshot has (a schema written by hand, with its own
/// `Shape`, may have them; the generated contracts of `contract-schema`'s
/// `json_schema_readback_props` do) whose export is not read back without its annotations,
/// each with what the round trip then finds. With the annotations each reads back.
#[test]
fn hand_written_shapes_read_back_by_their_annotations_only() {
    let cases: &[(&str, &[&str])] = &[
        // An integer bounded past 64 bits: a JSON number of the export cannot hold the
        // bound, which is left out of `minimum`; `x-handoff-integers` says the values.
        // Without it the export bounds nothing, read as `i128`: the snapshot writes values
        // past `i128`'s greatest, and the producer's schema writes values below 2^64.
        (
            "root u128(18446744073709551616..)\n",
            &[
                r#"check(S, R) finds {"INT_OUT_OF_RANGE  (Check)"} where check(S, S) finds {}"#,
                r#"check(W, S) finds {"INT_OUT_OF_RANGE  (Check)"} where check(S, S) finds {}"#,
                r#"check(R as a producer, S) finds {"INT_OUT_OF_RANGE  (Check)"}"#,
            ],
        ),
    ];
    for (text, expected) in cases {
        let schema = contract_core::schema::text::parse(text).expect("the text parses");
        assert_eq!(round_trip(&schema, true), Vec::<String>::new(), "{text}");
        let problems = round_trip(&schema, false);
        let expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(problems, expected, "{text}");
    }
}
