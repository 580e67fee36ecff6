//! `receive`'s rejection in one pass: where the one-pass reader gave up on a payload of a type
//! it follows, the bytes are checked against the receiver view as they are read, every
//! problem listed and the presence recorded, exactly as the full path's scan and walk would
//! list and record them, without building a tape first.
//!
//! It follows what the one-pass reader follows (see [`Plan::streams`]: no struct that
//! captures unknown keys or flattens an enum) and lists what the walk lists for it, in the
//! walk's order: a field's problems where its key is, a struct's missing fields after its
//! keys. Where the scan would refuse the document (its grammar, an escape, a limit, a key
//! twice in one object) or the walk would decide from what follows (an array of another
//! length than its type's, an externally tagged enum's object of more than one key), it
//! gives up, and the full path runs as before; it gives up too where it finds no problem (a
//! refusal the description cannot see is for the full path and serde to locate). With the
//! feature `__check-fast-path` (this project's tests), the full path runs after every
//! rejection listed here and must list the same problems with the same presence.
//!
//! Where the one-pass reader gave up inside the top-level struct, what it read before the
//! last top-level key it began holds no problem (it gives up at the first point where the
//! full path could find one), and it kept its record and that key's place
//! ([`Checkpoint`](crate::runtime::scratch::Checkpoint)): the pass goes on from that key with
//! that record, the arrivals since forgotten (they all belong to that key's member), rather
//! than reading the payload again from its start. It starts over where the record holds what
//! forgetting cannot undo (an unknown top-level key, a name the reader put in the record), and
//! where going on gives up (another name of a field filled before the key).

use std::borrow::Cow;
use std::sync::Arc;

use contract_schema::model::{
    Body, Constraint, EnumDef, FieldDef, FloatKind, IntKind, IntValue, Repr, StructDef, Type,
    TypeDef, Unknown, VariantDef, VariantDefKind,
};
use contract_schema::{Schema, View};

use crate::runtime::options::Limits;
use crate::runtime::plan::{field_named, fingerprint, same, Plan};
use crate::runtime::presence::{Label, Record, Recorded, ROOT};
use crate::runtime::problem::{JsonKind, Problem, ProblemKind};
use crate::runtime::scratch::{Key, KeySet, Memo, RejectBuffers, Rendered, Resume, Seg};
use crate::runtime::tape::check::{
    escape_token, int_in_range, is_canonical_int, type_text, MAX_KNOWN_TAGS,
};
use crate::runtime::tape::number::{float, number_end, plain_int};
use crate::runtime::tape::scan::{escape_at, plain_run, unescape, NodeKind};

/// The problems of `text` (UTF-8, `plan`'s type's payload) against the receiver view of
/// `schema`, and its presence; `None` where the full path decides (see the module docs).
/// Where the one-pass reader gave up inside the top-level struct and kept its record in
/// `fast` (its memo), the pass goes on from the last key of the top-level struct it began
/// (what came before it read whole, and found nothing to list), with that record, its
/// arrivals since forgotten; else it reads from the start and records in `full` (the full
/// path's memo).
pub(crate) fn reject(
    schema: &'static Schema,
    plan: &'static Plan,
    text: &str,
    limits: &Limits,
    full: &mut Memo,
    fast: &mut Memo,
    buffers: &mut RejectBuffers,
) -> Option<Listed> {
    listed(schema, plan, text, limits, full, fast, buffers).0
}

/// [`reject`], and whether the pass that listed the problems went on from the reader's
/// checkpoint (for this project's tests).
pub(crate) fn listed(
    schema: &'static Schema,
    plan: &'static Plan,
    text: &str,
    limits: &Limits,
    full: &mut Memo,
    fast: &mut Memo,
    buffers: &mut RejectBuffers,
) -> (Option<Listed>, bool) {
    let resume = fast.resume.take();
    let streams = plan.streams && text.len() <= limits.max_bytes && text.len() <= u32::MAX as usize;
    match resume {
        Some(resume) if streams && resumable(&resume) => {
            match go_on(schema, text, limits, fast, buffers, resume) {
                Some(listed) => (Some(listed), true),
                // Where it gives up, the pass from the start may not (another name of a
                // field filled before the checkpoint is a problem it lists).
                None => (from_start(schema, text, limits, full, buffers), false),
            }
        }
        Some(mut resume) => {
            fast.abandon(&mut resume.record);
            let listed = streams.then(|| from_start(schema, text, limits, full, buffers));
            (listed.flatten(), false)
        }
        None => {
            let listed = streams.then(|| from_start(schema, text, limits, full, buffers));
            (listed.flatten(), false)
        }
    }
}

