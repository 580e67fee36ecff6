//! An allowance that does not cover the nested break: another rule on the field that holds
//! the type, and the rule on another field. The break still fails at the nested field.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-allowance-not-covering", version = 1)]
#[handoff(allow(INT_NARROWED, field = "line", reason = "another field"))]
pub struct Order {
    #[handoff(allow(FIELD_REMOVED, reason = "another rule"))]
    pub lines: Vec<Line>,
}

fn main() {}
