use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Document {
    pub title: String,
    #[serde(flatten)]
    pub tags: Vec<String>,
}

fn main() {}
