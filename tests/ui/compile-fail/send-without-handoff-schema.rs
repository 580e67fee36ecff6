// A whole type without a description, handed to `send`: the note names the type and both
// remedies, not only the field-level `schema_as`.
#[derive(serde::Serialize)]
pub struct NoSchema {
    pub seq: u64,
}

fn main() {
    let _ = contract_core::send(&NoSchema { seq: 1 });
}
