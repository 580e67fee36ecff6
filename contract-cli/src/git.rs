//! The snapshot folders of another commit, read with the `git` command from the current
//! directory: `git rev-parse` for the commit and for where the current directory sits in
//! the repository, `git ls-tree` for a folder's files, `git cat-file` for a file's bytes.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use contract_schema::snapshot;
use contract_schema::ContractId;

/// What a shallow clone lacks, said whenever a ref is not found.
const SHALLOW_HINT: &str = "a shallow clone has no older commits: `actions/checkout` fetches \
     depth 1 unless given `fetch-depth: 0`";

/// A commit of the repository the current directory is in.
pub struct Commit {
    /// The ref as given (`origin/main`), for messages.
    pub name: String,
    /// Its commit id.
    id: String,
    /// The current directory's path from the repository's root (`crates/app/`, or empty).
    prefix: PathBuf,
}

/// The snapshot files of a folder at a commit.
#[derive(Debug, Default)]
pub struct Listing {
    /// The snapshot files, by contract version, each with its path from the repository's
    /// root and its blob id.
    pub snapshots: BTreeMap<ContractId, (PathBuf, String)>,
    /// Files named like snapshots but not as one (see `snapshots::Listing`), from the root.
    pub misnamed: Vec<PathBuf>,
}

/// Runs `git ARGS` in the current directory: its stdout, or its stderr's first line.
fn git<I, S>(args: I) -> Result<Vec<u8>, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let output = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run `git`: {e}"))?;
    if output.status.success() {
        return Ok(output.stdout);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Err(stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("`git` failed")
        .trim()
        .to_owned())
}

impl Commit {
    /// The commit `name` names, in the repository of the current directory.
    ///
    /// # Errors
    ///
    /// When the current directory is in no git repository, or `name` names no commit there
    /// (the message says what a shallow clone needs).
    pub fn resolve(name: &str) -> Result<Self, String> {
        let prefix = git(["rev-parse", "--show-prefix"]).map_err(|e| {
            format!("`--against` reads the git repository of the current directory: {e}")
        })?;
        let prefix = String::from_utf8(prefix).map_err(|_| {
            "the current directory's path in the repository is not UTF-8".to_owned()
        })?;
        // `--verify` reads one argument as a revision, never as an option (a ref starting
        // with `-` is refused by the argument parser anyway).
        let id = git(["rev-parse", "--verify", "--quiet", &format!("{name}^{{commit}}")])
            .ok()
            .and_then(|out| String::from_utf8(out).ok())
            .map(|id| id.trim().to_owned())
            .filter(|id| !id.is_empty())
            .ok_or_else(|| {
                format!("unknown git ref `{name}`: no commit of this repository has that name; {SHALLOW_HINT}")
            })?;
        Ok(Commit {
            name: name.to_owned(),
            id,
            prefix: PathBuf::from(prefix.trim_end_matches(['\n', '/'])),
        })
    }

    /// The path from the repository's root of `dir`, a path from the current directory.
    ///
    /// # Errors
    ///
    /// When `dir` is absolute or leads out of the repository.
    pub fn in_repository(&self, dir: &Path) -> Result<PathBuf, String> {
        let mut out = self.prefix.clone();
        for component in dir.components() {
            match component {
                Component::CurDir => {}
                Component::Normal(part) => out.push(part),
                Component::ParentDir => {
                    if !out.pop() {
                        return Err(format!(
                            "{}: outside the git repository of the current directory",
                            dir.display()
                        ));
                    }
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(format!(
                        "{}: with `--against`, name a folder relative to the current directory",
                        dir.display()
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The snapshot files of the folder `dir` (from the repository's root) at this commit:
    /// none when the folder is not there.
    ///
    /// # Errors
    ///
    /// When `git ls-tree` fails or writes what it never writes.
    pub fn list(&self, dir: &Path) -> Result<Listing, String> {
        let mut args = vec![
            // A folder's name is a name, never a glob or pathspec magic.
            OsStr::new("--literal-pathspecs").to_owned(),
            "ls-tree".into(),
            "-z".into(),
            "--full-tree".into(),
            self.id.clone().into(),
        ];
        if !dir.as_os_str().is_empty() {
            args.push("--".into());
            // The folder's entries, not the folder itself.
            let mut spec = dir.as_os_str().to_owned();
            spec.push("/");
            args.push(spec);
        }
        let out = git(&args).map_err(|e| format!("{}: {e}", self.name))?;
        let mut listing = Listing::default();
        for entry in out.split(|&b| b == 0).filter(|e| !e.is_empty()) {
            // `<mode> SP <type> SP <object> TAB <path>`
            let text = std::str::from_utf8(entry).ok();
            let Some((meta, path)) = text.and_then(|t| t.split_once('\t')) else {
                continue;
            };
            let mut meta = meta.split(' ');
            let (Some(_mode), Some(kind), Some(object)) = (meta.next(), meta.next(), meta.next())
            else {
                continue;
            };
            if kind != "blob" {
                continue;
            }
            let path = PathBuf::from(path);
            let Some(name) = path.file_name().and_then(OsStr::to_str) else {
                continue;
            };
            match snapshot::parse_file_name(name) {
                Some(id) => {
                    listing.snapshots.insert(id, (path, object.to_owned()));
                }
                None if snapshot::has_snapshot_form(name) => listing.misnamed.push(path),
                None => {}
            }
        }
        listing.misnamed.sort();
        Ok(listing)
    }

    /// The bytes of the blob `object`.
    ///
    /// # Errors
    ///
    /// When `git cat-file` fails.
    pub fn read(&self, object: &str) -> Result<Vec<u8>, String> {
        git(["cat-file", "blob", object]).map_err(|e| format!("{}: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit_in(prefix: &str) -> Commit {
        Commit {
            name: "main".to_owned(),
            id: "0".repeat(40),
            prefix: PathBuf::from(prefix),
        }
    }

    #[test]
    fn a_folder_is_found_from_the_current_directory() {
        let root = commit_in("");
        assert_eq!(
            root.in_repository(Path::new("contracts")).unwrap(),
            Path::new("contracts")
        );
        assert_eq!(
            root.in_repository(Path::new("./a/../b/")).unwrap(),
            Path::new("b")
        );
        assert_eq!(root.in_repository(Path::new(".")).unwrap(), Path::new(""));
        let app = commit_in("crates/app");
        assert_eq!(
            app.in_repository(Path::new("contracts")).unwrap(),
            Path::new("crates/app/contracts")
        );
        assert_eq!(
            app.in_repository(Path::new("../../shared/contracts"))
                .unwrap(),
            Path::new("shared/contracts")
        );
        assert_eq!(
            app.in_repository(Path::new("../../../x")).unwrap_err(),
            "../../../x: outside the git repository of the current directory"
        );
        assert!(app
            .in_repository(Path::new("/abs/contracts"))
            .unwrap_err()
            .contains("relative to the current directory"));
    }
}
