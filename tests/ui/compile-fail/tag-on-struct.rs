use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub struct Created {
    pub id: u64,
}

fn main() {}
