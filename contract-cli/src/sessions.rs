//! `sessions` and `session`: the ledgers named on the command line, opened for reading only
//! by `contract_core::session`, and what it gathers from them printed. Nothing is judged
//! here.

use std::io::Write as _;
use std::path::Path;

use contract_core::inbox::SessionFilter;
use contract_core::session::{self, Format, GatherError, LedgerAddress, Ledgers};

use crate::args::{LedgerPlace, ListFormat, SessionArgs, SessionFormat, SessionsArgs};

/// The ledgers of `place`, open for reading.
fn open(place: &LedgerPlace) -> Result<Ledgers, String> {
    let addresses = place
        .ledgers
        .iter()
        .map(|text| LedgerAddress::parse(text, &place.schema))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| one_line(&e))?;
    Ledgers::open(addresses).map_err(|e| one_line(&e))
}

/// An error's message on one line (a database's message may hold several).
fn one_line(error: &GatherError) -> String {
    let text = error.to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("; ")
}

/// `handoff sessions --ledger URL… [--workflow NAME] [--since WHEN]`.
pub fn sessions(args: &SessionsArgs) -> Result<bool, String> {
    let mut ledgers = open(&args.place)?;
    let mut filter = SessionFilter::default();
    if let Some(workflow) = &args.workflow {
        filter = filter.workflow(workflow.clone());
    }
    if let Some(since) = args.since {
        filter = filter.since(since);
    }
    let list = ledgers.sessions(&filter).map_err(|e| one_line(&e))?;
    let labels = ledgers.labels();
    let text = match args.format {
        ListFormat::Text => session::sessions_text(&list, &labels),
        ListFormat::Json => session::sessions_json(&list, &labels),
    };
    write_out(&text, None)?;
    Ok(true)
}

/// `handoff session ID --ledger URL… [--format …] [--out FILE]`: false when no ledger has a
/// step of the session (nothing is written then).
pub fn session(args: &SessionArgs) -> Result<bool, String> {
    let mut ledgers = open(&args.place)?;
    let view = match ledgers.session(&args.id) {
        Ok(view) => view,
        Err(missing @ GatherError::NoSession { .. }) => {
            eprintln!("{}", one_line(&missing));
            return Ok(false);
        }
        Err(e) => return Err(one_line(&e)),
    };
    let format = match args.format {
        SessionFormat::Text => Format::Text,
        SessionFormat::Json => Format::Json,
        SessionFormat::Mermaid => Format::Mermaid,
        SessionFormat::Html => Format::Html,
    };
    write_out(&format.render(&view), args.out.as_deref())?;
    Ok(true)
}

/// Writes `text` to `out`, or to stdout (a closed pipe is not an error worth a panic).
fn write_out(text: &str, out: Option<&Path>) -> Result<(), String> {
    match out {
        Some(out) => std::fs::write(out, text)
            .map_err(|e| format!("{}: cannot write the session: {e}", out.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(text.as_bytes());
            Ok(())
        }
    }
}
