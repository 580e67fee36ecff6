//! `handoff`: compatibility of handoff-contract snapshots, and their JSON Schema, for CI.
//!
//! - `handoff diff OLD.snap NEW.snap [--mode backward|forward|full|check] [--format text|json]`;
//!   with `--mode check`, either side may be a peer's JSON Schema (a `.json` file: pydantic,
//!   zod, or this tool's own export), imported with `contract_schema::json_schema::import` in
//!   its position's view: the producer's (first) as a sender view, the consumer's (second) as
//!   a receiver view. The import's warnings go to stderr as `warning: FILE: #POINTER: MESSAGE`
//!   in text; in JSON they are the document's `warnings` array (`file`, `pointer`,
//!   `message`), and stderr stays quiet. A schema the import refuses exits 2 with
//!   `error: FILE: #POINTER: MESSAGE`. The fix hints of a peer's side are said in its terms
//!   (`contract_schema::compat::check_peer`): `--peer pydantic|zod|json-schema` names who
//!   wrote the `.json` side(s); the default, `auto`, tells it from each document
//!   (`contract_schema::compat::Peer::of_document`: this tool's own export keeps Rust's).
//! - `handoff check OLD_DIR NEW_DIR [--format text|json]`
//! - `handoff check --against GIT_REF [DIR…]`: each folder (default: the snapshot folders
//!   of the current directory's crates, see [`workspace`], else `contracts`) of the
//!   working tree against the same folder at a git ref, read with `git` (see [`git`]); a
//!   folder missing at the ref holds new contracts.
//! - `--format github` (`diff`, `check`): GitHub Actions annotations (see [`github`]), each
//!   on the line of the new snapshot its finding is about, its message starting with the
//!   finding's path; without a line (a peer's JSON Schema, a removed snapshot) on the file
//!   alone.
//! - `handoff json-schema SNAPSHOT [--view sender|receiver] [--no-annotations] [--out FILE]`:
//!   the JSON Schema (draft 2020-12) of one snapshot in the chosen view (receiver by
//!   default), pretty-printed to stdout or FILE, so that a peer in another language gets the
//!   schema in CI without compiling Rust. The document carries `x-handoff-contract` (for a
//!   contract) and `x-handoff-view`; see `contract_schema::json_schema` for the rest.
//!   `--no-annotations` leaves out every `x-handoff-*` keyword
//!   (`contract_schema::json_schema::without_annotations`), for a validator that refuses
//!   keywords it does not know.
//!
//! `diff` and `check` honour the findings the NEW snapshot accepts on purpose (its `allow`
//! lines, from `#[handoff(allow(RULE_ID, reason = "…"))]`): they are printed as allowed,
//! with their reason, and do not fail the comparison.
//!
//! - `handoff record-deployment AGENT --version REF --env ENV`, `handoff can-i-deploy AGENT
//!   --version REF --to ENV [--format text|json|github]`, `handoff graph [--format
//!   mermaid|html] [--env ENV]`: the workflow of a `handoff.toml`, answered by
//!   `contract_workflow` (see [`workflow`]).
//! - `handoff sessions --ledger URL… [--schema NAME] [--workflow NAME] [--since WHEN]
//!   [--format text|json]`, `handoff session ID --ledger URL… [--format
//!   text|json|mermaid|html] [--out FILE]`: the sessions the inboxes' ledgers recorded, and
//!   one session's journey across them, gathered by `contract_core::session` (see
//!   [`sessions`]) from SQLite files and PostgreSQL schemas opened for reading only.
//! - `handoff completions SHELL`: a completion script.
//!
//! Exit status: 0 compatible (for `json-schema`: written), 1 breaking (for `session`: no step
//! of the session in any ledger), 2 usage error, unreadable input (a ledger that does not
//! open) or an output file that cannot be written (the message names the file, and the line
//! and column of a text that does not parse).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod args;
mod git;
mod github;
mod output;
mod sessions;
mod snapshots;
mod workflow;
mod workspace;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use contract_schema::compat::{self, CompatReport, Direction, Finding, Fix, Peer, PeerSides, Rule};
use contract_schema::json_schema::{
    import, to_json_schema, without_annotations, ImportWarning, View,
};
use contract_schema::text::SourceMap;
use contract_schema::{snapshot, ContractId, Schema};
use serde::Serialize;

