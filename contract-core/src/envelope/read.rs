//! [`receive_handoff`](crate::receive_handoff)'s work: the top level first, the contract ids
//! it names checked, the envelope's own fields read without the payload, then the payload
//! alone, from its byte span, as its own contract.

use core::cell::Cell;
use core::ops::Range;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use contract_schema::shape::{Kind, Shape};

use crate::runtime::options::{Journey, Limits};
use crate::runtime::presence::Presence;
use crate::runtime::problem::{Problem, ProblemKind};
use crate::runtime::{receive_first, receive_in, receive_unspanned, MemoOf, Received};
use crate::trace::CallSpan;
use crate::traits::{shape_of, HandoffContract, HandoffSchema};

use super::delivery::{in_payload, shift, under, Delivery, HandoffRejection};
use super::handoff::{Head, Skipped};
use super::{ids, top};

/// The text that takes the place of a member read apart when the envelope's own fields are
/// read.
const PLACE: &[u8] = b"null";

thread_local! {
    /// The buffer the envelope's text without the members read apart is built in, kept
    /// between calls for its room.
    static HEAD_TEXT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// The room [`HEAD_TEXT`] keeps between calls, at most.
const MAX_KEPT_HEAD_TEXT: usize = 64 * 1024;

/// A member's value read apart (`payload`, `senderPresence`): its span in the envelope and the
/// span of its place in the text read without it.
#[derive(Debug, Clone)]
struct Placed {
    payload: Range<usize>,
    place: Range<usize>,
}

/// The offset in the envelope of `offset` in the text read without the members read apart
/// (inside a place: where its value starts).
fn original<'p>(offset: usize, placed: impl Iterator<Item = &'p Placed>) -> usize {
    let mut shifted = offset;
    for p in placed {
        if offset >= p.place.end {
            shifted = p.payload.end + (offset - p.place.end);
        } else if offset >= p.place.start {
            shifted = p.payload.start;
        }
    }
    shifted
}

/// The text of the JSON string at `span`, when it is one that reads (else the read of the
/// envelope's fields reports what it is).
fn string_at<'b>(bytes: &'b [u8], span: &Range<usize>) -> Option<std::borrow::Cow<'b, str>> {
    let raw = bytes.get(span.clone())?;
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if inner.contains(&b'\\') {
        serde_json::from_slice::<String>(raw).ok().map(Into::into)
    } else {
        std::str::from_utf8(inner).ok().map(Into::into)
    }
}

/// `T`'s contract id, when it can be compared with the bytes of a JSON string as it is: it
/// holds no backslash (a quote in it would end the string the top level found first).
/// Evaluated at compile time, per type.
struct PlainId<T>(core::marker::PhantomData<T>);

impl<T: HandoffContract> PlainId<T> {
    const ID: Option<&'static str> = {
        let bytes = T::CONTRACT.id.as_bytes();
        let mut i = 0;
        let mut plain = true;
        while i < bytes.len() {
            if bytes[i] == b'\\' {
                plain = false;
            }
            i += 1;
        }
        if plain {
            Some(T::CONTRACT.id)
        } else {
            None
        }
    };
}

/// Whether `raw` is `id` as a JSON string without escapes: `"` + `id` + `"`.
fn quotes(raw: &[u8], id: &str) -> bool {
    raw.len() == id.len() + 2
        && raw.first() == Some(&b'"')
        && raw.last() == Some(&b'"')
        && raw.get(1..raw.len() - 1) == Some(id.as_bytes())
}

/// `senderPresence` as it is read: checked as an object of any values (every key once, at
/// every level, text that is UTF-8, the limits), then read by [`Presence`]'s own
/// `Deserialize`. A presence's `<field>Present` keys are the sender's contract's, so it is
/// read whatever they are; a value of the wrong type in it is serde's verdict
/// ([`ProblemKind::Refused`], located).
struct SenderPresence(Presence);

impl<'de> Deserialize<'de> for SenderPresence {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Presence::deserialize(deserializer).map(SenderPresence)
    }
}

