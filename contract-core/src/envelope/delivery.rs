//! What an envelope's call returns: a [`Delivery`] received, or a [`HandoffRejection`] with
//! every problem located from the envelope's root.

use core::fmt;

use serde::Serialize;

use crate::runtime::presence::{Presence, Side};
use crate::runtime::problem::{Problem, ProblemKind};
use crate::traits::HandoffContract;

use super::handoff::{Handoff, ENVELOPE};

/// An envelope [`receive_handoff`](crate::receive_handoff) accepted: the whole envelope, its
/// payload read as `T`, and the presence of the payload's fields, payload-relative (the
/// paths a [`why_missing::<T>`](crate::why_missing) reads).
#[derive(Debug, Clone)]
pub struct Delivery<T> {
    pub(super) envelope: Handoff<T>,
    pub(super) presence: Presence,
    pub(super) envelope_presence: Presence,
}

impl<T> Delivery<T> {
    /// The whole envelope, its payload read.
    #[must_use]
    pub fn envelope(&self) -> &Handoff<T> {
        &self.envelope
    }

    /// The payload.
    #[must_use]
    pub fn payload(&self) -> &T {
        &self.envelope.payload
    }

    /// Which fields of the payload arrived, with paths relative to the payload (`orderRef`,
    /// not `payload.orderRef`) and the payload's contract: what
    /// [`why_missing::<T>`](crate::why_missing) reads.
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// Which fields of the envelope's own contract (`handoff-envelope/v1`) arrived, the
    /// payload as one field.
    #[must_use]
    pub fn envelope_presence(&self) -> &Presence {
        &self.envelope_presence
    }

    /// The envelope, owned.
    #[must_use]
    pub fn into_envelope(self) -> Handoff<T> {
        self.envelope
    }
}

/// An envelope refused by [`receive_handoff`](crate::receive_handoff) or
/// [`send_handoff`](crate::send_handoff): every problem found, each located by a JSON pointer
/// from the envelope's root (`/contextId`, `/payload/orderRef`), and the presence records of
/// what was read.
///
/// Like a [`Rejection`](crate::Rejection), neither its `Display`, its `Debug` nor its JSON
/// (`Serialize`) holds a value of the envelope or the payload: the contract ids it names are
/// the contracts' own, and one that arrived is named only when it reads as a contract id.
#[derive(Debug, Clone, Serialize)]
pub struct HandoffRejection {
    pub(super) side: Side,
    /// The payload's contract, as the caller's type names it.
    payload_contract: &'static str,
    pub(super) problems: Vec<Problem>,
    /// The envelope's top level, when it was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    envelope_presence: Option<Box<Presence>>,
    /// The payload's, payload-relative, when it was read or written.
    #[serde(skip_serializing_if = "Option::is_none")]
    presence: Option<Box<Presence>>,
}

impl HandoffRejection {
    /// Every problem found: the envelope's, then the payload's, each with a pointer from the
    /// envelope's root.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The side that refused it.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The contract the payload was to be checked against (`T`'s, or `C`'s for
    /// [`send_handoff_to`](crate::send_handoff_to)).
    #[must_use]
    pub fn payload_contract(&self) -> &str {
        self.payload_contract
    }

    /// Which fields of the payload arrived (or were written), payload-relative, when the
    /// payload was read: `None` when the envelope was refused before it (another contract,
    /// an unreadable version, an envelope that is not one).
    #[must_use]
    pub fn presence(&self) -> Option<&Presence> {
        self.presence.as_deref()
    }

    /// Which fields of the envelope's own contract arrived, when its top level was read.
    #[must_use]
    pub fn envelope_presence(&self) -> Option<&Presence> {
        self.envelope_presence.as_deref()
    }
}

impl fmt::Display for HandoffRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(
            f,
            "{} of {ENVELOPE} carrying {} refused: {n} problem{}",
            self.side.as_str(),
            self.payload_contract,
            if n == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HandoffRejection {}

impl HandoffRejection {
    pub(super) fn received<T: HandoffContract>(
        problems: Vec<Problem>,
        envelope_presence: Option<Presence>,
        presence: Option<Presence>,
    ) -> Self {
        HandoffRejection {
            side: Side::Receive,
            payload_contract: T::CONTRACT.id,
            problems,
            envelope_presence: envelope_presence.map(Box::new),
            presence: presence.map(Box::new),
        }
    }

    pub(super) fn sent(
        payload_contract: &'static str,
        problems: Vec<Problem>,
        presence: Presence,
    ) -> Self {
        HandoffRejection {
            side: Side::Send,
            payload_contract,
            problems,
            envelope_presence: None,
            presence: Some(Box::new(presence)),
        }
    }
}

/// A problem of the payload, located from the envelope's root: its pointer under
/// `/payload`, its offset from the envelope's first byte (`start`: the payload's).
pub(super) fn in_payload(problem: Problem, start: usize) -> Problem {
    under("/payload", problem, start)
}

/// A problem of a member's value, located from the envelope's root: its pointer under
/// `member` (`/payload`), its offset from the envelope's first byte (`start`: the value's).
pub(crate) fn under(member: &str, mut problem: Problem, start: usize) -> Problem {
    problem.pointer.insert_str(0, member);
    shift(&mut problem.kind, |offset| start + offset);
    problem
}

/// Applies `f` to the byte offset a problem names, if it names one.
pub(super) fn shift(kind: &mut ProblemKind, f: impl Fn(usize) -> usize) {
    if let Some(offset) = kind.offset_mut() {
        *offset = f(*offset);
    }
}