use args::{Cli, Command, DiffMode, Format};
use clap::CommandFactory as _;
use github::{Annotation, Level};
use output::{print, to_json};
use workspace::Folder;

/// Exit status of a compatible comparison (or a schema written).
const COMPATIBLE: u8 = 0;
/// Exit status when something breaks.
const BREAKING: u8 = 1;
/// Exit status of a usage error or unreadable input.
const UNUSABLE: u8 = 2;

fn main() -> ExitCode {
    // `args_os`: `args` panics on an argument that is not UTF-8 (a path may be anything).
    let cli = match Cli::parse_checked(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own form: the error and the usage on stderr (exit status 2), or
            // `--help` and `--version` on stdout (exit status 0).
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { UNUSABLE } else { COMPATIBLE });
        }
    };
    let outcome = match cli.command {
        Command::Diff(a) => diff(&a.old, &a.new, a.mode, a.format, a.peer),
        Command::Check(a) => match a.against {
            None => check(&a.dirs[0], &a.dirs[1], a.format),
            Some(git_ref) => {
                let dirs = a
                    .dirs
                    .into_iter()
                    .map(|dir| Folder { dir, listed: true })
                    .collect();
                check_against(&git_ref, dirs, a.format)
            }
        },
        Command::JsonSchema(a) => match a.dialect {
            Some(dialect) => json_schema_dialect(&a.snapshot, dialect.into(), a.out.as_deref()),
            None => json_schema(
                &a.snapshot,
                a.view.into(),
                a.out.as_deref(),
                !a.no_annotations,
            ),
        },
        Command::Completions(a) => completions(a.shell),
        Command::RecordDeployment(a) => workflow::record(&a),
        Command::CanIDeploy(a) => workflow::can_i_deploy(&a),
        Command::Graph(a) => workflow::graph(&a),
        Command::Sessions(a) => sessions::sessions(&a),
        Command::Session(a) => sessions::session(&a),
    };
    match outcome {
        Ok(true) => ExitCode::from(COMPATIBLE),
        Ok(false) => ExitCode::from(BREAKING),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(UNUSABLE)
        }
    }
}

/// Writes the completion script of `shell` to stdout.
fn completions(shell: clap_complete::Shell) -> Result<bool, String> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "handoff", &mut script);
    let mut out = std::io::stdout().lock();
    // A closed pipe is not an error worth a panic.
    let _ = out.write_all(&script);
    Ok(true)
}

/// Writes the JSON Schema of the snapshot at `path` in `view` to `out`, or to stdout.
fn json_schema(
    path: &Path,
    view: View,
    out: Option<&Path>,
    annotations: bool,
) -> Result<bool, String> {
    let schema = snapshots::read(path)?;
    let mut document = to_json_schema(&schema, view);
    if !annotations {
        document = without_annotations(document);
    }
    let text = to_json(&document)?;
    match out {
        None => print(&text),
        Some(out) => std::fs::write(out, format!("{text}\n"))
            .map_err(|e| format!("{}: cannot write the JSON Schema: {e}", out.display()))?,
    }
    Ok(true)
}

/// `handoff json-schema SNAP --dialect D`: the receiver view in a provider's dialect, each
/// narrowing on stderr; a contract the dialect cannot state is an error (exit 2).
fn json_schema_dialect(
    path: &Path,
    dialect: contract_schema::json_schema::dialect::Dialect,
    out: Option<&Path>,
) -> Result<bool, String> {
    let schema = snapshots::read(path)?;
    let export = contract_schema::json_schema::dialect::to_dialect(&schema, dialect)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &export.warnings {
        eprintln!("warning: {dialect}: {warning}");
    }
    let text = to_json(&export.schema)?;
    match out {
        None => print(&text),
        Some(out) => std::fs::write(out, format!("{text}\n"))
            .map_err(|e| format!("{}: cannot write the JSON Schema: {e}", out.display()))?,
    }
    Ok(true)
}

#[derive(Serialize)]
struct DiffOutput<'a> {
    old: String,
    new: String,
    mode: &'static str,
    #[serde(flatten)]
    report: &'a CompatReport,
    /// The import warnings of a `.json` side; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<ImportNote>,
}

