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

use core::fmt;
use core::str::FromStr;

use serde_json::Value;

use crate::model::Schema;

mod cycles;
mod rules;
mod writer;

use rules::Rules;

/// A model provider's schema dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// OpenAI structured outputs and function calling with `strict: true`.
    OpenAiStrict,
    /// Anthropic strict tool use (`input_schema`) and JSON outputs.
    Anthropic,
    /// Gemini's `responseJsonSchema`.
    Gemini,
}

impl Dialect {
    /// Every dialect, in the order of their names.
    pub const ALL: [Dialect; 3] = [Dialect::Anthropic, Dialect::Gemini, Dialect::OpenAiStrict];

    /// The dialect's name: `openai-strict`, `anthropic`, `gemini`.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The provider's documentation pages the dialect's rules follow.
    #[must_use]
    pub fn docs(self) -> &'static [&'static str] {
        self.rules().docs
    }

    fn rules(self) -> &'static Rules {
        match self {
            Dialect::OpenAiStrict => &rules::OPENAI_STRICT,
            Dialect::Anthropic => &rules::ANTHROPIC,
            Dialect::Gemini => &rules::GEMINI,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no dialect's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect;

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown dialect: expected openai-strict, anthropic or gemini")
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or(UnknownDialect)
    }
}

/// An export in a dialect: the schema, and where it asks the model for less than the
/// receiver accepts.
#[derive(Debug, Clone, PartialEq)]
pub struct DialectExport {
    /// The JSON Schema in the dialect's form.
    pub schema: Value,
    /// Every narrowing, in document order.
    pub warnings: Vec<Narrowing>,
}

/// A place where the export asks the model for less than the receiver accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Narrowing {
    /// The JSON pointer (RFC 6901) of the schema narrowed, in the export.
    pub pointer: String,
    /// What was narrowed.
    pub kind: NarrowingKind,
}

/// What a [`Narrowing`] leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NarrowingKind {
    /// A field or variant read under other names too: the model is given its name only.
    AliasesDropped,
    /// A `#[serde(other)]` catch-all: the model is given the known variants only.
    CatchAllDropped,
    /// A field the receiver may do without (a `default`): the model always writes it, since
    /// the dialect requires every property and only `null` says "none", which the field
    /// does not accept.
    AbsenceDropped,
    /// Unknown keys a flattened map would capture: the object is closed.
    CapturedKeysDropped,
    /// Any JSON value: the model is asked for a string.
    AnyAsString,
    /// An integer set with gaps the dialect cannot state: its last range (the positive
    /// values of a set without zero).
    IntGapsDropped,
    /// An optional field past the dialect's limit of optional properties: required.
    OptionalLimit,
}

impl NarrowingKind {
    /// The stable id of the narrowing.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            NarrowingKind::AliasesDropped => "ALIASES_DROPPED",
            NarrowingKind::CatchAllDropped => "CATCH_ALL_DROPPED",
            NarrowingKind::AbsenceDropped => "ABSENCE_DROPPED",
            NarrowingKind::CapturedKeysDropped => "CAPTURED_KEYS_DROPPED",
            NarrowingKind::AnyAsString => "ANY_AS_STRING",
            NarrowingKind::IntGapsDropped => "INT_GAPS_DROPPED",
            NarrowingKind::OptionalLimit => "OPTIONAL_LIMIT",
        }
    }

    fn why(self) -> &'static str {
        match self {
            NarrowingKind::AliasesDropped => {
                "read under other names too; the model is given the first name only"
            }
            NarrowingKind::CatchAllDropped => {
                "the catch-all variant reads any other name; the model is given the known names only"
            }
            NarrowingKind::AbsenceDropped => {
                "the receiver may do without this field, but the dialect requires every property and it does not accept null; the model always writes it"
            }
            NarrowingKind::CapturedKeysDropped => {
                "the receiver captures unknown keys, which the dialect cannot type; the object is closed"
            }
            NarrowingKind::AnyAsString => {
                "any JSON value is accepted, which the dialect cannot state; the model is asked for a string"
            }
            NarrowingKind::IntGapsDropped => {
                "an integer set with gaps the dialect cannot state; the model is given its last range"
            }
            NarrowingKind::OptionalLimit => {
                "past the dialect's limit of optional properties; the model always writes it"
            }
        }
    }
}

impl fmt::Display for Narrowing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{}: {}: {}",
            self.pointer,
            self.kind.id(),
            self.kind.why()
        )
    }
}

/// Why a contract has no export in a dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialectError {
    /// The dialect.
    pub dialect: Dialect,
    /// Every place the dialect cannot say what the contract says, in document order; never
    /// empty.
    pub problems: Vec<DialectProblem>,
}

/// One place a dialect cannot say what the contract says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialectProblem {
    /// The JSON pointer (RFC 6901) of the schema in the export, `""` for its root.
    pub pointer: String,
    /// The dialect's rule.
    pub rule: Rule,
}

