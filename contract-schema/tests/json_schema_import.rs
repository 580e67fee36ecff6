//! `json_schema::import`: a case per shape read and per keyword refused, in each view (a
//! producer's schema is read as a sender view, a consumer's as a receiver view), with the
//! JSON pointer of every warning and error.

use contract_schema::compat::{self, Rule};
use contract_schema::constraint::{IntRange, IntValue, Length};
use contract_schema::json_schema::{import, ImportError, Imported, View};
use contract_schema::model::{
    Body, Emit, EnumDef, FloatKind, IntKind, Provenance, Repr, Schema, StringFormat, StructDef,
    Type, Unknown, VariantDefKind,
};
use serde_json::{json, Value};

// ----- helpers ------------------------------------------------------------------------------

fn sender(doc: &Value) -> Imported {
    import(doc, View::Sender).unwrap_or_else(|e| panic!("a producer's schema reads: {e}"))
}

fn receiver(doc: &Value) -> Imported {
    import(doc, View::Receiver).unwrap_or_else(|e| panic!("a consumer's schema reads: {e}"))
}

/// Both views read without a warning.
fn both_clean(doc: &Value) -> [Schema; 2] {
    [View::Sender, View::Receiver].map(|view| {
        let imported = import(doc, view).unwrap_or_else(|e| panic!("{view:?}: {e}"));
        assert_eq!(imported.warnings, vec![], "{view:?}");
        imported.schema
    })
}

fn pointers(imported: &Imported) -> Vec<&str> {
    imported
        .warnings
        .iter()
        .map(|w| w.pointer.as_str())
        .collect()
}

/// What the model cannot hold: dropped with one warning at `pointer` for a producer, an error
/// at `pointer` for a consumer. Returns the producer's schema.
fn refused(doc: &Value, pointer: &str) -> Schema {
    let producer = sender(doc);
    assert_eq!(
        pointers(&producer),
        vec![pointer],
        "{:?}",
        producer.warnings
    );
    let err: ImportError = import(doc, View::Receiver).expect_err("a consumer's is refused");
    assert_eq!(err.pointer, pointer, "{err}");
    assert!(
        err.to_string().starts_with(&format!("#{pointer}: ")),
        "{err}"
    );
    producer.schema
}

fn def<'a>(schema: &'a Schema, name: &str) -> &'a Body {
    &schema
        .def(name)
        .unwrap_or_else(|| panic!("no type {name}: {:?}", schema.types.keys()))
        .body
}

fn struct_of<'a>(schema: &'a Schema, name: &str) -> &'a StructDef {
    match def(schema, name) {
        Body::Struct(s) => s,
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

fn enum_of<'a>(schema: &'a Schema, name: &str) -> &'a EnumDef {
    match def(schema, name) {
        Body::Enum(e) => e,
        other => panic!("{name} is not an enum: {other:?}"),
    }
}

/// The root type of a one-property object, `{"type": "object", "properties": {"v": schema}}`.
fn field_type(schema_of_v: Value, view: View) -> Type {
    let doc = json!({"title": "T", "type": "object", "properties": {"v": schema_of_v}, "required": ["v"]});
    let imported = import(&doc, view).unwrap_or_else(|e| panic!("{e}"));
    struct_of(&imported.schema, "T").fields[0].ty.clone()
}

/// An object of these entries, the values moved in.
fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// The findings of `writer` read by `reader`: each rule's id and path.
fn found(writer: &Schema, reader: &Schema) -> Vec<(&'static str, String)> {
    compat::check(writer, reader)
        .findings()
        .iter()
        .map(|f| (f.rule.id(), f.path.to_string()))
        .collect()
}

fn string() -> Type {
    Type::String(StringFormat::Plain)
}

// ----- documents, dialects, references ---------------------------------------------------------

#[test]
fn a_pydantic_model_without_schema_is_2020_12_with_its_defs() {
    // As pydantic 2 writes `RefundRequest.model_json_schema()`.
    let doc = json!({
        "$defs": {
            "Category": {"enum": ["damaged", "late"], "title": "Category", "type": "string"},
            "Line": {
                "properties": {"sku": {"title": "Sku", "type": "string"}, "qty": {"title": "Qty", "type": "integer"}},
                "required": ["sku", "qty"], "title": "Line", "type": "object"
            }
        },
        "properties": {
            "orderId": {"title": "Orderid", "type": "string"},
            "category": {"$ref": "#/$defs/Category"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Note"},
            "lines": {"items": {"$ref": "#/$defs/Line"}, "title": "Lines", "type": "array"}
        },
        "required": ["orderId", "category", "lines"],
        "title": "RefundRequest",
        "type": "object"
    });
    let consumer = receiver(&doc);
    assert_eq!(consumer.warnings, vec![]);
    let schema = consumer.schema;
    assert_eq!(schema.root, Type::Named("RefundRequest".into()));
    let root = struct_of(&schema, "RefundRequest");
    assert_eq!(root.unknown, Unknown::Ignore);
    let field = |name: &str| {
        root.fields
            .iter()
            .find(|f| f.rust_name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(field("orderId").ty, string());
    assert_eq!(field("category").ty, Type::Named("Category".into()));
    assert_eq!(field("note").ty, Type::option_of(string()));
    assert_eq!(
        field("note").receiver.as_ref().map(|r| r.required),
        Some(false)
    );
    assert_eq!(
        field("lines").ty,
        Type::List(Box::new(Type::Named("Line".into())))
    );
    assert!(enum_of(&schema, "Category").is_string_enum());
    assert_eq!(
        struct_of(&schema, "Line").fields[0].ty,
        Type::Int(IntKind::I128),
        "an unbounded integer is i128"
    );
    // The producer's default that is not required: written, but the schema does not say.
    let producer = sender(&doc);
    assert_eq!(pointers(&producer), ["/properties/note/default"]);
    let note = &struct_of(&producer.schema, "RefundRequest").fields;
    let note = note.iter().find(|f| f.rust_name == "note").expect("note");
    assert_eq!(note.sender.as_ref().map(|s| s.emit), Some(Emit::IfPresent));
}

#[test]
fn draft_07_reads_definitions_type_arrays_and_items_arrays() {
    let doc = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$ref": "#/definitions/Refund",
        "definitions": {
            "Refund": {
                "type": "object",
                "properties": {
                    "note": {"type": ["string", "null"]},
                    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "boolean"}],
                             "additionalItems": false, "minItems": 2, "maxItems": 2},
                    "link": {"$ref": "#/definitions/Refund", "description": "siblings of $ref are ignored in draft-07", "type": "string"}
                },
                "required": ["note", "pair"],
                "additionalProperties": false
            }
        }
    });
    for schema in both_clean(&doc) {
        assert_eq!(schema.root, Type::Named("Refund".into()));
        let refund = struct_of(&schema, "Refund");
        assert_eq!(refund.unknown, Unknown::Deny);
        let types: Vec<&Type> = refund.fields.iter().map(|f| &f.ty).collect();
        assert_eq!(
            types,
            [
                &Type::Named("Refund".into()),
                &Type::option_of(string()),
                &Type::Tuple(vec![string(), Type::Bool]),
            ]
        );
    }
}

#[test]
fn an_unknown_dialect_is_an_error_in_both_views() {
    let doc = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "string"});
    for view in [View::Sender, View::Receiver] {
        let err = import(&doc, view).expect_err("draft-04");
        assert_eq!(err.pointer, "/$schema");
    }
}

#[test]
fn recursive_references_and_cycles_terminate() {
    let doc = json!({
        "$ref": "#/$defs/Node",
        "$defs": {
            "Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["children"]},
            "A": {"$ref": "#/$defs/B"},
            "B": {"$ref": "#/$defs/A"}
        }
    });
    let [s, r] = both_clean(&doc);
    for schema in [&s, &r] {
        let node = struct_of(schema, "Node");
        assert_eq!(
            node.fields[0].ty,
            Type::List(Box::new(Type::Named("Node".into())))
        );
    }
    // A cycle of references alone, reached from a property: newtypes of each other.
    let cycle = json!({"type": "object", "title": "T", "properties": {"a": {"$ref": "#/$defs/A"}},
                       "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
    let [s, _] = both_clean(&cycle);
    assert_eq!(def(&s, "A"), &Body::Newtype(Type::Named("B".into())));
    assert_eq!(def(&s, "B"), &Body::Newtype(Type::Named("A".into())));
    // A recursive root, through `#` (zod 4 writes so).
    let root = json!({"type": "object", "title": "Tree", "properties": {"next": {"$ref": "#"}}});
    let r = receiver(&root).schema;
    assert_eq!(r.root, Type::Named("Tree".into()));
    assert_eq!(
        struct_of(&r, "Tree").fields[0].ty,
        Type::Named("Tree".into())
    );
}

#[test]
fn a_reference_to_nothing_is_an_error_and_one_outside_the_document_is_refused() {
    let dangling = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Gone"}}});
    for view in [View::Sender, View::Receiver] {
        let err = import(&dangling, view).expect_err("dangling");
        assert_eq!(err.pointer, "/properties/a/$ref");
    }
    let remote =
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}});
    let producer = refused(&remote, "/properties/a/$ref");
    assert_eq!(struct_of(&producer, "Root").fields[0].ty, Type::Any);
}

#[test]
fn nesting_deeper_than_the_bound_is_an_error_not_a_crash() {
    let mut doc = json!({"type": "string"});
    for _ in 0..300 {
        doc = object([("type", "array".into()), ("items", doc)]);
    }
    for view in [View::Sender, View::Receiver] {
        let err = import(&doc, view).expect_err("too deep");
        assert!(err.message.contains("deeper than 64"), "{err}");
        assert!(err.pointer.starts_with("/items/items/"), "{}", err.pointer);
    }
    // Through objects, maps, unions and tagged unions alike: each level wraps the one inside
    // (moved in, not through `json!`, which would copy it recursively).
    let wrap: [fn(Value) -> Value; 6] = [
        |inner| {
            object([
                ("type", "object".into()),
                ("properties", object([("a", inner)])),
            ])
        },
        |inner| object([("type", "object".into()), ("additionalProperties", inner)]),
        |inner| {
            object([(
                "anyOf",
                Value::Array(vec![inner, json!({"type": "integer"})]),
            )])
        },
        |inner| {
            let a = object([
                ("type", "object".into()),
                (
                    "properties",
                    object([("k", json!({"const": "a"})), ("v", inner)]),
                ),
            ]);
            object([(
                "oneOf",
                Value::Array(vec![
                    a,
                    json!({"type": "object", "properties": {"k": {"const": "b"}}}),
                ]),
            )])
        },
        |inner| {
            let v = object([
                ("type", "object".into()),
                ("properties", object([("V", inner)])),
                ("required", json!(["V"])),
                ("additionalProperties", false.into()),
            ]);
            object([(
                "oneOf",
                Value::Array(vec![json!({"type": "string", "const": "U"}), v]),
            )])
        },
        |inner| {
            let tagged = object([(
                "oneOf",
                Value::Array(vec![
                    object([
                        ("type", "object".into()),
                        (
                            "properties",
                            object([("k", json!({"const": "a"})), ("v", inner)]),
                        ),
                    ]),
                    json!({"type": "object", "properties": {"k": {"const": "b"}}}),
                ]),
            )]);
            object([(
                "anyOf",
                Value::Array(vec![tagged, json!({"type": "integer", "title": "N"})]),
            )])
        },
    ];
    for (shape, wrap) in wrap.iter().enumerate() {
        let mut doc = json!({"type": "string"});
        for _ in 0..200 {
            doc = wrap(doc);
        }
        for view in [View::Sender, View::Receiver] {
            let err = import(&doc, view).expect_err("too deep");
            assert!(
                err.message.contains("deeper than 64"),
                "shape {shape}: {err}"
            );
        }
    }
}

