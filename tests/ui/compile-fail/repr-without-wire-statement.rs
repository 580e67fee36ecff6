use contract_core::HandoffSchema;

// serde_repr writes `1`, serde's derive `"Low"`: the derive cannot tell which.
#[derive(HandoffSchema)]
#[repr(u8)]
pub enum Priority {
    Low = 1,
    High = 2,
}

fn main() {}
