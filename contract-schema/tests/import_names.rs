//! The names a peer's JSON Schema gives its types, once imported: titles, `$defs` keys and
//! where an inline type sits become display names the canonical text writes and reads back
//! (`snapshot::parse` of the written text is the imported schema), which a user recognises
//! as their own pydantic or zod type's, distinct, never a built-in type's word, and the
//! same each time the document is imported.

use std::collections::BTreeSet;

use contract_schema::arbitrary::arb_schema;
use contract_schema::json_schema::{import, to_json_schema, without_annotations, View};
use contract_schema::model::{Body, Schema, Type};
use contract_schema::{snapshot, text, RESERVED};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// The schema `doc` imports to in `view`.
fn imported(doc: &Value, view: View) -> Schema {
    import(doc, view)
        .unwrap_or_else(|e| panic!("the document imports: {e}"))
        .schema
}

/// The root's name when the document's root is a struct titled `title`.
fn root_name(title: &str) -> String {
    let doc = json!({
        "title": title,
        "type": "object",
        "properties": {"id": {"type": "integer"}},
        "required": ["id"],
    });
    match imported(&doc, View::Receiver).root {
        Type::Named(name) => name,
        other => panic!("the root is not a named type: {other}"),
    }
}

/// The laws of the names of one imported schema: its text (with a snapshot's header and
/// without) reads back as it, and every name is a named type in the text's syntax, not a
/// built-in type's word.
fn assert_reads_back(schema: &Schema) -> Result<(), TestCaseError> {
    let written = text::to_text(schema);
    let file = format!("---\nsource: peer.json\n---\n{written}");
    for contents in [&written, &file] {
        match snapshot::parse(contents) {
            Ok(again) => prop_assert_eq!(&again, schema, "read back differently:\n{}", written),
            Err(error) => prop_assert!(false, "the text does not parse: {error}\n{written}"),
        }
    }
    for name in schema.types.keys() {
        prop_assert!(!RESERVED.contains(&name.as_str()), "{name}");
        prop_assert_eq!(
            text::parse_type(name).ok(),
            Some(Type::Named(name.clone())),
            "not a name the text reads as itself"
        );
    }
    Ok(())
}

/// Runs [`assert_reads_back`] outside a proptest.
fn reads_back(schema: &Schema) {
    if let Err(failure) = assert_reads_back(schema) {
        panic!("{failure}");
    }
}