#[test]
fn documents_that_are_not_schemas_are_errors() {
    for (doc, pointer) in [
        (json!(3), ""),
        (json!({"type": 3}), "/type"),
        (json!({"type": "object", "properties": []}), "/properties"),
        (json!({"type": "object", "required": "a"}), "/required"),
        (json!({"type": "string", "minLength": -1}), "/minLength"),
        (json!({"type": "thing"}), "/type"),
        (json!({"$ref": 1}), "/$ref"),
        (
            json!({"x-handoff-contract": "Refund/v0"}),
            "/x-handoff-contract",
        ),
        (json!({"x-handoff-mode": "sideways"}), "/x-handoff-mode"),
    ] {
        for view in [View::Sender, View::Receiver] {
            let err = import(&doc, view).expect_err("not a schema");
            assert_eq!(err.pointer, pointer, "{doc}: {err}");
        }
    }
}

#[test]
fn a_root_that_constrains_nothing_is_warned_in_both_views() {
    // What zod-to-json-schema returns for a zod 4 schema.
    let doc = json!({"$schema": "http://json-schema.org/draft-07/schema#"});
    for view in [View::Sender, View::Receiver] {
        let imported = import(&doc, view).expect("reads");
        assert_eq!(imported.schema.root, Type::Any);
        assert_eq!(pointers(&imported), [""]);
        assert!(imported.warnings[0]
            .to_string()
            .starts_with("#: the root schema constrains nothing"));
    }
}

// ----- this crate's annotations ----------------------------------------------------------------

#[test]
fn the_exports_annotations_are_read_back() {
    let doc = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "x-handoff-contract": "refund-request/v2",
        "x-handoff-mode": "backward",
        "x-handoff-view": "receiver",
        "title": "Refund",
        "$ref": "#/$defs/Refund",
        "$defs": {"Refund": {
            "title": "Refund",
            "x-handoff-rust": "app::Refund",
            "type": "object",
            "properties": {
                "orderId": {"type": "string", "x-handoff-rust": "order_id",
                            "x-handoff-renamed-from": ["orderRef"], "x-handoff-provenance": "assumption"},
                "order": {"type": "string", "x-handoff-alias-of": "orderId", "x-handoff-rust": "order_id",
                          "x-handoff-renamed-from": ["orderRef"], "x-handoff-provenance": "assumption"},
                "when": {"type": "string", "x-handoff-format": "naive-date-time"}
            },
            "required": ["when"],
            "allOf": [{"oneOf": [{"required": ["orderId"]}, {"required": ["order"]}]}]
        }}
    });
    let consumer = receiver(&doc);
    assert_eq!(consumer.warnings, vec![]);
    let schema = consumer.schema;
    assert_eq!(
        schema.contract.as_ref().map(ToString::to_string).as_deref(),
        Some("refund-request/v2")
    );
    assert_eq!(schema.mode, compat::Mode::Backward);
    assert_eq!(
        schema.def("Refund").map(|d| d.rust_path.as_str()),
        Some("app::Refund")
    );
    let refund = struct_of(&schema, "Refund");
    assert_eq!(refund.fields.len(), 2, "the alias is not a field");
    let order = &refund.fields[0];
    assert_eq!(order.rust_name, "order_id");
    assert_eq!(order.provenance, Provenance::Assumption);
    assert_eq!(order.renamed_from, ["orderRef"]);
    let read = order.receiver.as_ref().expect("read");
    assert_eq!(
        (read.name.as_str(), read.aliases.as_slice(), read.required),
        ("orderId", &["order".to_owned()][..], true)
    );
    assert_eq!(
        refund.fields[1].ty,
        Type::String(StringFormat::NaiveDateTime)
    );
    // Read as the other view: a warning at `x-handoff-view`, and the alias constraint says
    // the producer writes exactly one of the two keys (a sender view writes a field under
    // one key): the object is read as its two alternatives, each key written always.
    let producer = sender(&doc);
    assert_eq!(pointers(&producer), ["/x-handoff-view"]);
    let alternatives = written_alternatives(&producer.schema, "Refund");
    assert_eq!(
        alternatives,
        [
            "orderId: orderId always, when always",
            "order: order always, when always"
        ]
    );
}

/// The alternatives of the untagged enum `name` a producer's object with groups of keys is
/// read as: each variant's name and its fields' keys with how they are written.
fn written_alternatives(schema: &Schema, name: &str) -> Vec<String> {
    let Some(Body::Enum(e)) = schema.def(name).map(|d| &d.body) else {
        panic!("`{name}` is not an enum");
    };
    assert_eq!(e.repr, Repr::Untagged);
    e.variants
        .iter()
        .map(|v| {
            let VariantDefKind::Struct(s) = &v.kind else {
                panic!("`{}` is not a struct variant", v.rust_name);
            };
            let fields: Vec<String> = s
                .fields
                .iter()
                .filter_map(|f| f.sender.as_ref())
                .map(|w| format!("{} {}", w.name, w.emit.as_str()))
                .collect();
            format!("{}: {}", v.rust_name, fields.join(", "))
        })
        .collect()
}

#[test]
fn a_producers_at_most_one_key_constraint_is_read_as_alternatives_written_when_present() {
    let doc = json!({"title": "T", "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "boolean"}},
        "required": ["c"], "additionalProperties": false,
        "allOf": [{"not": {"anyOf": [{"required": ["a", "b"]}]}}]});
    let producer = sender(&doc);
    assert_eq!(pointers(&producer), Vec::<&str>::new());
    assert_eq!(
        written_alternatives(&producer.schema, "T"),
        ["a: a if-present, c always", "b: b if-present, c always"]
    );
    // A Rust reader of `a` with the alias `b` reads every alternative; one without the
    // alias does not know `b`, which it denies.
    let reader = |aliases: &str| {
        contract_schema::text::parse(&format!(
            "root R\n\nstruct R\n  rust \"app::R\"\n  unknown deny\n  field a: option<string>\n    send \"a\" if-present\n    receive \"a\"{aliases} optional\n  field c: bool\n    send \"c\" always\n    receive \"c\" required\n"
        ))
        .expect("parses")
    };
    assert!(compat::check(&producer.schema, &reader(" alias \"b\"")).is_compatible());
    let denied = compat::check(&producer.schema, &reader(""));
    let rules: Vec<&str> = denied.findings().iter().map(|f| f.rule.id()).collect();
    assert_eq!(rules, ["UNKNOWN_FIELD_DENIED"], "{denied}");
}

#[test]
fn an_at_most_one_alias_constraint_keeps_the_field_optional() {
    let doc = json!({"title": "T", "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string", "x-handoff-alias-of": "a"}},
        "allOf": [{"not": {"anyOf": [{"required": ["a", "b"]}]}}]});
    let schema = receiver(&doc).schema;
    let read = struct_of(&schema, "T").fields[0]
        .receiver
        .clone()
        .expect("read");
    assert_eq!((read.aliases, read.required), (vec!["b".to_owned()], false));
}

// ----- objects and maps ------------------------------------------------------------------------

#[test]
fn additional_properties_absent_true_a_schema_or_false_in_each_view() {
    let object = |additional: Option<Value>| {
        let mut doc = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
        if let Some(a) = additional {
            doc["additionalProperties"] = a;
        }
        doc
    };
    let policy = |doc: &Value, view| {
        let schema = import(doc, view).expect("reads").schema;
        let s = struct_of(&schema, "T");
        (s.unknown, s.extra.clone())
    };
    for open in [object(None), object(Some(json!(true)))] {
        // A producer's open object may carry other keys; a consumer's ignores them.
        assert_eq!(
            policy(&open, View::Sender),
            (Unknown::Capture, Some(Type::Any))
        );
        assert_eq!(policy(&open, View::Receiver), (Unknown::Ignore, None));
    }
    let typed = object(Some(
        json!({"type": "integer", "minimum": 0, "maximum": 255}),
    ));
    for view in [View::Sender, View::Receiver] {
        assert_eq!(
            policy(&typed, view),
            (Unknown::Capture, Some(Type::Int(IntKind::U8)))
        );
        assert_eq!(
            policy(&object(Some(json!(false))), view),
            (Unknown::Deny, None)
        );
    }
}

#[test]
fn an_open_producer_breaks_a_reader_that_denies_unknown_fields() {
    let consumer = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    let producer = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    let report = compat::check(&sender(&producer).schema, &receiver(&consumer).schema);
    let rules: Vec<Rule> = report.findings().iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::UnknownFieldDenied]);
    // Closed on both sides: nothing.
    let closed = compat::check(&sender(&consumer).schema, &receiver(&consumer).schema);
    assert!(closed.is_compatible(), "{closed}");
}

#[test]
fn maps_take_their_keys_from_property_names() {
    let map = |names: Option<Value>| {
        let mut doc = json!({"type": "object", "additionalProperties": {"type": "boolean"}});
        if let Some(n) = names {
            doc["propertyNames"] = n;
        }
        doc
    };
    let key = |doc: Value| match both_clean(&doc)[1].root.clone() {
        Type::Map(k, v) => {
            assert_eq!(*v, Type::Bool);
            *k
        }
        other => panic!("not a map: {other:?}"),
    };
    assert_eq!(key(map(None)), string());
    assert_eq!(
        key(map(Some(json!({"pattern": "^(0|[1-9][0-9]*)$"})))),
        Type::Int(IntKind::U128)
    );
    assert_eq!(
        key(map(Some(json!({"pattern": "^(0|-?[1-9][0-9]*)$"})))),
        Type::Int(IntKind::I128)
    );
    assert_eq!(
        key(map(Some(json!({"enum": ["true", "false"]})))),
        Type::Bool
    );
    assert_eq!(
        key(map(Some(json!({"enum": ["1", "5"]})))),
        Type::int_in(
            IntKind::U8,
            [
                IntRange::one(IntValue::from_u128(1)),
                IntRange::one(IntValue::from_u128(5))
            ]
        )
    );
    assert_eq!(
        key(map(Some(json!({"format": "uuid"})))),
        Type::String(StringFormat::Uuid)
    );
    // `additionalProperties: true` alone is a map of anything.
    let any = both_clean(&json!({"type": "object", "additionalProperties": true}))[0]
        .root
        .clone();
    assert_eq!(any, Type::Map(Box::new(string()), Box::new(Type::Any)));
}

#[test]
fn an_object_with_properties_and_a_schema_for_the_rest_is_a_struct_that_captures_them() {
    let doc = json!({"title": "T", "type": "object", "properties": {}, "additionalProperties": {"type": "string"}});
    let [s, _] = both_clean(&doc);
    let t = struct_of(&s, "T");
    assert!(t.fields.is_empty());
    assert_eq!(
        (t.unknown, t.extra.clone()),
        (Unknown::Capture, Some(string()))
    );
}

#[test]
fn inline_objects_get_stable_names_from_their_title_or_place() {
    let doc = json!({"title": "Order", "type": "object", "properties": {
        "payment": {"type": "object", "properties": {"card": {"type": "string"}}},
        "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}},
        "address": {"title": "Address", "type": "object", "properties": {"city": {"type": "string"}}}
    }});
    let schema = receiver(&doc).schema;
    let names: Vec<&String> = schema.types.keys().collect();
    assert_eq!(
        names,
        ["Address", "Order", "Order::lines::Item", "Order::payment"]
    );
    // Read twice: the same names.
    assert_eq!(receiver(&doc).schema, schema);
}

