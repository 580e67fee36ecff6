use std::collections::BTreeMap;

use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Meta {
    pub author: String,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Nested {
    pub id: u8,
    #[serde(flatten)]
    pub meta: Meta,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Shape {
    Circle { r: u8 },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum Either {
    A { a: u8 },
}

/// serde rejects every key these flattened fields read: each is an error at its type.
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub struct Document {
    pub title: String,
    #[serde(flatten)]
    pub extra: BTreeMap<String, u8>,
    #[serde(flatten)]
    pub nested: Option<Nested>,
    #[serde(flatten)]
    pub shape: Shape,
    #[serde(flatten)]
    pub either: Either,
}

/// An enum's `deny_unknown_fields` reaches its struct variants.
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub enum Event {
    Created {
        #[serde(flatten)]
        extra: serde_json::Value,
    },
}

fn main() {}
