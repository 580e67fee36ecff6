//! `#[serde(untagged)]` on the last variants of a tagged enum (serde 1.0.181 and later):
//! serde writes such a variant as its content alone and reads a value by trying the tagged
//! variants first, then each untagged variant in declaration order. Pinned here against
//! serde itself: the order, what `receive` and `send` say, the JSON Schema of both views and
//! the compatibility of two versions.

use std::collections::BTreeMap;

use contract_core::__private::{sends_on_fast_path, takes_fast_path};
use contract_core::compat::{self, Mode};
use contract_core::schema::model::{Body, Repr};
use contract_core::{json_schema, receive, send, HandoffSchema, ProblemKind, View};
use contract_tests::types::{
    AdjacentWithUntagged, Channel, ExternalWithUntagged, InternalWithUntagged,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// An internally tagged event with a catch-all of any value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
enum Event {
    Ping,
    Note {
        text: String,
    },
    #[serde(untagged)]
    Raw(Value),
}

/// An adjacently tagged enum whose untagged variant reads what its tagged one writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
enum Wrapped {
    A(u8),
    #[serde(untagged)]
    Object(BTreeMap<String, Value>),
}

/// What serde reads from `payload`, and whether `receive` agrees: the same verdict and, when
/// both accept, the same value.
fn read<T>(payload: &Value) -> Option<T>
where
    T: DeserializeOwned + HandoffSchema + PartialEq + std::fmt::Debug + 'static,
{
    let bytes = serde_json::to_vec(payload).expect("a JSON value");
    let by_serde = serde_json::from_slice::<T>(&bytes).ok();
    let by_receive = receive::<T>(&bytes).ok().map(|r| r.into_inner());
    assert_eq!(by_serde, by_receive, "serde and receive on {payload}");
    by_serde
}

#[test]
fn the_tagged_form_wins_over_an_untagged_variant_that_also_reads_it() {
    // `"email"` is also a string `Other` reads; serde tries `Email` first.
    assert_eq!(read::<Channel>(&json!("email")), Some(Channel::Email));
    assert_eq!(
        read::<Channel>(&json!("fax")),
        Some(Channel::Other("fax".to_owned()))
    );
    // `Raw` reads any value, yet a well-formed tagged variant is read as such ...
    assert_eq!(read::<Event>(&json!({ "kind": "Ping" })), Some(Event::Ping));
    assert_eq!(
        read::<Event>(&json!({ "kind": "Note", "text": "hi" })),
        Some(Event::Note {
            text: "hi".to_owned()
        })
    );
    // ... and one that does not read as tagged falls through to it, whole, tag included.
    let broken = json!({ "kind": "Note", "text": 7 });
    assert_eq!(read::<Event>(&broken), Some(Event::Raw(broken.clone())));
    assert_eq!(read::<Event>(&json!(3)), Some(Event::Raw(json!(3))));
    // Adjacently tagged: the object with a readable tag and content is `A`.
    assert_eq!(
        read::<Wrapped>(&json!({ "t": "A", "c": 1 })),
        Some(Wrapped::A(1))
    );
    let other = json!({ "t": "A", "c": "one" });
    let Some(Wrapped::Object(map)) = read::<Wrapped>(&other) else {
        panic!("the untagged variant reads what the tagged one does not");
    };
    assert_eq!(map.len(), 2);
}

#[test]
fn untagged_variants_are_tried_in_declaration_order() {
    use ExternalWithUntagged as E;
    assert_eq!(read::<E>(&json!("Stop")), Some(E::Stop));
    assert_eq!(
        read::<E>(&json!({ "Say": "hi" })),
        Some(E::Say("hi".to_owned()))
    );
    assert_eq!(read::<E>(&json!(7)), Some(E::Code(7)));
    assert_eq!(read::<E>(&json!([7, true])), Some(E::Pair(7, true)));
    assert_eq!(
        read::<E>(&json!({ "text": "t" })),
        Some(E::Note {
            text: "t".to_owned(),
            urgent: false
        })
    );
    assert_eq!(read::<E>(&json!(null)), Some(E::Nothing));
    // A number beyond `Code`'s range fits no variant: serde and receive both refuse it.
    assert_eq!(read::<E>(&json!(70000)), None);
    // An object with the key of a tagged variant but the wrong content is tried as `Note`
    // (which ignores unknown keys but requires `text`), and refused.
    assert_eq!(read::<E>(&json!({ "Say": 1 })), None);
    assert_eq!(
        read::<E>(&json!({ "Say": 1, "text": "t" })),
        Some(E::Note {
            text: "t".to_owned(),
            urgent: false
        })
    );
    // Internally tagged: a map of small numbers is `Counts`, a number `Number`.
    use InternalWithUntagged as I;
    assert_eq!(read::<I>(&json!({ "kind": "Ping" })), Some(I::Ping));
    assert_eq!(
        read::<I>(&json!({ "a": 1 })),
        Some(I::Counts(BTreeMap::from([("a".to_owned(), 1)])))
    );
    assert_eq!(read::<I>(&json!(-4)), Some(I::Number(-4)));
    assert_eq!(read::<I>(&json!({ "kind": "Nope" })), None);
    // Adjacently tagged with `deny_unknown_fields`: the untagged struct variant denies too.
    use AdjacentWithUntagged as A;
    assert_eq!(read::<A>(&json!({ "t": "A", "c": 2 })), Some(A::A(2)));
    assert_eq!(read::<A>(&json!([1, 2])), Some(A::Pair(1, 2)));
    assert_eq!(
        read::<A>(&json!({ "y": "s" })),
        Some(A::Loose {
            y: "s".to_owned(),
            z: None
        })
    );
    assert_eq!(read::<A>(&json!({ "y": "s", "x": 0 })), None);
    assert_eq!(read::<A>(&json!({ "t": "A", "c": 2, "x": 0 })), None);
}

#[test]
fn nothing_matching_is_one_problem_at_the_enum() {
    let refused = receive::<ExternalWithUntagged>(br#""Go""#).expect_err("no variant reads it");
    let problems = refused.problems();
    assert_eq!(problems.len(), 1, "{refused}");
    assert_eq!(problems[0].pointer, "");
    assert_eq!(
        problems[0].kind,
        ProblemKind::NoVariantMatches {
            expected: "ExternalWithUntagged".into()
        }
    );
    assert_eq!(
        problems[0].to_string(),
        "(root): the value matches no variant of ExternalWithUntagged"
    );
    // Inside a struct, at the field; the payload's value is not repeated.
    #[derive(Debug, Deserialize, HandoffSchema)]
    struct Holder {
        #[allow(dead_code)]
        event: InternalWithUntagged,
    }
    let refused = receive::<Holder>(br#"{"event": {"kind": "secret-value-7"}}"#)
        .expect_err("no variant reads it");
    assert_eq!(refused.problems().len(), 1);
    assert_eq!(refused.problems()[0].pointer, "/event");
    assert!(!refused.to_string().contains("secret-value-7"), "{refused}");
}

#[test]
fn send_writes_an_untagged_variant_alone_and_receive_reads_it_as_serde_does() {
    // serde writes `Other("email")` as `"email"`, which it reads back as `Email`: `send`
    // accepts what serde writes, and both sides read it the same way.
    let sent = send(&Channel::Other("email".to_owned())).expect("serde writes it");
    assert_eq!(sent.bytes(), br#""email""#);
    assert_eq!(
        receive::<Channel>(sent.bytes())
            .map(|r| r.into_inner())
            .ok(),
        Some(Channel::Email)
    );
    for value in [
        ExternalWithUntagged::Code(3),
        ExternalWithUntagged::Pair(1, false),
        ExternalWithUntagged::Nothing,
        ExternalWithUntagged::Say("s".to_owned()),
    ] {
        let sent = send(&value).expect("serde writes it");
        let expected = serde_json::to_vec(&value).expect("serde writes it");
        assert_eq!(sent.bytes(), expected.as_slice());
        assert_eq!(
            receive::<ExternalWithUntagged>(sent.bytes())
                .map(|r| r.into_inner())
                .ok(),
            Some(value)
        );
    }
}

#[test]
fn such_enums_take_the_full_path() {
    assert!(!takes_fast_path::<Channel>(br#""email""#));
    assert!(!sends_on_fast_path(&Channel::Email));
    assert!(!takes_fast_path::<ExternalWithUntagged>(br#""Stop""#));
}

#[test]
fn the_presence_follows_the_variant_that_was_read() {
    let received = receive::<ExternalWithUntagged>(br#"{"Move": {"x": 1, "y": 2}}"#).expect("Move");
    let tagged = received.presence().received().to_vec();
    let received = receive::<ExternalWithUntagged>(br#"{"text": "t"}"#).expect("Note");
    let untagged = received.presence().received().to_vec();
    assert!(tagged.iter().any(|p| p.ends_with(".x")), "{tagged:?}");
    assert!(!tagged.iter().any(|p| p.ends_with(".text")), "{tagged:?}");
    assert!(
        untagged.iter().any(|p| p.ends_with(".text")),
        "{untagged:?}"
    );
    assert!(!untagged.iter().any(|p| p.ends_with(".x")), "{untagged:?}");
}

/// The receiver and sender validators of `T`'s JSON Schema.
fn validators<T: HandoffSchema>() -> (jsonschema::Validator, jsonschema::Validator) {
    let build =
        |view| jsonschema::draft202012::new(&json_schema::<T>(view)).expect("the export compiles");
    (build(View::Receiver), build(View::Sender))
}

#[test]
fn the_json_schema_is_the_tagged_form_or_an_untagged_content() {
    let (receiver, sender) = validators::<ExternalWithUntagged>();
    for (payload, read) in [
        (json!("Stop"), true),
        (json!({ "Say": "hi" }), true),
        (json!(7), true),
        (json!([7, true]), true),
        (json!({ "text": "t" }), true),
        (json!(null), true),
        (json!("Go"), false),
        (json!(70000), false),
        (json!({ "Say": 1 }), false),
    ] {
        assert_eq!(receiver.is_valid(&payload), read, "{payload}");
        let value = serde_json::from_value::<ExternalWithUntagged>(payload.clone());
        assert_eq!(value.is_ok(), read, "{payload}");
        // What serde writes back is what the sender view describes.
        if let Ok(value) = value {
            let written = serde_json::to_value(&value).expect("serde writes it");
            assert!(sender.is_valid(&written), "{written}");
        }
    }
    // The sender view: `Note` always writes `urgent`.
    assert!(!sender.is_valid(&json!({ "text": "t" })));
    assert!(sender.is_valid(&json!({ "text": "t", "urgent": false })));
    // The export's outline: an `anyOf` of the tagged enum's `oneOf` and the contents.
    let export = json_schema::<ExternalWithUntagged>(View::Receiver);
    let def = &export["$defs"]["ExternalWithUntagged"];
    let any_of = def["anyOf"].as_array().expect("an anyOf");
    assert_eq!(any_of.len(), 2, "{def}");
    assert!(any_of[0]["oneOf"].is_array(), "{def}");
    let titles: Vec<&str> = any_of[1]["anyOf"]
        .as_array()
        .expect("the untagged contents")
        .iter()
        .filter_map(|v| v["title"].as_str())
        .collect();
    assert_eq!(titles, ["Code", "Pair", "Note", "Nothing"]);
    // As a map key: a tagged unit variant's name, or any string for `Other(String)`.
    #[derive(Serialize, Deserialize, HandoffSchema)]
    struct Keyed {
        by: BTreeMap<Channel, u8>,
    }
    let (receiver, _) = validators::<Keyed>();
    assert!(receiver.is_valid(&json!({ "by": { "email": 1, "fax": 2 } })));
    assert!(serde_json::from_value::<Keyed>(json!({ "by": { "email": 1, "fax": 2 } })).is_ok());
}

mod v1 {
    use contract_core::HandoffSchema;
    use serde::{Deserialize, Serialize};

    /// `Note` tagged.
    #[derive(Serialize, Deserialize, HandoffSchema)]
    #[serde(tag = "kind")]
    pub enum Event {
        Ping,
        Note { text: String },
    }
}

mod v2 {
    use contract_core::HandoffSchema;
    use serde::{Deserialize, Serialize};

    /// `Note` untagged.
    #[derive(Serialize, Deserialize, HandoffSchema)]
    #[serde(tag = "kind")]
    pub enum Event {
        Ping,
        #[serde(untagged)]
        Note {
            text: String,
        },
    }
}

#[test]
fn a_variant_becoming_untagged_breaks_new_writers_only_here() {
    let (old, new) = (v1::Event::schema(), v2::Event::schema());
    let Some(Body::Enum(e)) = new.def("Event").map(|d| &d.body) else {
        panic!("an enum")
    };
    assert!(matches!(e.repr, Repr::Internal { .. }));
    assert_eq!(
        e.variants.iter().map(|v| v.untagged).collect::<Vec<_>>(),
        [false, true]
    );
    // The new writer's `{"text": …}` has no tag, which the old reader requires; the old
    // writer's `{"kind": "Note", …}` is read by the new reader's `Note`, which ignores the
    // tag as an unknown key.
    let report = compat::evolve(&old, &new, Mode::Full);
    let found: Vec<(&str, &str)> = report
        .findings()
        .iter()
        .map(|f| (f.rule.id(), f.direction.as_str()))
        .collect();
    assert_eq!(found, [("VARIANT_TAGGING_CHANGED", "forward")], "{report}");
    assert!(serde_json::from_value::<v1::Event>(json!({ "text": "t" })).is_err());
    assert!(serde_json::from_value::<v2::Event>(json!({ "kind": "Note", "text": "t" })).is_ok());
    assert!(compat::evolve(&new, &new, Mode::Full).is_compatible());
}

mod channels {
    use contract_core::HandoffSchema;
    use serde::{Deserialize, Serialize};

    /// An earlier `Channel` with a variant since dropped.
    #[derive(Serialize, Deserialize, HandoffSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Channel {
        Email,
        Phone,
        Fax,
    }
}

#[test]
fn a_name_dropped_into_the_untagged_string_is_still_read() {
    // Old data's `"fax"` is a string, which `Other(String)` reads.
    let report = compat::check(&channels::Channel::schema(), &Channel::schema());
    assert!(report.is_compatible(), "{report}");
    assert_eq!(
        read::<Channel>(&json!("fax")),
        Some(Channel::Other("fax".to_owned()))
    );
    // The other way, `Other` writes any string, which the old enum does not read.
    let report = compat::check(&Channel::schema(), &channels::Channel::schema());
    let rules: Vec<&str> = report.findings().iter().map(|f| f.rule.id()).collect();
    assert_eq!(rules, ["UNTAGGED_VARIANT_UNMATCHED"], "{report}");
}
