//! Fix hints in a peer's terms (`compat::check_peer`): for each rule a peer's JSON Schema
//! meets against a Rust contract, the hint a pydantic, a zod and an unnamed JSON Schema peer
//! is told, as a producer and as a consumer; none of them is Rust advice, and a peer not
//! named gets the JSON Schema form with the pydantic and the zod form beside it.

use contract_schema::arbitrary::arb_schema;
use contract_schema::compat::{check, check_peer, CompatReport, Peer, PeerSides};
use contract_schema::json_schema::{import, View};
use contract_schema::text::parse;
use contract_schema::Schema;
use proptest::prelude::*;
use serde_json::{json, Value};

/// A Rust struct `T` of the fields given in the canonical text (`field …` blocks), and
/// further types after it.
fn rust(fields: &str) -> Schema {
    rust_with("ignore", fields, "")
}

fn rust_with(unknown: &str, fields: &str, types: &str) -> Schema {
    parse(&format!(
        "root T\n\nstruct T\n  rust \"app::T\"\n  unknown {unknown}\n{fields}{types}"
    ))
    .unwrap_or_else(|e| panic!("parses: {e}"))
}

/// One field `name: ty`, sent always and read as required.
fn field(name: &str, ty: &str) -> String {
    field_as(name, ty, "always", "required")
}

fn field_as(name: &str, ty: &str, send: &str, receive: &str) -> String {
    format!("  field {name}: {ty}\n    send \"{name}\" {send}\n    receive \"{name}\" {receive}\n")
}

/// A peer's object schema of these properties, `required` listed; pydantic's titles when
/// `titled`.
fn object(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

/// The one finding of a check of a peer producer's `doc` against the Rust `consumer`, as
/// told to `peer`.
fn producer(doc: &Value, consumer: &Schema, peer: Peer) -> Told {
    let writer = import(doc, View::Sender).expect("imports").schema;
    Told::of(
        &check_peer(&writer, consumer, PeerSides::producer(peer)),
        peer,
    )
}

/// The one finding of a check of the Rust `producer` against a peer consumer's `doc`.
fn consumer(producer: &Schema, doc: &Value, peer: Peer) -> Told {
    let reader = import(doc, View::Receiver).expect("imports").schema;
    Told::of(
        &check_peer(producer, &reader, PeerSides::consumer(peer)),
        peer,
    )
}

/// A finding as a peer is told it.
#[derive(Debug)]
struct Told {
    rule: &'static str,
    path: String,
    hint: String,
}

impl Told {
    fn of(report: &CompatReport, peer: Peer) -> Told {
        let findings = report.findings();
        assert_eq!(findings.len(), 1, "{report}");
        let f = &findings[0];
        for rust_word in RUST_ADVICE {
            assert!(
                !f.hint.contains(rust_word),
                "Rust advice to {peer}: {:?}",
                f.hint
            );
        }
        assert_eq!(f.fix, contract_schema::compat::Fix::Described);
        if peer == Peer::JsonSchema {
            assert!(
                f.hint.contains("(pydantic: ") && f.hint.contains("; zod: "),
                "{:?}",
                f.hint
            );
        }
        Told {
            rule: f.rule.id(),
            path: f.path.clone(),
            hint: f.hint.clone(),
        }
    }

    /// The hint is `rule`'s at `path`, and holds every one of `parts`.
    fn says(&self, rule: &str, path: &str, parts: &[&str]) {
        assert_eq!((self.rule, self.path.as_str()), (rule, path), "{self:?}");
        for part in parts {
            assert!(self.hint.contains(part), "{part:?} not in {:?}", self.hint);
        }
    }
}

/// Each peer's hint for one case: pydantic's, zod's, then the JSON Schema one.
fn each_peer(told: impl Fn(Peer) -> Told) -> [Told; 3] {
    [
        told(Peer::Pydantic),
        told(Peer::Zod),
        told(Peer::JsonSchema),
    ]
}

const U64_MAX: &str = "18446744073709551615";

#[test]
fn int_out_of_range_for_a_producer_names_the_consumers_bounds() {
    // pydantic's plain `int` (unbounded) read as a `u64`.
    let doc = object(
        json!({"amount": {"title": "Amount", "type": "integer"}}),
        &["amount"],
    );
    let rust = rust(&field("amount", "u64"));
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust, p));
    py.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &[&format!("`Field(ge=0, le={U64_MAX})`")],
    );
    assert_eq!(
        py.hint,
        format!("keep `amount` within what the consumer reads: `Field(ge=0, le={U64_MAX})`")
    );
    // zod's `.int()` stops at 2^53 - 1, inside a `u64`: only the lower bound is needed.
    zod.says("INT_OUT_OF_RANGE", "amount", &["`z.number().int().min(0)`"]);
    js.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &[&format!("`\"minimum\": 0, \"maximum\": {U64_MAX}`")],
    );
    // A narrower consumer: zod states both bounds.
    let [_, zod, _] = each_peer(|p| producer(&doc, &rust_u8(), p));
    zod.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &["`z.number().int().min(0).max(255)`"],
    );
}