/// A dialect's rule a contract does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// The root must be an object.
    RootNotObject,
    /// No `minimum`/`maximum`: an integer's range cannot be stated.
    IntRangeUnstatable,
    /// No `minLength`/`maxLength`: a `char` or a string's length cannot be stated.
    StringLengthUnstatable,
    /// No `pattern`.
    PatternUnstatable,
    /// A string format the dialect does not check.
    FormatUnsupported,
    /// No schema for the values of free keys, or keys the dialect cannot state.
    MapUnstatable,
    /// No `uniqueItems`.
    SetUnstatable,
    /// No array length beyond `minItems` 0 or 1.
    ArrayLengthUnstatable,
    /// No `prefixItems`.
    TupleUnstatable,
    /// A recursive type where the dialect refuses one.
    Recursion,
    /// A flattened enum, which needs `allOf` beside the object's properties.
    FlattenedEnum,
    /// An internally tagged variant whose content has no keys to put beside the tag.
    InternalNewtype,
    /// A required value that the receiver never reads.
    NoValue,
    /// More object properties than the dialect takes.
    TooManyProperties,
    /// More levels of nested objects than the dialect takes.
    TooDeep,
    /// More enum values than the dialect takes.
    TooManyEnumValues,
    /// More characters of names and values than the dialect takes.
    TooMuchText,
    /// More unions (`anyOf`, type arrays) than the dialect takes.
    TooManyUnions,
}

impl Rule {
    /// The stable id of the rule.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Rule::RootNotObject => "ROOT_NOT_OBJECT",
            Rule::IntRangeUnstatable => "INT_RANGE_UNSTATABLE",
            Rule::StringLengthUnstatable => "STRING_LENGTH_UNSTATABLE",
            Rule::PatternUnstatable => "PATTERN_UNSTATABLE",
            Rule::FormatUnsupported => "FORMAT_UNSUPPORTED",
            Rule::MapUnstatable => "MAP_UNSTATABLE",
            Rule::SetUnstatable => "SET_UNSTATABLE",
            Rule::ArrayLengthUnstatable => "ARRAY_LENGTH_UNSTATABLE",
            Rule::TupleUnstatable => "TUPLE_UNSTATABLE",
            Rule::Recursion => "RECURSION",
            Rule::FlattenedEnum => "FLATTENED_ENUM",
            Rule::InternalNewtype => "INTERNAL_NEWTYPE",
            Rule::NoValue => "NO_VALUE",
            Rule::TooManyProperties => "TOO_MANY_PROPERTIES",
            Rule::TooDeep => "TOO_DEEP",
            Rule::TooManyEnumValues => "TOO_MANY_ENUM_VALUES",
            Rule::TooMuchText => "TOO_MUCH_TEXT",
            Rule::TooManyUnions => "TOO_MANY_UNIONS",
        }
    }

    fn why(self) -> &'static str {
        match self {
            Rule::RootNotObject => "the root must be an object (a struct), not an enum or another type",
            Rule::IntRangeUnstatable => {
                "the dialect has no minimum or maximum, so the integer's range cannot be stated (a set of at most 256 values can)"
            }
            Rule::StringLengthUnstatable => {
                "the dialect has no minLength or maxLength, so a char or a string's length cannot be stated"
            }
            Rule::PatternUnstatable => "the dialect has no pattern",
            Rule::FormatUnsupported => "the dialect does not check this string format",
            Rule::MapUnstatable => {
                "the dialect cannot type the values of free keys (or these keys); use a list of entries"
            }
            Rule::SetUnstatable => "the dialect has no uniqueItems, so a set cannot be stated",
            Rule::ArrayLengthUnstatable => "the dialect cannot state a fixed array length",
            Rule::TupleUnstatable => "the dialect has no prefixItems, so a tuple cannot be stated",
            Rule::Recursion => {
                "the type refers to itself here, which the dialect refuses (Gemini: only through a property that is not required)"
            }
            Rule::FlattenedEnum => "a flattened enum needs allOf beside the properties, which the dialect lacks",
            Rule::InternalNewtype => {
                "an internally tagged variant's content must be a struct, whose fields sit beside the tag"
            }
            Rule::NoValue => "the receiver reads no value here",
            Rule::TooManyProperties => "more object properties than the dialect takes",
            Rule::TooDeep => "more levels of nested objects than the dialect takes",
            Rule::TooManyEnumValues => "more enum values than the dialect takes",
            Rule::TooMuchText => "more characters of names and values than the dialect takes",
            Rule::TooManyUnions => "more unions (anyOf, nullable types) than the dialect takes",
        }
    }
}

impl fmt::Display for DialectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{}: {}: {}",
            self.pointer,
            self.rule.id(),
            self.rule.why()
        )
    }
}

impl fmt::Display for DialectError {
    /// One line: the dialect, the first problem's pointer and rule, and how many more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.dialect)?;
        match self.problems.split_first() {
            Some((first, rest)) => {
                write!(f, "{first}")?;
                if !rest.is_empty() {
                    write!(f, " (and {} more)", rest.len())?;
                }
                Ok(())
            }
            None => f.write_str("no export"),
        }
    }
}

impl std::error::Error for DialectError {}

/// The receiver view of `schema` in `dialect`, or every place the dialect cannot say it.
///
/// # Errors
///
/// [`DialectError`] when the dialect cannot state something the contract says without
/// accepting more than the receiver does (see the module docs for each rule).
pub fn to_dialect(schema: &Schema, dialect: Dialect) -> Result<DialectExport, DialectError> {
    writer::write(schema, dialect.rules()).map_err(|problems| DialectError { dialect, problems })
}
