//! Every position where the exported receiver schema is stricter or looser than serde, pinned:
//! each test shows what serde does and what the schema says, so a change on either side is
//! seen. The list is in the module docs of `contract_schema::json_schema`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use contract_core::{json_schema, HandoffSchema, View};
use contract_tests::types::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What serde says of an instance, and what the receiver schema says.
fn verdicts<T: HandoffSchema + DeserializeOwned>(instance: &Value) -> (bool, bool) {
    let schema = json_schema::<T>(View::Receiver);
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the export compiles");
    (
        serde_json::from_value::<T>(instance.clone()).is_ok(),
        validator.is_valid(instance),
    )
}

/// serde accepts, the schema rejects.
fn stricter<T: HandoffSchema + DeserializeOwned>(instance: Value) {
    assert_eq!(
        verdicts::<T>(&instance),
        (true, false),
        "serde should accept and the schema reject {instance}"
    );
}

/// serde rejects, the schema accepts.
fn looser<T: HandoffSchema + DeserializeOwned>(instance: Value) {
    assert_eq!(
        verdicts::<T>(&instance),
        (false, true),
        "serde should reject and the schema accept {instance}"
    );
}

// ---------------------------------------------------------------------------------------
// Stricter than serde.
// ---------------------------------------------------------------------------------------

#[test]
fn struct_as_array() {
    // serde reads a struct from its fields in order.
    stricter::<RefundRequest>(json!(["damaged", "A1", null]));
    stricter::<Budget>(json!([1, 2]));
    let read: Budget = serde_json::from_value(json!([1, 2])).expect("serde reads the array");
    assert_eq!(
        read,
        Budget {
            max_tool_calls: 1,
            max_tokens: 2
        }
    );
}

#[test]
fn internally_tagged_enum_as_array() {
    // The tag first, then the fields in order.
    stricter::<Figure>(json!(["circle", 2.0]));
    assert_eq!(
        serde_json::from_value::<Figure>(json!(["circle", 2.0])).expect("serde reads it"),
        Figure::Circle { radius: 2.0 }
    );
}

#[test]
fn unit_variant_as_object() {
    stricter::<Command>(json!({ "Stop": null }));
    stricter::<TaskStatus>(json!({ "done": null }));
    // With a catch-all, an unknown tag holding null is the catch-all.
    stricter::<Level>(json!({ "SOMETHING_NEW": null }));
    assert_eq!(
        serde_json::from_value::<Level>(json!({ "SOMETHING_NEW": null })).expect("serde reads it"),
        Level::Unknown
    );
    // Anything but null is refused by both.
    assert_eq!(verdicts::<Command>(&json!({ "Stop": 1 })), (false, false));
}

/// An internally tagged enum inside another one.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "outer")]
enum Outer {
    Fig(Figure),
}

/// An internally tagged enum inside an untagged one.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum EitherFigure {
    Fig(Figure),
    Text(String),
}

#[test]
fn variant_index_as_tag_inside_buffered_content() {
    // Figure's fourth variant is `Empty`.
    stricter::<Outer>(json!({ "outer": "Fig", "type": 3 }));
    assert_eq!(
        serde_json::from_value::<Outer>(json!({ "outer": "Fig", "type": 3 })).expect("read"),
        Outer::Fig(Figure::Empty)
    );
    stricter::<EitherFigure>(json!({ "type": 3 }));
    assert_eq!(
        serde_json::from_value::<EitherFigure>(json!({ "type": 3 })).expect("read"),
        EitherFigure::Fig(Figure::Empty)
    );
    // The names are read by both.
    assert_eq!(
        verdicts::<Outer>(&json!({ "outer": "Fig", "type": "empty" })),
        (true, true)
    );
    // The tagged variants of an enum with untagged variants are read from buffered content
    // too (here `Ping`, the first variant, under index 0; no untagged variant reads the
    // object).
    stricter::<contract_tests::types::InternalWithUntagged>(json!({ "kind": 0, "x": "s" }));
    assert_eq!(
        serde_json::from_value::<contract_tests::types::InternalWithUntagged>(
            json!({ "kind": 0, "x": "s" })
        )
        .expect("read"),
        contract_tests::types::InternalWithUntagged::Ping
    );
}

/// Enums and a unit inside an internally tagged enum.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "outer")]
enum Holder {
    Cmd(Command),
    Unit { u: () },
}

