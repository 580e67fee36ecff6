use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    Created { by: String },
    Deleted,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Log {
    pub id: u32,
    #[serde(flatten)]
    pub event: Option<Event>,
}

fn main() {}
