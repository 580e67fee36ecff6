//! A contract may keep its snapshots anywhere under the crate; several versions live side by side.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "ping", version = 1, snapshots = "schemas/published")]
pub struct PingV1 {
    pub seq: u64,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "ping", version = 2, snapshots = "schemas/published")]
pub struct PingV2 {
    pub seq: u64,
    #[serde(default)]
    pub origin: String,
}

fn main() {
    assert!(PingV1::CONTRACT.snapshots_dir.ends_with("schemas/published"));
    assert_eq!(PingV2::CONTRACT.id, "ping/v2");
}
