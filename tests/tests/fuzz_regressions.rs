//! Every input the fuzz targets (`fuzz/`) failed on, and their seed corpora, replayed through
//! the same properties, so CI keeps them: `receive`'s (`contract_tests::fuzz::check_receive`),
//! the snapshot files' (`check_snapshot`) and the peers' JSON Schemas' (`check_import`).

use std::collections::BTreeSet;
use std::path::Path;

use contract_core::schema::json_schema::{self, View};
use contract_core::schema::model::{Body, VariantDef};
use serde_json::json;

#[test]
fn every_fuzz_finding_and_seed_keeps_its_properties() {
    let replayed = replay(
        &["tests/fixtures/fuzz", "../fuzz/corpus/receive"],
        contract_tests::fuzz::check_receive,
    );
    assert!(replayed >= 6, "only {replayed} inputs replayed");
}

/// Every file of `dirs` (relative to this crate), in name order, through `check`; how many.
fn replay(dirs: &[&str], check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut replayed = 0;
    for dir in dirs {
        let dir = root.join(dir);
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a readable entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let data = std::fs::read(&path).expect("a readable file");
            check(&data);
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn every_snapshot_seed_keeps_its_properties() {
    let replayed = replay(
        &["../fuzz/corpus/snapshot"],
        contract_tests::fuzz::check_snapshot,
    );
    assert!(replayed >= 16, "only {replayed} inputs replayed");
}

#[test]
fn every_json_schema_seed_keeps_its_properties() {
    let replayed = replay(
        &["tests/fixtures/fuzz-import", "../fuzz/corpus/import"],
        contract_tests::fuzz::check_import,
    );
    assert!(replayed >= 18, "only {replayed} inputs replayed");
}

/// Two properties annotated with one Rust name (an alias whose `allOf` group is gone, as
/// the import fuzz target found) are two fields of distinct names, each warned at: a
/// struct's fields are named apart, as a Rust struct's are, and the text reads back.
#[test]
fn properties_annotated_with_one_rust_name_are_fields_of_distinct_names() {
    let doc = json!({"title": "R", "type": "object", "properties": {
        "orderId": {"type": "string", "x-handoff-rust": "order_id"},
        "orderRef": {"type": "string", "x-handoff-rust": "order_id"},
        "order_id_2": {"type": "string"},
    }});
    for view in [View::Sender, View::Receiver] {
        let imported = json_schema::import(&doc, view).expect("imports");
        let Some(Body::Struct(def)) = imported.schema.def("R").map(|d| &d.body) else {
            panic!("R is a struct: {:?}", imported.schema);
        };
        let names: BTreeSet<_> = def.fields.iter().map(|f| f.rust_name.as_str()).collect();
        assert_eq!(
            names,
            BTreeSet::from(["order_id", "order_id_2", "order_id_3"]),
            "{view:?}"
        );
        let warned: Vec<_> = imported
            .warnings
            .iter()
            .map(|w| w.pointer.as_str())
            .collect();
        assert_eq!(warned, ["/properties/orderRef"], "{view:?}");
        contract_tests::fuzz::check_import(doc.to_string().as_bytes());
    }
    // A name `required` lists twice, without a property, is one field; one that a
    // property's annotation takes too is warned at `required`.
    let doc = json!({"title": "R", "type": "object",
        "properties": {"contextId": {"type": "string", "x-handoff-rust": "context_id"}},
        "required": ["context_id", "context_id"]});
    for view in [View::Sender, View::Receiver] {
        let imported = json_schema::import(&doc, view).expect("imports");
        let Some(Body::Struct(def)) = imported.schema.def("R").map(|d| &d.body) else {
            panic!("R is a struct: {:?}", imported.schema);
        };
        let names: Vec<_> = def.fields.iter().map(|f| f.rust_name.as_str()).collect();
        assert_eq!(names, ["context_id", "context_id_2"], "{view:?}");
        let warned: Vec<_> = imported
            .warnings
            .iter()
            .map(|w| w.pointer.as_str())
            .collect();
        assert_eq!(warned, ["/required"], "{view:?}");
        contract_tests::fuzz::check_import(doc.to_string().as_bytes());
    }
}

/// The names of the variants of the enum `name` that `doc` imports to as a consumer's schema.
fn imported_variants(doc: &serde_json::Value, name: &str) -> Vec<VariantDef> {
    let imported = json_schema::import(doc, View::Receiver).expect("the document imports");
    match imported.schema.types.get(name).map(|def| &def.body) {
        Some(Body::Enum(e)) => e.variants.clone(),
        other => panic!("`{name}` is not an enum: {other:?}"),
    }
}

/// A string enum with a `#[serde(other)]` variant, as a consumer's export writes it: the
/// variant's own name (`const`) and the catch-all (any other string), both titled with the
/// variant's name. Read as a consumer's schema it is that one variant, reading its own name
/// and any other string; it was read as a second variant of that name, received under its
/// title (two variants `Other` in one enum, a schema the canonical text refuses). Found by
/// the `import` target's seed of the envelope's export, with the text's round trip checked.
#[test]
fn a_catch_all_beside_its_own_name_is_imported_as_one_variant() {
    let doc = json!({"title": "S", "type": "string", "oneOf": [
        {"const": "other", "title": "Other"},
        {"not": {"enum": ["other"]}, "title": "Other", "x-handoff-catch-all": true}
    ]});
    let variants = imported_variants(&doc, "S");
    assert_eq!(variants.len(), 1, "{variants:?}");
    assert_eq!(variants[0].rust_name, "Other");
    assert_eq!(variants[0].receiver, ["other"]);
    assert!(variants[0].other, "not the catch-all: {variants:?}");
}

/// A peer's alternatives titled alike (the titles are the peer's, free text) name variants
/// apart (`X`, `X_2`), as a Rust enum's are: they were two variants of one name.
#[test]
fn alternatives_titled_alike_are_imported_as_variants_of_distinct_names() {
    let doc = json!({"title": "S", "oneOf": [
        {"const": "a", "title": "X"},
        {"const": "b", "title": "X"}
    ]});
    let variants = imported_variants(&doc, "S");
    let names: BTreeSet<_> = variants.iter().map(|v| v.rust_name.as_str()).collect();
    assert_eq!(names.len(), variants.len(), "{variants:?}");
}

/// A schema of several types (`type: ["object", "string"]`) is read as one alternative per
/// type, each the schema itself with one type: what its `properties` hold is located at
/// `/properties/…`, where it is in the document. A warning inside it pointed under `type`
/// (`/type/properties/orderRef`), a place the document does not have. Found by the `import`
/// target (the input is replayed above).
#[test]
fn a_schema_of_several_types_is_located_at_its_own_keywords() {
    let doc = json!({"title": "R", "type": ["object", "string"], "properties": {
        "orderId": {"type": "string", "x-handoff-rust": "order_id"},
        "orderRef": {"type": "string", "x-handoff-rust": "order_id"},
    }});
    for view in [View::Sender, View::Receiver] {
        let imported = json_schema::import(&doc, view).expect("imports");
        let pointers: Vec<&str> = imported
            .warnings
            .iter()
            .map(|w| w.pointer.as_str())
            .collect();
        assert!(
            pointers.contains(&"/properties/orderRef"),
            "{view:?}: {pointers:?}"
        );
        for pointer in pointers {
            assert!(doc.pointer(pointer).is_some(), "{view:?}: {pointer}");
        }
    }
}
