use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request")]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
