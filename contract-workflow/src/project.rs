//! A manifest with its repositories: each agent's side of an edge at a git ref. A side of a
//! snapshot agent is its snapshot of the edge's contract at that commit (the highest major
//! it has there); a side of a peer is its JSON Schema imported in the view of its role (a
//! producer's as what it writes, a consumer's as what it accepts). Sides are read once per
//! agent, commit, contract and role.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use contract_schema::json_schema::{import, View};
use contract_schema::{snapshot, ContractId, Schema};

use crate::git::Repo;
use crate::manifest::{Agent, Edge, Kind, Repository};
use crate::{Error, Manifest, STATE_DIR};

/// Which end of an edge a side is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The edge's `from`: what it writes (its sender view).
    Producer,
    /// The edge's `to`: what it reads (its receiver view).
    Consumer,
}

impl Role {
    /// The view a peer's JSON Schema is imported in.
    #[must_use]
    pub fn view(self) -> View {
        match self {
            Role::Producer => View::Sender,
            Role::Consumer => View::Receiver,
        }
    }
}

/// One agent's side of an edge at one commit.
#[derive(Debug, Clone)]
pub struct Side {
    /// The schema: a snapshot's, or a peer's imported.
    pub schema: Schema,
    /// The contract version of a snapshot side (none for a peer's JSON Schema).
    pub contract: Option<ContractId>,
    /// What was read: `REF:PATH`.
    pub source: String,
    /// The import's warnings of a JSON Schema side, as `REF:PATH: #POINTER: MESSAGE`.
    pub warnings: Vec<String>,
}

type SideKey = (String, String, String, Role);

/// A manifest and the repositories its agents are in.
pub struct Project {
    manifest: Manifest,
    local: Repo,
    cache: PathBuf,
    remotes: RefCell<HashMap<String, Rc<Repo>>>,
    sides: RefCell<HashMap<SideKey, Rc<Side>>>,
}

impl std::fmt::Debug for Project {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Project")
            .field("manifest", &self.manifest.file)
            .finish_non_exhaustive()
    }
}

/// The folder `path` (a manifest) is in: `.` for a bare file name.
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Where the manifest of the repository `dir` is in lives: `handoff.toml` at the
/// repository's root, or in `dir` when it is in no git repository.
#[must_use]
pub fn default_manifest(dir: &Path) -> PathBuf {
    let root = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--show-toplevel"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|root| PathBuf::from(root.trim_end_matches(['\n', '\r'])))
        .filter(|root| !root.as_os_str().is_empty());
    root.unwrap_or_else(|| dir.to_owned()).join(crate::MANIFEST)
}

/// The deployment store beside the manifest at `manifest`: `.handoff/deployments.sqlite`.
#[must_use]
pub fn default_store(manifest: &Path) -> PathBuf {
    folder_of(manifest).join(STATE_DIR).join(crate::STORE_FILE)
}

impl Project {
    /// Reads the manifest at `path`, in the git repository of its folder; other
    /// repositories are fetched into `.handoff/git/` beside it.
    ///
    /// # Errors
    ///
    /// A manifest that cannot be read or has a mistake, or a folder in no git repository.
    pub fn open(path: &Path) -> Result<Project, Error> {
        let cache = folder_of(path).join(STATE_DIR).join("git");
        Project::open_with_cache(path, &cache)
    }

    /// As [`Project::open`], other repositories fetched under `cache`.
    ///
    /// # Errors
    ///
    /// As [`Project::open`].
    pub fn open_with_cache(path: &Path, cache: &Path) -> Result<Project, Error> {
        let manifest = Manifest::read(path)?;
        let folder = folder_of(path);
        let local = Repo::local(&folder).map_err(|e| match e {
            Error::Git(e) => Error::Git(format!(
                "{}: the workflow reads its agents' contracts at git refs, from the repository the manifest is in: {e}",
                folder.display()
            )),
            e => e,
        })?;
        Ok(Project {
            manifest,
            local,
            cache: cache.to_owned(),
            remotes: RefCell::default(),
            sides: RefCell::default(),
        })
    }

