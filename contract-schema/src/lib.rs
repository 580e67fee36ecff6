//! The schema model of handoff-contract: the static description the derive emits
//! ([`shape`]), a contract's identity and policy ([`contract`]), the owned model every
//! feature works on ([`model`]), its canonical text and parser ([`text`]), and the
//! compatibility engine ([`compat`]); [`snapshot`] reads and checks the published snapshot
//! files that hold a contract's canonical text.
//!
//! This crate is plain library code used both by the derive at compile time (to read the
//! committed snapshot of a contract) and by `contract-core` at run time. Users depend on
//! `contract-core`, which re-exports it.
//!
//! Two versions of a contract, read from their canonical text (what a snapshot file holds),
//! and what breaks between them:
//!
//! ```
//! use contract_schema::compat::{self, Direction, Mode, Rule};
//! use contract_schema::text::{parse, to_text};
//!
//! let v1 = parse(
//!     r#"contract refund-request/v1
//! mode full
//! root RefundRequest
//!
//! struct RefundRequest
//!   rust "app::RefundRequest"
//!   unknown ignore
//!   field order_ref: string
//!     send "orderRef" always
//!     receive "orderRef" required
//! "#,
//! )?;
//! // v2 renames the wire name without an alias: new readers no longer read old writers.
//! let v2 = parse(&to_text(&v1).replace("\"orderRef\"", "\"orderId\""))?;
//!
//! let report = compat::evolve(&v1, &v2, Mode::Backward);
//! assert!(!report.is_compatible());
//! let finding = &report.findings()[0];
//! assert_eq!(finding.rule, Rule::FieldLikelyRenamed);
//! assert_eq!(finding.path, "orderId");
//! assert_eq!(finding.direction, Direction::Backward);
//! // `Display` reads like rustc: rule id, why, path, direction, and a fix.
//! assert!(report.to_string().starts_with("error[FIELD_LIKELY_RENAMED]: "));
//! # Ok::<(), contract_schema::text::ParseError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod allowance;
#[cfg(feature = "proptest")]
pub mod arbitrary;
mod build;
pub mod compat;
pub mod constraint;
pub mod contract;
#[doc(hidden)]
pub mod escape;
pub mod json_schema;
mod locate;
pub mod model;
mod rules;
mod scalar;
pub mod shape;
pub mod snapshot;
#[doc(hidden)]
pub mod suggest;
pub mod text;
#[doc(hidden)]
pub mod views;

pub use contract::{ContractId, ContractInfo, Mode};
pub use json_schema::to_json_schema;
pub use model::RESERVED;
pub use model::{Body, FieldDef, Schema, Type, TypeDef, View};
pub use shape::{Provenance, Shape};
