use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Wire {
    pub cents: u64,
}

impl From<Wire> for Money {
    fn from(w: Wire) -> Self {
        Money { amount: w.cents as f64 / 100.0 }
    }
}

impl From<Money> for Wire {
    fn from(m: Money) -> Self {
        Wire { cents: (m.amount * 100.0) as u64 }
    }
}

#[derive(Clone, Serialize, Deserialize, HandoffSchema)]
#[serde(from = "Wire", into = "Wire")]
pub struct Money {
    pub amount: f64,
}

fn main() {}
