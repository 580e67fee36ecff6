//! JSON Schema import: a peer's schema (pydantic, zod, or this crate's own export) read into
//! a [`Schema`](crate::model::Schema), so that `compat::check` judges it against a Rust
//! contract with the usual rule ids.
//!
//! [`import`] reads a document in the view of its author's position: a **producer's** schema
//! as a sender view ([`View::Sender`]: what it may write), a **consumer's** as a receiver
//! view ([`View::Receiver`]: what it accepts). The two differ where the model cannot hold a
//! keyword: for a producer the keyword is **dropped with a warning** (its writer only grows,
//! which is cautious: a break is never hidden), for a consumer it is an **error** (ignoring a
//! reader's constraint could hide a break). Every warning and error carries the JSON pointer
//! (RFC 6901) of the keyword it is about; their `Display` writes it as a URI fragment,
//! `#/properties/amount/multipleOf: …`, and `#: …` for the document itself (so that it is not
//! mistaken for the pointer `/`, the key `""`). No message holds a value of the document
//! beyond keyword and property names.
//!
//! # What is read
//!
//! - **Dialects**: 2020-12 (also 2019-09) and draft-07 (also draft-06); a document without
//!   `$schema` is 2020-12 (pydantic writes none). In draft-07 a `$ref`'s siblings are ignored,
//!   as the draft says; in 2020-12 they must be annotations.
//! - **Named types**: a `$ref` to any local pointer (`#/$defs/…`, `#/definitions/…`, `#` for a
//!   recursive root) is a named type, read once (recursion and `$ref` cycles end there),
//!   named by its `title` when it has one, else by the last token of the pointer (`~1` read
//!   as `/` and `~0` as `~`); `x-handoff-rust` is its Rust path. A struct or an enum written
//!   inline is a named type too, named by its `title`, else by where it sits, as a path:
//!   `Order::payment` (a property), `Order::lines::Item` (a list's items), `Order::Value` (a
//!   map's values), `Pair::0` (a tuple's item). An inline enum's title that spells its
//!   property's name (pydantic titles every field, a `Literal[…]`'s too: `reason_code` is
//!   `Reason Code`) names no type, so it is named by where it sits. The root is a named type when it is a
//!   struct or an enum (named by its `title`, else `Root`). Every name is one the canonical
//!   text reads back: a name in the text's syntax is kept (`RefundRequest`,
//!   `billing::Order`, `Page<Order>`), any other is made one from its letters and digits (a
//!   title `refund request` is `RefundRequest`, `order-status` is `OrderStatus`), a
//!   built-in type's word alone is its capital (`string` is `String`), and a name given
//!   already gets `_2`, `_3`, … (before its generic arguments: `Page_2<Order>`). A `$ref`
//!   outside the document is not followed (what the model cannot hold). Schemas nest at
//!   most 64 deep: deeper is an error.
//! - **Objects**: `properties` and `required` are a struct's fields (a producer writes a
//!   required field always, another only when present; a consumer requires the required
//!   ones), each named by its `x-handoff-rust`, else its key; a name a field before it has
//!   (two properties annotated alike, outside an alias's group) gets `_2`, `_3`, …, with a
//!   warning. `additionalProperties` absent or `true`: a producer may write other keys of any
//!   value (the struct captures them), a consumer ignores them; `false`: none (a consumer
//!   denies them); a schema: other keys of that value, both views. An object with neither
//!   `properties` nor `required`, not closed, is a **map**: `additionalProperties` its values,
//!   `propertyNames` its keys (the export's integer-key patterns, the digits of integer
//!   ranges, are those integers over the smallest kind that holds them, as an integer's
//!   bounds are; its older any-digits patterns `u128`/`i128` keys; `["true", "false"]` a
//!   `bool` key, digits listed a set of integers, else a string schema).
//! - **Unions** (`unions`; the tagged ones in `tagged`): `anyOf`/`oneOf` with
//!   `{"type": "null"}` among the alternatives is an `option` of the rest, as is
//!   `type: [T, "null"]`. Alternatives that are strings (`const`, `enum`) are a string enum;
//!   objects with a string `const` (or `enum`) under one common key are a tagged union
//!   (pydantic's and zod's discriminated unions; serde's internally tagged enum), adjacently
//!   tagged when every alternative holds only the tag and one other key, the same in all
//!   (see below); strings and objects of exactly one key, closed, are serde's externally
//!   tagged enum; an `anyOf` whose first alternative is such an enum, inline, is that enum
//!   with the other alternatives as `#[serde(untagged)]` variants; anything else is an
//!   untagged enum (variants named by their `title`, else `V0`, `V1`, …). A tagged variant's
//!   `$ref`ed object is read as the variant's fields. `type: [A, B]` is an untagged enum of
//!   the two. Variants are named apart as a Rust enum's are: a catch-all titled as the unit
//!   variant beside it (this crate's export of `#[serde(other)]`) is that variant, and a
//!   title given twice is suffixed (`X`, `X_2`, as type and field names are).
//! - **Scalars**: string `enum`/`const` (a string enum), `boolean`, `null`, `integer`
//!   (`minimum`, `maximum`, their exclusive forms, `enum`/`const` of integers, `not` of
//!   listed integers, an `anyOf` of ranges: a set of integers over the smallest kind that
//!   holds it, unsigned first, so that `{"minimum": 0, "maximum": 255}` is `u8`; unbounded it
//!   is `i128`, bounded below by 0 only `u128`), `number` (`f64`), `string` (`format` `uuid`,
//!   `date-time`, `date`, `ipv4`, `ipv6`, `uri`, this crate's `x-handoff-format`,
//!   `minLength`, `maxLength`, `pattern`; exactly one character is `char`).
//! - **Arrays**: `items` (a list), with `uniqueItems` (a set), with `minItems` = `maxItems`
//!   (a fixed-length array); `prefixItems` or draft-07's `items: [...]` (a tuple; for a
//!   producer, a warning when the schema admits other lengths); `maxItems: 0` alone (the
//!   empty tuple).
//! - **Provenance**: this crate's export says which fields are working assumptions
//!   (`x-handoff-provenance`); a peer's schema (one without `x-handoff-view`) says nothing of
//!   it, and a peer's consumer relies on no confirmation: its fields are read as accepting
//!   either (`assumption`), so that a Rust producer's assumption is no
//!   `PROVENANCE_WEAKENED` against it, which no payload could witness. A peer producer's
//!   fields are confirmed, the default.
//! - **This crate's annotations**: `x-handoff-contract` and `x-handoff-mode` (the contract id
//!   and mode), `x-handoff-view` (a warning when it is not the view read), on a named type
//!   `x-handoff-rust`, on a field `x-handoff-rust` (its Rust name), `x-handoff-provenance`,
//!   `x-handoff-renamed-from`, `x-handoff-alias-of` (in a consumer's schema: another key of
//!   the named field, with the export's "exactly one"/"at most one" `allOf` constraints), on
//!   an alternative `x-handoff-catch-all` (a `#[serde(other)]` variant), on a string
//!   `x-handoff-format`, on a struct `x-handoff-flattened` (its flattened enums, see below),
//!   on an integer `x-handoff-integers` (its values exactly, where a bound
//!   past `i64`/`u64` is left out of `minimum`/`maximum`: read together with the keywords).
//!
//! # Ignored, refused, warned
//!
//! - **Ignored** in both views: `title`, `description`, `default`, `examples`, `deprecated`,
//!   `readOnly`, `writeOnly`, `discriminator`, `$comment`, `$id`, `$anchor`, `contentEncoding`,
//!   `contentMediaType`, `contentSchema`, and every other `x-` key.
//! - **What the model cannot hold** (a warning for a producer, dropped; an error for a
//!   consumer): a number's bounds and `multipleOf`, a `format` the model lacks (`email`,
//!   pydantic's `binary`, JSON Schema's `time`, which needs an offset), an array's length
//!   bounds other than a fixed length, `patternProperties` (a producer's object is then
//!   open), `if`/`then`/`else`, `not` outside the integer shapes above, `$dynamicRef`, an
//!   `allOf` beside properties other than the alias constraints (a producer's object is then
//!   open; in a producer's schema the alias constraints are groups of keys it writes one
//!   of, see below), a `oneOf` of alternatives that may overlap (two of the same JSON type not told
//!   apart by a tag; a producer's is read as `anyOf`), `false` and other schemas that admit
//!   no value, a `$ref` outside the document, and every other keyword of either draft where
//!   it is not read. A keyword of neither draft is ignored with a warning.
//! - **Warned** in both views: a root that constrains nothing (zod-to-json-schema given a
//!   zod 4 schema returns only `$schema`); in a producer's schema, a property with a
//!   `default` that is not required (pydantic's serialization schema without
//!   `json_schema_serialization_defaults_required=True`: the field is written, but the
//!   schema does not say so).
//! - **Errors** in both views: a document that is not JSON Schema the import reads (an
//!   unknown `$schema`, a keyword of the wrong JSON type, a `$ref` to nothing), and a
//!   malformed `x-handoff-contract` or `x-handoff-mode`.
//!
//! # The export read back
//!
//! For every snapshot `S`, `import(to_json_schema(S, Receiver), Receiver)` reads what `S`
//! reads and `import(to_json_schema(S, Sender), Sender)` writes what `S` writes:
//! `compat::check` finds between them and `S` what it finds between `S` and itself (tested on
//! every snapshot of the repository and every type of the fidelity catalogue). Enums with
//! `#[serde(untagged)]` variants (an `anyOf` of the tagged enum and the untagged contents) and
//! an externally tagged enum of one variant (a `oneOf` of one titled alternative) read back.
//! What the export does not say, the import cannot know, and reads as the JSON it describes:
//!
//! - integer kinds (`u16(0..=255)` is read as `u8`, also as a map key), float kinds (`f32`
//!   is `f64`), newtypes (a `$defs` entry is a newtype of what it holds; an inline one is
//!   its content), and whether a one-character string was a `char` (it is read as one);
//! - an internally tagged newtype variant of a struct is written as the struct's fields
//!   beside the tag, as a struct variant is, and read as a struct variant, which the
//!   compatibility engine compares with a newtype variant of a struct field by field (one
//!   wire form);
//! - without the annotations, a catch-all is the export's "any other string" (`not` of an
//!   `enum` of strings, beside at most `type: string`), and a field's aliases are the
//!   export's alias constraint (a group of keys of one schema, the first the field's own);
//!   in a producer's schema, a string enum with a catch-all is any string (it may write any);
//! - a receiver view read as a producer's schema (what `handoff diff EXPORT.json SNAP` does
//!   with it): a field read under several keys is there "exactly one of them" (or "at most
//!   one" for an optional field), which a sender view cannot hold as one field (a field is
//!   written under one key): in a producer's schema such an object, the export's or a
//!   peer's, is read as an untagged enum of its alternatives, one struct per choice of a
//!   key in each group (at most 1,024 alternatives; beyond, the further groups are dropped
//!   with a warning and the object read as open), which the compatibility engine compares
//!   with a reader's struct alternative by alternative: a reader of that field with those
//!   aliases reads every one;
//! - an adjacently tagged enum is told from an internally tagged one whose variants each hold
//!   one field of the same name by that field: adjacent when two alternatives hold it, or one
//!   holds it as an optional `null` (a unit variant's content, in the receiver view); so an
//!   adjacently tagged enum with one variant that carries content is read as internally
//!   tagged, a struct variant of one field, the same JSON, which the compatibility engine
//!   compares with an adjacently tagged reader of that tag as such (the field as the
//!   content, no field as a unit variant);
//! - a flattened enum (an `allOf` beside the properties, closed by `unevaluatedProperties`)
//!   is read back from this crate's `x-handoff-flattened` (each flattened enum's Rust field
//!   name and type, a `$ref` to the enum's own definition), which says of each `allOf` entry
//!   that is not an alias constraint that it is a flattened enum's keys. Without it, its keys'
//!   inlined alternatives (opened for the struct's own keys, so that a struct variant's
//!   `deny_unknown_fields` is gone, or left out where they constrain nothing) are not read
//!   back: a consumer's is an error at the `allOf` entry, a producer's is dropped with a
//!   warning and its object read as open. A flattened enum's own definition that is no enum
//!   (a consumer's string enum with a catch-all is any string, as serde reads it alone) is
//!   read from its `allOf` entry, the keys serde reads it under when flattened (a unit
//!   variant's name holding `null`; no other key goes to the catch-all), or, for an
//!   optional one, from the names listed beside it; a member that is no enum even so is not
//!   read (an error for a consumer, dropped with a warning and its object opened for a
//!   producer, at its `x-handoff-flattened` entry).
//!
//! The tests in `contract-schema/tests/json_schema_import.rs` and
//! `tests/tests/json_schema_roundtrip.rs` pin each of these.

