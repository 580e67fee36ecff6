//! A published externally tagged enum contract becomes adjacently tagged (ENUM_REPR_CHANGED,
//! at the serde attribute that changes it).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-repr-changed", version = 1)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "data")]
pub enum RefundEvent {
    Approved { amount_cents: u64 },
    Rejected(String),
    Escalated,
}

fn main() {}
