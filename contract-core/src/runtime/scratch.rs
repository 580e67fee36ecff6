//! What a call works in beside its payload, kept per thread and reused from call to call: the
//! tape, the buffers of the walk, and the [`Memo`] of each path (the path ids of the last
//! schema and view, and the stacks of the objects open, the writer's among them).

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rustc_hash::FxHashSet;

use contract_schema::model::{StructDef, Type};
use contract_schema::{Schema, View};

use crate::runtime::plan::{Plan, StructFacts};
use crate::runtime::presence::{Held, Paths, Record, Recorded, Tally};
use crate::runtime::problem::Problem;
use crate::runtime::tape::check::{PathIndex, WalkBuffers};
use crate::runtime::tape::scan::Tape;

/// What a call needs beside its payload, kept per thread and reused: no large allocation
/// per call.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) tape: Tape,
    /// The paths of the last schema and view each path worked on, and buffers: the walk of
    /// the full path, and the fast paths of `receive` and `send`.
    pub(crate) full: Memo,
    pub(crate) fast: Memo,
    /// The one-pass reader's memos of an envelope's own fields and of its sender's presence:
    /// a thread that reads envelopes reads three schemas by turns, and each then finds its
    /// paths where it left them ([`MemoOf`]).
    pub(crate) envelope: [Memo; 2],
    pub(crate) fast_send: Memo,
    /// The walk's buffers.
    pub(crate) walk: WalkBuffers<'static>,
    /// The buffers of `receive`'s one-pass rejection.
    pub(crate) reject: RejectBuffers,
    /// How long the last payload `send` wrote: the next call reserves as much.
    pub(crate) written: usize,
}

/// Which memo `receive`'s one-pass reader works in.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's variants need `derive`
pub(crate) enum MemoOf {
    /// `receive`'s own ([`Scratch::fast`]), a payload's.
    Payload,
    /// An envelope's own fields.
    EnvelopeFields,
    /// An envelope's sender's presence.
    SenderPresence,
}

impl Scratch {
    /// The one-pass reader's memo `of` names.
    pub(crate) fn memo(&mut self, of: MemoOf) -> &mut Memo {
        match of {
            MemoOf::Payload => &mut self.fast,
            MemoOf::EnvelopeFields => &mut self.envelope[0],
            MemoOf::SenderPresence => &mut self.envelope[1],
        }
    }

