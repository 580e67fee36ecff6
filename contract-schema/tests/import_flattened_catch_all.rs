//! A struct that flattens a string enum with a catch-all (`#[serde(other)]`), exported and
//! imported again: the consumer's view writes such an enum as any string (serde reads any
//! other string as the catch-all), but flattened, serde writes a unit variant as its name, a
//! key holding `null`, and reads only its variants' names as keys (an unknown key goes to
//! no catch-all: "no variant of enum … found in flattened data"). The import reads the
//! flattened member as that enum, which the snapshot text accepts; a flattened member that
//! is no enum at all is not read, with a warning (a producer's) or an error (a consumer's)
//! at its `x-handoff-flattened` entry.

use contract_schema::json_schema::{import, to_json_schema, without_annotations, View};
use contract_schema::model::{Body, EnumDef, Schema, StructDef, Type, Unknown};
use contract_schema::{snapshot, text};
use serde_json::{json, Value};

/// `struct Order { id: u32, #[serde(flatten)] kind: Kind, #[serde(flatten)] status:
/// Option<Status>, #[serde(flatten)] note: Option<Note> }`, each enum of unit variants with
/// a catch-all (`Status`'s with docs, which the export writes as a `oneOf` of names).
const ORDER: &str = r#"root Order

enum Kind
  rust "app::Kind"
  repr external
  variant Cash: unit
    send "Cash"
    receive "Cash"
  variant Card: unit
    send "Card"
    receive "Card" alias "Credit"
  variant Other: unit
    send "Other"
    receive "Other"
    catch-all

struct Order
  rust "app::Order"
  unknown ignore
  field id: u32
    send "id" always
    receive "id" required
  flatten kind: Kind
  flatten status: option<Status>
  flatten note: option<Note>

enum Status
  rust "app::Status"
  repr external
  variant Open: unit
    doc "Still to pay."
    send "Open"
    receive "Open"
  variant Unknown: unit
    doc "Anything else."
    send "Unknown"
    receive "Unknown"
    catch-all

enum Note
  rust "app::Note"
  repr external
  variant Gift: unit
    send "Gift"
    receive "Gift"
  variant Plain: unit
    send "Plain"
    receive "Plain"
    catch-all
"#;

/// The shrunk case the round-trip property found: the enum's one variant a catch-all that
/// is never written.
const ONLY_A_CATCH_ALL: &str = r#"root list<Handoff<TaskResult>>

struct Handoff<TaskResult>
  rust "my_app::Handoff<TaskResult>"
  unknown ignore
  flatten kind: app::v1::Step

enum app::v1::Step
  rust "app::v1::Step"
  repr external
  variant Card: unit
    send never
    receive "card"
    catch-all
"#;

/// The schema's text reads back as the schema.
fn assert_reads_back(schema: &Schema) {
    let written = text::to_text(schema);
    match snapshot::parse(&written) {
        Ok(again) => assert_eq!(&again, schema, "read back differently:\n{written}"),
        Err(error) => panic!("the text does not parse: {error}\n{written}"),
    }
}

