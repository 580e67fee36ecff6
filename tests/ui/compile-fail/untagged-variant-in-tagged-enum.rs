use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    Created { id: u64 },
    #[serde(untagged)]
    Raw(serde_json::Value),
}

fn main() {}
