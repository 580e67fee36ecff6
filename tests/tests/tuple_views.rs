//! A tuple struct with a field skipped in one direction only: serde writes the fields that are
//! not `skip_serializing` and reads those that are not `skip_deserializing`, so the sender's
//! and the receiver's arrays differ in length (and the type cannot read back what it writes).
//! The description has two views, and every feature follows the one it checks.

use contract_core::compat::check;
use contract_core::schema::model::Body;
use contract_core::schema::text::{parse, to_text};
use contract_core::schema::Type;
use contract_core::{json_schema, receive, send, HandoffSchema, View};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Written `[id, flag]`, read `[id, count]`.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct OneWay(
    pub u8,
    #[serde(skip_serializing)] pub u16,
    #[serde(skip_deserializing)] pub bool,
);

/// Holds one, so that the views are followed through a field too.
#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Holder {
    pub inner: OneWay,
}

fn valid(view: View, instance: &Value) -> bool {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&json_schema::<Holder>(view))
        .expect("the export compiles")
        .is_valid(&json!({ "inner": instance }))
}

#[test]
fn the_description_has_a_view_for_each_direction() {
    let schema = OneWay::schema();
    let Some(def) = schema.def("OneWay") else {
        panic!("a definition")
    };
    let Body::Views { sender, receiver } = &def.body else {
        panic!("two views, got {:?}", def.body)
    };
    assert_eq!(sender.to_string(), "tuple(u8, bool)");
    assert_eq!(receiver.to_string(), "tuple(u8, u16)");
    let text = to_text(&schema);
    assert!(
        text.contains("  send tuple(u8, bool)\n  receive tuple(u8, u16)\n")
            && text.contains("views OneWay\n"),
        "{text}"
    );
    assert_eq!(parse(&text).as_ref(), Ok(&schema));
    assert!(matches!(schema.root, Type::Named(_)));
}

#[test]
fn the_json_schema_of_each_view_says_what_serde_does() {
    let written = serde_json::to_value(OneWay(1, 2, true)).expect("serializes");
    assert_eq!(written, json!([1, true]));
    assert!(valid(View::Sender, &written));
    assert!(!valid(View::Receiver, &written));
    // serde reads two integers and refuses what it writes.
    assert!(serde_json::from_value::<OneWay>(json!([1, 2])).is_ok());
    assert!(serde_json::from_value::<OneWay>(written.clone()).is_err());
    assert!(valid(View::Receiver, &json!([1, 2])));
    assert!(!valid(View::Sender, &json!([1, 2])));
    assert!(!valid(View::Receiver, &json!([1, 2, true])));
}

#[test]
fn receive_and_send_follow_their_view() {
    let received = receive::<Holder>(br#"{"inner":[1,2]}"#).expect("what serde reads");
    assert_eq!(received.into_inner().inner, OneWay(1, 2, false));
    let rejected = receive::<Holder>(br#"{"inner":[1,true]}"#).expect_err("what serde writes");
    assert!(rejected.to_string().contains("/inner/1"), "{rejected}");
    let sent = send(&Holder {
        inner: OneWay(1, 2, true),
    })
    .expect("what serde writes");
    assert_eq!(sent.bytes(), br#"{"inner":[1,true]}"#);
}

#[test]
fn a_type_that_cannot_read_what_it_writes_is_not_compatible_with_itself() {
    let schema = Holder::schema();
    assert!(!check(&schema, &schema).is_compatible());
}

#[test]
fn skipping_a_field_in_one_direction_breaks_that_direction_only() {
    use contract_core::compat::{evolve, Mode};
    let new = OneWay::schema();
    let mut old = new.clone();
    let Some(def) = old.types.get_mut("OneWay") else {
        panic!("a definition")
    };
    // Before: `OneWay(u8, u16)` written and read alike.
    let Body::Views { receiver, .. } = def.body.clone() else {
        panic!("two views")
    };
    def.body = Body::Newtype(receiver);
    // Old writers' `[id, count]` is what new readers read; new writers' `[id, flag]` is not
    // what old readers read.
    assert!(evolve(&old, &new, Mode::Backward).findings().is_empty());
    let forward = evolve(&old, &new, Mode::Forward);
    assert!(!forward.findings().is_empty(), "{forward}");
    assert!(!forward.is_compatible());
}
