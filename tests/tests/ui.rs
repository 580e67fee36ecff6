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

use contract_core::schema::snapshot;

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
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // The snapshot of a contract version, by the convention the derive looks it up by.
        if snapshot::parse_file_name(name).is_some() {
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

/// Every fixture is named as the snapshot of a contract version, and every one but the
/// deliberately unreadable one is the canonical text of that version, so that a case fails
/// for the reason it is named after.
#[test]
fn fixture_snapshots_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/contracts");
    let mut parsed = 0;
    for entry in std::fs::read_dir(dir).expect("ui/contracts exists") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let id = snapshot::parse_file_name(name)
            .unwrap_or_else(|| panic!("{name} is not named `<contract>.v<N>.snap`"));
        let result = snapshot::read(&path);
        if id.name == "published-unreadable-snapshot" {
            assert!(result.is_err(), "{name} must not parse");
        } else {
            let schema = result.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(schema.contract, Some(id), "{name} holds another contract");
            parsed += 1;
        }
    }
    assert!(parsed >= 10, "{parsed}");
}
