//! The kinds of change Confluent Schema Registry's JSON Schema compatibility check tells apart
//! (properties under open, closed and partially open content models; required with or without
//! a default; types, enums, bounds, lengths, patterns, items, combined types), written as our
//! own schema pairs in the canonical text, with our verdict in each direction and why.
//!
//! Only the list of kinds comes from Confluent's public documentation and articles about it;
//! nothing of their code (Confluent Community License) is used. Confluent judges two JSON
//! Schemas as sets of valid documents; we judge what a writer's serde code can write (its
//! sender view) against what a reader's accepts (its receiver view). The two differ where a
//! JSON Schema allows more than its writer writes, above all in an open content model: a Rust
//! writer never writes a key it does not declare, so adding or removing an optional field
//! under an open model breaks nothing for us, where Confluent refuses one direction.
//!
//! Each case is `old` → `new`. **Backward** is `check(old, new)`: a reader on `new` reads what
//! a writer on `old` writes; **forward** is `check(new, old)`. The rule ids of the breaking
//! findings are asserted, so a verdict that changes changes this file.

use contract_schema::compat::check;
use contract_schema::model::Schema;
use contract_schema::text;

/// A contract `peer-order/v1` whose root struct `Order` has `unknown` (`ignore`: open;
/// `deny`: closed; `capture` followed by an `extra` line: partially open) and `fields` (each a
/// `field` block), followed by `more` types.
fn order(unknown: &str, fields: &[String], more: &str) -> Schema {
    let mut text = String::from(
        "contract peer-order/v1\nmode full\nroot Order\n\nstruct Order\n  rust \"peer::Order\"\n",
    );
    text.push_str(&format!("  unknown {unknown}\n"));
    for field in fields {
        text.push_str(field);
    }
    text.push_str(more);
    text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A field always sent and required by the reader.
fn required(name: &str, ty: &str) -> String {
    format!("  field {name}: {ty}\n    send \"{name}\" always\n    receive \"{name}\" required\n")
}

/// A field sent when present and optional for the reader (`Option` with `default` and
/// `skip_serializing_if`).
fn optional(name: &str, ty: &str) -> String {
    format!(
        "  field {name}: option<{ty}>\n    send \"{name}\" if-present\n    receive \"{name}\" optional\n"
    )
}

/// A field always sent, that the reader may miss: `#[serde(default)]`, JSON Schema's
/// "required with a default" as a peer's producer and consumer see it.
fn with_default(name: &str, ty: &str) -> String {
    format!("  field {name}: {ty}\n    send \"{name}\" always\n    receive \"{name}\" optional\n")
}

/// The rule ids of the breaking findings of `check(writer, reader)`.
fn breaks(writer: &Schema, reader: &Schema) -> Vec<&'static str> {
    check(writer, reader)
        .breaking()
        .map(|f| f.rule.id())
        .collect()
}

/// (backward, forward): the breaking rule ids of each direction.
fn verdict(old: &Schema, new: &Schema) -> (Vec<&'static str>, Vec<&'static str>) {
    (breaks(old, new), breaks(new, old))
}

const NONE: Vec<&'static str> = Vec::new();

fn id() -> String {
    required("id", "string")
}

#[test]
fn an_optional_property_added_to_an_open_model() {
    // Both directions hold: the old writer never sends `note` and the new reader may miss
    // it; the new writer's `note` is an unknown key the old reader ignores.
    // Confluent refuses backward: an open JSON Schema lets an old document carry `note`
    // with any type. A Rust writer writes only its declared fields, so no such document is
    // written.
    let old = order("ignore", &[id()], "");
    let new = order("ignore", &[id(), optional("note", "string")], "");
    assert_eq!(verdict(&old, &new), (NONE, NONE));
}