fn rust_u8() -> Schema {
    rust(&field("amount", "u8"))
}

#[test]
fn int_out_of_range_for_a_consumer_names_the_producers_bounds_or_says_zod_cannot() {
    // A zod consumer `z.number().int().min(0).max(255)` reading a Rust `u32`.
    let doc = object(
        json!({"amount": {"type": "integer", "minimum": 0, "maximum": 255}}),
        &["amount"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&rust(&field("amount", "u32")), &doc, p));
    py.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &["`Field(ge=0, le=4294967295)`", "plain `int`"],
    );
    zod.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &["`z.number().int().min(0).max(4294967295)`"],
    );
    js.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &["`\"minimum\": 0, \"maximum\": 4294967295`"],
    );
    // A `u64` producer: no JavaScript number holds it, and zod is told so.
    let [py, zod, _] = each_peer(|p| consumer(&rust(&field("amount", "u64")), &doc, p));
    py.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &[&format!("`Field(ge=0, le={U64_MAX})`")],
    );
    zod.says(
        "INT_OUT_OF_RANGE",
        "amount",
        &[
            "no zod number reads them all",
            "±9007199254740991",
            "as strings",
        ],
    );
}

#[test]
fn an_integer_outside_the_consumers_set_gets_its_bounds() {
    // A `u8` producer read as a `NonZeroU8`.
    let doc = object(
        json!({"n": {"title": "N", "type": "integer", "minimum": 0, "maximum": 255}}),
        &["n"],
    );
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("n", "u8(1..)")), p));
    py.says("VALUE_OUTSIDE_CONSTRAINT", "n", &["`Field(ge=1, le=255)`"]);
    zod.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "n",
        &["`z.number().int().min(1).max(255)`"],
    );
    js.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "n",
        &["`\"minimum\": 1, \"maximum\": 255`"],
    );
    // A set with a gap: the widest part of what the producer writes that one range holds.
    let [py, ..] = each_peer(|p| producer(&doc, &rust(&field("n", "i16(..=-1, 1..)")), p));
    py.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "n",
        &["widest range", "`Field(ge=1, le=255)`"],
    );
}

#[test]
fn a_string_outside_the_consumers_length_gets_it() {
    let rust_64 = rust(&field("code", "string(len ..=64)"));
    let doc = object(
        json!({"code": {"title": "Code", "type": "string"}}),
        &["code"],
    );
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust_64, p));
    py.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`Field(max_length=64)`"],
    );
    zod.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`z.string().max(64)`"],
    );
    js.says("VALUE_OUTSIDE_CONSTRAINT", "code", &["`\"maxLength\": 64`"]);
    // A consumer of at most 8 characters reading the Rust producer's 64.
    let narrow = object(
        json!({"code": {"type": "string", "maxLength": 8}}),
        &["code"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&rust_64, &narrow, p));
    py.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`Field(max_length=64)`, or no bounds"],
    );
    zod.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`z.string().max(64)`, or no bounds"],
    );
    js.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`\"maxLength\": 64`, or no bounds"],
    );
    // A pattern the producer does not promise: the same pattern, as text.
    let rust_pattern = rust(&field("code", "string(pattern \"^[A-Z]+$\")"));
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust_pattern, p));
    py.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`Field(pattern=r\"^[A-Z]+$\")`", "as text"],
    );
    zod.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`z.string().regex(/^[A-Z]+$/)`"],
    );
    js.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "code",
        &["`\"pattern\": \"^[A-Z]+$\"`"],
    );
}

#[test]
fn floats_into_integers_either_way() {
    let doc = object(json!({"n": {"title": "N", "type": "number"}}), &["n"]);
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("n", "u32")), p));
    py.says(
        "FLOAT_INTO_INTEGER",
        "n",
        &["`int` with `Field(ge=0, le=4294967295)`"],
    );
    zod.says(
        "FLOAT_INTO_INTEGER",
        "n",
        &["`z.number().int().min(0).max(4294967295)`"],
    );
    js.says(
        "FLOAT_INTO_INTEGER",
        "n",
        &["`\"type\": \"integer\", \"minimum\": 0"],
    );
    let int_reader = object(json!({"n": {"type": "integer"}}), &["n"]);
    let [py, zod, js] = each_peer(|p| consumer(&rust(&field("n", "f64")), &int_reader, p));
    py.says("FLOAT_INTO_INTEGER", "n", &["`float`, not `int`"]);
    zod.says(
        "FLOAT_INTO_INTEGER",
        "n",
        &["`z.number()`, without `.int()`"],
    );
    js.says("FLOAT_INTO_INTEGER", "n", &["`\"type\": \"number\"`"]);
}

