//! Seed `000_…`'s handoff, accepted durably: a writer hands the draft answer to customer
//! question 104 to a reviewer in a `handoff-envelope/v1`; the reviewer's [`Inbox`] over an
//! SQLite ledger opens a review task (a row in the same file) in the same transaction as it
//! records the acceptance, and:
//!
//! 1. a ready handoff is applied once: its acknowledgement (`seq`, `digest`, `acceptedAt`,
//!    the handler's receipt) goes back to the writer;
//! 2. the same envelope again, and a retry of it (`attempt` 2, `retryOf`): the first
//!    acknowledgement, nothing run again;
//! 3. a retry that keeps the `handoffId` but changed the goal: a conflict;
//! 4. a `draft`: not ready;
//! 5. a draft version the artifact store does not have: unavailable;
//! 6. a digest that is not the stored content's: changed;
//! 7. the writer hands off again though the reviewer owns the context now: the first
//!    attempt's handler fails after opening its review task, and all of it rolls back; the
//!    retry is applied, with an owner-conflict warning (two owners in one context is a signal
//!    for whoever runs the inbox);
//! 8. an older draft version than the context accepted: regressed;
//! 9. the inbox dropped, the file reopened: the first handoff retried gets the same
//!    acknowledgement;
//! 10. the rollback target is the last handoff the context **accepted**, not the last
//!     message offered.
//!
//! Every refusal writes nothing: each step counts the review tasks and the ledger's entries.
//! `cargo run -p examples --bin envelope-accept` prints it.

use std::error::Error;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use contract_core::envelope::Digest;
use contract_core::inbox::rusqlite::{self, params, Transaction};
use contract_core::inbox::{
    AcceptError, Acceptance, Ack, Inbox, MemoryArtifacts, SqliteLedger, Warning,
};
use contract_core::task::Budget;
use contract_core::{
    send_handoff, ArtifactRef, Delivery, Handoff, HandoffContract, Journey, ReceiveOptions, Status,
};
use serde::{Deserialize, Serialize};

/// The context of the example's envelope (`ctx_01J9`).
pub const CONTEXT: &str = "ctx_01J9";
/// The task (`task_104`).
pub const TASK: &str = "task_104";
/// Where the draft answer is stored (its versions are the artifact store's).
pub const DRAFT: &str = "store://answer/104";

const WRITER: &str = "writer_agent";
const REVIEWER: &str = "review_agent";

/// What the writer hands the reviewer, beside the envelope's goal, constraints, decisions and
/// the draft's reference: the question the answer is for and the claims still to verify.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "answer-review", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct AnswerReview {
    /// The customer question the answer is for.
    pub question_ref: String,
    /// The claims of the draft not confirmed yet (version numbers nobody confirmed),
    /// to be marked as such in the answer.
    pub to_verify: Vec<String>,
}

/// What the reviewer's handler returns, sent back to the writer in the acknowledgement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewOpened {
    /// The review task's row in the reviewer's database.
    pub review_task: i64,
}

/// The draft's versions, as the store holds them.
const DRAFT_V3: &[u8] = b"draft answer to question 104, version 3";
const DRAFT_V4: &[u8] = b"draft answer to question 104, version 4";

/// A failed catch: the example stops and the binary exits non-zero.
fn failed(what: &str) -> Box<dyn Error> {
    format!("a catch failed: {what}").into()
}

/// A catch that must hold.
fn expect(out: &mut String, holds: bool, what: &str) -> Result<(), Box<dyn Error>> {
    if holds {
        writeln!(out, "  caught: {what}")?;
        Ok(())
    } else {
        Err(failed(what))
    }
}

/// The SQLite file of the example: a unique name in the temp folder, removed (with its WAL
/// files) when dropped, whatever happened.
struct TempDatabase {
    path: PathBuf,
}

