//! The task contracts: what a sub-task asks and what its result claims, where
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
//!
//! # Unknown is not none
//!
//! Seed `001_…`: 不能把"未找到"写成"没有" (a value not found may not be written as none).
//! A field a sub-agent was asked to find is not an `Option<T>`: `null` (or an absent key)
//! says neither "looked and found nothing" nor "did not look", and a reader cannot tell
//! which. [`Lookup`] says which, in a tag of its own (`state`), and has no `null`:
//!
//! | `state` | members | meaning |
//! |---|---|---|
//! | `confirmed` | `value` | read from a source |
//! | `assumed` | `value`, `basis` | not read: taken on a stated basis |
//! | `not_found` | `reason` | looked for and not found, and why |
//!
//! [`Verified`] is the reader that takes confirmed values only: `confirmed` or `not_found`.
//! The existing compatibility rules see the difference with no rule of their own: a
//! [`Lookup`] writer against a [`Verified`] reader (a field `price` of each) is
//! `ENUM_VARIANT_UNKNOWN` at `price(assumed)`, so `compat::check` (and `send_to`, which checks the reader's view) stops
//! an assumed value before it reaches code that takes every value as confirmed. The presence
//! record tells the states apart by path too: `price(confirmed).value`,
//! `price(not_found).reason`, while `pricePresent` is true for all three.
//!
//! ## No catch-all, on purpose
//!
//! Neither enum has a `#[serde(other)]` variant, although a compatibility finding on a new
//! state hints at one. A catch-all reads every state it does not know as one state it does:
//! a reader of a later `Lookup` with, say, an `estimated` state would read an estimate as
//! "unknown state" and carry on, and a [`Verified`] reader would take an `assumed` value
//! for something other than what it is. Both are what these types exist to prevent: a
//! new state is a new major version of the contracts that carry it, and a reader refuses
//! a state it does not know.
//!
//! # Budgets are enforced, not only carried
//!
//! A limit written in a prompt ("at most 8 tool calls") guarantees nothing.
//! A [`BudgetMeter`] of the task's [`Budget`] hands out a [`Permit`] per call, counted before
//! the call starts, so calls running side by side never exceed a limit together, and refuses
//! every new call once a limit is spent or the time is up. Calls already running are the
//! caller's to cancel (see [`BudgetMeter`]).

mod budget;
mod contract;
mod guard;
mod judge;
mod lookup;
mod meter;
mod spent;

pub use budget::Budget;
pub use contract::{Evidence, ResultStatus, Scope, Subtask, SubtaskResult};
pub use guard::{ActionExcluded, ActionGuard};
pub use judge::{judge, Conclusion, FieldState, FieldVerdict, Place, SourceResolver, Verdict};
pub use lookup::{Lookup, Verified};
pub use meter::{BudgetExceeded, BudgetMeter, Call, Limit, Permit};
pub use spent::Spent;