#[test]
fn strings_into_a_char_either_way() {
    let doc = object(
        json!({"grade": {"title": "Grade", "type": "string"}}),
        &["grade"],
    );
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("grade", "char")), p));
    py.says(
        "STRING_INTO_CHAR",
        "grade",
        &["`Field(min_length=1, max_length=1)`"],
    );
    zod.says("STRING_INTO_CHAR", "grade", &["`z.string().length(1)`"]);
    js.says(
        "STRING_INTO_CHAR",
        "grade",
        &["`\"minLength\": 1, \"maxLength\": 1`"],
    );
    let one = object(
        json!({"grade": {"type": "string", "minLength": 1, "maxLength": 1}}),
        &["grade"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&rust(&field("grade", "string")), &one, p));
    py.says("STRING_INTO_CHAR", "grade", &["a plain `str`"]);
    zod.says(
        "STRING_INTO_CHAR",
        "grade",
        &["`z.string()`, without `.length(1)`"],
    );
    js.says("STRING_INTO_CHAR", "grade", &["no `maxLength`"]);
}

#[test]
fn string_formats_name_the_peers_types() {
    let doc = object(json!({"id": {"title": "Id", "type": "string"}}), &["id"]);
    for (format, py_type, zod_type, name) in [
        ("uuid", "`UUID`", "`z.uuid()`", "uuid"),
        (
            "date-time",
            "`AwareDatetime`",
            "`z.iso.datetime({ offset: true })`",
            "date-time",
        ),
        ("date", "`date`", "`z.iso.date()`", "date"),
        ("ipv4", "`IPv4Address`", "`z.ipv4()`", "ipv4"),
        ("ipv6", "`IPv6Address`", "`z.ipv6()`", "ipv6"),
        ("uri", "`AnyUrl`", "`z.url()`", "uri"),
    ] {
        let rust = rust(&field("id", &format!("string({format})")));
        let [py, zod, js] = each_peer(|p| producer(&doc, &rust, p));
        py.says("STRING_FORMAT_CHANGED", "id", &[py_type]);
        zod.says("STRING_FORMAT_CHANGED", "id", &[zod_type]);
        js.says(
            "STRING_FORMAT_CHANGED",
            "id",
            &[&format!("`\"format\": \"{name}\"`")],
        );
    }
    // A consumer of a format the Rust producer does not promise reads any string.
    let uuid = object(json!({"id": {"type": "string", "format": "uuid"}}), &["id"]);
    let [py, zod, js] = each_peer(|p| consumer(&rust(&field("id", "string")), &uuid, p));
    py.says("STRING_FORMAT_CHANGED", "id", &["a plain `str`"]);
    zod.says("STRING_FORMAT_CHANGED", "id", &["`z.string()`"]);
    js.says("STRING_FORMAT_CHANGED", "id", &["no `format`"]);
}

#[test]
fn nullability_either_way() {
    // pydantic's `note: Optional[str] = None`, always written (it may be `null`), read by a
    // Rust `note: String`.
    let doc = object(
        json!({"note": {"title": "Note", "anyOf": [{"type": "string"}, {"type": "null"}], "default": null}}),
        &["note"],
    );
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("note", "string")), p));
    py.says(
        "NULL_NOT_ACCEPTED",
        "note",
        &["declare it `str`, not `Optional[str]`"],
    );
    zod.says(
        "NULL_NOT_ACCEPTED",
        "note",
        &["drop `.nullable()` or `.nullish()`"],
    );
    assert!(!zod.hint.contains(".optional()"), "{}", zod.hint);
    js.says("NULL_NOT_ACCEPTED", "note", &["remove `\"null\"`"]);
    // A Rust reader that lets it be absent (`#[serde(default)]`): zod may leave it out.
    let absent_ok = rust(&field_as("note", "string", "always", "optional"));
    let [_, zod, _] = each_peer(|p| producer(&doc, &absent_ok, p));
    zod.says(
        "NULL_NOT_ACCEPTED",
        "note",
        &["`.optional()` leaves the key out instead"],
    );
    // A Rust `Option<String>` written as `null` when `None`, read by zod's `z.string()`
    // (required) and by zod's `.optional()`.
    let nullable = rust(&field_as("note", "option<string>", "always", "optional"));
    let required = object(json!({"note": {"type": "string"}}), &["note"]);
    let [py, zod, js] = each_peer(|p| consumer(&nullable, &required, p));
    py.says("NULL_NOT_ACCEPTED", "note", &["`Optional[str]`"]);
    zod.says("NULL_NOT_ACCEPTED", "note", &["`z.string().nullable()`"]);
    js.says("NULL_NOT_ACCEPTED", "note", &["add `{\"type\": \"null\"}`"]);
    let optional = object(json!({"note": {"type": "string"}}), &[]);
    let [_, zod, _] = each_peer(|p| consumer(&nullable, &optional, p));
    zod.says(
        "NULL_NOT_ACCEPTED",
        "note",
        &["`z.string().nullish()` instead of `.optional()`"],
    );
}

