//! The compatibility engine: can what one side writes be read by the other?
//!
//! [`check`] compares a writer's *sender view* with a reader's *receiver view* (DESIGN.md,
//! "Semantics that everything shares"): fields match by wire name (the writer's serialize
//! name against the reader's deserialize name or one of its serde aliases); the writer's
//! type must fit inside the reader's; nested types are compared by structure, never by name.
//! [`evolve`] compares two versions of one contract in a [`Mode`]: `Backward` is
//! `check(old, new)` (new readers read old writers), `Forward` is `check(new, old)`, `Full`
//! both; [`evolve_history`] runs against every older version of a list and reports every
//! failing one.
//!
//! Every [`Finding`] has a stable [`Rule`] id, a path in wire names (`artifacts[].version`,
//! `*` for a map key, `(Ready)` for a variant), the [`Direction`] it breaks, a one-line why and
//! a fix hint written from a structured [`Fix`], chosen for the contract's mode (under `full`,
//! one that holds in both directions at once). No payload value ever appears: the engine sees only schemas. A finding can be
//! accepted on purpose with an [`Allowance`] ([`check_with`], [`evolve_with`]): it stays in
//! the report, marked allowed with its reason, and no longer makes the report incompatible.
//!
//! # Rule catalogue
//!
//! One wire problem is named after who changed: the *check* id is used by [`check`], the
//! *backward* id when a new reader reads old data, the *forward* id when an old reader reads
//! new data. In the examples, `old` is the writer and `new` the reader for backward, the other
//! way round for forward.
//!
//! | id (check / backward / forward) | breaks when | example |
//! |---|---|---|
//! | `CONTRACT_NAME_CHANGED` | both schemas are contracts with different names | `refund-request/v2` read as `refund-order/v2` |
//! | `REQUIRED_FIELD_NOT_SENT` / `FIELD_ADDED_REQUIRED` / `FIELD_REMOVED` | the reader requires a field the writer never sends | new `reason: String` without `default`; or `order_id` deleted |
//! | `REQUIRED_FIELD_MAY_BE_OMITTED` / `FIELD_BECAME_REQUIRED` / `FIELD_BECAME_OMITTABLE` | the reader requires a field the writer sends only when present | `#[serde(default)] note: String` loses its `default` while writers keep `skip_serializing_if`; or a writer adds `skip_serializing_if` |
//! | `NULL_NOT_ACCEPTED` / `NULLABLE_BECAME_NON_NULLABLE` / `NON_NULLABLE_BECAME_NULLABLE` | the writer may send `null` where the reader's type is not nullable | `note: Option<String>` becomes `note: String` |
//! | `TYPE_CHANGED` | the reader expects another type (a string for a number, a list for a set, a struct for an enum, tuples of other lengths, ...) | `amount: u64` becomes `amount: String` |
//! | `INT_OUT_OF_RANGE` / `INT_NARROWED` / `INT_WIDENED` | the writer's integer range is not inside the reader's | `u64` read as `u32`; `u8` written as `i16` |
//! | `FLOAT_INTO_INTEGER` / `FLOAT_BECAME_INTEGER` / `INTEGER_BECAME_FLOAT` | the writer sends floats where the reader reads an integer (an integer into a float is fine) | `score: f64` read as `score: i64` |
//! | `STRING_INTO_CHAR` / `STRING_BECAME_CHAR` / `CHAR_BECAME_STRING` | the writer sends strings where the reader reads one `char` (a `char` into a `String` is fine) | `grade: String` read as `grade: char` |
//! | `STRING_FORMAT_CHANGED` | the reader expects a string format the writer does not promise | `String` read as `Uuid` |
//! | `VALUE_OUTSIDE_CONSTRAINT` / `CONSTRAINT_NARROWED` / `CONSTRAINT_WIDENED` | the reader's constraint excludes values the writer may send: an integer outside the reader's set (when the reader's kind holds it; otherwise `INT_OUT_OF_RANGE`), a string outside the reader's length, or a pattern the writer does not promise (patterns are compared as text) | `u64` read as `NonZeroU64` (`u64(1..)`); `string(len ..=64)` read as `string(len ..=32)` |
//! | `ENUM_VALUE_UNKNOWN` / `ENUM_VALUE_REMOVED` / `ENUM_VALUE_ADDED` | a string enum: the writer sends a value the reader does not know and the reader has no `#[serde(other)]` catch-all | `Status::Paused` added to a `Status` without catch-all |
//! | `ENUM_VARIANT_UNKNOWN` / `ENUM_VARIANT_REMOVED` / `ENUM_VARIANT_ADDED` | a tagged enum: the writer sends a variant the reader does not know (a catch-all only covers unit variants, or any variant when internally tagged) | `Event::Refunded { amount }` removed from the reader |
//! | `ENUM_REPR_CHANGED` | external, internal, adjacent or untagged representation differs | `#[serde(tag = "type")]` added |
//! | `ENUM_TAG_CHANGED` | the same representation with another tag or content key | `tag = "type"` becomes `tag = "kind"` |
//! | `UNTAGGED_VARIANT_UNMATCHED` | an untagged variant the writer sends fits none of the reader's variants (in a tagged enum with untagged variants: none of the reader's untagged variants) | `Id::Number(u64)` dropped from an untagged `Id` |
//! | `VARIANT_TAGGING_CHANGED` | a variant of a tagged enum is `#[serde(untagged)]` on one side and tagged on the other, and the reader reads it no other way | `#[serde(untagged)]` added to `Event::Note(String)` |
//! | `VARIANT_UNREADABLE` | the writer may send a variant of an internally tagged enum whose content, in the reader, is an enum tagged under the same key (internally, or adjacently with that tag): serde takes the key for the outer enum, so the reader never reads the variant (and serde writes the key twice) | `#[serde(tag = "t")] enum Outer { B(Inner) }` with `#[serde(tag = "t")] enum Inner` |
//! | `FIELD_RENAMED_WITHOUT_ALIAS` | the reader declares `renamed_from = "orderRef"` but has no `#[serde(alias = "orderRef")]`, and the writer sends `orderRef` | `order_ref` renamed `order_id` with `renamed_from` only |
//! | `FIELD_RENAMED` | the writer declares `renamed_from` a name the reader still requires (an alias on the new side does not help old readers) | `orderRef` renamed `orderId`, read by a v1 reader |
//! | `FIELD_LIKELY_RENAMED` | a required field is missing and the writer sends an unknown field of a fitting type (under a full mode, fitting both ways): an undeclared rename | `orderRef: String` gone, `orderId: String` appeared |
//! | `UNKNOWN_FIELD_DENIED` | the reader has `deny_unknown_fields` and the writer sends a field it does not know (`*`: a writer's flattened map) | a field added to writers of a `deny_unknown_fields` reader |
//! | `FIELD_READ_TWICE` | the writer may send two keys that the reader reads into one field (its name and an alias): serde rejects the second as a duplicate field | a writer sends both `orderRef` and `orderId`, the reader reads `orderId` with alias `orderRef` |
//! | `PROVENANCE_WEAKENED` | the writer marks a field `#[handoff(assumption)]` that the reader requires `confirmed` | `use_case` becomes an assumption |
//! | `PUBLISHED_VERSION_REMOVED` | a published major (its snapshot file `<name>.v<N>.snap`) is gone from the new `contracts/` folder (reported by `handoff check`) | `refund-request.v1.snap` deleted while v1 consumers remain |
//! | `SCHEMA_TOO_DEEP` | types nest deeper than the checker follows (256 levels); the rest is not compared | a generated `list<list<…>>` 300 levels deep |
//!
//! What is *not* a finding: a reader field that may be absent and that the writer does not
//! send; a writer field the reader ignores (serde's default for unknown fields); a wider
//! reader integer, a narrower set of integers read by a wider one (`NonZeroU8` read as
//! `u8` or `u16`), a string of a narrower length read by a wider one, an integer read as a float, a `char` read as a string, a set or an array
//! read as a list; a string enum read as a string, any string read by a string enum with a
//! catch-all, an integer map key read as a string key; a renamed nested type with the same
//! structure; a rename the reader declares *and* reads through an alias (backward).
//!
//! # Structs and maps
//!
//! serde reads a struct's object as a map and a map's object as a struct, so neither is a
//! `TYPE_CHANGED` by itself (`serde_json::Value`, `any`, reads both and is read as neither).
//! A writer's struct read by a reader's `map<K, V>` needs every field it may send to fit `V`
//! (path `field`), and `K` to read each field's name (`TYPE_CHANGED` at the field when it
//! does not: `map<u64, _>` reads no `orderId`); a writer that captures unknown keys also
//! sends keys that are data, which `K` must read whatever they are, with values of its
//! extra type (path `*`). A writer's `map<K, V>` read by a reader's struct may send any key
//! `K` writes, or none: a required reader field is `REQUIRED_FIELD_MAY_BE_OMITTED` (by
//! direction), or `REQUIRED_FIELD_NOT_SENT` when `K` cannot write its name; every field
//! whose key `K` may write must accept `V`; a field with an alias may get both keys
//! (`FIELD_READ_TWICE`); keys the reader does not read are `UNKNOWN_FIELD_DENIED` by a
//! `deny_unknown_fields` reader (at `*`, or at each string-enum tag when `K` is a string
//! enum) and must fit the value type of a reader that captures them.
//!
//! A writer's untagged enum read by a reader's struct (a producer's JSON Schema object that
//! writes one of several keys, `oneOf` of `required`, is read as one: see
//! [`json_schema::import`](crate::json_schema::import)) is read when every variant it
//! sends is: a struct variant compared field by field with the struct, a newtype variant as
//! its content (path `(variant)`; a unit or tuple variant is `TYPE_CHANGED`). A newtype
//! variant holding such an enum is read the same way by a reader's struct variant.
//!
//! # Flattened enums
//!
//! A `#[serde(flatten)]` enum (or `Option` of one,
//! [`StructDef::flattened`](crate::model::StructDef::flattened)) has no key of its own: its
//! variant's keys sit beside the struct's fields. The two sides' flattened
//! enums are matched by Rust field name, and a finding inside one has the path segment
//! `(flatten NAME)` (`(flatten kind)(Refund).amount`). A matched pair is compared as a
//! field's types are: the enums' definitions like any named type (variants, contents,
//! representation and tags: `ENUM_VARIANT_*`, `TYPE_CHANGED`, `ENUM_REPR_CHANGED`, ...).
//! Whether it may be absent uses the field rules: a reader's non-optional enum that the
//! writer never sends is `REQUIRED_FIELD_NOT_SENT` / `FIELD_ADDED_REQUIRED` /
//! `FIELD_REMOVED`; one the writer sends only as an `Option` is
//! `REQUIRED_FIELD_MAY_BE_OMITTED` / `FIELD_BECAME_REQUIRED` / `FIELD_BECAME_OMITTABLE`
//! (never a `null`: `None` writes no key); a writer's enum a `deny_unknown_fields` reader
//! does not have is `UNKNOWN_FIELD_DENIED`. serde reads a flattened externally tagged
//! enum from a key naming one of its variants, so a catch-all takes nothing there: a
//! variant the reader knows only through its catch-all is `ENUM_VARIANT_UNKNOWN` (or
//! `ENUM_VALUE_UNKNOWN`, by direction). An untagged unit variant flattened writes no
//! key, which serde never reads as a variant: a required reader's untagged flattened enum
//! makes it `UNTAGGED_VARIANT_UNMATCHED` (conservatively: a reader's struct variant whose
//! fields may all be absent would read it). A reader's optional flattened enum never
//! rejects a payload (serde reads `None` when the variant does not fit), but a mismatch
//! inside it still is a finding: the reader would silently lose the writer's variant.
//! Conservatively, a key one side writes as a field and the other reads as part of a
//! flattened enum (a variant's name, a tag or content key, a field of a struct variant of
//! an internally tagged or untagged enum) is `TYPE_CHANGED`, as serde hands it to whichever
//! reads it first; a writer's flattened enum read by a map of other than any key and any
//! value, or captured (or possibly also read) by a reader's flattened map of other than
//! `any`, is `TYPE_CHANGED`,
//! and a reader's required flattened enum read from a writer's map is
//! `REQUIRED_FIELD_MAY_BE_OMITTED` (a map promises no variant). Renaming the Rust field of
//! a flattened enum does not change the wire, but is reported as one enum removed and
//! another added.
//!
//! # Untagged variants of a tagged enum
//!
//! serde reads such an enum by trying its tagged variants first and then each untagged
//! variant on the whole value (see [`EnumDef`](crate::model::EnumDef)). A writer's tagged
//! variant is compared with the reader's tagged variant of the same tag, as in any tagged
//! enum; with none, the reader's untagged variants read it when one reads any value (a
//! newtype of `any`), when the writer's variant is an externally tagged unit variant (its
//! name, a string) and one reads any string, or when the writer's variant is internally
//! tagged (the tag beside its fields) and one is a struct variant that ignores unknown
//! keys, reads nothing under the tag's key and reads the writer's fields; otherwise it is
//! `ENUM_VARIANT_*` (conservatively: an untagged variant may fit other tagged forms). A writer's untagged variant
//! must fit one of the reader's untagged variants, as in an untagged enum (conservatively:
//! the reader's tagged variants may read some of its values too), or else it is
//! `UNTAGGED_VARIANT_UNMATCHED`. In both cases, when the reader has the same Rust variant
//! with the other tagging, the finding is `VARIANT_TAGGING_CHANGED`: serde writes a variant
//! either under its tag or as its content alone, and reads it only the way it declares.
//! A writer that sends only untagged values (an untagged enum, or a tagged one none of whose
//! tagged variants is sent) is compared with a reader that has untagged variants (or is
//! untagged) value by value against those variants, whatever the two representations: no
//! tag is on the wire.
//!
//! # Forms that are the same JSON
//!
//! A writer's enum that sends no variant sends nothing, whatever the reader, and a variant
//! with no value to write is left out: a newtype of an enum that sends no variant, and an
//! internally tagged newtype of an `Option` (serde writes no `Option` beside a tag). An
//! internally tagged writer read by an adjacently tagged reader under the same tag is
//! compared variant by variant: a writer variant with no field written is the tag alone (a
//! unit variant's form), one whose only field is the content key, always written, is that
//! content; any other is `TYPE_CHANGED` at its variant. A tuple variant and a newtype
//! variant of a tuple of its length are the same array.
//!
//! Beside an internal tag serde reads what it buffered: the keys there only as strings (a
//! reader's newtype variant of a map of integer or `bool` keys reads the tag alone, and keys
//! a writer sends there are `TYPE_CHANGED`), and an untagged enum's unit variant, which it
//! writes there as the tag alone, not at all (`TYPE_CHANGED` at that variant, unless a
//! variant the reader tries reads an object with no key).
//!
//! # A peer's JSON Schema
//!
//! When a side is a peer's JSON Schema (pydantic, zod, another generator; read with
//! [`json_schema::import`](crate::json_schema::import)), [`check_peer`] runs the same check
//! and says each fix in the peer's terms (`Field(ge=0, le=…)`, `.optional()`, `"minimum"`)
//! instead of Rust's: see [`Peer`].