/// An import warning of a peer's JSON Schema, in `diff`'s JSON output.
#[derive(Serialize)]
struct ImportNote {
    file: String,
    #[serde(flatten)]
    warning: ImportWarning,
}

/// One side of `diff`: a snapshot, or (a `.json` file) a peer's JSON Schema imported in
/// `view`, its warnings added to `notes`, with the peer its fixes are said for (`peer`,
/// or told from the document).
fn diff_side(
    path: &Path,
    view: View,
    peer: args::PeerArg,
    notes: &mut Vec<ImportNote>,
) -> Result<(Schema, Option<Peer>), String> {
    if !args::is_json_schema(path) {
        return Ok((snapshots::read(path)?, None));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: cannot read the JSON Schema: {e}", path.display()))?;
    let doc: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "{}:{}:{}: not JSON: {}",
            path.display(),
            e.line(),
            e.column(),
            json_error_kind(&e)
        )
    })?;
    let imported = import(&doc, view).map_err(|e| format!("{}: {e}", path.display()))?;
    notes.extend(imported.warnings.into_iter().map(|warning| ImportNote {
        file: path.display().to_string(),
        warning,
    }));
    Ok((imported.schema, peer.of(&doc)))
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

fn diff(
    old: &Path,
    new: &Path,
    mode: Option<DiffMode>,
    format: Format,
    peer: args::PeerArg,
) -> Result<bool, String> {
    // A `.json` side is read only in check mode (the arguments say so): the producer's
    // schema as a sender view, the consumer's as a receiver view. A new snapshot is read with
    // the line of each element, for `--format github`; a JSON Schema has no such lines.
    let mut notes = Vec::new();
    let (old_schema, producer_peer) = diff_side(old, View::Sender, peer, &mut notes)?;
    let mut peers = PeerSides {
        producer: producer_peer,
        consumer: None,
    };
    let located = if args::is_json_schema(new) {
        None
    } else {
        Some(Located::read(new, new.display().to_string())?)
    };
    let imported_new;
    let new_schema = match &located {
        Some(located) => &located.schema,
        None => {
            let (schema, consumer_peer) = diff_side(new, View::Receiver, peer, &mut notes)?;
            peers.consumer = consumer_peer;
            imported_new = schema;
            &imported_new
        }
    };
    if format == Format::Text {
        for note in &notes {
            eprintln!("warning: {}: {}", note.file, note.warning);
        }
    }
    // Two versions compare under the mode asked for, else the one the new snapshot declares.
    let mode = mode.unwrap_or(DiffMode::Evolve(new_schema.mode));
    // The findings the new snapshot accepts on purpose are reported as allowed, with their
    // reason, and do not fail the comparison.
    let allowances = &new_schema.allowances;
    let (report, mode_name) = match mode {
        DiffMode::Evolve(m) => (
            compat::evolve_with(&old_schema, new_schema, m, allowances),
            m.as_str(),
        ),
        // A peer's side is told its fixes in its own terms.
        DiffMode::Check => (
            compat::check_peer_with(&old_schema, new_schema, peers, allowances),
            "check",
        ),
    };
    match format {
        Format::Text => print(&format!(
            "handoff diff {} -> {} (mode {mode_name})\n\n{report}",
            old.display(),
            new.display(),
        )),
        Format::Json => print(&to_json(&DiffOutput {
            old: old.display().to_string(),
            new: new.display().to_string(),
            mode: mode_name,
            report: &report,
            warnings: notes,
        })?),
        Format::Github => {
            for note in &notes {
                print(
                    &Annotation {
                        level: Level::Warning,
                        file: Some(note.file.clone()),
                        line: None,
                        title: Some("JSON Schema import".to_owned()),
                        message: note.warning.to_string(),
                    }
                    .to_string(),
                );
            }
            let json_file = new.display().to_string();
            for annotation in annotations(&report, located.as_ref(), Some(&json_file)) {
                print(&annotation.to_string());
            }
            print(&format!(
                "handoff diff {} -> {} (mode {mode_name}): {}",
                old.display(),
                new.display(),
                summary(&report)
            ));
        }
    }
    Ok(report.is_compatible())
}