#[test]
fn a_field_that_may_be_absent_either_way() {
    // zod's `.optional()` producer, or pydantic's default not listed as required, read by a
    // Rust consumer that requires the field.
    let doc = object(json!({"note": {"type": "string"}}), &[]);
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("note", "string")), p));
    py.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["json_schema_serialization_defaults_required=True"],
    );
    zod.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["drop `.optional()`"],
    );
    js.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["list `\"note\"` in `required`"],
    );
    // A Rust `Option<String>` skipped when `None`, read by pydantic's `note: Optional[str]`
    // without a default (required) and by zod's `z.string().nullable()`.
    let skipped = rust(&field_as("note", "option<string>", "if-some", "optional"));
    let required = object(
        json!({"note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
        &["note"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&skipped, &required, p));
    py.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["`note: Optional[str] = None`"],
    );
    zod.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["`note: z.string().nullish()`"],
    );
    js.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["remove `\"note\"` from `required`"],
    );
    let not_null = object(json!({"note": {"type": "string"}}), &["note"]);
    let [_, zod, _] = each_peer(|p| consumer(&skipped, &not_null, p));
    zod.says(
        "REQUIRED_FIELD_MAY_BE_OMITTED",
        "note",
        &["`note: z.string().optional()`"],
    );
}

#[test]
fn a_field_never_sent_either_way() {
    let doc = object(
        json!({"amount": {"title": "Amount", "type": "integer", "minimum": 0, "maximum": 255}}),
        &["amount"],
    );
    let two = rust(&format!(
        "{}{}",
        field("amount", "u8"),
        field("orderRef", "string")
    ));
    let [py, zod, js] = each_peer(|p| producer(&doc, &two, p));
    py.says(
        "REQUIRED_FIELD_NOT_SENT",
        "orderRef",
        &["add `orderRef: str`", "Field(alias=\"orderRef\")"],
    );
    zod.says(
        "REQUIRED_FIELD_NOT_SENT",
        "orderRef",
        &["add `orderRef: z.string()`"],
    );
    js.says(
        "REQUIRED_FIELD_NOT_SENT",
        "orderRef",
        &["add `\"orderRef\"` to `properties` and `required`"],
    );
    let wants_note = object(
        json!({"amount": {"type": "integer", "minimum": 0, "maximum": 255}, "note": {"type": "string"}}),
        &["amount", "note"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&rust_u8(), &wants_note, p));
    py.says(
        "REQUIRED_FIELD_NOT_SENT",
        "note",
        &["= None`, or remove it"],
    );
    zod.says(
        "REQUIRED_FIELD_NOT_SENT",
        "note",
        &["`note: z.string().optional()`, or remove it"],
    );
    js.says(
        "REQUIRED_FIELD_NOT_SENT",
        "note",
        &["remove `\"note\"` from `required`, or remove it"],
    );
}

#[test]
fn a_literal_field_is_told_as_a_literal_whatever_its_title() {
    // pydantic titles a `Literal[…]` field after its name (`reason_code` → `Reason Code`),
    // which is no class of the peer's code: the hint spells the `Literal` out.
    for title in ["Reason Code", "Reasoncode", "reason_code"] {
        let wants_reason = object(
            json!({
                "amount": {"type": "integer", "minimum": 0, "maximum": 255},
                "reason_code": {"title": title, "type": "string", "enum": ["damaged", "late"]},
            }),
            &["amount", "reason_code"],
        );
        let [py, zod, _] = each_peer(|p| consumer(&rust_u8(), &wants_reason, p));
        py.says(
            "REQUIRED_FIELD_NOT_SENT",
            "reason_code",
            &["`reason_code: Optional[Literal[\"damaged\", \"late\"]] = None`"],
        );
        zod.says(
            "REQUIRED_FIELD_NOT_SENT",
            "reason_code",
            &["z.enum([\"damaged\", \"late\"])"],
        );
    }
    // A title that is not the field's name is a type's, as a generator writes a class's.
    let wants_reason = object(
        json!({
            "amount": {"type": "integer", "minimum": 0, "maximum": 255},
            "reason_code": {"title": "Reason", "type": "string", "enum": ["damaged", "late"]},
        }),
        &["amount", "reason_code"],
    );
    let [py, _, _] = each_peer(|p| consumer(&rust_u8(), &wants_reason, p));
    py.says(
        "REQUIRED_FIELD_NOT_SENT",
        "reason_code",
        &["`reason_code: Optional[Reason] = None`"],
    );
}