/// A unit inside an untagged enum.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum EitherUnit {
    S { u: () },
}

#[test]
fn empty_object_as_unit_inside_an_internally_tagged_enum() {
    // An externally tagged unit variant beside the tag: serde writes null, and reads `{}`.
    assert_eq!(
        serde_json::to_value(Holder::Cmd(Command::Stop)).expect("writes"),
        json!({ "outer": "Cmd", "Stop": null })
    );
    stricter::<Holder>(json!({ "outer": "Cmd", "Stop": {} }));
    stricter::<Holder>(json!({ "outer": "Unit", "u": {} }));
    // Not inside an untagged enum, nor where serde reads the value directly.
    assert_eq!(verdicts::<EitherUnit>(&json!({ "u": {} })), (false, false));
    assert_eq!(verdicts::<Command>(&json!({ "Stop": {} })), (false, false));
    assert_eq!(verdicts::<()>(&json!({})), (false, false));
}

#[test]
fn a_variant_index_is_no_tag_for_either() {
    // At the top level serde reads names only: Figure's fourth variant is `Empty`, Message's
    // fourth is `Ping`.
    assert_eq!(verdicts::<Figure>(&json!({ "type": 3 })), (false, false));
    assert_eq!(verdicts::<Message>(&json!({ "t": 3 })), (false, false));
    assert_eq!(verdicts::<Command>(&json!(0)), (false, false));
}

/// A transparent struct around an `Option`.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
struct MaybeCount {
    inner: Option<u16>,
}

/// An adjacently tagged newtype variant of a transparent `Option`.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
enum AdjacentTransparent {
    Count(MaybeCount),
}

#[test]
fn missing_content_of_a_transparent_option() {
    // serde reads the missing content as a transparent `None`; the schema requires it.
    stricter::<AdjacentTransparent>(json!({ "t": "Count" }));
    let read: AdjacentTransparent =
        serde_json::from_value(json!({ "t": "Count" })).expect("serde reads it");
    assert!(matches!(
        read,
        AdjacentTransparent::Count(MaybeCount { inner: None })
    ));
    assert_eq!(
        verdicts::<AdjacentTransparent>(&json!({ "t": "Count", "c": null })),
        (true, true)
    );
}

#[test]
fn duplicate_items_in_a_set() {
    stricter::<BTreeSet<String>>(json!(["a", "a"]));
    let read: BTreeSet<String> = serde_json::from_value(json!(["a", "a"])).expect("merged");
    assert_eq!(read.len(), 1);
}

#[test]
fn duplicate_keys_are_invisible_to_json_schema() {
    // serde keeps the last of duplicate map keys...
    let text = r#"{"a": 1, "a": 2}"#;
    let map: HashMap<String, u32> = serde_json::from_str(text).expect("serde reads it");
    assert_eq!(map["a"], 2);
    // ...and ignores duplicate unknown fields, while a duplicate declared field is an error.
    let unknown = r#"{"category": "damaged", "orderId": "A1", "x": 1, "x": 2}"#;
    assert!(serde_json::from_str::<RefundRequest>(unknown).is_ok());
    let declared = r#"{"category": "damaged", "orderId": "A1", "orderId": "A2"}"#;
    assert!(serde_json::from_str::<RefundRequest>(declared).is_err());
    // A schema validates a parsed document, in which each key occurs once: the schema cannot
    // see duplicates at all; `receive` rejects them before any schema applies.
    let parsed: Value = serde_json::from_str(declared).expect("a JSON value keeps the last");
    assert_eq!(parsed.as_object().map(serde_json::Map::len), Some(2));
    assert_eq!(verdicts::<RefundRequest>(&parsed), (true, true));
}

/// A flattened `Option` of a struct.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct WithOptionalMeta {
    id: u8,
    #[serde(flatten)]
    meta: Option<Meta>,
}

#[test]
fn flattened_option_reads_none_when_its_fields_do_not_fit() {
    let instance = json!({ "id": 1, "author": 5 });
    stricter::<WithOptionalMeta>(instance.clone());
    let read: WithOptionalMeta = serde_json::from_value(instance).expect("serde reads it");
    assert_eq!(read.meta, None);
    // The fields are written only when the option is `Some`.
    let sender = json_schema::<WithOptionalMeta>(View::Sender);
    assert_eq!(
        sender["$defs"]["WithOptionalMeta"]["required"],
        json!(["id"])
    );
    let none = serde_json::to_value(WithOptionalMeta { id: 1, meta: None }).expect("writes");
    assert_eq!(none, json!({ "id": 1 }));
}

