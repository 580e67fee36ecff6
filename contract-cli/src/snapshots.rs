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

/// The snapshot files of a folder, by contract version. Other files (`*.snap.new` pending
/// review, READMEs, names no contract may have) are left out.
///
/// # Errors
///
/// `PATH: MESSAGE` when the folder cannot be listed.
pub fn list(dir: &Path) -> Result<BTreeMap<ContractId, PathBuf>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot list the snapshot folder: {e}", dir.display()))?;
    let mut out = BTreeMap::new();
    for entry in entries {
        let entry = entry
            .map_err(|e| format!("{}: cannot list the snapshot folder: {e}", dir.display()))?;
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let Some(id) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(snapshot::parse_file_name)
        else {
            continue;
        };
        out.insert(id, path);
    }
    Ok(out)
}
