//! The command line, parsed with clap's derive: one struct per subcommand, its long help
//! the documentation `--help` prints. What clap cannot say in a type (which options go
//! together) is checked in [`Cli::parse_checked`] and reported as a clap usage error.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::builder::PossibleValue;
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use contract_schema::compat::{Mode, Peer};
use contract_schema::json_schema::View;

/// The exit statuses, printed after every `--help`.
const EXIT_STATUS: &str = "\
exit status: 0 compatible, 1 breaking, 2 usage error or unreadable input
             (json-schema and completions: 0 when written, 2 on a usage error, an unreadable
             snapshot or a FILE that cannot be written; record-deployment and graph: 0 when
             done, 2 on a bad manifest, store or ref; can-i-deploy: 0 deployable, 1 not, 2 a
             bad manifest, store or ref; sessions: 0 listed, 2 a ledger that does not open;
             session: 0 shown, 1 no step of the session in any ledger, 2 a ledger that does
             not open or a FILE that cannot be written)";

/// What `handoff --help` says first.
const ABOUT_LONG: &str = "\
Compatibility of handoff-contract snapshots for CI: diffs of snapshot files, history checks
against a git ref, JSON Schema for peers in other languages, can-i-deploy over the agents
and edges of a `handoff.toml`, and the journeys of sessions read from the inboxes' ledgers.

install: cargo install --locked --path contract-cli   (from a clone of handoff-contract)
shell completions: handoff completions bash|zsh|fish|elvish|powershell";

/// `handoff`: compatibility of contract snapshots, and their JSON Schema, for CI.
#[derive(Debug, Parser)]
#[command(
    name = "handoff",
    version,
    about = "Compatibility of handoff-contract snapshots for CI",
    long_about = ABOUT_LONG,
    after_help = EXIT_STATUS,
    subcommand_required = true,
    arg_required_else_help = false
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Compare two snapshot files of one contract, or a producer with a consumer.
    #[command(after_help = EXIT_STATUS, long_about = DIFF_LONG)]
    Diff(DiffArgs),
    /// Compare two snapshot folders, or folders of the working tree with a git ref.
    #[command(after_help = EXIT_STATUS, long_about = CHECK_LONG)]
    Check(CheckArgs),
    /// Print the JSON Schema (draft 2020-12) of one snapshot file.
    #[command(after_help = EXIT_STATUS, long_about = JSON_SCHEMA_LONG)]
    JsonSchema(JsonSchemaArgs),
    /// Print a shell's completion script for `handoff`.
    #[command(after_help = EXIT_STATUS, long_about = COMPLETIONS_LONG)]
    Completions(CompletionsArgs),
    /// Record that a version of an agent runs in an environment.
    #[command(after_help = EXIT_STATUS, long_about = RECORD_LONG)]
    RecordDeployment(RecordArgs),
    /// Whether a version of an agent can be deployed to an environment.
    #[command(name = "can-i-deploy", after_help = EXIT_STATUS, long_about = CAN_I_DEPLOY_LONG)]
    CanIDeploy(CanIDeployArgs),
    /// Draw the graph of a `handoff.toml`, with each edge's verdict in an environment.
    #[command(after_help = EXIT_STATUS, long_about = GRAPH_LONG)]
    Graph(GraphArgs),
    /// List the sessions the inboxes' ledgers recorded.
    #[command(after_help = EXIT_STATUS, long_about = SESSIONS_LONG)]
    Sessions(SessionsArgs),
    /// Show one session's journey across the inboxes' ledgers.
    #[command(after_help = EXIT_STATUS, long_about = SESSION_LONG)]
    Session(SessionArgs),
}

const DIFF_LONG: &str = "\
Compares two snapshot files of one contract. The mode defaults to the one the new snapshot
declares (full when it declares none); `--mode check` compares a producer (OLD, say vendored
from its repository) with a consumer (NEW). In check mode either side may be a peer's JSON
Schema (`.json`, 2020-12 or draft-07: pydantic, zod), read as what a producer writes or a
consumer accepts, its warnings printed as `warning: FILE: #POINTER: MESSAGE`. A finding the
NEW snapshot accepts on purpose, in an `allow` line, is printed as allowed with its reason and
does not break.";

