//! What is compiled once per type and kept for the life of the process: the resolved schema
//! and the fast paths' [`Plan`] ([`cache`]), the wire form of each type ([`compiled`]), and
//! the small rules both directions apply to keys and scalars ([`keys`], [`scalar`]).

pub(crate) mod cache;
pub(crate) mod compiled;
pub(crate) mod keys;
pub(crate) mod scalar;

pub(crate) use cache::{per_type, schema_of, typed_of, Typed};
pub(crate) use compiled::{FieldKey, LastShape, Plan, Shape, StructFacts};
pub(crate) use keys::{field_named, fingerprint, same};
pub(crate) use scalar::{constraint_admits, Value};
