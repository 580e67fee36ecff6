//! A published contract used as a field of another: `Customer` is checked against its own
//! snapshot by its own derive, and answers `Order`'s question as a nested type.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-contract-field-customer", version = 1)]
pub struct Customer {
    pub id: String,
    pub tier: u8,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-contract-field-order", version = 1)]
pub struct Order {
    pub customer: Customer,
    pub total: u64,
}

fn main() {
    assert!(contract_core::check_published::<Customer>().is_ok());
    assert!(contract_core::check_published::<Order>().is_ok());
}