// ---------------------------------------------------------------------------------------
// Looser than serde.
// ---------------------------------------------------------------------------------------

#[test]
fn integral_float_as_integer() {
    looser::<Budget>(json!({ "max_tool_calls": 1.0, "max_tokens": 2 }));
    looser::<u8>(json!(3.0));
    // A fraction is refused by both.
    assert_eq!(verdicts::<u8>(&json!(3.5)), (false, false));
}

#[test]
fn extremes_of_128_bit_integers_are_not_bounds() {
    let u = json_schema::<u128>(View::Receiver);
    assert_eq!(u["minimum"], 0);
    assert!(u.get("maximum").is_none());
    let i = json_schema::<i128>(View::Receiver);
    assert!(i.get("minimum").is_none() && i.get("maximum").is_none());
    // serde reads u128::MAX from text; a JSON value holds it only as a float, which the
    // schema's `integer` accepts as integral and serde refuses.
    let text = u128::MAX.to_string();
    assert_eq!(serde_json::from_str::<u128>(&text).ok(), Some(u128::MAX));
    let parsed: Value = serde_json::from_str(&text).expect("parses as a float");
    looser::<u128>(parsed);
}

/// A flattened struct whose required `id` the outer `id` reads first.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct ShadowsRequired {
    id: u8,
    #[serde(flatten)]
    inner: RequiredId,
}

/// Requires an `id` it never receives inside [`ShadowsRequired`].
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct RequiredId {
    id: u8,
    note: String,
}

#[test]
fn a_required_field_whose_key_an_earlier_field_reads() {
    // serde gives `id` to the outer field: the flattened one is missing, always.
    looser::<ShadowsRequired>(json!({ "id": 1, "note": "n" }));
    let error = serde_json::from_value::<ShadowsRequired>(json!({ "id": 1, "note": "n" }))
        .expect_err("serde never reads it");
    assert!(error.to_string().contains("missing field `id`"), "{error}");
    // The description gives the key to the outer field, as serde does; the inner field is
    // read nowhere.
    let schema = ShadowsRequired::schema();
    let Some(contract_core::schema::model::Body::Struct(s)) =
        schema.def("ShadowsRequired").map(|d| &d.body)
    else {
        panic!("a struct")
    };
    let readers: Vec<(&str, bool)> = s
        .fields
        .iter()
        .map(|f| (f.rust_name.as_str(), f.receiver.is_some()))
        .collect();
    assert_eq!(
        readers,
        [("id", true), ("inner.id", false), ("inner.note", true)]
    );
    // serde writes the key twice; a parsed document keeps the last.
    let text = serde_json::to_string(&ShadowsRequired {
        id: 1,
        inner: RequiredId {
            id: 2,
            note: "n".into(),
        },
    })
    .expect("writes");
    assert_eq!(text, r#"{"id":1,"id":2,"note":"n"}"#);
}

/// A flattened map declared before a flattened struct.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct MapBeforeStruct {
    id: u8,
    #[serde(flatten)]
    extra: BTreeMap<String, u8>,
    #[serde(flatten)]
    meta: Meta,
}

/// A flattened map declared after a flattened struct: the usual catch-all.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct MapAfterStruct {
    id: u8,
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    extra: BTreeMap<String, u8>,
}

/// Two flattened maps.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct TwoMaps {
    id: u8,
    #[serde(flatten)]
    numbers: BTreeMap<String, u8>,
    #[serde(flatten)]
    words: BTreeMap<String, String>,
}

#[test]
fn keys_a_flattened_map_sees_before_a_later_flattened_field() {
    // serde reads every key not yet taken into a flattened map: the later struct's `author`
    // too, which must then fit the map's values.
    looser::<MapBeforeStruct>(json!({ "id": 1, "author": "a" }));
    // Declared after it, the struct takes its keys first, and both agree.
    assert_eq!(
        verdicts::<MapAfterStruct>(&json!({ "id": 1, "author": "a", "x": 2 })),
        (true, true)
    );
    // Each unknown key must fit every map; the schema checks it against the last.
    looser::<TwoMaps>(json!({ "id": 1, "x": "s" }));
    assert_eq!(
        verdicts::<TwoMaps>(&json!({ "id": 1, "x": 2 })),
        (false, false)
    );
    assert_eq!(verdicts::<TwoMaps>(&json!({ "id": 1 })), (true, true));
}

