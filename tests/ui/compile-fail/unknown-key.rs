use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", verison = 1)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