/// A new snapshot as read, with what `--format github` needs to place its findings: the
/// file as annotations name it, and the line of each element.
struct Located {
    file: String,
    schema: Schema,
    lines: SourceMap,
}

impl Located {
    /// Reads the snapshot at `path`, which annotations call `file`.
    fn read(path: &Path, file: String) -> Result<Self, String> {
        let (schema, lines) = snapshot::read_with_lines(path).map_err(|e| e.to_string())?;
        Ok(Located {
            file,
            schema,
            lines,
        })
    }
}

/// The annotations of the findings of `report`, each on its line of the new snapshot when
/// there is one (`new`), else naming `file` alone (a peer's JSON Schema, a removed
/// snapshot's old file).
fn annotations(
    report: &CompatReport,
    new: Option<&Located>,
    file: Option<&str>,
) -> Vec<Annotation> {
    let placed: Vec<github::Placed<'_>> = report
        .findings()
        .iter()
        .map(|finding| github::Placed {
            finding,
            file: new
                .map(|n| n.file.clone())
                .or_else(|| file.map(str::to_owned)),
            line: new.and_then(|n| snapshot::finding_line(&n.schema, &n.lines, finding)),
        })
        .collect();
    github::of_findings(&placed)
}

/// The last line of a report's text: `compatible`, `incompatible: N breaking findings`.
fn summary(report: &CompatReport) -> String {
    let text = report.to_string();
    text.lines().last().unwrap_or_default().to_owned()
}

/// What became of one contract major between the two folders.
#[derive(Serialize)]
struct ContractOutcome {
    contract: String,
    status: &'static str,
    mode: Option<&'static str>,
    report: CompatReport,
    /// Today's snapshot, to place annotations; none for a removed one.
    #[serde(skip)]
    new: Option<Located>,
    /// The removed snapshot's file, which its annotation names.
    #[serde(skip)]
    old_file: Option<String>,
}

#[derive(Serialize)]
struct CheckOutput {
    old: String,
    new: String,
    compatible: bool,
    contracts: Vec<ContractOutcome>,
}

/// The older side of a folder comparison: its snapshots by contract version, named for
/// messages, and how to read one.
struct OldFolder<'a, K> {
    /// The folder as messages name it.
    name: String,
    snapshots: BTreeMap<ContractId, K>,
    read: &'a dyn Fn(&K) -> Result<Schema, String>,
    /// The name an annotation gives a snapshot (for a removed one).
    file: &'a dyn Fn(&K) -> String,
}

/// The newer side: the folder as messages name it, its snapshot files, and the name an
/// annotation gives each (its path from the repository's root when known).
struct NewFolder<'a> {
    name: String,
    snapshots: BTreeMap<ContractId, PathBuf>,
    file: &'a dyn Fn(&Path) -> String,
}

/// Compares every contract major of two folders: each one in both under the new
/// snapshot's mode and allowances, each published one that disappeared, each new one read
/// (an unreadable new snapshot must not pass CI).
fn compare_folders<K>(
    old: &OldFolder<'_, K>,
    new: &NewFolder<'_>,
) -> Result<Vec<ContractOutcome>, String> {
    let mut contracts = Vec::new();
    for (contract, old_snapshot) in &old.snapshots {
        let id = contract.to_string();
        let Some(new_path) = new.snapshots.get(contract) else {
            let version = contract.version;
            let why = format!(
                "`{id}` was published in {} but its snapshot is missing from {}",
                old.name, new.name
            );
            let hint = format!(
                "restore `{}` while consumers of v{version} remain (a producer may keep emitting v{version} beside newer majors)",
                snapshot::file_name(&contract.name, version)
            );
            let finding = Finding::new(
                Rule::PublishedVersionRemoved,
                "",
                Direction::Forward,
                why,
                hint,
                Fix::Described,
            );
            contracts.push(ContractOutcome {
                contract: id,
                status: "removed",
                mode: None,
                report: CompatReport::new(vec![finding]),
                new: None,
                old_file: Some((old.file)(old_snapshot)),
            });
            continue;
        };
        let old_schema = (old.read)(old_snapshot)?;
        let located = Located::read(new_path, (new.file)(new_path))?;
        let new_schema = &located.schema;
        let mode = new_schema.mode;
        let report = compat::evolve_with(&old_schema, new_schema, mode, &new_schema.allowances);
        contracts.push(ContractOutcome {
            contract: id,
            status: if report.is_compatible() {
                "compatible"
            } else {
                "breaking"
            },
            mode: Some(mode.as_str()),
            report,
            new: Some(located),
            old_file: None,
        });
    }
    for (contract, path) in &new.snapshots {
        if !old.snapshots.contains_key(contract) {
            let located = Located::read(path, (new.file)(path))?;
            contracts.push(ContractOutcome {
                contract: contract.to_string(),
                status: "new",
                mode: None,
                report: CompatReport::default(),
                new: Some(located),
                old_file: None,
            });
        }
    }
    Ok(contracts)
}

