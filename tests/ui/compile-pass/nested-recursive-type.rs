//! A recursive nested type held by a published contract: asking follows the tree of the
//! published type graph, never round the cycle `Tree` -> `Tree`, so no `const` cycle (E0391).
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Tree {
    pub label: String,
    pub children: Vec<Tree>,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-recursive-type", version = 1)]
pub struct Outline {
    pub tree: Tree,
    pub depth: u32,
}

fn main() {
    let report = contract_core::check_published::<Outline>();
    assert!(report.is_ok(), "{report:?}");
}
