use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(version = 1)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
