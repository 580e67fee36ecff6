//! The JSON Schema export: every test type's schema in both views is a valid 2020-12 schema,
//! the seed contracts' schemas are reviewed as snapshots, and each rule of the export (names,
//! required keys, aliases, unknown keys, types, enums, annotations) is asserted on a type that
//! exercises it.

use std::collections::{BTreeMap, BTreeSet};

use contract_core::{json_schema, HandoffSchema, View};
use contract_tests::types::*;
use jsonschema::Validator;
use serde_json::{json, Value};

fn sender<T: HandoffSchema + ?Sized>() -> Value {
    json_schema::<T>(View::Sender)
}

fn receiver<T: HandoffSchema + ?Sized>() -> Value {
    json_schema::<T>(View::Receiver)
}

fn validator(schema: &Value) -> Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the export compiles")
}

/// The schema of a named type, through the document's `$ref`.
fn def<'a>(doc: &'a Value, key: &str) -> &'a Value {
    &doc["$defs"][key]
}

macro_rules! every_type_is_a_valid_2020_12_schema {
    ($($ty:ty),* $(,)?) => {
        #[test]
        fn every_type_is_a_valid_2020_12_schema() {
            let mut checked = 0;
            $(
                for view in [View::Sender, View::Receiver] {
                    let schema = json_schema::<$ty>(view);
                    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
                        panic!(
                            "{} ({view:?}) is not a valid 2020-12 schema: {e} at {}",
                            stringify!($ty),
                            e.instance_path()
                        );
                    }
                    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
                    assert_eq!(schema["x-handoff-view"], view.as_str());
                    // Every `$ref` resolves: the validator compiles it.
                    validator(&schema);
                    checked += 1;
                }
            )*
            eprintln!("{checked} exported schemas validated against the 2020-12 meta-schema");
        }
    };
}

every_type_is_a_valid_2020_12_schema![
    Category,
    RefundRequest,
    Scope,
    Budget,
    TaskContract,
    TaskStatus,
    Evidence,
    TaskResult,
    Artifact,
    HandoffStatus,
    Handoff<RefundRequest>,
    Handoff<TaskResult>,
    Renames,
    RenameAllSplit,
    Defaults,
    FieldDefaults,
    Skips,
    Meta,
    FlattenStruct,
    FlattenMap,
    Figure,
    Message,
    IdOrName,
    Command,
    Level,
    OrderId,
    Meters,
    Point,
    Marker,
    Plan,
    StdTypes,
    TimeAndIds,
    WithSchemaAs,
    StrictNote,
    u128,
    i128,
    char,
    (),
    Option<Option<String>>,
    BTreeMap<u16, Vec<Level>>,
    [Point; 3],
];

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("a JSON value prints")
}

#[test]
fn seed_contract_snapshots() {
    insta::assert_snapshot!("refund_request_sender", pretty(&sender::<RefundRequest>()));
    insta::assert_snapshot!(
        "refund_request_receiver",
        pretty(&receiver::<RefundRequest>())
    );
    insta::assert_snapshot!("task_contract_sender", pretty(&sender::<TaskContract>()));
    insta::assert_snapshot!(
        "task_contract_receiver",
        pretty(&receiver::<TaskContract>())
    );
    insta::assert_snapshot!("task_result_sender", pretty(&sender::<TaskResult>()));
    insta::assert_snapshot!("task_result_receiver", pretty(&receiver::<TaskResult>()));
    insta::assert_snapshot!(
        "handoff_refund_request_receiver",
        pretty(&receiver::<Handoff<RefundRequest>>())
    );
}

