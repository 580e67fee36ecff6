//! The refund handoff end to end: the contract's id and schema, its JSON Schema for a peer
//! in another language, and what changed between v1 and v2, checked in both directions.
//!
//! Run with `cargo run -p examples --bin refund-handoff`.

use contract_core::{compat, Mode};
use contract_core::{json_schema, HandoffContract, HandoffSchema, View};
use examples::refund::{v1, v2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("contract {}", v2::RefundRequest::CONTRACT);
    println!();
    println!("== canonical schema text (what the snapshot holds) ==");
    println!(
        "{}",
        contract_core::schema::text::to_text(&v2::RefundRequest::schema())
    );

    println!("== JSON Schema, receiver view ==");
    let receiver = json_schema::<v2::RefundRequest>(View::Receiver);
    println!("{}", serde_json::to_string_pretty(&receiver)?);
    println!();

    let old = v1::RefundRequest::schema();
    let new = v2::RefundRequest::schema();

    println!("== v1 writer -> v2 reader (backward) ==");
    let report = compat::check(&old, &new);
    println!("{report}");

    println!("== v1 <-> v2 under mode full ==");
    let report = compat::evolve(&old, &new, Mode::Full);
    println!("{report}");
    println!();
    println!(
        "verdict: {}",
        if report.is_compatible() {
            "compatible"
        } else {
            "breaking: v2 needs its own major version (it has one)"
        }
    );
    Ok(())
}
