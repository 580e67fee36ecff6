//! handoff-contract: typed, versioned contracts for the handoffs between agents and services.
//!
//! `#[derive(HandoffContract)]` turns a serde struct into a versioned contract: a static
//! description of exactly what serde writes (the **sender view**) and accepts (the **receiver
//! view**), from which this crate derives everything else as ordinary functions:
//!
//! | what | call |
//! |---|---|
//! | contract id and schema | [`HandoffContract::CONTRACT`] (`refund-request/v2`), [`HandoffSchema::schema`] |
//! | canonical text, for review and snapshots | [`schema::text::to_text`], `assert_contract_snapshot!` (feature `snapshots`) |
//! | JSON Schema 2020-12 for peers in other languages | [`json_schema`] with [`View::Sender`] or [`View::Receiver`] |
//! | producer/consumer and version compatibility | [`compat::check`], [`compat::evolve`] |
//! | both ends of a handoff, every problem at once, presence of each field | [`send`], [`send_to`], [`receive`], [`why_missing`] |
//! | a refusal as the correction a model acts on, and the retry loop under a budget | [`Rejection::correction`], `retry::Retry` (feature `derive`) |
//! | the envelope around a payload (`handoff-envelope/v1`) | `send_handoff`, `receive_handoff` (feature `derive`) |
//! | exactly-once, durable acceptance and the rollback target | `inbox::Inbox` over `MemoryLedger`, `SqliteLedger` (`sqlite`), `PostgresLedger` (`postgres`) |
//! | sub-tasks where unknown is not none, budgets enforced | `task::{Subtask, SubtaskResult, Lookup, judge, BudgetMeter}` |
//! | a payload and its contract in an A2A 1.0 Message or Artifact | `a2a::A2a` (feature `a2a`) |
//! | a contract as a rig tool's arguments; an MCP tool's input and output | `rig::ContractTool` (feature `rig`), `mcp::{tool, route, read_result}` (feature `rmcp`) |
//! | field-presence metadata on the trace, never a value | spans with feature `tracing`; attributes and acceptance metrics with `otel` |
//!
//! ```
//! use contract_core::{compat, json_schema, HandoffContract, HandoffSchema, Mode, View};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 2)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     #[serde(alias = "orderRef")]
//!     #[handoff(renamed_from = "orderRef")]
//!     order_id: String,
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     #[handoff(assumption)]
//!     use_case: Option<String>,
//! }
//!
//! assert_eq!(RefundRequest::CONTRACT.to_string(), "refund-request/v2");
//!
//! // The receiver reads `orderRef` too, and `useCase` may be absent.
//! let receiver = json_schema::<RefundRequest>(View::Receiver);
//! assert_eq!(receiver["x-handoff-contract"], "refund-request/v2");
//!
//! // A schema is compatible with itself in both directions.
//! let schema = RefundRequest::schema();
//! assert!(compat::evolve(&schema, &schema, Mode::Full).is_compatible());
//! ```
//!
//! Features: `derive` (default) re-exports the derives; `snapshots` (for dev-dependencies)
//! adds `assert_contract_snapshot!` and makes every non-generic contract emit its snapshot
//! test; `uuid`, `chrono`, `url`, `indexmap` and `time` describe those crates' types;
//! `tracing` and `otel` put each check on the trace; `axum` and `reqwest` check a handoff at
//! the web edge; `sqlite`, `postgres` and `tokio` (`AsyncInbox`) carry the inbox's stores;
//! `a2a` carries a payload and its contract in A2A 1.0 Messages and Artifacts; `rig` makes a
//! contract a rig tool's arguments (Rust 1.95) and `rmcp` an MCP tool's input and output
//! (Rust 1.88). None
//! of these but `derive` is on by default. The [`guide`] has a page for each task.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "a2a")]
pub mod a2a;
pub mod correction;
#[cfg(feature = "derive")]
pub mod envelope;
pub mod guide;
mod impls;
#[cfg(feature = "derive")]
pub mod inbox;
mod json_schema;
#[cfg(feature = "rmcp")]
pub mod mcp;
mod nested;
#[cfg(feature = "otel")]
mod otel;
mod published;
#[cfg(feature = "derive")]
pub mod retry;
#[cfg(feature = "rig")]
pub mod rig;
pub mod runtime;
#[cfg(feature = "tracing")]
mod semconv;
#[cfg(feature = "derive")]
pub mod session;
#[cfg(feature = "snapshots")]
mod snapshot;
#[cfg(feature = "derive")]
pub mod task;
mod trace;
mod traits;
#[cfg(any(feature = "axum", feature = "reqwest"))]
pub mod web;

pub use contract_schema as schema;
pub use contract_schema::compat;
pub use contract_schema::json_schema::dialect::Dialect;
pub use contract_schema::json_schema::View;
pub use contract_schema::{ContractId, ContractInfo, Mode, Provenance, Schema, Shape};
pub use correction::{Correction, CorrectionOptions};
#[cfg(feature = "derive")]
pub use envelope::{
    fill_sender_presence, fill_sender_presence_to, receive_handoff, send_handoff, send_handoff_to,
    ArtifactRef, Delivery, Handoff, HandoffRejection, Status, HANDOFF_SCHEMA_VERSION,
};
pub use json_schema::{json_schema, json_schema_dialect};
pub use published::check_published;
pub use runtime::{
    receive, receive_with, send, send_to, send_to_with, send_with, why_missing, Diagnosis,
    FieldPath, Journey, Limits, Numbers, Presence, Problem, ProblemClass, ProblemKind,
    ReceiveOptions, Received, Rejection, SendOptions, Sent, Side,
};
pub use traits::{shape_of, HandoffContract, HandoffSchema, PublishedSnapshot};

#[cfg(feature = "derive")]
pub use contract_derive::{HandoffContract, HandoffSchema};

/// Items the derives expand to. Not public API: no stability guarantee.
#[doc(hidden)]
pub mod __private {
    pub use crate::nested::{
        is_contract, mask, module_is, CheckedIn, NestedFinding, Probe, PublishedIn, Unanswered,
    };
    pub use crate::traits::{shape_of, Hole};
    pub use contract_schema::shape::{
        AllowInfo, ConstraintShape, ContractInfo, EnumShape, Field, IntKind, IntRange, IntValue,
        Kind, Mode, Provenance, Repr, Send, Shape, ShapeFn, StructShape, Variant, VariantKind,
        ViewsShape,
    };
    pub use core;

    #[cfg(feature = "__check-fast-path")]
    pub use crate::runtime::{
        rejects_from_checkpoint, rejects_in_one_pass, sends_on_fast_path, takes_fast_path,
    };

    #[cfg(feature = "snapshots")]
    pub use crate::__snapshot_test as snapshot_test;
    #[cfg(feature = "snapshots")]
    pub use crate::snapshot::{contract_snapshot, snapshot_verdict, ContractSnapshot};
    #[cfg(feature = "snapshots")]
    pub use insta;

    /// Without the `snapshots` feature, contracts emit no snapshot test.
    #[cfg(not(feature = "snapshots"))]
    pub use crate::__no_snapshot_test as snapshot_test;
}

/// The stand-in for the snapshot test when the `snapshots` feature is off: nothing.
#[cfg(not(feature = "snapshots"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __no_snapshot_test {
    ($($tokens:tt)*) => {};
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
