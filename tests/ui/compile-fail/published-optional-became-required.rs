//! `default` is dropped from a field old writers send only when present (FIELD_BECAME_REQUIRED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-optional-became-required", version = 1)]
pub struct Note {
    pub text: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub comment: String,
}

fn main() {}
