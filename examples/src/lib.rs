//! Handoff contracts from the workflows this project grew from.
//!
//! - [`refund`]: a support agent hands a refund request to billing (`refund-request`, v1 and
//!   v2 side by side: v2 renamed `orderRef` to `orderId` and keeps reading old writers).
//! - [`task`]: a sub-task contract and the result that comes back.
//! - [`story`]: seed `003_…`'s dropped `orderRef`, caught at send and at receive, and
//!   explained (`cargo run -p examples --bin dropped-order-ref`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod refund;
pub mod story;
pub mod task;
