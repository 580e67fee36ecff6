//! `handoff.toml`: the agents of a workflow, where each one's contracts are, and the edges
//! between them. Read with `toml`'s serde deserializer and its [`Spanned`] values, so that
//! every mistake names its line: `handoff.toml:12: the edge's `to` names `refund-specialist`,
//! which is no agent of [agents]`.
//!
//! An agent is one of:
//! - `contracts = "DIR"`: its snapshot folder in this repository, read at any git ref;
//! - `contracts = { git = "URL", path = "DIR" }`: the folder in another repository, fetched
//!   with `git` at the ref;
//! - `schema = "FILE"` (or `{ git, path }`): a peer in another language, its JSON Schema
//!   (2020-12 or draft-07), imported in the view of its role on each edge.
//!
//! An edge is `from` (the producer), `to` (the consumer) and `contract`, a contract's name:
//! each side's snapshot of that contract at its version, the highest major it has there.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use contract_schema::contract::is_contract_name;
use serde::Deserialize;
use toml::Spanned;

use crate::Error;

/// A parsed and checked manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The file, as it was named (for messages).
    pub file: PathBuf,
    /// The agents, sorted by name.
    pub agents: Vec<Agent>,
    /// The edges, in the order written.
    pub edges: Vec<Edge>,
}

/// An agent of the workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    /// Its name, the key under `[agents]`.
    pub name: String,
    /// What describes its payloads: snapshots or a JSON Schema.
    pub kind: Kind,
    /// The repository they are in.
    pub repository: Repository,
    /// The folder (snapshots) or file (JSON Schema), from the repository's root.
    pub path: String,
    /// The line of its table.
    pub line: usize,
    /// The line of its `contracts` or `schema`.
    pub path_line: usize,
}

/// What describes an agent's payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A folder of contract snapshots (`<name>.v<N>.snap`).
    Snapshots,
    /// A peer's JSON Schema, one document for every edge it is on.
    JsonSchema,
}

/// Which repository an agent's files are in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Repository {
    /// The manifest's own.
    Local,
    /// Another one, by its git URL (or path).
    Remote(String),
}

/// An edge: `from` writes what `to` reads, under `contract`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The producer.
    pub from: String,
    /// The consumer.
    pub to: String,
    /// The contract's name (`refund-request`).
    pub contract: String,
    /// The line of its `[[edges]]` table.
    pub line: usize,
    /// The line of its `contract`.
    pub contract_line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    agents: BTreeMap<Spanned<String>, Spanned<RawAgent>>,
    #[serde(default)]
    edges: Vec<Spanned<RawEdge>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    contracts: Option<Spanned<toml::Value>>,
    schema: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEdge {
    from: Spanned<String>,
    to: Spanned<String>,
    contract: Spanned<String>,
}

/// The line, from 1, of the byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

