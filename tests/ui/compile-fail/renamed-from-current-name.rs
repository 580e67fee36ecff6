use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "refund-request", version = 2)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    #[handoff(renamed_from = "orderId")]
    pub order_id: String,
}

fn main() {}
