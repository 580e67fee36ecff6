//! A model writes the refund request (a deterministic stand-in for a provider's structured
//! output): its first attempt misses `orderRef`, the specialist's inbox refuses it, the
//! correction goes back to the model — where and what the contract expects, nothing it wrote
//! — and the second attempt is accepted. Both attempts are on the session's journey in the
//! specialist's ledger (SQLite), the second an explicit retry of the first.
//!
//! `cargo run -p examples --bin model-retry` prints it.

use std::convert::Infallible;
use std::error::Error;
use std::fmt::Write;
use std::path::PathBuf;

use contract_core::inbox::rusqlite::Transaction;
use contract_core::inbox::{Inbox, Ledger, Outcome, SqliteLedger};
use contract_core::retry::{Attempt, Retry};
use contract_core::session::{Format, Relation, SessionView};
use contract_core::task::{Budget, BudgetMeter, Call};
use contract_core::{Correction, Delivery, Handoff, HandoffContract, Journey};

use crate::refund::v1::RefundRequest;

/// The session of the example.
pub const SESSION: &str = "sess-model-007";
const CONTEXT: &str = "ctx-model-007";
const HANDOFF: &str = "h-refund-1";
const TRIAGE: &str = "triage-model";
const SPECIALIST: &str = "refund-specialist";

/// What the customer's message said, as the stand-in model holds it in its context.
const ORDER_IN_THE_CONVERSATION: &str = "ORD-77-2291";

/// A failed catch: the example stops and the binary exits non-zero.
fn failed(what: &str) -> Box<dyn Error> {
    format!("a catch failed: {what}").into()
}

/// The stand-in model: it writes the request from the conversation, forgets the order the
/// first time, and on a correction fills in each member the correction says is missing and
/// that its conversation holds.
fn model(attempt: &Attempt<'_>) -> Result<Vec<u8>, Infallible> {
    let mut request = serde_json::json!({"category": "damaged", "amountCents": 1250});
    if let Some(correction) = attempt.correction() {
        for fix in correction.fixes() {
            if fix.kind == "missing_field" && fix.pointer == "/orderRef" {
                request["orderRef"] = ORDER_IN_THE_CONVERSATION.into();
            }
        }
    }
    // A provider reports what a call used; the stand-in's figure is its output's length.
    let bytes = serde_json::to_vec(&request).unwrap_or_default();
    attempt.record_tokens(bytes.len() as u64);
    Ok(bytes)
}

/// The specialist's ledger, new, in a folder of the temporary directory kept after the run.
fn ledger() -> Result<(PathBuf, SqliteLedger), Box<dyn Error>> {
    let folder = std::env::temp_dir().join("handoff-model-retry-example");
    std::fs::create_dir_all(&folder)?;
    let path = folder.join("specialist.sqlite");
    for stale in ["sqlite", "sqlite-wal", "sqlite-shm"] {
        let _ = std::fs::remove_file(path.with_extension(stale));
    }
    let ledger = SqliteLedger::open(&path)?;
    Ok((path, ledger))
}

/// The whole run, as the lines it prints.
///
/// # Errors
/// When a catch fails: the first attempt is accepted, its correction does not point at
/// `/orderRef` or repeats what the model wrote, the second attempt is refused, or the
/// journey does not show an explicit retry.
pub fn model_retry() -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    let (path, ledger) = ledger()?;
    let mut inbox = Inbox::new(ledger);
    let budget = Budget {
        max_model_calls: Some(3),
        ..Budget::default()
    };
    let meter = BudgetMeter::new(&budget);
    let envelope = Handoff::new(CONTEXT, HANDOFF, SPECIALIST, ())
        .goal("refund the customer's damaged order")
        .journey(
            Journey::new(TRIAGE, SPECIALIST)
                .session(SESSION)
                .workflow("support-refund"),
        )
        .ready();
    writeln!(
        out,
        "{TRIAGE} writes a {} for {SPECIALIST}; budget: at most 3 model calls",
        RefundRequest::CONTRACT
    )?;

    let handler = |_: &mut Transaction<'_>, delivery: &Delivery<RefundRequest>| {
        Ok::<_, Infallible>(delivery.payload().amount_cents)
    };
    let retried = Retry::new(&meter).accept(&mut inbox, &envelope, model, handler)?;

    let [correction]: &[Correction] = retried.corrections() else {
        return Err(failed("the first attempt was not refused once"));
    };
    writeln!(out)?;
    writeln!(
        out,
        "== attempt 1: refused; the correction sent back to the model =="
    )?;
    writeln!(out, "{correction}")?;
    writeln!(out, "-- as a tool result:")?;
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&correction.to_json())?
    )?;
    let fix = correction
        .fixes()
        .iter()
        .find(|f| f.pointer == "/orderRef")
        .ok_or_else(|| failed("the correction does not point at /orderRef"))?;
    let expects_string =
        fix.kind == "missing_field" && fix.expected.as_ref().is_some_and(|e| e.ty == "string");
    if !expects_string {
        return Err(failed(
            "the correction does not say orderRef is a required string",
        ));
    }
    let text = format!("{correction}{}", correction.to_json());
    if text.contains("1250") || text.contains(ORDER_IN_THE_CONVERSATION) {
        return Err(failed("the correction repeats a value"));
    }

    writeln!(out)?;
    writeln!(out, "== attempt 2: accepted ==")?;
    if retried.attempts() != 2 || !retried.value().is_applied() {
        return Err(failed("the second attempt was not applied"));
    }
    writeln!(
        out,
        "applied after {} attempts; model calls spent: {} of 3, tokens recorded: {}",
        retried.attempts(),
        meter.spent(Call::Model),
        meter.tokens()
    )?;

    writeln!(out)?;
    writeln!(
        out,
        "== the session's journey, read back from the ledger (handoff session) =="
    )?;
    let steps = inbox.ledger_mut().session(SESSION)?;
    let view = SessionView::from_ledgers(SESSION, [("specialist.sqlite".to_owned(), steps)]);
    let shape: Vec<_> = view
        .steps()
        .iter()
        .map(|s| {
            (
                s.step.attempt,
                s.step.retry_of.as_deref(),
                s.step.outcome,
                s.relation,
            )
        })
        .collect();
    let explicit_retry = [
        (Some(1), None, Outcome::Refused, Relation::First),
        (Some(2), Some(HANDOFF), Outcome::Applied, Relation::Explicit),
    ];
    if shape != explicit_retry {
        return Err(failed(
            "the journey does not show attempt 2 as an explicit retry of attempt 1",
        ));
    }
    write!(out, "{}", Format::Text.render(&view))?;
    writeln!(
        out,
        "the ledger is kept: handoff session {SESSION} --ledger {}",
        path.display()
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_catch_holds() {
        let out = super::model_retry().expect("every catch holds");
        assert!(
            out.contains("- /orderRef: missing. Expected string: a string; required."),
            "{out}"
        );
        assert!(out.contains("attempt 2, retry of h-refund-1"), "{out}");
    }
}
