use contract_core::HandoffSchema;
use serde::{Deserialize, Deserializer};

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let text = String::deserialize(d)?;
    Ok(text == "yes")
}

#[derive(Deserialize, HandoffSchema)]
pub struct Flags {
    #[serde(deserialize_with = "lenient_bool")]
    pub enabled: bool,
}

fn main() {}
