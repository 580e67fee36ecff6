//! Breaks accepted on purpose compile, and the allowances travel in `CONTRACT`.
use contract_core::HandoffContract;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-break-allowed", version = 1)]
#[handoff(allow(FIELD_REMOVED, field = "orderRef", reason = "every reader moved to refundId"))]
pub struct Refund {
    #[handoff(allow(INT_NARROWED, reason = "amounts never exceeded u32 in production"))]
    pub amount: u32,
}

fn main() {
    let allows = Refund::CONTRACT.allows;
    assert_eq!(allows.len(), 2);
    assert_eq!((allows[0].rule, allows[0].field), ("FIELD_REMOVED", "orderRef"));
    assert_eq!((allows[1].rule, allows[1].field), ("INT_NARROWED", "amount"));
    assert_eq!(Refund::CONTRACT.allowances().as_slice().len(), 2);
}