mod documents;
mod importer;
mod objects;
mod outcome;
mod scalars;
mod tagged;
mod unions;

use serde_json::Value;

use crate::model::View;

pub use outcome::{ImportError, ImportWarning, Imported};

/// Reads a peer's JSON Schema (2020-12 or draft-07) into a
/// [`Schema`](crate::model::Schema), in the view of its author: [`View::Sender`] for a
/// producer's, [`View::Receiver`] for a consumer's (see the module docs for what each keyword
/// becomes).
///
/// ```
/// use contract_schema::json_schema::{import, View};
/// use serde_json::json;
///
/// let peer = json!({
///     "title": "Refund",
///     "type": "object",
///     "properties": {"orderId": {"type": "string"}, "amount": {"type": "number", "minimum": 0}},
///     "required": ["orderId"],
/// });
/// let producer = import(&peer, View::Sender)?;
/// assert_eq!(producer.warnings[0].pointer, "/properties/amount/minimum");
/// // A consumer's bound cannot be dropped.
/// let err = import(&peer, View::Receiver).unwrap_err();
/// assert_eq!(err.to_string().split(':').next(), Some("#/properties/amount/minimum"));
/// # Ok::<(), contract_schema::json_schema::ImportError>(())
/// ```
///
/// # Errors
///
/// An [`ImportError`] with the JSON pointer of the keyword: one the model cannot hold in a
/// consumer's schema, or a document that is not a JSON Schema this reads. It never panics,
/// whatever the document.
pub fn import(doc: &Value, view: View) -> Result<Imported, ImportError> {
    let dialect = documents::dialect(doc)?;
    let mut importer = importer::Importer::new(doc, view, dialect);
    let schema = importer.document()?;
    Ok(Imported {
        schema,
        warnings: importer.warnings,
    })
}
