use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub struct Address {
    #[handoff(allow(FIELD_REMOVED, reason = "no reader uses it"))]
    pub street: String,
}

fn main() {}
