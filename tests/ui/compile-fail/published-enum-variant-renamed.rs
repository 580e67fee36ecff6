//! A variant of a published enum contract gets another tag: one error at the variant, for
//! both directions (old writers send the old tag, new writers the new one).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-variant-renamed", version = 1)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEvent {
    Approved { amount_cents: u64 },
    Rejected(String),
    #[serde(rename = "handed-over")]
    Escalated,
}

fn main() {}
