//! JSON Schema (draft 2020-12) export of a [`Schema`], in its sender or receiver view, and
//! [`import`] of a peer's JSON Schema (2020-12 or draft-07) into one (see the `import`
//! module's docs, repeated on [`import`]: what is read, what is refused in which view, and
//! which shapes of the export are not read back).
//!
//! [`to_json_schema`] is a plain function over the model. The document it returns has:
//!
//! - `"$schema": "https://json-schema.org/draft/2020-12/schema"`, the root type's keywords at
//!   the top (a `$ref` when the root is a named type), and every named type under `$defs`;
//! - `x-handoff-contract` (`refund-request/v2`) and `x-handoff-mode` for a contract, and
//!   `x-handoff-view` (`sender` or `receiver`);
//! - on each named type: `title` (its display name, such as `Handoff<RefundRequest>`),
//!   `x-handoff-rust` (its Rust path with generic arguments) and `description` (its doc comment);
//! - on each field: `description`, `x-handoff-rust` (the Rust field name, when the key differs;
//!   `meta.author` for a field inlined from a flattened `meta`),
//!   `x-handoff-provenance: "assumption"` for a working assumption
//!   (confirmed is the default and is not written), `x-handoff-renamed-from` (the names the field
//!   had in earlier versions: an explanation, never a key the receiver reads), and on an alias
//!   property of the receiver view, `x-handoff-alias-of` (the field's own key);
//! - on a struct with flattened enums: `x-handoff-flattened` (see **Flattened** below);
//! - on a constrained integer whose bounds a JSON number cannot hold (past `i64`/`u64`) and
//!   whose keywords, which leave those bounds out, would then admit more:
//!   `x-handoff-integers`, its values in the canonical text (`i128(..=-18446744073709551617)`).
//!
//! [`ANNOTATIONS`] lists these `x-handoff-*` keywords (a validator in strict mode must be told
//! of them); [`without_annotations`] removes them.
//!
//! `$defs` keys are derived from display names so that they are valid JSON-pointer tokens and
//! URI fragments without escaping: `::` becomes `.`, every run of other punctuation becomes one
//! `-`, trailing punctuation is dropped (`Handoff<RefundRequest>` is `Handoff-RefundRequest`,
//! `app::Step` is `app.Step`), other characters are written `_uXXXX`, and a clash gets a numeric
//! suffix. The display name stays in `title`.
//!
//! # The two views
//!
//! The **sender view** describes what `Serialize` writes: properties under their serialize
//! names, `required` lists the fields always written (`skip_serializing_if` fields are optional,
//! `skip`/`skip_serializing` fields are absent), and the sender writes no other key
//! (`additionalProperties: false`, or the value schema of the flattened map whose entries it
//! also writes). An `Option` written without `skip_serializing_if` is `null` when `None`; one
//! skipped when `None` (`skip_serializing_if = "Option::is_none"`, `if-some` in the canonical
//! text) is optional and never `null`: its property is what the `Option` holds.
//!
//! The **receiver view** describes what `Deserialize` accepts: properties under the deserialize
//! name and every alias; `required` holds the fields that must be present; a field readable
//! under several keys must appear under exactly one of them when it is required and under at
//! most one otherwise (serde rejects two as a duplicate field): a `oneOf` with each key
//! `required`, or a `not` of an `anyOf` with each pair of keys `required`, every `required`
//! beside `properties` naming its keys as `true`, as ajv's `strict: true` requires; `null` is
//! accepted only where the type is an `Option` (a `default` field may be absent but not
//! `null`); unknown keys are allowed (serde ignores them), forbidden (`deny_unknown_fields`)
//! or typed by the value of a flattened map that captures them.
//!
//! # Types
//!
//! | model | JSON Schema |
//! |---|---|
//! | unit | `{"type": "null"}` |
//! | bool | `{"type": "boolean"}` |
//! | integers | `{"type": "integer"}` with the kind's `minimum`/`maximum` |
//! | floats | `{"type": "number"}` |
//! | char | a string of exactly one character (`minLength`/`maxLength` count characters) |
//! | string | `{"type": "string"}`, with `format` `uuid`, `date-time`, `date`, `ipv4`, `ipv6` or `uri` (`url::Url`); a naive date-time or time of day has no offset, which JSON Schema's formats require, and JSON Schema has no format for an address of either family or a socket address, so these carry `x-handoff-format` (`naive-date-time`, `time`, `ip`, `socket-addr-v4`, `socket-addr-v6`, `socket-addr`) instead |
//! | constrained integer (`u8(1..)`, `i32(..=-1, 1..)`, `u8(0..=2, 7)`) | `{"type": "integer"}` with `enum` when every range is one value; otherwise the hull's `minimum`/`maximum`, and the values between the ranges as `not: {"enum": […]}` when each gap is one value (`NonZeroI32`: `not: {"enum": [0]}`), an `anyOf` of the ranges otherwise. A bound beyond what a JSON number holds (past `i64`/`u64`) is left out, as for `u128`, and the values are then said exactly by `x-handoff-integers` (`u128(18446744073709551616..)`) unless the bound left out is the kind's own; as a map key it is the pattern of the digits of its ranges, exact |
//! | constrained string (`string(uuid, len 1..=36, pattern "…")`) | the string's schema with `minLength`, `maxLength` and `pattern` |
//! | any | `{}` |
//! | option | the inner type or `null` |
//! | list | `{"type": "array", "items": …}` |
//! | set | a list with `uniqueItems: true` |
//! | `array<T; N>` | `items` with `minItems` = `maxItems` = N (equivalent to N `prefixItems`, and short) |
//! | tuple | `prefixItems`, `items: false`, `minItems` |
//! | map | an object: `additionalProperties` is the value, `propertyNames` the key as serde_json writes and reads it, a string: an integer key is a `pattern` of the canonical digits (no `+`, no leading zero, no `-0`) of exactly its kind's range, or of its set's ranges (`^([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$` for `u8`; the listed keys of a set of at most 64 integers), a `bool` key `"true"` or `"false"`, an enum key the names of its unit variants (externally tagged) or its newtype variants' keys (untagged: the receiver view only those whose content reads a string, since serde buffers the key as a string, which no integer reads), no key of an internally or adjacently tagged enum |
//! | named type | `{"$ref": "#/$defs/…"}` |
//!
//! Enums follow serde's representations. **External**: a string enum (unit variants only) is
//! `{"type": "string", "enum": […]}` (a `oneOf` of `const`s when variants carry docs, so that
//! each keeps its `description`); otherwise
//! a `oneOf` where a unit variant is its name and any other variant is an object with exactly
//! one key, its name, holding its content. **Internal** (`tag`): a `oneOf` of objects whose tag
//! is the variant name, with the variant's fields next to it. The content of a newtype variant
//! is inlined beside the tag, as serde writes it: a struct's fields, a map's entries, an inner
//! internally tagged enum's own tag and fields, an externally tagged enum's variant name
//! holding its content (`null` for a unit variant), an adjacently tagged enum's tag and
//! content, an untagged enum's content (serde writes an untagged unit variant as the tag alone
//! and cannot read that back, so only the sender view has it). **Adjacent** (`tag`, `content`): a `oneOf` of objects with
//! the tag and the content under its key (a unit variant has no content, or `null`; the
//! receiver reads a newtype variant of an `Option` without content too, as `None`); the
//! receiver view forbids every other key when the enum has `deny_unknown_fields`, as serde
//! does whatever the variants carry. (An internally tagged unit variant ignores other keys
//! even then, and a newtype variant's content follows its own type, as in serde: a newtype
//! variant of `()` or of a unit struct accepts no key beside the tags, since serde reads a
//! unit only from an empty remainder; a newtype variant of an `Option` reads `Some` of the
//! inner type from the keys beside the tags and is never written, since serde refuses to
//! write an `Option`, a primitive, a string or a sequence there. serde takes the tag out
//! before the content sees the keys: a content field is never read under the tag's key, and
//! a required one makes the variant unreadable; serde then writes that key twice, which no
//! receiver reads back, so the sender view has no such variant, or no such optional field.
//! Likewise a newtype variant whose content is an enum tagged, internally or adjacently,
//! under the enclosing enum's own tag key is never read, and written with that key twice: it
//! has no value in either view, as the compatibility engine's `VARIANT_UNREADABLE` says.)
//! **Flattened** (`#[serde(flatten)]` of an enum): the struct's object holds, beside its
//! fields, an `allOf` entry per flattened enum with the variant's keys as serde writes them
//! beside other fields (an externally tagged variant as one key, its name, `null` for a unit
//! variant; an internally or adjacently tagged one as its tag and fields or content; an
//! untagged one as its fields), and the struct closes the object with
//! `unevaluatedProperties` instead of `additionalProperties`. A variant whose content takes
//! every key left (a map, a `serde_json::Value`, a struct that flattens a map: serde writes
//! its entries beside the fields, and hands the enum every key the fields leave) keeps its
//! value schema, so those keys are known: its entries are judged by the map's values, the
//! struct's own keys listed beside them as `true`, when the enum is the struct's only
//! flattened enum and the struct captures no key itself; otherwise they are accepted
//! whatever they hold (see the looser points below). Through an `Option`, the
//! sender view also accepts none of the enum's keys, and the receiver view constrains
//! nothing, as serde reads `None` whenever the enum does not read. The struct's
//! `x-handoff-flattened` names each flattened enum of the view, its Rust field name and its
//! type (`{"rust": "kind", "type": {"$ref": "#/$defs/Kind"}}`), which the keys do not say.
//! **Untagged**: an `anyOf` of the variants' contents. In the receiver view a variant is read
//! under its name and its aliases, and a `#[serde(other)]` catch-all makes any other string tag
//! acceptable (for a string enum, any string: the known names are listed in `examples`).
//! **Untagged variants of a tagged enum** (`#[serde(untagged)]` on some variants): an
//! `anyOf` of the enum's tagged variants alone (in its representation, as above) and of the
//! untagged variants' contents (as an untagged enum's), in both views and as a map key or a
//! newtype variant's content alike. serde tries the tagged form first and the untagged
//! variants after it; which variant reads a value is not something a schema says, and the
//! set of values read is exactly the union, so the `anyOf` is exact.
//!
//! # Where the exported schema differs from serde, on purpose
//!
//! Each position below is pinned by a test in `tests/tests/strictness.rs`.
//!
//! Stricter than serde (the receiver view rejects what serde accepts):
//! - **struct as array**: serde reads a struct from a JSON array of its fields in order; the
//!   schema requires an object.
//! - **internally tagged enum as array**: serde reads `["Variant", …]`; the schema requires an
//!   object.
//! - **unit variant as object**: serde reads `{"Unit": null}` for an externally tagged unit
//!   variant; the schema requires the string `"Unit"`. Likewise a catch-all reads
//!   `{"unknown": null}`, which the schema rejects.
//! - **variant index as tag inside buffered content**: an internally tagged enum read from
//!   content serde buffers (inside an untagged enum, as the tagged part of an enum with
//!   untagged variants, which serde reads from buffered content too, in a newtype variant of another
//!   internally tagged enum, or flattened beside a struct's fields) accepts the variant's
//!   index as its tag (`{"type": 3}`), and a catch-all then takes any index; the schema
//!   requires a name. (At the top level serde too
//!   reads names only.)
//! - **empty object as unit inside an internally tagged enum**: in the content of an internally
//!   tagged variant serde also reads `{}` as a unit (`()`, a unit struct, the content of a
//!   unit variant); the schema requires `null`.
//! - **missing content of a transparent `Option`**: serde reads an adjacently tagged newtype
//!   variant without its content when the content type reads a missing value (an `Option`,
//!   also behind `#[serde(transparent)]`); the schema lets the content be absent only when the
//!   variant's type is an `Option` itself, since the description does not tell a transparent
//!   struct from a newtype struct (which serde requires).
//! - **two variant names beside the fields**: serde reads a flattened externally tagged enum
//!   from the first key (in the payload's order) that names a variant and leaves the others
//!   to the struct as unknown keys; the schema, which sees no order, accepts exactly one
//!   (`receive` reads as serde does).
//! - **untagged variants under a taken tag**: a newtype variant of an internally tagged enum
//!   whose content is an enum tagged under the same key has no value (see above), even when
//!   that enum has `#[serde(untagged)]` variants, which serde could read from the keys left.
//! - **duplicate items in a set**: serde merges them silently; the schema says `uniqueItems`.
//! - **duplicate keys**: serde keeps the last of duplicate map keys and ignores duplicate unknown
//!   fields. JSON Schema sees a parsed document, in which a key occurs once, so it cannot say
//!   anything about duplicates; `receive` rejects them before any schema applies.
//! - **flattened `Option` of a struct**: serde reads `None` when the inlined fields are absent
//!   *or do not fit*; the schema lets them be absent but requires them to fit when present.
//! - **string as C string**: serde writes a `CString` as an array of its nonzero bytes,
//!   described so; serde_json also reads a string (its raw bytes, when none is 0) into one.
//! - **nanoseconds of 10⁹ or more**: a `Duration` (`nanos`) or `SystemTime`
//!   (`nanos_since_epoch`) is described as serde writes it, below 10⁹; serde also reads
//!   larger values, carrying whole seconds into the seconds field (and refuses the pair when
//!   the carry overflows it, a condition across two fields no schema here states).
//! - **saturating integers beyond their range**: a `Saturating` integer is described as
//!   serde writes it, within its integer's range; serde reads any JSON integer into it,
//!   clamped to that range (`300` is `255` for a `Saturating<u8>`).
//! - **chrono's names in other cases**: chrono reads a `Weekday` or `Month` name in any ASCII
//!   case (`"mon"`, `"fEbruARy"`); the schema lists the names it writes (`"Mon"`,
//!   `"January"`) and the other spelling it reads, in chrono's case (`"Monday"`, `"Jan"`).
//! - **a `TimeDelta` within a second of its extremes**: chrono bounds the nanoseconds at the
//!   two extreme seconds, a condition across the items of `[secs, nanos]`; the schema leaves
//!   those two seconds out (also from the sender view: `send` refuses `TimeDelta::MAX`).
//! - **a time `UtcOffset` of fewer items**: time writes `[hours, minutes, seconds]` and also
//!   reads `[hours]` and `[hours, minutes]`; the schema requires the three items.
//!
//! Looser than serde (the schema accepts what serde rejects):
//! - **integral floats**: JSON Schema's `integer` accepts `1.0`; serde rejects it for an
//!   integer type.
//! - **128-bit extremes**: bounds are written only when a JSON number of `serde_json` can hold
//!   them, so `u128` has `minimum: 0` and no `maximum`, and `i128` has neither; a constrained
//!   integer whose bounds are left out says them in `x-handoff-integers`, which no validator
//!   checks.
//! - **a required field whose key an earlier field reads**: serde gives a key to a struct's
//!   own field first, then to its flattened fields in declaration order, so a required field
//!   of a flattened struct whose key (and every alias) is already taken never receives it,
//!   and serde never reads the struct; the schema gives the key to the field serde gives it
//!   to and reads the other nowhere. (serde then writes that key twice; a parsed document,
//!   which the sender view describes, keeps the last.)
//! - **keys a flattened map sees before a later flattened field**: serde reads every key not
//!   yet taken into a flattened map, in declaration order, so a flattened struct declared
//!   after the map also has its keys read into the map (they must fit its values too), and
//!   with two flattened maps every unknown key must fit both. The schema checks a declared
//!   key against its field only, and an unknown key against the last map. (A map declared
//!   last, the usual catch-all, or one of `serde_json::Value`, is described exactly.)
//! - **an inner tag under a farther tag's key**: the content of an internally tagged newtype
//!   variant tagged under the enclosing enum's own key has no value (see above), but an enum
//!   tagged under the key of an enum further out (through another internally tagged enum, or
//!   an untagged one), or an adjacently tagged enum holding its content under the enclosing
//!   tag's key, is described with its tag or content under the key (the last one serde writes
//!   there) and accepted: serde took the key for the outer enum, and reads no such variant
//!   (for the content key, none that needs its content).
//! - **formats without a standard name**: a naive date-time, a time of day, an address of
//!   either family and a socket address carry `x-handoff-format`, which no validator checks,
//!   so the schema accepts any string there (`"x"` for a `NaiveTime`); serde rejects what
//!   does not parse.
//! - **beside a flattened internally tagged or untagged enum**: serde hands such an enum every
//!   key the struct's fields leave, so a struct variant that denies unknown fields rejects
//!   the keys of other flattened enums and unknown keys; the schema checks the variant's own
//!   keys only. A variant that takes every key left (a map, a struct that flattens a map)
//!   reads them all as its entries, those of the struct's fields inlined from a flattened
//!   struct declared after it too; the schema judges the keys of no field, and, beside
//!   another flattened enum or a map of the struct's own, no key (serde writes each one's
//!   keys, and which reads a key first depends on the order of the fields).
//! - **flattened enums nested deeper than 8**: a flattened enum whose variant holds the
//!   struct it is flattened into (through a `Box`) is inlined 8 levels deep; below that
//!   its keys are accepted whatever they hold.
//! - **a flattened enum with untagged variants**: the derive refuses to flatten one, but a
//!   newtype or transparent struct may still hold one; its keys are then accepted whatever
//!   they hold (`receive` leaves the verdict to serde there).