impl TempDatabase {
    fn new() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("envelope-accept-{}-{nanos}.db", std::process::id());
        TempDatabase {
            path: std::env::temp_dir().join(name),
        }
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDatabase {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut file = self.path.clone().into_os_string();
            file.push(suffix);
            // Absent when SQLite removed it on closing, or never created: nothing to do.
            let _ = std::fs::remove_file(file);
        }
    }
}

/// The reviewer's inbox: the ledger in `path`, the review tasks beside it, the draft's
/// versions in `artifacts`.
type ReviewInbox = Inbox<SqliteLedger, MemoryArtifacts>;

fn open(path: &Path, artifacts: &MemoryArtifacts) -> Result<ReviewInbox, Box<dyn Error>> {
    let ledger = SqliteLedger::open(path)?;
    ledger.connection().execute_batch(
        "CREATE TABLE IF NOT EXISTS review_task (
             id INTEGER PRIMARY KEY,
             context_id TEXT NOT NULL,
             handoff_id TEXT NOT NULL,
             question_ref TEXT NOT NULL,
             draft_version INTEGER NOT NULL
         )",
    )?;
    Ok(Inbox::with_artifacts(ledger, artifacts.clone()).options(
        ReceiveOptions::default().journey(Journey::new(WRITER, REVIEWER).workflow("answer")),
    ))
}

/// The reviewer's handler: opens a review task in the acceptance's transaction, so that it
/// exists exactly when the acceptance does.
fn open_review(
    tx: &mut Transaction<'_>,
    delivery: &Delivery<AnswerReview>,
) -> Result<ReviewOpened, rusqlite::Error> {
    let envelope = delivery.envelope();
    let draft = envelope
        .artifacts
        .iter()
        .find(|a| a.uri == DRAFT)
        .map_or(0, |a| a.version);
    tx.execute(
        "INSERT INTO review_task (context_id, handoff_id, question_ref, draft_version) \
         VALUES (?1, ?2, ?3, ?4)",
        params![
            envelope.context_id,
            envelope.handoff_id,
            delivery.payload().question_ref,
            i64::try_from(draft).unwrap_or(i64::MAX),
        ],
    )?;
    Ok(ReviewOpened {
        review_task: tx.last_insert_rowid(),
    })
}

/// What the reviewer's database holds: review tasks, ledger entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rows {
    tasks: i64,
    entries: i64,
}

fn rows(inbox: &ReviewInbox) -> Result<Rows, Box<dyn Error>> {
    let connection = inbox.ledger().connection();
    let count = |table: &str| -> rusqlite::Result<i64> {
        connection.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
    };
    Ok(Rows {
        tasks: count("review_task")?,
        // The ledger's table, as `SqliteLedger` documents it.
        entries: count("handoff_ledger")?,
    })
}

fn write_rows(out: &mut String, rows: Rows) -> Result<(), Box<dyn Error>> {
    writeln!(
        out,
        "  rows: {} review task{}, {} ledger entr{}",
        rows.tasks,
        if rows.tasks == 1 { "" } else { "s" },
        rows.entries,
        if rows.entries == 1 { "y" } else { "ies" }
    )?;
    Ok(())
}

/// The example's envelope: the writer hands the draft (at `version`, with the digest of
/// `content`) to the reviewer.
fn seed_handoff(handoff_id: &str, version: u64, content: &[u8]) -> Handoff<AnswerReview> {
    let payload = AnswerReview {
        question_ref: "question-104".into(),
        to_verify: vec!["the version numbers the draft names".into()],
    };
    Handoff::new(CONTEXT, handoff_id, REVIEWER, payload)
        .task(TASK)
        .goal("turn the customer's question into a technical answer ready to publish")
        .constraint("use only confirmed official sources")
        .constraint("do not call again an external tool that already succeeded")
        .decision("keep the answer's current structure")
        .decision("mark version numbers not confirmed as to be verified")
        .open_question("does the answer need a compatibility note?")
        .artifact(ArtifactRef::new("draft", DRAFT, version).digest(Digest::of_bytes(content)))
        .budget(Budget {
            max_tool_calls: Some(4),
            max_tokens: Some(6000),
            ..Budget::default()
        })
        .journey(Journey::new(WRITER, REVIEWER).workflow("answer"))
        .ready()
}

