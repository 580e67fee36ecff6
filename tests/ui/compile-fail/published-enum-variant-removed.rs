//! A variant of a published enum contract is removed: old writers still send it, so new
//! readers break (ENUM_VARIANT_REMOVED, at the enum: the variant is gone).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-variant-removed", version = 1)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEvent {
    Approved { amount_cents: u64 },
    Rejected(String),
}

fn main() {}