#[test]
fn an_optional_property_removed_from_an_open_model() {
    // Both hold, by the same reasoning reversed. Confluent refuses forward (the old schema
    // would check a new document's `note` against its old type); no new writer writes it.
    let old = order("ignore", &[id(), optional("note", "string")], "");
    let new = order("ignore", &[id()], "");
    assert_eq!(verdict(&old, &new), (NONE, NONE));
}

#[test]
fn an_optional_property_added_to_a_closed_model() {
    // Backward holds (old writers never send it). Forward breaks: the old reader denies
    // unknown fields and the new writer may send `note`. Confluent agrees on both.
    let old = order("deny", &[id()], "");
    let new = order("deny", &[id(), optional("note", "string")], "");
    assert_eq!(verdict(&old, &new), (NONE, vec!["UNKNOWN_FIELD_DENIED"]));
}

#[test]
fn an_optional_property_removed_from_a_closed_model() {
    // The mirror image: the new reader denies the `note` old writers may send. Confluent
    // agrees.
    let old = order("deny", &[id(), optional("note", "string")], "");
    let new = order("deny", &[id()], "");
    assert_eq!(verdict(&old, &new), (vec!["UNKNOWN_FIELD_DENIED"], NONE));
}

#[test]
fn an_optional_property_added_to_a_partially_open_model() {
    // A partially open model: other keys allowed, each a string (`#[serde(flatten)]` of a
    // `HashMap<String, String>`). Adding `note: option<u32>`. Forward breaks: the new
    // writer's `note` (a number, or null) lands in the old reader's map of strings. Confluent
    // refuses the same direction, the new property's type not fitting `additionalProperties`.
    //
    // Backward holds for us, and this is a gap of ours, not a difference of principle: the
    // old writer's map may hold a key `note` with a string, which the new reader takes for
    // its field and refuses. Confluent refuses backward here. The assertion pins today's
    // verdict so that the day the engine compares a writer's captured keys with the
    // reader's new fields, this case changes with it.
    let partial = "capture\n  extra string";
    let old = order(partial, &[id()], "");
    let new = order(partial, &[id(), optional("note", "u32")], "");
    assert_eq!(
        verdict(&old, &new),
        (NONE, vec!["NULL_NOT_ACCEPTED", "TYPE_CHANGED"])
    );
}

#[test]
fn a_required_property_added_without_a_default() {
    // Backward breaks: old writers never send `amount`, the new reader requires it. Forward
    // holds: the old reader ignores it (open). Confluent agrees.
    let old = order("ignore", &[id()], "");
    let new = order("ignore", &[id(), required("amount", "u32")], "");
    assert_eq!(verdict(&old, &new), (vec!["REQUIRED_FIELD_NOT_SENT"], NONE));
}

#[test]
fn a_required_property_added_with_a_default() {
    // Both hold: the new reader fills the default where old writers send nothing, and the
    // new writer always sends it, which the open old reader ignores. Confluent lists this as
    // a kind of its own, apart from a required property without a default; as JSON Schema
    // validation does not fill defaults, whether it passes there depends on the content
    // model, where for us it depends only on serde's `default`.
    let old = order("ignore", &[id()], "");
    let new = order("ignore", &[id(), with_default("amount", "u32")], "");
    assert_eq!(verdict(&old, &new), (NONE, NONE));
}

#[test]
fn a_property_made_required() {
    // `option<string>` sent if present → `string` always sent and required: backward breaks
    // twice (old writers may omit it, and may write `null`); forward holds (the old reader
    // accepts both). Confluent: a property added to `required` breaks backward alike.
    let old = order("ignore", &[id(), optional("note", "string")], "");
    let new = order("ignore", &[id(), required("note", "string")], "");
    assert_eq!(
        verdict(&old, &new),
        (
            vec!["REQUIRED_FIELD_MAY_BE_OMITTED", "NULL_NOT_ACCEPTED"],
            NONE
        )
    );
}

