use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1)]
#[handoff(allow(FIELD_REMOVED, reason = "no reader uses it"))]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
