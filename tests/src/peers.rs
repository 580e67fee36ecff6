//! Where the peers in other languages run from, shared by `interop_export.rs` and `peers.rs`:
//! the workspace's folder, the Python of the venv `.ci/run` makes, Node.js with the packages
//! of `interop/js`, and the rule for a peer that is missing (a loud skip, a failure under
//! `CI=true`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root folder (the tests crate's parent).
#[must_use]
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// Whether `CI=true`: a missing peer is then a failure, not a skip.
#[must_use]
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Skips loudly (`SKIPPED: {what}` on stderr), or fails under `CI=true`, where `.ci/run` has
/// installed the peers before the tests.
///
/// # Panics
///
/// Under `CI=true`, always.
pub fn skip(what: &str) {
    assert!(
        !in_ci(),
        "CI=true, yet {what}: .ci/run installs them before the tests"
    );
    eprintln!("SKIPPED: {what}");
}

/// The Python of the venv with `interop/py/requirements.txt`: `HANDOFF_INTEROP_PYTHON`, else
/// `interop/py/.venv/bin/python` when it exists.
#[must_use]
pub fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HANDOFF_INTEROP_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = workspace().join("interop/py/.venv/bin/python");
    venv.exists().then_some(venv)
}

/// Whether `node` runs and `interop/js`'s packages are installed (`npm ci --prefix
/// interop/js`).
#[must_use]
pub fn node_ready() -> bool {
    workspace().join("interop/js/node_modules").is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
}
