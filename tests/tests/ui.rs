//! Compile-time diagnostics and what must compile: the cases of `ui/compile-fail/` (each with
//! its blessed `.stderr`) and `ui/compile-pass/`, in one of two modes chosen by the environment
//! variable `HANDOFF_UI`:
//!
//! - `HANDOFF_UI=exact`: trybuild compares each compile-fail case's whole output with its
//!   `.stderr` and runs each compile-pass case. Compiler wording drifts between releases, so
//!   this only holds on the compiler the `.stderr` files were blessed on, rustc 1.95.
//! - `HANDOFF_UI=lines`: each compile-fail case must fail to compile, and every line of its
//!   `.stderr` that this crate wrote (the rule is in the docs of the `own_lines` module: an
//!   `error:` without an error code, with the lines of its message) must be in the compiler's
//!   output; each compile-pass case must compile (its `main` is not run). These lines do not
//!   drift between compilers, so this mode holds on any of them.
//!
//! Unset (or empty), the mode is `exact` on rustc 1.95 and `lines` on any other compiler: no
//! compiler skips the cases. CI runs both on 1.95 (`.ci/run`), so that the `lines` mode keeps
//! working. To bless the `.stderr` files again, on rustc 1.95:
//! `TRYBUILD=overwrite cargo test -p contract-tests --test ui`, then review every diff.
//!
//! The cases whose contracts are published (`published-*`) need their snapshots in the
//! default `contracts` folder of the crate the cases are compiled in. In the `exact` mode that
//! is the crate trybuild generates, whose `CARGO_MANIFEST_DIR` is
//! `<target>/tests/trybuild/contract-tests/`; in the `lines` mode, the one generated under
//! `<target>/tmp/ui-lines/`. The committed fixtures of `ui/contracts/` are copied there before
//! the cases run, so the user-facing rule ("relative to `Cargo.toml`") holds there too.

use std::path::{Path, PathBuf};

use contract_core::schema::snapshot;

#[path = "ui/own_lines.rs"]
mod own_lines;

/// The environment variable that chooses how the ui cases are checked: `exact` or `lines`.
const MODE_VAR: &str = "HANDOFF_UI";

/// How the ui cases are checked (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// trybuild: the whole output against the `.stderr`, compile-pass cases run.
    Exact,
    /// This crate's own lines of the `.stderr` in the output, compile-pass cases compile.
    Lines,
}

/// Whether this test is compiled by the rustc the `.stderr` files were blessed on; the nested
/// builds of both modes use the same toolchain (cargo's `CARGO`).
#[rustversion::stable(1.95)]
const BLESSED_COMPILER: bool = true;
#[rustversion::not(stable(1.95))]
const BLESSED_COMPILER: bool = false;

/// The mode `HANDOFF_UI` asks for, or the default for this compiler.
fn mode() -> Mode {
    let value = std::env::var(MODE_VAR).unwrap_or_default();
    match value.as_str() {
        "exact" => Mode::Exact,
        "lines" => Mode::Lines,
        "" if BLESSED_COMPILER => Mode::Exact,
        "" => Mode::Lines,
        other => panic!(
            "{MODE_VAR}={other:?}: expected `exact` (trybuild, the whole output against each \
             `.stderr`) or `lines` (this crate's own lines of each `.stderr`); unset, it is \
             `exact` on rustc 1.95 and `lines` on any other compiler"
        ),
    }
}

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

/// Copies the published fixture snapshots into the `contracts` folder of the project the ui
/// cases are compiled in, where their contracts look for them; a file already there with the
/// same bytes is left alone (so that what read it is not rebuilt), and a snapshot there that is
/// no longer a fixture is removed. Returns how many fixtures there are.
fn publish_fixtures(project: &Path) -> usize {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/contracts");
    let to = project.join("contracts");
    std::fs::create_dir_all(&to).expect("create the contracts folder of the ui project");
    let mut fixtures = Vec::new();
    for entry in std::fs::read_dir(&from).expect("ui/contracts exists") {
        let path = entry.expect("a directory entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // The snapshot of a contract version, by the convention the derive looks it up by.
        if snapshot::parse_file_name(name).is_some() {
            let bytes = std::fs::read(&path).expect("read a fixture snapshot");
            let dest = to.join(name);
            if std::fs::read(&dest).ok().as_deref() != Some(bytes.as_slice()) {
                std::fs::write(&dest, bytes).expect("copy a fixture snapshot");
            }
            fixtures.push(name.to_owned());
        }
    }
    for entry in std::fs::read_dir(&to).expect("the contracts folder of the ui project") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if snapshot::parse_file_name(name).is_some() && !fixtures.iter().any(|f| f == name) {
            std::fs::remove_file(&path).expect("remove a snapshot that is no longer a fixture");
        }
    }
    fixtures.len()
}

#[test]
fn ui() {
    let mode = mode();
    // Shown with `--nocapture`, and with the failure if there is one.
    println!(
        "ui cases, {MODE_VAR}={}{}",
        match mode {
            Mode::Exact => "exact",
            Mode::Lines => "lines",
        },
        if std::env::var_os(MODE_VAR).is_some_and(|v| !v.is_empty()) {
            ""
        } else if BLESSED_COMPILER {
            " (the default on rustc 1.95, which blessed the .stderr files)"
        } else {
            " (the default on a compiler other than rustc 1.95, which blessed the .stderr files)"
        }
    );
    match mode {
        Mode::Exact => {
            assert!(
                publish_fixtures(&trybuild_project()) > 0,
                "no fixture snapshot in ui/contracts"
            );
            let t = trybuild::TestCases::new();
            t.compile_fail("ui/compile-fail/*.rs");
            t.pass("ui/compile-pass/*.rs");
        }
        Mode::Lines => own_lines::run(),
    }
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