mod check;
mod direction;
mod fix;
mod peer;
mod report;

pub use crate::allowance::{covers, Allowance, Allowances};
pub use crate::contract::Mode;
pub use crate::rules::{Concern, Rule};
pub use direction::Direction;
pub use fix::{AttributeEdit, Fix, FixTarget};
pub use peer::{check_peer, check_peer_with, Peer, PeerSides};
pub use report::{CompatReport, Finding};

use crate::model::Schema;
use check::Checker;

/// Whether data written by `writer` (its sender view) is read by `reader` (its receiver
/// view): a producer against a consumer.
#[must_use]
pub fn check(writer: &Schema, reader: &Schema) -> CompatReport {
    check_with(writer, reader, &Allowances::new())
}

/// [`check`], with some findings accepted on purpose.
#[must_use]
pub fn check_with(writer: &Schema, reader: &Schema, allowances: &Allowances) -> CompatReport {
    let mut report = CompatReport::new(Checker::run(writer, reader, Direction::Check, None, false));
    report.apply(allowances);
    report
}

/// Whether `new` may replace `old` under `mode`: `Backward` checks old writers against new
/// readers, `Forward` new writers against old readers, `Full` both. A transitive mode given
/// here means its non-transitive counterpart (there is one older version).
#[must_use]
pub fn evolve(old: &Schema, new: &Schema, mode: Mode) -> CompatReport {
    evolve_with(old, new, mode, &Allowances::new())
}