#[test]
fn a_likely_rename_either_way() {
    let doc = object(
        json!({"orderId": {"title": "Orderid", "type": "string"}}),
        &["orderId"],
    );
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("orderRef", "string")), p));
    py.says(
        "FIELD_LIKELY_RENAMED",
        "orderRef",
        &["`Field(alias=\"orderRef\")`", "written as `orderId`"],
    );
    zod.says(
        "FIELD_LIKELY_RENAMED",
        "orderRef",
        &["rename the key `orderId` to `orderRef`"],
    );
    js.says(
        "FIELD_LIKELY_RENAMED",
        "orderRef",
        &["rename the property `\"orderId\"` to `\"orderRef\"`"],
    );
    let reads_ref = object(json!({"orderRef": {"type": "string"}}), &["orderRef"]);
    let [py, zod, _] = each_peer(|p| consumer(&rust(&field("orderId", "string")), &reads_ref, p));
    py.says(
        "FIELD_LIKELY_RENAMED",
        "orderRef",
        &["`Field(alias=\"orderId\")` on `orderRef`"],
    );
    zod.says(
        "FIELD_LIKELY_RENAMED",
        "orderRef",
        &["rename the key `orderRef` to `orderId`"],
    );
}

/// A Rust struct with `reason`, a string enum of `values`.
fn rust_reason(values: &[&str]) -> Schema {
    let variants: String = values
        .iter()
        .map(|v| format!("  variant V{v}: unit\n    send \"{v}\"\n    receive \"{v}\"\n"))
        .collect();
    rust_with(
        "ignore",
        &field("reason", "Reason"),
        &format!("\nenum Reason\n  rust \"app::Reason\"\n  repr external\n{variants}"),
    )
}

#[test]
fn enum_values_either_way() {
    // pydantic's `Literal["damaged", "late", "lost"]` read by a Rust enum without `lost`.
    let doc = object(
        json!({"reason": {"title": "Reason", "type": "string", "enum": ["damaged", "late", "lost"]}}),
        &["reason"],
    );
    let known = rust_reason(&["damaged", "late"]);
    let [py, zod, js] = each_peer(|p| producer(&doc, &known, p));
    py.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["`Literal[\"damaged\", \"late\"]`"],
    );
    zod.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["`z.enum([\"damaged\", \"late\"])`"],
    );
    js.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["`\"enum\": [\"damaged\", \"late\"]`"],
    );
    // zod's `z.enum(["damaged", "late"])` reading a Rust enum that writes `lost`.
    let reader = object(
        json!({"reason": {"type": "string", "enum": ["damaged", "late"]}}),
        &["reason"],
    );
    let [py, zod, js] =
        each_peer(|p| consumer(&rust_reason(&["damaged", "late", "lost"]), &reader, p));
    py.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["add `\"lost\"` to the `Literal[...]`"],
    );
    zod.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["add `\"lost\"` to its `z.enum([...])`"],
    );
    js.says(
        "ENUM_VALUE_UNKNOWN",
        "reason(lost)",
        &["add `\"lost\"` to its `enum`"],
    );
}

/// A Rust struct with `method`, an internally tagged enum (tag `tag`) of struct variants.
fn rust_method(tag: &str, kinds: &[&str]) -> Schema {
    let variants: String = kinds
        .iter()
        .map(|k| {
            format!("  variant V{k}: struct\n    send \"{k}\"\n    receive \"{k}\"\n    unknown ignore\n    field {k}_code: string\n      send \"{k}_code\" always\n      receive \"{k}_code\" required\n")
        })
        .collect();
    rust_with(
        "ignore",
        &field("method", "Method"),
        &format!(
            "\nenum Method\n  rust \"app::Method\"\n  repr internal tag \"{tag}\"\n{variants}"
        ),
    )
}

