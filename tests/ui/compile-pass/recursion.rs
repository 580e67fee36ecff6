//! Recursive and mutually recursive types.
use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Plan {
    pub steps: Vec<Plan>,
    pub fallback: Option<Box<Plan>>,
    pub owner: Box<Team>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Team {
    pub plans: Vec<Plan>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Tree<T> {
    Leaf(T),
    Node(Vec<Tree<T>>),
}

fn main() {
    assert_eq!(Plan::schema().types.len(), 2);
    assert_eq!(<Tree<u8>>::schema().root.to_string(), "Tree<u8>");
}
