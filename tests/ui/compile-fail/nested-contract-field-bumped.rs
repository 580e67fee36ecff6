//! A contract used as a field of another, changed incompatibly and published as its own new
//! major version (`version = 2` has no snapshot yet, so its own check passes): the contract
//! that holds it still publishes the old shape at v1, so the change is an error there, at the
//! field, naming the holder's contract.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-contract-field-customer", version = 2)]
pub struct Customer {
    pub id: String,
    pub tier: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-contract-field-order", version = 1)]
pub struct Order {
    pub customer: Customer,
    pub total: u64,
}

fn main() {}
