use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

// serde's own derive reports it; the description falls back rather than guess.
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    #[serde(untagged)]
    Raw(serde_json::Value),
    Created { id: u64 },
}

fn main() {}