/// The warning for a file left out as misnamed, as `format` prints it: on stderr, and for
/// `github` also as an annotation on stdout.
fn warn_misnamed(path: &Path, file: &str, format: Format) {
    eprintln!("{}", snapshots::misnamed_warning(path));
    if format == Format::Github {
        let message = snapshots::misnamed_warning(path);
        let message = message.strip_prefix("warning: ").unwrap_or(&message);
        print(
            &Annotation {
                level: Level::Warning,
                file: Some(file.to_owned()),
                line: None,
                title: None,
                message: message.to_owned(),
            }
            .to_string(),
        );
    }
}

fn check(old_dir: &Path, new_dir: &Path, format: Format) -> Result<bool, String> {
    let old = snapshots::list(old_dir)?;
    let new = snapshots::list(new_dir)?;
    for path in old.misnamed.iter().chain(&new.misnamed) {
        warn_misnamed(path, &path.display().to_string(), format);
    }
    let read = |path: &PathBuf| snapshots::read(path);
    let file = |path: &Path| path.display().to_string();
    let old_file = |path: &PathBuf| path.display().to_string();
    let contracts = compare_folders(
        &OldFolder {
            name: old_dir.display().to_string(),
            snapshots: old.snapshots,
            read: &read,
            file: &old_file,
        },
        &NewFolder {
            name: new_dir.display().to_string(),
            snapshots: new.snapshots,
            file: &file,
        },
    )?;
    let compatible = contracts.iter().all(|c| c.report.is_compatible());
    let title = format!(
        "handoff check {} -> {}",
        old_dir.display(),
        new_dir.display()
    );
    match format {
        Format::Text => print(&check_text(&title, &contracts)),
        Format::Json => print(&to_json(&CheckOutput {
            old: old_dir.display().to_string(),
            new: new_dir.display().to_string(),
            compatible,
            contracts,
        })?),
        Format::Github => print(&check_github(&title, &contracts)),
    }
    Ok(compatible)
}

/// `check --against`: the whole output, one document for every folder.
#[derive(Serialize)]
struct AgainstOutput {
    against: String,
    compatible: bool,
    folders: Vec<CheckOutput>,
}

