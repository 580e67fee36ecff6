//! `orderRef` is renamed `orderId` without declaring it (FIELD_LIKELY_RENAMED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-rename-without-alias", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub order_id: String,
    pub amount: u64,
}

fn main() {}
