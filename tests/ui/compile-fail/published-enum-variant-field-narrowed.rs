//! A field of a struct variant of a published enum contract is narrowed (INT_NARROWED, at
//! the field's type).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-variant-field-narrowed", version = 1)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEvent {
    Approved { amount_cents: u32 },
    Rejected(String),
    Escalated,
}

fn main() {}
