//! The fast path of `receive`: one pass over the bytes by a JSON parser of its own that is a
//! `serde::Deserializer`, following the receiver view of the schema beside `T`'s
//! `Deserialize`, recording the presence of every field on the way, and watching for every
//! point where `receive` is stricter than serde.
//!
//! It reads what `serde_json::Deserializer` reads and hands each visitor what serde_json would
//! hand it: numbers through the same `visit_*` (`u64`, then `i64`, then `f64`, `-0` a float,
//! floats parsed by serde_json itself), strings without escapes borrowed and others decoded,
//! `null` to `visit_none` and `visit_unit`, map keys read as numbers and booleans where the
//! key type asks (serde_json's `MapKey`). A key is read once, where it is matched to its
//! field, and recorded into the same compact [`Record`] the full walk builds. The parser
//! gives up (and `receive` takes the full path: scan, walk, every problem listed) on any
//! error, and wherever the full path could find a problem that serde does not:
//!
//! - a key twice in one object (serde rejects a declared field twice itself; the parser
//!   compares fingerprints of every other key);
//! - a struct written as an array, a unit variant written as `{"Variant": null}`, or an
//!   all-unit enum written as an object;
//! - a value the type ignores: serde_json skips it without checking UTF-8, surrogates or
//!   duplicate keys; the parser checks all three as it skips;
//! - a limit of [`Limits`] reached, or serde_json's own nesting limit;
//! - a struct with a flattened field (serde reads it as a map, buffers the values and reads
//!   the flattened ones afterwards, where an `Option` swallows their errors);
//! - anything the schema does not say how to follow: bytes, serde_json's private forms
//!   (`RawValue`, arbitrary-precision numbers), a map where the schema has a scalar.
//!
//! Types whose schema holds a set (serde merges duplicate items), or an internally tagged,
//! adjacently tagged or untagged enum, or one with `#[serde(untagged)]` variants (serde
//! buffers their content, and the tag may come after the fields it decides), always take
//! the full path: see [`Plan`].
//!
//! With the feature `__check-fast-path` (this project's tests and fuzz target), every payload
//! the fast path accepts goes through the full path too, which must accept it with the same
//! presence.

use std::sync::Arc;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use contract_schema::constraint::IntValue;
use contract_schema::model::{
    Constraint, EnumDef, IntKind, Repr, StructDef, Type, Unknown, VariantDefKind,
};
use contract_schema::{Schema, View};

use crate::runtime::options::{serde_json_private, Limits};
use crate::runtime::plan::{
    constraint_admits, field_named, fingerprint, LastShape, Plan, Shape, StructFacts, Value,
};
use crate::runtime::presence::{Label, Record, Recorded, ROOT};
use crate::runtime::scratch::{Checkpoint, KeySet, Memo, Opened, Resume};
use crate::runtime::tape::number::{
    f32_number, i128_of, key_number, number, number_end, plain_int, u128_of, Number,
};
use crate::runtime::tape::scan::{escape_at, plain_run, NodeKind};

/// Reads `T` from `bytes` in one pass and records its presence; where the full path must
/// decide (serde refused, or a stricter point was met), the bytes as text if they are UTF-8.
pub(crate) fn receive<'b, T: serde::de::DeserializeOwned>(
    schema: &'static Schema,
    plan: &'static Plan,
    bytes: &'b [u8],
    limits: &Limits,
    memo: &mut Memo,
) -> Result<(T, Arc<Recorded>), Option<&'b str>> {
    read::<T>(schema, plan, bytes, limits, memo, true).map(|(value, record, _)| (value, record))
}

/// [`receive`] of the value at the start of `bytes`, whatever follows it: the value, its
/// record and where it ends, or `None` wherever `receive` would not accept the value alone.
#[cfg_attr(not(feature = "derive"), allow(dead_code))] // the envelope's, which needs `derive`
pub(crate) fn receive_first<T: serde::de::DeserializeOwned>(
    schema: &'static Schema,
    plan: &'static Plan,
    bytes: &[u8],
    limits: &Limits,
    memo: &mut Memo,
) -> Option<(T, Arc<Recorded>, usize)> {
    read::<T>(schema, plan, bytes, limits, memo, false).ok()
}

