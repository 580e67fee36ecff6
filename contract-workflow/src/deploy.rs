//! can-i-deploy: every edge touching an agent, its side at a git ref against the other
//! side's version deployed in an environment, judged by `contract_schema::compat::check_with`
//! (the producer's sender view against the consumer's receiver view, with the consumer's
//! allowances, as `handoff diff --mode check` judges a pair). An edge whose other side has
//! no deployment in the environment is [`Verdict::Unknown`], and an unknown edge is not
//! deployable: nobody knows what would read it.
//!
//! The JSON form's keys are fixed (users script against them):
//! `{"deployable":BOOL,"edges":[{"from","to","contract","versions":{AGENT:REF},"verdict",
//! "findings":[{"rule","path","why"}]}]}`, `verdict` one of `ok`, `breaks`, `unknown`,
//! `findings` the breaking ones.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use contract_schema::compat::{self, CompatReport};
use contract_schema::ContractId;
use serde::Serialize;

use crate::manifest::Edge;
use crate::project::{Role, Side};
use crate::{Deployments, Error, Project};

/// The verdict on one edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// What the producer writes, the consumer reads.
    Ok,
    /// Something breaks: see the findings.
    Breaks,
    /// One side has no deployment in the environment.
    Unknown,
}

impl Verdict {
    /// `ok`, `breaks` or `unknown`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Breaks => "breaks",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A breaking finding, as the JSON form gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindingSummary {
    /// The rule id (`FIELD_REMOVED`).
    pub rule: String,
    /// The path in wire names (`lines[].qty`, `""` for the root).
    pub path: String,
    /// Why it breaks, in one line.
    pub why: String,
}

/// One edge judged.
#[derive(Debug, Clone, Serialize)]
pub struct EdgeReport {
    /// The producer.
    pub from: String,
    /// The consumer.
    pub to: String,
    /// The contract's name.
    pub contract: String,
    /// The version of each side that was judged (the other side's as deployed); a side with
    /// no deployment is absent.
    pub versions: BTreeMap<String, String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The breaking findings.
    pub findings: Vec<FindingSummary>,
    /// The line of the edge in the manifest.
    #[serde(skip)]
    pub line: usize,
    /// The contract version each side has (producer, consumer): none for a peer's JSON
    /// Schema or a side not judged.
    #[serde(skip)]
    pub majors: (Option<ContractId>, Option<ContractId>),
    /// The whole report, allowed findings included; none for an unknown edge.
    #[serde(skip)]
    pub report: Option<CompatReport>,
    /// The agents with no deployment in the environment (an unknown edge's).
    #[serde(skip)]
    pub undeployed: Vec<String>,
    /// The import warnings of a peer's JSON Schema side.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Whether an agent's version can be deployed to an environment.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Every edge is [`Verdict::Ok`].
    pub deployable: bool,
    /// Every edge touching the agent, in the manifest's order.
    pub edges: Vec<EdgeReport>,
    /// The agent.
    #[serde(skip)]
    pub agent: String,
    /// Its version, as asked.
    #[serde(skip)]
    pub version: String,
    /// The environment.
    #[serde(skip)]
    pub env: String,
}

/// A side to judge: an agent at a version, or not deployed.
#[derive(Clone, Copy)]
struct At<'a> {
    agent: &'a str,
    /// The ref as given or recorded, and its commit; none when not deployed.
    version: Option<(&'a str, &'a str)>,
}

