//! A contract's receiver view in the JSON Schema dialect a model provider accepts for
//! constrained output: OpenAI's strict structured outputs, Anthropic's strict tool use and
//! JSON outputs, Gemini's `responseJsonSchema`.
//!
//! A provider's dialect is a subset of JSON Schema with rules of its own: OpenAI requires
//! every property in `required` (optionality is a `null` alternative) and
//! `additionalProperties: false` on every object; Anthropic and OpenAI have no schema for the
//! values of a map with free keys; Anthropic states no numeric or length bounds and no
//! recursion; Gemini reads a fixed list of keywords. [`to_dialect`] writes the receiver view
//! in one dialect and **never a looser schema than the receiver accepts**: where the dialect
//! cannot say what the contract says, it either asks the model for less than the receiver
//! would take (a [`Narrowing`], with the JSON pointer where it applies) or refuses the
//! export ([`DialectError`], each [`DialectProblem`] with its pointer and its [`Rule`]).
//!
//! # What each dialect is told
//!
//! | contract | `openai-strict` | `anthropic` | `gemini` |
//! |---|---|---|---|
//! | root | an object (a struct), else `ROOT_NOT_OBJECT` | an object, else `ROOT_NOT_OBJECT` | any type |
//! | required field | in `required` | in `required` | in `required` |
//! | `Option` field | in `required`, its type or `null` | not required, its type (never `null`: absent reads as `None`) | not required, its type |
//! | `default` field (not an `Option`) | in `required`: narrowed, the model always writes it | not required | not required |
//! | field aliases, variant aliases, `#[serde(other)]` | the primary name only: narrowed | the same | the same |
//! | unknown keys | `additionalProperties: false` (the model writes no key the receiver ignores) | the same | the same |
//! | flattened map capturing unknown keys | closed: narrowed | closed: narrowed | `additionalProperties`: its values |
//! | map with free keys | `MAP_UNSTATABLE` | `MAP_UNSTATABLE` | `additionalProperties` (string keys) |
//! | integer kind | `minimum`/`maximum` | `INT_RANGE_UNSTATABLE` (a set of at most 256 values is an `enum`) | `minimum`/`maximum` |
//! | integer set with gaps | its last range: narrowed (an `enum` when at most 256 values) | an `enum` when at most 256 values | as OpenAI |
//! | string length (`char`, `len`) | `STRING_LENGTH_UNSTATABLE` | the same | the same |
//! | pattern | `pattern` | `pattern` | `PATTERN_UNSTATABLE` |
//! | format | `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid` | those and `uri` | `date-time`, `date`, `time` |
//! | any JSON value | a string: narrowed | the same | the same |
//! | set | `SET_UNSTATABLE` (no `uniqueItems`) | the same | the same |
//! | fixed-length array | `minItems` = `maxItems` | `ARRAY_LENGTH_UNSTATABLE` | as OpenAI |
//! | tuple | `TUPLE_UNSTATABLE` | the same | `prefixItems`, `minItems` = `maxItems` |
//! | enums | `anyOf` of the variants in serde's representation (never `oneOf`) | the same | the same |
//! | flattened enum | `FLATTENED_ENUM` (no `allOf`) | the same | the same |
//! | recursion | `$ref` cycles | `RECURSION` | a cycle only through a property that is not required, else `RECURSION` |
//! | limits | 5,000 properties, 10 levels of objects, 1,000 enum values, 120,000 characters of names and values, 15,000 characters of an enum of more than 250 values | 24 optional properties (the others required: narrowed), 16 unions | none documented |
//!
//! Named types sit under `$defs` and are referenced by a `$ref` alone (a field's
//! description is dropped beside one); the root type is written at the top, where a
//! reference to it is `#`. `const` is written as a one-value `enum` where the dialect has no
//! `const` (Gemini). The document carries no `$schema` and none of this crate's `x-handoff-*`
//! annotations.
//!
//! The rules follow the providers' documentation (each dialect's table in the source keeps
//! them in one place, and [`Dialect::docs`] lists its pages):
//! - OpenAI: <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>
//! - Anthropic: <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>,
//!   <https://docs.claude.com/en/docs/agents-and-tools/tool-use/strict-tool-use>
//! - Gemini: <https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support>,
//!   <https://ai.google.dev/api/generate-content#FIELDS.response_json_schema>
//!
//! Anthropic's limits of 24 optional properties and 16 unions are per request, across every
//! strict schema of the request: the export checks one schema against them.
//!
//! # Proven by the compatibility engine
//!
//! Each export, imported back as a producer's schema ([`import`](super::import) in the
//! sender view), is compatible with the contract's receiver view: `compat::check` finds
//! nothing. The test suite runs every catalogue and example contract through every dialect
//! and checks exactly that.
//!
//! ```
//! use contract_schema::json_schema::dialect::{to_dialect, Dialect};
//! use contract_schema::snapshot;
//!
//! let schema = snapshot::parse(concat!(
//!     "root Order\n\nstruct Order\n  rust \"app::Order\"\n  unknown ignore\n",
//!     "  field id: string\n    send \"id\" always\n    receive \"id\" required\n",
//!     "  field note: option<string>\n    send \"note\" if-present\n    receive \"note\" optional\n",
//! ))
//! .unwrap();
//! let export = to_dialect(&schema, Dialect::OpenAiStrict).unwrap();
//! assert_eq!(export.schema["required"], serde_json::json!(["id", "note"]));
//! assert_eq!(export.schema["properties"]["note"]["type"], serde_json::json!(["string", "null"]));
//! assert_eq!(export.schema["additionalProperties"], false);
//! assert!(export.warnings.is_empty());
//!
//! let gemini = to_dialect(&schema, Dialect::Gemini).unwrap();
//! assert_eq!(gemini.schema["required"], serde_json::json!(["id"]));
//! ```

use crate::model::Schema;

mod cycles;
mod name;
mod outcome;
mod rules;
mod writer;

pub use name::{Dialect, UnknownDialect};
pub use outcome::{DialectError, DialectExport, DialectProblem, Narrowing, NarrowingKind, Rule};

/// The receiver view of `schema` in `dialect`, or every place the dialect cannot say it.
///
/// # Errors
///
/// [`DialectError`] when the dialect cannot state something the contract says without
/// accepting more than the receiver does (see the module docs for each rule).
pub fn to_dialect(schema: &Schema, dialect: Dialect) -> Result<DialectExport, DialectError> {
    writer::write(schema, dialect.rules()).map_err(|problems| DialectError { dialect, problems })
}
