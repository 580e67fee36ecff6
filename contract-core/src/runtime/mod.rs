//! The runtime half: [`receive`] where the bytes arrive, [`send`] and [`send_to`] before they
//! leave, each returning the payload's [`Presence`] or one [`Rejection`] that lists every
//! problem with its JSON pointer.
//!
//! What depends on the type alone (the resolved [`Schema`], and what the fast path knows of
//! it) is computed once per type and kept for the life of the process.
//!
//! `receive` first tries a **fast path**: one pass of a parser of its own, a `Deserializer`
//! that reads what serde_json reads and hands every visitor what serde_json would, follows
//! the receiver view beside serde's calls, records the presence of every field, and gives up
//! at every point where `receive` is stricter than serde (below) or where the schema cannot
//! be followed (a set, an internally or adjacently
//! tagged or untagged enum, an enum with untagged variants, a flattened field). A payload
//! serde accepts with none of those points is accepted there, in one pass and without
//! copying. Everything else takes the **full path**, on a flat **tape** of the document (one
//! node per value, with byte offsets, reused per thread):
//!
//! 1. `receive` scans the bytes into the tape, iteratively and bounded by [`Limits`],
//!    finding on the way what serde_json does not check (duplicate keys at every level,
//!    invalid UTF-8 and lone surrogates in values the type ignores); `send` records the
//!    tape while serde_json writes, through a `Serializer` wrapper, instead of parsing what
//!    was written;
//! 2. a walk of the tape against a view of the schema (the receiver view for `receive` and
//!    `send_to`, the sender view for `send`) records every problem and the presence of
//!    every field (rendered only when read: each path's text, a [`FieldPath`], is built
//!    once per thread and contract and shared by the records that name it);
//! 3. `receive` deserializes `T` from the tape, through a `Deserializer` that makes
//!    serde_json's decisions (which `visit_*` a number reaches, floats parsed by serde_json
//!    itself, structs from objects, enums from strings and one-key objects, numeric map
//!    keys), so the payload is tokenized once; where that fails it asks
//!    `serde_json::from_slice::<T>` itself. It accepts a payload only when serde does.
//!    `send` returns exactly the bytes `serde_json::to_vec` writes.
//!
//! `send` has a fast path too: a `Serializer` of this crate writes the JSON itself (byte for
//! byte what `serde_json::to_vec` writes: serde_json's own formatter writes the numbers, and
//! strings are escaped as serde_json escapes them), follows the sender view beside the calls
//! of the value's `Serialize` and records presence as it goes; at the first call the view
//! does not expect it gives up, and the full path serializes again with serde_json and the
//! tape. `send_to` always takes the full path.
//!
//! Both paths give the same verdict and the same presence: this project's tests and fuzz
//! target run the full path after every payload the fast path accepts and compare.
//!
//! # Stricter than serde, on purpose
//!
//! `receive` rejects, where serde would accept:
//! - a struct written as an array of its fields, an internally tagged enum written as
//!   `["Variant", …]`, and a unit variant written as `{"Variant": null}`;
//! - a key twice in one object, at any level: in a struct (serde rejects a declared field
//!   twice but keeps going past an unknown one), in a map (serde keeps the last) and inside
//!   values the type ignores;
//! - the same item twice in a set (serde merges them);
//! - a variant's index (`{"type": 0}`) as the tag of an enum serde reads from buffered
//!   content (inside an untagged enum, as the tagged part of an enum with untagged variants,
//!   in an internally tagged newtype variant, flattened): only the names are read;
//! - a `CString` written as a string (serde writes the array of its bytes);
//! - a `Duration` or `SystemTime` with nanoseconds of 10⁹ or more (serde carries them into
//!   the seconds; it never writes them), as the description states it;
//! - invalid UTF-8 and lone surrogates (`"\udc00"`) inside values the type ignores, which
//!   serde_json skips without checking;
//! - a document nested deeper than [`Limits::max_depth`], a string longer than
//!   [`Limits::max_string_bytes`], an object with more than [`Limits::max_keys_per_object`]
//!   keys, a payload larger than [`Limits::max_bytes`].
//!
//! A problem the description cannot see (a UUID or date that does not parse, a hand-written
//! `Deserialize`) is reported by serde's verdict, without serde's message, which quotes
//! values: [`ProblemKind::Refused`] with its byte offset and the pointer of the value there.
//!
//! # Pointers and paths: two spellings, two meanings
//!
//! A [`Problem`]'s `pointer` is an RFC 6901 JSON pointer to **one value of one payload**
//! (`/lines/1/qty`, the second line's), as JSON tools resolve it, with `*` for a map's key
//! (keys are data). A [`Presence`] names a **field of the contract**, once for every payload
//! and every item (`lines[].qty`), in the spelling of compatibility findings
//! ([`compat`](crate::compat)), of `#[handoff(allow(field = "lines[].qty"))]` and of
//! [`why_missing`]. Neither spelling is converted into the other: a pointer names an item
//! a path does not, and the presence lists are a published format (the presence JSON's
//! `receivedFields` and `missingFields`, the span attributes, the steps a ledger keeps, the
//! records of the peers in other languages). The session view shows each as it is, a
//! problem's pointer beside the step's field lists.
//!
//! ```
//! use contract_core::{receive, HandoffSchema};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, HandoffSchema)]
//! struct Order {
//!     lines: Vec<Line>,
//! }
//!
//! #[derive(Deserialize, HandoffSchema)]
//! struct Line {
//!     qty: u32,
//! }
//!
//! let Err(rejection) = receive::<Order>(br#"{"lines": [{"qty": 1}, {"qty": "two"}]}"#) else {
//!     unreachable!("the second line's qty is not a number")
//! };
//! assert_eq!(rejection.problems()[0].pointer, "/lines/1/qty"); // the second line's value
//! assert!(rejection.presence().received().iter().any(|path| path == "lines[].qty")); // the field
//! ```