const CHECK_LONG: &str = "\
`check OLD_DIR NEW_DIR` compares two `contracts/` folders (say, the last release's and
today's): every contract major present in both under its declared mode, and every published
major that disappeared; a file named like a snapshot but not as one (`Refund.v1.snap`,
`a.v01.snap`) is left out with a warning. A finding the NEW snapshot accepts on purpose, in an
`allow` line, is printed as allowed with its reason and does not break.

`check --against GIT_REF [DIR...]` compares each DIR in the working tree with the same folder
at GIT_REF (the pull request's base), read with `git` from the current directory; a folder
missing at GIT_REF holds new contracts. Without DIR, the folders are those of the `Cargo.toml`
in the current directory: for a workspace, each member's (`[workspace] members`, globs
included, less `exclude`), for a package its own; each crate's
`[package.metadata.handoff] snapshots = [...]`, else its `contracts` folder when it has one;
`contracts` when none is found. A shallow clone lacks older commits: `actions/checkout` needs
`fetch-depth: 0`.

`--format github`: GitHub Actions annotations, `::error file=...,line=...,title=RULE_ID::`PATH`:
why; hint` per breaking finding, on the line of the NEW snapshot it is about (the line of the
struct or enum that held what is gone), `::warning` for an allowed one; `file=` is the path as
given, or with `--against` from the repository's root, and for a removed snapshot the old file
(no line). One rule on one line with one hint in both directions (a rename: a field removed,
another added) is one annotation naming both.";

