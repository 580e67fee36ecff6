use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

/// Reads the payload's keys beside `id`: fine for a struct, not describable for an enum.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Envelope<T> {
    pub id: u32,
    #[serde(flatten)]
    pub payload: T,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Note {
    pub text: String,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    Created { by: String },
    Deleted,
}

fn main() {
    // A struct payload is fine; the enum payload fails when its schema is built.
    let _ = <Envelope<Note> as HandoffSchema>::schema();
    let _ = <Envelope<Event> as HandoffSchema>::schema();
}
