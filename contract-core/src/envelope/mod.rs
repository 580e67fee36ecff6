//! The envelope a handoff travels in: [`Handoff<T>`], `handoff-envelope/v1`,
//! around a payload checked by its own contract; [`Delivery`], an envelope received; and
//! [`HandoffRejection`], an envelope refused, every problem located by a JSON pointer from
//! the envelope's root (`/contextId`, `/payload/orderRef`).

pub(crate) mod delivery;
mod digest;
mod handoff;
pub(crate) mod ids;
pub(crate) mod read;
pub(crate) mod top;
mod write;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::runtime::options::{Limits, ReceiveOptions};
use crate::runtime::presence::{Presence, Side};
use crate::runtime::{schema_for, send_payload, send_payload_to, Sent};
use crate::traits::HandoffContract;

pub use delivery::{Delivery, HandoffRejection};
pub(crate) use digest::noted_digest;
pub use digest::{Digest, DigestError, DigestErrorReason, ParseDigestError, MAX_DIGEST_DEPTH};
pub use handoff::{ArtifactRef, Handoff, Status, ENVELOPE, HANDOFF_SCHEMA_VERSION};

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

/// Checks the payload of `handoff` against its own contract `T` and fills the envelope's
/// `contract` (`T`'s id) and `senderPresence` (what is written of the payload), as
/// [`send_handoff`] does, without writing the envelope: for an envelope that another layer
/// serializes (a queue client, a framework taking any `Serialize`), so that its receiver
/// still learns what the sender wrote. Returns the presence record it filled in.
///
/// The payload's presence alone, with no envelope, is [`send`](crate::send)'s
/// ([`Sent::presence`]).
///
/// ```
/// use contract_core::{fill_sender_presence, receive_handoff, Handoff, HandoffContract, ReceiveOptions};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     order_ref: String,
///     #[serde(skip_serializing_if = "Option::is_none")]
///     note: Option<String>,
/// }
///
/// let payload = RefundRequest { order_ref: "A-1".into(), note: None };
/// let mut handoff = Handoff::new("ctx-1", "h-1", "specialist", payload).ready();
/// let presence = fill_sender_presence(&mut handoff)?;
/// assert_eq!(presence.received(), ["orderRef"]);
/// assert_eq!(handoff.contract, "refund-request/v1");
///
/// // Written by other means: the receiver reads what the sender wrote.
/// let bytes = serde_json::to_vec(&handoff).expect("an envelope serializes");
/// let delivery = receive_handoff::<RefundRequest>(&bytes, &ReceiveOptions::default())?;
/// let sender = delivery.envelope().sender_presence.as_ref().expect("filled");
/// assert_eq!(sender.received(), ["orderRef"]);
/// # Ok::<(), contract_core::HandoffRejection>(())
/// ```
///
/// # Errors
/// A [`HandoffRejection`] with the payload's problems, each pointer under `/payload`, as
/// [`send_handoff`] finds them (`senderPresence` is then left as it was; `contract` is
/// filled).
pub fn fill_sender_presence<T>(handoff: &mut Handoff<T>) -> Result<&Presence, HandoffRejection>
where
    T: Serialize + HandoffContract + 'static,
{
    write::fill(handoff, T::CONTRACT.id, |payload| {
        send_payload(payload, &Limits::DEFAULT)
    })
}

/// [`fill_sender_presence`] for a payload checked against the **receiver** view of the
/// consumer's contract `C`, as [`send_handoff_to`] checks it: `contract` is `C`'s id.
///
/// ```
/// use contract_core::{fill_sender_presence_to, Handoff, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct Triage {
///     #[serde(skip_serializing_if = "Option::is_none")]
///     order_ref: Option<String>,
/// }
///
/// #[derive(Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct Specialist {
///     order_ref: String,
/// }
///
/// let mut handoff = Handoff::new("ctx-1", "h-1", "specialist", Triage { order_ref: None });
/// let err = fill_sender_presence_to::<Specialist, _>(&mut handoff).unwrap_err();
/// assert_eq!(err.problems()[0].pointer, "/payload/orderRef");
/// assert!(handoff.sender_presence.is_none());
///
/// handoff.payload.order_ref = Some("A-1".into());
/// let presence = fill_sender_presence_to::<Specialist, _>(&mut handoff)?;
/// assert_eq!(presence.received(), ["orderRef"]);
/// # Ok::<(), contract_core::HandoffRejection>(())
/// ```
///
/// # Errors
/// A [`HandoffRejection`] with the problems the consumer would find in the payload, each
/// pointer under `/payload`.
pub fn fill_sender_presence_to<C, T>(
    handoff: &mut Handoff<T>,
) -> Result<&Presence, HandoffRejection>
where
    C: HandoffContract + ?Sized + 'static,
    T: Serialize,
{
    write::fill(handoff, C::CONTRACT.id, |payload| {
        send_payload_to::<C, T>(payload, &Limits::DEFAULT)
    })
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
        Ok(delivery) => crate::trace::finish_envelope(&span, Some(delivery.presence()), None),
        Err(rejection) => crate::trace::finish_envelope(
            &span,
            rejection.presence(),
            Some((Side::Receive, rejection.problems())),
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
            Some((Side::Send, rejection.problems())),
        ),
    }
}
