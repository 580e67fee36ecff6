//! The canonical schema text: what a contract's snapshot file holds (after insta's header,
//! see [`snapshot`](crate::snapshot)), reviewed in pull requests and read back by the
//! derive and the command-line tool.
//!
//! [`to_text`] writes a [`Schema`]; [`parse`] reads it back, so that
//! `parse(&to_text(&s)) == Ok(s)` for every valid schema. The text is deterministic (named
//! types sorted by display name, fields and variants in declaration order), line-oriented
//! (one fact per line, so a diff shows exactly which fact changed) and holds both views of
//! every field and every fact of the model:
//!
//! ```text
//! contract refund-request/v2
//! mode full
//! root RefundRequest
//!
//! struct RefundRequest
//!   rust "my_app::RefundRequest"
//!   doc "A refund the support agent hands to billing."
//!   unknown ignore
//!   field category: Category
//!     send "category" always
//!     receive "category" required
//!   field order_id: string
//!     send "orderId" always
//!     receive "orderId" alias "orderRef" required
//!     renamed-from "orderRef"
//!   field use_case: option<string>
//!     send "useCase" if-some
//!     receive "useCase" optional
//!     assumption
//!
//! enum Category
//!   rust "my_app::Category"
//!   repr external
//!   variant Damaged: unit
//!     send "damaged"
//!     receive "damaged"
//!   variant Other: unit
//!     send never
//!     receive "other"
//!     catch-all
//! ```
//!
//! # Grammar
//!
//! Lines are indented by two spaces per level; blank lines are ignored.
//!
//! - Header (level 0): `contract NAME/vN` (only for a contract), `mode MODE` (for a
//!   contract, or when the mode is not `full`), then one line per finding the contract
//!   accepts on purpose, in the order declared, `allow RULE_ID field "KEY" reason "TEXT"`
//!   (`RULE_ID` one of [`Rule::id`](crate::compat::Rule::id); `KEY` a wire name or a
//!   finding's whole path; none written when it accepts none), then `root TYPE`.
//! - A named type (level 0): `struct NAME`, `enum NAME`, `newtype NAME: TYPE` or
//!   `views NAME` (a type written in one form and read in another: a tuple struct with a
//!   field skipped in one direction), then at level 1: `rust "PATH"` and `doc "TEXT"`
//!   (omitted when empty), and for `views` its `send TYPE` and `receive TYPE`.
//! - A struct (and a struct variant, one level deeper): `unknown ignore|deny|capture`,
//!   `extra TYPE` (the value type of the map that captures unknown keys), then its fields:
//!   `field RUST_NAME: TYPE` with, one level deeper, `doc "TEXT"`,
//!   `send "KEY" always|if-present|if-some` or `send never` (`if-present`: written only when
//!   present, as its type; `if-some`: an `option<…>` written only when `Some`, as what it
//!   holds, never `null` — `skip_serializing_if = "Option::is_none"`; snapshots written
//!   before `if-some` existed say `if-present` for such fields, which reads as before),
//!   `receive "KEY" [alias "KEY"]… required|optional` or `receive never`,
//!   `renamed-from "KEY"` (once per earlier name) and `assumption` (omitted when confirmed).
//! - An enum: `repr external|untagged`, `repr internal tag "KEY"` or
//!   `repr adjacent tag "KEY" content "KEY"`, then `unknown deny` when it has
//!   `#[serde(deny_unknown_fields)]` (omitted when it ignores unknown keys, serde's default;
//!   `unknown ignore` is read too), then its variants:
//!   `variant RUST_NAME: unit|newtype TYPE|tuple(TYPE, …)|struct` with, one level deeper,
//!   `doc "TEXT"`, `send "TAG"` or `send never`, `receive "TAG" [alias "TAG"]…` or
//!   `receive never`, `catch-all` (`#[serde(other)]`), `untagged` (`#[serde(untagged)]` on
//!   a variant of a tagged enum, omitted otherwise; such variants come after every tagged
//!   one, as serde requires, and never in an enum that is `repr untagged` as a whole, nor
//!   beside `catch-all`), and for a struct variant its
//!   `unknown`, `extra` and `field` lines. A field must have its `send` and `receive`
//!   lines; a variant without one is read as `never` (the canonical text writes it).
//! - Types use the syntax of [`Type`]'s `Display`: `unit bool u8 … i128 f32 f64 char string
//!   string(uuid) … any option<T> list<T> set<T> array<T; N> map<K, V> tuple(A, B)`; any
//!   other name (with `::` paths and `<…>` generic arguments, such as
//!   `Handoff<RefundRequest>`) is a named type and must be defined in the text. A
//!   constrained integer is its kind and its values in parentheses, `u8(1..)`,
//!   `i32(..=-1, 1..)`, `u8(0..=2, 7)` (ranges include their end; an open end is the kind's
//!   bound); a constrained string lists its format, `len` and `pattern`,
//!   `string(uuid, len ..=36, pattern "^[0-9a-f-]+$")` (see
//!   [`constraint`](crate::constraint)). Other spellings of one set read back to its one form.
//! - Strings are double-quoted with the escapes `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}`;
//!   control and invisible formatting characters are always escaped, so a review sees
//!   every character. A Rust field or variant name is written bare when it is a plain word
//!   (letters, digits, `_`, `.`, `#`) and quoted otherwise.
//!
//! [`parse`] reports the first problem with its line and column, quoting at most the
//! offending token: a misspelt keyword or rule id (with a "did you mean"), a missing or
//! duplicate line, a type that is referenced but not defined, a type defined twice, two
//! fields or variants of the same name.

