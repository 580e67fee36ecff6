//! A type no contract holds any more is never blocked: the root now holds `Item`s, so
//! nothing asks `Line`, which changed freely (the root's own change is compatible: `lines`
//! became optional, which old readers do not see removed, under mode `backward`).
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub label: bool,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Item {
    pub sku: String,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-type-no-longer-held", version = 1, mode = "backward")]
pub struct Order {
    #[serde(default)]
    pub items: Vec<Item>,
}

fn main() {
    let _unused = Line { label: true };
}
