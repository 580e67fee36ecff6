//! The rule catalogue: one stable id per kind of incompatibility.
//!
//! The same wire problem has a different name depending on who changed: "a reader requires
//! a field the writer never sends" is `FIELD_ADDED_REQUIRED` when the new reader added it
//! (backward), `FIELD_REMOVED` when the new writer dropped it (forward) and
//! `REQUIRED_FIELD_NOT_SENT` between an unrelated producer and consumer (check). The table in
//! the [module documentation](super) lists every rule with an example.

use serde::{Serialize, Serializer};

/// A kind of incompatibility, with a stable SCREAMING_SNAKE id (see [`Rule::id`]).
///
/// New rules join the catalogue as serde's behaviour is covered further: match on a rule
/// with a wildcard arm, or compare its [`id`](Rule::id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// The two schemas belong to contracts with different names.
    ContractNameChanged,
    /// The reader requires a field the writer never sends (producer/consumer check).
    RequiredFieldNotSent,
    /// A new reader requires a field old writers never send.
    FieldAddedRequired,
    /// New writers no longer send a field old readers require.
    FieldRemoved,
    /// The reader requires a field the writer sends only when present (producer/consumer check).
    RequiredFieldMayBeOmitted,
    /// A new reader requires a field old writers may omit.
    FieldBecameRequired,
    /// New writers may omit (`skip_serializing_if`) a field old readers require.
    FieldBecameOmittable,
    /// The writer may send `null` where the reader does not accept it (producer/consumer check).
    NullNotAccepted,
    /// A new reader rejects the `null` old writers may send.
    NullableBecameNonNullable,
    /// New writers may send `null` where old readers reject it.
    NonNullableBecameNullable,
    /// The reader expects another type than the writer sends.
    TypeChanged,
    /// The writer's integer range is not inside the reader's (producer/consumer check).
    IntOutOfRange,
    /// A new reader's integer range no longer holds what old writers send.
    IntNarrowed,
    /// New writers' integer range exceeds what old readers hold.
    IntWidened,
    /// The writer sends floats where the reader reads integers (producer/consumer check).
    FloatIntoInteger,
    /// A new reader reads integers where old writers send floats.
    FloatBecameInteger,
    /// New writers send floats where old readers read integers.
    IntegerBecameFloat,
    /// The writer sends strings where the reader reads one `char` (producer/consumer check).
    StringIntoChar,
    /// A new reader reads one `char` where old writers send strings.
    StringBecameChar,
    /// New writers send strings where old readers read one `char`.
    CharBecameString,
    /// The reader expects a string of a format the writer does not promise.
    StringFormatChanged,
    /// The writer sends a string-enum value the reader does not know (producer/consumer check).
    EnumValueUnknown,
    /// A new reader no longer knows a string-enum value old writers send.
    EnumValueRemoved,
    /// New writers send a string-enum value old readers do not know.
    EnumValueAdded,
    /// The writer sends an enum variant the reader does not know (producer/consumer check).
    EnumVariantUnknown,
    /// A new reader no longer knows an enum variant old writers send.
    EnumVariantRemoved,
    /// New writers send an enum variant old readers do not know.
    EnumVariantAdded,
    /// The enum's serde representation (external, internal, adjacent, untagged) differs.
    EnumReprChanged,
    /// The enum's tag or content key differs.
    EnumTagChanged,
    /// An untagged variant the writer sends fits none of the reader's variants.
    UntaggedVariantUnmatched,
    /// The writer may send a variant of an internally tagged enum that the reader never
    /// reads: the reader's variant holds an enum tagged under the same key, which serde
    /// takes for the outer enum first.
    VariantUnreadable,
    /// The reader declares `renamed_from` the writer's name but has no serde `alias` for it.
    FieldRenamedWithoutAlias,
    /// The writer renamed a field (declared `renamed_from`) the reader still requires under
    /// its old name.
    FieldRenamed,
    /// A field the reader requires is missing and the writer sends an unknown field of the
    /// same type: most likely an undeclared rename.
    FieldLikelyRenamed,
    /// The reader denies unknown fields and the writer sends one.
    UnknownFieldDenied,
    /// The writer may send two keys the reader reads into one field (a name and its
    /// alias): serde rejects the second as a duplicate field.
    FieldReadTwice,
    /// The writer marks a field `assumption` where the reader requires it `confirmed`.
    ProvenanceWeakened,
    /// The schemas nest deeper than the checker follows; the rest was not compared.
    SchemaTooDeep,
    /// A published major version of a contract (its snapshot file) disappeared.
    PublishedVersionRemoved,
}

impl Rule {
    /// Every rule, in catalogue order.
    pub const ALL: [Rule; 39] = [
        Rule::ContractNameChanged,
        Rule::RequiredFieldNotSent,
        Rule::FieldAddedRequired,
        Rule::FieldRemoved,
        Rule::RequiredFieldMayBeOmitted,
        Rule::FieldBecameRequired,
        Rule::FieldBecameOmittable,
        Rule::NullNotAccepted,
        Rule::NullableBecameNonNullable,
        Rule::NonNullableBecameNullable,
        Rule::TypeChanged,
        Rule::IntOutOfRange,
        Rule::IntNarrowed,
        Rule::IntWidened,
        Rule::FloatIntoInteger,
        Rule::FloatBecameInteger,
        Rule::IntegerBecameFloat,
        Rule::StringIntoChar,
        Rule::StringBecameChar,
        Rule::CharBecameString,
        Rule::StringFormatChanged,
        Rule::EnumValueUnknown,
        Rule::EnumValueRemoved,
        Rule::EnumValueAdded,
        Rule::EnumVariantUnknown,
        Rule::EnumVariantRemoved,
        Rule::EnumVariantAdded,
        Rule::EnumReprChanged,
        Rule::EnumTagChanged,
        Rule::UntaggedVariantUnmatched,
        Rule::VariantUnreadable,
        Rule::FieldRenamedWithoutAlias,
        Rule::FieldRenamed,
        Rule::FieldLikelyRenamed,
        Rule::UnknownFieldDenied,
        Rule::FieldReadTwice,
        Rule::ProvenanceWeakened,
        Rule::SchemaTooDeep,
        Rule::PublishedVersionRemoved,
    ];

