//! What can be wrong with a payload: [`Problem`], its [`ProblemKind`], and the [`Rejection`]
//! that lists every problem of one payload.
//!
//! No message here carries a value of the payload. A problem names structure only: the JSON
//! pointer of where it is (with `*` for the key of a map, which is data), the wire names of
//! declared or unknown fields, the expected type in the schema's canonical text, the kind of
//! JSON value found, and byte offsets.

use core::fmt;
use std::borrow::Cow;

use serde::Serialize;

use super::presence::{Presence, Side};

/// The kind of JSON value found where another was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number without fraction or exponent.
    Integer,
    /// A number with a fraction or an exponent.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The word used in messages.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "a boolean",
            JsonKind::Integer => "an integer",
            JsonKind::Number => "a number with a fraction or exponent",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// One problem of a payload, located by a JSON pointer into the instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Where: an RFC 6901 JSON pointer into the payload (`/artifacts/4999/version`), `""`
    /// for the whole document; a map key, which is data, is written `*`.
    pub pointer: String,
    /// What.
    #[serde(flatten)]
    pub kind: ProblemKind,
}

/// What is wrong. Never holds a value of the payload.
///
/// Its texts are `Cow<'static, str>`: a name or a type of the contract is borrowed from the
/// contract's schema rather than copied into every problem; a name that arrived in the
/// payload (an unknown field, a duplicate key) is owned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProblemKind {
    /// Not JSON: what was expected at a byte offset.
    Malformed {
        /// The byte offset of the first bad byte.
        offset: usize,
        /// What the grammar expected there.
        expected: &'static str,
    },
    /// No value at all: empty input or whitespace only.
    Empty,
    /// A UTF-8 byte order mark before the document, which JSON does not allow.
    ByteOrderMark,
    /// Bytes that are not UTF-8 (even inside a value the type ignores).
    InvalidUtf8 {
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
    /// A `\u` escape of half a surrogate pair (even inside a value the type ignores).
    LoneSurrogate {
        /// The byte offset of the escape.
        offset: usize,
    },
    /// More than whitespace after the document.
    TrailingData {
        /// The byte offset where it starts.
        offset: usize,
    },
    /// The payload is larger than the limit.
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// Arrays and objects nest deeper than the limit.
    TooDeep {
        /// The byte offset of the container that is one too deep.
        offset: usize,
        /// The limit.
        limit: usize,
    },
    /// A string is longer than the limit.
    StringTooLong {
        /// The byte offset of the string.
        offset: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// An object has more keys than the limit.
    TooManyKeys {
        /// The byte offset of the first key past the limit.
        offset: usize,
        /// The limit.
        limit: usize,
    },
    /// A field the contract requires is absent.
    MissingField {
        /// Its wire name.
        field: Cow<'static, str>,
    },
    /// A value of the wrong JSON kind.
    WrongType {
        /// The type the contract expects, in the schema's canonical text.
        expected: Cow<'static, str>,
        /// What arrived.
        found: JsonKind,
    },
    /// `null` where the contract's type has no `null`.
    NullNotAllowed {
        /// The type the contract expects.
        expected: Cow<'static, str>,
    },
    /// A number outside the range of the field's type, or not finite.
    OutOfRange {
        /// The type the contract expects.
        expected: Cow<'static, str>,
    },
    /// A string of the wrong length for a `char`.
    NotOneCharacter,
    /// A string whose length in characters is outside its constraint's.
    WrongStringLength {
        /// The type the contract expects, with its length.
        expected: Cow<'static, str>,
    },
    /// An array of the wrong length.
    WrongLength {
        /// The length the type has.
        expected: usize,
        /// The length that arrived.
        found: usize,
    },
    /// The same item twice in a set.
    DuplicateItem,
    /// A field the contract does not have, where the object admits no other key: in the
    /// receiver view a struct with `deny_unknown_fields`, in the sender view any struct (a
    /// type writes its own fields only, and the entries of a map it flattens).
    UnknownField {
        /// The name that arrived (a name is structure, not a value).
        field: Cow<'static, str>,
    },
    /// The same key twice in one object. The key is named when it is a field name; a map's
    /// key is data and is not shown.
    DuplicateKey {
        /// The field name, for a struct.
        key: Option<Cow<'static, str>>,
    },
    /// One field under two of its names (its name and an alias).
    DuplicateField {
        /// The field's wire name.
        field: Cow<'static, str>,
    },
    /// A tag or string-enum value outside the set (the value is not shown; the tags the
    /// contract knows are, since they are structure).
    UnknownVariant {
        /// The type it should name a variant of.
        expected: Cow<'static, str>,
        /// The tags the contract's view knows, in declaration order (the receiver's aliases
        /// included), at most the first 12.
        known: Vec<Cow<'static, str>>,
        /// How many tags the view knows in all.
        known_count: usize,
    },
    /// A map key that its key type does not read (the key is not shown).
    InvalidKey {
        /// The key type.
        expected: Cow<'static, str>,
    },
    /// An externally tagged enum's object with other than exactly one key.
    NotOneKey {
        /// The enum.
        expected: Cow<'static, str>,
    },
    /// A value that fits none of an untagged enum's variants (nor, for a tagged enum with
    /// untagged variants, its tagged form).
    NoVariantMatches {
        /// The enum.
        expected: Cow<'static, str>,
    },
    /// The type's own `Deserialize` refused the payload where the description saw no
    /// problem (a string format such as a UUID or a date, or a hand-written impl); serde's
    /// message is not repeated, since it quotes values.
    Refused {
        /// The byte offset serde stopped at.
        offset: usize,
        /// serde_json's category: `syntax`, `data`, `eof` or `io`.
        category: &'static str,
    },
    /// The type's own `Serialize` failed (a map key that is not a string, a custom error).
    SerializeFailed,
    /// An envelope names another contract than the one it is read as (`contract` for the
    /// payload, `schemaVersion` for the envelope): the payload is not read. Both are contract
    /// ids, named: the one found only because it reads as one (`name/vN`).
    OtherContract {
        /// The contract the reader reads.
        expected: Cow<'static, str>,
        /// The contract the envelope names.
        found: Cow<'static, str>,
    },
    /// An envelope names another major version of the contract it is read as, one the reader
    /// cannot read: no published snapshot of that version is embedded in the reader's
    /// contract, or that snapshot, as a writer, breaks the reader (`compat::check`). The
    /// payload is not read.
    OtherVersion {
        /// The contract the reader reads.
        expected: Cow<'static, str>,
        /// The version the envelope names.
        found: Cow<'static, str>,
        /// The first breaking rule of the check, when a snapshot of that version was checked.
        rule: Option<&'static str>,
        /// Where that rule breaks, in wire names (empty for the root).
        path: Option<Cow<'static, str>>,
    },
    /// A contract id in an envelope that does not read as one (`name/vN`): it is not
    /// repeated, since it is no contract's. The payload is not read.
    UnreadableVersion {
        /// The contract the reader reads.
        expected: Cow<'static, str>,
    },
    /// An empty array where the protocol requires at least one element (an A2A Message's or
    /// Artifact's `parts`).
    EmptyArray,
    /// An A2A Message or Artifact without exactly one `data` Part, the one a contract's
    /// payload travels in: the payload was not read.
    NotOneDataPart {
        /// How many Parts have a `data` member.
        found: usize,
    },
    /// A `data` Part whose `mediaType` is not the one a contract's payload is written with.
    WrongMediaType {
        /// The media type expected (`application/json`).
        expected: &'static str,
    },
    /// An A2A Message or Artifact whose `extensions[]` lists no URI of the contract it is
    /// read as: the payload was not read.
    NoContractExtension {
        /// The URI the reader looks for.
        expected: Cow<'static, str>,
    },
    /// An A2A Message or Artifact that lists another major version of the contract it is
    /// read as: an A2A extension's URI carries its version, and a breaking change has no
    /// fallback. Both are contract ids. The payload was not read.
    OtherMajor {
        /// The contract the reader reads.
        expected: Cow<'static, str>,
        /// The contract the extension names.
        found: Cow<'static, str>,
    },
    /// A value written as an earlier version of a protocol writes it (A2A 0.3's
    /// `role: "agent"`, where A2A 1.0 writes `ROLE_AGENT`).
    EarlierProtocol {
        /// The protocol version the value is written in (`A2A 0.3`).
        found: &'static str,
        /// What the version read expects, in its words (`ROLE_AGENT (A2A 1.0)`).
        expected: &'static str,
    },
    /// A member the protocol around the payload requires is absent (an A2A Message's
    /// `messageId`): a fault of the protocol's object, not of the payload's contract.
    MissingMember {
        /// The member's name, as the protocol's JSON writes it (`messageId`).
        member: &'static str,
        /// The protocol and its version (`A2A 1.0`).
        protocol: &'static str,
    },
}

/// What kind of fault a problem is, for a caller that answers each differently (an HTTP
/// server: `400`, `413`, `422`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemClass {
    /// The bytes are not one JSON document, whatever the contract.
    NotJson,
    /// The payload breaks one of the [`Limits`](crate::Limits).
    Limit,
    /// A JSON document that the contract (or the type's own serde code) does not accept.
    Contract,
    /// A fault of the protocol's object around the payload (an A2A Message or Artifact: a
    /// member it requires, no extension naming the contract, not one `data` Part, an A2A 0.3
    /// value): the payload's contract is not what is wrong.
    Protocol,
}

