//! Compile-time diagnostics and what must compile, with trybuild.
//!
//! Compiler wording drifts between releases, so the cases run only on the compiler their
//! `.stderr` files were blessed on (as thiserror gates its ui tests). To bless them again:
//! `TRYBUILD=overwrite cargo test -p contract-tests --test ui`, then review every diff.
//!
//! The cases whose contracts are published (`published-*`) need their snapshots in the
//! default `contracts` folder of the crate trybuild generates, whose `CARGO_MANIFEST_DIR` is
//! `<target>/tests/trybuild/contract-tests/`: the committed fixtures of `ui/contracts/` are
//! copied there before the cases run, so the user-facing rule ("relative to `Cargo.toml`")
//! holds inside trybuild too.

use std::path::{Path, PathBuf};

/// trybuild's generated project for this crate: `<target>/tests/trybuild/<crate name>`.
fn trybuild_project() -> PathBuf {
    // `CARGO_TARGET_TMPDIR` is `<target>/tmp`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is inside the target directory");
    target
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"))
}

/// Copies the published fixture snapshots where the ui cases' contracts look for them.
fn publish_fixtures() -> usize {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/contracts");
    let to = trybuild_project().join("contracts");
    std::fs::create_dir_all(&to).expect("create the trybuild contracts folder");
    let mut copied = 0;
    for entry in std::fs::read_dir(&from).expect("ui/contracts exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "snap") {
            let name = path.file_name().expect("a file name");
            std::fs::copy(&path, to.join(name)).expect("copy a fixture snapshot");
            copied += 1;
        }
    }
    copied
}

#[rustversion::attr(not(stable(1.95)), ignore = "ui tests are blessed on rustc 1.95")]
#[test]
fn ui() {
    assert!(
        publish_fixtures() > 0,
        "no fixture snapshot in ui/contracts"
    );
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/compile-fail/*.rs");
    t.pass("ui/compile-pass/*.rs");
}

/// Every fixture but the deliberately unreadable one is canonical text, so that a case
/// fails for the reason it is named after.
#[test]
fn fixture_snapshots_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/contracts");
    let mut parsed = 0;
    for entry in std::fs::read_dir(dir).expect("ui/contracts exists") {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).expect("a text file");
        let result = contract_core::schema::snapshot::parse(&text);
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("published-unreadable-snapshot") {
            assert!(result.is_err(), "{name} must not parse");
        } else {
            let schema = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            let id = schema.contract.expect("a contract snapshot").to_string();
            assert_eq!(format!("{}.snap", id.replace("/v", ".v")), name);
            parsed += 1;
        }
    }
    assert!(parsed >= 10, "{parsed}");
}
