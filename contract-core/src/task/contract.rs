//! The sub-task a supervisor hands out (`subtask/v1`) and the result that comes back
//! (`subtask-result/v1`), with camelCase keys.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::budget::Budget;
use super::lookup::Lookup;

/// A sub-task: what to find out, from what, within which limits, and how the result is judged.
/// Contract `subtask/v1`.
///
/// `goal` says what is wanted, `scope` what may be looked at and done, `acceptance` how the
/// supervisor checks the delivery (`task::judge` checks the part a program can:
/// `scope.requiredFields` against the result's evidence). A changed task (the user lowered
/// the budget) gets a higher `taskRevision`: results of older revisions keep their
/// observations, not their conclusions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, crate::HandoffContract)]
#[handoff(crate = "crate", name = "subtask", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Subtask {
    /// The task, named by the supervisor (`verify-c`); its result carries the same id.
    pub task_id: String,
    /// The task's revision, from 1: raised whenever the task changes.
    pub task_revision: u32,
    /// Who carries it out (`product_researcher`).
    pub assignee: String,
    /// The result wanted, in words.
    pub goal: String,
    /// What the assignee works from (the product, the variant, the user's limits), by name.
    pub input: BTreeMap<String, Value>,
    /// The supervisor's working assumptions: provisional readings nobody confirmed, which
    /// the assignee must not turn into the user's requirements (kept apart from `input`, marked
    /// as assumptions).
    #[serde(default)]
    #[handoff(assumption)]
    pub working_assumptions: Vec<String>,
    /// What the result must cover and what the assignee must not do.
    pub scope: Scope,
    /// How the delivery is checked, in words.
    pub acceptance: Vec<String>,
    /// What the assignee may spend, enforced where the calls are made (`BudgetMeter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// What is delivered, in words.
    pub deliverable: String,
}

/// The scope of a sub-task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(rename_all = "camelCase")]
pub struct Scope {
    /// The fields the result must settle, each by evidence (`field` names it) or by saying it
    /// was not found.
    pub required_fields: Vec<String>,
    /// Actions the assignee must not take (`buy`).
    #[serde(default)]
    pub excluded_actions: Vec<String>,
}

/// A sub-task's result: the assignee's claim (`status`, `conclusion`), the evidence behind it,
/// and what is still open. Contract `subtask-result/v1`.
///
/// `completed` is a claim, not a verdict: `task::judge` checks it against the task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, crate::HandoffContract)]
#[handoff(crate = "crate", name = "subtask-result", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct SubtaskResult {
    /// The task answered.
    pub task_id: String,
    /// The revision of the task answered.
    pub task_revision: u32,
    /// What the assignee claims.
    pub status: ResultStatus,
    /// The conclusion, in words, with the conditions it holds under.
    pub conclusion: String,
    /// The observations behind the conclusion, one per field and source.
    pub evidence: Vec<Evidence>,
    /// References to what the work produced (`results/verify-c.json`). Handed on in an
    /// envelope, a file goes as an artifact with its version and content hash.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Required fields the assignee could not settle; none may be open in a `completed` result.
    #[serde(default)]
    pub unresolved: Vec<String>,
    /// What the result does not cover (a workload not verified).
    #[serde(default)]
    pub limitations: Vec<String>,
}

/// What an assignee claims of its work.
///
/// No catch-all: a reader that took an unknown status for one it knows could take it for
/// `completed`; a new status is a new major version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(rename_all = "snake_case")]
pub enum ResultStatus {
    /// The agreed work is done, in the assignee's view.
    Completed,
    /// Part of it is done: `unresolved` or the evidence says what is not.
    Partial,
    /// Nothing usable came of it.
    Failed,
}

/// One observation: a field's value as looked up in one source, or the lookup that found
/// nothing there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    /// The observation's id, unique in the result (`c-price-01`).
    pub evidence_id: String,
    /// The field observed, as the task's `scope.requiredFields` names it.
    pub field: String,
    /// What the lookup gave: confirmed, assumed, or not found; never `null`.
    pub value: Lookup<Value>,
    /// The source read (or searched), as a reference the application maps to a URL, file or
    /// record and lets the receiver read: one nobody can resolve lets nobody check the value.
    pub source_ref: String,
    /// Where in the source (`16GB / 512GB offer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// When it was observed, RFC 3339 with offset.
    pub observed_at: String,
}
