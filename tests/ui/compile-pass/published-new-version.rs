//! A breaking change published as a new major compiles beside the published one.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

/// Still what old peers read: unchanged from its snapshot.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-new-version", version = 1)]
pub struct PingV1 {
    pub seq: u64,
}

/// New and unpublished (no snapshot file): free to break v1.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-new-version", version = 2)]
pub struct PingV2 {
    pub seq: String,
    pub origin: String,
}

fn main() {
    assert_eq!(PingV1::CONTRACT.id, "published-new-version/v1");
    assert_eq!(PingV2::CONTRACT.id, "published-new-version/v2");
}
