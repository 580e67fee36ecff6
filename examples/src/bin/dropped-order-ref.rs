//! Seed `003_…`'s story: three green runs, one broken workflow, because the payload that
//! triage handed to the refund specialist lost `orderRef`. Here it is caught before it
//! leaves, where it arrives, and the missing field is explained.
//!
//! Run with `cargo run -p examples --bin dropped-order-ref`.

use contract_core::{
    receive_with, send, send_to, why_missing, HandoffSchema, Journey, ReceiveOptions,
};
use examples::refund::{v1, v2, Category};
use serde::Serialize;

/// What the triage agent builds for the specialist: its builder may leave the order out.
#[derive(Serialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct SpecialistInput {
    category: Category,
    #[serde(skip_serializing_if = "Option::is_none")]
    order_ref: Option<String>,
    amount_cents: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = SpecialistInput {
        category: Category::Damaged,
        order_ref: None, // the bug: lost while building the payload
        amount_cents: 1250,
    };

    println!("== at send: the producer checks what the consumer (refund-request/v1) demands ==");
    match send_to::<v1::RefundRequest, _>(&input) {
        Ok(_) => println!("sent"),
        Err(rejection) => println!("{rejection}"),
    }

    println!();
    println!("== at receive: the bytes went out anyway ==");
    let sent = send(&input)?; // its own schema allows leaving the order out
    let journey = Journey::new("triage-agent", "refund-specialist")
        .session("sess-7f3a")
        .workflow("support-refund");
    let rejection =
        receive_with::<v1::RefundRequest>(sent.bytes(), &ReceiveOptions::journey(journey))
            .expect_err("orderRef is missing");
    println!("{rejection}");
    println!("presence: {}", rejection.presence());
    println!(
        "on the trace: {}",
        serde_json::to_string(rejection.presence())?
    );

    println!();
    println!("== why it is missing ==");
    let diagnosis = why_missing::<v1::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    println!("{diagnosis}");

    // Two other ways to lose a field, told apart by the same call.
    let mapped = br#"{"category":"damaged","order_ref":"A-1","amountCents":1250}"#;
    let rejection = receive_with::<v1::RefundRequest>(mapped, &ReceiveOptions::default())
        .expect_err("orderRef is missing");
    println!(
        "{}",
        why_missing::<v1::RefundRequest>(rejection.presence()).explain()
    );
    let newer = send(&v2::RefundRequest {
        category: Category::Damaged,
        order_id: "A-1".into(),
        amount_cents: 1250,
        use_case: None,
    })?;
    let rejection = receive_with::<v1::RefundRequest>(newer.bytes(), &ReceiveOptions::default())
        .expect_err("orderRef is missing");
    println!(
        "{}",
        why_missing::<v1::RefundRequest>(rejection.presence())
            .sender(newer.presence())
            .payload(newer.bytes())
            .explain()
    );
    Ok(())
}
