//! `renamed_from` explains the rename, but without `#[serde(alias)]` old data is not read
//! (FIELD_RENAMED_WITHOUT_ALIAS), and old readers still require the old name (FIELD_RENAMED).
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-renamed-from-without-alias", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    #[handoff(renamed_from = "orderRef")]
    pub order_id: String,
    pub amount: u64,
}

fn main() {}
