use contract_core::HandoffContract;

#[derive(HandoffContract)]
#[handoff(name = "refund-request", version = 1)]
pub struct RefundRequest {
    #[handoff(allow(TYPE_CHANGED, field = "orderId", reason = "ids are strings now"))]
    pub order_id: String,
}

fn main() {}
