use std::marker::PhantomData;

use contract_core::HandoffSchema;

#[derive(HandoffSchema)]
#[handoff(bound = "T HandoffSchema")]
pub struct Tagged<T> {
    pub value: u32,
    pub unit: PhantomData<T>,
}

fn main() {}
