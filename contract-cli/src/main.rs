//! `handoff`: compatibility of handoff-contract snapshots, and their JSON Schema, for CI.
//!
//! - `handoff diff OLD.snap NEW.snap [--mode backward|forward|full|check] [--format text|json]`;
//!   with `--mode check`, either side may be a peer's JSON Schema (a `.json` file: pydantic,
//!   zod, or this tool's own export), imported with `contract_schema::json_schema::import` in
//!   its position's view: the producer's (first) as a sender view, the consumer's (second) as
//!   a receiver view. The import's warnings go to stderr as `warning: FILE: #POINTER: MESSAGE`
//!   in text; in JSON they are the document's `warnings` array (`file`, `pointer`,
//!   `message`), and stderr stays quiet. A schema the import refuses exits 2 with
//!   `error: FILE: #POINTER: MESSAGE`.
//! - `handoff check OLD_DIR NEW_DIR [--format text|json]`
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
//! Exit status: 0 compatible (for `json-schema`: written), 1 breaking, 2 usage error,
//! unreadable input or an output file that cannot be written (the message names the file,
//! and the line and column of a text that does not parse).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod args;
mod snapshots;

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use contract_schema::compat::{self, CompatReport, Direction, Finding, Fix, Rule};
use contract_schema::json_schema::{
    import, to_json_schema, without_annotations, ImportWarning, View,
};
use contract_schema::snapshot;
use contract_schema::Schema;
use serde::Serialize;

use args::{Command, DiffMode, Format};

/// Exit status of a compatible comparison (or a schema written).
const COMPATIBLE: u8 = 0;
/// Exit status when something breaks.
const BREAKING: u8 = 1;
/// Exit status of a usage error or unreadable input.
const UNUSABLE: u8 = 2;

fn main() -> ExitCode {
    // `args_os`: `args` panics on an argument that is not UTF-8 (a path may be anything).
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let command = match args::parse(&argv) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("error: {message}\n\n{}", args::USAGE);
            return ExitCode::from(UNUSABLE);
        }
    };
    let outcome = match command {
        Command::Help => {
            println!("{}", args::USAGE);
            Ok(true)
        }
        Command::Version => {
            println!("handoff {}", env!("CARGO_PKG_VERSION"));
            Ok(true)
        }
        Command::Diff {
            old,
            new,
            mode,
            format,
        } => diff(&old, &new, mode, format),
        Command::Check { old, new, format } => check(&old, &new, format),
        Command::JsonSchema {
            snapshot,
            view,
            out,
            annotations,
        } => json_schema(&snapshot, view, out.as_deref(), annotations),
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

/// Prints `text` to stdout; a closed pipe is not an error worth a panic.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

fn to_json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("cannot write JSON: {e}"))
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
    pointer: String,
    message: String,
}

