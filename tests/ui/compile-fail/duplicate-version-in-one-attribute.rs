use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1, version = 2)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