#[test]
fn contract_id_views_and_type_annotations() {
    let doc = receiver::<RefundRequest>();
    assert_eq!(doc["x-handoff-contract"], "refund-request/v2");
    assert_eq!(doc["x-handoff-mode"], "full");
    assert_eq!(doc["x-handoff-view"], "receiver");
    assert_eq!(doc["title"], "RefundRequest");
    assert_eq!(doc["$ref"], "#/$defs/RefundRequest");
    let refund = def(&doc, "RefundRequest");
    assert_eq!(
        refund["x-handoff-rust"],
        "contract_tests::types::RefundRequest"
    );
    assert_eq!(
        refund["description"],
        "A refund request handed from the triage agent to the refund agent (seed 003)."
    );
    let order = &refund["properties"]["orderId"];
    assert_eq!(order["x-handoff-renamed-from"], json!(["orderRef"]));
    assert_eq!(order["description"], "The order, called `orderRef` in v1.");
    assert_eq!(
        refund["properties"]["useCase"]["x-handoff-provenance"],
        "assumption"
    );
    // Confirmed is the default and is not written.
    assert!(order.get("x-handoff-provenance").is_none());
    // A nested type without a contract has no contract id.
    assert!(receiver::<Meta>().get("x-handoff-contract").is_none());
    assert_eq!(sender::<StrictNote>()["x-handoff-mode"], "forward");
}

#[test]
fn defs_keys_are_fragment_safe_and_keep_the_display_name_as_title() {
    let doc = sender::<Handoff<RefundRequest>>();
    assert_eq!(doc["$ref"], "#/$defs/Handoff-RefundRequest");
    assert_eq!(doc["title"], "Handoff<RefundRequest>");
    let handoff = def(&doc, "Handoff-RefundRequest");
    assert_eq!(handoff["title"], "Handoff<RefundRequest>");
    assert_eq!(
        handoff["x-handoff-rust"],
        "contract_tests::types::Handoff<contract_tests::types::RefundRequest>"
    );
    assert_eq!(
        handoff["properties"]["payload"]["$ref"],
        "#/$defs/RefundRequest"
    );
    let keys: Vec<&String> = doc["$defs"].as_object().expect("defs").keys().collect();
    for key in keys {
        assert!(
            key.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)),
            "{key} is not a plain fragment"
        );
    }
}

#[test]
fn sender_view_lists_what_serialize_writes() {
    let doc = sender::<Skips>();
    let skips = def(&doc, "Skips");
    let properties = skips["properties"].as_object().expect("properties");
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    // `cache` (skip) and `write_only` (skip_serializing) are never written.
    // serde_json's map orders keys; `required` keeps the wire order.
    assert_eq!(names, ["computed", "items", "kept", "note"]);
    // `note` and `items` are written only when present.
    assert_eq!(skips["required"], json!(["kept", "computed"]));
    assert_eq!(skips["additionalProperties"], false);

    let renames = sender::<Renames>();
    let renames = def(&renames, "Renames");
    assert_eq!(
        renames["required"],
        json!(["ID", "outName", "name", "kindOut"])
    );
    // Aliases exist only for the receiver.
    assert!(renames["properties"].get("fullName").is_none());
    assert!(renames.get("allOf").is_none());

    // An `Option` without skip_serializing_if is written, as null when `None`.
    let refund = sender::<RefundRequest>();
    let refund = def(&refund, "RefundRequest");
    assert_eq!(
        refund["required"],
        json!(["category", "orderId", "useCase"])
    );
    assert_eq!(
        refund["properties"]["useCase"]["type"],
        json!(["string", "null"])
    );
}