/// An object of any values: what the envelope's read checks of a sender's presence record
/// before its `Deserialize` reads it.
impl HandoffSchema for SenderPresence {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Map {
        key: shape_of::<String>,
        value: shape_of::<serde_json::Value>,
    });
}

/// A sender's presence record read from its own bytes (a member's value, `null` for none),
/// checked as `senderPresence` is in an envelope: every key once at every level, within
/// `limits`, then read by [`Presence`]'s `Deserialize`. Its problems are located from the
/// value's first byte.
#[cfg(feature = "a2a")]
pub(crate) fn sender_presence(
    bytes: &[u8],
    limits: &Limits,
) -> Result<Option<Presence>, Vec<Problem>> {
    match receive_in::<Option<SenderPresence>>(bytes, limits, MemoOf::SenderPresence) {
        Ok(received) => Ok(received.into_inner().map(|p| p.0)),
        Err(rejection) => Err(rejection.into_parts().0),
    }
}

/// The members read apart from the envelope's own fields (the first `payload` and
/// `senderPresence`), in document order.
fn apart(top: &top::Top) -> [Option<Range<usize>>; 2] {
    match (&top.payload, &top.presence) {
        (Some(p), Some(s)) if s.start < p.start => [Some(s.clone()), Some(p.clone())],
        (p, s) => [p.clone(), s.clone()],
    }
}

/// Reads an envelope of a `T` payload (the span of its call given, to record what the
/// envelope says of itself, and the journey the call was given).
pub(crate) fn receive<T>(
    bytes: &[u8],
    limits: &Limits,
    span: &CallSpan,
    given: &Journey,
) -> Result<Delivery<T>, HandoffRejection>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    if bytes.len() > limits.max_bytes {
        return Err(whole::<T>(bytes, limits, 0));
    }
    // Where the payload comes last, after the ids (as `send_handoff` writes it), its bytes are
    // not passed over before they are read: the top level is read up to the payload, taken to
    // run to the document's end. When that guess is wrong the payload's read fails (a JSON
    // value followed by more members is not one value), and so does any other problem: the
    // whole top level is then read, and the envelope read again from it.
    //
    // The sender's presence, before the payload, is read where the top level meets it (by the
    // one-pass reader, from its first byte on): where that reads it, its end is known without
    // passing over its bytes first. Where it does not, the top level skips it and it is read
    // from its span, as before.
    let below = below(limits);
    // As `send_handoff` lays it out, the top level is found without passing over the
    // envelope's own fields (they are read once, as the envelope's contract): the ids at the
    // start (or `contract` last), the sender's presence, read where it is found, and the
    // payload after it, to the end. A guess, as the one below: it stands when what it found
    // reads (see `top::written`), and where it does not, the whole top level is read and the
    // envelope read again from it (the guess below would find the same spans).
    let mut written_early = None;
    let written = top::written(bytes, |start| {
        presence_at(bytes, start, &below, &mut written_early)
    });
    if let Some(written) = written {
        if let Some(delivery) = stood::<T>(bytes, &written, limits, (span, given), written_early) {
            return Ok(delivery);
        }
        return match top::read(bytes, limits.max_depth) {
            Ok(top) => from_top::<T>(bytes, &top, limits, Some((span, given)), None),
            Err(at) => Err(whole::<T>(bytes, limits, at)),
        };
    }
    let mut early = None;
    let read_presence = |start: usize| presence_at(bytes, start, &below, &mut early);
    let top = match top::scan(bytes, limits.max_depth, true, read_presence) {
        Ok((top, false)) => (top, early),
        // The guess's read records nothing on the span: what it read is recorded when it
        // stands (its delivery), and a second read records its own.
        Ok((guessed, true)) => match stood::<T>(bytes, &guessed, limits, (span, given), early) {
            Some(delivery) => return Ok(delivery),
            None => match top::read(bytes, limits.max_depth) {
                Ok(top) => (top, None),
                Err(at) => return Err(whole::<T>(bytes, limits, at)),
            },
        },
        Err(at) => return Err(whole::<T>(bytes, limits, at)),
    };
    from_top::<T>(bytes, &top.0, limits, Some((span, given)), top.1)
}