// ----- unions and enums ------------------------------------------------------------------------

#[test]
fn nullable_forms_are_options() {
    for view in [View::Sender, View::Receiver] {
        for schema in [
            json!({"type": ["integer", "null"], "minimum": 0, "maximum": 255}),
            json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 255}, {"type": "null"}]}),
            json!({"oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 255}]}),
        ] {
            assert_eq!(
                field_type(schema, view),
                Type::option_of(Type::Int(IntKind::U8))
            );
        }
        assert_eq!(field_type(json!({"type": "null"}), view), Type::Unit);
        assert_eq!(
            field_type(json!({"enum": ["a", null]}), view).to_string(),
            "option<T::v>"
        );
    }
}

#[test]
fn string_enums_and_consts() {
    for doc in [
        json!({"title": "S", "type": "string", "enum": ["a", "b"]}),
        json!({"title": "S", "enum": ["a", "b"]}),
        json!({"title": "S", "oneOf": [{"const": "a", "description": "A"}, {"const": "b"}], "type": "string"}),
    ] {
        let [s, r] = both_clean(&doc);
        for schema in [s, r] {
            let e = enum_of(&schema, "S");
            assert!(e.is_string_enum());
            let names: Vec<&str> = e
                .variants
                .iter()
                .filter_map(|v| v.sender.as_deref())
                .collect();
            assert_eq!(names, ["a", "b"]);
        }
    }
    let one = both_clean(&json!({"title": "K", "const": "only", "type": "string"}))[0].clone();
    assert_eq!(enum_of(&one, "K").variants.len(), 1);
}

#[test]
fn tagged_unions_of_pydantic_and_zod_are_internally_tagged_enums() {
    // pydantic: a discriminated union of models, by `$ref`, with a `discriminator` (ignored).
    let pydantic = json!({
        "$defs": {
            "Cash": {"properties": {"kind": {"const": "cash", "title": "Kind", "type": "string"}, "amount": {"type": "number"}},
                     "required": ["kind", "amount"], "title": "Cash", "type": "object"},
            "Card": {"properties": {"kind": {"const": "card", "title": "Kind", "type": "string"}, "last4": {"type": "string"}},
                     "required": ["kind", "last4"], "title": "Card", "type": "object"}
        },
        "title": "Payment",
        "oneOf": [{"$ref": "#/$defs/Cash"}, {"$ref": "#/$defs/Card"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cash": "#/$defs/Cash", "card": "#/$defs/Card"}}
    });
    // zod 4: `z.discriminatedUnion("kind", [...])`, inline.
    let zod = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Payment",
        "anyOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "cash"}, "amount": {"type": "number"}}, "required": ["kind", "amount"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "card"}, "last4": {"type": "string"}}, "required": ["kind", "last4"], "additionalProperties": false}
        ]
    });
    for doc in [pydantic, zod] {
        for schema in both_clean(&doc) {
            let e = enum_of(&schema, "Payment");
            assert_eq!(e.repr, Repr::Internal { tag: "kind".into() });
            let tags: Vec<&str> = e
                .variants
                .iter()
                .filter_map(|v| v.sender.as_deref())
                .collect();
            assert_eq!(tags, ["cash", "card"]);
            let VariantDefKind::Struct(cash) = &e.variants[0].kind else {
                panic!("a struct variant");
            };
            let fields: Vec<(&str, &Type)> = cash
                .fields
                .iter()
                .map(|f| (f.rust_name.as_str(), &f.ty))
                .collect();
            assert_eq!(fields, [("amount", &Type::Float(FloatKind::F64))]);
        }
    }
}

#[test]
fn serdes_external_and_adjacent_and_untagged_shapes() {
    let external = json!({"title": "E", "oneOf": [
        {"type": "string", "const": "Stop", "title": "Stop"},
        {"type": "object", "properties": {"Move": {"type": "integer", "minimum": 0, "maximum": 255}}, "required": ["Move"], "additionalProperties": false, "title": "Move"}
    ]});
    for schema in both_clean(&external) {
        let e = enum_of(&schema, "E");
        assert_eq!(e.repr, Repr::External);
        assert_eq!(e.variants[0].kind, VariantDefKind::Unit);
        assert_eq!(
            e.variants[1].kind,
            VariantDefKind::Newtype(Type::Int(IntKind::U8))
        );
    }
    let adjacent = json!({"title": "A", "oneOf": [
        {"type": "object", "properties": {"t": {"type": "string", "const": "X"}, "c": {"type": "string"}}, "required": ["t", "c"], "additionalProperties": false},
        {"type": "object", "properties": {"t": {"type": "string", "const": "Y"}, "c": {"type": "boolean"}}, "required": ["t", "c"], "additionalProperties": false}
    ]});
    for schema in both_clean(&adjacent) {
        let e = enum_of(&schema, "A");
        assert_eq!(
            e.repr,
            Repr::Adjacent {
                tag: "t".into(),
                content: "c".into()
            }
        );
        assert_eq!(e.variants[1].kind, VariantDefKind::Newtype(Type::Bool));
    }
    // pydantic's `int | str`: an untagged enum, variants named by place.
    let untagged = json!({"title": "U", "anyOf": [{"type": "integer"}, {"type": "string"}]});
    for schema in both_clean(&untagged) {
        let e = enum_of(&schema, "U");
        assert_eq!(e.repr, Repr::Untagged);
        let names: Vec<&str> = e.variants.iter().map(|v| v.rust_name.as_str()).collect();
        assert_eq!(names, ["V0", "V1"]);
    }
    // `type: [A, B]`: the same.
    let typed = both_clean(&json!({"title": "U", "type": ["integer", "string"]}))[1].clone();
    assert_eq!(enum_of(&typed, "U").repr, Repr::Untagged);
}

#[test]
fn a_catch_all_is_read_from_its_annotation() {
    let doc = json!({"title": "S", "type": "string", "oneOf": [
        {"const": "a", "title": "A", "description": "first"},
        {"not": {"enum": ["a"]}, "title": "Other", "x-handoff-catch-all": true}
    ]});
    let schema = receiver(&doc).schema;
    assert!(enum_of(&schema, "S").catch_all().is_some());
}

#[test]
fn a_oneof_of_overlapping_alternatives_is_refused() {
    let doc =
        json!({"title": "U", "oneOf": [{"type": "string"}, {"type": "string", "minLength": 3}]});
    let producer = refused(&doc, "/oneOf/1");
    assert_eq!(enum_of(&producer, "U").repr, Repr::Untagged);
    // Disjoint JSON types need no tag.
    both_clean(&json!({"title": "U", "oneOf": [{"type": "string"}, {"type": "boolean"}]}));
    // An integer is also a number.
    refused(
        &json!({"title": "U", "oneOf": [{"type": "number"}, {"type": "integer"}]}),
        "/oneOf/1",
    );
}

// ----- scalars ---------------------------------------------------------------------------------

#[test]
fn integer_bounds_choose_the_smallest_kind_that_holds_them() {
    let int = |schema: Value| field_type(schema, View::Receiver);
    let v = IntValue::from_i128;
    assert_eq!(int(json!({"type": "integer"})), Type::Int(IntKind::I128));
    assert_eq!(
        int(json!({"type": "integer", "minimum": 0})),
        Type::Int(IntKind::U128)
    );
    assert_eq!(
        int(json!({"type": "integer", "minimum": 0, "maximum": 255})),
        Type::Int(IntKind::U8)
    );
    assert_eq!(
        int(json!({"type": "integer", "minimum": -128, "maximum": 127})),
        Type::Int(IntKind::I8)
    );
    assert_eq!(
        int(json!({"type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64})),
        Type::Int(IntKind::U64)
    );
    assert_eq!(
        int(json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10})),
        Type::int_in(IntKind::U8, [IntRange::new(v(1), v(9))])
    );
    // Non-integral bounds round inward.
    assert_eq!(
        int(json!({"type": "integer", "minimum": 0.5, "maximum": 9.5})),
        Type::int_in(IntKind::U8, [IntRange::new(v(1), v(9))])
    );
    assert_eq!(
        int(json!({"type": "integer", "enum": [1, 5, 200]})),
        Type::int_in(IntKind::U8, [1, 5, 200].map(|n| IntRange::one(v(n))))
    );
    assert_eq!(
        int(json!({"const": -3})),
        Type::int_in(IntKind::I8, [IntRange::one(v(-3))])
    );
    // The export's `NonZeroI32` and ranges.
    assert_eq!(
        int(json!({"type": "integer", "minimum": -2_147_483_648_i64, "maximum": 2_147_483_647, "not": {"enum": [0]}})).to_string(),
        "i32(..=-1, 1..)"
    );
    assert_eq!(
        int(json!({"type": "integer", "minimum": 0, "maximum": 12, "anyOf": [{"minimum": 0, "maximum": 2}, {"minimum": 9, "maximum": 12}]})).to_string(),
        "u8(0..=2, 9..=12)"
    );
}

#[test]
fn integer_bounds_past_64_bits_are_read_from_their_annotation() {
    let int = |schema: Value| field_type(schema, View::Receiver);
    // The export leaves out a bound a JSON number cannot hold and says the values in
    // `x-handoff-integers`; the import reads both.
    // (Read over the smallest kind that holds the values, as any integer is.)
    for (text, read) in [
        (
            "i128(-170141183460469231731687303715884105727..)",
            "i128(-170141183460469231731687303715884105727..)",
        ),
        (
            "u128(0..=340282366920938463463374607431768211454)",
            "u128(0..=340282366920938463463374607431768211454)",
        ),
        (
            "u128(0, 18446744073709551616..)",
            "u128(0, 18446744073709551616..)",
        ),
        (
            "i128(0..)",
            "u128(0..=170141183460469231731687303715884105727)",
        ),
    ] {
        let exported = contract_schema::text::parse_type(text).expect("a type");
        let doc = contract_schema::json_schema::to_json_schema(
            &Schema {
                contract: None,
                mode: compat::Mode::Full,
                allowances: Default::default(),
                root: exported.clone(),
                types: Default::default(),
            },
            View::Receiver,
        );
        assert_eq!(doc["x-handoff-integers"], text, "{doc}");
        assert_eq!(int(doc.clone()).to_string(), read, "{doc}");
    }
    // With the keywords: both hold.
    assert_eq!(
        int(json!({"type": "integer", "maximum": 5, "x-handoff-integers": "i128(..=-18446744073709551617, 3..)"}))
            .to_string(),
        "i128(..=-18446744073709551617, 3..=5)"
    );
    // Anything but an integer type in the canonical text is an error where it is.
    for bad in [json!("string"), json!(3), json!("u8(")] {
        let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "integer", "x-handoff-integers": bad}}});
        for view in [View::Sender, View::Receiver] {
            let err = import(&doc, view).expect_err("refused");
            assert_eq!(err.pointer, "/properties/v/x-handoff-integers", "{err}");
        }
    }
}