/// Whether the record the reader kept holds nothing that forgetting arrivals would not undo
/// (no unknown name named in it yet: the reader names them at its end), of a struct the
/// pass follows.
fn resumable(resume: &Resume) -> bool {
    let (record, checkpoint) = (&resume.record, &resume.checkpoint);
    record.unknown.is_empty()
        && record.unknown_omitted == 0
        && checkpoint.def.flattened.is_empty()
        && checkpoint.def.unknown != Unknown::Capture
}

/// The pass from the start of `text`.
fn from_start(
    schema: &'static Schema,
    text: &str,
    limits: &Limits,
    memo: &mut Memo,
    buffers: &mut RejectBuffers,
) -> Option<Listed> {
    let mut record = memo.start(schema, View::Receiver);
    let mut stream = Stream::new(schema, text, limits, memo, &mut record, buffers);
    let listed = match stream.peek() {
        Some(_) => stream.value(&schema.root, 0).is_ok() && stream.peek().is_none(),
        None => false,
    };
    listed_or_not(listed, memo, record, buffers)
}

/// The pass from the reader's checkpoint in the top-level struct, with its record.
fn go_on(
    schema: &'static Schema,
    text: &str,
    limits: &Limits,
    memo: &mut Memo,
    buffers: &mut RejectBuffers,
    resume: Resume,
) -> Option<Listed> {
    let Resume {
        mut record,
        checkpoint,
    } = resume;

    // The unknown keys met before the checkpoint (in the order they came), named as the
    // reader would have named them at its end.
    let max = limits.max_unknown_names;
    let before = memo
        .unknown
        .iter()
        .take_while(|&&(_, start, _)| start < checkpoint.at)
        .count();
    memo.unknown.truncate(before);
    for (here, start, end) in memo.unknown.drain(..) {
        if let Some(name) = text.as_bytes().get(start..end) {
            record.unknown_name(here, name, max);
        }
    }
    let mut stream = Stream::new(schema, text, limits, memo, &mut record, buffers);
    stream.at = checkpoint.at;
    stream.depth = 1;
    stream.here = checkpoint.here;
    let listed = stream
        .members(checkpoint.def, checkpoint.keys, Some(checkpoint.arrived))
        .is_ok()
        && stream.peek().is_none();
    listed_or_not(listed, memo, record, buffers)
}

/// The problems listed and the record, where the pass read the whole payload and found a
/// problem; else `None`, and the record's paths kept.
fn listed_or_not(
    listed: bool,
    memo: &mut Memo,
    mut record: Record<'static>,
    buffers: &mut RejectBuffers,
) -> Option<Listed> {
    if listed && !buffers.problems.is_empty() {
        // Moved out at their number: the buffer grows once per thread, not per call.
        let problems = buffers.problems.drain(..).collect();
        Some((problems, memo.finish(record)))
    } else {
        memo.abandon(&mut record);
        None
    }
}

/// The problems a pass listed, and the presence it recorded.
pub(crate) type Listed = (Vec<Problem>, Arc<Recorded>);

/// The full path decides.
struct GiveUp;

type Res<T = ()> = Result<T, GiveUp>;

/// What the next value is, by its first bytes (a number read to its end by the grammar).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Null,
    Bool,
    /// A number without fraction or exponent, and where it ends.
    Int(usize),
    /// A number with a fraction or an exponent, and where it ends.
    Float(usize),
    Str,
    Array,
    Object,
}

impl Token {
    fn kind(self) -> JsonKind {
        match self {
            Token::Null => JsonKind::Null,
            Token::Bool => JsonKind::Boolean,
            Token::Int(_) => JsonKind::Integer,
            Token::Float(_) => JsonKind::Number,
            Token::Str => JsonKind::String,
            Token::Array => JsonKind::Array,
            Token::Object => JsonKind::Object,
        }
    }
}

/// The key of a field filled before the checkpoint the pass went on from: not one of the
/// payload's (no string ends past `u32::MAX`).
const BEFORE: Key = Key {
    start: u32::MAX,
    end: u32::MAX,
    escaped: false,
};

/// The keys of a struct's object that no field reads, so far: the first, and past it the
/// set of their fingerprints.
#[derive(Default)]
struct Unknowns {
    first: Option<Key>,
    keys: Option<KeySet>,
}

