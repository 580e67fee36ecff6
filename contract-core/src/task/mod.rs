//! The task contracts of seed `001_…`: what a sub-task asks and what its result claims, where
//! "not found" cannot pass for "none", and the budget both carry.
//!
//! - [`Subtask`] (`subtask/v1`) and [`SubtaskResult`] (`subtask-result/v1`): the sub-task a
//!   supervisor hands out and the result that comes back, with `taskId` and `taskRevision` in
//!   both, and each observation's value a [`Lookup`];
//! - [`Lookup`] and [`Verified`]: a value confirmed, assumed, or not found, tagged by `state`
//!   and never `null`;
//! - [`judge`]: the supervisor's check of a result against its task, field by field, as a
//!   [`Verdict`];
//! - [`Budget`] and [`BudgetMeter`]: the limits a task carries, and their enforcement, a
//!   [`Permit`] per model or tool call.
//!
//! ```
//! use contract_core::task::Lookup;
//!
//! let price: Lookup<u32> = Lookup::NotFound { reason: "the offer page lists no price".into() };
//! assert_eq!(
//!     serde_json::to_string(&price).unwrap(),
//!     r#"{"state":"not_found","reason":"the offer page lists no price"}"#
//! );
//! // "Not found" is not "none": `null` is no lookup.
//! assert!(serde_json::from_str::<Lookup<u32>>("null").is_err());
//! ```

mod budget;
mod contract;
mod judge;
mod lookup;
mod meter;

pub use budget::Budget;
pub use contract::{Evidence, ResultStatus, Scope, Subtask, SubtaskResult};
pub use judge::{judge, Conclusion, FieldState, FieldVerdict, Place, SourceResolver, Verdict};
pub use lookup::{Lookup, Verified};
pub use meter::{BudgetExceeded, BudgetMeter, Call, Limit, Permit};