//!
//! Stricter than what serde writes (the sender view rejects it):
//! - **non-finite floats**: `serde_json` writes `NaN` and infinities as `null`, which no
//!   receiver reads back as a number; the sender view describes finite numbers only. serde
//!   reads a number beyond `f32`'s range as an infinity, which it then writes as such a `null`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use crate::model::{Body, Emit, FieldDef, Schema, StructDef, Type, TypeDef, Unknown};

pub mod dialect;
mod digits;
mod enums;
mod exporter;
mod import;
mod keys;
mod keywords;

pub use crate::model::View;
use enums::Tag;
use exporter::Exporter;
pub use import::{import, ImportError, ImportWarning, Imported};
use keywords::{
    at_most_one, constrained_schema, int_schema, keywords, nullable, obj, properties_map,
    required_keys, string_schema, unique, ALIAS_OF, CATCH_ALL, CONTRACT, FLATTENED, FORMAT,
    INTEGERS, MODE, PROVENANCE, RENAMED_FROM, RUST, VIEW,
};

/// Every annotation keyword an export may write, sorted: `x-handoff-*` keys that no validator
/// knows, which the import reads back (the module docs say where each sits).
///
/// A validator in strict mode refuses a keyword it does not know: register these as known
/// (ajv: `ajv.addVocabulary(ANNOTATIONS)`), or export without them ([`without_annotations`],
/// `handoff json-schema --no-annotations`).
pub const ANNOTATIONS: &[&str] = &[
    ALIAS_OF,
    CATCH_ALL,
    CONTRACT,
    FLATTENED,
    FORMAT,
    INTEGERS,
    MODE,
    PROVENANCE,
    RENAMED_FROM,
    RUST,
    VIEW,
];

