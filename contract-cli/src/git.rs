//! The snapshot folders of another commit, read through the workflow's git [`Repo`] of the
//! current directory: the commit a ref names, where the current directory sits in the
//! repository, a folder's files and a file's bytes.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use contract_schema::snapshot;
use contract_schema::ContractId;
use contract_workflow::git::Repo;
use contract_workflow::Error;

/// A commit of the repository the current directory is in.
pub struct Commit {
    /// The ref as given (`origin/main`), for messages.
    pub name: String,
    /// Its commit id.
    id: String,
    /// The current directory's path from the repository's root (`crates/app/`, or empty).
    prefix: PathBuf,
    /// The repository, read from the current directory.
    repo: Repo,
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

/// The message of a git error: what `git` said, or why it could not be asked.
fn said(error: Error) -> String {
    match error {
        Error::Git(message) => message,
        other => other.to_string(),
    }
}

impl Commit {
    /// The commit `name` names, in the repository of the current directory.
    ///
    /// # Errors
    ///
    /// When the current directory is in no git repository, or `name` names no commit there
    /// (the message says what a shallow clone needs).
    pub fn resolve(name: &str) -> Result<Self, String> {
        let repo = Repo::local(Path::new(".")).map_err(|e| {
            format!(
                "`--against` reads the git repository of the current directory: {}",
                said(e)
            )
        })?;
        // The message names the ref and says what a shallow clone needs.
        let id = repo.resolve(name).map_err(said)?;
        Ok(Commit {
            name: name.to_owned(),
            id,
            prefix: PathBuf::from(repo.prefix().trim_end_matches('/')),
            repo,
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
        let Some(folder) = dir.to_str() else {
            return Err(format!(
                "{}: a folder name that is not UTF-8",
                dir.display()
            ));
        };
        let entries = self
            .repo
            .folder_from_root(&self.id, folder)
            .map_err(|e| format!("{}: {}", self.name, said(e)))?;
        let mut listing = Listing::default();
        for entry in entries {
            let path = dir.join(&entry.name);
            match snapshot::parse_file_name(&entry.name) {
                Some(id) => {
                    listing.snapshots.insert(id, (path, entry.object));
                }
                None if snapshot::has_snapshot_form(&entry.name) => listing.misnamed.push(path),
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
        self.repo
            .read(object)
            .map_err(|e| format!("{}: {}", self.name, said(e)))
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
            repo: Repo::remote("https://example.invalid/app.git", Path::new("unused")),
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