const JSON_SCHEMA_LONG: &str = "\
Prints the JSON Schema (draft 2020-12) of one snapshot file, to stdout or FILE, for a peer
written in another language: the receiver view (what the consumer's Deserialize accepts, the
default) or the sender view (what the producer's Serialize writes). `--no-annotations` leaves
out the `x-handoff-*` keywords, for a validator that refuses keywords it does not know (ajv's
strict mode).";

const COMPLETIONS_LONG: &str = "\
Prints the completion script of a shell for `handoff`, to source or install:
`handoff completions bash > ~/.local/share/bash-completion/completions/handoff`,
`handoff completions zsh > ~/.zfunc/_handoff`,
`handoff completions fish > ~/.config/fish/completions/handoff.fish`.";

const RECORD_LONG: &str = "\
Records that AGENT (an agent of `handoff.toml`) runs at git ref VERSION in environment ENV:
the ref as given and the commit it names now, in the deployment store (an SQLite file,
`.handoff/deployments.sqlite` under the manifest's folder unless `--store` says otherwise).
The latest record of an agent in an environment is what runs there.";

const CAN_I_DEPLOY_LONG: &str = "\
Checks every edge of `handoff.toml` touching AGENT: AGENT's side at git ref VERSION (its
snapshot of the edge's contract at that ref, or a peer's JSON Schema in the role's view)
against the other side's version recorded in ENV, as producer (edge `from`) or consumer
(edge `to`), with the consumer's allowances. An edge whose other side has no deployment in ENV
is `unknown` and fails. Exit 0 deployable, 1 not, 2 a bad manifest, store or ref.

`--format json`: {\"deployable\":BOOL,\"edges\":[{\"from\",\"to\",\"contract\",\"versions\":{AGENT:REF},
\"verdict\":\"ok|breaks|unknown\",\"findings\":[{\"rule\",\"path\",\"why\"}]}]}";

const GRAPH_LONG: &str = "\
Draws the agents and edges of `handoff.toml`: a mermaid `flowchart LR` or one self-contained
HTML file (inline SVG, no network). With `--env ENV`, each edge shows its verdict for the
versions recorded there (green ok, red breaks, grey unknown).";

const SESSIONS_LONG: &str = "\
Lists the sessions the ledgers given recorded steps of (each agent's inbox may keep its own
ledger): each session's id, workflow, number of steps, outcomes and last activity, merged
across the ledgers, the most recently active first. The ledgers are opened for reading only:
nothing is written to them, nothing migrated.

--ledger URL (repeatable): `sqlite:PATH` or a path ending in `.sqlite` or `.db` (an SQLite
file), or a `postgres://` or `postgresql://` URL (libpq's form), whose ledger is read from the
schema `--schema` names (default `handoff`). A password in a URL is never shown.

`--format json`: {\"sessions\":[{\"session\",\"workflow\",\"steps\",\"outcomes\":{OUTCOME:N},
\"lastActivity\"}],\"ledgers\":[LEDGER]}";

const SESSION_LONG: &str = "\
Shows the journey of session ID from the ledgers given (each agent's inbox may keep its own
ledger): which agent handed what to whom, in the order of the declared edges (handoffFrom ->
handoffTo) and each ledger's own sequence, never by clocks; what arrived, what went missing
and why, each attempt's relation (first, an explicit retry naming retryOf, a related one), and
diagnostics; never a value of a payload. The ledgers are opened for reading only.

--ledger URL (repeatable): `sqlite:PATH` or a path ending in `.sqlite` or `.db` (an SQLite
file), or a `postgres://` or `postgresql://` URL (libpq's form), whose ledger is read from the
schema `--schema` names (default `handoff`). A password in a URL is never shown.

`--format`: text (for a terminal), json (the keys of `contract_core::session::json`), mermaid (a
flowchart), html (one self-contained page: the graph, a panel per clicked edge). Exit 1 when no
ledger has a step of the session.";

/// How a report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// Human text, like rustc.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…`), one per finding.
    Github,
}

/// How `graph` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum GraphFormat {
    /// A mermaid `flowchart LR`.
    #[default]
    Mermaid,
    /// One self-contained HTML page with an inline SVG.
    Html,
}

/// How `diff` compares its two files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffMode {
    /// Two versions of one contract, in a compatibility mode.
    Evolve(Mode),
    /// A producer's snapshot (first) against a consumer's (second).
    Check,
}

/// Every mode `--mode` takes: the compatibility modes, then `check`.
const DIFF_MODES: [DiffMode; 7] = [
    DiffMode::Evolve(Mode::Backward),
    DiffMode::Evolve(Mode::Forward),
    DiffMode::Evolve(Mode::Full),
    DiffMode::Evolve(Mode::BackwardTransitive),
    DiffMode::Evolve(Mode::ForwardTransitive),
    DiffMode::Evolve(Mode::FullTransitive),
    DiffMode::Check,
];

impl ValueEnum for DiffMode {
    fn value_variants<'a>() -> &'a [Self] {
        &DIFF_MODES
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            DiffMode::Evolve(mode) => PossibleValue::new(mode.as_str()),
            DiffMode::Check => PossibleValue::new("check")
                .help("a producer (OLD) against a consumer (NEW); either may be a JSON Schema"),
        })
    }
}

/// The view `json-schema` exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ViewArg {
    /// What a producer's `Serialize` writes.
    Sender,
    /// What a consumer's `Deserialize` accepts.
    #[default]
    Receiver,
}

impl From<ViewArg> for View {
    fn from(view: ViewArg) -> View {
        match view {
            ViewArg::Sender => View::Sender,
            ViewArg::Receiver => View::Receiver,
        }
    }
}

/// Who wrote a `.json` side of `diff`: the terms its findings' fixes are said in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum PeerArg {
    /// Told from the document: pydantic by its field titles, zod by its safe-integer
    /// bounds, this tool's own export by its annotations (Rust fixes), else JSON Schema.
    #[default]
    Auto,
    /// pydantic 2: `Field(ge=…, le=…)`, `Optional[…] = None`, `Literal[…]`, `model_config`.
    Pydantic,
    /// zod: `.int().min(…).max(…)`, `.optional()`, `.nullish()`, `z.enum([…])`, `.strict()`.
    Zod,
    /// Any generator: the JSON Schema keywords, with the pydantic and zod forms beside them.
    JsonSchema,
}

