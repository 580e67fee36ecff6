//! The rule catalogue: one stable id per kind of incompatibility.
//!
//! The same wire problem has a different name depending on who changed: "a reader requires
//! a field the writer never sends" is `FIELD_ADDED_REQUIRED` when the new reader added it
//! (backward), `FIELD_REMOVED` when the new writer dropped it (forward) and
//! `REQUIRED_FIELD_NOT_SENT` between an unrelated producer and consumer (check). The table in
//! the [`compat` module documentation](crate::compat) lists every rule with an example.

use serde::{Serialize, Serializer};

/// Declares the catalogue once: per rule its doc, its stable id and what it concerns.
/// `Rule`, [`Rule::ALL`], [`Rule::id`] and [`Rule::concerns`] all come from the one table
/// below, so a rule cannot be added to one and forgotten in another.
macro_rules! catalogue {
    ($($(#[doc = $doc:literal])* $rule:ident = $id:literal, $concern:ident;)*) => {
        /// A kind of incompatibility, with a stable SCREAMING_SNAKE id (see [`Rule::id`]).
        ///
        /// New rules join the catalogue as serde's behaviour is covered further: match on a rule
        /// with a wildcard arm, or compare its [`id`](Rule::id).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $($(#[doc = $doc])* $rule,)*
        }

        impl Rule {
            /// Every rule, in catalogue order.
            pub const ALL: [Rule; [$($id),*].len()] = [$(Rule::$rule),*];

            /// The stable id (`"FIELD_REMOVED"`), used in reports and in `allow(...)`.
            #[must_use]
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$rule => $id,)*
                }
            }

            /// What the rule is about: a field, an enum variant, a type, or the contract
            /// as a whole.
            #[must_use]
            pub const fn concerns(self) -> Concern {
                match self {
                    $(Rule::$rule => Concern::$concern,)*
                }
            }
        }
    };
}

/// What a [`Rule`] is about, which says where a diagnostic about it belongs (the derive
/// points a compile-time error at the field, at its type, or at the contract attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Concern {
    /// A field: whether it is sent or required, its name, its provenance.
    Field,
    /// A variant of an enum (string-enum values included), inside a field's type.
    Variant,
    /// The type of a value: its kind, range, format, nullability or representation.
    Type,
    /// The contract as a whole: its name or its published versions.
    Container,
}