    /// The stable id (`"FIELD_REMOVED"`), used in reports and in `allow(...)`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Rule::ContractNameChanged => "CONTRACT_NAME_CHANGED",
            Rule::RequiredFieldNotSent => "REQUIRED_FIELD_NOT_SENT",
            Rule::FieldAddedRequired => "FIELD_ADDED_REQUIRED",
            Rule::FieldRemoved => "FIELD_REMOVED",
            Rule::RequiredFieldMayBeOmitted => "REQUIRED_FIELD_MAY_BE_OMITTED",
            Rule::FieldBecameRequired => "FIELD_BECAME_REQUIRED",
            Rule::FieldBecameOmittable => "FIELD_BECAME_OMITTABLE",
            Rule::NullNotAccepted => "NULL_NOT_ACCEPTED",
            Rule::NullableBecameNonNullable => "NULLABLE_BECAME_NON_NULLABLE",
            Rule::NonNullableBecameNullable => "NON_NULLABLE_BECAME_NULLABLE",
            Rule::TypeChanged => "TYPE_CHANGED",
            Rule::IntOutOfRange => "INT_OUT_OF_RANGE",
            Rule::IntNarrowed => "INT_NARROWED",
            Rule::IntWidened => "INT_WIDENED",
            Rule::FloatIntoInteger => "FLOAT_INTO_INTEGER",
            Rule::FloatBecameInteger => "FLOAT_BECAME_INTEGER",
            Rule::IntegerBecameFloat => "INTEGER_BECAME_FLOAT",
            Rule::StringIntoChar => "STRING_INTO_CHAR",
            Rule::StringBecameChar => "STRING_BECAME_CHAR",
            Rule::CharBecameString => "CHAR_BECAME_STRING",
            Rule::StringFormatChanged => "STRING_FORMAT_CHANGED",
            Rule::EnumValueUnknown => "ENUM_VALUE_UNKNOWN",
            Rule::EnumValueRemoved => "ENUM_VALUE_REMOVED",
            Rule::EnumValueAdded => "ENUM_VALUE_ADDED",
            Rule::EnumVariantUnknown => "ENUM_VARIANT_UNKNOWN",
            Rule::EnumVariantRemoved => "ENUM_VARIANT_REMOVED",
            Rule::EnumVariantAdded => "ENUM_VARIANT_ADDED",
            Rule::EnumReprChanged => "ENUM_REPR_CHANGED",
            Rule::EnumTagChanged => "ENUM_TAG_CHANGED",
            Rule::UntaggedVariantUnmatched => "UNTAGGED_VARIANT_UNMATCHED",
            Rule::VariantUnreadable => "VARIANT_UNREADABLE",
            Rule::FieldRenamedWithoutAlias => "FIELD_RENAMED_WITHOUT_ALIAS",
            Rule::FieldRenamed => "FIELD_RENAMED",
            Rule::FieldLikelyRenamed => "FIELD_LIKELY_RENAMED",
            Rule::UnknownFieldDenied => "UNKNOWN_FIELD_DENIED",
            Rule::FieldReadTwice => "FIELD_READ_TWICE",
            Rule::ProvenanceWeakened => "PROVENANCE_WEAKENED",
            Rule::SchemaTooDeep => "SCHEMA_TOO_DEEP",
            Rule::PublishedVersionRemoved => "PUBLISHED_VERSION_REMOVED",
        }
    }

    /// The rule with this id, if any (ids are matched exactly).
    #[must_use]
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }
}

impl core::fmt::Display for Rule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.id())
    }
}

/// Serialized as its id.
impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// Which pairing a finding breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Direction {
    /// A producer's output read by a consumer ([`check`](super::check)).
    Check,
    /// Old writers read by new readers.
    Backward,
    /// New writers read by old readers.
    Forward,
}

impl Direction {
    /// The canonical spelling: `"check"`, `"backward"` or `"forward"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Check => "check",
            Direction::Backward => "backward",
            Direction::Forward => "forward",
        }
    }

    /// Who writes and who reads: `"writer -> reader"`, `"old writers -> new readers"`, ...
    #[must_use]
    pub const fn pairing(self) -> &'static str {
        match self {
            Direction::Check => "writer -> reader",
            Direction::Backward => "old writers -> new readers",
            Direction::Forward => "new writers -> old readers",
        }
    }

    /// Picks the rule that names a condition in this direction.
    pub(crate) const fn pick(self, check: Rule, backward: Rule, forward: Rule) -> Rule {
        match self {
            Direction::Check => check,
            Direction::Backward => backward,
            Direction::Forward => forward,
        }
    }

    /// The writers, as a plural sentence subject ("writers", "old writers").
    pub(crate) const fn writer(self) -> &'static str {
        match self {
            Direction::Check => "writers",
            Direction::Backward => "old writers",
            Direction::Forward => "new writers",
        }
    }

    /// The readers, as a plural sentence subject ("readers", "new readers").
    pub(crate) const fn reader(self) -> &'static str {
        match self {
            Direction::Check => "readers",
            Direction::Backward => "new readers",
            Direction::Forward => "old readers",
        }
    }
}

impl core::fmt::Display for Direction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as its canonical spelling.
impl Serialize for Direction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