/// What an array's items are.
#[derive(Clone, Copy)]
enum Items {
    One(&'static Type),
    Each(&'static [Type]),
}

/// The pass: the cursor in the input, and the walk's state beside it.
struct Stream<'a> {
    schema: &'static Schema,
    input: &'a [u8],
    text: &'a str,
    at: usize,
    /// Arrays and objects open.
    depth: usize,
    limits: &'a Limits,
    memo: &'a mut Memo,
    record: &'a mut Record<'static>,
    problems: &'a mut Vec<Problem>,
    pointer: &'a mut Vec<Seg>,
    /// The path of the value being read.
    here: u32,
    /// Per struct open, per field: the key that filled it.
    seen: &'a mut Vec<Option<Key>>,
    /// The text of the first steps of the pointer, as the last problem rendered them, and
    /// how many of those steps are still in place.
    rendered: &'a mut Rendered,
    kept: usize,
    /// The last named type looked up, and its definition.
    last_named: Option<(&'static str, &'static TypeDef)>,
}

/// The keep of the walk for a contract's schema: its names borrowed.
fn keep(name: &'static str) -> Cow<'static, str> {
    Cow::Borrowed(name)
}

impl<'a> Stream<'a> {
    /// A pass from the start of `text`, recording in `record`, with `buffers` emptied.
    fn new(
        schema: &'static Schema,
        text: &'a str,
        limits: &'a Limits,
        memo: &'a mut Memo,
        record: &'a mut Record<'static>,
        buffers: &'a mut RejectBuffers,
    ) -> Self {
        buffers.problems.clear();
        buffers.pointer.clear();
        buffers.seen.clear();
        buffers.rendered.text.clear();
        buffers.rendered.marks.clear();
        Stream {
            schema,
            input: text.as_bytes(),
            text,
            at: 0,
            depth: 0,
            limits,
            memo,
            record,
            problems: &mut buffers.problems,
            pointer: &mut buffers.pointer,
            here: ROOT,
            seen: &mut buffers.seen,
            rendered: &mut buffers.rendered,
            kept: 0,
            last_named: None,
        }
    }
}

impl Stream<'_> {
    // ---- the grammar -----------------------------------------------------------------

    /// The next byte past whitespace (not consumed).
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        match self.input.get(self.at) {
            Some(&b) if b > b' ' => Some(b),
            _ => {
                while let Some(&b) = self.input.get(self.at) {
                    if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                        return Some(b);
                    }
                    self.at += 1;
                }
                None
            }
        }
    }

    /// Consumes `byte`, the next past whitespace.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Res {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// What the value at the cursor is.
    fn token(&mut self) -> Res<Token> {
        Ok(match self.peek() {
            Some(b'n') => Token::Null,
            Some(b't' | b'f') => Token::Bool,
            Some(b'"') => Token::Str,
            Some(b'[') => Token::Array,
            Some(b'{') => Token::Object,
            Some(b'-' | b'0'..=b'9') => match number_end(self.input, self.at) {
                Some((end, NodeKind::Int)) => Token::Int(end),
                Some((end, _)) => Token::Float(end),
                None => return Err(GiveUp),
            },
            _ => return Err(GiveUp),
        })
    }

    /// Consumes the literal `word` at the cursor.
    fn literal(&mut self, word: &[u8]) -> Res {
        if self.input.get(self.at..self.at + word.len()) == Some(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// Consumes `null`, `true` or `false` at the cursor.
    fn scalar_literal(&mut self) -> Res {
        match self.peek() {
            Some(b'n') => self.literal(b"null"),
            Some(b't') => self.literal(b"true"),
            _ => self.literal(b"false"),
        }
    }

    /// Consumes the number at the cursor (ending at `end`): its text.
    fn number(&mut self, end: usize) -> &[u8] {
        let start = self.at;
        self.at = end;
        &self.input[start..end]
    }

    /// Consumes the string at the cursor (at its opening quote), checking its escapes and
    /// its length as the scan does.
    #[inline(always)]
    fn string(&mut self) -> Res<Key> {
        let input = self.input;
        let start = self.at + 1;
        let mut end = plain_run(input, start);
        let mut escaped = false;
        if input.get(end) != Some(&b'"') {
            end = self.escaped(end)?;
            escaped = true;
        }
        if end - start > self.limits.max_string_bytes {
            return Err(GiveUp);
        }
        self.at = end + 1;
        // Within a payload of at most `u32::MAX` bytes.
        Ok(Key {
            start: start as u32,
            end: end as u32,
            escaped,
        })
    }

    /// The rest of a string with an escape, from `end`, the first byte not plain text: where
    /// its closing quote is.
    #[cold]
    fn escaped(&self, mut end: usize) -> Res<usize> {
        let input = self.input;
        loop {
            match input.get(end) {
                Some(b'"') => return Ok(end),
                Some(b'\\') => {
                    let (_, len) = escape_at(input, end).ok_or(GiveUp)?;
                    end = plain_run(input, end + len);
                }
                // A control character, or the end of the input.
                _ => return Err(GiveUp),
            }
        }
    }

    /// The text of a string read before, decoded.
    #[inline(always)]
    fn text_of(&self, key: Key) -> Cow<'_, str> {
        text_of(self.text, key)
    }

    /// Opens an array or object at the cursor, within the scan's depth limit.
    fn open(&mut self) -> Res {
        if self.depth >= self.limits.max_depth {
            return Err(GiveUp);
        }
        self.depth += 1;
        self.at += 1;
        Ok(())
    }

    /// Reads a key of an object (`n` keys before it) and its colon, within the scan's limit.
    #[inline(always)]
    fn key(&mut self, n: usize) -> Res<Key> {
        if n >= self.limits.max_keys_per_object || self.peek() != Some(b'"') {
            return Err(GiveUp);
        }
        let key = self.string()?;
        self.expect(b':')?;
        Ok(key)
    }

    /// The bytes of a string read before, decoded.
    #[inline(always)]
    fn bytes_of(&self, key: Key) -> Cow<'_, [u8]> {
        let raw = &self.input[key.start as usize..key.end as usize];
        if key.escaped {
            Cow::Owned(unescape(raw).into_bytes())
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// Whether `key` is new among the keys of its object so far (`keys`); a key twice (or
    /// two that share a fingerprint) is for the full path.
    fn fresh(&mut self, keys: &mut KeySet, key: Key) -> Res {
        let print = fingerprint(0, &self.bytes_of(key));
        if keys.insert(self.memo, print) {
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// Whether `key`, a key no field reads, is new among the others of its object no field
    /// reads (`unknown`): most objects have none or one, so the set of their fingerprints is
    /// opened at the second.
    fn fresh_unknown(&mut self, unknown: &mut Unknowns, key: Key) -> Res {
        match (unknown.first, &mut unknown.keys) {
            (None, _) => {
                unknown.first = Some(key);
                Ok(())
            }
            (Some(first), None) => {
                let mut keys = KeySet::open(self.memo);
                self.fresh(&mut keys, first)?;
                self.fresh(&mut keys, key)?;
                unknown.keys = Some(keys);
                Ok(())
            }
            (Some(_), Some(keys)) => self.fresh(keys, key),
        }
    }

    /// Past a member or an item: whether another follows (a comma consumed) or the
    /// container closes with `close` (not consumed).
    fn more(&mut self, close: u8) -> Res<bool> {
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(b) if b == close => Ok(false),
            _ => Err(GiveUp),
        }
    }

    /// Closes the array or object at the cursor with `close`.
    fn close(&mut self, close: u8) -> Res {
        self.expect(close)?;
        self.depth -= 1;
        Ok(())
    }

    /// Skips the value at the cursor, as the scan checks it (the walk looks no further,
    /// but reports a key twice inside: the full path then decides).
    fn skip(&mut self) -> Res {
        if self.peek() == Some(b'"') {
            return self.string().map(drop);
        }
        match self.token()? {
            Token::Null | Token::Bool => self.scalar_literal(),
            Token::Int(end) | Token::Float(end) => {
                self.at = end;
                Ok(())
            }
            Token::Str => self.string().map(drop),
            Token::Array => {
                self.open()?;
                if self.peek() != Some(b']') {
                    loop {
                        self.skip()?;
                        if !self.more(b']')? {
                            break;
                        }
                    }
                }
                self.close(b']')
            }
            Token::Object => {
                self.open()?;
                let mut keys = KeySet::open(self.memo);
                let mut n = 0;
                if self.peek() != Some(b'}') {
                    loop {
                        let key = self.key(n)?;
                        self.fresh(&mut keys, key)?;
                        n += 1;
                        self.skip()?;
                        if !self.more(b'}')? {
                            break;
                        }
                    }
                }
                keys.close(self.memo);
                self.close(b'}')
            }
        }
    }

    // ---- recording -------------------------------------------------------------------

    #[cold]
    fn problem(&mut self, kind: ProblemKind) {
        // The text of the steps rendered before and still in place is kept: problems of one
        // value mostly share all but their last steps.
        let rendered = &mut *self.rendered;
        let kept = self.kept.min(self.pointer.len());
        rendered.marks.truncate(kept);
        rendered
            .text
            .truncate(rendered.marks.last().copied().unwrap_or(0));
        for seg in &self.pointer[kept..] {
            let text = &mut rendered.text;
            text.push('/');
            match *seg {
                Seg::Key(key) => escape_token(&text_of(self.text, key), text),
                Seg::Name(name) => escape_token(name, text),
                Seg::Index(i) => text.push_str(itoa::Buffer::new().format(i)),
                Seg::Star => text.push('*'),
            }
            rendered.marks.push(text.len());
        }
        self.kept = self.pointer.len();
        let pointer = rendered.text.clone();
        self.problems.push(Problem { pointer, kind });
    }

    /// Enters the step `seg` of the pointer.
    #[inline(always)]
    fn push(&mut self, seg: Seg) {
        self.pointer.push(seg);
    }

    /// Leaves the last step of the pointer (its text, if rendered, no longer holds).
    #[inline(always)]
    fn pop(&mut self) {
        self.pointer.pop();
        self.kept = self.kept.min(self.pointer.len());
    }

    fn problem_at(&mut self, seg: Seg, kind: ProblemKind) {
        self.push(seg);
        self.problem(kind);
        self.pop();
    }

    /// The value at the cursor is not of `ty`: `null` where it is not nullable, or a value
    /// of another kind (skipped).
    fn mismatch(&mut self, token: Token, ty: &'static Type) -> Res {
        let expected = type_text(ty, keep);
        if token == Token::Null {
            self.problem(ProblemKind::NullNotAllowed { expected });
            return self.literal(b"null");
        }
        self.problem(ProblemKind::WrongType {
            expected,
            found: token.kind(),
        });
        self.skip()
    }

    // ---- types -----------------------------------------------------------------------

    /// The value at the cursor against `ty` (`hops`: named types followed without reading
    /// a value, as the walk counts them).
    fn value(&mut self, ty: &'static Type, hops: usize) -> Res {
        let next = self.peek();
        if let (Type::String(_), Some(b'"')) = (ty, next) {
            return self.string().map(drop);
        }
        if let (Type::Int(kind), Some(b'-' | b'0'..=b'9')) = (ty, next) {
            // A plain integer (the common case) read and judged in the pass that finds its
            // end; any other number takes the grammar's way below.
            if let Some((negative, n, end)) = plain_int(self.input, self.at) {
                self.at = end;
                let fits = if negative {
                    IntKind::min(*kind) < 0 && u128::from(n) <= IntKind::min(*kind).unsigned_abs()
                } else {
                    u128::from(n) <= IntKind::max(*kind)
                };
                if !fits {
                    self.int_problem(ty, false);
                }
                return Ok(());
            }
        }
        let token = self.token()?;
        // The common pairs first; the others out of line.
        match (ty, token) {
            (Type::String(_), Token::Str) => self.string().map(drop),
            (Type::Int(kind), Token::Int(end)) => {
                let text = self.number(end);
                let minus_zero = text == b"-0";
                if (minus_zero && *kind != IntKind::I128) || !int_in_range(text, *kind) {
                    self.int_problem(ty, minus_zero);
                }
                Ok(())
            }
            (Type::Option(_), Token::Null) => self.literal(b"null"),
            (Type::Option(inner), _) => self.value(inner, hops),
            (Type::Bool, Token::Bool) => self.scalar_literal(),
            (Type::Named(name), _) => self.named(token, ty, name, hops),
            (Type::List(item), Token::Array) => self.items(Items::One(item), None),
            _ => self.other(ty, token, hops),
        }
    }

    /// An integer the walk refuses: `-0` for a kind but `i128` (serde_json reads it as the
    /// float `-0.0`), or out of its kind's range.
    #[cold]
    fn int_problem(&mut self, ty: &'static Type, minus_zero: bool) {
        let expected = type_text(ty, keep);
        let i128 = matches!(ty, Type::Int(IntKind::I128));
        self.problem(if minus_zero && !i128 {
            ProblemKind::WrongType {
                expected,
                found: JsonKind::Number,
            }
        } else {
            ProblemKind::OutOfRange { expected }
        });
    }

    /// [`Stream::value`] for the pairs of a type and a value met less often.
    #[inline(never)]
    fn other(&mut self, ty: &'static Type, token: Token, hops: usize) -> Res {
        let _ = hops;
        match (ty, token) {
            (Type::Any, _) => self.skip(),
            (Type::Unit, Token::Null) => self.literal(b"null"),
            (Type::Constrained(c), _) => match (&**c, token) {
                (Constraint::Int { kind, values }, Token::Int(end)) => {
                    let text = self.number(end);
                    let fits = (*kind == IntKind::I128 || text != b"-0")
                        && int_in_range(text, *kind)
                        && IntValue::parse(text).is_some_and(|v| values.contains(v));
                    if !fits {
                        self.problem(ProblemKind::OutOfRange {
                            expected: type_text(ty, keep),
                        });
                    }
                    Ok(())
                }
                (Constraint::String(s), Token::Str) => {
                    let key = self.string()?;
                    let chars = self.text_of(key).chars().count();
                    if !s.length.contains(chars as u64) {
                        self.problem(ProblemKind::WrongStringLength {
                            expected: type_text(ty, keep),
                        });
                    }
                    Ok(())
                }
                _ => self.mismatch(token, ty),
            },
            (Type::Float(kind), Token::Int(end) | Token::Float(end)) => {
                let text = self.number(end);
                let fits = match kind {
                    FloatKind::F32 => serde_json::from_slice::<f32>(text).is_ok(),
                    FloatKind::F64 => float(text).is_some(),
                };
                if !fits {
                    self.problem(ProblemKind::OutOfRange {
                        expected: type_text(ty, keep),
                    });
                }
                Ok(())
            }
            (Type::Char, Token::Str) => {
                let key = self.string()?;
                if self.text_of(key).chars().count() != 1 {
                    self.problem(ProblemKind::NotOneCharacter);
                }
                Ok(())
            }
            (Type::Array(item, n), Token::Array) => self.items(Items::One(item), Some(*n)),
            (Type::Tuple(items), Token::Array) => self.items(Items::Each(items), Some(items.len())),
            (Type::Map(key, value), Token::Object) => self.map(key, value),
            // A set: the plan does not follow it (serde merges its items).
            (Type::Set(_), _) => Err(GiveUp),
            _ => self.mismatch(token, ty),
        }
    }

    /// An array's items; where its type fixes its length, of that length (else the walk
    /// lists the length alone: the full path decides).
    fn items(&mut self, items: Items, expected: Option<usize>) -> Res {
        self.open()?;
        let saved = self.here;
        self.here = self.memo.index.items(self.record, saved);
        let mut n = 0;
        if self.peek() != Some(b']') {
            loop {
                let ty = match items {
                    Items::One(ty) => ty,
                    Items::Each(types) => types.get(n).ok_or(GiveUp)?,
                };
                if expected.is_some_and(|e| n >= e) {
                    return Err(GiveUp);
                }
                self.push(Seg::Index(n as u32));
                self.value(ty, 0)?;
                self.pop();
                n += 1;
                if !self.more(b']')? {
                    break;
                }
            }
        }
        if expected.is_some_and(|e| n != e) {
            return Err(GiveUp);
        }
        self.here = saved;
        self.close(b']')
    }

    /// A map: every key read as a `key`, every value a `value`.
    fn map(&mut self, key: &'static Type, value: &'static Type) -> Res {
        self.open()?;
        let saved = self.here;
        self.here = self.memo.index.child(self.record, saved, Label::Values);
        let mut keys = KeySet::open(self.memo);
        let mut n = 0;
        if self.peek() != Some(b'}') {
            loop {
                let k = self.key(n)?;
                self.fresh(&mut keys, k)?;
                n += 1;
                if !self.key_fits(&self.text_of(k), key) {
                    self.problem_at(
                        Seg::Star,
                        ProblemKind::InvalidKey {
                            expected: type_text(key, keep),
                        },
                    );
                }
                self.push(Seg::Star);
                self.value(value, 0)?;
                self.pop();
                if !self.more(b'}')? {
                    break;
                }
            }
        }
        keys.close(self.memo);
        self.here = saved;
        self.close(b'}')
    }

    /// Whether serde_json reads `text` as a map key of type `key` (the walk's judgment).
    fn key_fits(&self, text: &str, key: &'static Type) -> bool {
        let bytes = text.as_bytes();
        match self.schema.resolve(key) {
            Type::Int(kind) => is_canonical_int(bytes) && int_in_range(bytes, *kind),
            Type::Constrained(c) => match &**c {
                Constraint::Int { kind, values } => {
                    is_canonical_int(bytes)
                        && int_in_range(bytes, *kind)
                        && IntValue::parse(bytes).is_some_and(|v| values.contains(v))
                }
                Constraint::String(s) => s.length.contains(text.chars().count() as u64),
            },
            Type::Bool => text == "true" || text == "false",
            Type::Char => text.chars().count() == 1,
            Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                Some(Body::Enum(e)) if e.is_string_enum() => {
                    e.catch_all().is_some()
                        || e.variants
                            .iter()
                            .any(|v| v.receiver.iter().any(|t| t == text))
                }
                _ => true,
            },
            _ => true,
        }
    }

    fn named(&mut self, token: Token, ty: &'static Type, name: &'static str, hops: usize) -> Res {
        // The items of an array name one type after the other: the last one is kept.
        let def = match self.last_named {
            Some((last, def)) if std::ptr::eq(last, name) => def,
            _ => match self.memo.index.def(self.schema, name) {
                Some(def) => {
                    self.last_named = Some((name, def));
                    def
                }
                None => return self.skip(),
            },
        };
        match &def.body {
            Body::Newtype(_) | Body::Views { .. } => {
                if hops > self.schema.types.len() {
                    // A cycle of newtypes: serde decides.
                    return self.skip();
                }
                match def.body.wire_type(View::Receiver) {
                    Some(inner) => self.value(inner, hops + 1),
                    None => Err(GiveUp),
                }
            }
            Body::Struct(s) if token == Token::Object => self.structure(s),
            Body::Struct(_) => self.mismatch(token, ty),
            Body::Enum(e) if e.repr == Repr::External && !e.has_untagged_variants() => {
                self.external(token, ty, e)
            }
            // Not followed by the plan.
            Body::Enum(_) => Err(GiveUp),
        }
    }

    /// A struct's object.
    fn structure(&mut self, def: &'static StructDef) -> Res {
        if !def.flattened.is_empty() || def.unknown == Unknown::Capture {
            return Err(GiveUp);
        }
        self.open()?;
        self.members(def, 0, None)
    }

    /// The members of a struct's object from the cursor to its end (`}` consumed), past
    /// `keys` keys; where the pass goes on from a checkpoint (`resumed`: how many paths had
    /// arrived there), the arrivals since forgotten (they all belong to the member of the
    /// key at the cursor), and the fields that arrived before filled by those keys.
    fn members(&mut self, def: &'static StructDef, keys: usize, resumed: Option<u32>) -> Res {
        let base = self.seen.len();
        self.seen.resize(base + def.fields.len(), None);
        let ids = self
            .memo
            .index
            .struct_ids(self.record, self.here, def, View::Receiver);
        if let Some(arrived) = resumed {
            self.record.forget_after(arrived);
            for f in 0..def.fields.len() {
                // At most 2^32 fields: `f` fits.
                if self.record.has_arrived(ids + f as u32) {
                    self.seen[base + f] = Some(BEFORE);
                }
            }
        }
        let mut unknown = Unknowns::default();
        let mut n = keys;
        let mut next_guess = 0;
        if self.peek() != Some(b'}') {
            loop {
                let key = self.key(n)?;
                n += 1;
                let found = field_named(def, next_guess, &self.bytes_of(key));
                match found {
                    Some(f) => {
                        next_guess = f + 1;
                        let field = &def.fields[f];
                        if let Some(earlier) = self.seen[base + f] {
                            // The same key twice is for the full path; another name of a
                            // field already read is serde's "duplicate field" (where the
                            // earlier key came before the checkpoint, the full path says
                            // which).
                            if earlier == BEFORE || self.bytes_of(earlier) == self.bytes_of(key) {
                                return Err(GiveUp);
                            }
                            let name = primary_name(field).unwrap_or_default();
                            self.problem_at(
                                Seg::Key(key),
                                ProblemKind::DuplicateField { field: keep(name) },
                            );
                            self.skip()?;
                        } else {
                            self.seen[base + f] = Some(key);
                            // At most 2^32 fields: `f` fits.
                            let id = ids + f as u32;
                            self.record.arrive(id);
                            let saved = self.here;
                            self.here = id;
                            self.push(Seg::Key(key));
                            self.value(&field.ty, 0)?;
                            self.pop();
                            self.here = saved;
                        }
                    }
                    None => {
                        // A key no field reads: new among the others no field reads (those
                        // that a field reads are new by the field's mark).
                        self.fresh_unknown(&mut unknown, key)?;
                        self.unknown_key(key, def)?;
                    }
                }
                if !self.more(b'}')? {
                    break;
                }
            }
        }
        if let Some(keys) = unknown.keys {
            keys.close(self.memo);
        }
        self.close(b'}')?;
        for (f, field) in def.fields.iter().enumerate() {
            if self.seen[base + f].is_some() {
                continue;
            }
            if let Some(r) = field.receiver.as_ref().filter(|r| r.required) {
                let name = r.name.as_str();
                let here = self.here;
                let missing = &mut self.record.missing;
                if !missing.iter().any(|(p, n)| *p == here && *n == name) {
                    missing.push((here, name));
                }
                self.problem_at(
                    Seg::Name(name),
                    ProblemKind::MissingField { field: keep(name) },
                );
            }
        }
        self.seen.truncate(base);
        Ok(())
    }

    /// A key no field of `def` reads: ignored and named in the record, or refused.
    fn unknown_key(&mut self, key: Key, def: &'static StructDef) -> Res {
        self.push(Seg::Key(key));
        if def.unknown == Unknown::Deny {
            let field = Cow::Owned(self.text_of(key).into_owned());
            self.problem(ProblemKind::UnknownField { field });
        } else {
            let max = self.limits.max_unknown_names;
            let name = text_of(self.text, key);
            self.record.unknown_name(self.here, name.as_bytes(), max);
        }
        self.skip()?;
        self.pop();
        Ok(())
    }

    /// An externally tagged enum: a unit variant's name, or an object of one key (a
    /// variant's name) holding its content.
    fn external(&mut self, token: Token, ty: &'static Type, e: &'static EnumDef) -> Res {
        match token {
            Token::Str => {
                let key = self.string()?;
                let variant = variant_named(e, &self.text_of(key));
                match variant {
                    Some(v) if matches!(v.kind, VariantDefKind::Unit) => {
                        let here = self.here;
                        self.memo.index.child(self.record, here, variant_label(v));
                    }
                    Some(_) => {
                        self.problem(ProblemKind::WrongType {
                            expected: type_text(ty, keep),
                            found: JsonKind::String,
                        });
                    }
                    None if e.catch_all().is_some() => {}
                    None => self.problem(unknown_variant(ty, e)),
                }
                Ok(())
            }
            Token::Object if !e.is_string_enum() => {
                self.open()?;
                if self.peek() == Some(b'}') {
                    self.problem(ProblemKind::NotOneKey {
                        expected: type_text(ty, keep),
                    });
                    return self.close(b'}');
                }
                let key = self.key(0)?;
                let variant = variant_named(e, &self.text_of(key));
                match variant {
                    Some(v) if !matches!(v.kind, VariantDefKind::Unit) => {
                        self.push(Seg::Key(key));
                        self.content(v)?;
                        self.pop();
                        // Another key: the walk lists the object's count alone.
                        if self.more(b'}')? {
                            return Err(GiveUp);
                        }
                    }
                    _ => {
                        self.skip()?;
                        if self.more(b'}')? {
                            return Err(GiveUp);
                        }
                        match variant {
                            Some(_) => self.problem(ProblemKind::WrongType {
                                expected: type_text(ty, keep),
                                found: JsonKind::Object,
                            }),
                            None => self.problem(unknown_variant(ty, e)),
                        }
                    }
                }
                self.close(b'}')
            }
            _ => self.mismatch(token, ty),
        }
    }

    /// A variant's content, at the variant's path.
    fn content(&mut self, v: &'static VariantDef) -> Res {
        let saved = self.here;
        self.here = self.memo.index.child(self.record, saved, variant_label(v));
        let token = self.token()?;
        match &v.kind {
            VariantDefKind::Unit if token == Token::Null => self.literal(b"null")?,
            VariantDefKind::Unit => self.mismatch(token, &Type::Unit)?,
            VariantDefKind::Newtype(ty) => self.value(ty, 0)?,
            VariantDefKind::Tuple(items) if token == Token::Array => {
                self.items(Items::Each(items), Some(items.len()))?;
            }
            VariantDefKind::Tuple(items) => {
                self.problem(ProblemKind::WrongType {
                    expected: Cow::Owned(format!("an array of {} items", items.len())),
                    found: token.kind(),
                });
                self.skip()?;
            }
            VariantDefKind::Struct(s) if token == Token::Object => self.structure(s)?,
            VariantDefKind::Struct(_) => {
                self.problem(ProblemKind::WrongType {
                    expected: Cow::Owned(format!("the fields of variant {}", v.rust_name)),
                    found: token.kind(),
                });
                self.skip()?;
            }
        }
        self.here = saved;
        Ok(())
    }
}

/// The text of a string of `text` read before, decoded.
#[inline(always)]
fn text_of(text: &str, key: Key) -> Cow<'_, str> {
    let (start, end) = (key.start as usize, key.end as usize);
    if key.escaped {
        Cow::Owned(unescape(&text.as_bytes()[start..end]))
    } else {
        // Between two ASCII quotes of UTF-8 text: on character boundaries.
        Cow::Borrowed(text.get(start..end).unwrap_or_default())
    }
}