/// A map of integers, internally tagged, to be flattened.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
enum Entries {
    M(BTreeMap<String, i32>),
}

/// A variant that takes every key left, declared before a flattened struct.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct EntriesBeforeStruct {
    #[serde(flatten)]
    entries: Entries,
    #[serde(flatten)]
    meta: Meta,
}

/// A variant that takes every key left, beside another flattened enum.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct EntriesBesideEnum {
    #[serde(flatten)]
    entries: Entries,
    #[serde(flatten)]
    payment: Payment,
}

#[test]
fn keys_beside_a_flattened_variant_that_takes_every_key_left() {
    // Alone beside the fields, the entries are judged by the map's values, as serde does.
    assert_eq!(
        verdicts::<FlattenCounted>(&json!({ "id": 1, "t": "M", "k": "s" })),
        (false, false)
    );
    assert_eq!(
        verdicts::<FlattenCounted>(&json!({ "id": 1, "t": "M", "k": 2 })),
        (true, true)
    );
    // serde lends the map the keys of a flattened struct declared after it; the schema
    // judges a field's key by the field alone.
    looser::<EntriesBeforeStruct>(json!({ "t": "M", "author": "a" }));
    // Beside another flattened enum, a key left may be either's: the schema takes them
    // whatever they hold (serde reads `cash` into the map too, and refuses its `null`).
    looser::<EntriesBesideEnum>(json!({ "t": "M", "k": 2, "cash": null }));
    looser::<EntriesBesideEnum>(json!({ "t": "M", "k": "s", "card": 7 }));
    assert_eq!(
        verdicts::<EntriesBesideEnum>(&json!({ "t": "M", "k": 2, "card": 7 })),
        (true, true)
    );
    // What serde writes there, `send` and the sender view accept.
    let value = EntriesBesideEnum {
        entries: Entries::M(BTreeMap::from([("k".to_owned(), 2)])),
        payment: Payment::Cash,
    };
    let written = serde_json::to_value(&value).expect("serde writes it");
    assert_eq!(written, json!({ "t": "M", "k": 2, "cash": null }));
    contract_core::send(&value).expect("send accepts what serde writes");
    let sender = jsonschema::draft202012::new(&json_schema::<EntriesBesideEnum>(View::Sender))
        .expect("the export compiles");
    assert!(sender.is_valid(&written));
}

/// An internally tagged enum inside another with the same tag.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
enum SameTagOuter {
    B(SameTagInner),
    D { y: u8 },
}

/// See [`SameTagOuter`].
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
enum SameTagInner {
    A { y: u8 },
}

#[test]
fn an_inner_tag_under_the_enclosing_tags_key_is_never_read() {
    // serde takes `t` for the outer enum; the inner one never finds its tag. The schema
    // agrees: the variant has no value (the compatibility engine's VARIANT_UNREADABLE).
    for instance in [json!({ "t": "A", "y": 1 }), json!({ "t": "B", "y": 1 })] {
        assert_eq!(
            verdicts::<SameTagOuter>(&instance),
            (false, false),
            "{instance}"
        );
    }
    assert_eq!(
        verdicts::<SameTagOuter>(&json!({ "t": "D", "y": 1 })),
        (true, true)
    );
    // serde writes the key twice, and cannot read that back; the sender view has no such
    // variant either.
    let text = serde_json::to_string(&SameTagOuter::B(SameTagInner::A { y: 1 })).expect("writes");
    assert_eq!(text, r#"{"t":"B","t":"A","y":1}"#);
    assert!(serde_json::from_str::<SameTagOuter>(&text).is_err());
    let sender = json_schema::<SameTagOuter>(View::Sender);
    let sender = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&sender)
        .expect("the export compiles");
    assert!(!sender.is_valid(&json!({ "t": "A", "y": 1 })));
    assert!(!sender.is_valid(&json!({ "t": "B", "y": 1 })));
    assert!(sender.is_valid(&json!({ "t": "D", "y": 1 })));
}

/// An inner enum tagged under the key of an enum further out: `t`, taken by `FarOuter`.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
enum FarOuter {
    B(FarMiddle),
}

