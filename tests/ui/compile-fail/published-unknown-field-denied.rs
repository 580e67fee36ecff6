//! Under mode backward, `deny_unknown_fields` is added while a field old writers send is
//! removed: new readers reject old data (UNKNOWN_FIELD_DENIED, at the serde attribute).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-unknown-field-denied", version = 1, mode = "backward")]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub text: String,
}

fn main() {}
