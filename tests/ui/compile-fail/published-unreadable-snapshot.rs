//! The published snapshot does not parse: an error at `version` naming the file and line.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-unreadable-snapshot", version = 1)]
pub struct Ping {
    pub seq: u64,
}

fn main() {}
