//! [`send_handoff`](crate::send_handoff)'s work: the payload checked by `send` (or
//! `send_to`), the envelope's `contract` and `senderPresence` filled, the envelope written
//! around the payload's bytes.

use core::mem;

use crate::runtime::presence::Presence;
use crate::runtime::problem::{Problem, ProblemKind, Rejection};
use crate::runtime::Sent;

use super::delivery::{in_payload, HandoffRejection};
use super::handoff::{Handoff, Head, Skipped};

/// Checks the payload of `handoff` with `send` (which checks it against `contract`'s view),
/// fills `contract` and `senderPresence`, and writes the envelope.
pub(crate) fn send<T>(
    handoff: &mut Handoff<T>,
    contract: &'static str,
    send: impl FnOnce(&T) -> Result<Sent, Rejection>,
) -> Result<Sent, HandoffRejection> {
    contract.clone_into(&mut handoff.contract);
    let sent = match send(&handoff.payload) {
        Ok(sent) => sent,
        Err(rejection) => {
            let (problems, presence) = rejection.into_parts();
            let problems = problems.into_iter().map(|p| in_payload(p, 0)).collect();
            return Err(HandoffRejection::sent(contract, problems, presence));
        }
    };
    let presence = sent.presence().clone();
    handoff.sender_presence = Some(presence.clone());
    match around(handoff, sent.bytes()) {
        Some(bytes) => Ok(Sent::new(bytes, presence)),
        None => Err(HandoffRejection::sent(
            contract,
            vec![Problem {
                pointer: String::new(),
                kind: ProblemKind::SerializeFailed,
            }],
            presence,
        )),
    }
}

/// Checks the payload of `handoff` with `send` as [`send`] does and fills `contract` and
/// `senderPresence`, writing no envelope: for one that is written by other means.
pub(crate) fn fill<'h, T>(
    handoff: &'h mut Handoff<T>,
    contract: &'static str,
    send: impl FnOnce(&T) -> Result<Sent, Rejection>,
) -> Result<&'h Presence, HandoffRejection> {
    contract.clone_into(&mut handoff.contract);
    match send(&handoff.payload) {
        Ok(sent) => Ok(handoff.sender_presence.insert(sent.presence().clone())),
        Err(rejection) => {
            let (problems, presence) = rejection.into_parts();
            let problems = problems.into_iter().map(|p| in_payload(p, 0)).collect();
            Err(HandoffRejection::sent(contract, problems, presence))
        }
    }
}

/// The envelope's bytes around the payload's `payload`: its own fields written by their
/// `Serialize` (moved out of `handoff` for it, and back), the payload's place, written last
/// as `null`, taken by `payload`. What `serde_json::to_vec(handoff)` writes, without
/// serializing the payload a second time.
fn around<T>(handoff: &mut Handoff<T>, payload: &[u8]) -> Option<Vec<u8>> {
    let head = Head {
        schema_version: mem::take(&mut handoff.schema_version),
        contract: mem::take(&mut handoff.contract),
        context_id: mem::take(&mut handoff.context_id),
        task_id: handoff.task_id.take(),
        handoff_id: mem::take(&mut handoff.handoff_id),
        goal: mem::take(&mut handoff.goal),
        constraints: mem::take(&mut handoff.constraints),
        decisions: mem::take(&mut handoff.decisions),
        open_questions: mem::take(&mut handoff.open_questions),
        assumptions: mem::take(&mut handoff.assumptions),
        artifacts: mem::take(&mut handoff.artifacts),
        budget: handoff.budget.take(),
        spent: handoff.spent.take(),
        owner: mem::take(&mut handoff.owner),
        status: handoff.status,
        journey: mem::take(&mut handoff.journey),
        sender_presence: handoff.sender_presence.take(),
        payload: Skipped,
    };
    let mut out = Vec::with_capacity(payload.len() + 512);
    let written = serde_json::to_writer(&mut out, &head);
    handoff.schema_version = head.schema_version;
    handoff.contract = head.contract;
    handoff.context_id = head.context_id;
    handoff.task_id = head.task_id;
    handoff.handoff_id = head.handoff_id;
    handoff.goal = head.goal;
    handoff.constraints = head.constraints;
    handoff.decisions = head.decisions;
    handoff.open_questions = head.open_questions;
    handoff.assumptions = head.assumptions;
    handoff.artifacts = head.artifacts;
    handoff.budget = head.budget;
    handoff.spent = head.spent;
    handoff.owner = head.owner;
    handoff.journey = head.journey;
    handoff.sender_presence = head.sender_presence;
    written.ok()?;
    // `payload` is the last field, always written: the text ends with its place.
    let place = br#""payload":null}"#;
    if !out.ends_with(place) {
        return None;
    }
    out.truncate(out.len() - b"null}".len());
    out.extend_from_slice(payload);
    out.push(b'}');
    Some(out)
}
