//! The runtime half: [`receive`] where the bytes arrive, [`send`] and [`send_to`] before they
//! leave, each returning the payload's [`Presence`] or one [`Rejection`] that lists every
//! problem with its JSON pointer.
//!
//! What depends on the type alone (the resolved [`Schema`]) is computed once per type and
//! kept for the life of the process. A call then works on a flat **tape** of the document
//! (one node per value, with byte offsets, reused per thread):
//!
//! 1. `receive` scans the bytes into the tape, iteratively and bounded by [`Limits`],
//!    finding on the way what serde_json does not check (duplicate keys at every level,
//!    invalid UTF-8 and lone surrogates in values the type ignores); `send` records the
//!    tape while serde_json writes, through a `Serializer` wrapper, instead of parsing what
//!    was written;
//! 2. a walk of the tape against a view of the schema (the receiver view for `receive` and
//!    `send_to`, the sender view for `send`) records every problem and the presence of
//!    every field (rendered into strings only when read);
//! 3. `receive` deserializes `T` from the tape, through a `Deserializer` that makes
//!    serde_json's decisions (which `visit_*` a number reaches, floats parsed by serde_json
//!    itself, structs from objects, enums from strings and one-key objects, numeric map
//!    keys), so the payload is tokenized once; where that fails it asks
//!    `serde_json::from_slice::<T>` itself. It accepts a payload only when serde does.
//!    `send` returns exactly the bytes `serde_json::to_vec` writes.
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

mod check;
mod de;
mod diagnose;
mod presence;
mod problem;
mod scan;
mod ser;

use std::any::TypeId;
use std::cell::RefCell;
use std::sync::{OnceLock, PoisonError, RwLock};

use contract_schema::{Schema, View};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::traits::HandoffSchema;

pub use diagnose::{why_missing, Cause, Certainty, Diagnosis, MissingField, WhyMissing};
pub use presence::Presence;
pub use problem::{JsonKind, Problem, ProblemKind, Rejection, Side};

use check::Checker;
use rustc_hash::FxHashMap;
use scan::Tape;

/// Size limits of one payload. Exceeding one is a rejection, never a crash: the scan is
/// iterative, and what it allocates is bounded by `max_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The largest payload, in bytes (default 16 MiB).
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects (default 127, what `serde_json` reads).
    pub max_depth: usize,
    /// The longest string, in bytes of its JSON text (default 4 MiB).
    pub max_string_bytes: usize,
    /// The most keys in one object (default 10,000).
    pub max_keys_per_object: usize,
    /// How many unknown field names a presence record names; past that it counts them
    /// (default 32).
    pub max_unknown_names: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 << 20,
            max_depth: 127,
            max_string_bytes: 4 << 20,
            max_keys_per_object: 10_000,
            max_unknown_names: 32,
        }
    }
}

/// The identity of the journey a payload is on, for traces (the tracing seed's
/// `sessionId`, `workflowName`, `handoffFrom`, `handoffTo`, `attempt`, `retryOf`). None of it
/// is checked; all of it is recorded on the span of a call when the `tracing` feature is on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Journey {
    /// The session (for A2A, the `contextId`); recorded as `gen_ai.conversation.id`.
    pub session_id: Option<String>,
    /// The workflow's name (`support-refund`).
    pub workflow_name: Option<String>,
    /// The agent or service handing off.
    pub handoff_from: Option<String>,
    /// The agent or service taking over.
    pub handoff_to: Option<String>,
    /// Which attempt this is, from 1.
    pub attempt: Option<u32>,
    /// The run this one retries.
    pub retry_of: Option<String>,
}

impl Journey {
    /// A journey from one agent to another.
    #[must_use]
    pub fn new(handoff_from: impl Into<String>, handoff_to: impl Into<String>) -> Self {
        Journey {
            handoff_from: Some(handoff_from.into()),
            handoff_to: Some(handoff_to.into()),
            ..Journey::default()
        }
    }

    /// With the session id.
    #[must_use]
    pub fn session(mut self, session_id: impl Into<String>) -> Self {
        self.session_id = Some(session_id.into());
        self
    }

    /// With the workflow's name.
    #[must_use]
    pub fn workflow(mut self, workflow_name: impl Into<String>) -> Self {
        self.workflow_name = Some(workflow_name.into());
        self
    }

    /// With the attempt number and the run it retries.
    #[must_use]
    pub fn retry(mut self, attempt: u32, retry_of: impl Into<String>) -> Self {
        self.attempt = Some(attempt);
        self.retry_of = Some(retry_of.into());
        self
    }
}