use core::fmt;

use crate::model::{Schema, Type};

mod constraint;
mod error;
mod parse;
mod source_map;
mod words;
mod write;

pub use crate::model::RESERVED;
pub use error::ParseError;
pub use source_map::{Element, SourceMap};

/// The canonical text of a schema.
///
/// [`parse`] reads it back to an equal schema whenever the schema is valid as the builder
/// makes it: every referenced named type is defined, display names follow the type syntax
/// (identifiers, `::` paths, `<…>` arguments in canonical spelling, not a keyword alone),
/// a contract id has a kebab-case name and a version of at least 1, and every allowance
/// names a rule of the catalogue. Every other string (keys, tags, aliases, Rust names and
/// paths, docs, allowed fields and their reasons) may hold any character.
///
/// ```
/// use contract_schema::text::{parse, to_text};
///
/// let text = "\
/// root Ping
///
/// struct Ping
///   rust \"app::Ping\"
///   unknown ignore
///   field seq: u64
///     send \"seq\" always
///     receive \"seq\" required
/// ";
/// let schema = parse(text)?;
/// assert_eq!(to_text(&schema), text);
/// # Ok::<(), contract_schema::text::ParseError>(())
/// ```
#[must_use]
pub fn to_text(schema: &Schema) -> String {
    write::schema(schema)
}

/// Reads a schema from its canonical text.
///
/// # Errors
///
/// A [`ParseError`] locating the first problem: a syntax error, an unknown keyword or rule
/// id, a missing or duplicate line, a named type referenced but not defined or defined twice, a
/// duplicate field or variant name.
///
/// ```
/// let error = contract_schema::text::parse("root Ping\n").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "line 1, column 6: type `Ping` is not defined in this schema"
/// );
/// assert_eq!((error.line(), error.column()), (1, 6));
/// ```
pub fn parse(text: &str) -> Result<Schema, ParseError> {
    parse::schema(text, 0)
}

/// [`parse`], also recording the line of each named type, field and variant (see
/// [`SourceMap`]). [`parse`] records nothing, and costs nothing for it.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_with_lines(text: &str) -> Result<(Schema, SourceMap), ParseError> {
    parse::schema_with_lines(text, 0)
}

/// Reads a schema from text that follows `lines_before` lines of something else (a
/// snapshot's header): line numbers in errors count those lines too.
pub(crate) fn parse_after(text: &str, lines_before: usize) -> Result<Schema, ParseError> {
    parse::schema(text, lines_before)
}

/// [`parse_after`], with the [`SourceMap`] of [`parse_with_lines`]; its lines count the
/// `lines_before` too.
pub(crate) fn parse_with_lines_after(
    text: &str,
    lines_before: usize,
) -> Result<(Schema, SourceMap), ParseError> {
    parse::schema_with_lines(text, lines_before)
}

/// Writes the canonical text (see [`to_text`]).
impl fmt::Display for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_text(self))
    }
}

/// Reads the canonical text (see [`parse`]).
impl core::str::FromStr for Schema {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

/// Reads a type in the syntax of [`Type`]'s `Display` (`option<list<string>>`,
/// `Handoff<RefundRequest>`). Named types are not checked against any schema.
///
/// # Errors
///
/// A [`ParseError`] on line 1 at the column of the problem.
pub fn parse_type(text: &str) -> Result<Type, ParseError> {
    parse::standalone_type(text)
}
