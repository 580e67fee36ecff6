use contract_core::HandoffContract;

pub struct Money {
    pub cents: u64,
}

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1)]
pub struct RefundRequest {
    pub order_id: String,
    pub amount: Money,
}

fn main() {}
