//! A billing agent's inbox, written as an application outside this repository's crates
//! would write it: a contract, the agent's own table created with the ledger, and a handler
//! whose signature names every type, so that no call names one. The guide's page on the
//! envelope shows this code (`tests/accept.rs` checks that it does).

use contract_core::inbox::rusqlite::{self, params, Transaction};
use contract_core::inbox::Migrations;
use contract_core::{Delivery, HandoffContract};
use serde::{Deserialize, Serialize};

/// A refund the triage agent hands to the billing agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "billing-refund", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    /// The order refunded.
    pub order_id: String,
    /// How much, in cents.
    pub amount_cents: u32,
}

/// The billing agent's own table, created in the ledger's migration transaction.
pub const BILLING_TABLES: Migrations<'static> = Migrations::new(&[
    "CREATE TABLE refunds (order_id TEXT PRIMARY KEY, amount_cents INTEGER NOT NULL)",
]);

/// The largest refund the agent issues on its own.
pub const LIMIT_CENTS: u32 = 100_000;

/// Why a refund was not issued.
#[derive(Debug)]
pub enum RefundError {
    /// Above [`LIMIT_CENTS`]: a person decides.
    AboveLimit,
    /// The database failed.
    Database(rusqlite::Error),
}

impl std::fmt::Display for RefundError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefundError::AboveLimit => f.write_str("the refund is above the agent's limit"),
            RefundError::Database(error) => write!(f, "the database failed: {error}"),
        }
    }
}

impl std::error::Error for RefundError {}

impl From<rusqlite::Error> for RefundError {
    fn from(error: rusqlite::Error) -> Self {
        RefundError::Database(error)
    }
}

/// The handler: the refund is written in the acceptance's transaction, and its row id is the
/// receipt. The row is written before the limit is checked, so that a refusal shows the
/// rollback: nothing of a failed handler stays.
///
/// # Errors
///
/// [`RefundError::AboveLimit`] above [`LIMIT_CENTS`]; the database's failure.
pub fn issue_refund(
    tx: &mut Transaction<'_>,
    delivery: &Delivery<RefundRequest>,
) -> Result<i64, RefundError> {
    let refund = delivery.payload();
    tx.execute(
        "INSERT INTO refunds (order_id, amount_cents) VALUES (?1, ?2)",
        params![refund.order_id, refund.amount_cents],
    )?;
    if refund.amount_cents > LIMIT_CENTS {
        return Err(RefundError::AboveLimit);
    }
    Ok(tx.last_insert_rowid())
}
