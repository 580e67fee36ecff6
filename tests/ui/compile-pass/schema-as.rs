//! `schema_as` on a field, a variant and a container makes `with`, `from` and `into` describable.
use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

mod seconds {
    pub fn serialize<S: serde::Serializer>(d: &std::time::Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<std::time::Duration, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(std::time::Duration::from_secs)
    }
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Task {
    #[serde(with = "seconds")]
    #[handoff(schema_as = u64)]
    pub timeout: std::time::Duration,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Wait {
    #[serde(with = "seconds")]
    #[handoff(schema_as = u64)]
    For(std::time::Duration),
    Forever,
}

#[derive(Clone, Serialize, Deserialize, HandoffSchema)]
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
#[handoff(schema_as = Wire)]
pub struct Money {
    pub amount: f64,
}

fn main() {
    let _ = Task::schema();
    let _ = Wait::schema();
    let schema = Money::schema();
    assert!(schema.def("Wire").is_some());
}