/// A peer's discriminated union under `tag` of `kinds`, each with its own `KIND_code`.
fn union(tag: &str, kinds: &[&str]) -> Value {
    let alternatives: Vec<Value> = kinds
        .iter()
        .map(|k| {
            let code = format!("{k}_code");
            json!({"type": "object", "properties": {tag: {"type": "string", "const": k}, code.clone(): {"type": "string"}}, "required": [tag, code], "additionalProperties": false})
        })
        .collect();
    object(json!({"method": {"oneOf": alternatives}}), &["method"])
}

#[test]
fn union_members_and_tags_either_way() {
    let doc = union("kind", &["card", "voucher", "cash"]);
    let [py, zod, js] =
        each_peer(|p| producer(&doc, &rust_method("kind", &["card", "voucher"]), p));
    py.says(
        "ENUM_VARIANT_UNKNOWN",
        "method(cash)",
        &["remove the model whose `kind` is `Literal[\"cash\"]`"],
    );
    zod.says(
        "ENUM_VARIANT_UNKNOWN",
        "method(cash)",
        &["remove `z.object({ kind: z.literal(\"cash\"), … })`"],
    );
    js.says(
        "ENUM_VARIANT_UNKNOWN",
        "method(cash)",
        &["remove the alternative for `\"cash\"`"],
    );
    let reader = union("kind", &["card", "cash"]);
    let [py, zod, _] =
        each_peer(|p| consumer(&rust_method("kind", &["card", "voucher"]), &reader, p));
    py.says(
        "ENUM_VARIANT_UNKNOWN",
        "method(voucher)",
        &["add the model whose `kind` is `Literal[\"voucher\"]`"],
    );
    zod.says(
        "ENUM_VARIANT_UNKNOWN",
        "method(voucher)",
        &["add `z.object({ kind: z.literal(\"voucher\"), … })`"],
    );
    // The same union under another tag.
    let doc = union("type", &["card", "voucher"]);
    let [py, zod, js] =
        each_peer(|p| producer(&doc, &rust_method("kind", &["card", "voucher"]), p));
    py.says(
        "ENUM_TAG_CHANGED",
        "method",
        &["`Field(discriminator=\"kind\")`"],
    );
    zod.says(
        "ENUM_TAG_CHANGED",
        "method",
        &["`z.discriminatedUnion(\"kind\", [...])`"],
    );
    js.says("ENUM_TAG_CHANGED", "method", &["under `\"kind\"`"]);
    let [py, ..] = each_peer(|p| consumer(&rust_method("kind", &["card", "voucher"]), &doc, p));
    py.says(
        "ENUM_TAG_CHANGED",
        "method",
        &["`Field(discriminator=\"kind\")`", "the producer's"],
    );
}

#[test]
fn additional_properties_either_way() {
    // A pydantic producer without `extra="forbid"` may write other keys: a Rust consumer
    // with `deny_unknown_fields` refuses them.
    let doc = object(
        json!({"n": {"title": "N", "type": "integer", "minimum": 0, "maximum": 255}}),
        &["n"],
    );
    let deny = rust_with("deny", &field("n", "u8"), "");
    let [py, zod, js] = each_peer(|p| producer(&doc, &deny, p));
    py.says(
        "UNKNOWN_FIELD_DENIED",
        "*",
        &["`model_config = ConfigDict(extra=\"forbid\")`"],
    );
    zod.says(
        "UNKNOWN_FIELD_DENIED",
        "*",
        &["a plain `z.object` (or `.strict()`), not `.loose()`"],
    );
    js.says(
        "UNKNOWN_FIELD_DENIED",
        "*",
        &["`\"additionalProperties\": false`"],
    );
    // A closed producer object with a field the consumer does not know.
    let mut closed = object(
        json!({"n": {"type": "integer", "minimum": 0, "maximum": 255}, "note": {"type": "string"}}),
        &["n", "note"],
    );
    closed["additionalProperties"] = json!(false);
    let [py, zod, js] = each_peer(|p| producer(&closed, &deny, p));
    py.says("UNKNOWN_FIELD_DENIED", "note", &["`Field(exclude=True)`"]);
    zod.says(
        "UNKNOWN_FIELD_DENIED",
        "note",
        &["remove `note` from the object"],
    );
    js.says(
        "UNKNOWN_FIELD_DENIED",
        "note",
        &["remove `\"note\"` from `properties`"],
    );
    // zod's `.strict()` (pydantic's `extra="forbid"`) consumer without `note`, reading a
    // Rust producer that writes it.
    let mut strict = object(
        json!({"n": {"type": "integer", "minimum": 0, "maximum": 255}}),
        &["n"],
    );
    strict["additionalProperties"] = json!(false);
    let writes_note = rust(&format!("{}{}", field("n", "u8"), field("note", "string")));
    let [py, zod, js] = each_peer(|p| consumer(&writes_note, &strict, p));
    py.says(
        "UNKNOWN_FIELD_DENIED",
        "note",
        &[
            "drop `extra=\"forbid\"` from `model_config`",
            "or declare `note`",
        ],
    );
    zod.says(
        "UNKNOWN_FIELD_DENIED",
        "note",
        &["drop `.strict()`", "or declare `note`"],
    );
    js.says(
        "UNKNOWN_FIELD_DENIED",
        "note",
        &["drop `\"additionalProperties\": false`"],
    );
}

