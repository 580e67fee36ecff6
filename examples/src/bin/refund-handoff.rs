//! Seed `003_…`'s workflow end to end (`examples::session`): triage → refund specialist →
//! escalation, every handoff in an envelope on one session; the lost `orderRef` caught at
//! send, refused at receive and explained, a mapper's rename and a v2 triage refused by a v1
//! specialist; then the contracts, v1 against v2. Exits non-zero when a catch fails.
//!
//! Run with `cargo run -p examples --bin refund-handoff`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", examples::session::refund_handoff()?);
    Ok(())
}
