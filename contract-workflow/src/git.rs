//! An agent's files at a git ref, read with the `git` command: `rev-parse` for the commit a
//! ref names, `ls-tree` for a folder's files, one long-lived `cat-file --batch` for their
//! bytes. Another repository (an agent's `{ git = "URL", path = … }`) is fetched into a bare
//! cache repository first, the ref alone when the server gives it, else every branch and tag.
//! Listings and resolved refs are remembered for the life of the [`Repo`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::Error;

/// What a shallow clone lacks, said whenever a ref is not found.
const SHALLOW_HINT: &str = "a shallow clone has no older commits: `actions/checkout` fetches \
     depth 1 unless given `fetch-depth: 0`";

/// A file of a folder at a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its name in the folder.
    pub name: String,
    /// Its blob id.
    pub object: String,
}

/// A folder's files at a commit (none when the commit has no such folder), by commit and
/// folder.
type Folder = Option<Vec<Entry>>;

/// A git repository to read at any ref: the manifest's own or a fetched one.
pub struct Repo {
    /// Where `git` runs (`-C`): a folder of the working tree, or the cache's bare repository.
    dir: PathBuf,
    /// The path of `dir` from the repository's root (`""`, or `crates/app/`).
    prefix: String,
    /// The remote's URL, for a fetched repository.
    remote: Option<String>,
    /// For messages: `this repository`, or the URL.
    name: String,
    resolved: RefCell<HashMap<String, String>>,
    folders: RefCell<HashMap<(String, String), Folder>>,
    blobs: RefCell<Option<Batch>>,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("dir", &self.dir)
            .field("remote", &self.remote)
            .finish_non_exhaustive()
    }
}

/// Runs `git ARGS` in `dir`: its stdout, or its stderr's first line.
fn git<I, S>(dir: &Path, args: I) -> Result<Vec<u8>, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
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

/// A short, stable, file-name-safe name for a URL: its last word and a hash.
fn cache_name(url: &str) -> String {
    // FNV-1a, 64 bits: stable across runs and platforms, unlike std's hasher.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in url.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let tail: String = url
        .trim_end_matches('/')
        .trim_end_matches(".git")
        .rsplit(['/', ':', '\\'])
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(40)
        .collect();
    format!("{tail}-{hash:016x}")
}