fn bytes_of(handoff: &mut Handoff<AnswerReview>) -> Result<Vec<u8>, Box<dyn Error>> {
    Ok(send_handoff(handoff)?.into_bytes())
}

/// One offer to the reviewer's inbox.
fn offer(
    inbox: &mut ReviewInbox,
    bytes: &[u8],
) -> Result<Acceptance<AnswerReview, ReviewOpened>, AcceptError<rusqlite::Error>> {
    inbox.accept(bytes, open_review)
}

/// An offer that must be refused with `expected`, writing nothing.
fn refused(
    out: &mut String,
    inbox: &mut ReviewInbox,
    bytes: &[u8],
    expected: &str,
) -> Result<AcceptError<rusqlite::Error>, Box<dyn Error>> {
    let before = rows(inbox)?;
    let error = match offer(inbox, bytes) {
        Ok(acceptance) => {
            return Err(failed(&format!(
                "accepted ({}) where {expected} was due",
                if acceptance.is_applied() {
                    "applied"
                } else {
                    "duplicate"
                }
            )))
        }
        Err(error) => error,
    };
    writeln!(out, "  {error}")?;
    let after = rows(inbox)?;
    write_rows(out, after)?;
    expect(
        out,
        error.as_str() == expected,
        &format!("refused as {expected}"),
    )?;
    expect(out, after == before, "nothing written")?;
    Ok(error)
}

/// The acknowledgement of a duplicate, which must be `first`, with nothing written.
fn duplicate(
    out: &mut String,
    inbox: &mut ReviewInbox,
    bytes: &[u8],
    first: &Ack<ReviewOpened>,
) -> Result<(), Box<dyn Error>> {
    let before = rows(inbox)?;
    let ack = match offer(inbox, bytes)? {
        Acceptance::Duplicate(ack) => ack,
        Acceptance::Applied { .. } => return Err(failed("a duplicate was applied again")),
    };
    writeln!(
        out,
        "  duplicate: seq {}, review task {}",
        ack.seq, ack.receipt.review_task
    )?;
    let after = rows(inbox)?;
    write_rows(out, after)?;
    expect(
        out,
        ack == *first,
        "the first acknowledgement, unchanged (seq, digest, acceptedAt, receipt)",
    )?;
    expect(out, after == before, "the review task was not opened twice")?;
    Ok(())
}

