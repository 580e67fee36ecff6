use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(crate = "contract core")]
pub struct Refund {
    pub order_id: String,
}

fn main() {}
