//! Every input the fuzz targets (`fuzz/`) failed on, and their seed corpora, replayed through
//! the same properties, so CI keeps them: `receive`'s (`contract_tests::fuzz::check_receive`),
//! the snapshot files' (`check_snapshot`) and the peers' JSON Schemas' (`check_import`).

use std::path::Path;

#[test]
fn every_fuzz_finding_and_seed_keeps_its_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut replayed = 0;
    for dir in [
        root.join("tests/fixtures/fuzz"),
        root.join("../fuzz/corpus/receive"),
    ] {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a readable entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let data = std::fs::read(&path).expect("a readable file");
            contract_tests::fuzz::check_receive(&data);
            replayed += 1;
        }
    }
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
        &["../fuzz/corpus/import"],
        contract_tests::fuzz::check_import,
    );
    assert!(replayed >= 17, "only {replayed} inputs replayed");
}

/// A string enum with a `#[serde(other)]` variant, as a consumer's export writes it: the
/// variant's own name (`const`) and the catch-all (any other string), both titled with the
/// variant's name. Read as a consumer's schema, the catch-all becomes a second variant of
/// that name (received as its title), a schema whose canonical text does not read back ("a
/// second variant `Other`"). Found by the `import` target's seed of the envelope's export.
#[test]
#[ignore = "json_schema::import reads a catch-all titled as a variant already read as a second variant of that name"]
fn a_catch_all_beside_its_own_name_is_imported_as_one_variant() {
    let doc = br#"{"title":"S","type":"string","oneOf":[{"const":"other","title":"Other"},{"not":{"enum":["other"]},"title":"Other","x-handoff-catch-all":true}]}"#;
    contract_tests::fuzz::check_imported_text(doc);
}
