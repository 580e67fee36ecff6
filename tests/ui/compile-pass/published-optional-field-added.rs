//! A compatible change of a published contract compiles: an optional field is added.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-optional-field-added", version = 1)]
pub struct Ping {
    pub seq: u64,
    pub note: Option<String>,
}

fn main() {
    assert_eq!(Ping::CONTRACT.id, "published-optional-field-added/v1");
}
