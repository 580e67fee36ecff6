use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(snapshots = "contracts")]
pub struct Refund {
    pub order_id: String,
}

fn main() {}