impl Repo {
    /// The repository `dir` is in; paths are from `dir` (the manifest's folder).
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when `dir` is in no git repository (git's own message), or its path in
    /// the repository is not UTF-8.
    pub fn local(dir: &Path) -> Result<Repo, Error> {
        let prefix = git(dir, ["rev-parse", "--show-prefix"]).map_err(Error::Git)?;
        let prefix = String::from_utf8(prefix)
            .map_err(|_| Error::Git("its path in the repository is not UTF-8".to_owned()))?;
        Ok(Repo::new(
            dir.to_owned(),
            prefix.trim_end().to_owned(),
            None,
            "this repository".to_owned(),
        ))
    }

    /// The repository at `url`, fetched into a bare repository under `cache` when a ref is
    /// first asked of it.
    #[must_use]
    pub fn remote(url: &str, cache: &Path) -> Repo {
        Repo::new(
            cache.join(cache_name(url)),
            String::new(),
            Some(url.to_owned()),
            url.to_owned(),
        )
    }

    fn new(dir: PathBuf, prefix: String, remote: Option<String>, name: String) -> Repo {
        Repo {
            dir,
            prefix,
            remote,
            name,
            resolved: RefCell::default(),
            folders: RefCell::default(),
            blobs: RefCell::new(None),
        }
    }

    /// The path of the folder the repository was opened in, from the repository's root:
    /// `""`, or `crates/app/` (a fetched repository's is `""`).
    #[must_use]
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// `this repository`, or the remote's URL.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The commit id `name` (a branch, tag or commit id) names.
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when it names no commit (the message says what a shallow clone needs),
    /// or another repository cannot be fetched.
    pub fn resolve(&self, name: &str) -> Result<String, Error> {
        if let Some(id) = self.resolved.borrow().get(name) {
            return Ok(id.clone());
        }
        if name.is_empty() || name.starts_with('-') {
            return Err(Error::Git(format!("`{name}` is no git ref")));
        }
        let id = match &self.remote {
            None => self.rev_parse(name),
            Some(url) => self.fetch(url, name)?,
        }
        .ok_or_else(|| {
            Error::Git(format!(
                "unknown git ref `{name}`: no commit of {} has that name; {SHALLOW_HINT}",
                self.name
            ))
        })?;
        self.resolved
            .borrow_mut()
            .insert(name.to_owned(), id.clone());
        Ok(id)
    }

    fn rev_parse(&self, name: &str) -> Option<String> {
        git(
            &self.dir,
            [
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{name}^{{commit}}"),
            ],
        )
        .ok()
        .and_then(|out| String::from_utf8(out).ok())
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
    }

    /// Fetches `name` from `url` into the cache: the ref alone, else (an abbreviated commit
    /// id, a server that gives only what it advertises) every branch and tag.
    fn fetch(&self, url: &str, name: &str) -> Result<Option<String>, Error> {
        if !self.dir.join("HEAD").is_file() {
            std::fs::create_dir_all(&self.dir).map_err(|e| {
                Error::Git(format!(
                    "{}: cannot make the cache of {url}: {e}",
                    self.dir.display()
                ))
            })?;
            git(&self.dir, ["init", "--quiet", "--bare"])
                .map_err(|e| Error::Git(format!("cannot make the cache of {url}: {e}")))?;
        }
        let target = format!("+{name}:refs/handoff/fetched");
        let single = git(
            &self.dir,
            ["fetch", "--quiet", "--no-tags", "--", url, target.as_str()],
        );
        if single.is_ok() {
            if let Some(id) = self.rev_parse("refs/handoff/fetched") {
                return Ok(Some(id));
            }
        }
        git(
            &self.dir,
            [
                "fetch",
                "--quiet",
                "--prune",
                "--",
                url,
                "+refs/heads/*:refs/remotes/origin/*",
                "+refs/tags/*:refs/tags/*",
            ],
        )
        .map_err(|e| Error::Git(format!("cannot fetch {url}: {e}")))?;
        Ok(self
            .rev_parse(&format!("refs/remotes/origin/{name}"))
            .or_else(|| self.rev_parse(name)))
    }

    /// The path from the repository's root of `path`, a path from the manifest's folder.
    fn full(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }

    /// The files of the folder `dir` at `commit`; none when the commit has no such folder.
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when `git ls-tree` fails.
    pub fn folder(&self, commit: &str, dir: &str) -> Result<Option<Vec<Entry>>, Error> {
        let key = (commit.to_owned(), dir.to_owned());
        if let Some(found) = self.folders.borrow().get(&key) {
            return Ok(found.clone());
        }
        let entries = self.ls_tree(commit, Some(&format!("{}/", self.full(dir))))?;
        let found = (!entries.is_empty()).then_some(entries);
        self.folders.borrow_mut().insert(key, found.clone());
        Ok(found)
    }

    /// The blob id of the file `path` at `commit`, if it has one.
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when `git ls-tree` fails.
    pub fn file(&self, commit: &str, path: &str) -> Result<Option<String>, Error> {
        let full = self.full(path);
        let entries = self.ls_tree(commit, Some(&full))?;
        Ok(entries.into_iter().next().map(|e| e.object))
    }

    /// The files of the folder `dir` at `commit`, `dir` a path from the repository's root
    /// (`""`: the root) rather than from the folder it was opened in; none when the commit
    /// has no such folder. Not remembered, unlike [`folder`](Self::folder).
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when `git ls-tree` fails.
    pub fn folder_from_root(&self, commit: &str, dir: &str) -> Result<Vec<Entry>, Error> {
        if dir.is_empty() {
            self.ls_tree(commit, None)
        } else {
            self.ls_tree(commit, Some(&format!("{dir}/")))
        }
    }

    /// The blobs under the pathspec `spec` (without one, the root's) at `commit`, named by
    /// their file name.
    fn ls_tree(&self, commit: &str, spec: Option<&str>) -> Result<Vec<Entry>, Error> {
        let mut args = vec![
            "--literal-pathspecs",
            "ls-tree",
            "-z",
            "--full-tree",
            commit,
        ];
        if let Some(spec) = spec {
            // A folder's name is a name, never a glob or pathspec magic.
            args.extend(["--", spec]);
        }
        let out = git(&self.dir, args).map_err(|e| Error::Git(format!("{}: {e}", self.name)))?;
        let mut entries = Vec::new();
        for entry in out.split(|&b| b == 0).filter(|e| !e.is_empty()) {
            // `<mode> SP <type> SP <object> TAB <path>`
            let Some((meta, path)) = std::str::from_utf8(entry)
                .ok()
                .and_then(|t| t.split_once('\t'))
            else {
                continue;
            };
            let mut meta = meta.split(' ');
            let (Some(_mode), Some("blob"), Some(object)) = (meta.next(), meta.next(), meta.next())
            else {
                continue;
            };
            let name = path.rsplit('/').next().unwrap_or(path).to_owned();
            entries.push(Entry {
                name,
                object: object.to_owned(),
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// The bytes of the blob `object`.
    ///
    /// # Errors
    ///
    /// [`Error::Git`] when `git cat-file` cannot be run or has no such blob.
    pub fn read(&self, object: &str) -> Result<Vec<u8>, Error> {
        let mut slot = self.blobs.borrow_mut();
        if slot.is_none() {
            *slot = Some(
                Batch::start(&self.dir).map_err(|e| Error::Git(format!("{}: {e}", self.name)))?,
            );
        }
        let Some(batch) = slot.as_mut() else {
            return Err(Error::Git(format!(
                "{}: `git cat-file` is not running",
                self.name
            )));
        };
        match batch.read(object) {
            Ok(bytes) => Ok(bytes),
            Err(e) => {
                // A broken pipe or a protocol surprise: start afresh next time.
                *slot = None;
                Err(Error::Git(format!("{}: {e}", self.name)))
            }
        }
    }
}

/// One `git cat-file --batch`: a blob id written, its header and bytes read back.
struct Batch {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Batch {
    fn start(dir: &Path) -> Result<Batch, String> {
        let mut child = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run `git cat-file`: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("`git cat-file` has no pipes".to_owned());
        };
        Ok(Batch {
            child,
            input,
            output: BufReader::new(output),
        })
    }

    fn read(&mut self, object: &str) -> Result<Vec<u8>, String> {
        if object.is_empty() || !object.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{object}` is no object id"));
        }
        writeln!(self.input, "{object}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("`git cat-file`: {e}"))?;
        let mut header = String::new();
        self.output
            .read_line(&mut header)
            .map_err(|e| format!("`git cat-file`: {e}"))?;
        // `<oid> <type> <size>`, or `<oid> missing`.
        let mut parts = header.split_whitespace();
        let (Some(_), Some(kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("no blob `{object}`"));
        };
        let size: usize = size
            .parse()
            .map_err(|_| "`git cat-file` wrote an unreadable header".to_owned())?;
        let mut bytes = vec![0; size];
        self.output
            .read_exact(&mut bytes)
            .map_err(|e| format!("`git cat-file`: {e}"))?;
        let mut newline = [0u8; 1];
        self.output
            .read_exact(&mut newline)
            .map_err(|e| format!("`git cat-file`: {e}"))?;
        if kind != "blob" {
            return Err(format!("`{object}` is a {kind}, not a file"));
        }
        Ok(bytes)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        // Closing its input ends `cat-file`; wait so that no zombie is left.
        let _ = self.input.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_name_is_stable_and_safe() {
        let a = cache_name("https://example.invalid/team/billing.git");
        assert!(a.starts_with("billing-"), "{a}");
        assert_eq!(a, cache_name("https://example.invalid/team/billing.git"));
        assert_ne!(a, cache_name("https://example.invalid/other/billing.git"));
        let odd = cache_name("../../etc/passwd:x");
        assert!(
            odd.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{odd}"
        );
    }
}