/// Compares each folder of the working tree with the same folder at `git_ref`. Without
/// folders, those of the current directory's crates (see [`workspace`]): each one listed in
/// a `Cargo.toml`, and each crate's default `contracts` found in the working tree or at the
/// ref; `contracts` when there is none.
fn check_against(git_ref: &str, dirs: Vec<Folder>, format: Format) -> Result<bool, String> {
    let commit = git::Commit::resolve(git_ref)?;
    let mut listings = Vec::new();
    let dirs = if dirs.is_empty() {
        workspace::snapshot_folders(Path::new("."))?
    } else {
        dirs
    };
    for folder in dirs {
        let in_repo = commit.in_repository(&folder.dir)?;
        let old = commit.list(&in_repo)?;
        let somewhere =
            folder.dir.exists() || !old.snapshots.is_empty() || !old.misnamed.is_empty();
        if folder.listed || somewhere {
            listings.push((folder.dir, in_repo, old));
        }
    }
    if listings.is_empty() {
        let dir = PathBuf::from(workspace::DEFAULT_FOLDER);
        let in_repo = commit.in_repository(&dir)?;
        let old = commit.list(&in_repo)?;
        listings.push((dir, in_repo, old));
    }
    let mut folders = Vec::new();
    for (dir, in_repo, old) in listings {
        let dir = dir.as_path();
        // Today's folder may be gone, its contracts removed; a folder in neither is a typo.
        let new = match snapshots::list(dir) {
            Ok(listing) => listing,
            Err(_) if !dir.exists() && !old.snapshots.is_empty() => snapshots::Listing::default(),
            Err(e) => return Err(e),
        };
        for path in &old.misnamed {
            let shown = format!("{}:{}", commit.name, path.display());
            eprintln!("{}", snapshots::misnamed_warning(Path::new(&shown)));
        }
        for path in &new.misnamed {
            let file = relative_file(&in_repo, dir, path);
            warn_misnamed(path, &file, format);
        }
        let read = |(path, object): &(PathBuf, String)| {
            let shown = PathBuf::from(format!("{}:{}", commit.name, path.display()));
            let bytes = commit.read(object)?;
            snapshot::read_bytes(&shown, bytes).map_err(|e| e.to_string())
        };
        let file = |path: &Path| relative_file(&in_repo, dir, path);
        // A removed snapshot's path at the ref, from the repository's root.
        let old_file = |(path, _): &(PathBuf, String)| path.display().to_string();
        let contracts = compare_folders(
            &OldFolder {
                name: format!("{}:{}", commit.name, in_repo.display()),
                snapshots: old.snapshots,
                read: &read,
                file: &old_file,
            },
            &NewFolder {
                name: dir.display().to_string(),
                snapshots: new.snapshots,
                file: &file,
            },
        )?;
        folders.push(CheckOutput {
            old: format!("{}:{}", commit.name, in_repo.display()),
            new: dir.display().to_string(),
            compatible: contracts.iter().all(|c| c.report.is_compatible()),
            contracts,
        });
    }
    let compatible = folders.iter().all(|f| f.compatible);
    match format {
        Format::Text => {
            let texts: Vec<String> = folders
                .iter()
                .map(|f| {
                    let title = format!("handoff check {} -> {}", f.old, f.new);
                    check_text(&title, &f.contracts)
                })
                .collect();
            print(&texts.join("\n\n"));
        }
        Format::Json => print(&to_json(&AgainstOutput {
            against: git_ref.to_owned(),
            compatible,
            folders,
        })?),
        Format::Github => {
            for f in &folders {
                let title = format!("handoff check {} -> {}", f.old, f.new);
                print(&check_github(&title, &f.contracts));
            }
        }
    }
    Ok(compatible)
}

/// The path from the repository's root of `path`, a file of `dir` (a folder given from the
/// current directory, at `in_repo` from the root): GitHub places annotations by it.
fn relative_file(in_repo: &Path, dir: &Path, path: &Path) -> String {
    match path.strip_prefix(dir) {
        Ok(inside) => in_repo.join(inside).display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// `--format github` for `check`: each finding's annotation, then a summary line.
fn check_github(title: &str, contracts: &[ContractOutcome]) -> String {
    let mut out = Vec::new();
    for c in contracts {
        for annotation in annotations(&c.report, c.new.as_ref(), c.old_file.as_deref()) {
            out.push(annotation.to_string());
        }
    }
    out.push(format!("{title}: {}", check_summary(contracts)));
    out.join("\n")
}

fn check_text(title: &str, contracts: &[ContractOutcome]) -> String {
    let mut out = format!("{title}\n");
    for c in contracts {
        let mode = c.mode.map(|m| format!(" (mode {m})")).unwrap_or_default();
        out.push_str(&format!("\n{}{mode}: {}\n", c.contract, c.status));
        if !c.report.findings().is_empty() {
            out.push_str(&format!("\n{}\n", c.report));
        }
    }
    out.push_str(&format!("\n{}", check_summary(contracts)));
    out
}

/// `N contract versions checked: compatible` (or `: M breaking`).
fn check_summary(contracts: &[ContractOutcome]) -> String {
    let breaking = contracts
        .iter()
        .filter(|c| !c.report.is_compatible())
        .count();
    format!(
        "{} contract version{} checked: {}",
        contracts.len(),
        if contracts.len() == 1 { "" } else { "s" },
        if breaking == 0 {
            "compatible".to_owned()
        } else {
            format!("{breaking} breaking")
        }
    )
}
