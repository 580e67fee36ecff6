//! What a variant of a published enum contract carries changes type (TYPE_CHANGED, at the
//! variant's content).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-variant-retyped", version = 1)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEvent {
    Approved { amount_cents: u64 },
    Rejected(u32),
    Escalated,
}

fn main() {}
