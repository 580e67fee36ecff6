use contract_core::HandoffSchema;
use serde::{Deserialize, Deserializer};

fn lenient<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let text: Option<String> = Option::deserialize(d)?;
    Ok(text.and_then(|t| t.parse().ok()))
}

#[derive(Deserialize, HandoffSchema)]
pub struct Limits {
    #[serde(deserialize_with = "lenient")]
    #[handoff(schema_as = Option<String>)]
    pub max: Option<u64>,
}

fn main() {}
