//! Every shape the derive describes, and the serde attributes it reads.
use std::collections::BTreeMap;

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Meta {
    pub author: String,
}

/// A contract with every field attribute.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "every-shape", version = 1, mode = "full-transitive")]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    #[serde(rename = "ID", alias = "id")]
    #[handoff(renamed_from = "identifier", confirmed)]
    pub r#type: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[handoff(assumption)]
    pub guess: Option<String>,
    #[serde(skip)]
    pub cache: std::cell::Cell<u8>,
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Newtype(pub String);

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct Transparent {
    pub inner: Vec<u8>,
    #[serde(skip)]
    pub _marker: std::marker::PhantomData<u8>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Tuple(pub u8, pub String, #[serde(skip)] pub ());

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Unit;

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum External {
    A,
    B(u8),
    C(u8, u8),
    D { x: u8 },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum Internal {
    A,
    B(Meta),
    D { x: u8 },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", rename_all = "lowercase", rename_all_fields = "UPPERCASE")]
pub enum Adjacent {
    A,
    B(u8),
    C(u8, u8),
    D { x_y: u8 },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum Untagged {
    A(u8),
    B { x: String },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum AllVariantsUntagged {
    #[serde(untagged)]
    A(u8),
    #[serde(untagged)]
    B(String),
}

/// Untagged variants after tagged ones, in each representation (serde 1.0.181 and later).
#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum ExternalWithUntagged {
    A,
    B(u8),
    #[serde(untagged)]
    C(String),
    #[serde(untagged)]
    D { x: u8 },
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum InternalWithUntagged {
    A { x: u8 },
    #[serde(untagged)]
    B(u8),
}

#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
pub enum AdjacentWithUntagged {
    A(u8),
    #[serde(untagged)]
    B(u8, u8),
    #[serde(untagged)]
    C,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Empty {}

fn main() {
    assert_eq!(Everything::CONTRACT.to_string(), "every-shape/v1");
    let _ = Everything::schema();
    let _ = <Adjacent as HandoffSchema>::schema();
    let _ = <Empty as HandoffSchema>::schema();
    let _ = <ExternalWithUntagged as HandoffSchema>::schema();
    let _ = <InternalWithUntagged as HandoffSchema>::schema();
    let _ = <AdjacentWithUntagged as HandoffSchema>::schema();
}
