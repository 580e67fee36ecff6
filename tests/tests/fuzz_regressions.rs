//! Every input the fuzz target of `receive` (`fuzz/`) failed on, and its seed corpus, replayed
//! through the same properties (`contract_tests::fuzz::check_receive`), so CI keeps them.

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