impl Manifest {
    /// Reads and checks the manifest at `path`.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] when the file cannot be read, is not TOML, or names what is not
    /// there (see [`Manifest::parse`]).
    pub fn read(path: &Path) -> Result<Manifest, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::manifest(
                path,
                None,
                format!("cannot read the workflow manifest: {e}"),
            )
        })?;
        Manifest::parse(path, &text)
    }

    /// Parses and checks `text`, the manifest named `file`: every agent has exactly one of
    /// `contracts` and `schema`, each path stays inside its repository, every edge names
    /// agents of `[agents]` and a contract name.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] at the line of the first mistake.
    pub fn parse(file: &Path, text: &str) -> Result<Manifest, Error> {
        let at = |span: Range<usize>, message: String| {
            Error::manifest(file, Some(line_of(text, span.start)), message)
        };
        let raw: RawManifest = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start));
            Error::manifest(file, line, e.message().trim_end().to_owned())
        })?;
        let mut agents = Vec::new();
        for (name, agent) in raw.agents {
            let line = line_of(text, name.span().start);
            let name = name.into_inner();
            let agent_span = agent.span();
            let agent = agent.into_inner();
            let (kind, place) = match (agent.contracts, agent.schema) {
                (Some(place), None) => (Kind::Snapshots, place),
                (None, Some(place)) => (Kind::JsonSchema, place),
                (None, None) => {
                    return Err(at(
                        agent_span,
                        format!("agent `{name}` needs `contracts = \"DIR\"` (its snapshots) or `schema = \"FILE\"` (a peer's JSON Schema)"),
                    ))
                }
                (Some(_), Some(schema)) => {
                    return Err(at(
                        schema.span(),
                        format!("agent `{name}` has both `contracts` and `schema`: keep one"),
                    ))
                }
            };
            let key = match kind {
                Kind::Snapshots => "contracts",
                Kind::JsonSchema => "schema",
            };
            let path_line = line_of(text, place.span().start);
            let (repository, path) = place_of(place.get_ref())
                .map_err(|why| at(place.span(), format!("agent `{name}`'s `{key}`: {why}")))?;
            agents.push(Agent {
                name,
                kind,
                repository,
                path,
                line,
                path_line,
            });
        }
        let mut edges = Vec::new();
        for edge in raw.edges {
            let line = line_of(text, edge.span().start);
            let edge = edge.into_inner();
            for end in [&edge.from, &edge.to] {
                if !agents.iter().any(|a| a.name == *end.get_ref()) {
                    let which = if std::ptr::eq(end, &edge.from) {
                        "from"
                    } else {
                        "to"
                    };
                    let known: Vec<String> =
                        agents.iter().map(|a| format!("`{}`", a.name)).collect();
                    let known = if known.is_empty() {
                        "[agents] declares none".to_owned()
                    } else {
                        format!("the agents are {}", known.join(", "))
                    };
                    return Err(at(
                        end.span(),
                        format!(
                            "the edge's `{which}` names `{}`, which is no agent of [agents]; {known}",
                            end.get_ref()
                        ),
                    ));
                }
            }
            if !is_contract_name(edge.contract.get_ref()) {
                return Err(at(
                    edge.contract.span(),
                    format!(
                        "`{}` is no contract name: lowercase words joined by `-` (`refund-request`), without the version",
                        edge.contract.get_ref()
                    ),
                ));
            }
            edges.push(Edge {
                from: edge.from.into_inner(),
                to: edge.to.into_inner(),
                contract_line: line_of(text, edge.contract.span().start),
                contract: edge.contract.into_inner(),
                line,
            });
        }
        Ok(Manifest {
            file: file.to_owned(),
            agents,
            edges,
        })
    }

    /// The agent named `name`.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] naming the manifest's agents when there is none of that name.
    pub fn agent(&self, name: &str) -> Result<&Agent, Error> {
        self.agents.iter().find(|a| a.name == name).ok_or_else(|| {
            let known: Vec<String> = self
                .agents
                .iter()
                .map(|a| format!("`{}`", a.name))
                .collect();
            Error::manifest(
                &self.file,
                None,
                if known.is_empty() {
                    format!("no agent `{name}`: [agents] declares none")
                } else {
                    format!("no agent `{name}`; the agents are {}", known.join(", "))
                },
            )
        })
    }

    /// The edges `agent` is on, as producer or consumer, in the order written.
    pub fn edges_of<'a>(&'a self, agent: &'a str) -> impl Iterator<Item = &'a Edge> + 'a {
        self.edges
            .iter()
            .filter(move |e| e.from == agent || e.to == agent)
    }
}

/// A `contracts` or `schema` value: a path, or `{ git = "URL", path = "DIR" }`.
fn place_of(value: &toml::Value) -> Result<(Repository, String), String> {
    let form = "expected a path (`\"contracts\"`) or `{ git = \"URL\", path = \"contracts\" }`";
    match value {
        toml::Value::String(path) => Ok((Repository::Local, checked_path(path)?)),
        toml::Value::Table(table) => {
            if let Some(key) = table.keys().find(|k| *k != "git" && *k != "path") {
                return Err(format!("unknown key `{key}`: {form}"));
            }
            let git = table
                .get("git")
                .and_then(toml::Value::as_str)
                .filter(|url| !url.trim().is_empty() && !url.starts_with('-'))
                .ok_or_else(|| format!("`git` must be the repository's URL: {form}"))?;
            let path = table
                .get("path")
                .and_then(toml::Value::as_str)
                .ok_or_else(|| format!("`path` must be a path in that repository: {form}"))?;
            Ok((Repository::Remote(git.to_owned()), checked_path(path)?))
        }
        _ => Err(form.to_owned()),
    }
}