/// Judges `edge` with each side at its version.
fn judge(project: &Project, edge: &Edge, from: At<'_>, to: At<'_>) -> Result<EdgeReport, Error> {
    let mut versions = BTreeMap::new();
    let mut undeployed = Vec::new();
    for at in [from, to] {
        match at.version {
            Some((version, _)) => {
                versions.insert(at.agent.to_owned(), version.to_owned());
            }
            None if !undeployed.iter().any(|a| a == at.agent) => {
                undeployed.push(at.agent.to_owned());
            }
            None => {}
        }
    }
    let mut out = EdgeReport {
        from: edge.from.clone(),
        to: edge.to.clone(),
        contract: edge.contract.clone(),
        versions,
        verdict: Verdict::Unknown,
        findings: Vec::new(),
        line: edge.line,
        majors: (None, None),
        report: None,
        undeployed,
        warnings: Vec::new(),
    };
    // Each side known is read, so that a mistake on it is said even when the edge is
    // unknown for the other's lack of a deployment.
    let read = |at: At<'_>, role| -> Result<Option<std::rc::Rc<Side>>, Error> {
        at.version
            .map(|(version, commit)| project.side(at.agent, version, commit, edge, role))
            .transpose()
    };
    let producer = read(from, Role::Producer)?;
    let consumer = read(to, Role::Consumer)?;
    out.majors = (
        producer.as_ref().and_then(|s| s.contract.clone()),
        consumer.as_ref().and_then(|s| s.contract.clone()),
    );
    for side in producer.iter().chain(&consumer) {
        out.warnings.extend(side.warnings.iter().cloned());
    }
    let (Some(producer), Some(consumer)) = (producer, consumer) else {
        return Ok(out);
    };
    let report = compat::check_with(
        &producer.schema,
        &consumer.schema,
        &consumer.schema.allowances,
    );
    out.verdict = if report.is_compatible() {
        Verdict::Ok
    } else {
        Verdict::Breaks
    };
    out.findings = report
        .breaking()
        .map(|f| FindingSummary {
            rule: f.rule.id().to_owned(),
            path: f.path.clone(),
            why: f.why.clone(),
        })
        .collect();
    out.report = Some(report);
    Ok(out)
}

/// Whether `agent` at `version` can be deployed where `deployed` runs: every edge touching
/// it, its side at `version` against the other side's deployment. An agent on no edge is
/// deployable.
///
/// # Errors
///
/// An agent the manifest does not have, a `version` that names no commit, or a side that
/// is not there or does not read (see [`Project::side`]).
pub fn can_i_deploy(
    project: &Project,
    agent: &str,
    version: &str,
    deployed: &Deployments,
) -> Result<Report, Error> {
    let commit = project.resolve(agent, version)?;
    let mut edges = Vec::new();
    for edge in project.manifest().edges_of(agent) {
        let side = |name: &str| -> Result<At<'_>, Error> {
            if name == agent {
                return Ok(At {
                    agent,
                    version: Some((version, commit.as_str())),
                });
            }
            Ok(At {
                agent: project.manifest().agent(name)?.name.as_str(),
                version: deployed
                    .get(name)
                    .map(|d| (d.version.as_str(), d.commit.as_str())),
            })
        };
        let (from, to) = (side(&edge.from)?, side(&edge.to)?);
        edges.push(judge(project, edge, from, to)?);
    }
    Ok(Report {
        deployable: edges.iter().all(|e| e.verdict == Verdict::Ok),
        edges,
        agent: agent.to_owned(),
        version: version.to_owned(),
        env: deployed.env.clone(),
    })
}

/// Every edge of the manifest judged with both sides as deployed in `deployed`, in the
/// manifest's order.
///
/// # Errors
///
/// A side that is not there or does not read (see [`Project::side`]).
pub fn verdicts(project: &Project, deployed: &Deployments) -> Result<Vec<EdgeReport>, Error> {
    project
        .manifest()
        .edges
        .iter()
        .map(|edge| {
            let at = |name: &'_ str| {
                let version = deployed
                    .get(name)
                    .map(|d| (d.version.as_str(), d.commit.as_str()));
                (name.to_owned(), version)
            };
            let (from, from_version) = at(&edge.from);
            let (to, to_version) = at(&edge.to);
            judge(
                project,
                edge,
                At {
                    agent: &from,
                    version: from_version,
                },
                At {
                    agent: &to,
                    version: to_version,
                },
            )
        })
        .collect()
}

