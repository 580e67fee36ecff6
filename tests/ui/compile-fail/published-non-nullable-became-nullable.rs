//! Under mode forward, `String` becomes `Option<String>`: old readers reject `null`.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-non-nullable-became-nullable", version = 1, mode = "forward")]
pub struct Note {
    pub text: String,
    pub comment: Option<String>,
}

fn main() {}
