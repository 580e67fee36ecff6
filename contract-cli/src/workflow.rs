//! `record-deployment`, `can-i-deploy` and `graph`: where the manifest and the store are,
//! then `contract_workflow`'s answer printed. Nothing is judged here.

use std::path::{Path, PathBuf};

use contract_workflow::deploy::{self, Verdict};
use contract_workflow::project::{default_manifest, default_store};
use contract_workflow::{graph, Deployments, PostgresStore, Project, Report, SqliteStore};

use crate::args::{CanIDeployArgs, Format, GraphArgs, GraphFormat, RecordArgs, WorkflowPlace};
use crate::github::{Annotation, Level};
use crate::output::{print, to_json};

/// Where the deployments are kept: an SQLite file, or a schema of a PostgreSQL database.
enum Store {
    Sqlite(PathBuf),
    Postgres { url: String, schema: String },
}

/// The manifest (as messages name it: from the current directory when it is under it) and
/// the store.
fn places(place: &WorkflowPlace) -> Result<(PathBuf, Store), String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let manifest = match &place.manifest {
        Some(path) => path.clone(),
        None => {
            let found = default_manifest(&cwd);
            found
                .strip_prefix(&cwd)
                .map(Path::to_owned)
                .unwrap_or(found)
        }
    };
    let store = match &place.store {
        Some(store) => {
            let text = store.to_string_lossy();
            if text.starts_with("postgres://") || text.starts_with("postgresql://") {
                Store::Postgres {
                    url: text.into_owned(),
                    schema: place.schema.clone(),
                }
            } else {
                Store::Sqlite(store.clone())
            }
        }
        None => Store::Sqlite(default_store(&manifest)),
    };
    Ok((manifest, store))
}

/// What runs in `env`, from the store (nothing when it was never written).
fn deployed(store: &Store, env: &str) -> Result<Deployments, String> {
    match store {
        Store::Sqlite(path) => match SqliteStore::open_existing(path).map_err(|e| e.to_string())? {
            Some(store) => store.deployed(env).map_err(|e| e.to_string()),
            None => Ok(Deployments::none(env)),
        },
        Store::Postgres { url, schema } => PostgresStore::connect(url, schema, false)
            .and_then(|mut store| store.deployed(env))
            .map_err(|e| e.to_string()),
    }
}

/// `handoff record-deployment AGENT --version REF --env ENV`.
pub fn record(args: &RecordArgs) -> Result<bool, String> {
    let (manifest, store) = places(&args.place)?;
    let project = Project::open(&manifest).map_err(|e| e.to_string())?;
    let commit = project
        .resolve(&args.agent, &args.version)
        .map_err(|e| e.to_string())?;
    match &store {
        Store::Sqlite(path) => SqliteStore::open(path)
            .and_then(|s| s.record(&args.env, &args.agent, &args.version, &commit)),
        Store::Postgres { url, schema } => PostgresStore::connect(url, schema, true)
            .and_then(|mut s| s.record(&args.env, &args.agent, &args.version, &commit)),
    }
    .map_err(|e| e.to_string())?;
    print(&format!(
        "recorded: {} at {} ({}) in {}",
        args.agent,
        args.version,
        &commit[..commit.len().min(12)],
        args.env
    ));
    Ok(true)
}

/// `handoff can-i-deploy AGENT --version REF --to ENV`: true when deployable.
pub fn can_i_deploy(args: &CanIDeployArgs) -> Result<bool, String> {
    let (manifest, store) = places(&args.place)?;
    let project = Project::open(&manifest).map_err(|e| e.to_string())?;
    let deployed = deployed(&store, &args.to)?;
    let report = deploy::can_i_deploy(&project, &args.agent, &args.version, &deployed)
        .map_err(|e| e.to_string())?;
    match args.format {
        Format::Text => {
            for edge in &report.edges {
                for warning in &edge.warnings {
                    eprintln!("warning: {warning}");
                }
            }
            print(report.to_text().trim_end());
        }
        Format::Json => print(&to_json(&report)?),
        Format::Github => print(&github(&report, &manifest)),
    }
    Ok(report.deployable)
}

/// `--format github` for can-i-deploy: an error per breaking finding and per unknown edge,
/// on the edge's line of the manifest, then the verdict line.
fn github(report: &Report, manifest: &Path) -> String {
    let file = manifest.display().to_string();
    let mut out = Vec::new();
    for edge in &report.edges {
        let name = format!("{} -> {} ({})", edge.from, edge.to, edge.contract);
        for warning in &edge.warnings {
            out.push(Annotation {
                level: Level::Warning,
                file: Some(file.clone()),
                line: Some(edge.line),
                title: Some("JSON Schema import".to_owned()),
                message: format!("{name}: {warning}"),
            });
        }
        match edge.verdict {
            Verdict::Ok => {}
            Verdict::Unknown => out.push(Annotation {
                level: Level::Error,
                file: Some(file.clone()),
                line: Some(edge.line),
                title: Some("can-i-deploy".to_owned()),
                message: format!(
                    "{name}: unknown: {} has no deployment in {}",
                    edge.undeployed.join(" and "),
                    report.env
                ),
            }),
            Verdict::Breaks => {
                for finding in &edge.findings {
                    let path = if finding.path.is_empty() {
                        String::new()
                    } else {
                        format!("`{}`: ", finding.path)
                    };
                    out.push(Annotation {
                        level: Level::Error,
                        file: Some(file.clone()),
                        line: Some(edge.line),
                        title: Some(finding.rule.clone()),
                        message: format!("{name}: {path}{}", finding.why),
                    });
                }
            }
        }
    }
    let mut lines: Vec<String> = out.iter().map(ToString::to_string).collect();
    let text = report.to_text();
    lines.push(text.lines().next().unwrap_or_default().to_owned());
    lines.join("\n")
}

/// `handoff graph [--format mermaid|html] [--env ENV]`.
pub fn graph(args: &GraphArgs) -> Result<bool, String> {
    let (manifest, store) = places(&args.place)?;
    let project = Project::open(&manifest).map_err(|e| e.to_string())?;
    let judged = match &args.env {
        Some(env) => {
            let deployed = deployed(&store, env)?;
            Some(deploy::verdicts(&project, &deployed).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let verdicts = judged.as_deref();
    match args.format {
        GraphFormat::Mermaid => print(graph::mermaid(project.manifest(), verdicts).trim_end()),
        GraphFormat::Html => {
            let title = match &args.env {
                Some(env) => format!("handoff graph: {env}"),
                None => "handoff graph".to_owned(),
            };
            print(graph::html(project.manifest(), verdicts, &title).trim_end());
        }
    }
    Ok(true)
}