/// [`receive`], with `whole`; without it, what follows the value is not read, and the value
/// ends where the reader stopped.
#[inline(always)]
fn read<'b, T: serde::de::DeserializeOwned>(
    schema: &'static Schema,
    plan: &'static Plan,
    bytes: &'b [u8],
    limits: &Limits,
    memo: &mut Memo,
    whole: bool,
) -> Result<(T, Arc<Recorded>, usize), Option<&'b str>> {
    if bytes.len() > limits.max_bytes {
        return Err(None);
    }
    // The payload is UTF-8 throughout or the full path refuses it (serde_json checks only the
    // strings it reads): checked once here, so that a string is a slice of the text.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(None);
    };
    let mut record = memo.start(schema, View::Receiver);
    let mut fast = Fast {
        schema,
        plan,
        record: &mut record,
        memo: &mut *memo,
        limits: *limits,
        depth: 0,
        bail: false,
        node: Node::Ty(&schema.root),
        here: ROOT,
        last_shape: LastShape::default(),
        input: bytes,
        text,
        at: 0,
        scratch: String::new(),
        checkpoint: None,
        resumable: true,
        stopped_at: usize::MAX,
    };
    let value = T::deserialize(&mut fast);
    // serde_json refuses anything but whitespace after the value.
    let end = fast.at;
    let read = value.is_ok() && !fast.bail && (!whole || fast.peek().is_none());
    if read {
        fast.name_unknown();
    }
    let (checkpoint, resumable, stopped_at) = (fast.checkpoint, fast.resumable, fast.stopped_at);
    match value {
        Ok(value) if read => Ok((value, memo.finish(record), end)),
        _ => {
            // Not past the first point where the reader gave up: a visitor that went on past
            // it read more, but the rejection lists from there.
            match checkpoint.filter(|c| resumable && stopped_at >= c.at) {
                // Kept for the one-pass rejection to go on from.
                Some(checkpoint) => memo.resume = Some(Resume { record, checkpoint }),
                None => memo.abandon(&mut record),
            }
            Err(Some(text))
        }
    }
}

/// What the pass carries from value to value: the parser's place in the input, and the
/// schema's beside it.
struct Fast<'de, 'i> {
    schema: &'static Schema,
    plan: &'static Plan,
    record: &'i mut Record<'static>,
    memo: &'i mut Memo,
    limits: Limits,
    /// Arrays and objects open.
    depth: usize,
    /// A point where the full path decides was met.
    bail: bool,
    /// What the schema says of the value about to be read, and its path: set by whoever
    /// asks for the next value, read where the value is parsed.
    node: Node,
    here: u32,
    /// The last type whose shape was asked for, and its shape.
    last_shape: LastShape,
    /// The payload (valid UTF-8: `text` is the same bytes), and the offset of the next byte
    /// to read.
    input: &'de [u8],
    text: &'de str,
    at: usize,
    /// The text of the last string with escapes, decoded.
    scratch: String,
    /// The state of the top-level struct as its last key began, and whether the one-pass
    /// rejection can go on from there (no key of the top-level struct was unknown before).
    checkpoint: Option<Checkpoint>,
    resumable: bool,
    /// Where the reader first gave up (`usize::MAX` until it does).
    stopped_at: usize,
}

impl Fast<'_, '_> {
    fn child(&mut self, parent: u32, label: Label<'static>) -> u32 {
        self.memo.index.child(self.record, parent, label)
    }

    /// Names the unknown keys met so far in the record, in the order they came.
    fn name_unknown(&mut self) {
        let max = self.limits.max_unknown_names;
        for (here, start, end) in self.memo.unknown.drain(..) {
            if let Some(name) = self.input.get(start..end) {
                self.record.unknown_name(here, name, max);
            }
        }
    }

    /// Whether `value` is within the constraint of the type at the cursor, if it has one
    /// (serde reads the kind and no more),
    /// and an integer within its kind's range (serde's integers refuse the rest themselves,
    /// but a type such as `Saturating` clamps it).
    #[inline(always)]
    fn admits(&self, value: Value<'_>) -> bool {
        let Node::Ty(ty) = self.node else {
            return true;
        };
        let direct = match ty {
            Type::Option(inner) => inner,
            ty => ty,
        };
        let ty = match direct {
            Type::Int(_) => direct,
            Type::Named(_) => match self.plan.shape(self.schema, ty) {
                Shape::Scalar(ty) => ty,
                _ => return true,
            },
            Type::Constrained(_) if self.plan.constrained => direct,
            _ => return true,
        };
        match (ty, value) {
            (Type::Int(kind), Value::Int(v)) => {
                IntValue::min_of(*kind) <= v && v <= IntValue::max_of(*kind)
            }
            (Type::Constrained(c), value) => constraint_admits(c, value),
            _ => true,
        }
    }
}