/// A path from a repository's root, as git names it: relative, `/`-separated, inside.
fn checked_path(path: &str) -> Result<String, String> {
    let mut parts = Vec::new();
    for component in Path::new(path).components() {
        match component {
            Component::CurDir => {}
            Component::Normal(part) => match part.to_str() {
                Some(part) => parts.push(part),
                None => return Err("the path is not UTF-8".to_owned()),
            },
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(format!("`{path}` leads out of the repository"));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "`{path}` is absolute: name it from the repository's root"
                ))
            }
        }
    }
    if parts.is_empty() {
        return Err("the path is empty".to_owned());
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, String> {
        Manifest::parse(Path::new("handoff.toml"), text).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"[agents.triage-agent]
contracts = "triage/contracts"

[agents.escalation-agent]
schema = "./peers/escalation.json"

[agents.billing]
contracts = { git = "https://example.invalid/billing.git", path = "contracts" }

[[edges]]
from = "triage-agent"
to = "billing"
contract = "refund-request"

[[edges]]
from = "escalation-agent"
to = "triage-agent"
contract = "escalation"
"#;

    #[test]
    fn agents_and_edges_with_their_lines() {
        let m = parse(GOOD).unwrap();
        let names: Vec<&str> = m.agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["billing", "escalation-agent", "triage-agent"]);
        let billing = m.agent("billing").unwrap();
        assert_eq!(
            billing.repository,
            Repository::Remote("https://example.invalid/billing.git".into())
        );
        assert_eq!(
            (billing.kind, billing.path.as_str()),
            (Kind::Snapshots, "contracts")
        );
        assert_eq!((billing.line, billing.path_line), (7, 8));
        let peer = m.agent("escalation-agent").unwrap();
        assert_eq!(
            (peer.kind, peer.path.as_str()),
            (Kind::JsonSchema, "peers/escalation.json")
        );
        assert_eq!(m.edges.len(), 2);
        assert_eq!((m.edges[1].line, m.edges[1].contract_line), (15, 18));
        let of: Vec<&str> = m
            .edges_of("triage-agent")
            .map(|e| e.contract.as_str())
            .collect();
        assert_eq!(of, ["refund-request", "escalation"]);
        assert!(m
            .agent("nobody")
            .unwrap_err()
            .to_string()
            .contains("the agents are `billing`"));
    }

    #[test]
    fn every_mistake_names_its_line() {
        let unknown_end = GOOD.replace("to = \"billing\"", "to = \"refund-specialist\"");
        let err = parse(&unknown_end).unwrap_err();
        assert!(
            err.starts_with(
                "handoff.toml:12: the edge's `to` names `refund-specialist`, which is no agent"
            ),
            "{err}"
        );
        let bad_contract = GOOD.replace("\"refund-request\"", "\"refund-request/v2\"");
        assert!(parse(&bad_contract)
            .unwrap_err()
            .starts_with("handoff.toml:13: `refund-request/v2` is no contract name"));
        let both = GOOD.replace(
            "schema = \"./peers/escalation.json\"",
            "schema = \"a.json\"\ncontracts = \"c\"",
        );
        let err = parse(&both).unwrap_err();
        assert!(
            err.starts_with("handoff.toml:5: agent `escalation-agent` has both"),
            "{err}"
        );
        let neither = GOOD.replace("schema = \"./peers/escalation.json\"", "");
        let err = parse(&neither).unwrap_err();
        assert!(
            err.starts_with("handoff.toml:4: agent `escalation-agent` needs"),
            "{err}"
        );
        let outside = GOOD.replace("\"triage/contracts\"", "\"../elsewhere\"");
        let err = parse(&outside).unwrap_err();
        assert!(
            err.starts_with(
                "handoff.toml:2: agent `triage-agent`'s `contracts`: `../elsewhere` leads out"
            ),
            "{err}"
        );
        let absolute = GOOD.replace("\"triage/contracts\"", "\"/etc\"");
        assert!(parse(&absolute).unwrap_err().contains("is absolute"));
        let remote = GOOD.replace("path = \"contracts\"", "dir = \"contracts\"");
        let err = parse(&remote).unwrap_err();
        assert!(
            err.starts_with("handoff.toml:8: agent `billing`'s `contracts`: unknown key `dir`"),
            "{err}"
        );
        let typo = GOOD.replace(
            "[[edges]]\nfrom = \"escalation-agent\"",
            "[[edges]]\nfrm = \"escalation-agent\"",
        );
        let err = parse(&typo).unwrap_err();
        assert!(
            err.starts_with("handoff.toml:16: unknown field `frm`"),
            "{err}"
        );
        let not_toml = "[agents.a\ncontracts = \"c\"\n";
        assert!(parse(not_toml).unwrap_err().starts_with("handoff.toml:1: "));
        let number = GOOD.replace("\"triage/contracts\"", "3");
        assert!(parse(&number).unwrap_err().starts_with("handoff.toml:2: "));
    }

    #[test]
    fn an_empty_manifest_has_no_agents() {
        let m = parse("").unwrap();
        assert!(m.agents.is_empty() && m.edges.is_empty());
        assert!(m
            .agent("a")
            .unwrap_err()
            .to_string()
            .contains("declares none"));
    }

    #[test]
    fn paths_are_named_as_git_names_them() {
        assert_eq!(checked_path("./a/b/../c/").unwrap(), "a/c");
        assert!(checked_path(".").is_err());
        assert!(checked_path("a/../..").is_err());
    }
}