#[test]
fn titles_become_names_the_text_reads_back() {
    let cases = [
        // A name in the text's syntax stays as the peer wrote it.
        ("RefundRequest", "RefundRequest"),
        ("refund_request", "refund_request"),
        ("Zählung", "Zählung"),
        ("1st", "1st"),
        ("billing::Order", "billing::Order"),
        ("Page<Order>", "Page<Order>"),
        // ... in the text's spelling: no surrounding spaces, arguments spaced.
        (" t", "t"),
        ("Order ", "Order"),
        ("Page<Order,Line>", "Page<Order, Line>"),
        // Any other is a path of words, apart at `.` or `::`: each part kept when it is a
        // word, else one word of its letters and digits, each run a capital.
        ("refund request", "RefundRequest"),
        ("Order Status", "OrderStatus"),
        ("order-status", "OrderStatus"),
        ("Name-2", "Name_2"),
        ("退款 请求", "退款请求"),
        ("Response[Order]", "ResponseOrder"),
        ("app.models.Order", "app::models::Order"),
        ("Order.lines[]", "Order::lines::Item"),
        ("Order.*", "Order::Value"),
        ("Pair.0", "Pair::0"),
        ("Order.lines[].sku", "Order::lines::Item::sku"),
        ("billing::order status", "billing::OrderStatus"),
        ("a::", "a"),
        ("Order.", "Order"),
        ("2 step", "2Step"),
        ("Page<", "Page"),
        // A built-in type's word is not a name: its capital is.
        ("string", "String"),
        ("option", "Option"),
        ("u8", "U8"),
        // Nothing left to name it by: the root's place does, as an untitled root's.
        ("→", "Root"),
        ("", "Root"),
    ];
    let mut failures = Vec::new();
    for (title, expected) in cases {
        let name = root_name(title);
        if name != expected {
            failures.push(format!(
                "{title:?} was named {name:?}, expected {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn inline_types_are_named_by_where_they_sit() {
    let object =
        json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]});
    let doc = json!({
        "title": "refund request",
        "type": "object",
        "properties": {
            "payment": object,
            "lines": {"type": "array", "items": object},
            "totals": {"type": "object", "additionalProperties": object},
            "pair": {"type": "array", "prefixItems": [object, object], "minItems": 2, "maxItems": 2},
            "order-status": {"enum": ["open", "closed"]},
            "kind": {"title": "Order Status", "enum": ["refund"]},
            // pydantic titles each field after its name, a `Literal[…]`'s too: no type name.
            "reason_code": {"title": "Reason Code", "enum": ["damaged", "late"]},
            // An inline object's title is a type's, whatever its key.
            "carrier": {"title": "Carrier", "type": "object", "properties": {}},
        },
        "required": ["payment", "lines", "totals", "pair", "order-status", "kind", "reason_code", "carrier"],
    });
    for view in [View::Sender, View::Receiver] {
        let schema = imported(&doc, view);
        let names: BTreeSet<&str> = schema.types.keys().map(String::as_str).collect();
        let expected = BTreeSet::from([
            "RefundRequest",
            "RefundRequest::payment",
            "RefundRequest::lines::Item",
            "RefundRequest::totals::Value",
            "RefundRequest::pair::0",
            "RefundRequest::pair::1",
            "RefundRequest::OrderStatus",
            "OrderStatus",
            "RefundRequest::reason_code",
            "Carrier",
        ]);
        assert_eq!(names, expected, "{view:?}");
        reads_back(&schema);
    }
}

#[test]
fn titles_that_make_one_name_get_distinct_names() {
    let refs = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let titles = [
        "refund request",
        "refund-request",
        "RefundRequest",
        "RefundRequest_2",
        "string",
        "String",
        "Page<Order>",
        "Page<Order>",
    ];
    let mut defs = Map::new();
    let mut properties = Map::new();
    for (key, title) in refs.iter().zip(titles) {
        defs.insert((*key).to_owned(), json!({"title": title, "enum": [*key]}));
        properties.insert((*key).to_owned(), json!({"$ref": format!("#/$defs/{key}")}));
    }
    let doc = json!({"type": "object", "properties": properties, "$defs": defs});
    let schema = imported(&doc, View::Receiver);
    let Some(Body::Struct(root)) = schema.def("Root").map(|d| &d.body) else {
        panic!("no root struct: {:?}", schema.types.keys());
    };
    let named: Vec<String> = root.fields.iter().map(|f| f.ty.to_string()).collect();
    // In the order the properties are read (sorted by key): the first of a name keeps it,
    // the others are suffixed past every name given.
    assert_eq!(
        named,
        [
            "RefundRequest",
            "RefundRequest_2",
            "RefundRequest_3",
            "RefundRequest_2_2",
            "String",
            "String_2",
            "Page<Order>",
            "Page_2<Order>",
        ]
    );
    reads_back(&schema);
}

#[test]
fn a_defs_key_names_a_type_without_a_title() {
    let doc = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/order%20status"},
            "b": {"$ref": "#/$defs/string"},
            "c": {"$ref": "#/$defs/Response_Order_"},
            "d": {"$ref": "#/$defs/blank"},
        },
        "$defs": {
            "order status": {"enum": ["x"]},
            "string": {"enum": ["y"]},
            "Response_Order_": {"enum": ["w"]},
            "blank": {"title": "", "enum": ["v"]},
        },
    });
    let schema = imported(&doc, View::Receiver);
    let names: BTreeSet<&str> = schema.types.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        BTreeSet::from(["OrderStatus", "Response_Order_", "Root", "String", "blank"])
    );
    reads_back(&schema);
}

/// A root whose title names nothing (empty, or without a letter or digit) is `Root`, as
/// an untitled root is; a `$defs` entry so titled is named by its key.
#[test]
fn a_title_that_names_nothing_leaves_the_name_to_the_place() {
    for title in ["", " ", "→"] {
        assert_eq!(root_name(title), "Root", "{title:?}");
    }
    let doc = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Status"}},
        "$defs": {"Status": {"title": "→", "enum": ["x"]}},
    });
    let schema = imported(&doc, View::Receiver);
    let names: BTreeSet<&str> = schema.types.keys().map(String::as_str).collect();
    assert_eq!(names, BTreeSet::from(["Root", "Status"]));
    reads_back(&schema);
}

/// A `$defs` key with `/` or `~` names its type as the key was written, not as the JSON
/// pointer escapes it (`a~1b` is the key `a/b`, `x~0y` the key `x~y`).
#[test]
fn a_defs_key_is_read_unescaped() {
    let doc = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/order~1status"},
            "b": {"$ref": "#/$defs/x~0y"},
            "c": {"$ref": "#/$defs/~01"},
        },
        "$defs": {
            "order/status": {"enum": ["x"]},
            "x~y": {"enum": ["y"]},
            "~1": {"enum": ["z"]},
        },
    });
    let schema = imported(&doc, View::Receiver);
    let names: BTreeSet<&str> = schema.types.keys().map(String::as_str).collect();
    // `~01` is the key `~1` (`~0` first read as `~`, the `1` after it then a digit).
    assert_eq!(names, BTreeSet::from(["1", "OrderStatus", "Root", "XY"]));
    reads_back(&schema);
}