#[test]
fn a_type_widened_and_a_type_changed() {
    // u32 → i64: every u32 is an i64 (backward holds); an i64 may not fit a u32 reader
    // (forward breaks). Confluent's integer → number widening is judged the same way.
    let old = order("ignore", &[required("amount", "u32")], "");
    let new = order("ignore", &[required("amount", "i64")], "");
    assert_eq!(verdict(&old, &new), (NONE, vec!["INT_OUT_OF_RANGE"]));
    // string → u32: no value of one is a value of the other: both break.
    let old = order("ignore", &[required("amount", "string")], "");
    let new = order("ignore", &[required("amount", "u32")], "");
    assert_eq!(
        verdict(&old, &new),
        (vec!["TYPE_CHANGED"], vec!["TYPE_CHANGED"])
    );
}

#[test]
fn an_enum_extended() {
    // A variant added: new readers read every old value (backward holds); old readers do not
    // know the new one (forward breaks). Confluent: the same.
    let status = |variants: &[&str]| {
        let mut text = String::from("\nenum Status\n  rust \"peer::Status\"\n  repr external\n");
        for v in variants {
            text.push_str(&format!(
                "  variant {v}: unit\n    send \"{v}\"\n    receive \"{v}\"\n"
            ));
        }
        text
    };
    let old = order(
        "ignore",
        &[required("status", "Status")],
        &status(&["Ready"]),
    );
    let new = order(
        "ignore",
        &[required("status", "Status")],
        &status(&["Ready", "Blocked"]),
    );
    assert_eq!(verdict(&old, &new), (NONE, vec!["ENUM_VALUE_UNKNOWN"]));
}

#[test]
fn bounds_lengths_and_patterns() {
    // A bound raised: the new reader accepts every old value; old readers refuse the new
    // ones above 100. Confluent: `maximum` increased is backward compatible, likewise.
    let old = order("ignore", &[required("qty", "u32(..=100)")], "");
    let new = order("ignore", &[required("qty", "u32(..=1000)")], "");
    assert_eq!(
        verdict(&old, &new),
        (NONE, vec!["VALUE_OUTSIDE_CONSTRAINT"])
    );

    // A length limit dropped: the same shape of verdict (`maxLength` removed).
    let old = order("ignore", &[required("code", "string(len ..=8)")], "");
    let new = order("ignore", &[required("code", "string")], "");
    assert_eq!(
        verdict(&old, &new),
        (NONE, vec!["VALUE_OUTSIDE_CONSTRAINT"])
    );

    // A pattern added: old writers' strings need not match it (backward breaks); a new
    // writer's strings are strings for the old reader (forward holds). Confluent: a pattern
    // added is backward incompatible too.
    let old = order("ignore", &[required("code", "string")], "");
    let new = order(
        "ignore",
        &[required("code", "string(pattern \"^[A-Z]+$\")")],
        "",
    );
    assert_eq!(
        verdict(&old, &new),
        (vec!["VALUE_OUTSIDE_CONSTRAINT"], NONE)
    );
}

#[test]
fn items_changed() {
    // The items of a list widened u8 → u16: backward holds, forward breaks, element-wise.
    // Confluent compares `items` the same way.
    let old = order("ignore", &[required("codes", "list<u8>")], "");
    let new = order("ignore", &[required("codes", "list<u16>")], "");
    assert_eq!(verdict(&old, &new), (NONE, vec!["INT_OUT_OF_RANGE"]));
}

#[test]
fn a_combined_type_extended() {
    // `string` → `option<string>`, JSON Schema's `["string", "null"]` (a combined type):
    // the new reader reads every old value; the new writer may send `null`, which the old
    // reader refuses. Confluent: a type added to a union is backward compatible only.
    let old = order("ignore", &[required("note", "string")], "");
    let new = order(
        "ignore",
        &["  field note: option<string>\n    send \"note\" always\n    receive \"note\" required\n"
            .to_owned()],
        "",
    );
    assert_eq!(verdict(&old, &new), (NONE, vec!["NULL_NOT_ACCEPTED"]));
}
