//! A nested struct's field narrowed (`u32` to `u16`): the error is at the nested field,
//! naming the contract that holds the type, its snapshot and the path from its root.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-field-narrowed", version = 1)]
pub struct Order {
    pub lines: Vec<Line>,
}

fn main() {}
