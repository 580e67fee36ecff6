//! A confirmed field becomes an assumption: old readers rely on it (PROVENANCE_WEAKENED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-provenance-weakened", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    #[handoff(assumption)]
    pub use_case: String,
}

fn main() {}