impl PeerArg {
    /// The peer a `.json` side is told as, its document read: `None` for this tool's own
    /// export under `auto` (its fixes are Rust's).
    #[must_use]
    pub fn of(self, doc: &serde_json::Value) -> Option<Peer> {
        match self {
            PeerArg::Auto => Peer::of_document(doc),
            PeerArg::Pydantic => Some(Peer::Pydantic),
            PeerArg::Zod => Some(Peer::Zod),
            PeerArg::JsonSchema => Some(Peer::JsonSchema),
        }
    }
}

/// `handoff diff OLD NEW`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct DiffArgs {
    /// The older snapshot, or with `--mode check` the producer's (a `.snap` or `.json`).
    pub old: PathBuf,
    /// The newer snapshot, or with `--mode check` the consumer's (a `.snap` or `.json`).
    pub new: PathBuf,
    /// The compatibility mode (default: the one NEW declares).
    #[arg(long)]
    pub mode: Option<DiffMode>,
    /// How to print.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Who wrote the `.json` side(s): their fixes are said in its terms.
    #[arg(long, value_enum, default_value_t)]
    pub peer: PeerArg,
}

/// `handoff check OLD_DIR NEW_DIR` or `handoff check --against GIT_REF [DIR…]`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct CheckArgs {
    /// OLD_DIR NEW_DIR; with `--against`, the folders of the working tree to compare
    /// (default: the snapshot folders of the current directory's crates, else `contracts`).
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Compare with the same folders at this git ref (a branch, tag or commit id).
    #[arg(long, value_name = "GIT_REF", value_parser = git_ref)]
    pub against: Option<String>,
    /// How to print.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `handoff json-schema SNAPSHOT`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct JsonSchemaArgs {
    /// The snapshot file.
    pub snapshot: PathBuf,
    /// The view to export.
    #[arg(long, value_enum, default_value_t)]
    pub view: ViewArg,
    /// Leave out the `x-handoff-*` keywords.
    #[arg(long)]
    pub no_annotations: bool,
    /// Export the receiver view in a model provider's dialect (strict structured outputs
    /// or tool input): narrowings are written to stderr with their JSON pointers; a
    /// contract the dialect cannot state exits 2 with the dialect, pointer and rule.
    #[arg(long, value_enum, conflicts_with_all = ["view", "no_annotations"])]
    pub dialect: Option<DialectArg>,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The provider dialect `json-schema --dialect` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// OpenAI structured outputs and function calling with `strict: true`.
    OpenaiStrict,
    /// Anthropic strict tool use and JSON outputs.
    Anthropic,
    /// Gemini's `responseJsonSchema`.
    Gemini,
}

impl From<DialectArg> for contract_schema::json_schema::dialect::Dialect {
    fn from(d: DialectArg) -> Self {
        use contract_schema::json_schema::dialect::Dialect;
        match d {
            DialectArg::OpenaiStrict => Dialect::OpenAiStrict,
            DialectArg::Anthropic => Dialect::Anthropic,
            DialectArg::Gemini => Dialect::Gemini,
        }
    }
}

/// `handoff completions SHELL`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Where the manifest and the deployment store are: options every workflow subcommand has.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct WorkflowPlace {
    /// The manifest (default: `handoff.toml` at the root of the current directory's git
    /// repository, else in the current directory).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// The deployment store: an SQLite file (default `.handoff/deployments.sqlite` beside
    /// the manifest), or a PostgreSQL database (`postgres://…`, the ledgers' own).
    #[arg(long, value_name = "PATH|URL")]
    pub store: Option<PathBuf>,
    /// The schema of a PostgreSQL store.
    #[arg(long, value_name = "NAME", default_value = "handoff")]
    pub schema: String,
}

/// `handoff record-deployment AGENT --version REF --env ENV`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct RecordArgs {
    /// The agent, as `handoff.toml` names it.
    pub agent: String,
    /// The git ref deployed (a tag, a commit id).
    #[arg(long, value_name = "REF", value_parser = git_ref)]
    pub version: String,
    /// The environment (`staging`, `production`).
    #[arg(long, value_name = "ENV", value_parser = environment)]
    pub env: String,
    /// Where the manifest and the store are.
    #[command(flatten)]
    pub place: WorkflowPlace,
}