#[test]
fn flattened_enums_are_read_from_their_annotation() {
    // `struct S { a: u8, #[serde(flatten)] e: E }`, `E` internally tagged under `t`.
    let e = json!({"title": "E", "oneOf": [
        {"type": "object", "title": "One", "properties": {"t": {"type": "string", "const": "one"}}, "required": ["t"]},
        {"type": "object", "title": "Two", "properties": {"t": {"type": "string", "const": "two"}, "b": {"type": "boolean"}}, "required": ["t", "b"]}
    ]});
    let doc = |flattened: Value| {
        json!({"$ref": "#/$defs/S", "$defs": {"E": e.clone(), "S": {
            "title": "S", "type": "object",
            "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 255}},
            "required": ["a"],
            "allOf": [{"oneOf": e["oneOf"].clone(), "x-handoff-rust": "e"}],
            "unevaluatedProperties": false,
            "x-handoff-flattened": flattened,
        }}})
    };
    for view in [View::Sender, View::Receiver] {
        let imported = import(
            &doc(json!([{"rust": "e", "type": {"$ref": "#/$defs/E"}}])),
            view,
        )
        .unwrap_or_else(|e| panic!("{view:?}: {e}"));
        assert_eq!(imported.warnings, vec![], "{view:?}");
        let s = struct_of(&imported.schema, "S");
        let flattened: Vec<String> = s
            .flattened
            .iter()
            .map(|f| format!("{} {} {} {}", f.rust_name, f.ty, f.sent, f.read))
            .collect();
        assert_eq!(flattened, ["e E true true"], "{view:?}");
        assert_eq!(s.fields.len(), 1);
        assert_eq!(
            enum_of(&imported.schema, "E").repr,
            Repr::Internal { tag: "t".into() }
        );
    }
    // An `Option` of the enum.
    let optional = receiver(&doc(
        json!([{"rust": "e", "type": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "null"}]}}]),
    ));
    assert_eq!(
        struct_of(&optional.schema, "S").flattened[0].ty,
        Type::option_of(Type::Named("E".into()))
    );
    // Malformed: an error where it is, in both views.
    for (bad, pointer) in [
        (json!({"rust": "e"}), "/$defs/S/x-handoff-flattened"),
        (
            json!([{"type": {"$ref": "#/$defs/E"}}]),
            "/$defs/S/x-handoff-flattened/0",
        ),
        (
            json!([{"rust": "e", "type": {"$ref": "#/$defs/Nothing"}}]),
            "/$defs/S/x-handoff-flattened/0/type/$ref",
        ),
    ] {
        for view in [View::Sender, View::Receiver] {
            let err = import(&doc(bad.clone()), view).expect_err("refused");
            assert_eq!(err.pointer, pointer, "{view:?}: {err}");
        }
    }
}

#[test]
fn numbers_are_f64_and_their_bounds_are_refused() {
    assert_eq!(
        field_type(json!({"type": "number"}), View::Receiver),
        Type::Float(FloatKind::F64)
    );
    for key in [
        "minimum",
        "exclusiveMinimum",
        "maximum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "number", key: 1}}});
        let producer = refused(&doc, &format!("/properties/v/{key}"));
        assert_eq!(
            struct_of(&producer, "T").fields[0].ty,
            Type::Float(FloatKind::F64)
        );
    }
    let multiple = json!({"title": "T", "type": "object", "properties": {"v": {"type": "integer", "multipleOf": 5}}});
    refused(&multiple, "/properties/v/multipleOf");
}

#[test]
fn strings_formats_lengths_and_patterns() {
    let s = |schema: Value| field_type(schema, View::Receiver);
    for (format, expected) in [
        ("uuid", StringFormat::Uuid),
        ("date-time", StringFormat::DateTime),
        ("date", StringFormat::Date),
        ("ipv4", StringFormat::Ipv4),
        ("ipv6", StringFormat::Ipv6),
        ("uri", StringFormat::Url),
    ] {
        assert_eq!(
            s(json!({"type": "string", "format": format})),
            Type::String(expected)
        );
    }
    assert_eq!(
        s(json!({"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$"})),
        Type::string_with(
            StringFormat::Plain,
            Length {
                min: 1,
                max: Some(8)
            },
            Some("^[a-z]+$".into())
        )
    );
    assert_eq!(
        s(json!({"type": "string", "minLength": 1, "maxLength": 1})),
        Type::Char
    );
    for format in ["email", "binary", "time", "hostname"] {
        let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "string", "format": format}}});
        let producer = refused(&doc, "/properties/v/format");
        assert_eq!(struct_of(&producer, "T").fields[0].ty, string());
    }
}

// ----- arrays ----------------------------------------------------------------------------------

#[test]
fn lists_sets_fixed_arrays_and_tuples() {
    let a = |schema: Value| {
        let [s, r] = [View::Sender, View::Receiver].map(|view| field_type(schema.clone(), view));
        assert_eq!(s, r);
        s
    };
    let b = || Box::new(Type::Bool);
    assert_eq!(
        a(json!({"type": "array", "items": {"type": "boolean"}})),
        Type::List(b())
    );
    assert_eq!(a(json!({"type": "array"})), Type::List(Box::new(Type::Any)));
    assert_eq!(
        a(json!({"type": "array", "items": {"type": "boolean"}, "uniqueItems": true})),
        Type::Set(b())
    );
    assert_eq!(
        a(json!({"type": "array", "items": {"type": "boolean"}, "minItems": 4, "maxItems": 4})),
        Type::Array(b(), 4)
    );
    assert_eq!(
        a(
            json!({"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "string"}], "items": false, "minItems": 2})
        ),
        Type::Tuple(vec![Type::Bool, string()])
    );
    // pydantic's `tuple[bool, str]`.
    assert_eq!(
        a(
            json!({"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "string"}], "minItems": 2, "maxItems": 2})
        ),
        Type::Tuple(vec![Type::Bool, string()])
    );
    assert_eq!(
        a(json!({"type": "array", "maxItems": 0})),
        Type::Tuple(Vec::new())
    );
}

#[test]
fn an_open_tuple_is_warned_for_a_producer() {
    let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "array", "prefixItems": [{"type": "boolean"}]}}});
    let producer = sender(&doc);
    assert_eq!(pointers(&producer), ["/properties/v/prefixItems"]);
    // A consumer that also reads other lengths is read as stricter, which hides no break.
    assert_eq!(receiver(&doc).warnings, vec![]);
}

#[test]
fn list_length_bounds_are_refused() {
    for key in ["minItems", "maxItems"] {
        let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "array", "items": {"type": "string"}, key: 3}}});
        let producer = refused(&doc, &format!("/properties/v/{key}"));
        assert_eq!(
            struct_of(&producer, "T").fields[0].ty,
            Type::List(Box::new(string()))
        );
    }
}

// ----- keywords refused, ignored, unknown -------------------------------------------------------

#[test]
fn each_keyword_the_model_cannot_hold_is_refused_at_its_pointer() {
    let property =
        |schema: Value| json!({"title": "T", "type": "object", "properties": {"v": schema}});
    for key in ["if", "then", "else"] {
        refused(
            &property(json!({"type": "string", key: {"minLength": 1}})),
            &format!("/properties/v/{key}"),
        );
    }
    refused(
        &property(json!({"type": "string", "not": {"const": "x"}})),
        "/properties/v/not",
    );
    refused(
        &property(json!({"$dynamicRef": "#meta"})),
        "/properties/v/$dynamicRef",
    );
    refused(
        &property(
            json!({"type": "array", "items": {"type": "string"}, "contains": {"const": "a"}}),
        ),
        "/properties/v/contains",
    );
    refused(
        &property(json!({"type": "boolean", "const": true})),
        "/properties/v/const",
    );
    refused(&property(json!(false)), "/properties/v");
    // `patternProperties`: a producer's object is then open.
    let patterns = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}},
                          "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false});
    let producer = refused(&patterns, "/patternProperties");
    assert_eq!(struct_of(&producer, "T").unknown, Unknown::Capture);
    // An `allOf` beside properties that is not the export's alias constraint.
    let all_of = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}},
                        "allOf": [{"required": ["a"]}], "additionalProperties": false});
    let producer = refused(&all_of, "/allOf/0");
    assert_eq!(struct_of(&producer, "T").unknown, Unknown::Capture);
    // `minProperties` on a struct.
    refused(
        &json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1}),
        "/minProperties",
    );
}

#[test]
fn annotations_are_ignored_in_both_views() {
    let doc = json!({
        "title": "T", "description": "d", "$comment": "c", "$id": "https://example.com/t",
        "type": "object",
        "properties": {"a": {"type": "string", "title": "A", "description": "a", "examples": ["x"],
                             "deprecated": true, "readOnly": true, "writeOnly": false, "x-zod": 1}},
        "required": ["a"],
        "discriminator": {"propertyName": "a"},
        "x-other": {"anything": [1, 2]}
    });
    both_clean(&doc);
    // A default on a required property, or in a consumer's schema: nothing to say.
    both_clean(
        &json!({"title": "T", "type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"]}),
    );
    assert_eq!(receiver(&json!({"title": "T", "type": "object", "properties": {"a": {"type": "string", "default": "x"}}})).warnings, vec![]);
}

#[test]
fn an_unknown_keyword_is_ignored_with_a_warning_in_both_views() {
    let doc = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string", "frobnicate": 1}}});
    for view in [View::Sender, View::Receiver] {
        let imported = import(&doc, view).expect("reads");
        assert_eq!(pointers(&imported), ["/properties/a/frobnicate"]);
    }
}

#[test]
fn pointers_escape_slash_and_tilde_in_keys() {
    let doc = json!({"title": "T", "type": "object", "properties": {"a/b~c": {"type": "number", "minimum": 0}}});
    refused(&doc, "/properties/a~1b~0c/minimum");
}

#[test]
fn messages_never_hold_values_of_the_document() {
    let doc = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string", "format": "secret-format-value"}}});
    let err = import(&doc, View::Receiver).expect_err("refused");
    assert!(!err.to_string().contains("secret-format-value"), "{err}");
}

// ----- wide documents ---------------------------------------------------------------------------

#[test]
fn ten_thousand_fields_import_whole() {
    let properties: serde_json::Map<String, Value> = (0..10_000)
        .map(|i| {
            (
                format!("f{i}"),
                json!({"type": "integer", "minimum": 0, "maximum": 255}),
            )
        })
        .collect();
    let required: Vec<String> = (0..10_000).step_by(2).map(|i| format!("f{i}")).collect();
    let doc =
        json!({"title": "Wide", "type": "object", "properties": properties, "required": required});
    let schema = receiver(&doc).schema;
    let wide = struct_of(&schema, "Wide");
    assert_eq!(wide.fields.len(), 10_000);
    let required = wide
        .fields
        .iter()
        .filter(|f| f.receiver.as_ref().is_some_and(|r| r.required))
        .count();
    assert_eq!(required, 5_000);
}

// ----- any document ------------------------------------------------------------------------------

mod any_document {
    use super::*;
    use proptest::prelude::*;

    /// Keys a schema has, and some it should not.
    const KEYS: &[&str] = &[
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "enum",
        "const",
        "$ref",
        "$defs",
        "definitions",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "uniqueItems",
        "minItems",
        "maxItems",
        "propertyNames",
        "title",
        "default",
        "x-handoff-alias-of",
        "x-handoff-catch-all",
        "x-handoff-format",
        "x-handoff-rust",
        "a",
        "b",
    ];

