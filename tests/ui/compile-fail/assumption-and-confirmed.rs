use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub struct Refund {
    #[handoff(assumption, confirmed)]
    pub use_case: Option<String>,
}

fn main() {}
