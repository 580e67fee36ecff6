//! Every snapshot of the repository (`examples/contracts/`, `tests/contracts/`) exported in
//! each view, with and without its annotations, and read back by the import in that view's
//! role: the producer's schema W (the sender view) against the snapshot S as the reader,
//! `check(W, S)`, and S as the writer against the consumer's schema R (the receiver view),
//! `check(S, R)`, find nothing.

use std::path::{Path, PathBuf};

use contract_schema::compat;
use contract_schema::json_schema::{import, to_json_schema, without_annotations, View};
use contract_schema::{snapshot, Schema};

fn snapshots() -> Vec<(String, Schema)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in ["examples/contracts", "tests/contracts"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("the folder exists") {
            let path = entry.expect("readable").path();
            if path.extension().is_some_and(|e| e == "snap") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let schema = snapshot::read(&path).expect("a snapshot reads");
            let name = format!(
                "{}/{}",
                path.parent()
                    .and_then(Path::file_name)
                    .and_then(|_| path.parent()?.parent()?.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path.file_name().expect("a file").to_string_lossy()
            );
            (name, schema)
        })
        .collect()
}

/// The findings of reading `schema`'s export in `view` back, `annotations` kept or not.
fn read_back(schema: &Schema, view: View, annotations: bool, role: View) -> Vec<String> {
    let mut export = to_json_schema(schema, view);
    if !annotations {
        export = without_annotations(export);
    }
    let imported = match import(&export, role) {
        Ok(imported) => imported.schema,
        Err(e) => return vec![format!("not imported: {e}")],
    };
    let report = match role {
        View::Sender => compat::check(&imported, schema),
        View::Receiver => compat::check(schema, &imported),
    };
    report
        .findings()
        .iter()
        .map(|f| format!("{} {}", f.rule.id(), f.path))
        .collect()
}

/// The pairs that do not read back, and why: none. (A receiver view read as a producer's
/// schema, what `handoff diff EXPORT.json SNAP` does with any export, says of a field read
/// under several keys "exactly one of these keys", the export's `oneOf` of `required` keys:
/// the import reads such an object as the alternatives a producer may write, one key each,
/// which the snapshot reads, so these pairs read back too.)
const NOT_READ_BACK: &[&str] = &[];

/// Each view's export, with and without annotations, read back in both roles: as the
/// producer's schema W (`check(W, S)`) and as the consumer's R (`check(S, R)`). In the
/// matching role (a sender view as a producer's, a receiver view as a consumer's) every
/// snapshot reads back with no finding; in the other, all but [`NOT_READ_BACK`] (none).
#[test]
fn every_snapshot_reads_back_in_both_views_with_and_without_annotations() {
    let all = snapshots();
    assert!(all.len() >= 25, "{} snapshots", all.len());
    let mut failing = Vec::new();
    for annotations in [true, false] {
        for (name, schema) in &all {
            for view in [View::Sender, View::Receiver] {
                for role in [View::Sender, View::Receiver] {
                    let findings = read_back(schema, view, annotations, role);
                    if !findings.is_empty() {
                        failing.push(format!(
                            "{name} {view:?} as {role:?} (annotations: {annotations}): {findings:?}"
                        ));
                    }
                }
            }
        }
    }
    failing.sort();
    let mut pinned: Vec<String> = NOT_READ_BACK.iter().map(|s| (*s).to_owned()).collect();
    pinned.sort();
    assert_eq!(
        failing,
        pinned,
        "{} of {} pairs do not read back",
        failing.len(),
        all.len() * 8
    );
}
