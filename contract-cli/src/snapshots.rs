//! Reading snapshot files and `contracts/` folders. Every error names the file, and for a
//! text that does not parse, the line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use contract_schema::snapshot::parse as parse_snapshot;
use contract_schema::Schema;

/// Reads and parses one snapshot file.
///
/// # Errors
///
/// `PATH: MESSAGE` when it cannot be read, `PATH:LINE:COLUMN: MESSAGE` when it does not parse.
pub fn read(path: &Path) -> Result<Schema, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: cannot read the snapshot: {e}", path.display()))?;
    let contents = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = position(e.as_bytes(), e.utf8_error().valid_up_to());
        format!(
            "{}:{line}:{column}: not UTF-8 text: a snapshot is canonical schema text",
            path.display()
        )
    })?;
    parse_snapshot(&contents).map_err(|e| {
        format!(
            "{}:{}:{}: {}",
            path.display(),
            e.line(),
            e.column(),
            e.message()
        )
    })
}

/// The 1-based line and column (in bytes) of byte `offset` of `bytes`.
fn position(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = bytes.get(..offset).unwrap_or(bytes);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
}

/// The contract name and major version a snapshot file name stands for:
/// `refund-request.v2.snap` is `("refund-request", 2)`.
#[must_use]
pub fn contract_of(file_name: &str) -> Option<(String, u32)> {
    let stem = file_name.strip_suffix(".snap")?;
    let (name, version) = stem.rsplit_once(".v")?;
    if name.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let version: u32 = version.parse().ok()?;
    (version >= 1).then(|| (name.to_owned(), version))
}

/// The snapshot files of a folder, by contract name and major version. Other files
/// (`*.snap.new` pending review, READMEs) are left out.
///
/// # Errors
///
/// `PATH: MESSAGE` when the folder cannot be listed.
pub fn list(dir: &Path) -> Result<BTreeMap<(String, u32), PathBuf>, String> {
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
        let Some(key) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(contract_of)
        else {
            continue;
        };
        out.insert(key, path);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{contract_of, position};

    #[test]
    fn byte_offsets_map_to_lines_and_columns() {
        assert_eq!(position(b"", 0), (1, 1));
        assert_eq!(position(b"ab\ncd\xff", 5), (2, 3));
        assert_eq!(position(b"\n\n\xff", 2), (3, 1));
        // An offset past the end counts the whole input.
        assert_eq!(position(b"a\nb", 99), (2, 2));
    }

    #[test]
    fn file_names_map_to_contract_majors() {
        assert_eq!(
            contract_of("refund-request.v2.snap"),
            Some(("refund-request".to_owned(), 2))
        );
        assert_eq!(contract_of("a.b.v10.snap"), Some(("a.b".to_owned(), 10)));
        assert_eq!(contract_of("refund-request.v0.snap"), None);
        assert_eq!(contract_of("refund-request.v2.snap.new"), None);
        assert_eq!(contract_of("refund-request.snap"), None);
        assert_eq!(contract_of(".v1.snap"), None);
        assert_eq!(contract_of("x.v+1.snap"), None);
        assert_eq!(contract_of("x.v99999999999.snap"), None);
    }
}
