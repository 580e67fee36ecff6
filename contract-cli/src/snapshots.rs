//! Reading snapshot files and `contracts/` folders, through `contract_schema::snapshot`:
//! every error names the file, and for contents that do not parse, the line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use contract_schema::snapshot;
use contract_schema::{ContractId, Schema};

/// Reads and parses one snapshot file.
///
/// # Errors
///
/// The [`snapshot::SnapshotError`]'s message: `PATH: MESSAGE` when it cannot be read,
/// `PATH:LINE:COLUMN: MESSAGE` when it is not UTF-8 or does not parse.
pub fn read(path: &Path) -> Result<Schema, String> {
    snapshot::read(path).map_err(|e| e.to_string())
}

/// The snapshot files of a folder.
#[derive(Debug, Default)]
pub struct Listing {
    /// The snapshot files, by contract version.
    pub snapshots: BTreeMap<ContractId, PathBuf>,
    /// Files that look meant as snapshots (`*.v*.snap`) but whose name no contract version
    /// has (`Refund.v1.snap`, `refund.v01.snap`): left out, and worth a warning, since a
    /// published version left out is a version nobody checks.
    pub misnamed: Vec<PathBuf>,
}

/// The snapshot files of a folder, by contract version. Other files (`*.snap.new` pending
/// review, READMEs, other snapshots) are left out; those that look meant as contract
/// snapshots are listed apart.
///
/// # Errors
///
/// `PATH: MESSAGE` when the folder cannot be listed.
pub fn list(dir: &Path) -> Result<Listing, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot list the snapshot folder: {e}", dir.display()))?;
    let mut out = Listing::default();
    for entry in entries {
        let entry = entry
            .map_err(|e| format!("{}: cannot list the snapshot folder: {e}", dir.display()))?;
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        match snapshot::parse_file_name(name) {
            Some(id) => {
                out.snapshots.insert(id, path);
            }
            None if snapshot::has_snapshot_form(name) => out.misnamed.push(path),
            None => {}
        }
    }
    out.misnamed.sort();
    Ok(out)
}

/// The warning for a file [`list`] left out as misnamed.
#[must_use]
pub fn misnamed_warning(path: &Path) -> String {
    format!(
        "warning: {}: left out: a contract snapshot is named `<name>.v<N>.snap`, the name in \
         lowercase words joined by `-` and the version without leading zeros",
        path.display()
    )
}
