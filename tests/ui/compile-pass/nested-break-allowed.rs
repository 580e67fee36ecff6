//! A nested break the root accepts on purpose: `allow` on the root's field covers the paths
//! under it (`lines` covers `lines[].qty`), under the root's current mode.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u16,
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-break-allowed", version = 1)]
pub struct Order {
    #[handoff(allow(INT_NARROWED, reason = "no order holds more than 65535 of one line"))]
    pub lines: Vec<Line>,
}

fn main() {
    // The snapshot test's check agrees: the finding is there, and allowed.
    let report = contract_core::check_published::<Order>();
    assert!(report.is_ok(), "{report:?}");
}