// The rooms, bottom up, as a payload's path takes them. Each takes only from the rooms before
// it in this list, never from one after it, and never from this file:
// - `options`: limits, journey, the options of a call;
// - `presence`, `problem`: what a call returns besides the value;
// - `plan/`: what is compiled once per type (the resolved schema, the fast paths' plan, the
//   per-type caches) and the rules both directions apply to keys and scalars;
// - `tape/`: the full path both directions share: the scan into a tape, numbers as serde_json
//   reads them, the walk of a tape against a view;
// - `scratch`: what a call works in, per thread (the tape, the walk's buffers, each path's memo);
// - `full`: the full path run (scan and walk) for either direction;
// - `read/` (`receive`'s one-pass reader, the value from a tape, serde's located verdict) and
//   `write/` (`send`'s one-pass writer, serde_json's writing recorded as a tape): neither takes
//   from the other;
// - `diagnose`: why a field is missing, by asking the receiver views of other versions;
// - this file: the public functions, which run the rooms above, and the re-exports.
mod diagnose;
mod doubles;
mod full;
pub(crate) mod options;
mod plan;
pub(crate) mod presence;
pub(crate) mod problem;
mod read;
mod scratch;
mod tape;
mod write;

use contract_schema::{Schema, View};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::traits::HandoffSchema;

pub use diagnose::{why_missing, Cause, Certainty, Diagnosis, MissingField, WhyMissing};
pub use options::{Journey, Limits, Numbers, ReceiveOptions, SendOptions};
pub use presence::Side;
pub use presence::{FieldPath, Presence};
pub use problem::{JsonKind, Problem, ProblemClass, ProblemKind, Rejection};

use full::{check, walk, Payload};
use options::{DEFAULT_RECEIVE, DEFAULT_SEND};
use plan::{schema_of, typed_of, Plan};
use read::refused::refused;
use scratch::with_scratch;
pub(crate) use scratch::MemoOf;
#[cfg(feature = "__check-fast-path")]
use scratch::Scratch;
#[cfg(debug_assertions)]
use tape::scan;

/// A payload `receive` accepted: the typed value and its presence record.
#[derive(Debug, Clone)]
pub struct Received<T> {
    value: T,
    presence: Presence,
}

impl<T> Received<T> {
    /// The value.
    #[must_use]
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The value, borrowed.
    #[must_use]
    pub fn value(&self) -> &T {
        &self.value
    }

    /// Which fields arrived.
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// The value and its presence record.
    #[must_use]
    pub fn into_parts(self) -> (T, Presence) {
        (self.value, self.presence)
    }
}

