// serde would write the key `kind` twice (the tag, then the field) and could not read it back:
// serde_derive rejects the enum itself, and the handoff derive adds no error of its own.
use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum Event {
    Created { id: u64 },
    Renamed {
        #[serde(alias = "kind")]
        name: String,
    },
}

fn main() {}
