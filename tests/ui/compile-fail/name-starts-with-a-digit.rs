use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "2fa-challenge", version = 1)]
pub struct Challenge {
    pub code: String,
}

fn main() {}