/// The value, borrowed, for code generic over `AsRef<T>`.
///
/// `Received<T>` does not implement `Deref<Target = T>` on purpose: its own methods
/// (`presence`, `value`, `into_inner`, `into_parts`) would then shadow any method of `T` of
/// the same name, silently (a payload type with a `presence` field and accessor is likely in
/// this domain). `value()`, `as_ref()` and `into_inner()` say which one is meant.
impl<T> AsRef<T> for Received<T> {
    fn as_ref(&self) -> &T {
        &self.value
    }
}

/// A payload `send` accepted: the bytes to put on the wire and their presence record.
///
/// It gives its bytes as Rust users take them: `sent.bytes()` or `sent.as_ref()` borrowed,
/// `sent.into_bytes()` or `Vec::from(sent)` owned (an HTTP client's body takes either).
///
/// ```
/// # use contract_core::HandoffSchema;
/// # #[derive(serde::Serialize, HandoffSchema)]
/// # struct Ping { seq: u64 }
/// let sent = contract_core::send(&Ping { seq: 1 })?;
/// let borrowed: &[u8] = sent.as_ref();
/// assert_eq!(borrowed, br#"{"seq":1}"#);
/// let owned: Vec<u8> = sent.into();
/// assert_eq!(owned, br#"{"seq":1}"#);
/// # Ok::<(), contract_core::Rejection>(())
/// ```
#[derive(Debug, Clone)]
pub struct Sent {
    bytes: Vec<u8>,
    presence: Presence,
}

impl Sent {
    /// Bytes written and the presence of what they hold.
    #[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
    pub(crate) fn new(bytes: Vec<u8>, presence: Presence) -> Self {
        Sent { bytes, presence }
    }

    /// The JSON bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The JSON bytes, owned.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Which fields were written.
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }
}

impl AsRef<[u8]> for Sent {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl From<Sent> for Vec<u8> {
    fn from(sent: Sent) -> Vec<u8> {
        sent.bytes
    }
}

/// Checks a payload where it arrives: every problem at once, or the typed value with the
/// presence of its fields.
///
/// `receive` accepts exactly the payloads `serde_json::from_slice::<T>` accepts, except for
/// the stricter points listed in the [module docs](self), and holds default [`Limits`].
///
/// ```
/// use contract_core::{receive, HandoffContract, ProblemKind};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 2)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     category: String,
///     order_id: String,
///     amount_cents: u32,
/// }
///
/// let ok = receive::<RefundRequest>(br#"{"category": "damaged", "orderId": "A-1", "amountCents": 1250}"#)?;
/// assert_eq!(ok.presence().received(), ["category", "orderId", "amountCents"]);
///
/// // Every problem, each with its pointer; no value is repeated.
/// let err = receive::<RefundRequest>(br#"{"category": 7, "orderRef": "A-1", "amountCents": -5}"#)
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "receive of refund-request/v2 refused: 3 problems
///   /category: wrong type: expected string, found an integer
///   /amountCents: number out of range: expected u32
///   /orderId: missing field `orderId`, which the contract requires"
/// );
/// assert_eq!(err.presence().unknown(), ["orderRef"]);
/// # Ok::<(), contract_core::Rejection>(())
/// ```
///
/// # Errors
/// A [`Rejection`] listing every problem with its JSON pointer.
pub fn receive<T>(bytes: &[u8]) -> Result<Received<T>, Rejection>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    receive_with(bytes, &DEFAULT_RECEIVE)
}

/// [`receive`] with limits and the journey recorded on the trace.
///
/// # Errors
/// A [`Rejection`] listing every problem with its JSON pointer.
pub fn receive_with<T>(bytes: &[u8], options: &ReceiveOptions) -> Result<Received<T>, Rejection>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let schema = schema_of::<T>();
    let span = crate::trace::start(Side::Receive, schema, &options.journey);
    // Entered for the call's work and its outcome; left when the call returns.
    let _entered = crate::trace::enter(&span);
    let result = receive_numbers::<T>(bytes, &options.limits, options.numbers);
    crate::trace::finish(&span, result.as_ref().map(Received::presence));
    result
}

