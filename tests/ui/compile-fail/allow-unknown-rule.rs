use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1)]
pub struct RefundRequest {
    #[handoff(allow(FIELD_REMOVD, reason = "no reader uses it"))]
    pub order_id: String,
}

fn main() {}