/// What the schema says of the value being read.
#[derive(Clone, Copy)]
enum Node {
    /// A value of this type.
    Ty(&'static Type),
    /// The fields of a struct variant.
    Struct(&'static StructDef),
    /// The items of a tuple variant.
    Tuple(&'static [Type]),
    /// A value nobody reads (an unknown field, `Any`): walked only for what serde_json skips.
    Ignore,
}

impl Node {
    #[inline]
    fn shape(self, fast: &Fast<'_, '_>) -> Shape {
        match self {
            Node::Ty(ty) => fast.last_shape.of(fast.plan, fast.schema, ty),
            Node::Struct(s) => Shape::Struct(s),
            Node::Tuple(items) => Shape::Tuple(items),
            Node::Ignore => Shape::Any,
        }
    }

    /// The node inside an `Option`'s `Some`.
    fn some(self) -> Node {
        match self {
            Node::Ty(Type::Option(inner)) => Node::Ty(inner),
            other => other,
        }
    }
}

// ---- the parser ------------------------------------------------------------------------

/// The fast path's one error: it gives up, and the full path decides (and says why).
#[derive(Debug)]
pub(crate) struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("handoff: the full check decides")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

type Res<T> = Result<T, Stop>;

/// serde_json's nesting limit: it refuses the 128th array or object open.
const SERDE_JSON_DEPTH: usize = 127;

impl<'de> Fast<'de, '_> {
    /// Gives up: the full path decides.
    #[cold]
    fn stop<T>(&mut self) -> Res<T> {
        self.bail = true;
        self.stopped_at = self.stopped_at.min(self.at);
        Err(Stop)
    }

    /// The next byte past whitespace (not consumed).
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        // Mostly the next byte is no space (compact JSON): one comparison says so.
        match self.input.get(self.at) {
            Some(&b) if b > b' ' => Some(b),
            _ => self.peek_past_space(),
        }
    }

    /// [`Fast::peek`] past whitespace.
    fn peek_past_space(&mut self) -> Option<u8> {
        while let Some(&b) = self.input.get(self.at) {
            if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(b);
            }
            self.at += 1;
        }
        None
    }