/// [`receive_unspanned`], and under [`Numbers::FromDoubles`] a refused payload read once more
/// with its whole-number doubles at integers written as integers (see `doubles`).
pub(crate) fn receive_numbers<T>(
    bytes: &[u8],
    limits: &Limits,
    numbers: Numbers,
) -> Result<Received<T>, Rejection>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let result = receive_unspanned::<T>(bytes, limits);
    let Err(rejection) = &result else {
        return result;
    };
    if !doubles::worth_a_second_read(numbers, rejection.problems()) {
        return result;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return result;
    };
    let Some(rewritten) = doubles::rewrite(schema_of::<T>(), text, limits) else {
        return result;
    };
    // A literal may grow (`1e3` is `1000`): the limit is the one the payload arrived within.
    let again = Limits {
        max_bytes: limits.max_bytes.max(rewritten.text.len()),
        ..*limits
    };
    receive_unspanned::<T>(rewritten.text.as_bytes(), &again).map_err(|rejection| {
        let side = rejection.side();
        let (problems, presence) = rejection.into_parts();
        let problems = problems
            .into_iter()
            .map(|p| rewritten.original(p))
            .collect();
        Rejection::new(side, problems, presence)
    })
}

/// [`receive_with`]'s work, without its span: for the envelope, whose call has a span of its
/// own around the reads of its top level and its payload.
pub(crate) fn receive_unspanned<T>(bytes: &[u8], limits: &Limits) -> Result<Received<T>, Rejection>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    receive_in::<T>(bytes, limits, MemoOf::Payload)
}

/// [`receive_unspanned`], its one-pass reader working in the memo `of` names.
pub(crate) fn receive_in<T>(
    bytes: &[u8],
    limits: &Limits,
    of: MemoOf,
) -> Result<Received<T>, Rejection>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    with_scratch(|scratch| {
        let mut payload = Payload::Bytes(bytes);
        if plan.eligible {
            match read::fast::receive::<T>(schema, plan, bytes, limits, scratch.memo(of)) {
                Ok((value, record)) => {
                    let presence = Presence::shared(record, Side::Receive);
                    #[cfg(feature = "__check-fast-path")]
                    full_path_agrees(schema, bytes, limits, scratch, &presence);
                    return Ok(Received { value, presence });
                }
                Err(Some(text)) => {
                    // Every problem, listed in one more pass where it can be.
                    let (full, fast, buffers) = scratch.reject_parts(of);
                    if let Some((problems, record)) =
                        read::reject::reject(schema, plan, text, limits, full, fast, buffers)
                    {
                        let presence = Presence::shared(record, Side::Receive);
                        #[cfg(feature = "__check-fast-path")]
                        full_rejection_agrees(schema, bytes, limits, scratch, &problems, &presence);
                        return Err(Rejection::new(Side::Receive, problems, presence));
                    }
                    payload = Payload::Text(text);
                }
                Err(None) => {}
            }
        }
        let (mut problems, record, text) = check(schema, View::Receiver, payload, limits, scratch);
        let presence = Presence::shared(record, Side::Receive);
        if let (true, Some(text)) = (problems.is_empty(), text) {
            // The value from the tape; where that fails, serde_json's own verdict.
            if let Ok(value) = read::de::from_tape::<T>(text, &scratch.tape.nodes) {
                return Ok(Received { value, presence });
            }
            match serde_json::from_slice::<T>(bytes) {
                Ok(value) => return Ok(Received { value, presence }),
                Err(e) => problems.push(refused(&e, schema, bytes, &scratch.tape)),
            }
        }
        Err(Rejection::new(Side::Receive, problems, presence))
    })
}

/// [`receive_unspanned`]'s one-pass reader alone, on the value at the start of `bytes`
/// (more may follow it): the value, its presence and where it ends, when that reader accepts
/// it (so that [`receive_unspanned`] of those bytes alone gives the same); `None` otherwise.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn receive_first<T>(
    bytes: &[u8],
    limits: &Limits,
    of: MemoOf,
) -> Option<(Received<T>, usize)>
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    with_scratch(|scratch| {
        if !plan.eligible {
            return None;
        }
        let (value, record, end) =
            read::fast::receive_first::<T>(schema, plan, bytes, limits, scratch.memo(of))?;
        let presence = Presence::shared(record, Side::Receive);
        #[cfg(feature = "__check-fast-path")]
        full_path_agrees(schema, &bytes[..end], limits, scratch, &presence);
        Some((Received { value, presence }, end))
    })
}

