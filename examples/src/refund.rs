//! The refund handoff: three green runs, one broken result, because a payload lost `orderRef`.

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// Why the customer wants a refund.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The item arrived damaged.
    Damaged,
    /// The item never arrived.
    NotDelivered,
    /// The customer changed their mind.
    ChangedMind,
    /// Any category a newer producer adds: read, never dropped.
    #[serde(other)]
    Other,
}

/// Version 1, as the first support agent wrote it.
pub mod v1 {
    use super::{Category, Deserialize, HandoffContract, Serialize};

    /// A refund the support agent hands to billing.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "refund-request", version = 1)]
    #[serde(rename_all = "camelCase")]
    pub struct RefundRequest {
        /// Why the customer wants the refund.
        pub category: Category,
        /// The order to refund.
        pub order_ref: String,
        /// The amount in cents.
        pub amount_cents: u64,
    }
}

/// Version 2: `orderRef` became `orderId`, and the agent may record what it assumed.
pub mod v2 {
    use super::{Category, Deserialize, HandoffContract, Serialize};

    /// A refund the support agent hands to billing.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "refund-request", version = 2)]
    #[serde(rename_all = "camelCase")]
    pub struct RefundRequest {
        /// Why the customer wants the refund.
        pub category: Category,
        /// The order to refund.
        #[serde(alias = "orderRef")]
        #[handoff(renamed_from = "orderRef")]
        pub order_id: String,
        /// The amount in cents.
        pub amount_cents: u64,
        /// What the customer is using the refund for, as the agent understood it: not
        /// confirmed by the customer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[handoff(assumption)]
        pub use_case: Option<String>,
    }
}