    /// What the one-pass rejection works in: the full path's memo, the reader's memo `of`
    /// names, and the rejection's buffers.
    pub(crate) fn reject_parts(
        &mut self,
        of: MemoOf,
    ) -> (&mut Memo, &mut Memo, &mut RejectBuffers) {
        let fast = match of {
            MemoOf::Payload => &mut self.fast,
            MemoOf::EnvelopeFields => &mut self.envelope[0],
            MemoOf::SenderPresence => &mut self.envelope[1],
        };
        (&mut self.full, fast, &mut self.reject)
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch (or a fresh one, when a call is nested in another).
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// What a path keeps per thread between calls: the path ids of the last schema and view it
/// worked on (so a call mostly finds its paths instead of adding them) and buffers.
#[derive(Default)]
pub(crate) struct Memo {
    /// The address of the schema and the view the paths belong to.
    schema: usize,
    view: Option<View>,
    /// Boxed: parking it and taking it back moves a pointer.
    pub(crate) index: Box<PathIndex<'static>>,
    /// Every path met so far under this schema, by id (`None` while a call has them).
    paths: Option<Arc<Paths<'static>>>,
    /// The fingerprints of the keys of the objects open, innermost last.
    pub(crate) fingerprints: Vec<u64>,
    /// Which fields of the structs open arrived, innermost last.
    pub(crate) seen: Vec<bool>,
    /// Per path (at its id plus one: the top level,
    /// [`ROOT`](crate::runtime::presence::ROOT), at 0), the struct last opened
    /// there: opening it again at that path looks nothing up.
    opened: Vec<Option<Opened>>,
    /// The counts of the call going on (its room kept between calls).
    tally: Vec<Tally>,
    /// The unknown keys of the call going on, not yet named in its record: where each was
    /// met, and where its text is in the payload.
    pub(crate) unknown: Vec<(u32, usize, usize)>,
    /// `send`'s stack of arrays and objects open, kept empty between calls for its room.
    pub(crate) frames: Vec<Frame>,
    /// The paths of a few schemas worked on before the last one (a thread that reads an
    /// envelope reads three schemas by turns: its fields, the sender's presence, the
    /// payload): taking one back finds its paths instead of adding them again. When full, the
    /// oldest place is dropped.
    parked: Vec<Parked>,
    /// The last record the path finished: the next call that records the same shares it.
    last: Option<Held>,
    /// Where `receive`'s one-pass reader gave up inside the top-level struct, with its
    /// record so far, for the one-pass rejection to go on from ([`Resume`]); dropped (its
    /// paths kept) by the next call that starts.
    pub(crate) resume: Option<Resume>,
}

/// Where the one-pass reader gave up, for the one-pass rejection to go on from: the record
/// it kept, and the last key of the top-level struct it began.
pub(crate) struct Resume {
    pub(crate) record: Record<'static>,
    pub(crate) checkpoint: Checkpoint,
}

/// The top-level struct's object as its key `keys` (from 0) began to be read, after keys
/// the reader read whole: the struct read there, at path `here`; where the key's quote is;
/// and how many paths had arrived then.
#[derive(Clone, Copy)]
pub(crate) struct Checkpoint {
    pub(crate) def: &'static StructDef,
    pub(crate) here: u32,
    pub(crate) at: usize,
    pub(crate) keys: usize,
    pub(crate) arrived: u32,
}

/// The paths a memo kept of a schema it no longer works on.
struct Parked {
    schema: usize,
    view: View,
    index: Box<PathIndex<'static>>,
    paths: Arc<Paths<'static>>,
    opened: Vec<Option<Opened>>,
    /// The last record of that schema, shared again when a call records the same.
    last: Option<Held>,
}

/// How many schemas a memo keeps the paths of besides the current one.
const MAX_PARKED: usize = 4;

/// A struct opened at a path: what the value there was (the address of its type, or of the
/// struct of a struct variant), the struct, where the ids of its fields start in the path
/// index, and what the plan says of its fields.
#[derive(Clone, Copy)]
pub(crate) struct Opened {
    node: usize,
    pub(crate) def: &'static StructDef,
    pub(crate) base: u32,
    pub(crate) facts: &'static StructFacts,
}

/// Beyond this many remembered paths (a recursive type read at ever new depths), the memo
/// starts again.
const MAX_REMEMBERED_PATHS: usize = 4096;

impl Memo {
    /// The record a call starts from: every path remembered, none arrived.
    pub(crate) fn start(&mut self, schema: &'static Schema, view: View) -> Record<'static> {
        if let Some(mut resume) = self.resume.take() {
            self.abandon(&mut resume.record);
        }
        let address = std::ptr::from_ref(schema) as usize;
        let paths = match self.paths.take() {
            Some(paths)
                if (self.schema, self.view) == (address, Some(view))
                    && paths.len() <= MAX_REMEMBERED_PATHS =>
            {
                paths
            }
            last => {
                let back = self
                    .parked
                    .iter()
                    .position(|p| (p.schema, p.view) == (address, view));
                match (last, self.view, back) {
                    (Some(paths), Some(last_view), Some(at)) => {
                        // Taking back a parked schema in exchange for the current one (a thread
                        // that reads envelopes goes round three schemas): the two swap places,
                        // without moving the others or allocating an index for the one leaving.
                        let parked = &mut self.parked[at];
                        parked.schema = std::mem::replace(&mut self.schema, address);
                        parked.view = last_view;
                        self.view = Some(view);
                        std::mem::swap(&mut parked.index, &mut self.index);
                        std::mem::swap(&mut parked.opened, &mut self.opened);
                        std::mem::swap(&mut parked.last, &mut self.last);
                        let taken = std::mem::replace(&mut parked.paths, paths);
                        if taken.len() <= MAX_REMEMBERED_PATHS {
                            taken
                        } else {
                            self.index.clear();
                            self.opened.clear();
                            self.last = None;
                            Arc::default()
                        }
                    }
                    (last, _, _) => self.switch(last, address, view),
                }
            }
        };
        // The counts are kept in the memo's buffer during the call, and copied out at its
        // end: the call's own allocations come after the value's, as `serde_json`'s would.
        let mut tally = std::mem::take(&mut self.tally);
        tally.clear();
        tally.resize(paths.len(), 0);
        let record = Record::with_tally(schema, view, paths, tally);
        self.fingerprints.clear();
        self.seen.clear();
        self.unknown.clear();
        record
    }

    /// Makes `address` and `view` the memo's schema, parking the paths of the last one
    /// (`last`), and gives the paths it remembers of the new one.
    fn switch(
        &mut self,
        last: Option<Arc<Paths<'static>>>,
        address: usize,
        view: View,
    ) -> Arc<Paths<'static>> {
        if let (Some(paths), Some(last_view)) = (last, self.view) {
            if self.parked.len() >= MAX_PARKED {
                self.parked.remove(0);
            }
            self.parked.push(Parked {
                schema: self.schema,
                view: last_view,
                index: std::mem::take(&mut self.index),
                paths,
                opened: std::mem::take(&mut self.opened),
                last: self.last.take(),
            });
        }
        self.schema = address;
        self.view = Some(view);
        self.last = None;
        let parked = self
            .parked
            .iter()
            .position(|p| (p.schema, p.view) == (address, view));
        match parked.map(|at| self.parked.swap_remove(at)) {
            Some(parked) if parked.paths.len() <= MAX_REMEMBERED_PATHS => {
                self.index = parked.index;
                self.opened = parked.opened;
                self.last = parked.last;
                parked.paths
            }
            _ => {
                self.index.clear();
                self.opened.clear();
                Arc::default()
            }
        }
    }

    /// The struct opened at path `here` before, if the value there was `node` (an address).
    #[inline]
    pub(crate) fn opened(&self, here: u32, node: usize) -> Option<Opened> {
        match self.opened.get(here.wrapping_add(1) as usize) {
            Some(Some(opened)) if opened.node == node => Some(*opened),
            _ => None,
        }
    }

    /// Opens `def` at path `here`, where the value is `node`, and remembers it.
    pub(crate) fn open(
        &mut self,
        plan: &'static Plan,
        record: &mut Record<'static>,
        here: u32,
        node: usize,
        def: &'static StructDef,
    ) -> Opened {
        let opened = Opened {
            node,
            def,
            base: self.index.struct_ids(record, here, def, record.view),
            facts: plan.struct_facts(def),
        };
        let at = here.wrapping_add(1) as usize;
        if self.opened.len() <= at {
            self.opened.resize(at + 1, None);
        }
        self.opened[at] = Some(opened);
        opened
    }

    /// Remembers the paths a call added, and gives its record for a presence: the last one
    /// the path finished where it recorded the same (the same shape of payload again), else
    /// the record with its counts copied out of the memo's buffer.
    pub(crate) fn finish(&mut self, record: Record<'static>) -> Arc<Recorded> {
        if let Some(last) = self.last.as_ref().filter(|last| last.records(&record)) {
            // The record's paths and counts go back to the memo as they are: no count of
            // the paths' references goes up and down again (each an atomic operation).
            let last = last.counted();
            self.paths = Some(record.paths);
            self.tally = record.tally;
            return last;
        }
        self.finish_new(record)
    }

    /// [`Memo::finish`] for a presence that may keep its record for the life of the process:
    /// a small record made again (the same as the last one) is kept, and from then on every
    /// call that records the same shares it without counting (see [`keep`]).
    pub(crate) fn finish_held(&mut self, record: Record<'static>) -> Held {
        if let Some(last) = self.last.as_mut().filter(|last| last.records(&record)) {
            if let Held::Counted(counted) = last {
                if let Some(kept) = keep(counted) {
                    *last = Held::Kept(kept);
                }
            }
            let held = last.clone();
            self.paths = Some(record.paths);
            self.tally = record.tally;
            return held;
        }
        Held::Counted(self.finish_new(record))
    }

    /// A record unlike the last: its counts copied out of the memo's buffer, and kept as the
    /// last one.
    fn finish_new(&mut self, mut record: Record<'static>) -> Arc<Recorded> {
        self.paths = Some(Arc::clone(&record.paths));
        let copy = record.tally.as_slice().to_vec();
        self.tally = std::mem::replace(&mut record.tally, copy);
        let recorded = Arc::new(Recorded::new(record));
        self.last = Some(Held::Counted(Arc::clone(&recorded)));
        recorded
    }

    /// Remembers the paths a call added, whose record is dropped (the full path decides).
    pub(crate) fn abandon(&mut self, record: &mut Record<'static>) {
        self.paths = Some(Arc::clone(&record.paths));
        self.tally = std::mem::take(&mut record.tally);
    }
}

/// How many records the process keeps for its life at most (see [`keep`]).
const MAX_KEPT: usize = 256;

/// How many paths a record kept for the life of the process counts at most: a small one
/// (a flat struct, an envelope's few fields), whose rendering stays small too.
const MAX_KEPT_PATHS: usize = 64;

/// `recorded` kept for the life of the process, when it is small and fewer than
/// [`MAX_KEPT`] records were kept before: its presences then hold a pointer that nothing
/// counts (a presence travels inside every `Sent`, and counting its record up and down is
/// two atomic operations per call). At most `MAX_KEPT` small records (and their
/// renderings, made on first use) stay allocated until the process ends.
fn keep(recorded: &Arc<Recorded>) -> Option<&'static Arc<Recorded>> {
    static KEPT: AtomicUsize = AtomicUsize::new(0);
    if recorded.paths() > MAX_KEPT_PATHS || KEPT.load(Ordering::Relaxed) >= MAX_KEPT {
        return None;
    }
    if KEPT.fetch_add(1, Ordering::Relaxed) >= MAX_KEPT {
        return None;
    }
    Some(Box::leak(Box::new(Arc::clone(recorded))))
}

/// Beyond this many keys, an object's fingerprints move to a hash set.
const INLINE_KEYS: usize = 16;

/// The keys of one object seen so far, by fingerprint: a run of `Memo::fingerprints` (the
/// objects open share that stack), moved to a hash set past [`INLINE_KEYS`].
pub(crate) struct KeySet {
    start: usize,
    /// Boxed: most objects never spill, and the set would triple the size of the wrappers
    /// that hold it.
    spilled: Option<Box<FxHashSet<u64>>>,
}

impl KeySet {
    /// An object's keys, from the top of `memo`'s stack.
    pub(crate) fn open(memo: &Memo) -> Self {
        KeySet {
            start: memo.fingerprints.len(),
            spilled: None,
        }
    }

