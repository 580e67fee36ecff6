use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(assumption)]
pub struct Refund {
    pub order_id: String,
}

fn main() {}