    /// The manifest.
    #[must_use]
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The commit `version` names in the repository of `agent`.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] when there is no such agent; [`Error::Git`] naming the agent when
    /// the ref names no commit.
    pub fn resolve(&self, agent: &str, version: &str) -> Result<String, Error> {
        let agent = self.manifest.agent(agent)?;
        self.with_repo(agent, |repo| repo.resolve(version))
            .map_err(|e| match e {
                Error::Git(message) => Error::Git(format!("agent `{}`: {message}", agent.name)),
                other => other,
            })
    }

    /// Runs `f` on the repository `agent`'s files are in (another one's cache made once).
    fn with_repo<T>(&self, agent: &Agent, f: impl FnOnce(&Repo) -> T) -> T {
        match &agent.repository {
            Repository::Local => f(&self.local),
            Repository::Remote(url) => {
                let repo = Rc::clone(
                    self.remotes
                        .borrow_mut()
                        .entry(url.clone())
                        .or_insert_with(|| Rc::new(Repo::remote(url, &self.cache))),
                );
                f(&repo)
            }
        }
    }

    /// `agent`'s side of `edge` at `commit` (which `version` named), in `role`.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] at the manifest's line when the agent's folder or file is not
    /// there at that commit, or its folder has no snapshot of the edge's contract;
    /// [`Error::Schema`] when what is there does not parse or import.
    pub fn side(
        &self,
        agent: &str,
        version: &str,
        commit: &str,
        edge: &Edge,
        role: Role,
    ) -> Result<Rc<Side>, Error> {
        let key = (
            agent.to_owned(),
            commit.to_owned(),
            edge.contract.clone(),
            role,
        );
        if let Some(side) = self.sides.borrow().get(&key) {
            return Ok(Rc::clone(side));
        }
        let agent = self.manifest.agent(agent)?;
        let side = Rc::new(self.with_repo(agent, |repo| {
            self.read_side(repo, agent, version, commit, edge, role)
        })?);
        self.sides.borrow_mut().insert(key, Rc::clone(&side));
        Ok(side)
    }

    fn read_side(
        &self,
        repo: &Repo,
        agent: &Agent,
        version: &str,
        commit: &str,
        edge: &Edge,
        role: Role,
    ) -> Result<Side, Error> {
        let file = &self.manifest.file;
        let place = match &agent.repository {
            Repository::Local => String::new(),
            Repository::Remote(url) => format!(" of {url}"),
        };
        match agent.kind {
            Kind::Snapshots => {
                let entries = repo.folder(commit, &agent.path)?.ok_or_else(|| {
                    Error::manifest(
                        file,
                        Some(agent.path_line),
                        format!(
                            "`{}`, the snapshot folder of `{}`, is not in the repository{place} at `{version}`",
                            agent.path, agent.name
                        ),
                    )
                })?;
                let found = entries
                    .iter()
                    .filter_map(|e| snapshot::parse_file_name(&e.name).map(|id| (id, e)))
                    .filter(|(id, _)| id.name == edge.contract)
                    .max_by_key(|(id, _)| id.version);
                let Some((id, entry)) = found else {
                    return Err(Error::manifest(
                        file,
                        Some(edge.contract_line),
                        format!(
                            "`{}` has no snapshot of `{}` in `{}`{place} at `{version}` (no `{}`)",
                            agent.name,
                            edge.contract,
                            agent.path,
                            snapshot::file_name(&edge.contract, 1).replace(".v1.", ".v<N>.")
                        ),
                    ));
                };
                let source = format!("{version}:{}/{}", agent.path, entry.name);
                let bytes = repo.read(&entry.object)?;
                let schema = snapshot::read_bytes(Path::new(&source), bytes)
                    .map_err(|e| Error::Schema(e.to_string()))?;
                Ok(Side {
                    schema,
                    contract: Some(id),
                    source,
                    warnings: Vec::new(),
                })
            }
            Kind::JsonSchema => {
                let object = repo.file(commit, &agent.path)?.ok_or_else(|| {
                    Error::manifest(
                        file,
                        Some(agent.path_line),
                        format!(
                            "`{}`, the JSON Schema of `{}`, is not in the repository{place} at `{version}`",
                            agent.path, agent.name
                        ),
                    )
                })?;
                let source = format!("{version}:{}", agent.path);
                let bytes = repo.read(&object)?;
                let doc: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
                    Error::Schema(format!(
                        "{source}:{}:{}: not JSON: {}",
                        e.line(),
                        e.column(),
                        json_error_kind(&e)
                    ))
                })?;
                let imported = import(&doc, role.view())
                    .map_err(|e| Error::Schema(format!("{source}: {e}")))?;
                Ok(Side {
                    schema: imported.schema,
                    contract: None,
                    warnings: imported
                        .warnings
                        .iter()
                        .map(|w| format!("{source}: {w}"))
                        .collect(),
                    source,
                })
            }
        }
    }
}

/// What is wrong with a document that is not JSON, without echoing its contents.
fn json_error_kind(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Io => "cannot be read",
        serde_json::error::Category::Syntax => "a syntax error",
        serde_json::error::Category::Data => "an unexpected value",
        serde_json::error::Category::Eof => "it ends too early",
    }
}
