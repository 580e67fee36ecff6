use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[repr(u8)]
#[handoff(repr)]
pub enum Priority {
    Low = 1,
    Custom(u8) = 2,
}

fn main() {}