/// Titles and `$defs` keys a peer may write: the awkward ones by hand, and any short string
/// of letters, digits, separators, brackets and a few non-ASCII characters.
fn awkward() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            " t",
            "t ",
            "refund request",
            "refund-request",
            "RefundRequest",
            "Root",
            "Root.c",
            "RootC",
            "Name-2",
            "Name_2",
            "string",
            "String",
            "option",
            "u8",
            "Zählung",
            "退款 请求",
            "1st",
            "2",
            "Page<Order>",
            "Page<Order,Line>",
            "billing::Order",
            "a::",
            "::a",
            "a.b[]",
            "a*",
            "→",
            "\u{200b}",
            "Straße",
            "e\u{301}",
            "A<string>",
            "A<option>",
            "Page_2<Order>",
        ])
        .prop_map(str::to_owned),
        "[ a-zA-Z0-9._*:<>,\\[\\]\\-ßé→]{0,8}",
    ]
}

/// A JSON pointer fragment's encoding of a `$defs` key: `~` and `/` escaped, then every
/// byte but ASCII letters and digits percent-encoded.
fn fragment(key: &str) -> String {
    let token = key.replace('~', "~0").replace('/', "~1");
    let mut out = String::from("#/$defs/");
    for byte in token.bytes() {
        if byte.is_ascii_alphanumeric() {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// One property's schema: a struct or an enum, inline (titled or not) or behind a `$ref`,
/// held directly, in a list or as a map's values.
fn property(
    title: Option<String>,
    by_ref: Option<String>,
    holder: u8,
    defs: &mut Map<String, Value>,
) -> Value {
    let mut body = if holder % 2 == 0 {
        json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]})
    } else {
        json!({"enum": ["a", "b"]})
    };
    if let (Some(title), Value::Object(map)) = (title, &mut body) {
        map.insert("title".to_owned(), Value::String(title));
    }
    let held = match by_ref {
        Some(key) => {
            let reference = json!({"$ref": fragment(&key)});
            defs.insert(key, body);
            reference
        }
        None => body,
    };
    match holder / 2 {
        0 => held,
        1 => json!({"type": "array", "items": held}),
        _ => json!({"type": "object", "additionalProperties": held}),
    }
}

/// A document of a titled root and up to six properties of [`property`], their titles and
/// `$defs` keys [`awkward`].
fn documents() -> impl Strategy<Value = Value> {
    let one = (
        prop::option::of(awkward()),
        prop::option::of(awkward()),
        0_u8..6,
    );
    (
        prop::option::of(awkward()),
        prop::collection::vec(one, 0..6),
    )
        .prop_map(|(root_title, properties)| {
            let mut defs = Map::new();
            let mut props = Map::new();
            for (i, (title, by_ref, holder)) in properties.into_iter().enumerate() {
                let schema = property(title, by_ref, holder, &mut defs);
                props.insert(format!("p{i}"), schema);
            }
            let mut doc = json!({"type": "object", "properties": props, "$defs": defs});
            if let (Some(title), Value::Object(map)) = (root_title, &mut doc) {
                map.insert("title".to_owned(), Value::String(title));
            }
            doc
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn imported_names_read_back_and_do_not_change(doc in documents()) {
        for view in [View::Sender, View::Receiver] {
            let Ok(first) = import(&doc, view) else {
                continue;
            };
            assert_reads_back(&first.schema)?;
            let again = import(&doc, view).map(|i| i.schema).ok();
            prop_assert_eq!(again.as_ref(), Some(&first.schema), "imported twice differently");
        }
    }

    #[test]
    fn a_title_keeps_its_letters_and_digits(title in awkward()) {
        let name = root_name(&title);
        // Compared in capitals, so that `refund request` is seen in `RefundRequest`.
        let kept: Vec<char> = title
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_uppercase)
            .collect();
        let mut given = name.chars().flat_map(char::to_uppercase);
        prop_assert!(
            kept.iter().all(|c| given.any(|g| g == *c)),
            "{:?} was named {:?}", title, name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every kind of named type the import makes (structs, enums of every representation,
    /// newtypes, tuples, maps), from this crate's export of generated schemas, with the
    /// annotations and without (then the titles and places alone name the types).
    #[test]
    fn an_exported_schema_imported_reads_back(schema in arb_schema()) {
        for view in [View::Sender, View::Receiver] {
            let exported = to_json_schema(&schema, view);
            for doc in [without_annotations(exported.clone()), exported] {
                let Ok(first) = import(&doc, view) else {
                    continue;
                };
                assert_reads_back(&first.schema)?;
            }
        }
    }
}
