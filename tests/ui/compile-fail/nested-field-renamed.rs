//! A nested struct's field renamed without an alias (`qty` to `quantity`): one error at the
//! nested field, naming both findings of the rename.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub quantity: u32,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-field-renamed", version = 1)]
pub struct Order {
    pub lines: Vec<Line>,
}

fn main() {}