    /// Values a keyword meets: type names, pointers, numbers at the edges, strings.
    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            prop::sample::select(vec![
                "object",
                "array",
                "string",
                "integer",
                "number",
                "null",
                "boolean",
                "#",
                "#/$defs/a",
                "#/$defs/b",
                "#/definitions/a",
                "#/properties/a",
                "a",
                "b",
                "uuid",
                "email",
                "^a$",
                "date-time",
                "ip",
            ])
            .prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
            Just(Value::Null),
        ]
    }

    fn document() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(
                    |entries| {
                        Value::Object(
                            entries
                                .into_iter()
                                .map(|(k, v)| (k.to_owned(), v))
                                .collect(),
                        )
                    }
                ),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the document, the import answers (a schema or an error with a pointer into
        /// the document), never panics, and a warning's pointer is one too.
        #[test]
        fn every_document_gets_an_answer_never_a_panic(doc in document()) {
            for view in [View::Sender, View::Receiver] {
                match import(&doc, view) {
                    Ok(imported) => {
                        for w in &imported.warnings {
                            prop_assert!(w.pointer.is_empty() || w.pointer.starts_with('/'), "{w}");
                        }
                        // What was read can be checked against itself.
                        let _ = compat::check(&imported.schema, &imported.schema);
                    }
                    Err(e) => prop_assert!(e.pointer.is_empty() || e.pointer.starts_with('/'), "{e}"),
                }
            }
        }
    }
}

#[test]
fn integer_bounds_that_cross_admit_no_value_and_are_refused() {
    let doc = json!({"title": "T", "type": "object", "properties": {"v": {"type": "integer", "minimum": 10, "maximum": 5}}});
    let producer = refused(&doc, "/properties/v");
    assert_eq!(
        struct_of(&producer, "T").fields[0].ty,
        Type::Int(IntKind::I128)
    );
}

// ----- a peer against a Rust contract -------------------------------------------------------------

/// `refund-request/v2` of the examples: `category` (a string enum with a catch-all),
/// `orderId` (alias `orderRef`), `amountCents: u64`, `useCase` (optional, an assumption).
fn refund_request_v2() -> Schema {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/contracts/refund-request.v2.snap");
    contract_schema::snapshot::read(&path).expect("the example's snapshot reads")
}

/// A pydantic consumer of refund requests, `model_json_schema()` (validation mode).
fn pydantic_consumer(categories: &[&str]) -> Value {
    json!({
        "$defs": {"Category": {"enum": categories, "title": "Category", "type": "string"}},
        "properties": {
            "category": {"$ref": "#/$defs/Category"},
            "orderId": {"title": "Orderid", "type": "string"},
            "amountCents": {"minimum": 0, "title": "Amountcents", "type": "integer"},
            "useCase": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Usecase"}
        },
        "required": ["category", "orderId", "amountCents"],
        "title": "RefundRequest",
        "type": "object"
    })
}

#[test]
fn a_rust_producer_against_a_pydantic_consumer_is_judged_with_the_usual_rules() {
    let producer = refund_request_v2();
    let all = ["damaged", "not-delivered", "changed-mind", "other"];
    let consumer = receiver(&pydantic_consumer(&all)).schema;
    let report = compat::check(&producer, &consumer);
    assert!(report.is_compatible(), "{report}");
    // The consumer drops a category the producer may send, and has no catch-all.
    let fewer = receiver(&pydantic_consumer(&["damaged", "not-delivered", "other"])).schema;
    let report = compat::check(&producer, &fewer);
    let found: Vec<(Rule, &str)> = report
        .findings()
        .iter()
        .map(|f| (f.rule, f.path.as_str()))
        .collect();
    assert_eq!(found, [(Rule::EnumValueUnknown, "category(changed-mind)")]);
}

#[test]
fn a_zod_producer_against_a_rust_consumer_is_judged_with_the_usual_rules() {
    // zod 4, `z.toJSONSchema(schema)` (output): `useCase` may be absent or null, and the
    // producer writes `orderRef`, which the Rust consumer reads through its alias.
    let zod = |amount: Value| {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "category": {"type": "string", "enum": ["damaged", "late"]},
                "orderRef": {"type": "string"},
                "amountCents": amount,
                "useCase": {"anyOf": [{"type": "string"}, {"type": "null"}]}
            },
            "required": ["category", "orderRef", "amountCents"],
            "additionalProperties": false
        })
    };
    let consumer = refund_request_v2();
    let safe = json!({"type": "integer", "minimum": 0, "maximum": 9_007_199_254_740_991_u64});
    let producer = sender(&zod(safe)).schema;
    let report = compat::check(&producer, &consumer);
    // `late` is read as the catch-all; `useCase` null is an `Option`'s `None`; the
    // producer's `useCase` is an assumption nowhere, so nothing breaks.
    assert!(report.is_compatible(), "{report}");
    // zod's `z.number()`: a float where the consumer reads an integer.
    let producer = sender(&zod(json!({"type": "number"}))).schema;
    let rules: Vec<Rule> = compat::check(&producer, &consumer)
        .findings()
        .iter()
        .map(|f| f.rule)
        .collect();
    assert_eq!(rules, [Rule::FloatIntoInteger]);
}