#[test]
fn receiver_view_lists_what_deserialize_accepts() {
    let doc = receiver::<Skips>();
    let skips = def(&doc, "Skips");
    let names: Vec<&str> = skips["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    // `cache` (skip) and `computed` (skip_deserializing) are never read.
    assert_eq!(names, ["items", "kept", "note", "write_only"]);
    assert_eq!(skips["required"], json!(["kept", "write_only", "items"]));
    // serde ignores unknown fields: the receiver allows them.
    assert!(skips.get("additionalProperties").is_none());

    let doc = receiver::<RenameAllSplit>();
    let split = def(&doc, "RenameAllSplit");
    assert_eq!(split["required"], json!(["userId", "x"]));

    let doc = receiver::<FieldDefaults>();
    let defaults = def(&doc, "FieldDefaults");
    assert_eq!(defaults["required"], json!(["query"]));
    // `default` makes a field optional, not nullable.
    assert_eq!(defaults["properties"]["limit"]["type"], "integer");

    let doc = receiver::<Defaults>();
    assert!(def(&doc, "Defaults").get("required").is_none());

    let doc = receiver::<StrictNote>();
    let strict = def(&doc, "StrictNote");
    assert_eq!(strict["additionalProperties"], false);
    assert_eq!(strict["required"], json!(["text"]));
}

#[test]
fn a_required_field_read_under_an_alias_appears_exactly_once() {
    let doc = receiver::<RefundRequest>();
    let refund = def(&doc, "RefundRequest");
    assert_eq!(refund["required"], json!(["category"]));
    assert_eq!(
        refund["allOf"],
        // Each key also under `properties`, as ajv's `strict: true` requires of a `required`.
        json!([{ "oneOf": [
            { "properties": { "orderId": true }, "required": ["orderId"] },
            { "properties": { "orderRef": true }, "required": ["orderRef"] },
        ] }])
    );
    assert_eq!(
        refund["properties"]["orderRef"]["x-handoff-alias-of"],
        "orderId"
    );
    let v = validator(&doc);
    assert!(v.is_valid(&json!({ "category": "damaged", "orderId": "A1", "useCase": null })));
    assert!(v.is_valid(&json!({ "category": "damaged", "orderRef": "A1" })));
    // Neither, or both: serde says `missing field` and `duplicate field`.
    assert!(!v.is_valid(&json!({ "category": "damaged" })));
    let both = json!({ "category": "damaged", "orderId": "A1", "orderRef": "A1" });
    assert!(!v.is_valid(&both));
    assert!(serde_json::from_value::<RefundRequest>(both).is_err());

    let doc = receiver::<Renames>();
    let v = validator(&doc);
    let base = json!({ "ID": "1", "inName": "s", "kind": 1 });
    for key in ["name", "fullName", "full_name"] {
        let mut instance = base.clone();
        instance[key] = json!("n");
        assert!(v.is_valid(&instance), "{key}");
    }
    let mut two = base.clone();
    two["name"] = json!("n");
    two["full_name"] = json!("n");
    assert!(!v.is_valid(&two));
    assert!(serde_json::from_value::<Renames>(two).is_err());
}

#[test]
fn null_only_where_the_type_is_an_option() {
    let doc = receiver::<TaskResult>();
    let v = validator(&doc);
    let ok = json!({ "status": "done", "evidence": [], "task_revision": 1, "conclusion": null });
    assert!(v.is_valid(&ok));
    assert!(serde_json::from_value::<TaskResult>(ok).is_ok());
    // `unresolved` has a default but is not an Option: absent is fine, null is not.
    let null_default =
        json!({ "status": "done", "evidence": [], "task_revision": 1, "unresolved": null });
    assert!(!v.is_valid(&null_default));
    assert!(serde_json::from_value::<TaskResult>(null_default).is_err());
}

#[test]
fn a_flattened_map_types_the_extra_keys() {
    let doc = receiver::<FlattenMap>();
    let flat = def(&doc, "FlattenMap");
    assert_eq!(flat["additionalProperties"], json!({}));
    assert_eq!(flat["required"], json!(["id"]));
    let doc = sender::<FlattenMap>();
    assert_eq!(def(&doc, "FlattenMap")["additionalProperties"], json!({}));

    let doc = sender::<FlattenStruct>();
    let flat = def(&doc, "FlattenStruct");
    assert_eq!(flat["required"], json!(["title", "author", "revision"]));
    assert_eq!(flat["additionalProperties"], false);
}

#[test]
fn scalar_types() {
    let doc = receiver::<StdTypes>();
    let p = &def(&doc, "StdTypes")["properties"];
    assert_eq!(
        p["u8"],
        json!({ "type": "integer", "minimum": 0, "maximum": 255, "description": "`u8`." })
    );
    assert_eq!(p["i64"]["minimum"], i64::MIN);
    assert_eq!(p["u64"]["maximum"], u64::MAX);
    assert_eq!(p["u128"]["minimum"], 0);
    assert!(p["u128"].get("maximum").is_none());
    assert!(p["i128"].get("minimum").is_none() && p["i128"].get("maximum").is_none());
    assert_eq!(p["f32"]["type"], "number");
    assert_eq!(p["char"]["minLength"], 1);
    assert_eq!(p["char"]["maxLength"], 1);
    assert_eq!(p["unit"]["type"], "null");
    assert_eq!(p["option"]["type"], json!(["integer", "null"]));
    // serde cannot tell `Some(None)` from `None`: one nullable layer.
    assert_eq!(p["nested_option"]["type"], json!(["integer", "null"]));
    assert_eq!(p["any"], json!({ "description": "`serde_json::Value`." }));
    assert_eq!(p["hash_set"]["uniqueItems"], true);
    assert_eq!(p["btree_set"]["uniqueItems"], true);
    assert!(p["vec"].get("uniqueItems").is_none());
    assert_eq!(p["array"]["minItems"], 4);
    assert_eq!(p["array"]["maxItems"], 4);
    assert_eq!(
        p["tuple"]["prefixItems"],
        json!([{ "type": "string" }, { "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX }])
    );
    assert_eq!(p["tuple"]["items"], false);
    assert_eq!(
        p["btree_map"]["additionalProperties"]["items"]["type"],
        "boolean"
    );

    let doc = receiver::<TimeAndIds>();
    let p = &def(&doc, "TimeAndIds")["properties"];
    assert_eq!(p["id"]["format"], "uuid");
    assert_eq!(p["at"]["format"], "date-time");
    assert_eq!(p["day"]["format"], "date");
    // No offset: not JSON Schema's `date-time`/`time`.
    assert!(p["naive"].get("format").is_none());
    assert_eq!(p["naive"]["x-handoff-format"], "naive-date-time");
    assert_eq!(p["time"]["x-handoff-format"], "time");

    let v = validator(&receiver::<char>());
    assert!(v.is_valid(&json!("𝄞")));
    assert!(!v.is_valid(&json!("ab")));
    assert!(!v.is_valid(&json!("")));
}

#[test]
fn map_keys_follow_the_key_type() {
    let doc = receiver::<BTreeMap<u16, bool>>();
    assert_eq!(
        doc["propertyNames"],
        json!({ "pattern": "^([0-9]|[1-9][0-9]|[1-9][0-9]{2}|[1-9][0-9]{3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$" })
    );
    let v = validator(&doc);
    assert!(v.is_valid(&json!({ "0": true, "65535": false })));
    assert!(!v.is_valid(&json!({ "a": true })));
    // The digits of the kind's range exactly: serde_json refuses a key past it.
    assert!(!v.is_valid(&json!({ "65536": true })));
    let doc = receiver::<BTreeMap<i8, bool>>();
    assert!(validator(&doc).is_valid(&json!({ "-12": true })));
    let doc = receiver::<BTreeMap<String, bool>>();
    assert!(doc.get("propertyNames").is_none());
    // A newtype key is its inner type: here any string.
    let doc = receiver::<BTreeMap<OrderId, u8>>();
    assert!(doc.get("propertyNames").is_none());
}

#[test]
fn newtypes_tuples_units_and_recursion() {
    let doc = receiver::<OrderId>();
    assert_eq!(def(&doc, "OrderId")["type"], "string");
    let doc = receiver::<Meters>();
    assert_eq!(def(&doc, "Meters")["type"], "number");
    let doc = receiver::<Point>();
    assert_eq!(
        def(&doc, "Point")["prefixItems"].as_array().map(Vec::len),
        Some(2)
    );
    assert_eq!(receiver::<Marker>()["type"], "null");
    let doc = receiver::<Plan>();
    let plan = def(&doc, "Plan");
    assert_eq!(plan["properties"]["steps"]["items"]["$ref"], "#/$defs/Plan");
    assert_eq!(
        plan["properties"]["fallback"]["anyOf"],
        json!([{ "$ref": "#/$defs/Plan" }, { "type": "null" }])
    );
    let v = validator(&doc);
    assert!(v.is_valid(
        &json!({ "action": "a", "steps": [{ "action": "b", "steps": [{ "action": "c" }] }] })
    ));
    assert!(!v.is_valid(&json!({ "action": "a", "steps": [{ "steps": [] }] })));
}

#[test]
fn string_enums() {
    let doc = sender::<TaskStatus>();
    assert_eq!(
        def(&doc, "TaskStatus")["oneOf"],
        json!([
            { "type": "string", "const": "done", "title": "Done", "description": "Done, acceptance met." },
            { "type": "string", "const": "partial", "title": "Partial", "description": "Partly done: see `unresolved`." },
            { "type": "string", "const": "failed", "title": "Failed", "description": "Could not be done." },
        ])
    );
    // The catch-all: the receiver accepts any string; the sender writes the known ones.
    let doc = receiver::<Level>();
    let level = def(&doc, "Level");
    assert_eq!(level["type"], "string");
    let alternatives = level["oneOf"].as_array().expect("oneOf");
    assert_eq!(
        alternatives.last(),
        Some(&json!({
            "not": { "enum": ["LOW", "VERY_HIGH", "CRITICAL", "UNKNOWN"] },
            "title": "Unknown",
            "description": "Any other level.",
            "x-handoff-catch-all": true,
        }))
    );
    let v = validator(&doc);
    for ok in ["SOMETHING_NEW", "CRITICAL", "VERY_HIGH", "UNKNOWN"] {
        assert!(v.is_valid(&json!(ok)), "{ok}");
        assert!(serde_json::from_value::<Level>(json!(ok)).is_ok());
    }
    assert!(!v.is_valid(&json!(3)));
    let doc = sender::<Level>();
    let v = validator(&doc);
    assert!(v.is_valid(&json!("VERY_HIGH")));
    assert!(!v.is_valid(&json!("CRITICAL")), "an alias is never written");
    assert!(!v.is_valid(&json!("SOMETHING_NEW")));

    // Without docs: a plain `enum`, and with a catch-all, any string with the known ones as
    // `examples`.
    let doc = receiver::<Plain>();
    assert_eq!(
        def(&doc, "Plain"),
        &json!({
            "title": "Plain",
            "type": "string",
            "examples": ["a", "b"],
            "x-handoff-rust": "json_schema::Plain",
        })
    );
    let doc = sender::<Plain>();
    assert_eq!(def(&doc, "Plain")["enum"], json!(["a", "b"]));
}

#[derive(serde::Serialize, serde::Deserialize, HandoffSchema)]
#[serde(rename_all = "lowercase")]
enum Plain {
    A,
    #[serde(other)]
    B,
}

#[test]
fn externally_tagged_enums() {
    let doc = receiver::<Command>();
    let v = validator(&doc);
    for ok in [
        json!("Stop"),
        json!({ "Say": "hi" }),
        json!({ "Goto": [1, -2] }),
        json!({ "Configure": { "maxSpeed": 1.5 } }),
        json!("halt"),
        json!("abort"),
        json!("Legacy"),
    ] {
        assert!(v.is_valid(&ok), "{ok}");
        assert!(serde_json::from_value::<Command>(ok).is_ok());
    }
    for bad in [
        json!("Internal"),
        json!({ "Say": "hi", "Stop": null }),
        json!({ "Goto": [1] }),
        json!("Say"),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        assert!(serde_json::from_value::<Command>(bad).is_err());
    }
    let doc = sender::<Command>();
    let v = validator(&doc);
    assert!(v.is_valid(&json!("halt")));
    assert!(!v.is_valid(&json!("abort")), "an alias is never written");
    assert!(
        !v.is_valid(&json!("Legacy")),
        "skip_serializing: never written"
    );
    let titles: Vec<&Value> = def(&doc, "Command")["oneOf"]
        .as_array()
        .expect("oneOf")
        .iter()
        .map(|alt| &alt["title"])
        .collect();
    assert_eq!(titles, ["Stop", "Say", "Goto", "Configure", "Halt"]);
}

#[test]
fn internally_tagged_enums() {
    let doc = receiver::<Figure>();
    let v = validator(&doc);
    for ok in [
        json!({ "type": "circle", "radius": 1.0 }),
        json!({ "type": "rect", "w": 1, "h": 2 }),
        json!({ "type": "labelled", "author": "me" }),
        json!({ "type": "empty", "anything": "ignored" }),
    ] {
        assert!(v.is_valid(&ok), "{ok}");
        assert!(serde_json::from_value::<Figure>(ok).is_ok());
    }
    for bad in [
        json!({ "type": "circle" }),
        json!({ "type": "square", "side": 1 }),
        json!({ "radius": 1.0 }),
        json!({ "type": "labelled" }),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        assert!(serde_json::from_value::<Figure>(bad).is_err());
    }
    // The newtype variant's struct is inlined beside the tag, closed in the sender view.
    let doc = sender::<Figure>();
    let labelled = &def(&doc, "Figure")["oneOf"][2];
    assert_eq!(labelled["title"], "Labelled");
    assert_eq!(labelled["required"], json!(["type", "author", "revision"]));
    assert_eq!(labelled["additionalProperties"], false);
    assert!(validator(&doc).is_valid(
        &serde_json::to_value(Figure::Labelled(Meta {
            author: "a".into(),
            revision: 2,
        }))
        .expect("serializes")
    ));
}

#[test]
fn adjacently_tagged_and_untagged_enums() {
    let doc = receiver::<Message>();
    let v = validator(&doc);
    for ok in [
        json!({ "t": "Text", "c": "hi" }),
        json!({ "t": "Pair", "c": [1, 2] }),
        json!({ "t": "Move", "c": { "x": 1, "y": -1 } }),
        json!({ "t": "Ping" }),
        json!({ "t": "Ping", "c": null }),
    ] {
        assert!(v.is_valid(&ok), "{ok}");
        assert!(serde_json::from_value::<Message>(ok).is_ok());
    }
    for bad in [
        json!({ "t": "Text" }),
        json!({ "c": "hi" }),
        json!({ "t": "Ping", "c": 1 }),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        assert!(serde_json::from_value::<Message>(bad).is_err());
    }
    let doc = sender::<Message>();
    assert!(
        !validator(&doc).is_valid(&json!({ "t": "Ping", "c": null })),
        "the sender writes the tag alone"
    );

    let doc = receiver::<IdOrName>();
    assert_eq!(
        def(&doc, "IdOrName")["anyOf"].as_array().map(Vec::len),
        Some(2)
    );
    let v = validator(&doc);
    assert!(v.is_valid(&json!(7)));
    assert!(v.is_valid(&json!("seven")));
    assert!(!v.is_valid(&json!(-7)));
    assert!(serde_json::from_value::<IdOrName>(json!(-7)).is_err());
}

#[test]
fn sets_reject_duplicates() {
    let v = validator(&receiver::<BTreeSet<String>>());
    assert!(v.is_valid(&json!(["a", "b"])));
    assert!(!v.is_valid(&json!(["a", "a"])));
}

/// The standard types described through constrained values, as a reviewer reads them: the
/// canonical text of each (both views per field), then the receiver's JSON Schema of the
/// times.
#[test]
fn constrained_std_types_snapshot() {
    let mut out = String::new();
    for text in [
        contract_core::schema::text::to_text(&NonZeros::schema()),
        contract_core::schema::text::to_text(&Times::schema()),
        contract_core::schema::text::to_text(&FfiStrings::schema()),
    ] {
        out.push_str(&text);
        out.push('\n');
    }
    out.push_str(&pretty(&receiver::<Times>()));
    insta::assert_snapshot!("constrained_std_types", out);
}

/// Enums with untagged variants after their tagged ones, as a reviewer reads them: the
/// canonical text of each representation, then both JSON Schema views of the internally
/// tagged one (an `anyOf` of the tagged `oneOf` and the untagged contents).
#[test]
fn untagged_variants_snapshot() {
    use contract_tests::types::{AdjacentWithUntagged, ExternalWithUntagged, InternalWithUntagged};
    let mut out = String::new();
    for text in [
        contract_core::schema::text::to_text(&ExternalWithUntagged::schema()),
        contract_core::schema::text::to_text(&InternalWithUntagged::schema()),
        contract_core::schema::text::to_text(&AdjacentWithUntagged::schema()),
    ] {
        out.push_str(&text);
        out.push('\n');
    }
    out.push_str(&pretty(&sender::<InternalWithUntagged>()));
    out.push('\n');
    out.push_str(&pretty(&receiver::<InternalWithUntagged>()));
    insta::assert_snapshot!("untagged_variants", out);
}