/// Keywords of draft 2020-12 whose value is a schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "contains",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords of draft 2020-12 whose value is an array of schemas.
const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords of draft 2020-12 whose value is an object of schemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "$defs",
    "dependentSchemas",
    "patternProperties",
    "properties",
];

/// An export without its annotations: every keyword of [`ANNOTATIONS`] removed from every
/// schema object of the document, so that a validator that refuses unknown keywords (ajv's
/// default strict mode) compiles it with no more set up than the formats it checks.
///
/// Only schema positions are walked (the subschemas of 2020-12's applicators, `$defs`):
/// a property or `$defs` entry named like an annotation, and the values of `const`, `enum`,
/// `examples` and `default`, are data and stay. Nothing else changes, so the document
/// validates exactly what the export does; what is lost is what the import reads back from
/// the annotations (contract id, mode, view, Rust names, provenance, former names, aliases,
/// catch-alls, formats without a standard name).
#[must_use]
pub fn without_annotations(mut document: Value) -> Value {
    strip_annotations(&mut document);
    document
}

/// [`without_annotations`] in place.
fn strip_annotations(schema: &mut Value) {
    let Value::Object(map) = schema else {
        // `true`, `false`: no keyword to remove.
        return;
    };
    for key in ANNOTATIONS {
        map.remove(*key);
    }
    for (keyword, value) in map.iter_mut() {
        let keyword = keyword.as_str();
        if SCHEMA_KEYWORDS.contains(&keyword) {
            strip_annotations(value);
        } else if SCHEMA_ARRAY_KEYWORDS.contains(&keyword) {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(strip_annotations);
            }
        } else if SCHEMA_MAP_KEYWORDS.contains(&keyword) {
            if let Value::Object(entries) = value {
                entries.values_mut().for_each(strip_annotations);
            }
        }
    }
}