#[test]
fn a_peers_consumer_says_nothing_of_provenance_and_this_crates_export_does() {
    let field = |doc: &Value| struct_of(&receiver(doc).schema, "T").fields[0].provenance;
    let peer = json!({"title": "T", "type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(field(&peer), Provenance::Assumption, "accepts either");
    let mut own = peer.clone();
    own["x-handoff-view"] = json!("receiver");
    assert_eq!(field(&own), Provenance::Confirmed);
    // A peer's producer: confirmed, the default.
    let producer = sender(&peer).schema;
    assert_eq!(
        struct_of(&producer, "T").fields[0].provenance,
        Provenance::Confirmed
    );
}

// ----- shapes of the export that read back -------------------------------------------------

/// The rule ids `check` finds between `schema`'s export in `view` read as a producer's schema
/// and `schema` as the reader.
fn read_back_as_producer(text: &str, view: View) -> Vec<&'static str> {
    let schema = contract_schema::text::parse(text).expect("the text parses");
    let export = contract_schema::json_schema::to_json_schema(&schema, view);
    let producer = sender(&export).schema;
    compat::check(&producer, &schema)
        .findings()
        .iter()
        .map(|f| f.rule.id())
        .collect()
}

#[test]
fn an_array_of_exactly_zero_items_reads_as_that_array() {
    let imported = sender(&json!({"type": "array", "items": {"type": "boolean"},
                                  "minItems": 0, "maxItems": 0}));
    assert_eq!(imported.warnings, vec![]);
    assert_eq!(imported.schema.root, Type::Array(Box::new(Type::Bool), 0));
    let text = "root array<i8(..=-127); 0>\n";
    assert_eq!(
        read_back_as_producer(text, View::Sender),
        Vec::<&str>::new()
    );
    assert_eq!(
        read_back_as_producer(text, View::Receiver),
        Vec::<&str>::new()
    );
}

#[test]
fn a_schema_of_no_value_reads_as_an_enum_without_variants() {
    for doc in [
        json!({"type": "string", "enum": []}),
        json!({"not": {}, "title": "Row"}),
    ] {
        for imported in [sender(&doc), receiver(&doc)] {
            assert_eq!(imported.warnings, vec![], "{doc}");
            let Some(Body::Enum(e)) = imported.schema.types.values().next().map(|d| &d.body) else {
                panic!("{doc}: an enum, got {:?}", imported.schema);
            };
            assert!(e.variants.is_empty(), "{doc}");
        }
    }
    // An enum none of whose variants is in the view: the export's `enum: []` (a string
    // enum) or `not: {}` (any other) reads back.
    let unread = "root Budget\n\nenum Budget\n  rust \"my_app::Budget\"\n  repr external\n  variant Done: unit\n    send \"done\"\n    receive never\n";
    assert_eq!(
        read_back_as_producer(unread, View::Receiver),
        Vec::<&str>::new()
    );
    let unsent = "root Row\n\nenum Row\n  rust \"my_app::Row\"\n  repr adjacent tag \"type\" content \"c\"\n  variant Card: unit\n    send never\n    receive \"card\"\n";
    assert_eq!(
        read_back_as_producer(unsent, View::Sender),
        Vec::<&str>::new()
    );
}

#[test]
fn an_adjacently_tagged_enum_read_as_internally_tagged_is_judged_as_the_same_json() {
    // One variant with content (and a unit one) is read as internally tagged, a struct
    // variant of the content key: the engine compares it with the adjacent reader.
    let text = "root Page\n\nenum Page\n  rust \"my_app::Page\"\n  repr adjacent tag \"t\" content \"c\"\n  unknown deny\n  variant Nested: unit\n    send \"Nested\"\n    receive \"Nested\"\n  variant Other: newtype tuple(char, i32)\n    send \"other\"\n    receive \"other\"\n";
    assert_eq!(
        read_back_as_producer(text, View::Sender),
        Vec::<&str>::new()
    );
    assert_eq!(
        read_back_as_producer(text, View::Receiver),
        Vec::<&str>::new()
    );
    // A content of another type is still a break, at its variant.
    let writer =
        contract_schema::text::parse(&text.replace("tuple(char, i32)", "tuple(char, string)"))
            .expect("parses");
    let export = contract_schema::json_schema::to_json_schema(&writer, View::Sender);
    let producer = sender(&export).schema;
    let reader = contract_schema::text::parse(text).expect("parses");
    let report = compat::check(&producer, &reader);
    assert_eq!(
        report
            .findings()
            .iter()
            .map(|f| (f.rule.id(), f.path.to_string()))
            .collect::<Vec<_>>(),
        vec![("TYPE_CHANGED", "(other).1".to_owned())],
        "{report}"
    );
}

#[test]
fn an_adjacently_tagged_enum_with_untagged_variants_read_as_internally_tagged_reads_back() {
    // The one tagged variant with content is read as internally tagged; the untagged
    // variant beside it is compared with the reader's untagged variants.
    let text = "root Pair\n\nenum Pair\n  rust \"my_app::Pair\"\n  repr adjacent tag \"type\" content \"c\"\n  variant Pending: newtype bool\n    send \"pending\"\n    receive \"pending\"\n  variant Ready: newtype u8\n    send never\n    receive \"ready\"\n    untagged\n";
    for view in [View::Sender, View::Receiver] {
        assert_eq!(
            read_back_as_producer(text, view),
            Vec::<&str>::new(),
            "{view:?}"
        );
    }
    // A receiver view (no `additionalProperties: false`) read as a producer captures other
    // keys beside the content, which a reader that denies unknown fields refuses.
    let reader = contract_schema::text::parse(
        &text.replace("content \"c\"\n", "content \"c\"\n  unknown deny\n"),
    )
    .expect("parses");
    let export = contract_schema::json_schema::to_json_schema(
        &contract_schema::text::parse(text).expect("parses"),
        View::Receiver,
    );
    let producer = sender(&export).schema;
    let ids = found(&producer, &reader);
    assert_eq!(ids, vec![("TYPE_CHANGED", "(pending)".to_owned())]);
    // A writer's untagged value the reader's untagged variants do not read still breaks.
    let bool_too = contract_schema::text::parse(&text.replace(
        "newtype u8\n    send never",
        "newtype bool\n    send \"ready\"",
    ))
    .expect("parses");
    let producer = sender(&contract_schema::json_schema::to_json_schema(
        &bool_too,
        View::Sender,
    ))
    .schema;
    let reader = contract_schema::text::parse(text).expect("parses");
    // (Reported at the reader's variant of the same name, what it most likely meant.)
    let ids = found(&producer, &reader);
    assert_eq!(ids, vec![("TYPE_CHANGED", "(Ready)".to_owned())]);
}

#[test]
fn a_variant_written_as_its_tag_or_name_with_null_reads_back() {
    // An internally tagged struct variant none of whose fields is written is the tag alone,
    // read back as a unit variant: the engine compares the two as the same fields.
    let tag_only = "root C\n\nenum C\n  rust \"my_app::C\"\n  repr internal tag \"t\"\n  variant Ready: struct\n    send \"ready\"\n    receive \"ready\"\n    unknown ignore\n    field evidence: bool\n      send \"evidence\" always\n      receive never\n";
    // An externally tagged newtype variant of `null` (`option<unit>`) is an object of one
    // key holding `null`, read back as a newtype of `unit` (a unit variant is a string).
    let null_content = "root H\n\nenum H\n  rust \"my_app::H\"\n  repr external\n  variant Done: unit\n    send \"done\"\n    receive \"done\"\n  variant Pending: newtype option<unit>\n    send \"pending\"\n    receive \"pending\"\n";
    for text in [tag_only, null_content] {
        for view in [View::Sender, View::Receiver] {
            assert_eq!(
                read_back_as_producer(text, view),
                Vec::<&str>::new(),
                "{view:?}: {text}"
            );
        }
    }
    let export = contract_schema::json_schema::to_json_schema(
        &contract_schema::text::parse(null_content).expect("parses"),
        View::Receiver,
    );
    let producer = sender(&export).schema;
    let pending = &enum_of(&producer, "H").variants[1];
    assert_eq!(pending.kind, VariantDefKind::Newtype(Type::Unit));
    // A reader's struct variant that requires a field the tag alone does not hold.
    let requires = contract_schema::text::parse(&tag_only.replace(
        "      receive never\n",
        "      receive \"evidence\" required\n",
    ))
    .expect("parses");
    let unit_writer = contract_schema::text::parse("root C\n\nenum C\n  rust \"my_app::C\"\n  repr internal tag \"t\"\n  variant Ready: unit\n    send \"ready\"\n    receive \"ready\"\n").expect("parses");
    let found = found(&unit_writer, &requires);
    assert_eq!(
        found,
        vec![("REQUIRED_FIELD_NOT_SENT", "(ready).evidence".to_owned())]
    );
}

#[test]
fn an_internally_tagged_newtype_of_an_option_of_itself_is_exported() {
    // `struct Grid(Option<Box<Grid>>)` as a newtype variant's content: it resolves to an
    // `Option` again at every step; the export once recursed without end.
    let text = "root Plan\n\nnewtype Grid: option<Grid>\n  rust \"my_app::Grid\"\n\nenum Plan\n  rust \"my_app::Plan\"\n  repr internal tag \"kind\"\n  variant Damaged: newtype Grid\n    send \"damaged\"\n    receive \"damaged\"\n";
    let schema = contract_schema::text::parse(text).expect("parses");
    for view in [View::Sender, View::Receiver] {
        let doc = contract_schema::json_schema::to_json_schema(&schema, view);
        assert!(doc["$defs"]["Plan"].is_object(), "{doc}");
    }
}

#[test]
fn an_option_of_any_reads_back_as_any() {
    // `option<any>` is exported as `{}`, read back as `any`: against a reader that refuses
    // `null`, both are the one mismatch of their type (no `null` finding beside it).
    let text = "root T\n\nviews T\n  rust \"my_app::T\"\n  send tuple(option<any>)\n  receive tuple(set<unit>)\n";
    let schema = contract_schema::text::parse(text).expect("parses");
    let ids = |report: &compat::CompatReport| -> Vec<(&'static str, String)> {
        report
            .findings()
            .iter()
            .map(|f| (f.rule.id(), f.path.to_string()))
            .collect()
    };
    let expected = vec![("TYPE_CHANGED", "0".to_owned())];
    assert_eq!(ids(&compat::check(&schema, &schema)), expected);
    let producer = sender(&contract_schema::json_schema::to_json_schema(
        &schema,
        View::Sender,
    ))
    .schema;
    assert_eq!(ids(&compat::check(&producer, &schema)), expected);
}

#[test]
fn a_tagged_enum_whose_view_holds_only_untagged_variants_reads_back() {
    let text = "root Handoff\n\nenum Handoff\n  rust \"my_app::Handoff\"\n  repr external\n  variant Failed: tuple(option<char>, list<option<char>>)\n    send \"failed\"\n    receive never\n  variant Transfer: unit\n    send never\n    receive \"transfer\"\n    untagged\n";
    assert_eq!(
        read_back_as_producer(text, View::Receiver),
        Vec::<&str>::new()
    );
    // A writer's untagged value the reader's untagged variants do not read still breaks.
    let writer = import(
        &json!({"anyOf": [{"type": "boolean", "title": "Flag"}], "title": "Handoff"}),
        View::Sender,
    )
    .expect("reads")
    .schema;
    let reader = contract_schema::text::parse(text).expect("parses");
    let ids: Vec<_> = compat::check(&writer, &reader)
        .findings()
        .iter()
        .map(|f| f.rule.id())
        .collect();
    assert_eq!(ids, vec!["UNTAGGED_VARIANT_UNMATCHED"]);
}

// ----- generated shapes that read back (found by `json_schema_readback_props`) --------------

/// The rules `schema`'s export in `view` (annotations kept or not) finds read back as a
/// producer's schema against `schema`, beside what the round trip must find: what
/// `check(S, S)` finds for the sender view, nothing for the receiver view.
fn round_trip(text: &str, view: View, annotations: bool) -> (Vec<&'static str>, Vec<&'static str>) {
    let schema = contract_schema::text::parse(text).expect("the text parses");
    let mut export = contract_schema::json_schema::to_json_schema(&schema, view);
    if !annotations {
        export = contract_schema::json_schema::without_annotations(export);
    }
    let producer = sender(&export).schema;
    let rules = |report: compat::CompatReport| {
        let mut ids: Vec<&'static str> = report.findings().iter().map(|f| f.rule.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let expected = match view {
        View::Sender => rules(compat::check(&schema, &schema)),
        View::Receiver => Vec::new(),
    };
    (rules(compat::check(&producer, &schema)), expected)
}

/// Both views, with and without annotations, read back (see [`round_trip`]).
fn reads_back(text: &str) {
    for view in [View::Sender, View::Receiver] {
        for annotations in [true, false] {
            let (found, expected) = round_trip(text, view, annotations);
            assert_eq!(found, expected, "{view:?} view, annotations {annotations}");
        }
    }
}

#[test]
fn an_internally_tagged_struct_variant_that_only_captures_reads_back() {
    // Exported as the tag and `additionalProperties`, read back as a newtype variant of a
    // map: the same object, compared as a map read by a struct.
    reads_back("root Event\n\nenum Event\n  rust \"my_app::Event\"\n  repr internal tag \"type\"\n  variant Failed: struct\n    send \"failed\"\n    receive \"failed\"\n    unknown capture\n    extra bool\n");
}

#[test]
fn an_adjacently_tagged_struct_variant_read_under_aliases_reads_back() {
    // The receiver view's content says "exactly one of `order-id`, `order-idOld1`", read
    // back as the alternatives of the content (an untagged enum beside the tag): each
    // alternative is compared with the struct variant.
    reads_back("root Event\n\nenum Event\n  rust \"my_app::Event\"\n  repr adjacent tag \"t\" content \"c\"\n  variant Transfer: struct\n    send \"transfer\"\n    receive \"transfer\"\n    unknown deny\n    field order_id: bool\n      send never\n      receive \"order-id\" alias \"order-idOld1\" required\n");
    // The same with a variant that also captures further keys.
    reads_back("root Event\n\nenum Event\n  rust \"my_app::Event\"\n  repr adjacent tag \"type\" content \"data\"\n  variant Wrong: struct\n    send \"Wrong\"\n    receive \"Wrong\"\n    unknown capture\n    extra u8\n    field attempt: bool\n      send never\n      receive \"attempt\" alias \"attemptOld1\" required\n");
}

#[test]
fn an_untagged_struct_variant_of_one_key_reads_back() {
    // Objects of one key each are read back as an externally tagged enum (the forms a
    // provider's dialect writes one in), whose values the untagged reader reads: each is
    // compared as the object it is, its one key into the reader's field.
    for text in [
        "root Step\n\nenum Step\n  rust \"my_app::Step\"\n  repr untagged\n  variant Done: struct\n    send \"DONE\"\n    receive \"DONE\"\n    unknown ignore\n    field retry_of: bool\n      send \"RETRY_OF\" always\n      receive never\n",
        "root Budget\n\nenum Budget\n  rust \"my_app::Budget\"\n  repr untagged\n  variant Wrong: struct\n    send never\n    receive \"WRONG\"\n    unknown deny\n    field steps: unit\n      send never\n      receive \"steps\" required\n",
    ] {
        reads_back(text);
    }
    // What the untagged reader does not read is still a finding: a key its struct denies,
    // and content of another type.
    let reader = contract_schema::text::parse("root Budget\n\nenum Budget\n  rust \"my_app::Budget\"\n  repr untagged\n  variant Wrong: struct\n    send never\n    receive \"WRONG\"\n    unknown deny\n    field steps: unit\n      send never\n      receive \"steps\" required\n").expect("parses");
    for doc in [
        json!({"oneOf": [{"type": "object", "properties": {"other": {"type": "null"}},
                          "required": ["other"], "additionalProperties": false,
                          "title": "Wrong"}],
               "title": "Budget"}),
        json!({"oneOf": [{"type": "object", "properties": {"steps": {"type": "boolean"}},
                          "required": ["steps"], "additionalProperties": false,
                          "title": "Wrong"}],
               "title": "Budget"}),
    ] {
        let writer = sender(&doc).schema;
        let ids: Vec<_> = compat::check(&writer, &reader)
            .findings()
            .iter()
            .map(|f| f.rule.id())
            .collect();
        assert_eq!(ids, vec!["ENUM_REPR_CHANGED"], "{doc}");
    }
}

#[test]
fn an_untagged_newtype_of_unit_reads_back_as_the_unit_variant_it_is_written_as() {
    // `null` is exported for both; the import reads a unit variant, which an untagged
    // newtype of `unit` reads.
    reads_back("root Page\n\nstruct Page\n  rust \"my_app::Page\"\n  unknown ignore\n  field budget: Plan\n    send never\n    receive \"Budget\" optional\n\nenum Plan\n  rust \"my_app::Plan\"\n  repr untagged\n  variant Transfer: newtype unit\n    send \"transfer\"\n    receive \"transfer\"\n");
}

#[test]
fn an_untagged_value_of_nested_alternatives_reads_back() {
    // A tagged variant that admits no value (a newtype of an enum without variants) beside
    // an untagged one: read back as an untagged enum of two untagged enums, whose values
    // are those of their variants (and none of the empty one's).
    reads_back("root Holder\n\nenum Grid\n  rust \"my_app::Grid\"\n  repr internal tag \"t\"\n  variant Damaged: newtype Step\n    send \"Damaged\"\n    receive \"Damaged\"\n  variant Failed: newtype bool\n    send \"Failed\"\n    receive \"Failed\"\n    untagged\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown ignore\n  field status: Grid\n    send never\n    receive \"Status\" optional\n\nenum Step\n  rust \"my_app::Step\"\n  repr external\n");
}

#[test]
fn a_struct_of_many_fields_read_under_aliases_reads_back() {
    // 3 × 2 × 3 × 2 × 3 = 108 choices of a key per field (at most one of the optional
    // field's): every one an alternative, none dropped.
    reads_back("root Category\n\nstruct Category\n  rust \"my_app::Category\"\n  unknown ignore\n  field budget: u8\n    send never\n    receive \"budget\" alias \"budgetOld1\" alias \"budgetOld2\" required\n  field goal: unit\n    send never\n    receive \"goal\" alias \"goalOld1\" required\n  field steps: bool\n    send never\n    receive \"steps\" alias \"stepsOld1\" alias \"stepsOld2\" required\n  field context.task_id: bool\n    send never\n    receive \"task-id\" alias \"task-idOld1\" required\n  field retry_of: bool\n    send never\n    receive \"retry-ofIn\" alias \"retry-ofOld1\" alias \"retry-ofOld2\" optional\n");
}

#[test]
fn an_internally_tagged_newtype_of_a_value_not_an_object_reads_back() {
    // Exported as the tag beside an `allOf` of the content's type (which no value satisfies
    // together, as serde writes and reads none): read back as that newtype variant, not as
    // a unit variant of the tag alone.
    let text = "root Holder\n\nenum Artifact\n  rust \"my_app::Artifact\"\n  repr internal tag \"kind\"\n  variant Other: newtype bool\n    send \"other\"\n    receive \"other\"\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown deny\n  field attempt: Artifact\n    send never\n    receive \"attempt\" required\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Receiver);
    let imported = sender(&export).schema;
    assert_eq!(
        enum_of(&imported, "Artifact").variants[0].kind,
        VariantDefKind::Newtype(Type::Bool)
    );
}

#[test]
fn variants_that_admit_no_value_read_back() {
    // An internally tagged enum whose only variant holds an enum without variants: `not: {}`
    // beside its title, read back as an enum that sends no value.
    reads_back("root Holder\n\nenum Empty\n  rust \"my_app::Empty\"\n  repr external\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown deny\n  field budget: Status\n    send never\n    receive \"budget\" required\n\nenum Status\n  rust \"my_app::Status\"\n  repr internal tag \"type\"\n  variant Ready: newtype Empty\n    send \"ready\"\n    receive \"ready\"\n");
    // Beside a variant that admits a value: dropped, so that the others' tag is read.
    let text = "root Category\n\nenum Empty\n  rust \"my_app::Empty\"\n  repr external\n\nenum Category\n  rust \"my_app::Category\"\n  repr internal tag \"kind\"\n  variant Damaged: newtype Empty\n    send \"damaged\"\n    receive \"damaged\"\n  variant Cash: unit\n    send never\n    receive \"cash\"\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Receiver);
    let imported = sender(&export).schema;
    assert_eq!(
        enum_of(&imported, "Category").repr,
        Repr::Internal {
            tag: "kind".to_owned()
        }
    );
}

#[test]
fn an_adjacently_tagged_option_whose_content_may_be_absent_reads_back() {
    // The receiver view reads a missing content of an `Option` as `None`: the content key is
    // optional, read back as an internally tagged variant of one field written when present.
    reads_back("root Status\n\nenum Status\n  rust \"my_app::Status\"\n  repr adjacent tag \"t\" content \"content\"\n  variant Late: newtype option<bool>\n    send \"late\"\n    receive \"late\"\n");
}

#[test]
fn a_closed_object_of_one_required_key_among_others_is_a_struct() {
    // An untagged struct variant with one required field and one read under two keys: not
    // an externally tagged variant (which has one property, or at most one written).
    let text = "root RefundRequest\n\nenum RefundRequest\n  rust \"my_app::RefundRequest\"\n  repr untagged\n  variant Cash: struct\n    send \"cash\"\n    receive \"cash\"\n    unknown deny\n    field attempt: u8\n      send never\n      receive \"attempt\" required\n    field context.session_id: u8\n      send never\n      receive \"session_id\" alias \"session_idOld1\" required\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Receiver);
    let imported = sender(&export).schema;
    assert_eq!(enum_of(&imported, "RefundRequest").repr, Repr::Untagged);
}

#[test]
fn a_newtype_of_itself_is_exported_as_no_value_and_reads_nothing() {
    // `struct Grid(Box<Grid>)` has no value: exported as `not: {}` (a `$ref` to itself
    // loops), and a reader of it reads nothing a writer sends.
    let text = "root Holder\n\nnewtype Grid: Grid\n  rust \"my_app::Grid\"\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown deny\n  field task_id: set<option<Grid>>\n    send never\n    receive \"taskId\" required\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    for view in [View::Sender, View::Receiver] {
        let export = contract_schema::json_schema::to_json_schema(&schema, view);
        assert_eq!(export["$defs"]["Grid"]["not"], json!({}), "{export}");
    }
    let writer = contract_schema::text::parse(
        "root Done\n\nenum Done\n  rust \"my_app::Done\"\n  repr external\n  variant Done: unit\n    send \"done\"\n    receive \"done\"\n",
    )
    .expect("parses");
    let reader =
        contract_schema::text::parse("root Grid\n\nnewtype Grid: Grid\n  rust \"my_app::Grid\"\n")
            .expect("parses");
    let ids: Vec<_> = compat::check(&writer, &reader)
        .findings()
        .iter()
        .map(|f| f.rule.id())
        .collect();
    assert_eq!(ids, vec!["TYPE_CHANGED"]);
}

