//! Handoff contracts from the workflows this project grew from.
//!
//! - [`refund`]: a support agent hands a refund request to billing (`refund-request`, v1 and
//!   v2 side by side: v2 renamed `orderRef` to `orderId` and keeps reading old writers).
//! - [`story`]: seed `003_…`'s dropped `orderRef`, caught at send and at receive, and
//!   explained (`cargo run -p examples --bin dropped-order-ref`).
//! - [`session`]: seed `003_…`'s workflow, triage → refund specialist → escalation, in
//!   envelopes on one session: every way `orderRef` goes missing caught and explained, and
//!   v1 against v2 (`cargo run -p examples --bin refund-handoff`).
//!
//! Seed `001_…`'s sub-task, `verify-c`, uses the library's own task contracts
//! (`contract_core::task`): `cargo run -p examples --bin task-contract`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod refund;
pub mod session;
pub mod story;
