use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub struct Refund {
    #[handoff(confirmed)]
    #[handoff(assumption)]
    pub use_case: Option<String>,
}

fn main() {}