#[test]
fn an_untagged_newtype_of_an_untagged_enum_reads_back() {
    // Exported as the inner enum's alternatives, read back as them: the reader's newtype of
    // an untagged enum tries that enum's variants, as serde does.
    reads_back("root Evidence\n\nenum Evidence\n  rust \"my_app::Evidence\"\n  repr untagged\n  variant Late: newtype Status\n    send \"Late\"\n    receive \"Late\"\n\nenum Status\n  rust \"my_app::Status\"\n  repr untagged\n  variant Damaged: tuple(u8, bool)\n    send \"damaged\"\n    receive \"damaged\"\n");
}

#[test]
fn an_adjacently_tagged_option_of_unit_reads_back() {
    // The receiver view's content, `null` or absent, reads back as a unit variant (the tag
    // alone), which the newtype of an `Option` reads as `None`.
    reads_back("root Holder\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown ignore\n  field retry_of: Lookup\n    send never\n    receive \"RETRY_OF\" required\n\nenum Lookup\n  rust \"my_app::Lookup\"\n  repr adjacent tag \"t\" content \"data\"\n  variant Other: newtype option<unit>\n    send \"Other\"\n    receive \"Other\"\n");
}

#[test]
fn an_internally_tagged_newtype_of_an_enum_reads_back() {
    // Its variants are each written beside the tag (a unit variant as its name holding
    // `null`, the catch-all as any other name): a `oneOf` nested in the variant's
    // alternative, read back as a newtype of that enum.
    for text in [
        "root Holder\n\nenum Size\n  rust \"my_app::Size\"\n  repr external\n  variant Cash: unit\n    send \"cash\"\n    receive \"cash\"\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown deny\n  field budget: Status\n    send never\n    receive \"budget\" required\n\nenum Status\n  rust \"my_app::Status\"\n  repr internal tag \"type\"\n  variant Ready: newtype Size\n    send \"ready\"\n    receive \"ready\"\n",
        "root Category\n\nenum Plan\n  rust \"my_app::Plan\"\n  repr external\n  variant Damaged: unit\n    send \"damaged\"\n    receive \"damaged\"\n    catch-all\n\nenum Category\n  rust \"my_app::Category\"\n  repr internal tag \"kind\"\n  variant Damaged: newtype Plan\n    send \"damaged\"\n    receive \"damaged\"\n",
        // A unit variant read under an alias: either name holding `null`.
        "root Holder\n\nenum Budget\n  rust \"my_app::Budget\"\n  repr external\n  variant Late: unit\n    send \"Late\"\n    receive \"Late\" alias \"Late_old\"\n\nenum Holder\n  rust \"my_app::Holder\"\n  repr internal tag \"type\"\n  variant Late: newtype Budget\n    send \"late\"\n    receive \"late\"\n",
    ] {
        reads_back(text);
        let schema = contract_schema::text::parse(text).expect("parses");
        let export = contract_schema::json_schema::to_json_schema(&schema, View::Receiver);
        let imported = sender(&export).schema;
        let tagged = imported
            .types
            .values()
            .filter_map(|d| match &d.body {
                Body::Enum(e) => Some(&e.repr),
                _ => None,
            })
            .any(|r| matches!(r, Repr::Internal { .. }));
        assert!(tagged, "{}", contract_schema::text::to_text(&imported));
    }
}

#[test]
fn an_internally_tagged_newtype_of_an_untagged_enum_of_values_not_objects_reads_back() {
    // Each untagged variant is written beside the tag as an `allOf` of its content (a tuple,
    // a list: serde writes and reads none there): read back as that content, not as an
    // object of the tag alone that captures every other key.
    for content in [
        "tuple(bool, u8)",
        "newtype list<bool>",
        "newtype array<u8; 0>",
    ] {
        reads_back(&format!("root Holder\n\nenum Artifact\n  rust \"my_app::Artifact\"\n  repr untagged\n  variant Nested: {content}\n    send never\n    receive \"nested\"\n\nenum Holder\n  rust \"my_app::Holder\"\n  repr internal tag \"kind\"\n  variant Ready: newtype Artifact\n    send never\n    receive \"ready\"\n"));
    }
}

#[test]
fn an_internally_tagged_newtype_of_an_option_writes_nothing() {
    // Beside a tag serde writes no `Option` (`None` is no object to set the tag in, and it
    // refuses `Some` as well): the variant writes nothing, so a reader that does not read
    // its tag misses nothing, and the sender view's export says no value for it. The
    // content here is an enum tagged under another key, with a struct variant.
    let text = "root Row\n\nenum Inner\n  rust \"my_app::Inner\"\n  repr internal tag \"kind\"\n  variant Late: struct\n    send \"late\"\n    receive never\n    unknown deny\n\nnewtype Plan: option<Inner>\n  rust \"my_app::Plan\"\n\nenum Row\n  rust \"my_app::Row\"\n  repr internal tag \"type\"\n  variant Late: newtype Plan\n    send \"late\"\n    receive never\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    assert!(compat::check(&schema, &schema).is_compatible());
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Sender);
    assert_eq!(
        export["$defs"]["Row"]["oneOf"][0]["not"],
        json!({}),
        "{export}"
    );
    // Externally tagged, the same variant writes `{"late": null}`, which that reader misses.
    let external =
        contract_schema::text::parse(&text.replace("repr internal tag \"type\"", "repr external"))
            .expect("parses");
    let ids: Vec<_> = compat::check(&external, &external)
        .findings()
        .iter()
        .map(|f| f.rule.id())
        .collect();
    assert_eq!(ids, vec!["ENUM_VARIANT_UNKNOWN"]);
}

#[test]
fn an_option_of_unit_read_by_an_option_of_another_type_reads_back() {
    // `option<unit>` writes `null` either way, which an `Option` of any type reads as `None`:
    // here a key the reader captures into its map of `option<bool>` values.
    let text = "root T\n\nstruct T\n  rust \"my_app::T\"\n  unknown capture\n  extra option<bool>\n  field category: option<unit>\n    send \"CATEGORY\" always\n    receive \"CATEGORYIn\" optional\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    assert!(compat::check(&schema, &schema).is_compatible());
    // An `option<bool>` written there is still a mismatch with `option<string>` values.
    let bools = contract_schema::text::parse(&text.replace("option<unit>", "option<bool>"))
        .expect("parses");
    let strings =
        contract_schema::text::parse(&text.replace("extra option<bool>", "extra option<string>"))
            .expect("parses");
    let ids: Vec<_> = compat::check(&bools, &strings)
        .findings()
        .iter()
        .map(|f| (f.rule.id(), f.path.to_string()))
        .filter(|(_, path)| path == "CATEGORY")
        .collect();
    assert_eq!(ids, vec![("TYPE_CHANGED", "CATEGORY".to_owned())]);
}