/// The limits of a member's value: one level below the envelope's top.
fn below(limits: &Limits) -> Limits {
    Limits {
        max_depth: limits.max_depth.saturating_sub(1),
        ..*limits
    }
}

/// The sender's presence read where the top level met it: its span, and what was read.
type Early = Option<(Range<usize>, Received<Option<SenderPresence>>)>;

/// Reads an envelope whose top level was read; with `span`, records on it what the
/// envelope's own fields say (against the journey the call was given).
/// The sender's presence read by the one-pass reader from `start` on, kept in `early` with
/// its span: its end, where that reader reads it.
fn presence_at(bytes: &[u8], start: usize, below: &Limits, early: &mut Early) -> Option<usize> {
    let (received, len) = receive_first::<Option<SenderPresence>>(
        bytes.get(start..)?,
        below,
        MemoOf::SenderPresence,
    )?;
    *early = Some((start..start + len, received));
    Some(start + len)
}

/// The envelope read from a guessed top level, recorded on the span, when the guess stands;
/// `None` (nothing recorded: a second read records its own) when it does not.
fn stood<T>(
    bytes: &[u8],
    guessed: &top::Top,
    limits: &Limits,
    (span, given): (&CallSpan, &Journey),
    early: Early,
) -> Option<Delivery<T>>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    let delivery = from_top::<T>(bytes, guessed, limits, None, early).ok()?;
    let envelope = delivery.envelope();
    crate::trace::envelope_read(
        span,
        &envelope.context_id,
        &envelope.handoff_id,
        given,
        &envelope.journey,
    );
    Some(delivery)
}