/// Seed `000_…`'s acceptance, as the lines it prints.
///
/// # Errors
///
/// When a catch fails (a refusal accepted or writing something, a duplicate applied again,
/// an acknowledgement that changed, a rollback target that is not the last accepted), or
/// when the SQLite file cannot be written.
pub fn envelope_accept() -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    let database = TempDatabase::new();
    let artifacts = MemoryArtifacts::new();
    artifacts.put(DRAFT, 3, DRAFT_V3);
    let mut inbox = open(database.path(), &artifacts)?;
    writeln!(
        out,
        "{WRITER} -> {REVIEWER}: context {CONTEXT}, task {TASK}, the draft at {DRAFT}"
    )?;
    writeln!(
        out,
        "the reviewer's inbox: an SQLite ledger in a temporary file, review tasks in the same file"
    )?;

    writeln!(out)?;
    writeln!(out, "== 1. a ready handoff: applied once ==")?;
    let mut first = seed_handoff("handoff_07", 3, DRAFT_V3);
    let first_bytes = bytes_of(&mut first)?;
    let ack = match offer(&mut inbox, &first_bytes)? {
        Acceptance::Applied { ack, warnings, .. } => {
            if !warnings.is_empty() {
                return Err(failed("the first handoff was accepted with a warning"));
            }
            ack
        }
        Acceptance::Duplicate(_) => return Err(failed("a new handoff was a duplicate")),
    };
    writeln!(out, "  applied: seq {}, digest {}", ack.seq, ack.digest)?;
    writeln!(out, "  ack to {WRITER}: {}", serde_json::to_string(&ack)?)?;
    let after = rows(&inbox)?;
    write_rows(&mut out, after)?;
    expect(
        &mut out,
        after
            == Rows {
                tasks: 1,
                entries: 1,
            },
        "one review task, committed with its ledger entry",
    )?;

    writeln!(out)?;
    writeln!(out, "== 2. the same envelope again, then a retry of it ==")?;
    duplicate(&mut out, &mut inbox, &first_bytes, &ack)?;
    writeln!(
        out,
        "-- retried: same handoffId, attempt 2, retryOf the first run"
    )?;
    let mut retry = seed_handoff("handoff_07", 3, DRAFT_V3).journey(
        Journey::new(WRITER, REVIEWER)
            .workflow("answer")
            .retry(2, "run-07-1"),
    );
    let retry_bytes = bytes_of(&mut retry)?;
    duplicate(&mut out, &mut inbox, &retry_bytes, &ack)?;

    writeln!(out)?;
    writeln!(
        out,
        "== 3. a retry that keeps the handoffId but changed the goal =="
    )?;
    let mut changed = seed_handoff("handoff_07", 3, DRAFT_V3)
        .goal("publish the answer as it is")
        .journey(
            Journey::new(WRITER, REVIEWER)
                .workflow("answer")
                .retry(3, "run-07-2"),
        );
    let error = refused(&mut out, &mut inbox, &bytes_of(&mut changed)?, "conflict")?;
    if let AcceptError::Conflict { seq, accepted, .. } = error {
        expect(
            &mut out,
            seq == ack.seq && accepted == ack.digest,
            "the conflict names the first acceptance",
        )?;
    }

    writeln!(out)?;
    writeln!(out, "== 4. a draft ==")?;
    let mut draft = seed_handoff("handoff_08", 3, DRAFT_V3);
    draft.status = Status::Draft;
    refused(&mut out, &mut inbox, &bytes_of(&mut draft)?, "not_ready")?;

    writeln!(out)?;
    writeln!(out, "== 5. a draft version the store does not have (v4) ==")?;
    let mut unavailable = seed_handoff("handoff_09", 4, DRAFT_V4);
    refused(
        &mut out,
        &mut inbox,
        &bytes_of(&mut unavailable)?,
        "artifact_unavailable",
    )?;

    writeln!(out)?;
    writeln!(
        out,
        "== 6. v3 named with the digest of a copy edited after it was stored =="
    )?;
    let mut edited = seed_handoff(
        "handoff_10",
        3,
        b"draft answer to question 104, version 3, edited",
    );
    refused(
        &mut out,
        &mut inbox,
        &bytes_of(&mut edited)?,
        "artifact_changed",
    )?;

    writeln!(out)?;
    writeln!(
        out,
        "== 7. {WRITER} hands off again, though {REVIEWER} owns the context now =="
    )?;
    artifacts.put(DRAFT, 4, DRAFT_V4);
    writeln!(out, "-- the store now has v4")?;
    let before = rows(&inbox)?;
    let mut second = seed_handoff("handoff_11", 4, DRAFT_V4);
    // The reviewer's handler opens its review task, then fails: the transaction rolls back.
    let closed = |tx: &mut Transaction<'_>, delivery: &Delivery<AnswerReview>| {
        open_review(tx, delivery).map_err(|e| e.to_string())?;
        Err::<ReviewOpened, _>("the review queue is closed for maintenance".to_owned())
    };
    match inbox.accept(&bytes_of(&mut second)?, closed) {
        Err(error @ AcceptError::Handler(_)) => writeln!(out, "  attempt 1: {error}")?,
        Err(error) => {
            return Err(failed(&format!(
                "the handler's failure came back as {error}"
            )))
        }
        Ok(_) => return Err(failed("a handler that failed was accepted")),
    }
    let after = rows(&inbox)?;
    write_rows(&mut out, after)?;
    expect(
        &mut out,
        after == before,
        "the handler's row rolled back with the claim: nothing written",
    )?;
    writeln!(out, "-- attempt 2, retryOf the first run")?;
    let mut second = seed_handoff("handoff_11", 4, DRAFT_V4).journey(
        Journey::new(WRITER, REVIEWER)
            .workflow("answer")
            .retry(2, "run-11-1"),
    );
    let (second_ack, warnings) = match offer(&mut inbox, &bytes_of(&mut second)?)? {
        Acceptance::Applied { ack, warnings, .. } => (ack, warnings),
        Acceptance::Duplicate(_) => return Err(failed("a new handoff was a duplicate")),
    };
    writeln!(
        out,
        "  applied: seq {}, review task {}",
        second_ack.seq, second_ack.receipt.review_task
    )?;
    for warning in &warnings {
        writeln!(out, "  warning ({}): {warning}", warning.as_str())?;
    }
    let after = rows(&inbox)?;
    write_rows(&mut out, after)?;
    expect(
        &mut out,
        warnings == [Warning::OwnerConflict],
        "two owners in one context: accepted, with an owner_conflict warning",
    )?;
    expect(
        &mut out,
        after.tasks == before.tasks + 1 && after.entries == before.entries + 1,
        "applied once",
    )?;

    writeln!(out)?;
    writeln!(out, "== 8. back to v3, though the context accepted v4 ==")?;
    let mut older = seed_handoff("handoff_12", 3, DRAFT_V3);
    refused(
        &mut out,
        &mut inbox,
        &bytes_of(&mut older)?,
        "artifact_regressed",
    )?;

    writeln!(out)?;
    writeln!(
        out,
        "== 9. the inbox dropped, the file reopened, the first handoff retried =="
    )?;
    drop(inbox);
    let mut inbox = open(database.path(), &artifacts)?;
    duplicate(&mut out, &mut inbox, &first_bytes, &ack)?;

    writeln!(out)?;
    writeln!(
        out,
        "== 10. the rollback target: the last handoff {CONTEXT} accepted =="
    )?;
    writeln!(
        out,
        "  offered last: handoff_07 (a duplicate); refused last: handoff_12 (regressed)"
    )?;
    let target = inbox
        .last_accepted(CONTEXT)?
        .ok_or_else(|| failed("the context has no last accepted handoff"))?
        .typed::<ReviewOpened>()?;
    let envelope = target.delivery::<AnswerReview>(&ReceiveOptions::default())?;
    let draft_version = envelope
        .envelope()
        .artifacts
        .iter()
        .find(|a| a.uri == DRAFT)
        .map(|a| a.version);
    writeln!(
        out,
        "  last accepted: {} (seq {}), owner {}, draft v{}, review task {}",
        target.ack.handoff_id,
        target.ack.seq,
        target.owner,
        draft_version.map_or_else(|| "?".to_owned(), |v| v.to_string()),
        target.ack.receipt.review_task
    )?;
    expect(
        &mut out,
        target.ack == second_ack && draft_version == Some(4),
        "the rollback target is handoff_11 at draft v4, not the last message offered",
    )?;
    drop(inbox);
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_catch_holds() {
        let out = super::envelope_accept().expect("every catch holds");
        for refusal in [
            "refused as conflict",
            "refused as not_ready",
            "refused as artifact_unavailable",
            "refused as artifact_changed",
            "refused as artifact_regressed",
        ] {
            assert!(out.contains(refusal), "{out}");
        }
        assert_eq!(out.matches("caught: nothing written").count(), 5, "{out}");
        assert!(
            out.contains("rolled back with the claim: nothing written"),
            "{out}"
        );
        assert!(out.contains("warning (owner_conflict)"), "{out}");
        // No value of the envelope in a refusal.
        for line in out.lines().filter(|l| l.contains("handoff refused")) {
            assert!(!line.contains("question-104"), "{line}");
            assert!(!line.contains("publish the answer"), "{line}");
        }
    }
}
