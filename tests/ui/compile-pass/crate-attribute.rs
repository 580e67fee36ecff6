//! `#[handoff(crate = "...")]` names the runtime crate through another path.
mod reexport {
    pub use contract_core as handoff;
}

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, reexport::handoff::HandoffContract)]
#[handoff(crate = "crate::reexport::handoff", name = "renamed-crate", version = 1)]
pub struct Ping {
    pub seq: u64,
}

#[derive(Serialize, Deserialize, reexport::handoff::HandoffSchema)]
#[handoff(crate = "::contract_core")]
pub struct Pong {
    pub seq: u64,
}

fn main() {
    use reexport::handoff::{HandoffContract, HandoffSchema};
    assert_eq!(Ping::CONTRACT.id, "renamed-crate/v1");
    let _ = Pong::schema();
}
