//! A sub-task contract and the result that comes back.

use std::collections::BTreeMap;

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// What a sub-agent may and may not touch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scope {
    /// Fields the result must fill.
    pub required_fields: Vec<String>,
    /// Actions the sub-agent must not take.
    #[serde(default)]
    pub excluded_actions: Vec<String>,
}

/// A sub-task handed to another agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "task-contract", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct TaskContract {
    /// What to achieve.
    pub goal: String,
    /// The input, as structured data.
    pub input: BTreeMap<String, serde_json::Value>,
    /// What may be touched.
    pub scope: Scope,
    /// How the result is judged.
    pub acceptance: Vec<String>,
    /// The budget in tokens.
    pub budget_tokens: u32,
    /// Bumped when the task changes: old conclusions are void, old observations are not.
    pub task_revision: u32,
}

/// How a sub-task ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Done, acceptance met.
    Done,
    /// Partly done: see `unresolved`.
    Partial,
    /// Could not be done.
    Failed,
}

/// One observation backing a conclusion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    /// The field the evidence is about.
    pub field: String,
    /// The observed value.
    pub value: serde_json::Value,
    /// Where it was observed.
    pub source_ref: String,
    /// When, RFC 3339.
    pub observed_at: String,
}

/// "Unknown" is not "none": a value that was looked for and not found is `Unknown`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Finding {
    /// Found, with a value.
    Known(String),
    /// Looked for; confirmed absent.
    None,
    /// Not determined.
    Unknown,
}

/// The result a sub-agent hands back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "task-result", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct TaskResult {
    /// How it ended.
    pub status: Outcome,
    /// The conclusion.
    pub conclusion: Finding,
    /// The observations behind it.
    pub evidence: Vec<Evidence>,
    /// What is still open.
    #[serde(default)]
    pub unresolved: Vec<String>,
    /// Known limits of the result.
    #[serde(default)]
    pub limitations: Vec<String>,
    /// The revision of the task this answers.
    pub task_revision: u32,
}