impl Report {
    /// The human form: a verdict line, a matrix of the edges (from, to, contract, each
    /// side's version and the contract version read there, verdict), then what breaks and
    /// what is unknown.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let breaks = self
            .edges
            .iter()
            .filter(|e| e.verdict == Verdict::Breaks)
            .count();
        let unknown = self
            .edges
            .iter()
            .filter(|e| e.verdict == Verdict::Unknown)
            .count();
        let _ = write!(
            out,
            "can-i-deploy {} at {} to {}: {}",
            self.agent,
            self.version,
            self.env,
            if self.deployable { "yes" } else { "no" }
        );
        let n = self.edges.len();
        let _ = writeln!(
            out,
            " ({n} edge{}{}{})",
            if n == 1 { "" } else { "s" },
            if breaks > 0 {
                format!(", {breaks} breaking")
            } else {
                String::new()
            },
            if unknown > 0 {
                format!(", {unknown} unknown")
            } else {
                String::new()
            }
        );
        if self.edges.is_empty() {
            let _ = writeln!(out, "\n{} is on no edge of the manifest", self.agent);
            return out;
        }
        let mut rows = vec![[
            "FROM".to_owned(),
            "TO".to_owned(),
            "CONTRACT".to_owned(),
            "FROM VERSION".to_owned(),
            "TO VERSION".to_owned(),
            "VERDICT".to_owned(),
        ]];
        for e in &self.edges {
            let cell = |agent: &str, major: &Option<ContractId>| match e.versions.get(agent) {
                None => "not deployed".to_owned(),
                Some(version) => match major {
                    Some(id) => format!("{version} (v{})", id.version),
                    None => format!("{version} (JSON Schema)"),
                },
            };
            rows.push([
                e.from.clone(),
                e.to.clone(),
                e.contract.clone(),
                cell(&e.from, &e.majors.0),
                cell(&e.to, &e.majors.1),
                e.verdict.as_str().to_owned(),
            ]);
        }
        let widths: Vec<usize> = (0..6)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        out.push('\n');
        for row in &rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c + 1 == row.len() {
                    line.push_str(cell);
                } else {
                    let pad = widths[c] - cell.chars().count();
                    let _ = write!(line, "{cell}{}  ", " ".repeat(pad));
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        for e in &self.edges {
            let edge = format!("{} -> {} ({})", e.from, e.to, e.contract);
            match e.verdict {
                Verdict::Ok => {}
                Verdict::Unknown => {
                    let _ = writeln!(
                        out,
                        "\n{edge}: unknown: {} has no deployment in {}",
                        e.undeployed.join(" and "),
                        self.env
                    );
                }
                Verdict::Breaks => {
                    let _ = writeln!(out, "\n{edge}: breaks");
                    if let Some(report) = &e.report {
                        let _ = writeln!(out, "\n{report}");
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_keys_are_the_documented_ones() {
        let report = Report {
            deployable: false,
            edges: vec![EdgeReport {
                from: "a".into(),
                to: "b".into(),
                contract: "c".into(),
                versions: [("a".to_owned(), "v2".to_owned())].into(),
                verdict: Verdict::Unknown,
                findings: vec![FindingSummary {
                    rule: "FIELD_REMOVED".into(),
                    path: "x".into(),
                    why: "gone".into(),
                }],
                line: 3,
                majors: (None, None),
                report: None,
                undeployed: vec!["b".into()],
                warnings: vec!["w".into()],
            }],
            agent: "a".into(),
            version: "v2".into(),
            env: "prod".into(),
        };
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({
                "deployable": false,
                "edges": [{
                    "from": "a", "to": "b", "contract": "c",
                    "versions": {"a": "v2"},
                    "verdict": "unknown",
                    "findings": [{"rule": "FIELD_REMOVED", "path": "x", "why": "gone"}]
                }]
            })
        );
        let text = report.to_text();
        assert!(
            text.starts_with("can-i-deploy a at v2 to prod: no (1 edge, 1 unknown)\n"),
            "{text}"
        );
        assert!(
            text.contains("a -> b (c): unknown: b has no deployment in prod"),
            "{text}"
        );
        assert!(text.contains("not deployed"), "{text}");
    }
}
