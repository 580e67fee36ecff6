//! The schema model of handoff-contract: the static description the derive emits
//! ([`shape`]), the owned model every feature works on ([`model`]), its canonical text and
//! parser ([`text`]), and the compatibility engine ([`compat`]).
//!
//! This crate is plain library code used both by the derive at compile time (to read the
//! committed snapshot of a contract) and by `contract-core` at run time. Users depend on
//! `contract-core`, which re-exports it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "proptest")]
pub mod arbitrary;
mod build;
pub mod compat;
pub mod json_schema;
pub mod model;
pub mod shape;
pub mod text;

pub use build::RESERVED;
pub use json_schema::{to_json_schema, View};
pub use model::{Body, FieldDef, Schema, Type, TypeDef};
pub use shape::{ContractId, ContractInfo, Mode, Provenance, Shape};