    /// Consumes `byte`, the next past whitespace, or gives up.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Res<()> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            self.stop()
        }
    }

    /// Consumes `word` at the cursor (a literal whose first byte was peeked).
    fn literal(&mut self, word: &'static [u8]) -> Res<()> {
        if self.input.get(self.at..self.at + word.len()) == Some(word) {
            self.at += word.len();
            Ok(())
        } else {
            self.stop()
        }
    }

    /// Reads the string whose opening quote is at the cursor: its text borrowed from the
    /// input, or `None` when it has escapes and its text was decoded into `scratch`.
    #[inline(always)]
    fn string(&mut self) -> Res<Option<&'de str>> {
        let input = self.input;
        let start = self.at + 1;
        let end = plain_run(input, start);
        if input.get(end) != Some(&b'"') {
            return self.escaped(start, end);
        }
        if end - start > self.limits.max_string_bytes {
            return self.stop();
        }
        self.at = end + 1;
        // Between two ASCII bytes of UTF-8 text: on character boundaries.
        match self.text.get(start..end) {
            Some(text) => Ok(Some(text)),
            None => self.stop(),
        }
    }

    /// The rest of [`Fast::string`] from `at`, the first byte that is not plain text.
    #[cold]
    fn escaped(&mut self, start: usize, mut at: usize) -> Res<Option<&'de str>> {
        let input = self.input;
        self.scratch.clear();
        let mut from = start;
        loop {
            let Some(plain) = self.text.get(from..at) else {
                return self.stop();
            };
            self.scratch.push_str(plain);
            match input.get(at) {
                Some(b'"') => break,
                Some(b'\\') => {
                    let Some((c, len)) = escape_at(input, at) else {
                        return self.stop();
                    };
                    self.scratch.push(c);
                    at += len;
                    from = at;
                    at = plain_run(input, at);
                }
                _ => return self.stop(),
            }
        }
        if at - start > self.limits.max_string_bytes {
            return self.stop();
        }
        self.at = at + 1;
        Ok(None)
    }

    /// Reads the number at the cursor by JSON's grammar: its text, and whether it has a
    /// fraction or an exponent.
    fn number_text(&mut self) -> Res<(&'de [u8], NodeKind)> {
        let start = self.at;
        match number_end(self.input, start) {
            Some((end, kind)) => {
                self.at = end;
                Ok((&self.input[start..end], kind))
            }
            None => self.stop(),
        }
    }

    /// Hands `number` to `visitor` as serde_json would, once the constraint at the cursor
    /// admits it.
    #[inline(always)]
    fn visit_number<V: Visitor<'de>>(&mut self, number: Option<Number>, v: V) -> Res<V::Value> {
        match number {
            Some(Number::U64(n)) if self.admits_u64(n) => v.visit_u64(n),
            Some(Number::I64(n)) if self.admits(Value::Int(IntValue::from_i128(n.into()))) => {
                v.visit_i64(n)
            }
            Some(Number::F64(n)) => v.visit_f64(n),
            _ => self.stop(),
        }
    }

    /// [`Fast::admits`] for a non-negative integer: where the cursor is at a plain integer
    /// type (the common case), its range alone.
    #[inline(always)]
    fn admits_u64(&self, n: u64) -> bool {
        let kind = match self.node {
            Node::Ty(Type::Int(kind)) => kind,
            Node::Ty(Type::Option(inner)) => match &**inner {
                Type::Int(kind) => kind,
                _ => return self.admits(Value::Int(IntValue::from_u128(n.into()))),
            },
            _ => return self.admits(Value::Int(IntValue::from_u128(n.into()))),
        };
        u128::from(n) <= IntKind::max(*kind)
    }

    /// A number value for a visitor that takes any.
    #[inline(always)]
    fn number<V: Visitor<'de>>(&mut self, v: V) -> Res<V::Value> {
        match self.plain_int() {
            Some(n) => self.visit_number(Some(n), v),
            None => {
                let (text, kind) = self.number_text()?;
                self.visit_number(number(text, kind), v)
            }
        }
    }

    /// The number at the cursor when it is an integer of at most 18 digits (which a `u64`,
    /// or negated an `i64`, holds) read by JSON's grammar (no leading zero, no fraction, no
    /// exponent), as serde_json hands it over (`-0` is the float `-0.0`, so not here), read
    /// in the one pass that finds its end; `None` (the cursor where it was) for any other.
    #[inline(always)]
    fn plain_int(&mut self) -> Option<Number> {
        let (negative, n, at) = plain_int(self.input, self.at)?;
        let number = if negative {
            // At most 18 digits, not zero: `-n` is within `i64`.
            Number::I64((n as i64).wrapping_neg())
        } else {
            Number::U64(n)
        };
        self.at = at;
        Some(number)
    }

    /// A string value: within the constraint at the cursor, then to the visitor.
    fn str_value<V: Visitor<'de>>(&mut self, v: V) -> Res<V::Value> {
        let text = self.string()?;
        if let Node::Ty(ty) = self.node {
            if !self.str_admitted(ty, text.unwrap_or(&self.scratch)) {
                return self.stop();
            }
        }
        match text {
            Some(text) => v.visit_borrowed_str(text),
            None => v.visit_str(&self.scratch),
        }
    }

    /// Whether the string `text` may be read as a value of `ty` here.
    #[inline(always)]
    fn str_admitted(&self, ty: &'static Type, text: &str) -> bool {
        if !self.admits(Value::Str(text)) {
            return false;
        }
        // Only a named type (or an `Option` of one) can be an enum.
        let mut inner = ty;
        while let Type::Option(some) = inner {
            inner = some;
        }
        // An enum read as a string by a hand-written `Deserialize` (chrono's `Weekday` reads
        // names in any case): which strings it takes is for the full path to say.
        !(matches!(inner, Type::Named(_)) && matches!(self.node.shape(self), Shape::Enum(_)))
    }

    /// Opens an array or an object: one level deeper, within the limits.
    #[inline(always)]
    fn enter(&mut self) -> Res<()> {
        self.at += 1;
        self.depth += 1;
        if self.depth > self.limits.max_depth.min(SERDE_JSON_DEPTH) {
            return self.stop();
        }
        Ok(())
    }

    /// Skips a value nobody reads, checking all the full path checks of it (serde_json
    /// would skip it unchecked): the grammar, UTF-8, escapes, duplicate keys, the limits.
    fn skip(&mut self) -> Res<()> {
        match self.peek() {
            Some(b'n') => self.literal(b"null"),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'-' | b'0'..=b'9') => self.number_text().map(drop),
            Some(b'"') => self.string().map(drop),
            Some(b'[') => {
                self.enter()?;
                if self.peek() != Some(b']') {
                    loop {
                        self.skip()?;
                        if self.peek() != Some(b',') {
                            break;
                        }
                        self.at += 1;
                    }
                }
                self.expect(b']')?;
                self.depth -= 1;
                Ok(())
            }
            Some(b'{') => {
                self.enter()?;
                let mut keys = KeySet::open(self.memo);
                let mut n = 0;
                if self.peek() != Some(b'}') {
                    loop {
                        n += 1;
                        if self.peek() != Some(b'"') || n > self.limits.max_keys_per_object {
                            return self.stop();
                        }
                        let key = self.string()?;
                        let key = fresh(self.memo, &mut keys, key.unwrap_or(&self.scratch));
                        if !key {
                            return self.stop();
                        }
                        self.expect(b':')?;
                        self.skip()?;
                        if self.peek() != Some(b',') {
                            break;
                        }
                        self.at += 1;
                    }
                }
                self.expect(b'}')?;
                keys.close(self.memo);
                self.depth -= 1;
                Ok(())
            }
            _ => self.stop(),
        }
    }

    /// An array, read by `v` item by item beside the schema.
    fn seq<V: Visitor<'de>>(&mut self, v: V) -> Res<V::Value> {
        let here = self.here;
        let (items, here) = match self.node.shape(self) {
            Shape::Seq(item) => (Items::One(item), self.memo.index.items(self.record, here)),
            Shape::Tuple(items) => (Items::Each(items), self.memo.index.items(self.record, here)),
            Shape::Any => (Items::Ignore, here),
            // A struct written as an array, or a sequence where the schema has none.
            _ => return self.stop(),
        };
        self.enter()?;
        let value = v.visit_seq(Seq {
            fast: &mut *self,
            items,
            here,
            n: 0,
        });
        self.depth -= 1;
        match value {
            // serde_json refuses items the visitor left unread.
            Ok(value) if self.peek() == Some(b']') => {
                self.at += 1;
                Ok(value)
            }
            _ => self.stop(),
        }
    }

    /// An object, read by `v` key by key beside the schema.
    fn map<V: Visitor<'de>>(&mut self, v: V) -> Res<V::Value> {
        let here = self.here;
        let node = match self.node {
            Node::Ty(ty) => std::ptr::from_ref(ty) as usize,
            Node::Struct(def) => std::ptr::from_ref(def) as usize,
            _ => 0,
        };
        // A struct opened here before, or the value's shape.
        let opened = match self.memo.opened(here, node) {
            Some(opened) => Ok(opened),
            None => match self.node.shape(self) {
                Shape::Struct(def) if node != 0 => {
                    Ok(self.memo.open(self.plan, self.record, here, node, def))
                }
                shape => Err(shape),
            },
        };
        // Where the struct's run of `memo.seen` starts, past 64 fields.
        let mut spilled = None;
        let mode = match opened {
            Ok(Opened {
                def, base, facts, ..
            }) => {
                let seen = if def.fields.len() <= 64 {
                    Seen::Bits(0)
                } else {
                    let at = self.memo.seen.len();
                    self.memo.seen.resize(at + def.fields.len(), false);
                    spilled = Some(at);
                    Seen::Spilled(at)
                };
                Mode::Struct {
                    def,
                    base,
                    seen,
                    next_guess: 0,
                    facts,
                }
            }
            Err(Shape::Map(key, value)) => Mode::Data {
                key: self.plan.shape(self.schema, key),
                value,
                values: self.child(here, Label::Values),
            },
            Err(Shape::Any) => Mode::Any,
            Err(_) => return self.stop(),
        };
        self.enter()?;
        let mut map = Map {
            keys: KeySet::open(self.memo),
            fast: &mut *self,
            mode,
            here,
            n: 0,
            mark: (0, 0),
        };
        let value = v.visit_map(&mut map);
        let Map {
            keys,
            mode,
            mark,
            n,
            ..
        } = map;
        if value.is_err() {
            self.keep_checkpoint(here, mode, mark, n);
        }
        keys.close(self.memo);
        if let Some(at) = spilled {
            self.memo.seen.truncate(at);
        }
        self.depth -= 1;
        match value {
            // serde_json refuses keys the visitor left unread.
            Ok(value) if self.peek() == Some(b'}') => {
                self.at += 1;
                Ok(value)
            }
            _ => self.stop(),
        }
    }

    /// Where the object at `here` read as `mode` failed, after `n` keys the last of which
    /// began at `mark`: if it is the top-level struct (of at most 64 fields), where the
    /// one-pass rejection can go on from.
    #[cold]
    fn keep_checkpoint(&mut self, here: u32, mode: Mode, mark: (usize, u32), n: usize) {
        if let Mode::Struct {
            def,
            seen: Seen::Bits(_),
            ..
        } = mode
        {
            if self.depth == 1 && here == ROOT && n > 0 {
                self.checkpoint = Some(Checkpoint {
                    def,
                    here,
                    at: mark.0,
                    keys: n - 1,
                    arrived: mark.1,
                });
            }
        }
    }

    /// An externally tagged enum: a variant's name, or an object of one key, the variant,
    /// whose value is its content.
    fn variant<V: Visitor<'de>>(&mut self, e: &'static EnumDef, v: V) -> Res<V::Value> {
        let here = self.here;
        match self.peek() {
            Some(b'"') => {
                let tag = self.string()?;
                let text = tag.unwrap_or(&self.scratch);
                let variant = e
                    .variants
                    .iter()
                    .find(|v| v.receiver.iter().any(|t| t == text));
                if let Some(v) = variant.filter(|v| matches!(v.kind, VariantDefKind::Unit)) {
                    self.child(here, variant_label(v));
                }
                match tag {
                    Some(tag) => v.visit_enum(BorrowedStrDeserializer::<Stop>::new(tag)),
                    None => v.visit_enum(StrDeserializer::<Stop>::new(&self.scratch)),
                }
            }
            // `{"Variant": null}` for an enum of names: serde takes it, `receive` does not.
            Some(b'{') if !e.is_string_enum() => {
                self.enter()?;
                if self.peek() != Some(b'"') {
                    return self.stop();
                }
                let tag = match self.string()? {
                    Some(tag) => Tag::Borrowed(tag),
                    None => Tag::Owned(std::mem::take(&mut self.scratch)),
                };
                let text = match &tag {
                    Tag::Borrowed(tag) => tag,
                    Tag::Owned(tag) => tag.as_str(),
                };
                let variant = e
                    .variants
                    .iter()
                    .find(|v| v.receiver.iter().any(|t| t == text));
                let (node, variant) = match variant.map(|v| (v, &v.kind)) {
                    Some((v, VariantDefKind::Newtype(ty))) => (Node::Ty(ty), v),
                    Some((v, VariantDefKind::Tuple(items))) => (Node::Tuple(items), v),
                    Some((v, VariantDefKind::Struct(s))) => (Node::Struct(s), v),
                    // A unit variant as an object; a name serde may map to a catch-all.
                    _ => return self.stop(),
                };
                let here = self.child(here, variant_label(variant));
                self.expect(b':')?;
                self.node = node;
                self.here = here;
                let value = v.visit_enum(Variant {
                    fast: &mut *self,
                    tag,
                });
                self.depth -= 1;
                match value {
                    Ok(value) if self.peek() == Some(b'}') => {
                        self.at += 1;
                        Ok(value)
                    }
                    _ => self.stop(),
                }
            }
            _ => self.stop(),
        }
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
            match self.peek() {
                Some(b'-' | b'0'..=b'9') => self.number(v),
                _ => self.stop(),
            }
        }
    )*};
}

