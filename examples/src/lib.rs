//! Handoff contracts from the workflows this project grew from.
//!
//! - [`refund`]: a support agent hands a refund request to billing (`refund-request`, v1 and
//!   v2 side by side: v2 renamed `orderRef` to `orderId` and keeps reading old writers).
//! - [`story`]: a dropped `orderRef`, caught at send and at receive, and
//!   explained (`cargo run -p examples --bin dropped-order-ref`).
//! - [`session`]: a support workflow, triage → refund specialist → escalation, in
//!   envelopes on one session: every way `orderRef` goes missing caught and explained, and
//!   v1 against v2 (`cargo run -p examples --bin refund-handoff`).
//! - [`accept`]: a review handoff accepted durably by an inbox over an SQLite ledger:
//!   applied once, duplicates and retries answered with the first acknowledgement, a changed
//!   retry, a draft and missing, changed or older artifact versions refused without writing
//!   anything, a failing handler rolled back, two owners in one context, a restart, and the
//!   rollback target
//!   (`cargo run -p examples --bin envelope-accept`).
//!
//! - [`model_retry`]: a model's refund request refused for a missing `orderRef`, the
//!   correction sent back, the second attempt accepted, and the journey showing an explicit
//!   retry (`cargo run -p examples --bin model-retry`).
//!
//! Seed `001_…`'s sub-task, `verify-c`, uses the library's own task contracts
//! (`contract_core::task`): `cargo run -p examples --bin task-contract`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accept;
pub mod model_retry;
pub mod refund;
pub mod session;
pub mod story;
