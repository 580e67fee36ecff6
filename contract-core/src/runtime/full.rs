//! The full path both directions take where the one-pass paths give up: the payload scanned
//! into the thread's tape, and the tape walked against a view of the schema, every problem
//! listed and the presence of every field recorded.

use std::borrow::Cow;
use std::sync::Arc;

use contract_schema::{Schema, View};

use crate::runtime::options::Limits;
use crate::runtime::presence::{self, Recorded};
use crate::runtime::problem::Problem;
use crate::runtime::scratch::{with_scratch, Scratch};
use crate::runtime::tape::check::{self, Checker};
use crate::runtime::tape::scan;

/// Scans and checks a payload against a view of `schema`: every problem, what arrived, and
/// the payload as text when it is text.
pub(crate) fn check<'b>(
    schema: &'static Schema,
    view: View,
    payload: Payload<'b>,
    limits: &Limits,
    scratch: &mut Scratch,
) -> (Vec<Problem>, Arc<Recorded>, Option<&'b str>) {
    match scan(payload, limits, scratch) {
        Ok(text) => {
            let (problems, record) = walk(schema, view, text, limits, scratch);
            (problems, record, Some(text))
        }
        Err(problem) => {
            let record = presence::Record::new(schema, view);
            (vec![problem], Arc::new(Recorded::new(record)), None)
        }
    }
}

/// A payload, and whether it is known to be UTF-8.
#[derive(Clone, Copy)]
pub(crate) enum Payload<'b> {
    Bytes(&'b [u8]),
    /// Bytes checked as UTF-8 already (by `receive`'s fast path).
    Text(&'b str),
}

/// Scans a payload into the scratch's tape: the payload as text, or the problem that stopped
/// the scan.
pub(crate) fn scan<'b>(
    payload: Payload<'b>,
    limits: &Limits,
    scratch: &mut Scratch,
) -> Result<&'b str, Problem> {
    match payload {
        Payload::Bytes(bytes) => scan::text(bytes, limits),
        Payload::Text(text) => scan::known_text(text, limits),
    }
    .and_then(|text| {
        scratch.tape.scan(text, limits)?;
        Ok(text)
    })
    .map_err(|kind| Problem {
        pointer: String::new(),
        kind,
    })
}

/// Whether the receiver view of `schema` (any schema, such as another version passed in by a
/// caller) finds no problem in `bytes`.
pub(crate) fn fits_receiver(schema: &Schema, bytes: &[u8], limits: &Limits) -> bool {
    with_scratch(|scratch| {
        let Ok(text) = scan(Payload::Bytes(bytes), limits, scratch) else {
            return false;
        };
        let mut index = check::PathIndex::default();
        let record = presence::Record::new(schema, View::Receiver);
        let outcome = Checker::new(
            record,
            text,
            &scratch.tape,
            &mut index,
            limits.max_unknown_names,
            &mut check::WalkBuffers::default(),
            |name| Cow::Owned(name.to_owned()),
        )
        .run();
        outcome.problems.is_empty()
    })
}

/// Checks the scratch's tape of `text` against a view of `schema`.
pub(crate) fn walk(
    schema: &'static Schema,
    view: View,
    text: &str,
    limits: &Limits,
    scratch: &mut Scratch,
) -> (Vec<Problem>, Arc<Recorded>) {
    let record = scratch.full.start(schema, view);
    let outcome = Checker::new(
        record,
        text,
        &scratch.tape,
        &mut scratch.full.index,
        limits.max_unknown_names,
        &mut scratch.walk,
        Cow::Borrowed,
    )
    .run();
    (outcome.problems, scratch.full.finish(outcome.record))
}
