//! A workflow of agents and the handoff contracts between them, read from a `handoff.toml`
//! at the root of a repository, and the questions a deployment asks of it.
//!
//! ```toml
//! [agents.triage-agent]
//! contracts = "triage/contracts"          # its snapshot folder, read at any git ref
//! [agents.escalation-agent]
//! schema = "peers/escalation.json"        # a peer in another language: its JSON Schema
//! [agents.billing]
//! contracts = { git = "https://example.invalid/billing.git", path = "contracts" }
//!
//! [[edges]]
//! from = "triage-agent"                   # the producer
//! to = "billing"                          # the consumer
//! contract = "refund-request"             # the major is whatever each side has at its version
//! ```
//!
//! - [`manifest`]: the manifest, every mistake located at its line (`handoff.toml:12: …`).
//! - [`git`]: an agent's files at a git ref, from this repository or another one (fetched
//!   into a cache).
//! - [`store`]: what runs where, recorded by `handoff record-deployment` (SQLite, or a
//!   PostgreSQL schema).
//! - [`deploy`]: can-i-deploy: every edge touching an agent, its side at a ref against the
//!   other side's version deployed in an environment, with `contract_schema::compat::check`.
//! - [`graph`]: the manifest drawn as a mermaid flowchart or one self-contained HTML page,
//!   each edge coloured by its verdict.
//!
//! Layers run one way: the manifest and git at the bottom, then the sides read from them
//! ([`project`]), then the store, then can-i-deploy and the graph. Nothing here prints: the
//! `handoff` binary parses its arguments and prints what these functions return. No payload
//! value is ever read: only snapshots and schemas.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod deploy;
mod error;
pub mod git;
pub mod graph;
pub mod manifest;
pub mod project;
pub mod store;

pub use deploy::{EdgeReport, Report, Verdict};
pub use error::Error;
pub use manifest::Manifest;
pub use project::Project;
pub use store::{Deployment, Deployments, PostgresStore, SqliteStore};

/// The manifest's file name, at the root of a repository.
pub const MANIFEST: &str = "handoff.toml";

/// Where the deployment store and the cache of other repositories live, beside the
/// manifest: `.handoff/`.
pub const STATE_DIR: &str = ".handoff";

/// The deployment store's file in [`STATE_DIR`] unless told otherwise.
pub const STORE_FILE: &str = "deployments.sqlite";