/// The JSON Schema dialect of every exported document.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema (draft 2020-12) of `schema` in the given view.
///
/// The function is total: every schema of the model has an export, and the result is
/// deterministic (object keys in `serde_json`'s sorted order, `required` and alternatives in
/// wire order).
#[must_use]
pub fn to_json_schema(schema: &Schema, view: View) -> Value {
    let keys = def_keys(schema.types.keys());
    let looping = schema.looping_newtypes();
    let exporter = Exporter {
        schema,
        view,
        keys: &keys,
        looping: &looping,
        flat_depth: core::cell::Cell::new(0),
    };
    let mut doc = Map::new();
    doc.insert("$schema".into(), DRAFT_2020_12.into());
    if let Type::Named(name) = &schema.root {
        doc.insert("title".into(), name.clone().into());
    }
    if let Some(id) = &schema.contract {
        doc.insert(CONTRACT.into(), id.to_string().into());
        doc.insert(MODE.into(), schema.mode.as_str().into());
    }
    doc.insert(VIEW.into(), view.as_str().into());
    for (key, value) in exporter.ty(&schema.root) {
        doc.insert(key, value);
    }
    if !schema.types.is_empty() {
        let defs: Map<String, Value> = schema
            .types
            .iter()
            .map(|(name, def)| {
                let key = keys.get(name).cloned().unwrap_or_else(|| name.clone());
                (key, Value::Object(exporter.def(name, def)))
            })
            .collect();
        doc.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(doc)
}

/// The `$defs` key of every display name: a valid JSON-pointer token and URI fragment, unique.
fn def_keys<'a>(names: impl Iterator<Item = &'a String>) -> BTreeMap<String, String> {
    let mut used = BTreeSet::new();
    let mut keys = BTreeMap::new();
    for name in names {
        let base = def_key_base(name);
        let mut key = base.clone();
        let mut n = 2_u32;
        while used.contains(&key) {
            key = format!("{base}-{n}");
            n = n.saturating_add(1);
        }
        used.insert(key.clone());
        keys.insert(name.clone(), key);
    }
    keys
}