/// See [`FarOuter`].
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "k")]
enum FarMiddle {
    M(SameTagInner),
}

#[test]
fn an_inner_tag_under_a_farther_tags_key() {
    // serde takes `t` for `FarOuter` and `k` for `FarMiddle`; `SameTagInner` never finds `t`.
    looser::<FarOuter>(json!({ "t": "A", "k": "M", "y": 1 }));
    assert_eq!(
        verdicts::<FarOuter>(&json!({ "t": "B", "k": "M", "y": 1 })),
        (false, false)
    );
    let text = serde_json::to_string(&FarOuter::B(FarMiddle::M(SameTagInner::A { y: 1 })))
        .expect("writes");
    assert_eq!(text, r#"{"t":"B","k":"M","t":"A","y":1}"#);
    assert!(serde_json::from_str::<FarOuter>(&text).is_err());
}

#[test]
fn integer_map_keys_are_checked_for_form_and_range() {
    // Once a looser point (a key's digits were checked for form only): the pattern now
    // holds the digits of the kind's range, or of the set's ranges, exactly as serde reads.
    // "300" is digits but not a u8; "0" is a u8 but not a `NonZeroU8`.
    for (key, read) in [("300", false), ("255", true), ("256", false), ("0", true)] {
        assert_eq!(
            verdicts::<BTreeMap<u8, String>>(&json!({ key: "x" })),
            (read, read),
            "{key}"
        );
    }
    assert_eq!(
        verdicts::<BTreeMap<std::num::NonZeroU8, String>>(&json!({ "0": "x" })),
        (false, false)
    );
    for (key, read) in [
        ("-200", false),
        ("-128", true),
        ("-129", false),
        ("127", true),
    ] {
        assert_eq!(
            verdicts::<BTreeMap<i8, String>>(&json!({ key: "x" })),
            (read, read),
            "{key}"
        );
    }
    // The form is serde_json's: no `+`, no leading zero, no `-0`.
    for key in ["+5", "007", "5a", ""] {
        assert_eq!(
            verdicts::<BTreeMap<u8, String>>(&json!({ key: "x" })),
            (false, false),
            "{key}"
        );
    }
    assert_eq!(
        verdicts::<BTreeMap<i8, String>>(&json!({ "-0": "x" })),
        (false, false)
    );
    assert_eq!(
        verdicts::<BTreeMap<i8, String>>(&json!({ "-5": "x", "0": "y" })),
        (true, true)
    );
}

#[test]
fn non_finite_floats_are_written_as_null() {
    assert_eq!(serde_json::to_value(f64::NAN).expect("writes"), Value::Null);
    assert_eq!(
        serde_json::to_value(f64::INFINITY).expect("writes"),
        Value::Null
    );
    let sender = json_schema::<Meters>(View::Sender);
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&sender)
        .expect("compiles");
    assert!(!validator.is_valid(&Value::Null));
    // No receiver reads that null back as a number.
    assert!(serde_json::from_value::<Meters>(Value::Null).is_err());
    // serde reads a number beyond f32's range as an infinity, which it then writes as null.
    let big: f32 = serde_json::from_value(json!(1e39)).expect("serde reads it");
    assert!(big.is_infinite());
}

/// `Duration` and `SystemTime` are described as serde writes them, nanoseconds below 10⁹.
/// serde also reads more, carrying whole seconds (and refuses a carry that overflows the
/// seconds, a condition across two fields): the schema is stricter there, and exact
/// everywhere else, the platform's bound of `SystemTime` included.
#[test]
fn nanoseconds_of_a_second_or_more() {
    use std::time::{Duration, SystemTime};
    stricter::<Duration>(json!({"secs": 1, "nanos": 1_500_000_000_u32}));
    stricter::<SystemTime>(json!({"secs_since_epoch": 1, "nanos_since_epoch": 1_000_000_000_u32}));
    // The carry that overflows: both refuse.
    let overflow = json!({"secs": u64::MAX, "nanos": 1_000_000_000_u32});
    assert_eq!(verdicts::<Duration>(&overflow), (false, false));
    // Exact: the extremes of the form serde writes, unknown and missing keys.
    let largest = json!({"secs": u64::MAX, "nanos": 999_999_999});
    assert_eq!(verdicts::<Duration>(&largest), (true, true));
    let unknown = json!({"secs": 1, "nanos": 0, "millis": 0});
    assert_eq!(verdicts::<Duration>(&unknown), (false, false));
    assert_eq!(verdicts::<Duration>(&json!({"secs": 1})), (false, false));
    // A time after the epoch has at most `i64::MAX` seconds on Unix.
    #[cfg(unix)]
    {
        let last = json!({"secs_since_epoch": i64::MAX, "nanos_since_epoch": 999_999_999});
        assert_eq!(verdicts::<SystemTime>(&last), (true, true));
        let beyond = json!({"secs_since_epoch": i64::MAX as u64 + 1, "nanos_since_epoch": 0});
        assert_eq!(verdicts::<SystemTime>(&beyond), (false, false));
    }
    // serde reads `[secs, nanos]` too: a struct as an array (see `struct_as_array`).
    stricter::<Duration>(json!([1, 2]));
}