macro_rules! strings {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
            match self.peek() {
                Some(b'"') => self.str_value(v),
                _ => self.stop(),
            }
        }
    )*};
}

macro_rules! wide {
    ($($method:ident($read:ident, $visit:ident, $wide:ident);)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
            if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
                return self.stop();
            }
            let (text, kind) = self.number_text()?;
            match (kind, $read(text)) {
                (NodeKind::Int, Some(n)) if self.admits(Value::Int(IntValue::$wide(n))) => {
                    v.$visit(n)
                }
                (NodeKind::Int, Some(_)) => self.stop(),
                _ => self.visit_number(number(text, kind), v),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for &mut Fast<'de, '_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                v.visit_unit()
            }
            Some(b't') => {
                self.literal(b"true")?;
                v.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                v.visit_bool(false)
            }
            Some(b'-' | b'0'..=b'9') => self.number(v),
            Some(b'"') => self.str_value(v),
            Some(b'[') => self.seq(v),
            Some(b'{') => self.map(v),
            _ => self.stop(),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.peek() {
            Some(b't') => {
                self.literal(b"true")?;
                v.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                v.visit_bool(false)
            }
            _ => self.stop(),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f64
    }

    wide! {
        deserialize_i128(i128_of, visit_i128, from_i128);
        deserialize_u128(u128_of, visit_u128, from_u128);
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
            return self.stop();
        }
        let (text, kind) = self.number_text()?;
        self.visit_number(f32_number(text, kind), v)
    }

    strings! {
        deserialize_char deserialize_str deserialize_string deserialize_identifier
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Res<V::Value> {
        // serde_json hands out a string's raw bytes unchecked.
        self.stop()
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Res<V::Value> {
        self.stop()
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return v.visit_none();
        }
        self.node = self.node.some();
        v.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return v.visit_unit();
        }
        self.stop()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Res<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Res<V::Value> {
        if serde_json_private(name) {
            // `RawValue` and its kin: serde_json's private protocol.
            return self.stop();
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.peek() {
            Some(b'[') => self.seq(v),
            _ => self.stop(),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Res<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Res<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match (self.node.shape(self), self.peek()) {
            // A struct with a flattened field: serde buffers the values and reads the
            // flattened ones later, where an `Option` swallows their errors.
            (Shape::Struct(_), _) => self.stop(),
            (_, Some(b'{')) => self.map(v),
            _ => self.stop(),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Res<V::Value> {
        match self.peek() {
            Some(b'{') => self.map(v),
            // A struct written as an array: the full path says what `receive` thinks of it.
            _ => self.stop(),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Res<V::Value> {
        match self.node.shape(self) {
            Shape::Enum(e) if e.repr == Repr::External => self.variant(e, v),
            _ => self.stop(),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        // serde_json would skip the value without checking it.
        self.skip()?;
        v.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        true
    }
}

// ---- sequences -------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum Items {
    One(&'static Type),
    Each(&'static [Type]),
    Ignore,
}

struct Seq<'f, 'de, 'i> {
    fast: &'f mut Fast<'de, 'i>,
    items: Items,
    here: u32,
    n: usize,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de, '_> {
    type Error = Stop;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<Option<S::Value>> {
        let fast = &mut *self.fast;
        match fast.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if self.n > 0 => {
                fast.at += 1;
                if let Some(b']') | None = fast.peek() {
                    return fast.stop();
                }
            }
            Some(_) if self.n == 0 => {}
            _ => return fast.stop(),
        }
        fast.node = match self.items {
            Items::One(item) => Node::Ty(item),
            Items::Each(items) => items.get(self.n).map_or(Node::Ignore, Node::Ty),
            Items::Ignore => Node::Ignore,
        };
        fast.here = self.here;
        self.n += 1;
        seed.deserialize(fast).map(Some)
    }
}

// ---- objects ---------------------------------------------------------------------------

/// How an object's keys are read.
#[derive(Clone, Copy)]
enum Mode {
    /// A struct's fields; the ids of their paths start at `base`, whether each arrived at
    /// `seen`.
    Struct {
        def: &'static StructDef,
        base: u32,
        seen: Seen,
        next_guess: usize,
        /// What the plan knows of its fields (their shapes).
        facts: &'static StructFacts,
    },
    /// A map: its keys (of this shape) are data, its values at path `values`.
    Data {
        key: Shape,
        value: &'static Type,
        values: u32,
    },
    /// A value nobody reads.
    Any,
}

/// Which fields of a struct arrived: bits for up to 64 fields, else a run of `memo.seen`
/// starting here.
#[derive(Clone, Copy)]
enum Seen {
    Bits(u64),
    Spilled(usize),
}

struct Map<'f, 'de, 'i> {
    fast: &'f mut Fast<'de, 'i>,
    mode: Mode,
    here: u32,
    /// Keys read so far.
    n: usize,
    /// The keys seen that name no field, by fingerprint.
    keys: KeySet,
    /// Where its last key began (the offset of its quote), and how many paths had arrived
    /// then.
    mark: (usize, u32),
}

impl<'de> Fast<'de, '_> {
    /// What follows a key of struct `def` that names no field (its text `key`, or the
    /// scratch): the captured extra keys, or an unknown name.
    fn other_key(
        &mut self,
        keys: &mut KeySet,
        here: u32,
        def: &'static StructDef,
        key: Option<&'de str>,
    ) -> Res<(Node, u32)> {
        let text = key.unwrap_or(&self.scratch);
        if !fresh(self.memo, keys, text) {
            return self.stop();
        }
        match (&def.extra, def.unknown) {
            (Some(extra), Unknown::Capture) => {
                Ok((Node::Ty(extra), self.child(here, Label::Values)))
            }
            _ => {
                match key {
                    // Named in the record once the call succeeds: a call that fails copies
                    // no name.
                    Some(key) => {
                        let start = key.as_ptr() as usize - self.input.as_ptr() as usize;
                        self.memo.unknown.push((here, start, start + key.len()));
                    }
                    None => {
                        // Names in the record that forgetting arrivals would not undo.
                        self.resumable = false;
                        self.name_unknown();
                        let max = self.limits.max_unknown_names;
                        self.record.unknown_name(here, self.scratch.as_bytes(), max);
                    }
                }
                Ok((Node::Ignore, here))
            }
        }
    }
}

/// Whether the key `key` is new in the object of `keys`, and not one of serde_json's
/// private names.
fn fresh(memo: &mut Memo, keys: &mut KeySet, key: &str) -> bool {
    !serde_json_private(key) && keys.insert(memo, fingerprint(0, key.as_bytes()))
}

impl<'de> MapAccess<'de> for Map<'_, 'de, '_> {
    type Error = Stop;

    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<Option<S::Value>> {
        let fast = &mut *self.fast;
        match fast.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if self.n > 0 => {
                fast.at += 1;
                if fast.peek() != Some(b'"') {
                    return fast.stop();
                }
            }
            Some(b'"') if self.n == 0 => {}
            _ => return fast.stop(),
        }
        // Where this key begins, for the one-pass rejection to go on from.
        self.mark = (fast.at, fast.record.arrived);
        self.n += 1;
        if self.n > fast.limits.max_keys_per_object {
            return fast.stop();
        }
        let key = fast.string()?;
        let shape = match self.mode {
            Mode::Struct {
                def,
                base,
                ref mut seen,
                ref mut next_guess,
                facts,
            } => {
                match field_named(def, *next_guess, key.unwrap_or(&fast.scratch).as_bytes()) {
                    Some(f) => {
                        *next_guess = f + 1;
                        let again = match seen {
                            Seen::Bits(bits) => {
                                std::mem::replace(bits, *bits | 1 << f) & 1 << f != 0
                            }
                            Seen::Spilled(at) => {
                                std::mem::replace(&mut fast.memo.seen[*at + f], true)
                            }
                        };
                        if again {
                            // Serde's "duplicate field", or the same key twice. At the top
                            // level, the one-pass rejection does not go on from here (it
                            // takes the arrivals since the field's to be this key's).
                            fast.resumable &= fast.depth != 1;
                            return fast.stop();
                        }
                        // At most 64 fields here, or fewer than the paths: `f` fits.
                        let id = base + f as u32;
                        fast.record.arrive(id);
                        // A compound field's shape is known from the plan: reading it looks
                        // nothing up.
                        if let Some(slot) = facts.slots.get(f) {
                            if !matches!(slot.shape, Shape::Scalar(_)) {
                                fast.last_shape.set(slot.ty, slot.shape);
                            }
                        }
                        (fast.node, fast.here) = (Node::Ty(&def.fields[f].ty), id);
                    }
                    None => {
                        // The one-pass rejection would need this key's fingerprint.
                        fast.resumable &= fast.depth != 1;
                        (fast.node, fast.here) =
                            fast.other_key(&mut self.keys, self.here, def, key)?;
                    }
                }
                // A field's name goes to the struct's own field visitor as it is.
                return match key {
                    Some(key) => seed.deserialize(BorrowedStrDeserializer::<Stop>::new(key)),
                    None => seed.deserialize(StrDeserializer::<Stop>::new(&fast.scratch)),
                }
                .map(Some);
            }
            Mode::Data { key, value, values } => {
                (fast.node, fast.here) = (Node::Ty(value), values);
                key
            }
            Mode::Any => {
                (fast.node, fast.here) = (Node::Ignore, self.here);
                Shape::Any
            }
        };
        if !fresh(fast.memo, &mut self.keys, key.unwrap_or(&fast.scratch)) {
            return fast.stop();
        }
        // A constrained key's constraint (serde reads the kind and no more): outside it, or
        // an integer this cannot tell, the full path says why.
        if let Shape::Scalar(Type::Constrained(c)) = shape {
            let text = key.unwrap_or(&fast.scratch);
            let admitted = match &**c {
                Constraint::String(_) => constraint_admits(c, Value::Str(text)),
                Constraint::Int { .. } => IntValue::parse(text.as_bytes())
                    .is_some_and(|v| constraint_admits(c, Value::Int(v))),
            };
            if !admitted {
                return fast.stop();
            }
        }
        seed.deserialize(Key {
            text: key,
            copied: &fast.scratch,
            shape,
        })
        .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let fast = &mut *self.fast;
        // The key set the cursor to its value (the key's own seed does not move it).
        fast.expect(b':')?;
        seed.deserialize(fast)
    }
}

/// A map's key as serde_json's `MapKey` reads it: a string, or a number or a boolean
/// spelled in one where the key type asks for one.
struct Key<'a, 'de> {
    /// The key's text, borrowed from the input when it has no escape, else `copied`.
    text: Option<&'de str>,
    copied: &'a str,
    /// The shape of the key type (an enum of names reads its variant from the key).
    shape: Shape,
}

impl<'de> Key<'_, 'de> {
    fn visit<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.text {
            Some(text) => v.visit_borrowed_str(text),
            None => v.visit_str(self.copied),
        }
    }
}

