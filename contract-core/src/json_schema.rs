//! JSON Schema (draft 2020-12) of a type, in its sender or receiver view.

use crate::traits::HandoffSchema;
use contract_schema::json_schema::{to_json_schema, View};

/// The JSON Schema (draft 2020-12) of `T` as its sender writes it or its receiver reads it.
///
/// Named types sit under `$defs`; a contract carries its id as `x-handoff-contract`. The
/// positions where the schema is stricter or looser than serde are listed in
/// [`contract_schema::json_schema`].
///
/// ```
/// use contract_core::{json_schema, View};
///
/// let schema = json_schema::<Vec<u8>>(View::Receiver);
/// assert_eq!(schema["type"], "array");
/// assert_eq!(schema["items"]["maximum"], 255);
/// ```
#[must_use]
pub fn json_schema<T: HandoffSchema + ?Sized>(view: View) -> serde_json::Value {
    to_json_schema(&T::schema(), view)
}