/// `handoff can-i-deploy AGENT --version REF --to ENV`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct CanIDeployArgs {
    /// The agent, as `handoff.toml` names it.
    pub agent: String,
    /// The git ref to deploy.
    #[arg(long, value_name = "REF", value_parser = git_ref)]
    pub version: String,
    /// The environment to deploy to.
    #[arg(long, value_name = "ENV", value_parser = environment)]
    pub to: String,
    /// How to print.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Where the manifest and the store are.
    #[command(flatten)]
    pub place: WorkflowPlace,
}

/// `handoff graph`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct GraphArgs {
    /// How to draw.
    #[arg(long, value_enum, default_value_t)]
    pub format: GraphFormat,
    /// Show each edge's verdict for the versions recorded in this environment.
    #[arg(long, value_name = "ENV", value_parser = environment)]
    pub env: Option<String>,
    /// Where the manifest and the store are.
    #[command(flatten)]
    pub place: WorkflowPlace,
}

/// Where the inboxes' ledgers are: options `sessions` and `session` share.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct LedgerPlace {
    /// A ledger to read (repeat it for each agent's): `sqlite:PATH`, a path ending in
    /// `.sqlite` or `.db`, or a `postgres://` or `postgresql://` URL.
    #[arg(long = "ledger", value_name = "URL", required = true, value_parser = not_empty)]
    pub ledgers: Vec<String>,
    /// The schema the PostgreSQL ledgers are in (an SQLite ledger has none).
    #[arg(long, value_name = "NAME", default_value = "handoff", value_parser = not_empty)]
    pub schema: String,
}

/// How `sessions` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ListFormat {
    /// A table.
    #[default]
    Text,
    /// One JSON document.
    Json,
}

/// How `session` shows a journey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SessionFormat {
    /// Text for a terminal.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// A mermaid `flowchart LR`.
    Mermaid,
    /// One self-contained HTML page.
    Html,
}

/// `handoff sessions --ledger URL…`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct SessionsArgs {
    /// Where the ledgers are.
    #[command(flatten)]
    pub place: LedgerPlace,
    /// Only the sessions of this workflow.
    #[arg(long, value_name = "NAME", value_parser = not_empty)]
    pub workflow: Option<String>,
    /// Only the sessions active since then: an RFC 3339 time (`2026-01-01T12:00:00Z`) or a
    /// duration before now (`30m`, `2h`, `7d`).
    #[arg(long, value_name = "WHEN", value_parser = since)]
    pub since: Option<SystemTime>,
    /// How to print.
    #[arg(long, value_enum, default_value_t)]
    pub format: ListFormat,
}

/// `handoff session ID --ledger URL…`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct SessionArgs {
    /// The session's id (its journey's sessionId, else its contextId).
    #[arg(value_name = "ID", value_parser = not_empty)]
    pub id: String,
    /// Where the ledgers are.
    #[command(flatten)]
    pub place: LedgerPlace,
    /// How to show the journey.
    #[arg(long, value_enum, default_value_t)]
    pub format: SessionFormat,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// A value that is not empty.
fn not_empty(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("needs a value".to_owned());
    }
    Ok(value.to_owned())
}

/// `--since`: an RFC 3339 time or a duration before now.
fn since(value: &str) -> Result<SystemTime, String> {
    contract_core::session::parse_since(value, SystemTime::now()).ok_or_else(|| {
        "needs an RFC 3339 time (`2026-01-01T12:00:00Z`) or a duration (`30m`, `2h`, `7d`)"
            .to_owned()
    })
}

/// A git ref as typed: never empty, and never one starting with `-`, which would reach git
/// as an option.
fn git_ref(value: &str) -> Result<String, String> {
    if value.is_empty() || value.starts_with('-') {
        return Err("needs a git ref (`origin/main`, a tag, a commit id)".to_owned());
    }
    Ok(value.to_owned())
}

/// An environment's name: not empty.
fn environment(value: &str) -> Result<String, String> {
    if value.trim().is_empty() {
        return Err("needs an environment's name (`staging`)".to_owned());
    }
    Ok(value.to_owned())
}

