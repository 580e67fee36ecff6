//! Seed `003_…`'s story: three green runs, one broken workflow, because the payload that
//! triage handed to the refund specialist lost `orderRef`. Here it is caught before it
//! leaves, where it arrives, and the missing field is explained. The README's quick start
//! shows this output, and a test keeps the two equal.

use std::error::Error;
use std::fmt::Write;

use contract_core::{
    receive_with, send, send_to, why_missing, HandoffSchema, Journey, Presence, ReceiveOptions,
    Rejection,
};
use serde::Serialize;

use crate::refund::{v1, v2, Category};

/// What the triage agent builds for the specialist: its builder may leave the order out.
#[derive(Serialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpecialistInput {
    /// Why the customer wants the refund.
    pub category: Category,
    /// The order, when the builder kept it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_ref: Option<String>,
    /// The amount in cents.
    pub amount_cents: u64,
}

/// What `v1` readers say of `bytes`: they must refuse it.
fn refused(bytes: &[u8], options: &ReceiveOptions) -> Result<Rejection, Box<dyn Error>> {
    match receive_with::<v1::RefundRequest>(bytes, options) {
        Ok(_) => Err("the v1 reader accepted a payload without orderRef".into()),
        Err(rejection) => Ok(rejection),
    }
}

/// The story, as the lines it prints.
///
/// # Errors
/// When a step does not go as the story tells (a payload accepted that lacks `orderRef`).
pub fn dropped_order_ref() -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    let input = SpecialistInput {
        category: Category::Damaged,
        order_ref: None, // the bug: lost while building the payload
        amount_cents: 1250,
    };

    writeln!(
        out,
        "== at send: the producer checks what the consumer (refund-request/v1) demands =="
    )?;
    match send_to::<v1::RefundRequest, _>(&input) {
        Ok(_) => writeln!(out, "sent")?,
        Err(rejection) => writeln!(out, "{rejection}")?,
    }

    writeln!(out)?;
    writeln!(out, "== at receive: the bytes went out anyway ==")?;
    let sent = send(&input)?; // its own schema allows leaving the order out
    let journey = Journey::new("triage-agent", "refund-specialist")
        .session("sess-7f3a")
        .workflow("support-refund");
    let rejection = refused(sent.bytes(), &ReceiveOptions::default().journey(journey))?;
    writeln!(out, "{rejection}")?;
    writeln!(out, "presence: {}", rejection.presence())?;
    let trace: &Presence = rejection.presence();
    writeln!(out, "on the trace: {}", serde_json::to_string(trace)?)?;

    writeln!(out)?;
    writeln!(out, "== why it is missing: three situations, one call ==")?;
    writeln!(
        out,
        "-- 1. the producer never wrote it (its own presence record says so):"
    )?;
    let diagnosis = why_missing::<v1::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    writeln!(out, "{diagnosis}")?;

    // Two other ways to lose a field, told apart by the same call.
    writeln!(
        out,
        "-- 2. a mapper on the way renamed it (the payload carries a close spelling):"
    )?;
    let mapped = br#"{"category":"damaged","order_ref":"A-1","amountCents":1250}"#;
    let rejection = refused(mapped, &ReceiveOptions::default())?;
    writeln!(
        out,
        "{}",
        why_missing::<v1::RefundRequest>(rejection.presence()).explain()
    )?;
    writeln!(
        out,
        "-- 3. the producer runs another version of the contract (v2 renamed the field):"
    )?;
    let newer = send(&v2::RefundRequest {
        category: Category::Damaged,
        order_id: "A-1".into(),
        amount_cents: 1250,
        use_case: None,
    })?;
    let rejection = refused(newer.bytes(), &ReceiveOptions::default())?;
    writeln!(
        out,
        "{}",
        why_missing::<v1::RefundRequest>(rejection.presence())
            .sender(newer.presence())
            .payload(newer.bytes())
            .explain()
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_readme_shows_what_the_story_prints() {
        let out = super::dropped_order_ref().expect("the story runs");
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(out.trim_end()),
            "the README's quick start no longer shows the output of dropped-order-ref:\n{out}"
        );
    }
}