/// The options of [`receive_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReceiveOptions {
    /// Size limits.
    pub limits: Limits,
    /// Where the payload comes from and goes, for traces.
    pub journey: Journey,
}

impl ReceiveOptions {
    /// Default limits with this journey.
    #[must_use]
    pub fn journey(journey: Journey) -> Self {
        ReceiveOptions {
            journey,
            ..ReceiveOptions::default()
        }
    }
}

/// The options of [`send_with`] and [`send_to_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SendOptions {
    /// Size limits the written payload must keep (a receiver with the same limits reads it).
    pub limits: Limits,
    /// Where the payload comes from and goes, for traces.
    pub journey: Journey,
}

impl SendOptions {
    /// Default limits with this journey.
    #[must_use]
    pub fn journey(journey: Journey) -> Self {
        SendOptions {
            journey,
            ..SendOptions::default()
        }
    }
}

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

/// A payload `send` accepted: the bytes to put on the wire and their presence record.
#[derive(Debug, Clone)]
pub struct Sent {
    bytes: Vec<u8>,
    presence: Presence,
}

impl Sent {
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

/// What `make` builds for type `id`, built once and kept for the life of the process.
pub(crate) fn once_per_type<V: ?Sized + Send + Sync + 'static>(
    cache: &'static OnceLock<RwLock<FxHashMap<TypeId, &'static V>>>,
    id: TypeId,
    make: impl FnOnce() -> Box<V>,
) -> &'static V {
    let cache = cache.get_or_init(RwLock::default);
    if let Some(value) = cache
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&id)
    {
        return value;
    }
    let value: &'static V = Box::leak(make());
    cache
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(id)
        .or_insert(value)
}

/// The resolved schema of `T`, computed once per type.
pub(crate) fn schema_of<T: HandoffSchema + ?Sized + 'static>() -> &'static Schema {
    static CACHE: OnceLock<RwLock<FxHashMap<TypeId, &'static Schema>>> = OnceLock::new();
    once_per_type(&CACHE, TypeId::of::<T>(), || Box::new(T::schema()))
}

/// What a call needs beside its payload, kept per thread and reused: no large allocation
/// per call.
#[derive(Default)]
struct Scratch {
    tape: Tape,
    index: check::PathIndex,
    /// How many paths and arrivals the last record had, and how long the last payload
    /// `send` wrote: the next call reserves as much.
    sizes: (usize, usize, usize),
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch (or a fresh one, when a call is nested in another).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Scans and checks `bytes` against a view of `schema`: every problem, what arrived, and
/// the payload as text when it is text.
fn check<'s, 'b>(
    schema: &'s Schema,
    view: View,
    bytes: &'b [u8],
    limits: &Limits,
    scratch: &mut Scratch,
) -> (Vec<Problem>, presence::Record<'s>, Option<&'b str>) {
    let scanned = scan::text(bytes, limits).and_then(|text| {
        scratch.tape.scan(text, limits)?;
        Ok(text)
    });
    let text = match scanned {
        Ok(text) => text,
        Err(e) => {
            let problem = Problem {
                pointer: String::new(),
                kind: e,
            };
            return (vec![problem], presence::Record::new(schema, view), None);
        }
    };
    let (problems, record) = walk(schema, view, bytes, limits, scratch);
    (problems, record, Some(text))
}

/// Checks the scratch's tape of `bytes` against a view of `schema`.
fn walk<'s>(
    schema: &'s Schema,
    view: View,
    bytes: &[u8],
    limits: &Limits,
    scratch: &mut Scratch,
) -> (Vec<Problem>, presence::Record<'s>) {
    let mut record = presence::Record::new(schema, view);
    record.paths.reserve(scratch.sizes.0);
    record.arrived.reserve(scratch.sizes.1);
    let outcome = Checker::new(
        record,
        bytes,
        &scratch.tape,
        &mut scratch.index,
        limits.max_unknown_names,
    )
    .run();
    scratch.sizes.0 = outcome.record.paths.len();
    scratch.sizes.1 = outcome.record.arrived.len();
    (outcome.problems, outcome.record)
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
    receive_with(bytes, &ReceiveOptions::default())
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
    let result = with_scratch(|scratch| {
        let (mut problems, record, text) =
            check(schema, View::Receiver, bytes, &options.limits, scratch);
        let presence = Presence::recorded(record);
        if let (true, Some(text)) = (problems.is_empty(), text) {
            // The value from the tape; where that fails, serde_json's own verdict.
            if let Ok(value) = de::from_tape::<T>(text, &scratch.tape.nodes) {
                return Ok(Received { value, presence });
            }
            match serde_json::from_slice::<T>(bytes) {
                Ok(value) => return Ok(Received { value, presence }),
                Err(e) => problems.push(refused(&e, schema, bytes, &scratch.tape)),
            }
        }
        Err(Rejection::new(Side::Receive, problems, presence))
    });
    crate::trace::finish(&span, result.as_ref().map(Received::presence));
    result
}

