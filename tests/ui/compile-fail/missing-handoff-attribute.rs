use contract_core::HandoffContract;

#[derive(HandoffContract)]
pub struct RefundRequest {
    pub order_id: String,
}

fn main() {}
