// serde would write the key `t` twice (the tag, then the content) and could not read it back:
// serde_derive rejects the enum itself, and the handoff derive adds no error of its own.
use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "t")]
pub enum Event {
    Created { id: u64 },
    Closed,
}

fn main() {}