/// The struct named `name`.
fn struct_of<'s>(schema: &'s Schema, name: &str) -> &'s StructDef {
    match schema.def(name).map(|d| &d.body) {
        Some(Body::Struct(s)) => s,
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

/// The names each variant of `e` is read under, and whether one is a catch-all.
fn read_names(e: &EnumDef) -> (Vec<Vec<&str>>, bool) {
    let names = e
        .variants
        .iter()
        .map(|v| v.receiver.iter().map(String::as_str).collect())
        .collect();
    (names, e.catch_all().is_some())
}

#[test]
fn every_view_of_a_flattened_catch_all_enum_imports_to_a_schema_the_text_reads() {
    for source in [ORDER, ONLY_A_CATCH_ALL] {
        let schema = snapshot::parse(source).expect("the contract's text parses");
        for view in [View::Sender, View::Receiver] {
            let exported = to_json_schema(&schema, view);
            // Read in either role, as `handoff diff` may read a peer's document.
            for doc in [without_annotations(exported.clone()), exported] {
                for role in [View::Sender, View::Receiver] {
                    if let Ok(imported) = import(&doc, role) {
                        assert_reads_back(&imported.schema);
                    }
                }
            }
            // With its annotations, this crate's own export always imports.
            let imported = import(&to_json_schema(&schema, view), view)
                .unwrap_or_else(|e| panic!("{view:?}: {e}"));
            assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
        }
    }
}

#[test]
fn a_consumer_reads_a_flattened_catch_all_enum_under_its_names_only() {
    let schema = snapshot::parse(ORDER).expect("the contract's text parses");
    let imported = import(&to_json_schema(&schema, View::Receiver), View::Receiver)
        .expect("the consumer's view imports")
        .schema;
    let order = struct_of(&imported, "Order");
    let [kind, status, note] = order.flattened.as_slice() else {
        panic!("three flattened members: {:?}", order.flattened);
    };
    let (e, optional) = imported.flat_enum(&kind.ty).expect("kind is an enum");
    assert!(!optional);
    assert_eq!(
        read_names(e),
        (
            vec![vec!["Cash"], vec!["Card", "Credit"], vec!["Other"]],
            false
        )
    );
    let rust: Vec<&str> = e.variants.iter().map(|v| v.rust_name.as_str()).collect();
    assert_eq!(rust, ["Cash", "Card", "Other"]);
    let (e, optional) = imported.flat_enum(&status.ty).expect("status is an enum");
    assert!(optional, "status is an option");
    // With docs, the export lists the names beside the catch-all: the `$defs` entry is the
    // enum itself, as it reads alone.
    assert_eq!(status.ty, Type::option_of(Type::Named("Status".to_owned())));
    assert_eq!(read_names(e), (vec![vec!["Open"], vec!["Unknown"]], true));
    let docs: Vec<&str> = e.variants.iter().map(|v| v.doc.as_str()).collect();
    assert_eq!(docs, ["Still to pay.", "Anything else."]);
    let (e, optional) = imported.flat_enum(&note.ty).expect("note is an enum");
    assert!(optional, "note is an option");
    assert_eq!(read_names(e), (vec![vec!["Gift"], vec!["Plain"]], false));
    // The standalone enums, any string, are reached by nothing else: not kept.
    for name in ["Kind", "Note"] {
        assert!(imported.def(name).is_none(), "{name} is kept");
    }
    assert_reads_back(&imported);
    // Read as a producer's (what a writer that fits this reader may write), the same.
    let as_producer = import(&to_json_schema(&schema, View::Receiver), View::Sender)
        .expect("the consumer's view imports as a producer's");
    // No member dropped (the one warning: the document is a consumer's view).
    let pointers: Vec<&str> = as_producer
        .warnings
        .iter()
        .map(|w| w.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/x-handoff-view"]);
    let as_producer = as_producer.schema;
    let order = struct_of(&as_producer, "Order");
    assert_eq!(order.flattened.len(), 3);
    for flat in &order.flattened {
        assert!(
            as_producer.flat_enum(&flat.ty).is_some(),
            "{}",
            flat.rust_name
        );
    }
    assert_reads_back(&as_producer);
    // The producer's view lists the names itself: the enum is read from its `$defs` entry.
    let imported = import(&to_json_schema(&schema, View::Sender), View::Sender)
        .expect("the producer's view imports")
        .schema;
    let order = struct_of(&imported, "Order");
    assert_eq!(order.flattened[0].ty, Type::Named("Kind".to_owned()));
    assert_reads_back(&imported);
}

/// A struct whose `x-handoff-flattened` entry is `flattened`, `S`, the document's root.
fn doc_with(flattened: Value, defs: Value) -> Value {
    json!({
        "$ref": "#/$defs/S",
        "$defs": {
            "S": {
                "type": "object",
                "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 255}},
                "required": ["a"],
                "x-handoff-flattened": [flattened],
            },
            "N": defs,
        },
    })
}

#[test]
fn a_flattened_member_that_is_no_enum_is_not_read() {
    let integer = doc_with(
        json!({"rust": "e", "type": {"type": "integer"}}),
        json!({"type": "string"}),
    );
    // Back into the struct that flattens it: known to be no enum only once it is read.
    let looping = doc_with(
        json!({"rust": "e", "type": {"$ref": "#/$defs/N"}}),
        json!({"$ref": "#/$defs/S"}),
    );
    for doc in [integer, looping] {
        let producer = import(&doc, View::Sender).expect("a producer's schema imports");
        let pointers: Vec<&str> = producer
            .warnings
            .iter()
            .map(|w| w.pointer.as_str())
            .collect();
        assert_eq!(pointers, ["/$defs/S/x-handoff-flattened/0"]);
        let s = struct_of(&producer.schema, "S");
        assert!(s.flattened.is_empty(), "{:?}", s.flattened);
        // What the member wrote is not known: the producer may write any other key.
        assert_eq!(
            (s.unknown, s.extra.clone()),
            (Unknown::Capture, Some(Type::Any))
        );
        assert_eq!(
            producer.schema.types.len(),
            1,
            "{:?}",
            producer.schema.types
        );
        assert_reads_back(&producer.schema);
        let error = import(&doc, View::Receiver).expect_err("a consumer's is refused");
        assert_eq!(error.pointer, "/$defs/S/x-handoff-flattened/0");
    }
}

/// A struct that flattens an optional enum still being read when the struct is: the root
/// enum holds the struct, which flattens the root (the shrunk case of a read-back property
/// at 1,500 cases). The member is that enum once the document is read, not a member that
/// is no enum: kept, and the producer's struct stays as closed as it is.
const FLATTENS_THE_ROOT: &str = r#"root Kind

enum Kind
  rust "app::Kind"
  repr external
  variant Done: struct
    send "Done"
    receive "Done"
    unknown ignore
    field status: option<Status>
      send "status" always
      receive "status" optional

struct Status
  rust "app::Status"
  unknown deny
  field note: string
    send "note" always
    receive "note" required
  flatten kind: option<Kind>
"#;

#[test]
fn a_flattened_enum_still_being_read_is_kept() {
    let schema = snapshot::parse(FLATTENS_THE_ROOT).expect("parses");
    // With the annotations: without them a flattened enum is only keys beside the struct's
    // own (`allOf`), read back as a flattened map, which a struct denying unknown keys
    // refuses (an annotation-only shape, as the read-back property has it).
    for view in [View::Sender, View::Receiver] {
        let export = to_json_schema(&schema, view);
        let imported = import(&export, View::Sender).expect("imports");
        assert!(
            imported
                .warnings
                .iter()
                .all(|w| !w.pointer.contains("x-handoff-flattened")),
            "{:?}",
            imported.warnings
        );
        if view == View::Receiver {
            let found = contract_schema::compat::check(&imported.schema, &schema);
            assert!(found.findings().is_empty(), "{:?}", found.findings());
        }
        assert_reads_back(&imported.schema);
    }
}
