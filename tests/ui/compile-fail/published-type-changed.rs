//! A field's type changes: one error for both directions (TYPE_CHANGED, at the type).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-type-changed", version = 1)]
pub struct Refund {
    pub amount: String,
}

fn main() {}