impl Cli {
    /// Parses `args` (the program name first), then checks what the types do not say:
    /// `check`'s folders, and a JSON Schema side of `diff` outside check mode.
    ///
    /// # Errors
    ///
    /// A clap error, printed as clap prints them (usage, exit status 2), or `--help` and
    /// `--version` (exit status 0).
    pub fn parse_checked<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let cli = Cli::try_parse_from(args)?;
        cli.check()?;
        Ok(cli)
    }

    fn check(&self) -> Result<(), clap::Error> {
        match &self.command {
            Command::Diff(diff) if diff.mode != Some(DiffMode::Check) => {
                if let Some(json) = [&diff.old, &diff.new]
                    .into_iter()
                    .find(|p| is_json_schema(p))
                {
                    return Err(usage_error(
                        "diff",
                        ErrorKind::ArgumentConflict,
                        format!(
                            "`{}` is a JSON Schema: a peer's schema is compared only with `--mode check` (producer first, consumer second)",
                            json.display()
                        ),
                    ));
                }
            }
            Command::Check(check) if check.against.is_none() => match check.dirs.len() {
                2 => {}
                0 | 1 => {
                    return Err(usage_error(
                        "check",
                        ErrorKind::MissingRequiredArgument,
                        "missing OLD_DIR and NEW_DIR (or `--against GIT_REF`)".to_owned(),
                    ))
                }
                _ => {
                    return Err(usage_error(
                        "check",
                        ErrorKind::TooManyValues,
                        format!(
                            "unexpected argument `{}`: `check` without `--against` takes OLD_DIR and NEW_DIR",
                            check.dirs[2].display()
                        ),
                    ))
                }
            },
            _ => {}
        }
        Ok(())
    }
}

/// A usage error of `subcommand`, in clap's form: the message, the subcommand's usage.
fn usage_error(subcommand: &str, kind: ErrorKind, message: String) -> clap::Error {
    let mut cli = Cli::command();
    cli.build();
    match cli.find_subcommand_mut(subcommand) {
        Some(sub) => sub
            .clone()
            .bin_name(format!("handoff {subcommand}"))
            .error(kind, message),
        None => cli.error(kind, message),
    }
}