/// A `CString` is the array of its nonzero bytes serde writes; serde_json also reads a
/// string into one (refusing a NUL either way). An OS string is this platform's tagged form.
#[test]
fn string_as_c_string() {
    use std::ffi::{CString, OsString};
    stricter::<CString>(json!("abc"));
    assert_eq!(verdicts::<CString>(&json!([97, 98])), (true, true));
    assert_eq!(verdicts::<CString>(&json!([97, 0])), (false, false));
    assert_eq!(verdicts::<CString>(&json!("a\u{0}")), (false, false));
    #[cfg(unix)]
    {
        assert_eq!(
            verdicts::<OsString>(&json!({"Unix": [0, 255]})),
            (true, true)
        );
        // The other platform's form: serde knows the tag and refuses it here.
        assert_eq!(
            verdicts::<OsString>(&json!({"Windows": [97]})),
            (false, false)
        );
        assert_eq!(
            serde_json::to_value(OsString::from("ab")).ok(),
            Some(json!({"Unix": [97, 98]}))
        );
    }
}

/// A `Saturating` integer is described as serde writes it, within its integer's range;
/// serde reads any JSON integer into it, clamped to that range.
#[test]
fn saturating_integers_beyond_their_range() {
    use std::num::Saturating;
    stricter::<Saturating<u8>>(json!(300));
    stricter::<Saturating<u8>>(json!(-1));
    stricter::<Saturating<i16>>(json!(i64::MIN));
    assert_eq!(
        serde_json::from_value::<Saturating<u8>>(json!(300)).ok(),
        Some(Saturating(255))
    );
    assert_eq!(
        serde_json::from_value::<Saturating<i8>>(json!(-1000)).ok(),
        Some(Saturating(i8::MIN))
    );
    assert_eq!(verdicts::<Saturating<u8>>(&json!(255)), (true, true));
    // Not an integer: serde and the schema both refuse.
    assert_eq!(verdicts::<Saturating<u8>>(&json!(1.5)), (false, false));
}

/// chrono reads a weekday's or month's name in any ASCII case; the description lists the
/// names it writes and their other spelling in chrono's case.
#[test]
fn chrono_names_in_other_cases() {
    use chrono::{Month, Weekday};
    stricter::<Weekday>(json!("mon"));
    stricter::<Weekday>(json!("MONDAY"));
    stricter::<Month>(json!("jan"));
    stricter::<Month>(json!("fEbruARy"));
    for read in ["Mon", "Monday"] {
        assert_eq!(verdicts::<Weekday>(&json!(read)), (true, true), "{read}");
    }
    for read in ["January", "Jan", "May"] {
        assert_eq!(verdicts::<Month>(&json!(read)), (true, true), "{read}");
    }
    // Neither reads a name cut short or a number.
    for refused in [json!("Mond"), json!("Septem"), json!(1)] {
        assert_eq!(verdicts::<Weekday>(&refused), (false, false), "{refused}");
        assert_eq!(verdicts::<Month>(&refused), (false, false), "{refused}");
    }
    assert_eq!(serde_json::to_value(Weekday::Wed).ok(), Some(json!("Wed")));
    assert_eq!(serde_json::to_value(Month::May).ok(), Some(json!("May")));
}

