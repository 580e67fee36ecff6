//! The [`Step`] an acceptance leaves in its ledger's journey: built from what the inbox read
//! (the envelope and its payload's presence when it was read; otherwise what a lenient read of
//! the envelope's top level finds), never from a value of the payload.

use std::collections::BTreeMap;
use std::time::SystemTime;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

use crate::envelope::Delivery;
use crate::inbox::journal::{Outcome, Step, StepProblem};
use crate::inbox::outcome::AcceptError;
use crate::runtime::options::Journey;
use crate::runtime::presence::{FieldPath, Presence};
use crate::runtime::problem::Problem;
use crate::runtime::{why_missing, Cause};
use crate::task::Spent;
use crate::traits::HandoffContract;

/// What a step says of its handoff: its key and journey.
#[derive(Debug, Default, Clone)]
pub(crate) struct Head {
    pub context_id: Option<String>,
    pub handoff_id: Option<String>,
    pub contract: Option<String>,
    pub journey: Journey,
    /// What the sender's task spent, as the envelope says.
    pub spent: Option<Spent>,
}

impl Head {
    /// The head of an envelope that was read.
    pub(crate) fn of<T>(delivery: &Delivery<T>) -> Head {
        let envelope = delivery.envelope();
        Head {
            context_id: Some(envelope.context_id.clone()),
            handoff_id: Some(envelope.handoff_id.to_string()),
            contract: Some(envelope.contract.clone()),
            journey: envelope.journey.clone(),
            spent: envelope.spent,
        }
    }

    /// What a lenient read of an envelope's top level finds (each member a string, or an
    /// integer for `attempt`, else left out), and the sender's presence record when it reads
    /// as one; nothing of an envelope that is not one JSON object. The payload is skipped,
    /// not read. An envelope larger than `max_bytes` (the inbox's limit) is not read at all.
    pub(crate) fn lenient(bytes: &[u8], max_bytes: usize) -> (Head, Option<Presence>) {
        if bytes.len() > max_bytes {
            return (Head::default(), None);
        }
        let Ok(top) = serde_json::from_slice::<LenientTop>(bytes) else {
            return (Head::default(), None);
        };
        let journey = top.journey.unwrap_or_default();
        let head = Head {
            context_id: top.context_id.0,
            handoff_id: top.handoff_id.0,
            contract: top.contract.0,
            journey: Journey {
                session_id: journey.session_id.0,
                workflow_name: journey.workflow_name.0,
                handoff_from: journey.handoff_from.0,
                handoff_to: journey.handoff_to.0,
                attempt: journey.attempt.0,
                retry_of: journey.retry_of.0,
            },
            spent: top.spent.0,
        };
        (head, top.sender_presence.0)
    }
}

/// A member read if it is of its type, else taken as absent.
#[derive(Debug, Default)]
struct Loose<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Any value reads; one not of the type is dropped (its text never kept).
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(Loose(T::deserialize(value).ok()))
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct LenientTop {
    context_id: Loose<String>,
    handoff_id: Loose<String>,
    contract: Loose<String>,
    journey: Option<LenientJourney>,
    spent: Loose<Spent>,
    sender_presence: Loose<Presence>,
    /// Skipped without being read into a value.
    #[allow(dead_code)]
    payload: Option<IgnoredAny>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct LenientJourney {
    session_id: Loose<String>,
    workflow_name: Loose<String>,
    handoff_from: Loose<String>,
    handoff_to: Loose<String>,
    attempt: Loose<u32>,
    retry_of: Loose<String>,
}

/// The step of `outcome` for the handoff `head` names, of contract `T` (the envelope's
/// contract id where it named one), with the payload's presence and the sender's when they
/// were read, and a refusal's problems.
pub(crate) fn step<T: HandoffContract + 'static>(
    outcome: Outcome,
    reason: Option<&'static str>,
    head: Head,
    presence: Option<&Presence>,
    sender: Option<&Presence>,
    problems: &[Problem],
    now: SystemTime,
) -> Step {
    let names = |paths: &[FieldPath]| paths.iter().map(|p| p.as_str().to_owned()).collect();
    let mut causes = BTreeMap::new();
    if let Some(presence) = presence.filter(|p| !p.missing().is_empty()) {
        let mut diagnosis = why_missing::<T>(presence);
        if let Some(sender) = sender {
            diagnosis = diagnosis.sender(sender);
        }
        for field in diagnosis.explain().fields() {
            if let Some(cause) = field.causes.first() {
                causes.insert(field.path.clone(), cause_name(cause).to_owned());
            }
        }
    }
    Step {
        seq: 0,
        session: head.journey.session_id.or_else(|| head.context_id.clone()),
        workflow: head.journey.workflow_name,
        from: head.journey.handoff_from,
        to: head.journey.handoff_to,
        attempt: head.journey.attempt,
        retry_of: head.journey.retry_of,
        contract: head.contract.unwrap_or_else(|| T::CONTRACT.id.to_owned()),
        context_id: head.context_id,
        handoff_id: head.handoff_id,
        outcome,
        reason: reason.map(str::to_owned),
        received_fields: presence.map_or_else(Vec::new, |p| names(p.received())),
        missing_fields: presence.map_or_else(Vec::new, |p| names(p.missing())),
        sender_fields: sender.map(|p| names(p.received())),
        causes,
        problems: problems
            .iter()
            .map(|p| StepProblem {
                pointer: p.pointer.clone(),
                kind: kind_tag(p),
            })
            .collect(),
        spent: head.spent,
        count: 1,
        first_seen: now,
        last_seen: now,
    }
}

/// A problem's kind as its JSON tag (`missing_field`): the one member of its JSON that is
/// always there (the kind holds no value).
fn kind_tag(problem: &Problem) -> String {
    serde_json::to_value(&problem.kind)
        .ok()
        .and_then(|v| v.get("kind")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The session view's name of a cause.
fn cause_name(cause: &Cause) -> &'static str {
    match cause {
        Cause::NotEmitted { .. } => "not-emitted",
        Cause::DroppedOnTheWay { .. } => "dropped-on-the-way",
        Cause::RenamedByMapper { .. } => "renamed-by-mapper",
        Cause::AnotherVersion { .. } => "another-version",
    }
}

/// The outcome a refusal is recorded as; `None` for a failure of the store, which has no
/// step (the store is what failed).
pub(crate) fn outcome_of<E>(error: &AcceptError<E>) -> Option<Outcome> {
    Some(match error {
        AcceptError::Rejected(_) | AcceptError::Digest(_) => Outcome::Refused,
        AcceptError::Conflict { .. } => Outcome::Conflict,
        AcceptError::NotReady => Outcome::NotReady,
        AcceptError::ArtifactUnavailable { .. } | AcceptError::ArtifactChanged { .. } => {
            Outcome::ArtifactUnavailable
        }
        AcceptError::ArtifactRegressed { .. } => Outcome::ArtifactRegressed,
        AcceptError::Handler(_) => Outcome::HandlerFailed,
        AcceptError::Store(_) => return None,
    })
}
