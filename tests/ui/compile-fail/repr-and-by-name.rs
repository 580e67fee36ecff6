use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[repr(u8)]
#[handoff(repr, by_name)]
pub enum Priority {
    Low = 1,
    High = 2,
}

fn main() {}
