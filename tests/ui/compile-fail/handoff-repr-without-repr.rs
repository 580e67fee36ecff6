use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(repr)]
pub enum Priority {
    Low,
    High,
}

fn main() {}