    /// Adds `fp`: whether it is new in this object.
    pub(crate) fn insert(&mut self, memo: &mut Memo, fp: u64) -> bool {
        if let Some(set) = &mut self.spilled {
            return set.insert(fp);
        }
        let mine = &memo.fingerprints[self.start..];
        if mine.contains(&fp) {
            return false;
        }
        if mine.len() >= INLINE_KEYS {
            let mut set: FxHashSet<u64> = mine.iter().copied().collect();
            set.insert(fp);
            memo.fingerprints.truncate(self.start);
            self.spilled = Some(Box::new(set));
        } else {
            memo.fingerprints.push(fp);
        }
        true
    }

    /// Closes the object: its keys leave the stack.
    pub(crate) fn close(&self, memo: &mut Memo) {
        memo.fingerprints.truncate(self.start);
    }
}

// ---- the writer's stack ----------------------------------------------------------------
// `send`'s frames live in the memo between calls (their room is kept), so what a frame is
// lives here, below the writer, and the reader that shares the memo never reaches up for it.

/// The items of an array being written: all of one type, or each of its own (a tuple).
#[derive(Clone, Copy)]
pub(crate) enum Items {
    One(&'static Type),
    Each(&'static [Type]),
}

/// What a compound writes.
#[derive(Clone, Copy)]
pub(crate) enum Mode {
    Items {
        items: Items,
        here: u32,
        n: usize,
        expected: Option<usize>,
    },
    Map {
        key: &'static Type,
        value: &'static Type,
        values: u32,
    },
    Struct {
        /// The id of its first field's path.
        base: u32,
        /// Which fields were written, by bit.
        seen: u64,
        next_guess: usize,
        facts: &'static StructFacts,
    },
    /// Inside `Any`: anything.
    Free,
}

/// What is known of an array or object being written.
pub(crate) struct Frame {
    pub(crate) mode: Mode,
    /// Whether it is a variant's content (whose enclosing object closes with it).
    pub(crate) variant: bool,
    /// Whether nothing was written in it yet (no comma before the next item).
    pub(crate) first: bool,
    /// The keys of a map written so far.
    pub(crate) keys: usize,
    pub(crate) seen_keys: KeySet,
}

// ---- the one-pass rejection's buffers --------------------------------------------------
// `receive`'s one-pass rejection keeps its buffers here between calls (their room is kept),
// so what they hold lives here, below the reader.

/// What `receive`'s one-pass rejection keeps per thread between calls, for its room.
#[derive(Default)]
pub(crate) struct RejectBuffers {
    pub(crate) problems: Vec<Problem>,
    /// The pointer to the value being read, a step per level.
    pub(crate) pointer: Vec<Seg>,
    /// Per struct open, per field: the key that filled it.
    pub(crate) seen: Vec<Option<Key>>,
    pub(crate) rendered: Rendered,
}

/// The text of the first steps of a pointer, and where each step's text ends.
#[derive(Default)]
pub(crate) struct Rendered {
    pub(crate) text: String,
    pub(crate) marks: Vec<usize>,
}

/// One step of the pointer to the value being read.
#[derive(Clone, Copy)]
pub(crate) enum Seg {
    /// An object key.
    Key(Key),
    /// A name from the schema (a missing field).
    Name(&'static str),
    Index(u32),
    /// A map key: data, shown as `*`.
    Star,
}

/// Where a string's text is in the input (between its quotes; a payload within `u32::MAX`
/// bytes), and whether it has escapes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) escaped: bool,
}
