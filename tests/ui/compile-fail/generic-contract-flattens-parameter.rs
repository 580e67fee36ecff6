use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

// A generic contract publishes one snapshot for every argument, each parameter a hole: a
// flattened parameter's fields would be the contract's own, which a hole cannot say.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "agent-envelope", version = 1)]
pub struct Envelope<T> {
    pub handoff_id: String,
    #[serde(flatten)]
    pub payload: T,
}

fn main() {}
