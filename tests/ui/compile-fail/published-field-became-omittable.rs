//! `skip_serializing_if` on a field old readers require (FIELD_BECAME_OMITTABLE).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-field-became-omittable", version = 1)]
pub struct Note {
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn main() {}