fn primary_name(field: &'static FieldDef) -> Option<&'static str> {
    field.receiver.as_ref().map(|r| r.name.as_str())
}

/// The tagged variant the receiver reads `text` as.
fn variant_named<'e>(e: &'e EnumDef, text: &str) -> Option<&'e VariantDef> {
    let text = text.as_bytes();
    e.tagged_variants()
        .find(|v| v.receiver.iter().any(|t| same(t.as_bytes(), text)))
}

fn variant_label(v: &'static VariantDef) -> Label<'static> {
    Label::Variant(
        v.receiver
            .first()
            .map_or(v.rust_name.as_str(), String::as_str),
    )
}

/// The problem of a tag `e` does not know: the tags the receiver knows, the first
/// [`MAX_KNOWN_TAGS`] of them by name.
#[cold]
fn unknown_variant(ty: &'static Type, e: &'static EnumDef) -> ProblemKind {
    let mut known = Vec::new();
    let mut known_count = 0;
    for tag in e.tagged_variants().flat_map(|v| v.receiver.iter()) {
        if known.len() < MAX_KNOWN_TAGS {
            known.push(keep(tag.as_str()));
        }
        known_count += 1;
    }
    ProblemKind::UnknownVariant {
        expected: type_text(ty, keep),
        known,
        known_count,
    }
}
