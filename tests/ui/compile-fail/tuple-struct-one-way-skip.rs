use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Pair(pub u32, #[serde(skip_serializing)] pub u32);

fn main() {}
