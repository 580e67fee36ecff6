//! JSON Schema (draft 2020-12) of a type, in its sender or receiver view.

use crate::traits::HandoffSchema;
use contract_schema::json_schema::dialect::{to_dialect, Dialect, DialectError, DialectExport};
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

/// The receiver view of `T` in a model provider's schema dialect (OpenAI strict structured
/// outputs, Anthropic strict tool use, Gemini's `responseJsonSchema`), with the places
/// where the model is asked for less than the receiver accepts; never a looser schema.
/// The rules of each dialect are in [`contract_schema::json_schema::dialect`].
///
/// ```
/// use contract_core::{json_schema_dialect, Dialect, HandoffSchema};
///
/// #[derive(serde::Deserialize, HandoffSchema)]
/// struct Answer {
///     text: String,
///     note: Option<String>,
/// }
///
/// let export = json_schema_dialect::<Answer>(Dialect::OpenAiStrict).unwrap();
/// assert_eq!(export.schema["required"], serde_json::json!(["text", "note"]));
/// assert_eq!(export.schema["additionalProperties"], false);
/// ```
///
/// # Errors
///
/// [`DialectError`] when the dialect cannot state what `T`'s receiver accepts without
/// accepting more (a root that is not an object where one is required, an integer range
/// without bounds, a map with free keys, …): every problem with its JSON pointer and rule.
pub fn json_schema_dialect<T: HandoffSchema + ?Sized>(
    dialect: Dialect,
) -> Result<DialectExport, DialectError> {
    to_dialect(&T::schema(), dialect)
}
