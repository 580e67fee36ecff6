//! Map keys are strings on the wire: serde_json writes an integer, a `bool`, a newtype, a
//! serde_repr enum and an untagged variant's scalar as a string key, and reads a key back
//! only where the key type reads a string (or, for integers and `bool`, parses it). Both
//! JSON Schema views and `receive` must agree with that, whatever the key type's value schema.

use std::collections::BTreeMap;

use contract_core::{json_schema, receive, send, HandoffSchema, View};
use contract_tests::types::Priority;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// An externally tagged enum whose keys are its unit variants' names (serde_json refuses to
/// write a data-carrying variant as a key, and reads none from one).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema)]
pub enum Mixed {
    Plain,
    #[serde(rename = "other-name", alias = "other")]
    Renamed,
    Carrying(u8),
}

/// An untagged enum: serde_json writes `Num(7)` as the key `"7"` and reads every key as a
/// `Name` (the buffered key is a string, which no `u32` reads).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum NumOrName {
    Num(u32),
    Name(String),
}

/// An untagged enum of an integer alone: written as a key of digits, never read back.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum OnlyNum {
    N(u16),
}

/// A newtype around an integer: a key of digits both ways.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema)]
pub struct Id(pub u32);

/// Maps keyed by each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Keyed<K: Ord> {
    pub map: BTreeMap<K, u8>,
}

fn views<K: Ord + HandoffSchema + Serialize + DeserializeOwned + 'static>(
) -> (jsonschema::Validator, jsonschema::Validator) {
    let compile = |view| {
        let schema = json_schema::<Keyed<K>>(view);
        jsonschema::draft202012::new(&schema).expect("the export compiles")
    };
    (compile(View::Sender), compile(View::Receiver))
}

/// What serde_json writes of `keys` passes the sender view and `send`; each of `tries` as a
/// key is read by the receiver view and by `receive` exactly when serde reads it.
fn agree<K>(keys: Vec<K>, tries: &[&str]) -> usize
where
    K: Ord + HandoffSchema + Serialize + DeserializeOwned + std::fmt::Debug + 'static,
{
    let (sender, receiver) = views::<K>();
    let value = Keyed {
        map: keys.into_iter().map(|k| (k, 1)).collect(),
    };
    let written = serde_json::to_value(&value).expect("serde writes these keys");
    let errors: Vec<String> = sender
        .iter_errors(&written)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "sender view rejects {written}: {errors:?}"
    );
    send(&value).unwrap_or_else(|r| panic!("send rejects {written}: {r}"));
    for key in tries {
        let payload: Value = json!({ "map": { *key: 1 } });
        let serde = serde_json::from_value::<Keyed<K>>(payload.clone()).is_ok();
        assert_eq!(
            receiver.is_valid(&payload),
            serde,
            "receiver view, key {key:?}"
        );
        let bytes = serde_json::to_vec(&payload).expect("bytes");
        assert_eq!(
            receive::<Keyed<K>>(&bytes).is_ok(),
            serde,
            "receive, key {key:?}"
        );
    }
    tries.len()
}

const TRIES: &[&str] = &[
    "Plain",
    "plain",
    "Renamed",
    "other-name",
    "other",
    "Carrying",
    "7",
    "x",
    "",
    "007",
    "-1",
    "3",
    "5",
    "2",
    "200",
    "true",
];

#[test]
fn unit_variants_of_a_mixed_enum_are_its_keys() {
    agree(vec![Mixed::Plain, Mixed::Renamed], TRIES);
    // A data-carrying variant is no key: serde_json refuses to write it.
    let carrying = Keyed {
        map: BTreeMap::from([(Mixed::Carrying(1), 1)]),
    };
    assert!(serde_json::to_value(&carrying).is_err());
}

#[test]
fn an_untagged_integer_variant_is_written_as_digits() {
    agree(vec![NumOrName::Num(7), NumOrName::Name("x".into())], TRIES);
    agree(vec![OnlyNum::N(3)], TRIES);
}

#[test]
fn newtypes_and_serde_repr_enums_are_keys_of_digits() {
    agree(vec![Id(0), Id(7)], TRIES);
    agree(vec![Priority::Low, Priority::Urgent], TRIES);
}