/// A `TimeDelta` is `[secs, nanos]`; at its two extreme seconds chrono also bounds the
/// nanoseconds, a condition across the items: the description leaves those seconds out.
#[test]
fn time_delta_within_a_second_of_its_extremes() {
    use chrono::TimeDelta;
    let max_secs = i64::MAX / 1000;
    let min_secs = -i64::MAX / 1000 - 1;
    stricter::<TimeDelta>(json!([max_secs, 807_000_000]));
    stricter::<TimeDelta>(json!([min_secs, 193_000_000]));
    assert_eq!(
        verdicts::<TimeDelta>(&json!([max_secs - 1, 999_999_999])),
        (true, true)
    );
    assert_eq!(
        verdicts::<TimeDelta>(&json!([min_secs + 1, 0])),
        (true, true)
    );
    // Beyond the seconds, or nanoseconds of a second or more: both refuse.
    assert_eq!(
        verdicts::<TimeDelta>(&json!([max_secs + 1, 0])),
        (false, false)
    );
    assert_eq!(
        verdicts::<TimeDelta>(&json!([0, 1_000_000_000])),
        (false, false)
    );
    assert_eq!(verdicts::<TimeDelta>(&json!([0, -1])), (false, false));
    assert_eq!(
        serde_json::to_value(TimeDelta::milliseconds(-1500)).ok(),
        Some(json!([-2, 500_000_000]))
    );
    // What chrono writes of its extremes: `send` refuses it, as the description says.
    assert_eq!(
        serde_json::to_value(TimeDelta::MAX).ok(),
        Some(json!([max_secs, 807_000_000]))
    );
    assert!(contract_core::send(&TimeDelta::MAX).is_err());
    assert!(contract_core::send(&(TimeDelta::MAX - TimeDelta::seconds(1))).is_ok());
}

#[test]
fn formats_without_a_standard_name_are_not_checked() {
    // Formats the validator checks: a malformed value is rejected by both.
    for (key, malformed) in [
        ("id", "x"),
        ("at", "2024-01-01T25:00:00Z"),
        ("local", "x"),
        ("day", "2024-13-01"),
    ] {
        let mut instance = json!({
            "id": "a1b965f4-454f-81ec-749b-9f0c747ea2ea", "at": "2010-12-27T01:46:03Z",
            "local": "1972-01-21T15:21:18+01:00", "naive": "2050-05-23T10:31:05",
            "day": "1985-12-02", "time": "18:42:20.904"
        });
        assert_eq!(verdicts::<TimeAndIds>(&instance), (true, true));
        instance[key] = json!(malformed);
        assert_eq!(
            verdicts::<TimeAndIds>(&instance),
            (false, false),
            "{key}: {malformed}"
        );
    }
    // `x-handoff-format`: any string passes the schema.
    for (key, malformed) in [("naive", "2024-01-01T25:00:00"), ("time", "x")] {
        let mut instance = json!({
            "id": "a1b965f4-454f-81ec-749b-9f0c747ea2ea", "at": "2010-12-27T01:46:03Z",
            "local": "1972-01-21T15:21:18+01:00", "naive": "2050-05-23T10:31:05",
            "day": "1985-12-02", "time": "18:42:20.904"
        });
        instance[key] = json!(malformed);
        looser::<TimeAndIds>(instance);
    }
    let addrs = json!({
        "by_address": {}, "ip": "::1", "socket": "1.2.3.4:80", "socket_v4": "1.2.3.4:80",
        "socket_v6": "[::1]:80", "v4": "1.2.3.4", "v6": "::1"
    });
    assert_eq!(verdicts::<NetAddrs>(&addrs), (true, true));
    for (key, checked) in [
        ("v4", true),
        ("v6", true),
        ("ip", false),
        ("socket", false),
        ("socket_v4", false),
        ("socket_v6", false),
    ] {
        let mut instance = addrs.clone();
        instance[key] = json!("1::2::3:x");
        assert_eq!(verdicts::<NetAddrs>(&instance), (false, !checked), "{key}");
    }
}

