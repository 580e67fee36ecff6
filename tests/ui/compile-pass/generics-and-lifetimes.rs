//! Generic parameters the fields use get a `HandoffSchema` bound; lifetimes and const parameters pass through.
use std::borrow::Cow;

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Envelope<T, U = String>
where
    T: Clone,
{
    pub payload: T,
    pub note: Option<U>,
    #[serde(flatten)]
    pub extra: Extra<T>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Extra<T> {
    pub items: Vec<T>,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Borrowed<'a> {
    #[serde(borrow)]
    pub text: Cow<'a, str>,
    pub plain: &'a str,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Fixed<const N: usize> {
    #[serde(with = "serde_arrays_stand_in")]
    #[handoff(schema_as = Vec<u8>)]
    pub bytes: [u8; N],
}

mod serde_arrays_stand_in {
    pub fn serialize<S: serde::Serializer, const N: usize>(v: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&v[..], s)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>, const N: usize>(d: D) -> Result<[u8; N], D::Error> {
        let v: Vec<u8> = serde::Deserialize::deserialize(d)?;
        v.try_into().map_err(|_| serde::de::Error::custom("wrong length"))
    }
}

/// A generic contract: no snapshot test is emitted for it.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "generic-contract", version = 1)]
pub struct GenericContract<T> {
    pub value: T,
}

fn main() {
    let schema = <Envelope<u32>>::schema();
    assert_eq!(schema.root.to_string(), "Envelope<u32, string>");
    let _ = <Borrowed<'static>>::schema();
    let _ = <Fixed<4>>::schema();
    assert_eq!(<GenericContract<bool>>::CONTRACT.id, "generic-contract/v1");
}
