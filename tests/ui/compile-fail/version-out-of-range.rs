use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 5000000000)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
