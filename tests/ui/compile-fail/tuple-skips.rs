use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

// A field skipped in one direction only is described (the two views have their own length);
// skipped when a predicate holds, it is not.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Sometimes(pub u32, #[serde(skip_serializing_if = "Option::is_none")] pub Option<u32>);

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Event {
    Moved(u32, #[serde(skip_deserializing)] u32),
    Resized(#[serde(skip_serializing_if = "is_zero")] u32, u32),
    // Skipped both ways: left out of the description, like serde does.
    Kept(u32, #[serde(skip)] u32),
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn main() {}
