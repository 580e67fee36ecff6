use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "Refund_Request", version = 0, snapshot = "contracts")]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    #[handoff(renamed_from = "orderId")]
    pub order_id: String,
    #[handoff(assumption, confirmed)]
    pub use_case: Option<String>,
    #[handoff(renamd_from = "cat")]
    pub category: String,
}

fn main() {}