/// Whether `send` writes `value` on its one-pass fast path (with default limits), rather
/// than through the tape and the walk; for this project's tests.
#[cfg(feature = "__check-fast-path")]
#[doc(hidden)]
pub fn sends_on_fast_path<T>(value: &T) -> bool
where
    T: Serialize + HandoffSchema + ?Sized + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    plan.eligible
        && with_scratch(|scratch| {
            let limits = Limits::default();
            let mut out = Vec::new();
            write::fast::send(
                schema,
                plan,
                value,
                &limits,
                &mut scratch.fast_send,
                &mut out,
            )
            .is_some()
        })
}

/// With the feature `__check-fast-path` (this project's tests): what the fast path of `send`
/// wrote, the full path writes too and accepts, with the same presence.
#[cfg(feature = "__check-fast-path")]
fn full_send_agrees<T: Serialize + ?Sized>(
    value: &T,
    schema: &'static Schema,
    bytes: &[u8],
    limits: &Limits,
    scratch: &mut Scratch,
    presence: &Presence,
) {
    let mut again = Vec::new();
    assert!(
        write::ser::to_tape(value, &mut again, &mut scratch.tape, limits).is_ok(),
        "the fast path of send wrote what the full path cannot"
    );
    assert_eq!(again, bytes, "the two paths of send wrote different bytes");
    let text = std::str::from_utf8(bytes).expect("serde_json writes UTF-8");
    let (problems, record) = walk(schema, View::Sender, text, limits, scratch);
    assert!(
        problems.is_empty(),
        "the fast path of send accepted what the full path rejects: {problems:?}"
    );
    // A copy is rendered, as in `full_path_agrees`.
    assert_eq!(
        serde_json::to_value(presence.clone()).ok(),
        serde_json::to_value(Presence::shared(record, Side::Send)).ok(),
        "the fast path of send recorded another presence than the full path"
    );
}

/// Whether `receive::<T>` accepts `bytes` on its one-pass fast path (with default limits),
/// rather than through the full scan and walk; for this project's tests.
#[cfg(feature = "__check-fast-path")]
#[doc(hidden)]
pub fn takes_fast_path<T>(bytes: &[u8]) -> bool
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    plan.eligible
        && with_scratch(|scratch| {
            let limits = Limits::default();
            read::fast::receive::<T>(schema, plan, bytes, &limits, &mut scratch.fast).is_ok()
        })
}

/// Whether `receive::<T>` lists the problems of `bytes` in one pass after its fast path gave
/// up (with default limits), rather than through the full scan and walk; for this project's
/// tests.
#[cfg(feature = "__check-fast-path")]
#[doc(hidden)]
pub fn rejects_in_one_pass<T>(bytes: &[u8]) -> bool
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    one_pass_rejection::<T>(bytes, false)
}

/// Whether `receive::<T>` lists the problems of `bytes` in one pass that goes on from where
/// its fast path gave up in the top-level struct (with default limits), rather than from
/// the start; for this project's tests.
#[cfg(feature = "__check-fast-path")]
#[doc(hidden)]
pub fn rejects_from_checkpoint<T>(bytes: &[u8]) -> bool
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    one_pass_rejection::<T>(bytes, true)
}

/// [`rejects_in_one_pass`], and where `from_checkpoint`, only from the reader's checkpoint.
#[cfg(feature = "__check-fast-path")]
fn one_pass_rejection<T>(bytes: &[u8], from_checkpoint: bool) -> bool
where
    T: DeserializeOwned + HandoffSchema + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    plan.eligible
        && with_scratch(|scratch| {
            let limits = Limits::default();
            match read::fast::receive::<T>(schema, plan, bytes, &limits, &mut scratch.fast) {
                Err(Some(text)) => {
                    let (full, fast) = (&mut scratch.full, &mut scratch.fast);
                    let buffers = &mut scratch.reject;
                    let (listed, went_on) =
                        read::reject::listed(schema, plan, text, &limits, full, fast, buffers);
                    listed.is_some() && (!from_checkpoint || went_on)
                }
                _ => false,
            }
        })
}

