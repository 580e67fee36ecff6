//! A variant of a nested enum removed: old writers still send `Late`, so new readers break
//! (ENUM_VARIANT_REMOVED, at the nested enum: the variant is gone), under the contract that
//! holds the enum.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Category {
    Damaged,
    Lost,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-enum-variant-removed", version = 1)]
pub struct Ticket {
    pub category: Category,
    pub note: String,
}

fn main() {}
