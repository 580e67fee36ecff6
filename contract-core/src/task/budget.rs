//! The budget of a handoff or a sub-task: the limits a sender grants, carried in
//! the envelope and in the sub-task, and enforced where the calls are made.

use serde::{Deserialize, Serialize};

/// What a handoff or a sub-task may spend. Every limit is optional: an absent one does not
/// limit. One type for the envelope (`Handoff::budget`) and the sub-task (`Subtask::budget`),
/// so a budget handed on is the same budget.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, crate::HandoffSchema,
)]
#[handoff(crate = "crate")]
#[serde(rename_all = "camelCase")]
pub struct Budget {
    /// The most model calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_model_calls: Option<u32>,
    /// The most tool calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tool_calls: Option<u32>,
    /// The most tokens, prompt and completion together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Seconds from the start of the work after which no new call may begin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
}
