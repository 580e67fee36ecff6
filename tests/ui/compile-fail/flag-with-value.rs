use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
pub struct Refund {
    #[handoff(assumption = true)]
    pub use_case: Option<String>,
}

fn main() {}