impl ProblemKind {
    /// The byte offset a problem of the bytes or the limits names, to be moved when the
    /// bytes it was found in are not the ones that arrived.
    pub(crate) fn offset_mut(&mut self) -> Option<&mut usize> {
        match self {
            ProblemKind::Malformed { offset, .. }
            | ProblemKind::InvalidUtf8 { offset }
            | ProblemKind::LoneSurrogate { offset }
            | ProblemKind::TrailingData { offset }
            | ProblemKind::TooDeep { offset, .. }
            | ProblemKind::StringTooLong { offset, .. }
            | ProblemKind::TooManyKeys { offset, .. }
            | ProblemKind::Refused { offset, .. } => Some(offset),
            // Every kind is listed, so that a new kind with an offset is moved too.
            ProblemKind::Empty
            | ProblemKind::ByteOrderMark
            | ProblemKind::TooLarge { .. }
            | ProblemKind::MissingField { .. }
            | ProblemKind::WrongType { .. }
            | ProblemKind::NullNotAllowed { .. }
            | ProblemKind::OutOfRange { .. }
            | ProblemKind::NotOneCharacter
            | ProblemKind::WrongStringLength { .. }
            | ProblemKind::WrongLength { .. }
            | ProblemKind::DuplicateItem
            | ProblemKind::UnknownField { .. }
            | ProblemKind::DuplicateKey { .. }
            | ProblemKind::DuplicateField { .. }
            | ProblemKind::UnknownVariant { .. }
            | ProblemKind::InvalidKey { .. }
            | ProblemKind::NotOneKey { .. }
            | ProblemKind::NoVariantMatches { .. }
            | ProblemKind::SerializeFailed
            | ProblemKind::OtherContract { .. }
            | ProblemKind::OtherVersion { .. }
            | ProblemKind::UnreadableVersion { .. }
            | ProblemKind::EmptyArray
            | ProblemKind::NotOneDataPart { .. }
            | ProblemKind::WrongMediaType { .. }
            | ProblemKind::NoContractExtension { .. }
            | ProblemKind::OtherMajor { .. }
            | ProblemKind::EarlierProtocol { .. }
            | ProblemKind::MissingMember { .. } => None,
        }
    }