fn from_top<T>(
    bytes: &[u8],
    top: &top::Top,
    limits: &Limits,
    span: Option<(&CallSpan, &Journey)>,
    early: Early,
) -> Result<Delivery<T>, HandoffRejection>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    let mut problems = Vec::new();
    // The ids first: the payload is read only under the contract it is read as.
    let mut readable = !top.ambiguous && top.payloads == 1;
    let mut id = |span: &Option<Range<usize>>,
                  pointer: &str,
                  expected: Option<&str>,
                  check: fn(&str) -> Result<(), ProblemKind>| {
        // The id expected, written plainly (as `send_handoff` writes it): what `check` accepts
        // first, known without decoding the string.
        if let (Some(span), Some(expected)) = (span, expected) {
            if bytes
                .get(span.clone())
                .is_some_and(|raw| quotes(raw, expected))
            {
                return;
            }
        }
        match span.as_ref().and_then(|span| string_at(bytes, span)) {
            Some(text) => {
                if let Err(kind) = check(&text) {
                    problems.push(Problem {
                        pointer: pointer.to_owned(),
                        kind,
                    });
                    readable = false;
                }
            }
            // Absent, or not a string that reads: the envelope's fields say which.
            None => readable = false,
        }
    };
    id(
        &top.schema_version,
        "/schemaVersion",
        PlainId::<Head>::ID,
        ids::check::<Head>,
    );
    id(
        &top.contract,
        "/contract",
        PlainId::<T>::ID,
        ids::check::<T>,
    );

    // The envelope's own fields, the payload's and the sender's presence's places each taken
    // by `null` (both are read apart: the payload as its contract, the presence as below).
    let apart = apart(top);
    let mut places: [Option<Placed>; 2] = [None, None];
    // The text is built in a buffer kept per thread between calls (taken out for the call:
    // a nested call finds it empty), so that an envelope allocates none.
    let mut head_text = HEAD_TEXT.with(Cell::take);
    let head_bytes = if apart.iter().all(Option::is_none) {
        bytes
    } else {
        let cut: usize = apart.iter().flatten().map(|span| span.len()).sum();
        let text = &mut head_text;
        text.clear();
        text.reserve(bytes.len() - cut + 2 * PLACE.len());
        let mut from = 0;
        for (value, place) in apart.iter().zip(&mut places) {
            let Some(value) = value else { continue };
            text.extend_from_slice(&bytes[from..value.start]);
            let at = text.len();
            text.extend_from_slice(PLACE);
            *place = Some(Placed {
                payload: value.clone(),
                place: at..text.len(),
            });
            from = value.end;
        }
        text.extend_from_slice(&bytes[from..]);
        &head_text[..]
    };
    let below = below(limits);
    let (mut head, envelope_presence) =
        match receive_in::<Head>(head_bytes, limits, MemoOf::EnvelopeFields) {
            Ok(received) => {
                let (head, presence) = received.into_parts();
                (Some(head), presence)
            }
            Err(rejection) => {
                let (found, presence) = rejection.into_parts();
                problems.extend(found.into_iter().map(|mut problem| {
                    shift(&mut problem.kind, |offset| {
                        original(offset, places.iter().flatten())
                    });
                    problem
                }));
                (None, presence)
            }
        };
    if head_text.capacity() <= MAX_KEPT_HEAD_TEXT {
        HEAD_TEXT.with(|kept| kept.set(head_text));
    }
    if let (Some(at), 1) = (&top.presence, top.presences) {
        let read = match early {
            // Read already, from the same bytes.
            Some((read, received)) if read == *at => Ok(received),
            _ => receive_in::<Option<SenderPresence>>(
                &bytes[at.clone()],
                &below,
                MemoOf::SenderPresence,
            ),
        };
        match read {
            Ok(received) => {
                if let Some(head) = &mut head {
                    head.sender_presence = received.into_inner().map(|p| p.0);
                }
            }
            Err(rejection) => {
                let (found, _) = rejection.into_parts();
                let start = at.start;
                problems.extend(
                    found
                        .into_iter()
                        .map(|p| under("/senderPresence", p, start)),
                );
            }
        }
    }
    if let (Some(head), Some((span, given))) = (&head, span) {
        crate::trace::envelope_read(
            span,
            &head.context_id,
            &head.handoff_id,
            given,
            &head.journey,
        );
    }
    if !readable {
        return Err(HandoffRejection::received::<T>(
            problems,
            Some(envelope_presence),
            None,
        ));
    }

    // The payload, alone, one level below the envelope's top.
    let Some(at) = top.payload.clone() else {
        return Err(HandoffRejection::received::<T>(
            problems,
            Some(envelope_presence),
            None,
        ));
    };
    match receive_unspanned::<T>(&bytes[at.clone()], &below) {
        Ok(received) => {
            let (value, presence) = received.into_parts();
            match head {
                Some(head) if problems.is_empty() => Ok(Delivery {
                    envelope: head.map(|Skipped| value),
                    presence,
                    envelope_presence,
                }),
                _ => Err(HandoffRejection::received::<T>(
                    problems,
                    Some(envelope_presence),
                    Some(presence),
                )),
            }
        }
        Err(rejection) => {
            let (found, presence) = rejection.into_parts();
            problems.extend(
                found
                    .into_iter()
                    .map(|problem| in_payload(problem, at.start)),
            );
            Err(HandoffRejection::received::<T>(
                problems,
                Some(envelope_presence),
                Some(presence),
            ))
        }
    }
}

/// An envelope whose top level cannot be followed: read whole as the envelope's own
/// contract, for its located problems (`at`: where the top level was lost, for the case the
/// read finds none).
fn whole<T: HandoffContract>(bytes: &[u8], limits: &Limits, at: usize) -> HandoffRejection {
    match receive_in::<Head>(bytes, limits, MemoOf::EnvelopeFields) {
        Err(rejection) => {
            let (problems, presence) = rejection.into_parts();
            HandoffRejection::received::<T>(problems, Some(presence), None)
        }
        Ok(received) => HandoffRejection::received::<T>(
            vec![Problem {
                pointer: String::new(),
                kind: ProblemKind::Malformed {
                    offset: at,
                    expected: "an envelope: one JSON object",
                },
            }],
            Some(received.into_parts().1),
            None,
        ),
    }
}
