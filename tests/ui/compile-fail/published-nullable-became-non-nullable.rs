//! `Option<String>` becomes `String`: old writers send `null` (NULLABLE_BECAME_NON_NULLABLE).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-nullable-became-non-nullable", version = 1)]
pub struct Note {
    pub text: String,
    #[serde(default)]
    pub comment: String,
}

fn main() {}