/// serde's verdict on a payload the walk found no problem in, located, without its message.
fn refused(e: &serde_json::Error, schema: &Schema, bytes: &[u8], tape: &Tape) -> Problem {
    let offset = byte_offset(bytes, e.line(), e.column());
    let category = match e.classify() {
        serde_json::error::Category::Io => "io",
        serde_json::error::Category::Syntax => "syntax",
        serde_json::error::Category::Data => "data",
        serde_json::error::Category::Eof => "eof",
    };
    let names = field_names(schema);
    Problem {
        pointer: tape.pointer_at(bytes, offset, &|key| {
            std::str::from_utf8(key).is_ok_and(|k| names.contains(k))
        }),
        kind: ProblemKind::Refused { offset, category },
    }
}

/// Every field, tag and content name of the schema, in both views: structure, never data.
fn field_names(schema: &Schema) -> std::collections::HashSet<&str> {
    use contract_schema::model::{Body, Repr, StructDef, VariantDefKind};
    fn add_struct<'a>(s: &'a StructDef, names: &mut std::collections::HashSet<&'a str>) {
        for f in &s.fields {
            names.extend(f.sender.iter().map(|s| s.name.as_str()));
            if let Some(r) = &f.receiver {
                names.insert(r.name.as_str());
                names.extend(r.aliases.iter().map(String::as_str));
            }
        }
    }
    let mut names = std::collections::HashSet::new();
    for def in schema.types.values() {
        match &def.body {
            Body::Struct(s) => add_struct(s, &mut names),
            Body::Enum(e) => {
                match &e.repr {
                    Repr::Internal { tag } => {
                        names.insert(tag.as_str());
                    }
                    Repr::Adjacent { tag, content } => {
                        names.insert(tag.as_str());
                        names.insert(content.as_str());
                    }
                    Repr::External | Repr::Untagged => {}
                }
                for v in &e.variants {
                    if let VariantDefKind::Struct(s) = &v.kind {
                        add_struct(s, &mut names);
                    }
                }
            }
            Body::Newtype(_) => {}
        }
    }
    names
}

/// The byte offset of serde_json's 1-based line and column (the column counts bytes).
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match bytes[start..].iter().position(|b| *b == b'\n') {
            Some(n) => start += n + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len())
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
    send_with(value, &SendOptions::default())
}

/// [`send`] with limits and the journey recorded on the trace.
///
/// # Errors
/// A [`Rejection`] listing every problem of what was written.
pub fn send_with<T>(value: &T, options: &SendOptions) -> Result<Sent, Rejection>
where
    T: Serialize + HandoffSchema + ?Sized + 'static,
{
    send_against(value, schema_of::<T>(), View::Sender, options)
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
    send_to_with::<C, T>(value, &SendOptions::default())
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
    send_against(value, schema_of::<C>(), View::Receiver, options)
}

fn send_against<T: Serialize + ?Sized>(
    value: &T,
    schema: &'static Schema,
    view: View,
    options: &SendOptions,
) -> Result<Sent, Rejection> {
    let span = crate::trace::start(Side::Send, schema, &options.journey);
    let limits = &options.limits;
    let result = with_scratch(|scratch| {
        let mut bytes = Vec::with_capacity(scratch.sizes.2);
        let problem = |kind| {
            let problem = Problem {
                pointer: String::new(),
                kind,
            };
            let presence = Presence::recorded(presence::Record::new(schema, view));
            Err(Rejection::new(Side::Send, vec![problem], presence))
        };
        match ser::to_tape(value, &mut bytes, &mut scratch.tape, limits) {
            Ok(()) => {}
            Err(ser::SerError::Limit(e)) => return problem(e),
            Err(ser::SerError::Failed) => return problem(ProblemKind::SerializeFailed),
        }
        scratch.sizes.2 = bytes.len();
        #[cfg(debug_assertions)]
        scan::assert_same_as_scanned(&scratch.tape, &bytes, limits);
        let (problems, record) = walk(schema, view, &bytes, limits, scratch);
        let presence = Presence::recorded(record);
        if problems.is_empty() {
            Ok(Sent { bytes, presence })
        } else {
            Err(Rejection::new(Side::Send, problems, presence))
        }
    });
    crate::trace::finish(&span, result.as_ref().map(Sent::presence));
    result
}