    /// Which [`ProblemClass`] this problem belongs to. Every kind is classified here, so a
    /// new kind is classified where it is added.
    #[must_use]
    pub fn class(&self) -> ProblemClass {
        match self {
            ProblemKind::Malformed { .. }
            | ProblemKind::Empty
            | ProblemKind::ByteOrderMark
            | ProblemKind::InvalidUtf8 { .. }
            | ProblemKind::LoneSurrogate { .. }
            | ProblemKind::TrailingData { .. } => ProblemClass::NotJson,
            ProblemKind::TooLarge { .. }
            | ProblemKind::TooDeep { .. }
            | ProblemKind::StringTooLong { .. }
            | ProblemKind::TooManyKeys { .. } => ProblemClass::Limit,
            ProblemKind::MissingField { .. }
            | ProblemKind::WrongType { .. }
            | ProblemKind::NullNotAllowed { .. }
            | ProblemKind::OutOfRange { .. }
            | ProblemKind::NotOneCharacter
            | ProblemKind::WrongStringLength { .. }
            | ProblemKind::WrongLength { .. }
            | ProblemKind::DuplicateItem
            | ProblemKind::UnknownField { .. }
            | ProblemKind::DuplicateKey { .. }
            | ProblemKind::DuplicateField { .. }
            | ProblemKind::UnknownVariant { .. }
            | ProblemKind::InvalidKey { .. }
            | ProblemKind::NotOneKey { .. }
            | ProblemKind::NoVariantMatches { .. }
            | ProblemKind::Refused { .. }
            | ProblemKind::SerializeFailed
            | ProblemKind::OtherContract { .. }
            | ProblemKind::OtherVersion { .. }
            | ProblemKind::UnreadableVersion { .. } => ProblemClass::Contract,
            ProblemKind::EmptyArray
            | ProblemKind::NotOneDataPart { .. }
            | ProblemKind::WrongMediaType { .. }
            | ProblemKind::NoContractExtension { .. }
            | ProblemKind::OtherMajor { .. }
            | ProblemKind::EarlierProtocol { .. }
            | ProblemKind::MissingMember { .. } => ProblemClass::Protocol,
        }
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::Malformed { offset, expected } => {
                write!(f, "malformed JSON at byte {offset}: expected {expected}")
            }
            ProblemKind::Empty => f.write_str("empty input: expected a JSON value"),
            ProblemKind::ByteOrderMark => {
                f.write_str("a byte order mark before the document: JSON has none")
            }
            ProblemKind::InvalidUtf8 { offset } => write!(f, "invalid UTF-8 at byte {offset}"),
            ProblemKind::LoneSurrogate { offset } => {
                write!(f, "a lone surrogate in a \\u escape at byte {offset}")
            }
            ProblemKind::TrailingData { offset } => {
                write!(f, "trailing data at byte {offset} after the document")
            }
            ProblemKind::TooLarge { limit } => {
                write!(
                    f,
                    "too large: the payload exceeds the limit of {limit} bytes"
                )
            }
            ProblemKind::TooDeep { offset, limit } => write!(
                f,
                "too deep: arrays and objects nest deeper than {limit} at byte {offset}"
            ),
            ProblemKind::StringTooLong { offset, limit } => write!(
                f,
                "string too long at byte {offset}: the limit is {limit} bytes"
            ),
            ProblemKind::TooManyKeys { offset, limit } => write!(
                f,
                "too many keys at byte {offset}: an object may have {limit}"
            ),
            ProblemKind::MissingField { field } => {
                write!(f, "missing field `{field}`, which the contract requires")
            }
            ProblemKind::WrongType { expected, found } => {
                write!(
                    f,
                    "wrong type: expected {expected}, found {}",
                    found.as_str()
                )
            }
            ProblemKind::NullNotAllowed { expected } => {
                write!(f, "null is not allowed: expected {expected}")
            }
            ProblemKind::OutOfRange { expected } => {
                write!(f, "number out of range: expected {expected}")
            }
            ProblemKind::WrongStringLength { expected } => {
                write!(f, "wrong string length: expected {expected}")
            }
            ProblemKind::NotOneCharacter => {
                f.write_str("wrong length: expected a string of exactly one character")
            }
            ProblemKind::WrongLength { expected, found } => write!(
                f,
                "wrong length: expected an array of {expected} items, found {found}"
            ),
            ProblemKind::DuplicateItem => f.write_str("duplicate item in a set"),
            ProblemKind::UnknownField { field } => {
                write!(
                    f,
                    "unknown field `{field}`: the contract has no such field here, and this object admits no other key"
                )
            }
            ProblemKind::DuplicateKey { key: Some(key) } => {
                write!(f, "duplicate key `{key}`")
            }
            ProblemKind::DuplicateKey { key: None } => f.write_str("duplicate key"),
            ProblemKind::DuplicateField { field } => write!(
                f,
                "duplicate field `{field}`: it arrived under two of its names"
            ),
            ProblemKind::UnknownVariant {
                expected,
                known,
                known_count,
            } => {
                if known.is_empty() {
                    return write!(f, "unknown variant: {expected} reads no tag");
                }
                f.write_str("unknown variant: expected one of ")?;
                for (i, tag) in known.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(tag)?;
                }
                if *known_count > known.len() {
                    write!(
                        f,
                        ", and {} more of {expected} ({known_count} in all)",
                        known_count - known.len()
                    )?;
                }
                Ok(())
            }
            ProblemKind::InvalidKey { expected } => {
                write!(f, "invalid map key: expected a key of type {expected}")
            }
            ProblemKind::NotOneKey { expected } => write!(
                f,
                "expected an object with exactly one key, the variant of {expected}"
            ),
            ProblemKind::NoVariantMatches { expected } => {
                write!(f, "the value matches no variant of {expected}")
            }
            ProblemKind::Refused { offset, category } => write!(
                f,
                "refused by the type's Deserialize ({category} error at byte {offset})"
            ),
            ProblemKind::SerializeFailed => f.write_str("the type's Serialize failed"),
            ProblemKind::OtherContract { expected, found } => write!(
                f,
                "another contract: expected {expected}, found {found}; the payload was not read"
            ),
            ProblemKind::OtherVersion {
                expected,
                found,
                rule,
                path,
            } => {
                write!(f, "another version: {found} is not readable as {expected}: ")?;
                match rule {
                    None => f.write_str("no published snapshot of it is known to this reader")?,
                    Some(rule) => {
                        let at = match path.as_deref() {
                            None | Some("") => "<root>",
                            Some(path) => path,
                        };
                        write!(f, "its published snapshot breaks this reader ({rule} at {at})")?;
                    }
                }
                f.write_str("; the payload was not read")
            }
            ProblemKind::UnreadableVersion { expected } => write!(
                f,
                "unreadable contract id: expected {expected}, found no `name/vN`; the payload was not read"
            ),
            ProblemKind::EmptyArray => {
                f.write_str("an empty array: at least one element is required")
            }
            ProblemKind::NotOneDataPart { found } => write!(
                f,
                "expected exactly one `data` part, the payload's, found {found}; the payload was not read"
            ),
            ProblemKind::WrongMediaType { expected } => {
                write!(f, "wrong media type: expected {expected}")
            }
            ProblemKind::NoContractExtension { expected } => write!(
                f,
                "no extension names the contract: expected {expected} in `extensions`; the payload was not read"
            ),
            ProblemKind::OtherMajor { expected, found } => write!(
                f,
                "another major version: the extension names {found}, this reader reads {expected}, and an extension has no fallback between versions; the payload was not read"
            ),
            ProblemKind::EarlierProtocol { found, expected } => write!(
                f,
                "written as {found} writes it: expected {expected}"
            ),
            ProblemKind::MissingMember { member, protocol } => {
                write!(f, "missing member `{member}`, which {protocol} requires")
            }
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.kind)
    }
}

/// A payload refused by [`receive`](crate::receive) or [`send`](crate::send): every problem
/// found, each with its JSON pointer, and the presence record of what did arrive.
///
/// `Display` prints one line per problem, like a compiler; `Debug` and the JSON of
/// `Serialize` hold no value of the payload either.
#[derive(Debug, Clone, Serialize)]
pub struct Rejection {
    side: Side,
    problems: Vec<Problem>,
    /// Boxed: a `Result` carrying a rejection stays small.
    presence: Box<Presence>,
}

impl Rejection {
    pub(crate) fn new(side: Side, problems: Vec<Problem>, presence: Presence) -> Self {
        Self {
            side,
            problems,
            presence: Box::new(presence),
        }
    }

    /// Its problems and its presence record.
    pub(crate) fn into_parts(self) -> (Vec<Problem>, Presence) {
        (self.problems, *self.presence)
    }

    /// Every problem found, in document order.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// What did arrive (or, for `send`, what was written): fields present, missing and unknown.
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// The side that refused it.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let contract = self.presence.contract().unwrap_or("payload");
        let n = self.problems.len();
        write!(
            f,
            "{} of {contract} refused: {n} problem{}",
            self.side.as_str(),
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Rejection {}