macro_rules! key_numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
            // serde_json reads a key's raw text as a number: a key with an escape is none.
            match self.text.and_then(|text| key_number(text.as_bytes())) {
                Some(Number::U64(n)) => v.visit_u64(n),
                Some(Number::I64(n)) => v.visit_i64(n),
                Some(Number::F64(n)) => v.visit_f64(n),
                None => Err(Stop),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'_, 'de> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        self.visit(v)
    }

    key_numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.text.and_then(|text| i128_of(text.as_bytes())) {
            Some(n) => v.visit_i128(n),
            None => Err(Stop),
        }
    }

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.text.and_then(|text| u128_of(text.as_bytes())) {
            Some(n) => v.visit_u128(n),
            None => Err(Stop),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        match self.text {
            Some("true") => v.visit_bool(true),
            Some("false") => v.visit_bool(false),
            _ => Err(Stop),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Res<V::Value> {
        // A key is never `null`.
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Res<V::Value> {
        if serde_json_private(name) {
            return Err(Stop);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Res<V::Value> {
        match self.shape {
            Shape::Enum(e) if e.repr == Repr::External && e.is_string_enum() => match self.text {
                Some(text) => v.visit_enum(BorrowedStrDeserializer::<Stop>::new(text)),
                None => v.visit_enum(StrDeserializer::<Stop>::new(self.copied)),
            },
            _ => Err(Stop),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Res<V::Value> {
        Err(Stop)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Res<V::Value> {
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

// ---- externally tagged enums -----------------------------------------------------------

/// The name of a variant read from an object's key.
enum Tag<'de> {
    Borrowed(&'de str),
    Owned(String),
}

/// An externally tagged variant's object, its key read: the content comes next (the
/// cursor points at it).
struct Variant<'f, 'de, 'i> {
    fast: &'f mut Fast<'de, 'i>,
    tag: Tag<'de>,
}

impl<'f, 'de, 'i> EnumAccess<'de> for Variant<'f, 'de, 'i> {
    type Error = Stop;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<(S::Value, Self)> {
        let value = match &self.tag {
            Tag::Borrowed(tag) => seed.deserialize(BorrowedStrDeserializer::<Stop>::new(tag))?,
            Tag::Owned(tag) => seed.deserialize(StrDeserializer::<Stop>::new(tag))?,
        };
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, 'de, '_> {
    type Error = Stop;

    fn unit_variant(self) -> Res<()> {
        self.fast.stop()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<S::Value> {
        seed.deserialize(self.fast)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Res<V::Value> {
        self.fast.deserialize_tuple(len, v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Res<V::Value> {
        self.fast.deserialize_struct("", fields, v)
    }
}

fn variant_label(v: &'static contract_schema::model::VariantDef) -> Label<'static> {
    Label::Variant(
        v.receiver
            .first()
            .map_or(v.rust_name.as_str(), String::as_str),
    )
}
