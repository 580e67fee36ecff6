//! Provider dialects of the JSON Schema export (`contract_schema::json_schema::dialect`),
//! proven by the compatibility engine: every snapshot of `examples/contracts/` and
//! `tests/contracts/` and every type of the fidelity catalogue, in each dialect, either
//! exports, and the export imported back as a producer's schema is compatible with the
//! contract (0 findings), or is refused with located problems. The tally of what narrowed,
//! what was refused and why is printed and pinned.

use std::collections::BTreeMap;
use std::path::Path;

use contract_core::compat;
use contract_core::schema::json_schema::dialect::{to_dialect, Dialect};
use contract_core::schema::json_schema::import;
use contract_core::{HandoffSchema, Schema, View};
use contract_tests::types::*;

/// What the dialects did with a set of contracts.
#[derive(Default, Debug)]
struct Tally {
    exported: usize,
    narrowed: usize,
    refused: usize,
    /// `dialect NARROWING` → how many places.
    narrowings: BTreeMap<String, usize>,
    /// `dialect RULE` → how many contracts.
    refusals: BTreeMap<String, usize>,
    /// An export the engine finds looser than the receiver: must stay empty.
    unproven: Vec<String>,
}

fn run(cases: &[(String, Schema)]) -> Tally {
    let mut tally = Tally::default();
    for (name, schema) in cases {
        for dialect in Dialect::ALL {
            match to_dialect(schema, dialect) {
                Ok(export) => {
                    tally.exported += 1;
                    if !export.warnings.is_empty() {
                        tally.narrowed += 1;
                    }
                    for w in &export.warnings {
                        assert!(w.pointer.is_empty() || w.pointer.starts_with('/'), "{w}");
                        *tally
                            .narrowings
                            .entry(format!("{dialect} {}", w.kind.id()))
                            .or_default() += 1;
                    }
                    match import(&export.schema, View::Sender) {
                        Ok(imported) => {
                            let report = compat::check(&imported.schema, schema);
                            if !report.findings().is_empty() {
                                tally.unproven.push(format!(
                                    "{name} in {dialect}: {report}\n{}",
                                    export.schema
                                ));
                            }
                        }
                        Err(e) => tally.unproven.push(format!(
                            "{name} in {dialect}: not imported: {e}\n{}",
                            export.schema
                        )),
                    }
                }
                Err(e) => {
                    tally.refused += 1;
                    assert!(!e.problems.is_empty());
                    let line = e.to_string();
                    assert!(
                        line.starts_with(dialect.name()) && !line.contains('\n'),
                        "{line}"
                    );
                    let mut rules: Vec<&str> = e.problems.iter().map(|p| p.rule.id()).collect();
                    rules.sort_unstable();
                    rules.dedup();
                    for rule in rules {
                        *tally
                            .refusals
                            .entry(format!("{dialect} {rule}"))
                            .or_default() += 1;
                    }
                }
            }
        }
    }
    tally
}

fn snapshots(dir: &Path) -> Vec<(String, Schema)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "snap"))
        .collect();
    entries.sort();
    entries
        .into_iter()
        .map(|path| {
            let schema = contract_core::schema::snapshot::read(&path).expect("a snapshot reads");
            let name = path
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            (name, schema)
        })
        .collect()
}

macro_rules! catalogue {
    ($($ty:ty),* $(,)?) => {
        vec![$((stringify!($ty).to_owned(), <$ty as HandoffSchema>::schema())),*]
    };
}

#[test]
fn every_snapshot_exports_proven_or_is_refused_with_its_place() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = snapshots(&root.join("../examples/contracts"));
    all.extend(snapshots(&root.join("contracts")));
    let tally = run(&all);
    println!("snapshots: {tally:#?}");
    assert!(tally.unproven.is_empty(), "{}", tally.unproven.join("\n\n"));
}

