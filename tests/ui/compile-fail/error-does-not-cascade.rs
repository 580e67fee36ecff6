use contract_core::{HandoffContract, HandoffSchema};

// One mistake here...
#[derive(HandoffSchema)]
#[handoff(version = 1)]
pub struct Money {
    pub cents: u64,
}

// ...and no further error where the type is used.
#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1)]
pub struct RefundRequest {
    pub amount: Money,
    pub history: Vec<Money>,
}

fn main() {
    let _ = <RefundRequest as HandoffSchema>::schema();
}
