use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(repr)]
pub struct Priority {
    pub level: u8,
}

fn main() {}
