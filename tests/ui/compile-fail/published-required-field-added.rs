//! A required field is added to a published contract: old data lacks it (FIELD_ADDED_REQUIRED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-required-field-added", version = 1)]
pub struct Refund {
    pub amount: u64,
    pub reason: String,
}

fn main() {}
