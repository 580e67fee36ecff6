//! Handoff contracts from the workflows this project grew from.
//!
//! - [`refund`]: a support agent hands a refund request to billing (`refund-request`, v1 and
//!   v2 side by side: v2 renamed `orderRef` to `orderId` and keeps reading old writers).
//! - [`envelope`]: the versioned envelope every handoff travels in, generic over its payload.
//! - [`task`]: a sub-task contract and the result that comes back.
//! - [`story`]: seed `003_…`'s dropped `orderRef`, caught at send and at receive, and
//!   explained (`cargo run -p examples --bin dropped-order-ref`).
//! - [`session`]: seed `003_…`'s workflow, triage → refund specialist → escalation, in
//!   envelopes on one session: every way `orderRef` goes missing caught and explained, and
//!   v1 against v2 (`cargo run -p examples --bin refund-handoff`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod envelope;
pub mod refund;
pub mod session;
pub mod story;
pub mod task;
