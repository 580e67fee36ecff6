//! A nested struct's field removed: the error is at the nested struct (the field is gone),
//! and `cargo check` reports it as `cargo build` does.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-field-removed", version = 1)]
pub struct Order {
    pub lines: Vec<Line>,
}

fn main() {}
