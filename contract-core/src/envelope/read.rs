//! [`receive_handoff`](crate::receive_handoff)'s work: the top level first, the contract ids
//! it names checked, the envelope's own fields read without the payload, then the payload
//! alone, from its byte span, as its own contract.

use core::ops::Range;

use serde::de::DeserializeOwned;

use crate::runtime::options::{Journey, Limits};
use crate::runtime::problem::{Problem, ProblemKind};
use crate::runtime::receive_unspanned;
use crate::trace::CallSpan;
use crate::traits::HandoffContract;

use super::delivery::{in_payload, shift, Delivery, HandoffRejection};
use super::handoff::{Head, Skipped};
use super::{ids, top};

/// The text that takes a payload's place when the envelope's own fields are read.
const PLACE: &[u8] = b"null";

/// A payload's span in the envelope and the span of its place in the text read without it.
#[derive(Debug, Clone)]
struct Placed {
    payload: Range<usize>,
    place: Range<usize>,
}

/// The offset in the envelope of `offset` in the text read without the payloads (inside a
/// place: where its payload starts).
fn original(offset: usize, placed: &[Placed]) -> usize {
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
    let top = match top::read(bytes, limits.max_depth) {
        Ok(top) => top,
        Err(at) => return Err(whole::<T>(bytes, limits, at)),
    };
    let mut problems = Vec::new();
    // The ids first: the payload is read only under the contract it is read as.
    let mut readable = !top.ambiguous && top.payloads.len() == 1;
    let mut id =
        |span: &Option<Range<usize>>, pointer: &str, check: fn(&str) -> Result<(), ProblemKind>| {
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
    id(&top.schema_version, "/schemaVersion", ids::check::<Head>);
    id(&top.contract, "/contract", ids::check::<T>);

    // The envelope's own fields, each payload's place taken by `null`.
    let mut placed = Vec::with_capacity(top.payloads.len());
    let head_text;
    let head_bytes = if top.payloads.is_empty() {
        bytes
    } else {
        let mut text = Vec::with_capacity(bytes.len() - top.payloads[0].len() + PLACE.len());
        let mut from = 0;
        for payload in &top.payloads {
            text.extend_from_slice(&bytes[from..payload.start]);
            let at = text.len();
            text.extend_from_slice(PLACE);
            placed.push(Placed {
                payload: payload.clone(),
                place: at..text.len(),
            });
            from = payload.end;
        }
        text.extend_from_slice(&bytes[from..]);
        head_text = text;
        &head_text[..]
    };
    let (head, envelope_presence) = match receive_unspanned::<Head>(head_bytes, limits) {
        Ok(received) => {
            let (head, presence) = received.into_parts();
            crate::trace::envelope_read(
                span,
                &head.context_id,
                &head.handoff_id,
                given,
                &head.journey,
            );
            (Some(head), presence)
        }
        Err(rejection) => {
            let (found, presence) = rejection.into_parts();
            problems.extend(found.into_iter().map(|mut problem| {
                shift(&mut problem.kind, |offset| original(offset, &placed));
                problem
            }));
            (None, presence)
        }
    };
    if !readable {
        return Err(HandoffRejection::received::<T>(
            problems,
            Some(envelope_presence),
            None,
        ));
    }

    // The payload, alone, one level below the envelope's top.
    let at = top.payloads[0].clone();
    let payload_limits = Limits {
        max_depth: limits.max_depth.saturating_sub(1),
        ..*limits
    };
    match receive_unspanned::<T>(&bytes[at.clone()], &payload_limits) {
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
    match receive_unspanned::<Head>(bytes, limits) {
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
