//! The same nested type held by two published contracts: one error for each, each naming its
//! contract, its snapshot and the path from its root (`lines[].qty`, `billed.qty`).
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-two-contracts-order", version = 1)]
pub struct Order {
    pub lines: Vec<Line>,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-two-contracts-invoice", version = 1)]
pub struct Invoice {
    pub billed: Option<Box<Line>>,
}

fn main() {}