/// Whether `diff` reads this file as a peer's JSON Schema (a `.json` file) rather than a
/// snapshot.
#[must_use]
pub fn is_json_schema(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, clap::Error> {
        Cli::parse_checked(std::iter::once("handoff").chain(line.split_whitespace()))
            .map(|cli| cli.command)
    }

    fn error(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn diff_with_options_in_any_place() {
        let cmd = parse("diff --format json a.snap --mode=backward b.snap").unwrap();
        assert_eq!(
            cmd_diff(cmd),
            DiffArgs {
                old: "a.snap".into(),
                new: "b.snap".into(),
                mode: Some(DiffMode::Evolve(Mode::Backward)),
                format: Format::Json,
                peer: PeerArg::Auto,
            }
        );
        let transitive = cmd_diff(parse("diff a b --mode full-transitive").unwrap());
        assert_eq!(
            transitive.mode,
            Some(DiffMode::Evolve(Mode::FullTransitive))
        );
        let check = cmd_diff(parse("diff a b --mode check").unwrap());
        assert_eq!(check.mode, Some(DiffMode::Check));
        let peer = cmd_diff(parse("diff a.json b --mode check --peer zod").unwrap());
        assert_eq!(peer.peer, PeerArg::Zod);
        let named = cmd_diff(parse("diff a.json b --mode check --peer json-schema").unwrap());
        assert_eq!(named.peer, PeerArg::JsonSchema);
    }

    fn cmd_diff(cmd: Command) -> DiffArgs {
        match cmd {
            Command::Diff(diff) => diff,
            other => panic!("not diff: {other:?}"),
        }
    }

    #[test]
    fn usage_errors_name_the_argument() {
        assert!(error("diff a").contains("<NEW>"), "{}", error("diff a"));
        assert!(error("check a b c").contains("unexpected argument `c`"));
        let mode = error("diff a b --mode sideways");
        assert!(
            mode.contains("invalid value 'sideways' for '--mode <MODE>'"),
            "{mode}"
        );
        assert!(mode.contains("backward"), "{mode}");
        assert!(error("diff a b --mode").contains("a value is required for '--mode <MODE>'"));
        assert!(error("check a b --colour").contains("unexpected argument '--colour'"));
        assert!(error("check a b --mode full").contains("unexpected argument '--mode'"));
        assert!(error("merge a b").contains("unrecognized subcommand 'merge'"));
        assert!(Cli::parse_checked(["handoff"]).is_err());
        assert_eq!(
            parse("check -h").unwrap_err().kind(),
            ErrorKind::DisplayHelp
        );
        assert!(error("check a").contains("missing OLD_DIR and NEW_DIR"));
    }

    #[test]
    fn a_json_schema_side_needs_check_mode() {
        assert!(parse("diff producer.json consumer.snap --mode check").is_ok());
        for line in [
            "diff producer.json consumer.snap",
            "diff a.snap b.JSON --mode full",
            "diff a.json b.json --mode backward",
        ] {
            let err = error(line);
            assert!(err.contains("only with `--mode check`"), "{line}: {err}");
            assert!(err.contains("Usage: handoff diff"), "{line}: {err}");
        }
    }

    #[test]
    fn check_against_a_ref_takes_any_number_of_folders() {
        assert_eq!(
            parse("check --against origin/main --format github").unwrap(),
            Command::Check(CheckArgs {
                dirs: vec![],
                against: Some("origin/main".into()),
                format: Format::Github,
            })
        );
        assert_eq!(
            parse("check a --against=v1.4.0 b c").unwrap(),
            Command::Check(CheckArgs {
                dirs: vec!["a".into(), "b".into(), "c".into()],
                against: Some("v1.4.0".into()),
                format: Format::Text,
            })
        );
        assert!(error("check --against").contains("a value is required for '--against"));
        let dash = error("check --against=--output=x");
        assert!(dash.contains("invalid value '--output=x'"), "{dash}");
        assert!(dash.contains("needs a git ref"), "{dash}");
        assert!(error("check --against a --against b").contains("cannot be used multiple times"));
        assert!(error("diff a b --against main").contains("unexpected argument '--against'"));
        assert!(error("diff a b --format yaml").contains("invalid value 'yaml' for '--format"));
    }

    #[test]
    fn json_schema_defaults_to_the_receiver_view_on_stdout() {
        assert_eq!(
            parse("json-schema a.snap").unwrap(),
            Command::JsonSchema(JsonSchemaArgs {
                snapshot: "a.snap".into(),
                view: ViewArg::Receiver,
                no_annotations: false,
                dialect: None,
                out: None,
            })
        );
        assert_eq!(
            parse("json-schema --out=a.json a.snap --view sender --no-annotations").unwrap(),
            Command::JsonSchema(JsonSchemaArgs {
                snapshot: "a.snap".into(),
                view: ViewArg::Sender,
                no_annotations: true,
                dialect: None,
                out: Some("a.json".into()),
            })
        );
    }

    #[test]
    fn json_schema_usage_errors_name_the_argument() {
        assert!(error("json-schema").contains("<SNAPSHOT>"));
        assert!(error("json-schema a.snap b.snap").contains("unexpected argument 'b.snap'"));
        assert!(error("json-schema a.snap --view both").contains("invalid value 'both'"));
        assert!(error("json-schema a.snap --view sender --view=receiver")
            .contains("cannot be used multiple times"));
        assert!(error("json-schema a.snap --out").contains("a value is required for '--out"));
        assert!(error("json-schema a.snap --out=").contains("a value is required for '--out"));
        assert!(error("json-schema a.snap --no-annotations=yes").contains("unexpected value"));
        assert!(error("json-schema a.snap --format json").contains("unexpected argument"));
        assert!(error("diff a b --view sender").contains("unexpected argument '--view'"));
        assert!(error("check a b --out x.json").contains("unexpected argument '--out'"));
    }

    #[test]
    fn workflow_subcommands_take_their_options() {
        assert_eq!(
            parse("can-i-deploy triage --version v2 --to production --format json").unwrap(),
            Command::CanIDeploy(CanIDeployArgs {
                agent: "triage".into(),
                version: "v2".into(),
                to: "production".into(),
                format: Format::Json,
                place: WorkflowPlace {
                    manifest: None,
                    store: None,
                    schema: "handoff".into(),
                },
            })
        );
        assert!(error("can-i-deploy triage --version v2").contains("--to <ENV>"));
        assert!(
            error("record-deployment triage --version=-x --env prod").contains("needs a git ref")
        );
        assert!(error("record-deployment triage --version v1 --env=").contains("--env"));
        let graph = parse("graph --format html --env staging --store s.sqlite").unwrap();
        assert!(matches!(
            graph,
            Command::Graph(GraphArgs {
                format: GraphFormat::Html,
                env: Some(_),
                place: WorkflowPlace { store: Some(_), .. },
            })
        ));
    }

    #[test]
    fn session_subcommands_take_ledgers_and_their_options() {
        let listed =
            parse("sessions --ledger a.sqlite --ledger=sqlite:b --since 2h --format json").unwrap();
        let Command::Sessions(list) = listed else {
            panic!("not sessions: {listed:?}");
        };
        assert_eq!(list.place.ledgers, ["a.sqlite", "sqlite:b"]);
        assert_eq!(list.place.schema, "handoff");
        assert_eq!(list.format, ListFormat::Json);
        let since = list.since.expect("since");
        let ago = SystemTime::now()
            .duration_since(since)
            .expect("in the past");
        assert!(ago.as_secs().abs_diff(7_200) < 60, "{ago:?}");

        let shown = parse(
            "session sess-1 --ledger postgres://h/db --schema journeys --format html --out j.html",
        )
        .unwrap();
        assert_eq!(
            shown,
            Command::Session(SessionArgs {
                id: "sess-1".into(),
                place: LedgerPlace {
                    ledgers: vec!["postgres://h/db".into()],
                    schema: "journeys".into(),
                },
                format: SessionFormat::Html,
                out: Some("j.html".into()),
            })
        );

        assert!(error("sessions").contains("--ledger <URL>"));
        assert!(error("session sess-1").contains("--ledger <URL>"));
        assert!(error("session --ledger a.db").contains("<ID>"));
        assert!(
            error("session sess-1 --ledger a.db --format yaml").contains("invalid value 'yaml'")
        );
        assert!(
            error("sessions --ledger a.db --format mermaid").contains("invalid value 'mermaid'")
        );
        assert!(
            error("sessions --ledger a.db --since yesterday").contains("needs an RFC 3339 time")
        );
        assert!(error("sessions --ledger=").contains("--ledger"));
        assert!(error("sessions --ledger a.db --out x").contains("unexpected argument '--out'"));
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_utf8_but_option_values_must() {
        use std::os::unix::ffi::OsStringExt;
        let path = OsString::from_vec(b"old-\xff.snap".to_vec());
        let argv: Vec<OsString> = vec![
            "handoff".into(),
            "diff".into(),
            path.clone(),
            "new.snap".into(),
        ];
        let diff = cmd_diff(Cli::parse_checked(argv.clone()).unwrap().command);
        assert_eq!(diff.old, PathBuf::from(path.clone()));
        let mut bad = argv;
        bad.push("--format".into());
        bad.push(path.clone());
        // A value that is no UTF-8 matches none of the possible values: a usage error, never
        // a panic.
        assert_eq!(
            Cli::parse_checked(bad).unwrap_err().kind(),
            ErrorKind::InvalidValue
        );
        let out = Cli::parse_checked(vec![
            OsString::from("handoff"),
            "json-schema".into(),
            "a.snap".into(),
            "--out".into(),
            path.clone(),
        ])
        .unwrap();
        assert!(matches!(
            out.command,
            Command::JsonSchema(JsonSchemaArgs { out: Some(p), .. }) if p.as_os_str() == path
        ));
    }
}
