//! Seed `000_…`'s handoff accepted durably (`examples::accept`): a ready handoff applied once
//! in an SQLite ledger, the same envelope and a retry of it answered with the first
//! acknowledgement, a changed retry, a draft, a missing, a changed and an older draft version
//! refused without writing anything, a failing handler rolled back, two owners in one
//! context warned of, the file reopened and the first handoff retried, and the last accepted
//! handoff as the rollback target.
//! Exits non-zero when a catch fails.
//!
//! Run with `cargo run -p examples --bin envelope-accept`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", examples::accept::envelope_accept()?);
    Ok(())
}
