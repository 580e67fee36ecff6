//! The envelope a handoff travels in: identity of the journey, status, and the payload.

use contract_core::HandoffSchema;
use serde::{Deserialize, Serialize};

/// Where a handoff stands. A receiver accepts only `ready`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still being written.
    Draft,
    /// Complete and waiting to be accepted.
    Ready,
    /// Accepted by the receiver.
    Accepted,
    /// Refused by the receiver.
    Rejected,
}

/// A versioned artifact the handoff refers to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Artifact {
    /// Its name.
    pub name: String,
    /// Where it lives.
    pub uri: String,
    /// The version the sender saw; the receiver refuses versions that do not exist.
    pub version: u32,
}

/// The envelope: accepting it is idempotent on `(context_id, handoff_id)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
pub struct Handoff<T> {
    /// The shared task context.
    pub context_id: String,
    /// This handoff, unique within the context.
    pub handoff_id: String,
    /// The agent or service handing off.
    pub handoff_from: String,
    /// The agent or service taking over.
    pub handoff_to: String,
    /// The handoff this one retries, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_of: Option<String>,
    /// Where the handoff stands.
    pub status: Status,
    /// Decisions the user confirmed.
    pub decisions: Vec<String>,
    /// Working assumptions nobody confirmed yet: kept apart from decisions.
    #[serde(default)]
    #[handoff(assumption)]
    pub assumptions: Vec<String>,
    /// Questions still open.
    #[serde(default)]
    pub open_questions: Vec<String>,
    /// The artifacts it refers to.
    #[serde(default)]
    pub artifacts: Vec<Artifact>,
    /// The payload.
    pub payload: T,
}
