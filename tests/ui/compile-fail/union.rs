use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub union Bits {
    pub int: u32,
    pub float: f32,
}

fn main() {}