/// Two keys naming variants of a flattened externally tagged enum: serde reads the first
/// in the payload's order and leaves the other to the struct (ignored here); `receive`
/// reads as serde does; the schema, which sees no order, accepts exactly one.
#[test]
fn two_variant_names_beside_the_fields() {
    let instance = json!({ "id": 1, "cash": null, "card": 7 });
    stricter::<FlattenExternal>(instance.clone());
    // In both orders (a `Value` would sort its keys): the first key wins.
    for (bytes, first) in [
        (&br#"{"id": 1, "cash": null, "card": 7}"#[..], Payment::Cash),
        (
            &br#"{"id": 1, "card": 7, "cash": null}"#[..],
            Payment::Card(7),
        ),
    ] {
        let by_serde = serde_json::from_slice::<FlattenExternal>(bytes).map(|o| o.payment);
        let received = contract_core::receive::<FlattenExternal>(bytes).map(|r| r.into_inner());
        assert_eq!(by_serde.ok(), Some(first.clone()));
        assert_eq!(
            received.ok().map(|o| o.payment),
            Some(first),
            "receive reads the first variant key, as serde does"
        );
    }
    // One key, and none: the schema and serde agree.
    assert_eq!(
        verdicts::<FlattenExternal>(&json!({ "id": 1, "card": 7 })),
        (true, true)
    );
    assert_eq!(
        verdicts::<FlattenExternal>(&json!({ "id": 1 })),
        (false, false)
    );
}

/// time writes a `UtcOffset` as three items and also reads one or two.
#[test]
fn time_utc_offset_of_fewer_items() {
    stricter::<time::UtcOffset>(json!([2]));
    stricter::<time::UtcOffset>(json!([-2, -30]));
    assert_eq!(
        verdicts::<time::UtcOffset>(&json!([-2, -30, 0])),
        (true, true)
    );
    // Signs that disagree: time makes them agree, the schema does not ask.
    assert_eq!(
        verdicts::<time::UtcOffset>(&json!([2, -30, 0])),
        (true, true)
    );
    assert_eq!(
        verdicts::<time::UtcOffset>(&json!([26, 0, 0])),
        (false, false)
    );
    assert_eq!(
        verdicts::<time::UtcOffset>(&json!([0, 0, 0, 0])),
        (false, false)
    );
    assert_eq!(
        serde_json::to_value(time::UtcOffset::from_hms(-2, -30, 0).expect("valid")).ok(),
        Some(json!([-2, -30, 0]))
    );
}

/// An enum tagged under `type` with an untagged variant of fields.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
enum InnerWithUntagged {
    A,
    #[serde(untagged)]
    Fields {
        n: u8,
    },
}

/// The same key taken first by an enclosing internally tagged enum.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
enum TakesTheTag {
    Wrap(InnerWithUntagged),
    Other { m: u8 },
}

#[test]
fn untagged_variants_under_a_taken_tag() {
    // serde takes `type` for `TakesTheTag`, then reads `InnerWithUntagged` from the rest:
    // its tagged variants find no tag, its untagged `Fields` reads `n`.
    let instance = json!({ "type": "Wrap", "n": 1 });
    stricter::<TakesTheTag>(instance.clone());
    assert_eq!(
        serde_json::from_value::<TakesTheTag>(instance).expect("read"),
        TakesTheTag::Wrap(InnerWithUntagged::Fields { n: 1 })
    );
    // The other variant is described as usual.
    assert_eq!(
        verdicts::<TakesTheTag>(&json!({ "type": "Other", "m": 1 })),
        (true, true)
    );
}

/// An enum with an untagged variant, held by a newtype so that it can be flattened.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
enum FlatMixed {
    A {
        a: u8,
    },
    #[serde(untagged)]
    B {
        b: u8,
    },
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct FlatMixedHolder(FlatMixed);

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct FlattensMixed {
    id: u8,
    #[serde(flatten)]
    inner: FlatMixedHolder,
}

#[test]
fn a_flattened_enum_with_untagged_variants() {
    // serde reads it from the keys the struct leaves: neither variant reads `b: "x"`.
    looser::<FlattensMixed>(json!({ "id": 1, "b": "x" }));
    assert_eq!(
        serde_json::from_value::<FlattensMixed>(json!({ "id": 1, "b": 2 })).expect("read"),
        FlattensMixed {
            id: 1,
            inner: FlatMixedHolder(FlatMixed::B { b: 2 })
        }
    );
    assert_eq!(
        verdicts::<FlattensMixed>(&json!({ "id": 1, "type": "A", "a": 2 })),
        (true, true)
    );
    // `receive` follows serde's verdict there.
    let bad = br#"{"id": 1, "b": "x"}"#;
    assert!(contract_core::receive::<FlattensMixed>(bad).is_err());
    assert!(contract_core::receive::<FlattensMixed>(br#"{"id": 1, "b": 2}"#).is_ok());
}