/// `Handoff<app::Step>` → `Handoff-app.Step`; see the module docs.
fn def_key_base(name: &str) -> String {
    let mut out = String::new();
    let mut pending_dash = false;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push('.');
            pending_dash = false;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            if pending_dash && !out.is_empty() && !out.ends_with('.') {
                out.push('-');
            }
            pending_dash = false;
            out.push(c);
        } else if c.is_ascii() {
            pending_dash = true;
        } else {
            if pending_dash && !out.is_empty() && !out.ends_with('.') {
                out.push('-');
            }
            pending_dash = false;
            out.push_str(&format!("_u{:04X}", u32::from(c)));
        }
    }
    if out.is_empty() {
        out.push_str("type");
    }
    out
}

impl Exporter<'_> {
    fn receiver(&self) -> bool {
        self.view == View::Receiver
    }

    fn reference(&self, name: &str) -> Map<String, Value> {
        let key = self.keys.get(name).map_or(name, String::as_str);
        keywords([("$ref", format!("#/$defs/{key}").into())])
    }

    /// The schema of a named type under `$defs`.
    fn def(&self, name: &str, def: &TypeDef) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("title".into(), name.into());
        if !def.doc.is_empty() {
            out.insert("description".into(), def.doc.clone().into());
        }
        out.insert(RUST.into(), def.rust_path.clone().into());
        let body = match &def.body {
            Body::Struct(s) => self.struct_schema(s, &[]),
            Body::Enum(e) => self.enum_schema(e),
            // A newtype of itself (through newtypes only: `struct Grid(Box<Grid>)`) has no
            // value; its `$ref` to itself would admit any, and loop.
            Body::Newtype(_) if self.looping.contains(name) => obj(json!({ "not": {} })),
            Body::Newtype(inner) => self.ty(inner),
            Body::Views { sender, receiver } => match self.view {
                View::Sender => self.ty(sender),
                View::Receiver => self.ty(receiver),
            },
        };
        out.extend(body);
        out
    }

    /// The schema of a type on the wire.
    fn ty(&self, ty: &Type) -> Map<String, Value> {
        match ty {
            Type::Unit => obj(json!({ "type": "null" })),
            Type::Bool => obj(json!({ "type": "boolean" })),
            Type::Int(k) => int_schema(*k),
            Type::Float(_) => obj(json!({ "type": "number" })),
            Type::Char => obj(json!({ "type": "string", "minLength": 1, "maxLength": 1 })),
            Type::String(fmt) => string_schema(*fmt),
            Type::Any => Map::new(),
            Type::Option(inner) => nullable(self.ty(inner)),
            Type::List(item) => keywords([
                ("type", "array".into()),
                ("items", Value::Object(self.ty(item))),
            ]),
            Type::Set(item) => keywords([
                ("type", "array".into()),
                ("items", Value::Object(self.ty(item))),
                ("uniqueItems", true.into()),
            ]),
            Type::Array(item, n) => keywords([
                ("type", "array".into()),
                ("items", Value::Object(self.ty(item))),
                ("minItems", (*n).into()),
                ("maxItems", (*n).into()),
            ]),
            // `prefixItems` must not be empty in 2020-12: an empty tuple is an empty array.
            Type::Tuple(items) if items.is_empty() => {
                obj(json!({ "type": "array", "maxItems": 0 }))
            }
            Type::Tuple(items) => {
                let prefix: Vec<Value> = items.iter().map(|t| Value::Object(self.ty(t))).collect();
                keywords([
                    ("type", "array".into()),
                    ("prefixItems", Value::Array(prefix)),
                    ("items", false.into()),
                    ("minItems", items.len().into()),
                ])
            }
            Type::Map(key, value) => {
                let mut out = keywords([
                    ("type", "object".into()),
                    ("additionalProperties", Value::Object(self.ty(value))),
                ]);
                if let Some(names) = self.key_schema(key) {
                    out.insert("propertyNames".into(), Value::Object(names));
                }
                out
            }
            Type::Named(name) => self.reference(name),
            Type::Constrained(c) => constrained_schema(c),
        }
    }

    /// A field's schema with its annotations; `key` is the key it is written or read under.
    fn field_schema(&self, field: &FieldDef, key: &str) -> Map<String, Value> {
        // A sender writes a field skipped when `None` as what its `Option` holds.
        let mut out = self.ty(match self.view {
            View::Sender => field.sent_type(),
            View::Receiver => &field.ty,
        });
        if !field.doc.is_empty() {
            out.insert("description".into(), field.doc.clone().into());
        }
        if field.rust_name != key {
            out.insert(RUST.into(), field.rust_name.clone().into());
        }
        if field.provenance == crate::model::Provenance::Assumption {
            out.insert(PROVENANCE.into(), field.provenance.as_str().into());
        }
        if !field.renamed_from.is_empty() {
            out.insert(RENAMED_FROM.into(), field.renamed_from.clone().into());
        }
        out
    }

    /// An object schema of a struct's fields, beside the required tags of the internally
    /// tagged enums it is a variant of.
    fn struct_schema(&self, def: &StructDef, tags: &[Tag]) -> Map<String, Value> {
        // In the order written, made a map once at the end (`properties_map`).
        let mut properties: Vec<(String, Value)> =
            Vec::with_capacity(tags.len() + def.fields.len());
        let mut required: Vec<String> = Vec::new();
        let mut constraints: Vec<Value> = Vec::new();
        for (name, schema) in tags {
            properties.push((name.clone(), Value::Object(schema.clone())));
            required.push(name.clone());
        }
        for field in &def.fields {
            match self.view {
                View::Sender => {
                    let Some(sender) = &field.sender else {
                        continue;
                    };
                    if tags.iter().any(|(tag, _)| *tag == sender.name) {
                        // serde writes the key twice, which nothing reads back.
                        if sender.emit == Emit::Always {
                            return obj(json!({ "not": {} }));
                        }
                        continue;
                    }
                    let schema = self.field_schema(field, &sender.name);
                    properties.push((sender.name.clone(), Value::Object(schema)));
                    if sender.emit == Emit::Always {
                        required.push(sender.name.clone());
                    }
                }
                View::Receiver => {
                    let Some(receiver) = &field.receiver else {
                        continue;
                    };
                    // serde takes the tags out before the struct sees the keys: a field is
                    // never read under a tag's key.
                    let names: Vec<&String> = std::iter::once(&receiver.name)
                        .chain(&receiver.aliases)
                        .filter(|n| !tags.iter().any(|(tag, _)| tag == *n))
                        .collect();
                    let Some(&primary) = names.first() else {
                        if receiver.required {
                            // Never read, yet required: serde never reads the variant.
                            return obj(json!({ "not": {} }));
                        }
                        continue;
                    };
                    let schema = self.field_schema(field, primary);
                    // Each alias a copy; the primary key the schema itself.
                    let aliases: Vec<(String, Map<String, Value>)> = names
                        .iter()
                        .skip(1)
                        .map(|alias| {
                            let mut alias_schema = schema.clone();
                            alias_schema.insert(ALIAS_OF.into(), primary.clone().into());
                            ((*alias).clone(), alias_schema)
                        })
                        .collect();
                    properties.push((primary.clone(), Value::Object(schema)));
                    for (alias, alias_schema) in aliases {
                        properties.push((alias, Value::Object(alias_schema)));
                    }
                    if names.len() == 1 {
                        if receiver.required {
                            required.push(primary.clone());
                        }
                    } else if receiver.required {
                        // Exactly one of the keys: serde rejects two as a duplicate field.
                        let one_of: Vec<Value> =
                            names.iter().map(|n| required_keys(&[n])).collect();
                        constraints
                            .push(Value::Object(keywords([("oneOf", Value::Array(one_of))])));
                    } else {
                        constraints.push(at_most_one(&names));
                    }
                }
            }
        }
        let properties = properties_map(properties);
        // A flattened enum's variant that takes every key left leaves the struct's own.
        let rest = enums::Rest {
            own: if def.flattened.is_empty() {
                Vec::new()
            } else {
                properties.keys().cloned().collect()
            },
            judged: def.flattened.len() == 1 && def.unknown != Unknown::Capture,
        };
        let mut out = keywords([
            ("type", "object".into()),
            ("properties", Value::Object(properties)),
        ]);
        if !required.is_empty() {
            out.insert("required".into(), unique(required).into());
        }
        for flat in &def.flattened {
            if let Some(schema) = self.flat_enum_schema(flat, &rest) {
                constraints.push(Value::Object(schema));
            }
        }
        if !constraints.is_empty() {
            out.insert("allOf".into(), constraints.into());
        }
        // The flattened enums themselves, which their keys in `allOf` (opened for the
        // struct's, or left out where they constrain nothing) do not say.
        let flattened: Vec<Value> = def
            .flattened
            .iter()
            .filter(|flat| match self.view {
                View::Sender => flat.sent,
                View::Receiver => flat.read,
            })
            .map(|flat| {
                Value::Object(keywords([
                    ("rust", flat.rust_name.clone().into()),
                    ("type", Value::Object(self.ty(&flat.ty))),
                ]))
            })
            .collect();
        if !flattened.is_empty() {
            out.insert(FLATTENED.into(), flattened.into());
        }
        // A flattened enum's keys are properties of its subschema: only
        // `unevaluatedProperties` sees them as known.
        let closing = if def.flattened.is_empty() {
            "additionalProperties"
        } else {
            "unevaluatedProperties"
        };
        let extra = def.extra.as_ref().map(|t| Value::Object(self.ty(t)));
        match (self.view, def.unknown, extra) {
            (_, Unknown::Capture, Some(extra)) => {
                out.insert(closing.into(), extra);
            }
            (View::Sender, _, _) | (View::Receiver, Unknown::Deny, _) => {
                out.insert(closing.into(), false.into());
            }
            (View::Receiver, Unknown::Ignore, _) | (View::Receiver, Unknown::Capture, None) => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EnumDef, FlatEnumDef, IntKind, Repr, VariantDefKind};

    #[test]
    fn properties_written_twice_keep_the_last_value_as_insert_would() {
        let written = [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)];
        let mut inserted = Map::new();
        for (key, value) in written {
            inserted.insert(key.to_owned(), value.into());
        }
        let listed = written
            .iter()
            .map(|(key, value)| ((*key).to_owned(), Value::from(*value)))
            .collect();
        assert_eq!(keywords::properties_map(listed), inserted);
        assert_eq!(inserted["a"], 5);
    }

    #[test]
    fn def_keys_are_pointer_and_fragment_safe_and_unique() {
        let names: Vec<String> = [
            "Handoff<RefundRequest>",
            "app::Step",
            "Foo<A, B>",
            "Foo<A<B>>",
            "Wrap<array<u8; 4>>",
            "Zürich",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let keys = def_keys(names.iter());
        assert_eq!(keys["Handoff<RefundRequest>"], "Handoff-RefundRequest");
        assert_eq!(keys["app::Step"], "app.Step");
        assert_eq!(keys["Foo<A, B>"], "Foo-A-B");
        assert_eq!(keys["Foo<A<B>>"], "Foo-A-B-2");
        assert_eq!(keys["Wrap<array<u8; 4>>"], "Wrap-array-u8-4");
        assert_eq!(keys["Zürich"], "Z_u00FCrich");
        for key in keys.values() {
            assert!(key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)));
        }
    }

    /// `struct Root { id: String, #[serde(flatten)] kind: Kind }` with
    /// `#[serde(untagged)] enum Kind { Again(Box<Root>), Leaf { x: String } }`: the variant
    /// holds the struct the enum is flattened into. The export once recursed without end.
    #[test]
    fn a_flattened_enum_holding_its_own_struct_is_inlined_to_a_depth() {
        use crate::model::{FieldDef, TypeDef, VariantDef};
        let string = || Type::String(crate::shape::StringFormat::Plain);
        let variant = |name: &str, kind| VariantDef {
            rust_name: name.to_owned(),
            sender: Some(name.to_owned()),
            receiver: vec![name.to_owned()],
            other: false,
            untagged: false,
            kind,
            doc: String::new(),
        };
        let def = |body| TypeDef {
            rust_path: String::new(),
            doc: String::new(),
            body,
        };
        let root = StructDef {
            fields: vec![FieldDef::plain("id", string())],
            flattened: vec![FlatEnumDef {
                rust_name: "kind".to_owned(),
                ty: Type::Named("Kind".to_owned()),
                sent: true,
                read: true,
                doc: String::new(),
            }],
            ..StructDef::default()
        };
        let leaf = StructDef {
            fields: vec![FieldDef::plain("x", string())],
            ..StructDef::default()
        };
        let kind = EnumDef {
            repr: Repr::Untagged,
            variants: vec![
                variant(
                    "Again",
                    VariantDefKind::Newtype(Type::Named("Root".to_owned())),
                ),
                variant("Leaf", VariantDefKind::Struct(leaf)),
            ],
            deny_unknown_fields: false,
        };
        let schema = Schema {
            contract: None,
            mode: crate::contract::Mode::Full,
            allowances: Default::default(),
            root: Type::Named("Root".to_owned()),
            types: [
                ("Root".to_owned(), def(Body::Struct(root))),
                ("Kind".to_owned(), def(Body::Enum(kind))),
            ]
            .into_iter()
            .collect(),
        };
        for view in [View::Sender, View::Receiver] {
            let export = to_json_schema(&schema, view);
            let validator = jsonschema::draft202012::new(&export).expect("compiles");
            assert!(validator.is_valid(&json!({"id": "a", "x": "b"})));
            assert!(!validator.is_valid(&json!({"x": "b"})));
        }
    }

    #[test]
    fn nullable_widens_simple_types_and_wraps_the_rest() {
        assert_eq!(
            Value::Object(nullable(obj(json!({"type": "integer", "minimum": 0})))),
            json!({"type": ["integer", "null"], "minimum": 0})
        );
        assert_eq!(
            Value::Object(nullable(obj(json!({"$ref": "#/$defs/A"})))),
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
        assert_eq!(Value::Object(nullable(Map::new())), json!({}));
    }

    #[test]
    fn integer_bounds_are_written_only_when_representable() {
        assert_eq!(
            Value::Object(int_schema(IntKind::U64)),
            json!({"type": "integer", "minimum": 0, "maximum": u64::MAX})
        );
        assert_eq!(
            Value::Object(int_schema(IntKind::I8)),
            json!({"type": "integer", "minimum": -128, "maximum": 127})
        );
        assert_eq!(
            Value::Object(int_schema(IntKind::U128)),
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(
            Value::Object(int_schema(IntKind::I128)),
            json!({"type": "integer"})
        );
    }

    #[test]
    fn constrained_values_export_their_sets_lengths_and_patterns() {
        let export = |text: &str| {
            let ty = crate::text::parse_type(text).unwrap();
            let Type::Constrained(c) = ty else {
                panic!("{text} is not constrained")
            };
            Value::Object(constrained_schema(&c))
        };
        assert_eq!(
            export("u8(1..)"),
            json!({"type": "integer", "minimum": 1, "maximum": 255})
        );
        assert_eq!(
            export("i32(..=-1, 1..)"),
            json!({"type": "integer", "minimum": -2147483648_i64, "maximum": 2147483647, "not": {"enum": [0]}})
        );
        assert_eq!(
            export("u8(0, 2, 9)"),
            json!({"type": "integer", "enum": [0, 2, 9]})
        );
        assert_eq!(
            export("u8(0..=2, 9..=12)"),
            json!({"type": "integer", "minimum": 0, "maximum": 12,
                   "anyOf": [{"minimum": 0, "maximum": 2}, {"minimum": 9, "maximum": 12}]})
        );
        // Bounds a JSON number cannot hold are left out, as for `u128` itself.
        assert_eq!(
            export("i128(..=-1, 1..)"),
            json!({"type": "integer", "not": {"enum": [0]}})
        );
        // ... and where the bound left out is not the kind's own, the values are said by
        // the annotation.
        assert_eq!(
            export("i128(-170141183460469231731687303715884105727..)"),
            json!({"type": "integer",
                   "x-handoff-integers": "i128(-170141183460469231731687303715884105727..)"})
        );
        assert_eq!(
            export("u128(0, 18446744073709551616..)"),
            json!({"type": "integer", "minimum": 0,
                   "anyOf": [{"minimum": 0, "maximum": 0}, {}],
                   "x-handoff-integers": "u128(0, 18446744073709551616..)"})
        );
        assert_eq!(
            export("i128(0..)"),
            json!({"type": "integer", "minimum": 0, "x-handoff-integers": "i128(0..)"})
        );
        assert_eq!(
            export("u128(1..)"),
            json!({"type": "integer", "minimum": 1})
        );
        assert_eq!(export("u8()"), json!({"not": {}}));
        assert_eq!(
            export("string(uuid, len 1..=36, pattern \"^[0-9a-f-]+$\")"),
            json!({"type": "string", "format": "uuid", "minLength": 1, "maxLength": 36,
                   "pattern": "^[0-9a-f-]+$"})
        );
        assert_eq!(
            export("string(len 2..)"),
            json!({"type": "string", "minLength": 2})
        );
    }

    #[test]
    fn an_empty_tuple_is_an_empty_array_without_empty_prefix_items() {
        let schema = Schema {
            contract: None,
            mode: crate::Mode::Full,
            allowances: crate::compat::Allowances::new(),
            root: Type::Tuple(Vec::new()),
            types: std::collections::BTreeMap::new(),
        };
        for view in [View::Sender, View::Receiver] {
            let out = to_json_schema(&schema, view);
            assert_eq!(out["type"], "array");
            assert_eq!(out["maxItems"], 0);
            assert!(out.get("prefixItems").is_none(), "{out}");
        }
    }

    #[test]
    fn without_annotations_removes_keywords_never_data() {
        let doc = json!({
            "x-handoff-contract": "a/v1",
            "x-handoff-view": "receiver",
            "type": "object",
            "properties": {
                "x-handoff-rust": {"type": "string", "x-handoff-rust": "rust_name"},
                "kind": {"const": {"x-handoff-mode": "data"}, "enum": [{"x-handoff-view": 1}]},
            },
            "allOf": [{"oneOf": [{"x-handoff-catch-all": true, "required": ["kind"]}]}],
            "$defs": {"x-handoff-format": {"items": {"x-handoff-format": "time"}}},
        });
        let stripped = without_annotations(doc);
        assert_eq!(
            stripped,
            json!({
                "type": "object",
                "properties": {
                    "x-handoff-rust": {"type": "string"},
                    "kind": {"const": {"x-handoff-mode": "data"}, "enum": [{"x-handoff-view": 1}]},
                },
                "allOf": [{"oneOf": [{"required": ["kind"]}]}],
                "$defs": {"x-handoff-format": {"items": {}}},
            })
        );
    }

    #[test]
    fn annotations_are_sorted_and_each_an_x_handoff_key() {
        assert_eq!(ANNOTATIONS.len(), 11);
        assert!(ANNOTATIONS.windows(2).all(|w| w[0] < w[1]));
        assert!(ANNOTATIONS.iter().all(|k| k.starts_with("x-handoff-")));
    }

    #[test]
    fn required_names_are_never_repeated() {
        assert_eq!(unique(vec!["kind", "id", "kind"]), vec!["kind", "id"]);
    }
}