/// One side of `diff`: a snapshot, or (a `.json` file) a peer's JSON Schema imported in
/// `view`, its warnings added to `notes`.
fn diff_side(path: &Path, view: View, notes: &mut Vec<ImportNote>) -> Result<Schema, String> {
    if !args::is_json_schema(path) {
        return snapshots::read(path);
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
    notes.extend(imported.warnings.into_iter().map(|w| ImportNote {
        file: path.display().to_string(),
        pointer: w.pointer,
        message: w.message,
    }));
    Ok(imported.schema)
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

fn diff(old: &Path, new: &Path, mode: Option<DiffMode>, format: Format) -> Result<bool, String> {
    // A `.json` side is read only in check mode (the arguments say so): the producer's
    // schema as a sender view, the consumer's as a receiver view.
    let mut notes = Vec::new();
    let old_schema = diff_side(old, View::Sender, &mut notes)?;
    let new_schema = diff_side(new, View::Receiver, &mut notes)?;
    if format == Format::Text {
        for note in &notes {
            let warning = ImportWarning {
                pointer: note.pointer.clone(),
                message: note.message.clone(),
            };
            eprintln!("warning: {}: {warning}", note.file);
        }
    }
    // Two versions compare under the mode asked for, else the one the new snapshot declares.
    let mode = mode.unwrap_or(DiffMode::Evolve(new_schema.mode));
    // The findings the new snapshot accepts on purpose are reported as allowed, with their
    // reason, and do not fail the comparison.
    let allowances = &new_schema.allowances;
    let (report, mode_name) = match mode {
        DiffMode::Evolve(m) => (
            compat::evolve_with(&old_schema, &new_schema, m, allowances),
            m.as_str(),
        ),
        DiffMode::Check => (
            compat::check_with(&old_schema, &new_schema, allowances),
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
    }
    Ok(report.is_compatible())
}

/// What became of one contract major between the two folders.
#[derive(Serialize)]
struct ContractOutcome {
    contract: String,
    status: &'static str,
    mode: Option<&'static str>,
    report: CompatReport,
}

#[derive(Serialize)]
struct CheckOutput {
    old: String,
    new: String,
    compatible: bool,
    contracts: Vec<ContractOutcome>,
}

fn check(old_dir: &Path, new_dir: &Path, format: Format) -> Result<bool, String> {
    let old = snapshots::list(old_dir)?;
    let new = snapshots::list(new_dir)?;
    for path in old.misnamed.iter().chain(&new.misnamed) {
        eprintln!("{}", snapshots::misnamed_warning(path));
    }
    let (old, new) = (old.snapshots, new.snapshots);
    let mut contracts = Vec::new();
    for (contract, old_path) in &old {
        let id = contract.to_string();
        let Some(new_path) = new.get(contract) else {
            let version = contract.version;
            let why = format!(
                "`{id}` was published in {} but its snapshot is missing from {}",
                old_dir.display(),
                new_dir.display()
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
            });
            continue;
        };
        let old_schema = snapshots::read(old_path)?;
        let new_schema = snapshots::read(new_path)?;
        let mode = new_schema.mode;
        let report = compat::evolve_with(&old_schema, &new_schema, mode, &new_schema.allowances);
        contracts.push(ContractOutcome {
            contract: id,
            status: if report.is_compatible() {
                "compatible"
            } else {
                "breaking"
            },
            mode: Some(mode.as_str()),
            report,
        });
    }
    for (contract, path) in &new {
        if !old.contains_key(contract) {
            // Read it anyway: an unreadable new snapshot must not pass CI.
            snapshots::read(path)?;
            contracts.push(ContractOutcome {
                contract: contract.to_string(),
                status: "new",
                mode: None,
                report: CompatReport::default(),
            });
        }
    }
    let compatible = contracts.iter().all(|c| c.report.is_compatible());
    match format {
        Format::Text => print(&check_text(old_dir, new_dir, &contracts, compatible)),
        Format::Json => print(&to_json(&CheckOutput {
            old: old_dir.display().to_string(),
            new: new_dir.display().to_string(),
            compatible,
            contracts,
        })?),
    }
    Ok(compatible)
}

fn check_text(old: &Path, new: &Path, contracts: &[ContractOutcome], compatible: bool) -> String {
    let mut out = format!("handoff check {} -> {}\n", old.display(), new.display());
    for c in contracts {
        let mode = c.mode.map(|m| format!(" (mode {m})")).unwrap_or_default();
        out.push_str(&format!("\n{}{mode}: {}\n", c.contract, c.status));
        if !c.report.findings().is_empty() {
            out.push_str(&format!("\n{}\n", c.report));
        }
    }
    let breaking = contracts
        .iter()
        .filter(|c| !c.report.is_compatible())
        .count();
    out.push_str(&format!(
        "\n{} contract version{} checked: {}",
        contracts.len(),
        if contracts.len() == 1 { "" } else { "s" },
        if compatible {
            "compatible".to_owned()
        } else {
            format!("{breaking} breaking")
        }
    ));
    out
}
