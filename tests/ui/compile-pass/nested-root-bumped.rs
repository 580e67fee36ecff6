//! A nested break published as a new major version of its root: `version = 2` has no
//! snapshot yet, so nothing asks the nested type, and the build passes beside v1's snapshot.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-root-bumped", version = 2)]
pub struct Order {
    pub lines: Vec<Line>,
}

fn main() {}
