//! The billing agent's inbox on an SQLite file: an envelope accepted once, its retry
//! answered with the first acknowledgement, the last acceptance read back, and a failing
//! handler rolled back. No call names a type.

use std::error::Error;

use contract_core::inbox::{AcceptError, Acceptance, Inbox, SqliteLedger};
use contract_core::{send_handoff, Handoff};
use outside_user::{issue_refund, RefundError, RefundRequest, BILLING_TABLES};

#[test]
fn accepts_reads_back_and_rolls_back() -> Result<(), Box<dyn Error>> {
    let dir = std::env::temp_dir().join(format!("outside-user-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("billing.sqlite");
    let _ = std::fs::remove_file(&path);

    // guide: begin
    let ledger = SqliteLedger::open_with_migrations(&path, &BILLING_TABLES)?;
    let mut inbox = Inbox::new(ledger);

    let refund = RefundRequest {
        order_id: "A-1".into(),
        amount_cents: 1250,
    };
    let mut handoff = Handoff::new("ctx-1", "handoff-1", "billing", refund).ready();
    let bytes = send_handoff(&mut handoff)?.into_bytes();

    // Accepted once: the handler ran, the refund and the ledger's entry committed together.
    let first = inbox.accept(&bytes, issue_refund)?;
    assert!(first.is_applied());
    // A retry: the first acknowledgement, and the handler does not run.
    let again = inbox.accept(&bytes, issue_refund)?;
    assert!(matches!(again, Acceptance::Duplicate(ref ack) if ack == first.ack()));

    // The last acceptance, read back: the rollback target. Its receipt is read as the
    // handler's when asked for.
    let last = inbox
        .last_accepted("ctx-1")?
        .expect("ctx-1 accepted a handoff");
    assert_eq!(last.ack.handoff_id, "handoff-1");
    assert_eq!(last.owner, "billing");
    let row: i64 = last.receipt()?;
    assert_eq!(row, first.ack().receipt);

    // A handler that fails rolls back: its row is gone, no entry is recorded.
    let large = RefundRequest {
        order_id: "A-2".into(),
        amount_cents: 250_000,
    };
    let mut handoff = Handoff::new("ctx-1", "handoff-2", "billing", large).ready();
    let refused = inbox.accept(&send_handoff(&mut handoff)?.into_bytes(), issue_refund);
    assert!(matches!(
        refused,
        Err(AcceptError::Handler(RefundError::AboveLimit))
    ));
    let refunds: i64 =
        inbox
            .ledger()
            .connection()
            .query_row("SELECT COUNT(*) FROM refunds", [], |row| row.get(0))?;
    assert_eq!(refunds, 1);
    let last = inbox
        .last_accepted("ctx-1")?
        .expect("ctx-1 accepted a handoff");
    assert_eq!(last.ack.handoff_id, "handoff-1");
    // guide: end

    drop(inbox);
    // Reopened: the billing table is not created again, and what was accepted stays.
    let inbox = Inbox::new(SqliteLedger::open_with_migrations(&path, &BILLING_TABLES)?);
    let last = inbox.last_accepted("ctx-1")?.expect("kept");
    assert_eq!(last.ack.seq, first.ack().seq);
    drop(inbox);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

/// No call of this crate names a type, and the guide shows its code: each line of the
/// library (but its module doc) and of the test between its `guide:` markers is a line of
/// the guide's page on the envelope.
#[test]
fn the_guide_shows_this_code_without_a_turbofish() -> Result<(), Box<dyn Error>> {
    let here = env!("CARGO_MANIFEST_DIR");
    let library = std::fs::read_to_string(format!("{here}/src/lib.rs"))?;
    let test = std::fs::read_to_string(format!("{here}/tests/accept.rs"))?;
    let guide =
        std::fs::read_to_string(format!("{here}/../../contract-core/src/guide/envelope.md"))?;
    let guide_lines: Vec<&str> = guide.lines().map(str::trim).collect();

    let turbofish = ["::", "<"].concat();
    for (name, code) in [("src/lib.rs", &library), ("tests/accept.rs", &test)] {
        let calls = code
            .lines()
            .filter(|line| line.contains(&turbofish))
            .count();
        assert_eq!(calls, 0, "{name} names a type in a call");
    }

    let begin = ["// guide:", " begin"].concat();
    let end = ["// guide:", " end"].concat();
    let shown = test
        .lines()
        .skip_while(|line| line.trim() != begin)
        .skip(1)
        .take_while(|line| line.trim() != end);
    let library = library.lines().filter(|line| !line.starts_with("//!"));
    let missing: Vec<&str> = library
        .chain(shown)
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .filter(|line| !guide_lines.contains(line))
        .collect();
    assert!(
        missing.is_empty(),
        "lines the guide does not show: {missing:#?}"
    );
    Ok(())
}
