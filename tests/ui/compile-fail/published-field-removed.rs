//! A field of a published contract is removed: old readers require it (FIELD_REMOVED, at the struct).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-field-removed", version = 1)]
pub struct Refund {
    pub amount: u64,
}

fn main() {}
