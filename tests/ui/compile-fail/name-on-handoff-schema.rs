use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(name = "category", version = 1)]
pub enum Category {
    Damaged,
    Lost,
}

fn main() {}
