//! A break two levels below the root (`lines[].price.cents` narrowed from `u64` to `u32`):
//! the root asks `Line`, which asks `Money`, and the error is at `Money`'s field.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Money {
    pub cents: u32,
    pub currency: String,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub price: Money,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-two-levels", version = 1)]
pub struct Order {
    pub lines: Vec<Line>,
}

fn main() {}
