//! The envelope a handoff travels in (seed `000_…`): [`Handoff<T>`], `handoff-envelope/v1`,
//! around a payload checked by its own contract; [`Delivery`], an envelope received; and
//! [`HandoffRejection`], an envelope refused, every problem located by a JSON pointer from
//! the envelope's root (`/contextId`, `/payload/orderRef`).

mod digest;
mod handoff;
mod ids;
mod read;
mod top;
mod write;

use core::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::runtime::options::{Limits, ReceiveOptions};
use crate::runtime::presence::{Presence, Side};
use crate::runtime::problem::Problem;
use crate::runtime::{schema_for, send_payload, send_payload_to, Sent};
use crate::traits::HandoffContract;

pub use digest::{Digest, ParseDigestError};
pub use handoff::{ArtifactRef, Handoff, Status, ENVELOPE};

/// An envelope [`receive_handoff`](crate::receive_handoff) accepted: the whole envelope, its
/// payload read as `T`, and the presence of the payload's fields, payload-relative (the
/// paths a [`why_missing::<T>`](crate::why_missing) reads).
#[derive(Debug, Clone)]
pub struct Delivery<T> {
    envelope: Handoff<T>,
    presence: Presence,
    envelope_presence: Presence,
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
    side: Side,
    /// The payload's contract, as the caller's type names it.
    payload_contract: &'static str,
    problems: Vec<Problem>,
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

/// Checks the payload of `handoff` with [`send`](crate::send) against its own contract `T`,
/// fills the envelope's `contract` (`T`'s id) and `senderPresence` (what was written of the
/// payload), and writes the envelope: the bytes `serde_json::to_vec(handoff)` writes then,
/// the payload serialized once.
///
/// ```
/// use contract_core::{receive_handoff, send_handoff, Handoff, HandoffContract, ReceiveOptions};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     order_ref: String,
/// }
///
/// let mut handoff = Handoff::new("ctx-1", "h-1", "triage", RefundRequest { order_ref: "A-1".into() })
///     .goal("refund a damaged order")
///     .ready();
/// let sent = send_handoff(&mut handoff)?;
/// assert_eq!(handoff.contract, "refund-request/v1");
///
/// let delivery = receive_handoff::<RefundRequest>(sent.bytes(), &ReceiveOptions::default())?;
/// assert_eq!(delivery.payload().order_ref, "A-1");
/// assert_eq!(delivery.presence().received(), ["orderRef"]);
/// assert_eq!(delivery.envelope(), &handoff);
/// # Ok::<(), contract_core::HandoffRejection>(())
/// ```
///
/// # Errors
/// A [`HandoffRejection`] with the payload's problems, each pointer under `/payload`
/// (`senderPresence` is then left as it was; `contract` is filled).
pub fn send_handoff<T>(handoff: &mut Handoff<T>) -> Result<Sent, HandoffRejection>
where
    T: Serialize + HandoffContract + 'static,
{
    let schema = schema_for::<T>();
    let span = crate::trace::start_envelope(Side::Send, ENVELOPE, schema, &handoff.journey);
    let _entered = crate::trace::enter(&span);
    crate::trace::envelope_read(
        &span,
        &handoff.context_id,
        &handoff.handoff_id,
        &handoff.journey,
        &handoff.journey,
    );
    let result = write::send(handoff, T::CONTRACT.id, |payload| {
        send_payload(payload, &Limits::DEFAULT)
    });
    finish(&span, &result);
    result
}

/// [`send_handoff`] for a payload checked against the **receiver** view of the consumer's
/// contract `C`, as [`send_to`](crate::send_to) checks it: the envelope's `contract` is
/// `C`'s id, and the producer learns before sending what the consumer will refuse.
///
/// ```
/// use contract_core::{send_handoff_to, Handoff, HandoffContract, ProblemKind};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct Triage {
///     category: String,
///     #[serde(skip_serializing_if = "Option::is_none")]
///     order_ref: Option<String>,
/// }
///
/// #[derive(Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct Specialist {
///     category: String,
///     order_ref: String,
/// }
///
/// let triage = Triage { category: "damaged".into(), order_ref: None };
/// let mut handoff = Handoff::new("ctx-1", "h-1", "triage", triage).ready();
/// let err = send_handoff_to::<Specialist, _>(&mut handoff).unwrap_err();
/// assert_eq!(err.problems()[0].pointer, "/payload/orderRef");
/// assert_eq!(
///     err.problems()[0].kind,
///     ProblemKind::MissingField { field: "orderRef".into() }
/// );
/// ```
///
/// # Errors
/// A [`HandoffRejection`] with the problems the consumer would find in the payload, each
/// pointer under `/payload`.
pub fn send_handoff_to<C, T>(handoff: &mut Handoff<T>) -> Result<Sent, HandoffRejection>
where
    C: HandoffContract + ?Sized + 'static,
    T: Serialize,
{
    let schema = schema_for::<C>();
    let span = crate::trace::start_envelope(Side::Send, ENVELOPE, schema, &handoff.journey);
    let _entered = crate::trace::enter(&span);
    crate::trace::envelope_read(
        &span,
        &handoff.context_id,
        &handoff.handoff_id,
        &handoff.journey,
        &handoff.journey,
    );
    let result = write::send(handoff, C::CONTRACT.id, |payload| {
        send_payload_to::<C, T>(payload, &Limits::DEFAULT)
    });
    finish(&span, &result);
    result
}

/// Reads an envelope `handoff-envelope/v1` of a `T` payload, checking, in this order:
///
/// 1. its top level, in one pass that finds each member's value as a byte span (any key
///    order; a key twice refused);
/// 2. `schemaVersion` and `contract`, **before the payload**: another contract's name is
///    refused ([`ProblemKind::OtherContract`](crate::ProblemKind::OtherContract)); another
///    major of `T`'s contract is read only when `T` embeds a published snapshot of it
///    ([`HandoffContract::PUBLISHED`]) that, as a writer, `T` reads
///    ([`compat::check`](crate::compat::check)), else refused naming both
///    ([`ProblemKind::OtherVersion`](crate::ProblemKind::OtherVersion)); an id that is not
///    `name/vN` is not repeated
///    ([`ProblemKind::UnreadableVersion`](crate::ProblemKind::UnreadableVersion));
/// 3. the envelope's own fields, as [`receive`](crate::receive) checks a payload;
/// 4. the payload, from its span, as [`receive::<T>`](crate::receive) checks one, its depth
///    limit one below the envelope's.
///
/// Every problem is located from the envelope's root (`/contextId`, `/payload/orderRef`);
/// the payload's presence is payload-relative, as [`why_missing::<T>`](crate::why_missing)
/// reads it. It accepts what `serde_json::from_slice::<Handoff<T>>` accepts, but for
/// `receive`'s stricter points, the ids of step 2, and a payload that is absent, which is
/// refused whatever `T` (serde reads an absent `Option` payload as `None`). `options` gives
/// the limits (for the whole envelope) and a journey for the trace.
///
/// ```
/// use contract_core::{receive_handoff, HandoffContract, ProblemKind, ReceiveOptions};
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     order_ref: String,
/// }
///
/// let other = br#"{"payload": {"orderRef": "A-1"}, "contract": "invoice/v1",
///     "schemaVersion": "handoff-envelope/v1", "contextId": "ctx-1", "handoffId": "h-1",
///     "goal": "", "owner": "triage", "status": "ready"}"#;
/// let err = receive_handoff::<RefundRequest>(other, &ReceiveOptions::default()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "receive of handoff-envelope/v1 carrying refund-request/v1 refused: 1 problem
///   /contract: another contract: expected refund-request/v1, found invoice/v1; the payload was not read"
/// );
/// assert!(err.presence().is_none());
/// ```
///
/// # Errors
/// A [`HandoffRejection`] listing every problem found, with the presence records of what was
/// read.
pub fn receive_handoff<T>(
    bytes: &[u8],
    options: &ReceiveOptions,
) -> Result<Delivery<T>, HandoffRejection>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    let schema = schema_for::<T>();
    let span = crate::trace::start_envelope(Side::Receive, ENVELOPE, schema, &options.journey);
    let _entered = crate::trace::enter(&span);
    let result = read::receive::<T>(bytes, &options.limits, &span, &options.journey);
    match &result {
        Ok(delivery) => crate::trace::finish_envelope(&span, Some(&delivery.presence), None),
        Err(rejection) => crate::trace::finish_envelope(
            &span,
            rejection.presence(),
            Some((Side::Receive, &rejection.problems)),
        ),
    }
    result
}

/// Records a send's outcome on its span.
fn finish(span: &crate::trace::CallSpan, result: &Result<Sent, HandoffRejection>) {
    match result {
        Ok(sent) => crate::trace::finish_envelope(span, Some(sent.presence()), None),
        Err(rejection) => crate::trace::finish_envelope(
            span,
            rejection.presence(),
            Some((Side::Send, &rejection.problems)),
        ),
    }
}
