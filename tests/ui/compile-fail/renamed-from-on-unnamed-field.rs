use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub struct OrderId(#[handoff(renamed_from = "orderRef")] pub String);

fn main() {}
