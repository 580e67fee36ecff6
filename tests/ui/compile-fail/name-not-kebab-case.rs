use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "RefundRequest", version = 1)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
