//! The impl's bounds: inferred as serde infers its own (a type parameter is bounded only
//! where a field on the wire uses it; an associated type is bounded itself), or given by
//! `#[handoff(bound = "…")]` instead. Each type below is instantiated with a parameter
//! that has no description (`Countdown`, `Postgres`): it compiles only if the derive asks
//! nothing of that parameter.

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

/// An iterator with no description: a parameter the derive must not bound.
#[derive(Default)]
pub struct Countdown(u32);

impl Iterator for Countdown {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.0 = self.0.checked_sub(1)?;
        Some(self.0)
    }
}

/// The issue's case: `T` is only in `PhantomData` and in a field skipped both ways.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Carrier<T: Iterator, U> {
    /// Described: bounds `U`.
    pub u: Option<U>,
    /// `null` whatever `T`.
    pub phantom: PhantomData<T>,
    /// On the wire in neither view.
    #[serde(skip)]
    pub skipped: T,
}

#[test]
fn a_parameter_in_phantom_data_and_skipped_fields_is_not_bounded() {
    let schema = Carrier::<Countdown, u8>::schema();
    let text = to_text(&schema);
    // Only the parameter the description uses is part of the type's name.
    assert!(text.starts_with("root Carrier<u8>\n"), "{text}");
    assert!(text.contains("field u: option<u8>"), "{text}");
    assert!(text.contains("field phantom: unit"), "{text}");
    assert!(!text.contains("field skipped:"), "{text}");
    let ok = receive::<Carrier<Countdown, u8>>(br#"{"u": 3, "phantom": null}"#).expect("valid");
    assert_eq!(ok.into_inner().u, Some(3));
    assert!(receive::<Carrier<Countdown, u8>>(br#"{"u": 300, "phantom": null}"#).is_err());
}

/// A field skipped in one direction only is still described by the other: its parameter is
/// bounded and named.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct OneWay<S, R> {
    /// Only received.
    #[serde(skip_serializing)]
    pub received: R,
    /// Only sent.
    #[serde(skip_deserializing)]
    pub sent: S,
}

#[test]
fn a_field_skipped_one_way_bounds_its_parameter() {
    let text = to_text(&OneWay::<bool, u16>::schema());
    assert!(text.starts_with("root OneWay<bool, u16>\n"), "{text}");
    assert!(text.contains("field received: u16"), "{text}");
    assert!(text.contains("field sent: bool"), "{text}");
}

/// A store keyed by something described elsewhere: serialized as its key list.
pub struct Keys<K>(PhantomData<K>, Vec<String>);

impl<K> Serialize for Keys<K> {
    fn serialize<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        self.1.serialize(s)
    }
}

impl<'de, K> Deserialize<'de> for Keys<K> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::deserialize(d).map(|keys| Keys(PhantomData, keys))
    }
}

/// A `schema_as` field bounds what its `schema_as` type uses, not what its own type does.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Indexed<K, V> {
    /// Written as a list of strings whatever `K`.
    #[handoff(schema_as = Vec<String>)]
    pub keys: Keys<K>,
    /// Written as its `V`s: bounds `V`.
    #[handoff(schema_as = Vec<V>)]
    pub values: Keys<V>,
}

#[test]
fn a_schema_as_field_bounds_its_schema_as_type() {
    let text = to_text(&Indexed::<Postgres, i8>::schema());
    assert!(text.starts_with("root Indexed<i8>\n"), "{text}");
    assert!(text.contains("field keys: list<string>"), "{text}");
    assert!(text.contains("field values: list<i8>"), "{text}");
}

/// An associated type is bounded itself, at the top of a field or inside it; its parameter is
/// not. (serde infers only the first, and bounds `J` for the second: its bound is given.)
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(bound(
    serialize = "I::Item: Serialize, J::Item: Serialize",
    deserialize = "I::Item: DeserializeOwned, J::Item: DeserializeOwned"
))]
pub struct Batch<I: Iterator, J: Iterator> {
    /// `I::Item: HandoffSchema`.
    pub first: I::Item,
    /// `<J as Iterator>::Item: HandoffSchema`, inside a list.
    pub rest: Vec<<J as Iterator>::Item>,
}

#[test]
fn an_associated_type_is_bounded_itself() {
    let schema = Batch::<Countdown, Countdown>::schema();
    let text = to_text(&schema);
    // Neither parameter describes itself: neither is in the name.
    assert!(text.starts_with("root Batch\n"), "{text}");
    assert!(text.contains("field first: u32"), "{text}");
    assert!(text.contains("field rest: list<u32>"), "{text}");
    let ok = receive::<Batch<Countdown, Countdown>>(br#"{"first": 1, "rest": [2, 3]}"#);
    assert_eq!(ok.expect("u32s").into_inner().rest, [2, 3]);
    assert!(receive::<Batch<Countdown, Countdown>>(br#"{"first": -1, "rest": []}"#).is_err());
}

/// An enum: a skipped variant, a field skipped in a struct variant and `PhantomData` in a
/// newtype variant bound nothing; a variant on the wire bounds what it carries.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Event<A, B, C, D> {
    /// Bounds `A`.
    Value(A),
    /// On the wire in neither view.
    #[serde(skip)]
    Internal(B),
    /// Its `C` is skipped both ways.
    Tagged {
        /// Described.
        label: String,
        /// Not on the wire.
        #[serde(skip)]
        hidden: C,
    },
    /// `null` whatever `D`.
    Marker(PhantomData<D>),
}

#[test]
fn an_enum_bounds_only_what_its_described_variants_carry() {
    let text = to_text(&Event::<u8, Countdown, Countdown, Postgres>::schema());
    assert!(text.starts_with("root Event<u8>\n"), "{text}");
    assert!(text.contains("variant Value: newtype u8"), "{text}");
    assert!(!text.contains("variant Internal:"), "{text}");
    assert!(!text.contains("field hidden:"), "{text}");
    let schema = jsonschema::draft202012::new(&json_schema::<
        Event<u8, Countdown, Countdown, Postgres>,
    >(View::Receiver))
    .expect("compiles");
    assert!(schema.is_valid(&serde_json::json!({"Value": 7})));
    assert!(schema.is_valid(&serde_json::json!({"Tagged": {"label": "x"}})));
    assert!(schema.is_valid(&serde_json::json!({"Marker": null})));
    assert!(!schema.is_valid(&serde_json::json!({"Value": 700})));
    assert!(!schema.is_valid(&serde_json::json!({"Internal": 1})));
}

/// A variant's `schema_as` replaces what it carries, bounds and all.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Stored<K> {
    /// Written as a list of strings whatever `K`.
    #[handoff(schema_as = Vec<String>)]
    Keys(Keys<K>),
}

#[test]
fn a_variant_schema_as_bounds_its_schema_as_type() {
    let text = to_text(&Stored::<Postgres>::schema());
    assert!(text.starts_with("root Stored\n"), "{text}");
    assert!(
        text.contains("variant Keys: newtype list<string>"),
        "{text}"
    );
}

/// `bound` replaces the inference: here `T` is used by a field, yet the bound asks only for
/// `Vec<T>: HandoffSchema`, so `T` is left out of the name.
#[derive(Serialize, HandoffSchema)]
#[handoff(bound = "Vec<T>: HandoffSchema")]
pub struct Listed<T> {
    /// Described through the bound.
    pub items: Vec<T>,
}

#[test]
fn a_given_bound_replaces_the_inferred_ones() {
    let text = to_text(&Listed::<u8>::schema());
    assert!(text.starts_with("root Listed\n"), "{text}");
    assert!(text.contains("field items: list<u8>"), "{text}");
}