#[test]
fn another_rule_names_the_other_sides_type() {
    // A string where a list of `u8` is read: TYPE_CHANGED, with the type in each peer's terms.
    let doc = object(json!({"n": {"title": "N", "type": "string"}}), &["n"]);
    let [py, zod, js] = each_peer(|p| producer(&doc, &rust(&field("n", "list<u8>")), p));
    py.says("TYPE_CHANGED", "n", &["`list[int]`"]);
    zod.says(
        "TYPE_CHANGED",
        "n",
        &["`z.array(z.number().int().min(0).max(255))`"],
    );
    js.says("TYPE_CHANGED", "n", &["the contract's `list<u8>`"]);
    // A consumer of a string, reading the Rust producer's `bool`.
    let reads_string = object(json!({"n": {"type": "string"}}), &["n"]);
    let [py, zod, js] = each_peer(|p| consumer(&rust(&field("n", "bool")), &reads_string, p));
    py.says(
        "TYPE_CHANGED",
        "n",
        &["read what the producer writes at `n`: `bool`"],
    );
    zod.says("TYPE_CHANGED", "n", &["`z.boolean()`"]);
    js.says("TYPE_CHANGED", "n", &["the contract's `bool`"]);
}

#[test]
fn an_integer_consumer_narrower_than_its_kind_gets_the_producers_bounds() {
    // A consumer of 1 to 255 (`u8(1..)` read back) reading the Rust producer's `u8`.
    let doc = object(
        json!({"n": {"type": "integer", "minimum": 1, "maximum": 255}}),
        &["n"],
    );
    let [py, zod, js] = each_peer(|p| consumer(&rust_u8_n(), &doc, p));
    py.says("VALUE_OUTSIDE_CONSTRAINT", "n", &["`Field(ge=0, le=255)`"]);
    zod.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "n",
        &["`z.number().int().min(0).max(255)`"],
    );
    js.says(
        "VALUE_OUTSIDE_CONSTRAINT",
        "n",
        &["`\"minimum\": 0, \"maximum\": 255`"],
    );
}

fn rust_u8_n() -> Schema {
    rust(&field("n", "u8"))
}

#[test]
fn two_peers_each_get_their_side() {
    // A pydantic producer's plain `int` against a zod consumer of at most 255.
    let writer = import(
        &object(json!({"n": {"title": "N", "type": "integer"}}), &["n"]),
        View::Sender,
    )
    .expect("imports")
    .schema;
    let reader = import(
        &object(
            json!({"n": {"type": "integer", "minimum": 0, "maximum": 255}}),
            &["n"],
        ),
        View::Receiver,
    )
    .expect("imports")
    .schema;
    let peers = PeerSides {
        producer: Some(Peer::Pydantic),
        consumer: Some(Peer::Zod),
    };
    let report = check_peer(&writer, &reader, peers);
    let hint = &report.findings()[0].hint;
    assert!(hint.starts_with("in the producer (pydantic): keep `n` within what the consumer reads: `Field(ge=0, le=255)`; or in the consumer (zod): "), "{hint}");
    // Without peers, the engine's own hints.
    assert_eq!(
        check_peer(&writer, &reader, PeerSides::default()),
        check(&writer, &reader)
    );
}