/// With the feature `__check-fast-path` (this project's tests): what the fast path accepted,
/// the full path accepts too, with the same presence.
#[cfg(feature = "__check-fast-path")]
fn full_path_agrees(
    schema: &'static Schema,
    bytes: &[u8],
    limits: &Limits,
    scratch: &mut Scratch,
    presence: &Presence,
) {
    let (problems, record, _) = check(
        schema,
        View::Receiver,
        Payload::Bytes(bytes),
        limits,
        scratch,
    );
    assert!(
        problems.is_empty(),
        "the fast path of receive accepted what the full path rejects: {problems:?}"
    );
    let full = serde_json::to_value(Presence::shared(record, Side::Receive)).ok();
    // A copy is rendered: the caller's record stays unrendered, as it would be without
    // this check.
    assert_eq!(
        serde_json::to_value(presence.clone()).ok(),
        full,
        "the fast path of receive recorded another presence than the full path"
    );
}

/// With the feature `__check-fast-path` (this project's tests): what the one-pass rejection
/// listed, the full path lists too, with the same presence.
#[cfg(feature = "__check-fast-path")]
fn full_rejection_agrees(
    schema: &'static Schema,
    bytes: &[u8],
    limits: &Limits,
    scratch: &mut Scratch,
    problems: &[Problem],
    presence: &Presence,
) {
    let (full, record, _) = check(
        schema,
        View::Receiver,
        Payload::Bytes(bytes),
        limits,
        scratch,
    );
    assert_eq!(
        problems,
        &full[..],
        "the one-pass rejection listed other problems than the full path"
    );
    // A copy is rendered, as in `full_path_agrees`.
    assert_eq!(
        serde_json::to_value(presence.clone()).ok(),
        serde_json::to_value(Presence::shared(record, Side::Receive)).ok(),
        "the one-pass rejection recorded another presence than the full path"
    );
}

/// Serializes `value` with `serde_json` and checks what was written against the sender view
/// of its own contract: a custom `Serialize` or a `schema_as` that writes something else, a
/// non-finite float written as `null`, a key the contract does not have.
///
/// ```
/// use contract_core::{send, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "reading", version = 1)]
/// struct Reading {
///     celsius: f64,
/// }
///
/// let sent = send(&Reading { celsius: 21.5 })?;
/// assert_eq!(sent.bytes(), br#"{"celsius":21.5}"#);
/// // serde_json writes NaN as null, which no receiver reads back as a number.
/// let err = send(&Reading { celsius: f64::NAN }).unwrap_err();
/// assert_eq!(err.problems()[0].pointer, "/celsius");
/// # Ok::<(), contract_core::Rejection>(())
/// ```
///
/// # Errors
/// A [`Rejection`] listing every problem of what was written.
pub fn send<T>(value: &T) -> Result<Sent, Rejection>
where
    T: Serialize + HandoffSchema + ?Sized + 'static,
{
    send_with(value, &DEFAULT_SEND)
}

/// [`send`] with limits and the journey recorded on the trace.
///
/// # Errors
/// A [`Rejection`] listing every problem of what was written.
pub fn send_with<T>(value: &T, options: &SendOptions) -> Result<Sent, Rejection>
where
    T: Serialize + HandoffSchema + ?Sized + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    send_against(value, schema, View::Sender, Some(plan), options)
}

/// Serializes `value` and checks it against the **receiver** view of the consumer's
/// contract `C`: the producer learns before sending what the consumer will refuse — a field
/// it requires that a `skip_serializing_if` dropped, a name it does not read.
///
/// ```
/// use contract_core::{send_to, HandoffContract, ProblemKind};
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
/// let err = send_to::<Specialist, _>(&Triage { category: "damaged".into(), order_ref: None })
///     .unwrap_err();
/// assert_eq!(
///     err.problems()[0].kind,
///     ProblemKind::MissingField { field: "orderRef".into() }
/// );
/// ```
///
/// # Errors
/// A [`Rejection`] listing every problem the consumer would find.
pub fn send_to<C, T>(value: &T) -> Result<Sent, Rejection>
where
    C: HandoffSchema + ?Sized + 'static,
    T: Serialize + ?Sized,
{
    send_to_with::<C, T>(value, &DEFAULT_SEND)
}

/// [`send_to`] with limits and the journey recorded on the trace.
///
/// # Errors
/// A [`Rejection`] listing every problem the consumer would find.
pub fn send_to_with<C, T>(value: &T, options: &SendOptions) -> Result<Sent, Rejection>
where
    C: HandoffSchema + ?Sized + 'static,
    T: Serialize + ?Sized,
{
    send_against(value, schema_of::<C>(), View::Receiver, None, options)
}

