//! What an export in a dialect returns: the schema and its narrowings, or the problems that
//! refuse it.

use core::fmt;

use serde_json::Value;

use super::name::Dialect;

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
    /// An untagged unit variant, read from `null`: the model is not offered it.
    NullVariantDropped,
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
            NarrowingKind::NullVariantDropped => "NULL_VARIANT_DROPPED",
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
            NarrowingKind::NullVariantDropped => {
                "an untagged unit variant is read from null; the model is given the other variants only"
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