/// [`evolve`], with some findings accepted on purpose.
#[must_use]
pub fn evolve_with(
    old: &Schema,
    new: &Schema,
    mode: Mode,
    allowances: &Allowances,
) -> CompatReport {
    let mut report = CompatReport::new(evolve_findings(old, new, mode, None));
    report.apply(allowances);
    report
}

/// Whether `new` may follow the `older` versions (oldest first) under `mode`. A transitive
/// mode checks against every older version and reports every failing one (each finding's
/// `against` is the index in `older`); a non-transitive mode checks against the last one
/// only. An empty history is compatible.
#[must_use]
pub fn evolve_history(older: &[Schema], new: &Schema, mode: Mode) -> CompatReport {
    evolve_history_with(older, new, mode, &Allowances::new())
}

/// [`evolve_history`], with some findings accepted on purpose.
#[must_use]
pub fn evolve_history_with(
    older: &[Schema],
    new: &Schema,
    mode: Mode,
    allowances: &Allowances,
) -> CompatReport {
    let first = if is_transitive(mode) {
        0
    } else {
        older.len().saturating_sub(1)
    };
    let mut findings = Vec::new();
    for (i, old) in older.iter().enumerate().skip(first) {
        findings.extend(evolve_findings(old, new, mode, Some(i)));
    }
    let mut report = CompatReport::new(findings);
    report.apply(allowances);
    report
}

/// Whether the mode runs against every older version.
#[must_use]
pub const fn is_transitive(mode: Mode) -> bool {
    matches!(
        mode,
        Mode::BackwardTransitive | Mode::ForwardTransitive | Mode::FullTransitive
    )
}

/// The directions a mode checks.
#[must_use]
pub const fn directions(mode: Mode) -> &'static [Direction] {
    match mode {
        Mode::Backward | Mode::BackwardTransitive => &[Direction::Backward],
        Mode::Forward | Mode::ForwardTransitive => &[Direction::Forward],
        Mode::Full | Mode::FullTransitive => &[Direction::Backward, Direction::Forward],
    }
}

fn evolve_findings(
    old: &Schema,
    new: &Schema,
    mode: Mode,
    against: Option<usize>,
) -> Vec<report::Finding> {
    let mut out = Vec::new();
    // Under a full mode, a fix must hold both ways: the checker of each direction knows it.
    let both = directions(mode).len() == 2;
    for &direction in directions(mode) {
        let (writer, reader) = match direction {
            Direction::Forward => (new, old),
            Direction::Check | Direction::Backward => (old, new),
        };
        out.extend(Checker::run(writer, reader, direction, against, both));
    }
    out
}
