//! `u64` becomes `u32`: old writers' values do not all fit (INT_NARROWED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-integer-narrowed", version = 1)]
pub struct Ping {
    pub seq: u32,
}

fn main() {}
