use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Meta {
    pub author: String,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub struct Document {
    pub title: String,
    #[serde(flatten)]
    pub meta: Meta,
}

fn main() {}