#[test]
fn an_internally_tagged_enum_whose_tagged_variants_write_nothing_writes_its_untagged_ones() {
    // Its one tagged variant, a newtype of an `Option`, writes nothing: only the untagged
    // variant's content is on the wire, which a reader of another representation with that
    // untagged variant reads, as the export says.
    let text = "root E\n\nenum E\n  rust \"my_app::E\"\n  repr internal tag \"t\"\n  variant Cash: newtype option<bool>\n    send \"cash\"\n    receive \"cash\"\n  variant Failed: newtype u8\n    send \"failed\"\n    receive \"failed\"\n    untagged\n";
    reads_back(text);
    let writer = contract_schema::text::parse(text).expect("parses");
    let reader =
        contract_schema::text::parse(&text.replace("repr internal tag \"t\"", "repr external"))
            .expect("parses");
    let report = compat::check(&writer, &reader);
    assert!(report.is_compatible(), "{report}");
    // The reader's untagged variant of another type is still a finding at it.
    let other = contract_schema::text::parse(
        &text
            .replace("newtype u8", "newtype bool")
            .replace("repr internal tag \"t\"", "repr external"),
    )
    .expect("parses");
    assert!(!compat::check(&writer, &other).is_compatible());
}

#[test]
fn an_untagged_unit_variant_beside_an_internal_tag_is_not_read_back_by_serde() {
    // serde writes `Nested(Status::Ready)` as the tag alone and cannot read it back: the
    // untagged unit variant reads only `null`, and finds an empty object. The engine says so
    // of the schema against itself, as the producer read back from its export does.
    let text = "root Grid\n\nenum Grid\n  rust \"my_app::Grid\"\n  repr internal tag \"type\"\n  variant Nested: newtype Status\n    send \"Nested\"\n    receive \"Nested\"\n\nenum Status\n  rust \"my_app::Status\"\n  repr untagged\n  variant Ready: unit\n    send \"ready\"\n    receive \"ready\"\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let found = found(&schema, &schema);
    assert_eq!(found, vec![("TYPE_CHANGED", "(Nested)(Ready)".to_owned())]);
    // A reader's untagged struct variant with no required field reads the empty remainder.
    let reader = contract_schema::text::parse(&text.replace(
        "    receive \"ready\"\n",
        "    receive \"ready\"\n  variant Empty: struct\n    send never\n    receive \"empty\"\n    unknown ignore\n",
    ))
    .expect("parses");
    let report = compat::check(&schema, &reader);
    assert!(report.is_compatible(), "{report}");
}

#[test]
fn an_internally_tagged_newtype_of_a_map_of_integer_keys_reads_only_the_tag() {
    // serde writes `{"kind": "wrong", "5": true}` and reads the keys beside the tag from what
    // it buffered, as strings, which a `u8` does not read: the reader reads the tag alone,
    // as the receiver view's export says (nothing beside the tag), and the engine says the
    // keys sent are not read.
    let text = "root Holder\n\nenum Holder\n  rust \"my_app::Holder\"\n  repr internal tag \"kind\"\n  variant Wrong: newtype map<u8, bool>\n    send \"wrong\"\n    receive \"wrong\"\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let found = found(&schema, &schema);
    assert_eq!(found, vec![("TYPE_CHANGED", "(wrong)".to_owned())]);
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Receiver);
    assert_eq!(
        export["$defs"]["Holder"]["oneOf"][0]["additionalProperties"],
        json!(false),
        "{export}"
    );
    // String keys are read there.
    let strings = contract_schema::text::parse(&text.replace("map<u8, bool>", "map<string, bool>"))
        .expect("parses");
    reads_back(&text.replace("map<u8, bool>", "map<string, bool>"));
    assert!(compat::check(&strings, &strings).is_compatible());
}

#[test]
fn an_internally_tagged_struct_variant_that_only_captures_reads_back_as_one() {
    // The tag beside `additionalProperties` is read back as a struct variant capturing those
    // values (what a newtype of a map writes too): compared with the reader's struct as the
    // struct it is, not as a map whose keys may be the reader's own fields.
    let text = "root Pair\n\nenum Pair\n  rust \"my_app::Pair\"\n  repr internal tag \"type\"\n  variant Done: struct\n    send \"done\"\n    receive \"done\"\n    unknown capture\n    extra bool\n    field category: u8\n      send never\n      receive \"CATEGORY\" optional\n";
    reads_back(text);
    let schema = contract_schema::text::parse(text).expect("parses");
    let export = contract_schema::json_schema::to_json_schema(&schema, View::Sender);
    let imported = sender(&export).schema;
    let VariantDefKind::Struct(done) = &enum_of(&imported, "Pair").variants[0].kind else {
        panic!(
            "a struct variant: {}",
            contract_schema::text::to_text(&imported)
        );
    };
    assert_eq!(done.unknown, Unknown::Capture);
    assert_eq!(done.extra, Some(Type::Bool));
}

#[test]
fn an_internally_tagged_newtype_of_unit_reads_the_tag_alone() {
    // serde reads `{"kind": "PENDING"}` as `Pending(Plan(()))`: the content `()` (and a
    // newtype of it) is read from the empty map beside the tag. The receiver view exports
    // the tag alone, read back as a unit variant, which the newtype variant reads.
    let text = "root Grid\n\nenum Grid\n  rust \"my_app::Grid\"\n  repr internal tag \"kind\"\n  variant Pending: newtype Plan\n    send never\n    receive \"PENDING\"\n  variant Ready: unit\n    send \"READY\"\n    receive \"READY\"\n\nnewtype Plan: unit\n  rust \"my_app::Plan\"\n";
    reads_back(text);
    let reader = contract_schema::text::parse(text).expect("parses");
    let unit = |content: &str| {
        contract_schema::text::parse(&text.replace(
            "variant Pending: newtype Plan\n    send never",
            &format!("variant Pending: {content}\n    send \"PENDING\""),
        ))
        .expect("parses")
    };
    assert_eq!(found(&unit("unit"), &reader), vec![]);
    // A content that needs a value beside the tag still does not read the tag alone.
    let needs_value =
        contract_schema::text::parse(&text.replace("newtype Plan: unit", "newtype Plan: u8"))
            .expect("parses");
    assert_eq!(
        found(&unit("unit"), &needs_value),
        vec![("TYPE_CHANGED", "(PENDING)".to_owned())]
    );
}

#[test]
fn a_rename_trial_does_not_take_a_pair_that_was_found_not_to_fit_as_fitting() {
    // `evidence` is read: its `Step`s are compared first, and `Step` denies the `budget`
    // it sends. `notes` is sent under a key the reader does not read, of the same `Step`:
    // no likely rename of `notesIn`, since a `Step` does not fit a `Step`, whichever of the
    // two was compared first.
    let text = "root Holder\n\nstruct Holder\n  rust \"my_app::Holder\"\n  unknown deny\n  field notes: Step\n    send \"notes\" always\n    receive \"notesIn\" required\n  field evidence: Step\n    send \"evidence\" always\n    receive \"evidence\" optional\n\nstruct Step\n  rust \"my_app::Step\"\n  unknown deny\n  field budget: bool\n    send \"budget\" always\n    receive \"budgetIn\" optional\n";
    let schema = contract_schema::text::parse(text).expect("parses");
    let expected = vec![
        ("UNKNOWN_FIELD_DENIED", "evidence.budget".to_owned()),
        ("REQUIRED_FIELD_NOT_SENT", "notesIn".to_owned()),
        ("UNKNOWN_FIELD_DENIED", "notes".to_owned()),
    ];
    assert_eq!(found(&schema, &schema), expected);
    // The same behind a list, compared after the pair it holds.
    let nested = contract_schema::text::parse(
        &text
            .replace("field notes: Step", "field notes: list<Step>")
            .replace("field evidence: Step", "field evidence: list<Step>"),
    )
    .expect("parses");
    let rules: Vec<&str> = found(&nested, &nested)
        .iter()
        .map(|(rule, _)| *rule)
        .collect();
    assert_eq!(
        rules,
        vec![
            "UNKNOWN_FIELD_DENIED",
            "REQUIRED_FIELD_NOT_SENT",
            "UNKNOWN_FIELD_DENIED"
        ]
    );
    reads_back(text);
}

#[test]
fn a_likely_rename_does_not_depend_on_the_order_of_the_writers_fields() {
    // A `tuple(u8, u8)` fits a `list<u8>` reader one way only: of the two candidates for
    // `idsIn`, the `list<u8>` (which the reader's type fits too) is the rename, and the
    // tuple is left for `pairIn`, whichever the writer declares first.
    let struct_of = |fields: &[&str]| {
        contract_schema::text::parse(&format!(
            "root H\n\nstruct H\n  rust \"my_app::H\"\n  unknown deny\n{}",
            fields.concat()
        ))
        .expect("parses")
    };
    let list = "  field a: list<u8>\n    send \"ids\" always\n    receive never\n";
    let tuple = "  field b: tuple(u8, u8)\n    send \"pair\" always\n    receive never\n";
    let reader = struct_of(&[
        "  field c: list<u8>\n    send never\n    receive \"idsIn\" required\n",
        "  field d: tuple(u8, u8)\n    send never\n    receive \"pairIn\" required\n",
    ]);
    let expected = vec![
        ("FIELD_LIKELY_RENAMED", "idsIn".to_owned()),
        ("FIELD_LIKELY_RENAMED", "pairIn".to_owned()),
    ];
    assert_eq!(found(&struct_of(&[list, tuple]), &reader), expected);
    assert_eq!(found(&struct_of(&[tuple, list]), &reader), expected);
    // Of candidates that fit alike, the one of the reader's Rust name: a key renamed, the
    // field kept.
    let x = "  field x: u8\n    send \"x\" always\n    receive never\n";
    let y = "  field y: u8\n    send \"y\" always\n    receive never\n";
    let reader = struct_of(&[
        "  field y: u8\n    send never\n    receive \"yIn\" required\n",
        "  field x: u8\n    send never\n    receive \"xIn\" required\n",
    ]);
    for writer in [struct_of(&[x, y]), struct_of(&[y, x])] {
        let whys: Vec<String> = compat::check(&writer, &reader)
            .findings()
            .iter()
            .map(|f| format!("{} {} {}", f.rule.id(), f.path, f.why))
            .collect();
        assert_eq!(whys.len(), 2, "{whys:?}");
        assert!(
            whys[0].starts_with("FIELD_LIKELY_RENAMED yIn ") && whys[0].contains("which send `y`"),
            "{whys:?}"
        );
        assert!(
            whys[1].starts_with("FIELD_LIKELY_RENAMED xIn ") && whys[1].contains("which send `x`"),
            "{whys:?}"
        );
    }
    // A type that holds itself: a candidate's type compared on its own (both ways) ends,
    // and both renames are found.
    let recursive = contract_schema::text::parse("root H\n\nstruct H\n  rust \"my_app::H\"\n  unknown deny\n  field order_id: list<H>\n    send \"order_id\" always\n    receive \"order_idIn\" required\n  field evidence: tuple(H, H)\n    send \"evidence\" always\n    receive \"evidenceIn\" required\n").expect("parses");
    let rules: Vec<&str> = found(&recursive, &recursive)
        .iter()
        .map(|(rule, _)| *rule)
        .collect();
    assert_eq!(rules, vec!["FIELD_LIKELY_RENAMED", "FIELD_LIKELY_RENAMED"]);
    reads_back(&contract_schema::text::to_text(&recursive));
}
