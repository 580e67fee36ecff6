use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    Created { id: u64 },
    #[serde(untagged)]
    Raw { note: String },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Envelope {
    pub id: u64,
    #[serde(flatten)]
    pub event: Event,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct MaybeEnvelope {
    pub id: u64,
    #[serde(flatten)]
    pub event: Option<Event>,
}

fn main() {}
