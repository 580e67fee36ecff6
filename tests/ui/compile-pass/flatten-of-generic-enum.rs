use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

/// Reads the payload's keys beside `id`: a struct's fields, or an enum's variant.
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
    // Both instantiations describe their payload beside `id`.
    let _ = <Envelope<Note> as HandoffSchema>::schema();
    let _ = <Envelope<Event> as HandoffSchema>::schema();
}
