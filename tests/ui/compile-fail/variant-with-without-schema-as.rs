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
pub enum Wait {
    #[serde(with = "seconds")]
    For(std::time::Duration),
    Forever,
}

fn main() {}