catalogue! {
    /// The two schemas belong to contracts with different names.
    ContractNameChanged = "CONTRACT_NAME_CHANGED", Container;
    /// The reader requires a field the writer never sends (producer/consumer check).
    RequiredFieldNotSent = "REQUIRED_FIELD_NOT_SENT", Field;
    /// A new reader requires a field old writers never send.
    FieldAddedRequired = "FIELD_ADDED_REQUIRED", Field;
    /// New writers no longer send a field old readers require.
    FieldRemoved = "FIELD_REMOVED", Field;
    /// The reader requires a field the writer sends only when present (producer/consumer check).
    RequiredFieldMayBeOmitted = "REQUIRED_FIELD_MAY_BE_OMITTED", Field;
    /// A new reader requires a field old writers may omit.
    FieldBecameRequired = "FIELD_BECAME_REQUIRED", Field;
    /// New writers may omit (`skip_serializing_if`) a field old readers require.
    FieldBecameOmittable = "FIELD_BECAME_OMITTABLE", Field;
    /// The writer may send `null` where the reader does not accept it (producer/consumer check).
    NullNotAccepted = "NULL_NOT_ACCEPTED", Type;
    /// A new reader rejects the `null` old writers may send.
    NullableBecameNonNullable = "NULLABLE_BECAME_NON_NULLABLE", Type;
    /// New writers may send `null` where old readers reject it.
    NonNullableBecameNullable = "NON_NULLABLE_BECAME_NULLABLE", Type;
    /// The reader expects another type than the writer sends.
    TypeChanged = "TYPE_CHANGED", Type;
    /// The writer's integer range is not inside the reader's (producer/consumer check).
    IntOutOfRange = "INT_OUT_OF_RANGE", Type;
    /// A new reader's integer range no longer holds what old writers send.
    IntNarrowed = "INT_NARROWED", Type;
    /// New writers' integer range exceeds what old readers hold.
    IntWidened = "INT_WIDENED", Type;
    /// The writer sends floats where the reader reads integers (producer/consumer check).
    FloatIntoInteger = "FLOAT_INTO_INTEGER", Type;
    /// A new reader reads integers where old writers send floats.
    FloatBecameInteger = "FLOAT_BECAME_INTEGER", Type;
    /// New writers send floats where old readers read integers.
    IntegerBecameFloat = "INTEGER_BECAME_FLOAT", Type;
    /// The writer sends strings where the reader reads one `char` (producer/consumer check).
    StringIntoChar = "STRING_INTO_CHAR", Type;
    /// A new reader reads one `char` where old writers send strings.
    StringBecameChar = "STRING_BECAME_CHAR", Type;
    /// New writers send strings where old readers read one `char`.
    CharBecameString = "CHAR_BECAME_STRING", Type;
    /// The reader expects a string of a format the writer does not promise.
    StringFormatChanged = "STRING_FORMAT_CHANGED", Type;
    /// The writer may send a value of the reader's integer kind or string format that the
    /// reader's constraint (a set of integers; a length or a pattern) excludes
    /// (producer/consumer check).
    ValueOutsideConstraint = "VALUE_OUTSIDE_CONSTRAINT", Type;
    /// A new reader's constraint excludes values old writers may send.
    ConstraintNarrowed = "CONSTRAINT_NARROWED", Type;
    /// New writers may send values old readers' constraint excludes.
    ConstraintWidened = "CONSTRAINT_WIDENED", Type;
    /// The writer sends a string-enum value the reader does not know (producer/consumer check).
    EnumValueUnknown = "ENUM_VALUE_UNKNOWN", Variant;
    /// A new reader no longer knows a string-enum value old writers send.
    EnumValueRemoved = "ENUM_VALUE_REMOVED", Variant;
    /// New writers send a string-enum value old readers do not know.
    EnumValueAdded = "ENUM_VALUE_ADDED", Variant;
    /// The writer sends an enum variant the reader does not know (producer/consumer check).
    EnumVariantUnknown = "ENUM_VARIANT_UNKNOWN", Variant;
    /// A new reader no longer knows an enum variant old writers send.
    EnumVariantRemoved = "ENUM_VARIANT_REMOVED", Variant;
    /// New writers send an enum variant old readers do not know.
    EnumVariantAdded = "ENUM_VARIANT_ADDED", Variant;
    /// The enum's serde representation (external, internal, adjacent, untagged) differs.
    EnumReprChanged = "ENUM_REPR_CHANGED", Type;
    /// The enum's tag or content key differs.
    EnumTagChanged = "ENUM_TAG_CHANGED", Type;
    /// An untagged variant the writer sends fits none of the reader's variants.
    UntaggedVariantUnmatched = "UNTAGGED_VARIANT_UNMATCHED", Variant;
    /// A variant of a tagged enum is `#[serde(untagged)]` on one side and tagged on the
    /// other: one side writes its content alone, the other reads it only under its tag (or
    /// only without one).
    VariantTaggingChanged = "VARIANT_TAGGING_CHANGED", Variant;
    /// The writer may send a variant of an internally tagged enum that the reader never
    /// reads: the reader's variant holds an enum tagged under the same key, which serde
    /// takes for the outer enum first.
    VariantUnreadable = "VARIANT_UNREADABLE", Variant;
    /// The reader declares `renamed_from` the writer's name but has no serde `alias` for it.
    FieldRenamedWithoutAlias = "FIELD_RENAMED_WITHOUT_ALIAS", Field;
    /// The writer renamed a field (declared `renamed_from`) the reader still requires under
    /// its old name.
    FieldRenamed = "FIELD_RENAMED", Field;
    /// A field the reader requires is missing and the writer sends an unknown field of a
    /// type the reader's field reads (both ways under a full mode): most likely an
    /// undeclared rename.
    FieldLikelyRenamed = "FIELD_LIKELY_RENAMED", Field;
    /// The reader denies unknown fields and the writer sends one.
    UnknownFieldDenied = "UNKNOWN_FIELD_DENIED", Field;
    /// The writer may send two keys the reader reads into one field (a name and its
    /// alias): serde rejects the second as a duplicate field.
    FieldReadTwice = "FIELD_READ_TWICE", Field;
    /// The writer marks a field `assumption` where the reader requires it `confirmed`.
    ProvenanceWeakened = "PROVENANCE_WEAKENED", Field;
    /// The schemas nest deeper than the checker follows; the rest was not compared.
    SchemaTooDeep = "SCHEMA_TOO_DEEP", Type;
    /// A published major version of a contract (its snapshot file) disappeared.
    PublishedVersionRemoved = "PUBLISHED_VERSION_REMOVED", Container;
}

impl Rule {
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