fn send_against<T: Serialize + ?Sized>(
    value: &T,
    schema: &'static Schema,
    view: View,
    plan: Option<&'static Plan>,
    options: &SendOptions,
) -> Result<Sent, Rejection> {
    let span = crate::trace::start(Side::Send, schema, &options.journey);
    // Entered for the call's work and its outcome; left when the call returns.
    let _entered = crate::trace::enter(&span);
    let result = send_unspanned(value, schema, view, plan, &options.limits);
    crate::trace::finish(&span, result.as_ref().map(Sent::presence));
    result
}

/// [`send`]'s work without its span, for the envelope, whose call has a span of its own.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn send_payload<T>(value: &T, limits: &Limits) -> Result<Sent, Rejection>
where
    T: Serialize + HandoffSchema + ?Sized + 'static,
{
    let plan::Typed { schema, plan } = typed_of::<T>();
    send_unspanned(value, schema, View::Sender, Some(plan), limits)
}

/// [`send_to`]'s work without its span, for the envelope, whose call has a span of its own.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn send_payload_to<C, T>(value: &T, limits: &Limits) -> Result<Sent, Rejection>
where
    C: HandoffSchema + ?Sized + 'static,
    T: Serialize + ?Sized,
{
    send_unspanned(value, schema_of::<C>(), View::Receiver, None, limits)
}

/// The schema of `T`, resolved once per type and kept for the life of the process.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn schema_for<T: HandoffSchema + ?Sized + 'static>() -> &'static Schema {
    schema_of::<T>()
}

/// The other published versions of contract `T` that its embedded snapshots hold (those that
/// parse), once per type.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn other_versions<T: crate::HandoffContract + 'static>() -> &'static [Schema] {
    diagnose::published_of::<T>()
}

fn send_unspanned<T: Serialize + ?Sized>(
    value: &T,
    schema: &'static Schema,
    view: View,
    plan: Option<&'static Plan>,
    limits: &Limits,
) -> Result<Sent, Rejection> {
    let mut bytes = Vec::new();
    if let Some(plan) = plan.filter(|plan| plan.eligible) {
        // The fast path hands back its record alone (a pointer, in a register): a `Sent`
        // or a `Rejection` handed back through memory from the call is read back before
        // its stores have landed.
        let record = with_scratch(|scratch| {
            // As long as the last payload, with room for a field's key written in one chunk
            // past the end (see `write::fast`).
            bytes = Vec::with_capacity(scratch.written + plan::FieldKey::CHUNK);
            let memo = &mut scratch.fast_send;
            let record = write::fast::send(schema, plan, value, limits, memo, &mut bytes)?;
            scratch.written = bytes.len();
            #[cfg(feature = "__check-fast-path")]
            full_send_agrees(
                value,
                schema,
                &bytes,
                limits,
                scratch,
                &Presence::held(record.clone(), Side::Send),
            );
            Some(record)
        });
        if let Some(record) = record {
            let presence = Presence::held(record, Side::Send);
            return Ok(Sent { bytes, presence });
        }
    }
    with_scratch(|scratch| {
        if bytes.capacity() == 0 {
            bytes.reserve_exact(scratch.written + plan::FieldKey::CHUNK);
        }
        let problem = |kind| {
            let problem = Problem {
                pointer: String::new(),
                kind,
            };
            let presence = Presence::recorded(presence::Record::new(schema, view), Side::Send);
            Err(Rejection::new(Side::Send, vec![problem], presence))
        };
        match write::ser::to_tape(value, &mut bytes, &mut scratch.tape, limits) {
            Ok(()) => {}
            Err(write::ser::SerError::Limit(e)) => return problem(e),
            Err(write::ser::SerError::Failed) => return problem(ProblemKind::SerializeFailed),
        }
        scratch.written = bytes.len();
        #[cfg(debug_assertions)]
        scan::assert_same_as_scanned(&scratch.tape, &bytes, limits);
        // serde_json writes UTF-8 (its strings are `str`, its escapes ASCII).
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return problem(ProblemKind::SerializeFailed);
        };
        let (problems, record) = walk(schema, view, text, limits, scratch);
        let presence = Presence::shared(record, Side::Send);
        if problems.is_empty() {
            Ok(Sent { bytes, presence })
        } else {
            Err(Rejection::new(Side::Send, problems, presence))
        }
    })
}