#[test]
fn the_origin_of_a_document() {
    let pydantic = object(
        json!({"n": {"title": "N", "type": "integer"}, "m": {"$ref": "#/$defs/M"}}),
        &["n"],
    );
    assert_eq!(Peer::of_document(&pydantic), Some(Peer::Pydantic));
    let mut zod = object(
        json!({"n": {"type": "integer", "minimum": -9_007_199_254_740_991_i64, "maximum": 9_007_199_254_740_991_i64}}),
        &["n"],
    );
    zod["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert_eq!(Peer::of_document(&zod), Some(Peer::Zod));
    // One untitled property is no pydantic; a `$schema` neither.
    let mixed = object(
        json!({"n": {"title": "N", "type": "integer"}, "m": {"type": "string"}}),
        &[],
    );
    assert_eq!(Peer::of_document(&mixed), Some(Peer::JsonSchema));
    let mut with_schema = pydantic.clone();
    with_schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert_eq!(Peer::of_document(&with_schema), Some(Peer::JsonSchema));
    assert_eq!(Peer::of_document(&json!(true)), Some(Peer::JsonSchema));
    // This crate's own export: its fixes are Rust's.
    let ours = json!({"type": "object", "x-handoff-view": "receiver"});
    assert_eq!(Peer::of_document(&ours), None);
    for peer in Peer::ALL {
        assert_eq!(Peer::from_name(peer.as_str()), Some(peer));
    }
    assert_eq!(Peer::from_name("msgspec"), None);
}

/// The words of Rust advice no peer is told.
const RUST_ADVICE: [&str; 6] = [
    "#[serde",
    "#[handoff",
    "Option<",
    "contract version",
    "new major",
    "serde",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever the two schemas, `check_peer` finds what `check` finds (rules, paths, whys,
    /// allowances), never panics walking a path, and tells a peer side no Rust advice.
    #[test]
    fn check_peer_finds_what_check_finds_and_tells_no_rust(
        writer in arb_schema(),
        reader in arb_schema(),
        which in 0usize..16,
    ) {
        let pick = |i: usize| [None, Some(Peer::Pydantic), Some(Peer::Zod), Some(Peer::JsonSchema)][i];
        let peers = PeerSides { producer: pick(which % 4), consumer: pick(which / 4) };
        let plain = check(&writer, &reader);
        let told = check_peer(&writer, &reader, peers);
        if peers.is_empty() {
            prop_assert_eq!(plain, told);
            return Ok(());
        }
        prop_assert_eq!(plain.findings().len(), told.findings().len());
        for (a, b) in plain.findings().iter().zip(told.findings()) {
            prop_assert_eq!((a.rule, &a.path, &a.why), (b.rule, &b.path, &b.why));
            prop_assert_eq!(b.fix.clone(), contract_schema::compat::Fix::Described);
            for word in RUST_ADVICE {
                prop_assert!(!b.hint.contains(word), "{} told {:?}", word, b.hint);
            }
        }
    }
}

/// The guide's integer recipe: each Rust kind's pydantic and zod forms, as the two export
/// them (pydantic writes its `Field` bounds as `minimum`/`maximum`; zod's `.int()` writes
/// `±9007199254740991`, its own bounds inside them), read as a producer by a consumer of that
/// kind: no finding. And no zod consumer reads every `u64` or `i64`.
#[test]
fn the_integer_recipe_of_the_guide_holds() {
    const SAFE: i64 = 9_007_199_254_740_991;
    let bounded = |min: Value, max: Value| {
        object(
            json!({"n": {"type": "integer", "minimum": min, "maximum": max}}),
            &["n"],
        )
    };
    let producers: [(&str, Value, Value); 6] = [
        // pydantic: `Field(ge=…, le=…)` of the kind; zod: `.int().min(…).max(…)`.
        (
            "u8",
            bounded(json!(0), json!(255)),
            bounded(json!(0), json!(255)),
        ),
        (
            "u16",
            bounded(json!(0), json!(65535)),
            bounded(json!(0), json!(65535)),
        ),
        (
            "u32",
            bounded(json!(0), json!(4_294_967_295_u32)),
            bounded(json!(0), json!(4_294_967_295_u32)),
        ),
        (
            "i32",
            bounded(json!(-2_147_483_648_i64), json!(2_147_483_647)),
            bounded(json!(-2_147_483_648_i64), json!(2_147_483_647)),
        ),
        // zod: `.int().min(0)` for a `u64`, `.int()` for an `i64`.
        (
            "u64",
            bounded(json!(0), json!(18_446_744_073_709_551_615_u64)),
            bounded(json!(0), json!(SAFE)),
        ),
        (
            "i64",
            bounded(json!(i64::MIN), json!(i64::MAX)),
            bounded(json!(-SAFE), json!(SAFE)),
        ),
    ];
    for (kind, pydantic, zod) in producers {
        let consumer = rust(&field("n", kind));
        for doc in [&pydantic, &zod] {
            let writer = import(doc, View::Sender).expect("imports").schema;
            let report = check(&writer, &consumer);
            assert!(report.findings().is_empty(), "{kind}: {report}");
        }
    }
    let zod_int = bounded(json!(-SAFE), json!(SAFE));
    let reader = import(&zod_int, View::Receiver).expect("imports").schema;
    for kind in ["u64", "i64"] {
        let report = check(&rust(&field("n", kind)), &reader);
        assert!(!report.is_compatible(), "{kind}: {report}");
    }
}