#[test]
fn every_catalogue_type_exports_proven_or_is_refused_with_its_place() {
    let all = contract_tests::with_catalogue!(catalogue);
    let tally = run(&all);
    println!("catalogue: {tally:#?}");
    assert!(tally.unproven.is_empty(), "{}", tally.unproven.join("\n\n"));
}

#[test]
fn a_root_the_dialect_cannot_hold_is_one_line_naming_dialect_pointer_and_rule() {
    // A string enum at the root: OpenAI and Anthropic demand an object, Gemini takes it.
    let schema = <Category as HandoffSchema>::schema();
    for dialect in [Dialect::OpenAiStrict, Dialect::Anthropic] {
        let e = to_dialect(&schema, dialect).expect_err("an enum root");
        assert_eq!(e.problems[0].pointer, "");
        let line = e.to_string();
        assert!(
            line.starts_with(&format!("{dialect}: #: ROOT_NOT_OBJECT: ")),
            "{line}"
        );
    }
    let gemini = to_dialect(&schema, Dialect::Gemini).expect("Gemini takes any root");
    assert_eq!(gemini.schema["type"], "string");
}

#[test]
fn an_optional_field_is_a_null_alternative_for_openai_and_left_out_of_required_elsewhere() {
    let schema = <RefundRequest as HandoffSchema>::schema();
    let openai = to_dialect(&schema, Dialect::OpenAiStrict).expect("exports");
    let properties = openai.schema["properties"].as_object().expect("properties");
    let required = openai.schema["required"].as_array().expect("required");
    assert_eq!(properties.len(), required.len(), "every property required");
    assert_eq!(openai.schema["additionalProperties"], false);
    for dialect in [Dialect::Anthropic, Dialect::Gemini] {
        if let Ok(export) = to_dialect(&schema, dialect) {
            let required = export.schema["required"].as_array().expect("required");
            assert!(
                required.len() < properties.len(),
                "{dialect}: {}",
                export.schema
            );
        }
    }
}

/// The first enum of an imported schema.
fn first_enum(schema: &Schema) -> contract_core::schema::model::EnumDef {
    schema
        .types
        .values()
        .find_map(|d| match &d.body {
            contract_core::schema::Body::Enum(e) => Some(e.clone()),
            _ => None,
        })
        .expect("an enum")
}

#[test]
fn the_import_reads_the_dialect_forms_of_enums() {
    use contract_core::schema::model::{Repr, VariantDefKind};
    use serde_json::json;
    // Every object closed: a tagged unit variant is the tag alone, closed. A producer writes
    // what a unit variant writes; a consumer's closed object denies other keys, which a unit
    // variant ignores, so it stays a struct of no fields.
    let internal = json!({"anyOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "enum": ["a"]}},
         "required": ["kind"], "additionalProperties": false},
        {"type": "object", "properties": {"kind": {"type": "string", "enum": ["b"]},
         "x": {"type": "string"}}, "required": ["kind", "x"], "additionalProperties": false},
    ]});
    let producer = first_enum(&import(&internal, View::Sender).expect("imports").schema);
    assert_eq!(producer.variants[0].kind, VariantDefKind::Unit);
    let consumer = first_enum(&import(&internal, View::Receiver).expect("imports").schema);
    assert!(matches!(
        consumer.variants[0].kind,
        VariantDefKind::Struct(_)
    ));
    // Without `oneOf` (OpenAI and Anthropic have none), the tagged variants of an enum with
    // untagged ones are an `anyOf` first among the alternatives.
    let with_untagged = json!({"anyOf": [
        {"anyOf": [
            {"type": "object", "properties": {"A": {"type": "string"}}, "required": ["A"],
             "additionalProperties": false},
            {"type": "string", "const": "B"},
        ]},
        {"type": "boolean"},
    ]});
    let e = first_enum(
        &import(&with_untagged, View::Sender)
            .expect("imports")
            .schema,
    );
    assert_eq!(e.repr, Repr::External);
    assert_eq!(e.variants.len(), 3);
    assert!(e.variants[2].untagged);
}
