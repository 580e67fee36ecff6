//! The session view as JSON, for scripts: its keys are a promise.

use std::collections::BTreeMap;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{SessionStep, SessionView};
use crate::inbox::StepProblem;
use crate::task::Spent;

/// The keys of each step in [`json`]'s `steps`, in the order it writes them: every step has
/// all of them (what it does not name is `null`), and no other. Scripts may rely on them.
///
/// ```
/// use contract_core::session::STEP_KEYS;
///
/// assert_eq!(STEP_KEYS[0], "from");
/// assert!(STEP_KEYS.contains(&"receivedFields"));
/// ```
pub const STEP_KEYS: [&str; 16] = [
    "from",
    "to",
    "contract",
    "contextId",
    "handoffId",
    "attempt",
    "retryOf",
    "relation",
    "outcome",
    "receivedFields",
    "missingFields",
    "causes",
    "problems",
    "spent",
    "ledger",
    "count",
];

/// The view as JSON (pretty-printed, with a final newline):
///
/// ```text
/// {"session", "workflow",
///  "steps": [{"from", "to", "contract", "contextId", "handoffId", "attempt", "retryOf",
///             "relation", "outcome", "receivedFields", "missingFields",
///             "causes": {FIELD: CAUSE}, "problems": [{"pointer", "kind"}],
///             "spent": {"modelCalls", "toolCalls", "tokens", "callsRefused", "actionsRefused"},
///             "ledger", "count"}],
///  "diagnostics": [STRING]}
/// ```
///
/// in the journey's order. `relation` is `first`, `explicit` or `related`; `outcome` is
/// `applied`, `duplicate`, `conflict`, `refused`, `not-ready`, `artifact-unavailable`,
/// `artifact-regressed` or `handler-failed`; `count` is how often the ledger saw that outcome
/// of that attempt; `spent` is what the sender's task spent before the handoff, as its
/// envelope said; what a step does not name is `null`. [`SessionView`]'s `Serialize`
/// writes the same.
#[must_use]
pub fn json(view: &SessionView) -> String {
    // Nothing in the view can fail to serialize: every map has string keys.
    let mut text = serde_json::to_string_pretty(view).unwrap_or_default();
    text.push('\n');
    text
}

impl Serialize for SessionView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_struct("SessionView", 4)?;
        map.serialize_field("session", &self.session)?;
        map.serialize_field("workflow", &self.workflow)?;
        map.serialize_field("steps", &self.steps)?;
        map.serialize_field("diagnostics", &self.diagnostics)?;
        map.end()
    }
}

impl Serialize for SessionStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let step = &self.step;
        JsonStep {
            from: step.from.as_deref(),
            to: step.to.as_deref(),
            contract: &step.contract,
            context_id: step.context_id.as_deref(),
            handoff_id: step.handoff_id.as_deref(),
            attempt: step.attempt,
            retry_of: step.retry_of.as_deref(),
            relation: self.relation.as_str(),
            outcome: step.outcome.as_str(),
            received_fields: &step.received_fields,
            missing_fields: &step.missing_fields,
            causes: &step.causes,
            problems: &step.problems,
            spent: step.spent.as_ref(),
            ledger: &self.ledger,
            count: step.count,
        }
        .serialize(serializer)
    }
}

/// One step as the JSON form writes it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonStep<'a> {
    from: Option<&'a str>,
    to: Option<&'a str>,
    contract: &'a str,
    context_id: Option<&'a str>,
    handoff_id: Option<&'a str>,
    attempt: Option<u32>,
    retry_of: Option<&'a str>,
    relation: &'static str,
    outcome: &'static str,
    received_fields: &'a [String],
    missing_fields: &'a [String],
    causes: &'a BTreeMap<String, String>,
    problems: &'a [StepProblem],
    spent: Option<&'a Spent>,
    ledger: &'a str,
    count: u64,
}
