//! `#[handoff(bound = "…")]`: the impl's `where` predicates instead of a `HandoffSchema`
//! bound on every type parameter, for parameters that need not describe themselves.

use std::marker::PhantomData;

use contract_core::schema::text::to_text;
use contract_core::{json_schema, receive, HandoffSchema, View};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A storage backend: a marker type that describes nothing, with an associated key type.
pub trait Backend {
    /// The key type rows of this backend carry.
    type Id;
}

/// Describes nothing itself.
pub struct Postgres;

impl Backend for Postgres {
    type Id = u64;
}

/// A row keyed by its backend's id type: only `B::Id` is on the wire.
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(bound(
    serialize = "B::Id: Serialize",
    deserialize = "B::Id: DeserializeOwned"
))]
#[handoff(bound = "B: Backend, B::Id: HandoffSchema")]
pub struct Row<B: Backend> {
    /// The key.
    pub id: B::Id,
    /// Not on the wire.
    #[serde(skip)]
    pub backend: PhantomData<B>,
}

/// A value tagged by a type that is not on the wire (`PhantomData` is `null` whatever `T`).
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(bound = "")]
#[handoff(bound = "")]
pub struct Tagged<T> {
    /// The value.
    pub value: u32,
    /// `null`.
    pub unit: PhantomData<T>,
}

#[test]
fn an_associated_type_is_described_through_the_bound() {
    let text = to_text(&Row::<Postgres>::schema());
    assert!(text.contains("field id: u64"), "{text}");
    let ok = receive::<Row<Postgres>>(br#"{"id": 7}"#).expect("a u64 id");
    assert_eq!(ok.into_inner().id, 7);
    assert!(receive::<Row<Postgres>>(br#"{"id": -7}"#).is_err());
}

#[test]
fn a_phantom_parameter_need_not_describe_itself() {
    // `Postgres` has no `HandoffSchema`; with `bound = ""` the impl asks nothing of it.
    let text = to_text(&Tagged::<Postgres>::schema());
    assert!(text.contains("field unit: unit"), "{text}");
    let schema = jsonschema::draft202012::new(&json_schema::<Tagged<Postgres>>(View::Receiver))
        .expect("compiles");
    assert!(schema.is_valid(&serde_json::json!({"value": 1, "unit": null})));
    assert!(!schema.is_valid(&serde_json::json!({"value": 1, "unit": 0})));
    assert!(receive::<Tagged<Postgres>>(br#"{"value": 1, "unit": null}"#).is_ok());
}

/// The parameters a bound leaves out are left out of the type's name too; one the bound
/// names (`T: HandoffSchema`) stays in it.
#[derive(Serialize, HandoffSchema)]
#[handoff(bound = "T: HandoffSchema")]
pub struct Pair<T, M> {
    /// Described.
    pub value: T,
    /// Not on the wire.
    #[serde(skip)]
    pub marker: PhantomData<M>,
}

#[test]
fn the_name_keeps_the_parameters_the_bound_describes() {
    let text = to_text(&Pair::<u8, Postgres>::schema());
    assert!(text.starts_with("root Pair<u8>"), "{text}");
}
