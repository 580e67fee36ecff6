//! The fast path of `send`: the payload is written by this module's own JSON writer, byte for
//! byte what `serde_json::to_vec` writes (serde_json's compact formatter writes every number;
//! strings are escaped as serde_json escapes them), while it follows the sender view of the
//! value's own schema beside the calls of its `Serialize`, records the presence of every
//! field, and gives up (the full path then serializes again with serde_json, records the tape
//! and walks it, listing every problem) at the first call the sender view does not expect:
//!
//! - a field the view does not write, a field written twice, a field the view always writes
//!   left out;
//! - a value of another kind than the schema's (a hand-written `Serialize` or a `schema_as`
//!   that says otherwise), an integer out of its kind's range, a float that is not finite
//!   (serde_json writes `null`), `null` where the type is not nullable, an array or tuple of
//!   another length, a variant the view does not write;
//! - the same key twice in a map (two keys that serialize alike);
//! - a limit of [`Limits`] reached, bytes, serde_json's private forms (`RawValue`,
//!   arbitrary-precision numbers), a struct written as a map (a flattened field), and a map
//!   key serde_json writes in a way this writer leaves to it (a bool or a float);
//! - an error of the value's own `Serialize` (serde_json then reports it on the full path).
//!
//! Writing the bytes itself, rather than wrapping serde_json's serializer, keeps one level of
//! calls per value and the state behind a plain `&mut`. With the feature `__check-fast-path`
//! (this project's tests), every payload this path writes is written again by serde_json,
//! which must give the same bytes.
//!
//! Types whose schema holds a set or an enum that is not externally tagged take the full path
//! always (see [`Plan`]). `send_to` (another contract's receiver view) always takes the full
//! path.

use std::fmt::{self, Display};
use std::sync::atomic::Ordering;

use serde::ser::{self, Serialize, Serializer};
use serde_json::ser::{CompactFormatter, Formatter};

use contract_schema::constraint::{Constraint, IntValue};
use contract_schema::model::{
    Body, EnumDef, FloatKind, IntKind, Repr, StructDef, Type, VariantDef, VariantDefKind,
};
use contract_schema::{Schema, View};

use crate::runtime::options::{serde_json_private, Limits};
use crate::runtime::plan::compiled::Slot;
use crate::runtime::plan::{constraint_admits, fingerprint, same, LastShape, Plan, Shape, Value};
use crate::runtime::presence::{Held, Label, Record, ROOT};
use crate::runtime::scratch::{Frame, Items, KeySet, Memo, Mode, Opened};

/// Writes `value` as `serde_json::to_vec` does into `out` and records its presence; `None`
/// where the full path must decide.
pub(crate) fn send<T: Serialize + ?Sized>(
    schema: &'static Schema,
    plan: &'static Plan,
    value: &T,
    limits: &Limits,
    memo: &mut Memo,
    out: &mut Vec<u8>,
) -> Option<Held> {
    out.clear();
    let record = memo.start(schema, View::Sender);
    let frames = std::mem::take(&mut memo.frames);
    let mut w = Writer {
        schema,
        plan,
        record,
        memo,
        out,
        limits: *limits,
        depth: 0,
        bail: false,
        node: Node::Ty(&schema.root),
        here: ROOT,
        key: None,
        last_shape: LastShape::default(),
        frames,
    };
    let written = value.serialize(&mut w);
    w.frames.clear();
    w.memo.frames = std::mem::take(&mut w.frames);
    if written.is_ok() && !w.bail && w.out.len() <= limits.max_bytes {
        Some(w.memo.finish_held(w.record))
    } else {
        w.memo.abandon(&mut w.record);
        None
    }
}

/// What the schema says of the value about to be written.
#[derive(Clone, Copy)]
enum Node {
    Ty(&'static Type),
    Struct(&'static StructDef),
    Tuple(&'static [Type]),
    /// A map key of this type.
    Key(&'static Type),
    /// Anything (inside `Any`).
    Free,
}

/// The writer: the bytes so far, the presence record, and the cursor into the schema.
struct Writer<'m> {
    schema: &'static Schema,
    plan: &'static Plan,
    record: Record<'static>,
    memo: &'m mut Memo,
    out: &'m mut Vec<u8>,
    limits: Limits,
    depth: usize,
    bail: bool,
    /// The cursor: what the next value is, and its path.
    node: Node,
    here: u32,
    /// The fingerprint of the map key just written.
    key: Option<u64>,
    /// The last type whose shape was asked for, and its shape.
    last_shape: LastShape,
    /// The arrays and objects open, innermost last (the memo's, reused from call to call).
    frames: Vec<Frame>,
}

/// Why the writer stopped: it gave up (the full path decides), or the value's `Serialize`
/// failed (serde_json reports it on the full path). Never shown to a user.
#[derive(Debug)]
pub(crate) struct Stop;

impl Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("handoff: the full check decides")
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: Display>(_: T) -> Self {
        Stop
    }
}

impl Writer<'_> {
    fn shape(&self, node: Node) -> Shape {
        match node {
            Node::Ty(ty) | Node::Key(ty) => self.last_shape.of(self.plan, self.schema, ty),
            Node::Struct(s) => Shape::Struct(s),
            Node::Tuple(items) => Shape::Tuple(items),
            Node::Free => Shape::Any,
        }
    }

    fn child(&mut self, parent: u32, label: Label<'static>) -> u32 {
        self.memo.index.child(&mut self.record, parent, label)
    }

    /// Gives up: the full path decides.
    fn bail(&mut self) -> Stop {
        self.bail = true;
        Stop
    }

    /// Whether the scalar `value` may stand where the cursor points (recording a map key or a
    /// unit variant on the way).
    #[inline(always)]
    fn scalar_fits(&mut self, value: &Scalar<'_>) -> bool {
        let node = self.node;
        if let Node::Key(ty) = node {
            return key_fits(self, ty, value);
        }
        if let Scalar::Str(s) = value {
            if !string_fits(&self.limits, s) {
                return false;
            }
        }
        if let Scalar::Null = value {
            return match node {
                Node::Ty(ty) => self.schema.resolve(ty).is_nullable(),
                Node::Free => true,
                _ => false,
            };
        }
        // Most values are scalars of a field's own type: no lookup for them.
        if let Node::Ty(ty) = node {
            let direct = match ty {
                Type::Option(inner) => inner,
                ty => ty,
            };
            if is_scalar(direct) {
                return scalar_of(direct, value);
            }
        }
        match self.shape(node) {
            Shape::Any => true,
            Shape::Scalar(ty) => scalar_of(ty, value),
            // An enum of names written by a hand-written `Serialize`: its unit variant.
            Shape::Enum(e) => match value {
                Scalar::Str(s) => match unit_variant(e, s) {
                    Some(v) => {
                        let here = self.here;
                        self.child(here, variant_label(v));
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether the cursor is at a value of integer kind `kind` (or an `Option` of one).
    #[inline(always)]
    fn of_kind(&self, kind: IntKind) -> bool {
        match self.node {
            Node::Ty(Type::Int(k)) => *k == kind,
            Node::Ty(Type::Option(inner)) => matches!(**inner, Type::Int(k) if k == kind),
            _ => false,
        }
    }

    #[inline(always)]
    fn check(&mut self, value: &Scalar<'_>) -> Result<(), Stop> {
        if self.scalar_fits(value) {
            Ok(())
        } else {
            Err(self.bail())
        }
    }

    /// Opens an array or object: one level deeper.
    fn open(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(self.bail());
        }
        Ok(())
    }

    /// Enters the variant written as `tag` of the enum at the cursor (opening the object
    /// around its content), points the cursor at its path and writes `{"tag":`.
    fn enter_variant(&mut self, tag: &str) -> Result<VariantKind, Stop> {
        let found = match self.shape(self.node) {
            Shape::Enum(e) if e.repr == Repr::External => {
                let mut written = e.variants.iter().filter(|v| {
                    !matches!(v.kind, VariantDefKind::Unit)
                        && v.sender
                            .as_deref()
                            .is_some_and(|t| same(t.as_bytes(), tag.as_bytes()))
                });
                match (written.next(), written.next()) {
                    // One variant writes this tag (two would need a trial of each content).
                    (Some(v), None) => {
                        let here = self.here;
                        self.here = self.child(here, variant_label(v));
                        match &v.kind {
                            VariantDefKind::Newtype(ty) => Some(VariantKind::Newtype(ty)),
                            VariantDefKind::Tuple(items) => Some(VariantKind::Tuple(items)),
                            VariantDefKind::Struct(s) => Some(VariantKind::Struct(s)),
                            VariantDefKind::Unit => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(kind) = found else {
            return Err(self.bail());
        };
        if !string_fits(&self.limits, tag) {
            return Err(self.bail());
        }
        self.open()?;
        self.out.push(b'{');
        write_str(self.out, tag);
        self.out.push(b':');
        Ok(kind)
    }

    /// Opens an array at the cursor: its items (of `len`, for a tuple).
    fn open_items(&mut self, len: Option<usize>) -> Result<Mode, Stop> {
        let here = self.here;
        let mode = match self.shape(self.node) {
            Shape::Seq(item) => {
                let expected = match self.resolved(self.node) {
                    Some(Type::Array(_, n)) => Some(*n),
                    _ => None,
                };
                Mode::Items {
                    items: Items::One(item),
                    here: self.memo.index.items(&mut self.record, here),
                    n: 0,
                    expected,
                }
            }
            Shape::Tuple(items) => Mode::Items {
                items: Items::Each(items),
                here: self.memo.index.items(&mut self.record, here),
                n: 0,
                expected: Some(items.len()),
            },
            Shape::Any => Mode::Free,
            _ => return Err(self.bail()),
        };
        if let Mode::Items {
            expected: Some(n), ..
        } = mode
        {
            if len.is_some_and(|len| len != n) {
                return Err(self.bail());
            }
        }
        self.open()?;
        Ok(mode)
    }

    /// A struct opened at path `here` for the first time (or after another value there):
    /// its field ids and facts, remembered in the memo.
    #[inline(never)]
    fn open_struct_first(&mut self, here: u32, node: usize) -> Result<Opened, Stop> {
        match self.shape(self.node) {
            Shape::Struct(def) if def.fields.len() <= 64 => {
                Ok(self.memo.open(self.plan, &mut self.record, here, node, def))
            }
            _ => Err(self.bail()),
        }
    }

    /// The type at `node` through options and newtypes.
    fn resolved(&self, node: Node) -> Option<&'static Type> {
        let Node::Ty(mut ty) = node else {
            return None;
        };
        for _ in 0..=self.schema.types.len() {
            ty = match self.schema.resolve(ty) {
                Type::Option(inner) => inner,
                other => return Some(other),
            };
        }
        None
    }

    /// Opens a struct's object at the cursor. Its opening brace is not written yet: the
    /// first field writes it in place of the comma its key starts with, or the close writes
    /// it for a struct of no field.
    ///
    /// Inlined into its callers: a `Mode` handed back through memory from a call is read
    /// back before its stores have landed (see [`Compound`]).
    #[inline(always)]
    fn open_struct(&mut self) -> Result<Mode, Stop> {
        let here = self.here;
        let node = match self.node {
            Node::Ty(ty) => std::ptr::from_ref(ty) as usize,
            Node::Struct(def) => std::ptr::from_ref(def) as usize,
            _ => return Err(self.bail()),
        };
        let opened = match self.memo.opened(here, node) {
            Some(opened) => opened,
            None => self.open_struct_first(here, node)?,
        };
        self.open()?;
        Ok(Mode::Struct {
            base: opened.base,
            seen: 0,
            next_guess: 0,
            facts: opened.facts,
        })
    }
}

/// What a scalar is, for the checks.
enum Scalar<'a> {
    Bool,
    Int(i128, u128),
    Float(f64, bool),
    Str(&'a str),
    Null,
}

/// Whether a string of `s`'s length certainly stays within the limit once escaped.
#[inline(always)]
fn string_fits(limits: &Limits, s: &str) -> bool {
    let max = limits.max_string_bytes;
    if s.len().saturating_mul(6) <= max {
        return true;
    }
    s.len() <= max && super::ser::escaped_len(s).0 <= max
}

/// Whether `ty` is a scalar type as it stands (no name to look up).
fn is_scalar(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Bool
            | Type::Int(_)
            | Type::Float(_)
            | Type::Char
            | Type::String(_)
            | Type::Constrained(_)
    )
}

#[inline(always)]
fn scalar_of(ty: &Type, value: &Scalar<'_>) -> bool {
    match (ty, value) {
        (Type::Bool, Scalar::Bool) => true,
        (Type::Int(kind), Scalar::Int(signed, unsigned)) => int_fits(*kind, *signed, *unsigned),
        (Type::Float(kind), Scalar::Float(v, single)) => {
            v.is_finite() && (*single || *kind == FloatKind::F64 || v.abs() <= f64::from(f32::MAX))
        }
        // An integer stands for a float; `f32` from one beyond its range is serde_json's call.
        (Type::Float(kind), Scalar::Int(signed, unsigned)) => {
            *kind == FloatKind::F64 || (signed.unsigned_abs() < 1 << 100 && *unsigned < 1 << 100)
        }
        (Type::Char, Scalar::Str(s)) => s.chars().count() == 1,
        (Type::String(_), Scalar::Str(_)) => true,
        (Type::Constrained(c), value) => constrained(c, value),
        _ => false,
    }
}

/// A scalar of a constrained type: of its kind, and within its constraint.
fn constrained(c: &Constraint, value: &Scalar<'_>) -> bool {
    let value = match (c, value) {
        (Constraint::Int { kind, .. }, Scalar::Int(signed, unsigned))
            if int_fits(*kind, *signed, *unsigned) =>
        {
            if *signed < 0 {
                Value::Int(IntValue::from_i128(*signed))
            } else {
                Value::Int(IntValue::from_u128(*unsigned))
            }
        }
        (Constraint::String(_), Scalar::Str(s)) => Value::Str(s),
        _ => return false,
    };
    constraint_admits(c, value)
}

/// `signed` is the value when it is negative (else 0), `unsigned` when it is not.
fn int_fits(kind: IntKind, signed: i128, unsigned: u128) -> bool {
    if signed < 0 {
        signed >= kind.min()
    } else {
        unsigned <= kind.max()
    }
}

/// A map key: of its type, and not written before in this map.
fn key_fits(st: &mut Writer<'_>, ty: &'static Type, value: &Scalar<'_>) -> bool {
    let fits = match (st.schema.resolve(ty), value) {
        (_, Scalar::Str(s)) if !string_fits(&st.limits, s) => false,
        (Type::String(_), Scalar::Str(_)) => true,
        (Type::Char, Scalar::Str(s)) => s.chars().count() == 1,
        (Type::Int(kind), Scalar::Int(signed, unsigned)) => int_fits(*kind, *signed, *unsigned),
        (Type::Constrained(c), value) => constrained(c, value),
        (Type::Named(name), Scalar::Str(s)) => match st.schema.def(name).map(|d| &d.body) {
            Some(Body::Enum(e)) if e.is_string_enum() => unit_variant(e, s).is_some(),
            _ => false,
        },
        _ => false,
    };
    if !fits {
        return false;
    }
    st.key = Some(match value {
        Scalar::Str(s) => fingerprint(0, s.as_bytes()),
        Scalar::Int(signed, unsigned) => {
            let mut bytes = [0; 32];
            bytes[..16].copy_from_slice(&signed.to_le_bytes());
            bytes[16..].copy_from_slice(&unsigned.to_le_bytes());
            fingerprint(1, &bytes)
        }
        _ => return false,
    });
    true
}

fn unit_variant<'e>(e: &'e EnumDef, tag: &str) -> Option<&'e VariantDef> {
    e.variants.iter().find(|v| {
        matches!(v.kind, VariantDefKind::Unit)
            && v.sender
                .as_deref()
                .is_some_and(|t| same(t.as_bytes(), tag.as_bytes()))
    })
}

/// The field of `slots` written as `key`, from `guess` on and then from the start, found by
/// its name; the address of `key` is kept in its slot for the next call.
#[cold]
#[inline(never)]
fn look_up(slots: &'static [Slot], guess: usize, key: &'static str) -> Option<usize> {
    let n = slots.len();
    let guess = guess.min(n);
    let found = (guess..n)
        .chain(0..guess)
        .find(|&f| named(&slots[f], key))?;
    slots[found]
        .key_addr
        .store(key.as_ptr() as usize, Ordering::Relaxed);
    Some(found)
}

/// Whether a field of `slots` written before (a bit of `seen`) is named `key`: two fields of
/// a struct whose names clash.
#[cold]
#[inline(never)]
fn written_before(slots: &[Slot], seen: u64, key: &str) -> bool {
    slots
        .iter()
        .enumerate()
        .any(|(g, slot)| g < 64 && seen & 1 << g != 0 && named(slot, key))
}

/// Whether the sender view writes the field of `slot` as `key`.
fn named(slot: &Slot, key: &str) -> bool {
    slot.name
        .is_some_and(|name| same(name.as_bytes(), key.as_bytes()))
}

fn variant_label(v: &'static VariantDef) -> Label<'static> {
    Label::Variant(v.sender.as_deref().unwrap_or(v.rust_name.as_str()))
}

/// Writes `s` as a JSON string, escaped as serde_json escapes it: `\"`, `\\`, the short forms
/// `\b \f \n \r \t`, and `\u00XX` (lowercase) for the other control characters. Most strings
/// need no escape: they are checked eight bytes at a time and copied whole.
#[inline(always)]
fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    if has_escape(bytes) {
        write_escaped(out, bytes);
    } else {
        out.extend_from_slice(bytes);
    }
    out.push(b'"');
}

/// The text of a string with a byte to escape, escaped.
#[cold]
fn write_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if needs_escape(b) {
            out.extend_from_slice(&bytes[start..i]);
            write_escape(out, b);
            start = i + 1;
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Whether a byte of `b` needs an escape: eight bytes at a time (the last eight overlapping
/// the ones before), two overlapping loads of four below eight bytes, one by one below four.
#[inline(always)]
fn has_escape(b: &[u8]) -> bool {
    fn load<const N: usize>(b: &[u8]) -> [u8; N] {
        let mut word = [0; N];
        word.copy_from_slice(b);
        word
    }
    let n = b.len();
    if n >= 8 {
        let mut marks = to_escape(u64::from_le_bytes(load(&b[n - 8..])));
        for chunk in b.chunks_exact(8) {
            marks |= to_escape(u64::from_le_bytes(load(chunk)));
        }
        marks != 0
    } else if n >= 4 {
        let low = u32::from_le_bytes(load(&b[..4]));
        let high = u32::from_le_bytes(load(&b[n - 4..]));
        to_escape(u64::from(low) | u64::from(high) << 32) != 0
    } else {
        b.iter().any(|&x| needs_escape(x))
    }
}

/// Whether JSON needs `b` escaped in a string.
#[inline(always)]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The high bit of each byte of `word` (little-endian) that JSON needs escaped: a quote, a
/// backslash, a control character. Exact: no carry crosses from one byte to the next.
#[inline(always)]
pub(crate) fn to_escape(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each zero byte of `v`.
    let zero = |v: u64| !(((v & LOW7).wrapping_add(LOW7)) | v) & HIGHS;
    zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\\')))
        | zero(word & (ONES * 0xE0))
}

/// The escape of `b`, a byte [`to_escape`] marked.
fn write_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0C => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

macro_rules! ints {
    ($($method:ident($ty:ty, $kind:ident) = $write:ident;)*) => {$(
        fn $method(self, v: $ty) -> Result<(), Stop> {
            // A field of the integer's own kind (the common case) takes any value of it.
            if !self.of_kind(IntKind::$kind) {
                let wide = i128::from(v);
                self.check(&Scalar::Int(wide.min(0), wide.max(0).unsigned_abs()))?;
            }
            // Below 100 (counts, attempts, priorities) the digits are written here, without
            // the formatter's copy out of its buffer; the same text.
            match u8::try_from(v) {
                Ok(small) if small < 100 => write_small(self.out, small),
                // Writing to a `Vec` cannot fail.
                _ => drop(CompactFormatter.$write(self.out, v)),
            }
            Ok(())
        }
    )*};
}

/// Writes `v` (below 100) in decimal, as serde_json does.
#[inline(always)]
fn write_small(out: &mut Vec<u8>, v: u8) {
    if v < 10 {
        out.push(b'0' + v);
    } else {
        out.extend_from_slice(&[b'0' + v / 10, b'0' + v % 10]);
    }
}

impl<'a, 'm> Serializer for &'a mut Writer<'m> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Compound<'a, 'm>;
    type SerializeTuple = Compound<'a, 'm>;
    type SerializeTupleStruct = Compound<'a, 'm>;
    type SerializeTupleVariant = Compound<'a, 'm>;
    type SerializeMap = Compound<'a, 'm>;
    type SerializeStruct = Compound<'a, 'm>;
    type SerializeStructVariant = Compound<'a, 'm>;

    fn serialize_bool(self, v: bool) -> Result<(), Stop> {
        self.check(&Scalar::Bool)?;
        // As serde_json writes them, each a copy of known length.
        if v {
            self.out.extend_from_slice(b"true");
        } else {
            self.out.extend_from_slice(b"false");
        }
        Ok(())
    }

    ints! {
        serialize_i8(i8, I8) = write_i8;
        serialize_i16(i16, I16) = write_i16;
        serialize_i32(i32, I32) = write_i32;
        serialize_i64(i64, I64) = write_i64;
        serialize_i128(i128, I128) = write_i128;
        serialize_u8(u8, U8) = write_u8;
        serialize_u16(u16, U16) = write_u16;
        serialize_u32(u32, U32) = write_u32;
        serialize_u64(u64, U64) = write_u64;
    }

    fn serialize_u128(self, v: u128) -> Result<(), Stop> {
        self.check(&Scalar::Int(0, v))?;
        let _ = CompactFormatter.write_u128(self.out, v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Stop> {
        self.check(&Scalar::Float(f64::from(v), true))?;
        let _ = if v.is_finite() {
            CompactFormatter.write_f32(self.out, v)
        } else {
            CompactFormatter.write_null(self.out)
        };
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Stop> {
        self.check(&Scalar::Float(v, false))?;
        let _ = if v.is_finite() {
            CompactFormatter.write_f64(self.out, v)
        } else {
            CompactFormatter.write_null(self.out)
        };
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Stop> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), Stop> {
        self.check(&Scalar::Str(v))?;
        write_str(self.out, v);
        Ok(())
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<(), Stop> {
        Err(self.bail())
    }

    fn serialize_none(self) -> Result<(), Stop> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Stop> {
        if let Node::Ty(Type::Option(inner)) = self.node {
            self.node = Node::Ty(inner);
        }
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Stop> {
        self.check(&Scalar::Null)?;
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Stop> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Stop> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        if serde_json_private(name) {
            return Err(self.bail());
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        let VariantKind::Newtype(ty) = self.enter_variant(variant)? else {
            return Err(self.bail());
        };
        self.node = Node::Ty(ty);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        self.depth -= 1;
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 'm>, Stop> {
        let mode = self.open_items(None)?;
        self.out.push(b'[');
        Ok(Compound::new(self, mode))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'm>, Stop> {
        let mode = self.open_items(Some(len))?;
        self.out.push(b'[');
        Ok(Compound::new(self, mode))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'm>, Stop> {
        self.serialize_tuple(len)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'm>, Stop> {
        let VariantKind::Tuple(items) = self.enter_variant(variant)? else {
            return Err(self.bail());
        };
        self.node = Node::Tuple(items);
        let mode = self.open_items(Some(len))?;
        self.out.push(b'[');
        Ok(Compound::new(self, mode).in_variant())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 'm>, Stop> {
        let mode = match self.shape(self.node) {
            Shape::Map(key, value) => {
                let here = self.here;
                Mode::Map {
                    key,
                    value,
                    values: self.child(here, Label::Values),
                }
            }
            Shape::Any => Mode::Free,
            // A struct written as a map: a flattened field.
            _ => return Err(self.bail()),
        };
        self.open()?;
        self.out.push(b'{');
        Ok(Compound::new(self, mode))
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a, 'm>, Stop> {
        if serde_json_private(name) {
            return Err(self.bail());
        }
        let mode = self.open_struct()?;
        Ok(Compound::new(self, mode))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'm>, Stop> {
        let VariantKind::Struct(s) = self.enter_variant(variant)? else {
            return Err(self.bail());
        };
        self.node = Node::Struct(s);
        let mode = self.open_struct()?;
        Ok(Compound::new(self, mode).in_variant())
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Stop> {
        self.serialize_str(&value.to_string())
    }
}

/// What a variant carries.
enum VariantKind {
    Newtype(&'static Type),
    Tuple(&'static [Type]),
    Struct(&'static StructDef),
}

/// An array or object being written: its place on the writer's stack of frames. Two words,
/// so that opening one hands it back in registers (a larger value returned through memory
/// is copied, and read back before its stores have landed).
struct Compound<'a, 'm> {
    w: &'a mut Writer<'m>,
    at: usize,
}

impl<'a, 'm> Compound<'a, 'm> {
    fn new(w: &'a mut Writer<'m>, mode: Mode) -> Self {
        let seen_keys = KeySet::open(w.memo);
        w.frames.push(Frame {
            mode,
            variant: false,
            first: true,
            keys: 0,
            seen_keys,
        });
        let at = w.frames.len() - 1;
        Compound { w, at }
    }

    fn in_variant(self) -> Self {
        if let Some(frame) = self.w.frames.get_mut(self.at) {
            frame.variant = true;
        }
        self
    }

    /// Its frame, when it is the innermost one open (a `Serialize` that left a compound
    /// open inside it wrote something else than it says).
    #[inline(always)]
    fn frame(&mut self) -> Result<&mut Frame, Stop> {
        if self.w.frames.len() != self.at + 1 {
            return Err(self.w.bail());
        }
        self.w.frames.last_mut().ok_or(Stop)
    }

    /// Points the cursor at the next item.
    fn item(&mut self) -> Result<(), Stop> {
        let frame = self.frame()?;
        let node = match &mut frame.mode {
            Mode::Items {
                items,
                here,
                n,
                expected,
            } => {
                let node = match items {
                    Items::One(item) => Some(Node::Ty(item)),
                    Items::Each(items) => items.get(*n).map(Node::Ty),
                };
                *n += 1;
                node.filter(|_| expected.is_none_or(|e| *n <= e))
                    .map(|node| (node, *here))
            }
            Mode::Free => Some((Node::Free, self.w.here)),
            _ => None,
        };
        let w = &mut *self.w;
        let (Some((node, here)), Some(frame)) = (node, w.frames.last_mut()) else {
            return Err(w.bail());
        };
        let first = &mut frame.first;
        w.node = node;
        w.here = here;
        if !std::mem::replace(first, false) {
            w.out.push(b',');
        }
        Ok(())
    }

    /// Points the cursor at the field written as `key` and writes the key.
    ///
    /// A derived `Serialize` writes a struct's fields under the same `&'static str` keys in
    /// every call: a key at the address the guessed field was last matched under, and of its
    /// name's length, is that name (static text never changes), so it is known without
    /// comparing the text.
    #[inline(always)]
    fn field(&mut self, key: &'static str) -> Result<(), Stop> {
        let w = &mut *self.w;
        if w.frames.len() != self.at + 1 {
            return Err(w.bail());
        }
        let Some(Frame {
            mode:
                Mode::Struct {
                    base,
                    seen,
                    next_guess,
                    facts,
                },
            first,
            ..
        }) = w.frames.last_mut()
        else {
            return Err(w.bail());
        };
        let (base, facts) = (*base, *facts);
        let slots = facts.slots;
        let guess = *next_guess;
        // The key the guessed field was last matched under: known without a lookup. Any other
        // key is looked up out of line, so that the common case keeps its values in registers.
        let found = match slots.get(guess) {
            Some(slot)
                if slot.key_addr.load(Ordering::Relaxed) == key.as_ptr() as usize
                    && slot.name.is_some_and(|name| name.len() == key.len()) =>
            {
                Some((guess, slot))
            }
            _ => look_up(slots, guess, key).and_then(|f| Some((f, slots.get(f)?))),
        };
        // A field the view does not write, one written twice, or two fields under one name
        // (the key twice in the object). At most 64 fields (see `Writer::open_struct`).
        let Some((f, slot)) = found else {
            return Err(w.bail());
        };
        let bit = 1u64 << f;
        if *seen & bit != 0 || (facts.clashing && written_before(slots, *seen, key)) {
            return Err(w.bail());
        }
        *seen |= bit;
        *next_guess = f + 1;
        let first = std::mem::replace(first, false);
        // At most 64 fields: `f` fits.
        let id = base + f as u32;
        w.record.arrive(id);
        w.node = Node::Ty(slot.ty);
        // A scalar is checked without its shape; leaving the last one in place keeps it for
        // the next item of an array of structs.
        if !matches!(slot.shape, Shape::Scalar(_)) {
            w.last_shape.set(slot.ty, slot.shape);
        }
        w.here = id;
        // The key is the name the field was matched under: its text is written as it was
        // escaped once for the plan, with the comma before it, which the first field turns
        // into the object's opening brace (see `Writer::open_struct`).
        let out = &mut *w.out;
        let at = out.len();
        match &slot.key.chunk {
            // Only within the room there is: the chunk's padding never grows the buffer.
            Some(chunk) if out.capacity() - at >= chunk.len() => {
                out.extend_from_slice(chunk);
                out.truncate(at + slot.key.text.len());
            }
            _ => out.extend_from_slice(&slot.key.text),
        }
        if first {
            if let Some(brace) = out.get_mut(at) {
                *brace = b'{';
            }
        }
        Ok(())
    }

    /// Closes the compound (every field the view always writes was written, every item of a
    /// fixed length is there) with `close`, and the variant's object around it.
    fn close(self, close: u8) -> Result<(), Stop> {
        let w = self.w;
        if w.frames.len() != self.at + 1 {
            return Err(w.bail());
        }
        let Some(frame) = w.frames.pop() else {
            return Err(w.bail());
        };
        let complete = match frame.mode {
            Mode::Struct { seen, facts, .. } => seen & facts.always == facts.always,
            Mode::Items {
                n,
                expected: Some(e),
                ..
            } => n == e,
            _ => true,
        };
        frame.seen_keys.close(w.memo);
        w.depth -= 1 + usize::from(frame.variant);
        if !complete {
            return Err(w.bail());
        }
        if frame.first && matches!(frame.mode, Mode::Struct { .. }) {
            // A struct's brace is written with its first field (see `Writer::open_struct`).
            w.out.push(b'{');
        }
        w.out.push(close);
        if frame.variant {
            w.out.push(b'}');
        }
        Ok(())
    }
}

/// The compounds whose items have no key: each item at the cursor's next position.
macro_rules! items {
    ($($trait:ident :: $method:ident;)*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Stop;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
                self.item()?;
                value.serialize(&mut *self.w)
            }

            fn end(self) -> Result<(), Stop> {
                self.close(b']')
            }
        }
    )*};
}

items! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Stop;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Stop> {
        let frame = self.frame()?;
        let node = match frame.mode {
            Mode::Map { key, .. } => Some(Node::Key(key)),
            // Inside `Any`: a string key, checked for repeats.
            Mode::Free => Some(Node::Key(&FREE_KEY)),
            _ => None,
        };
        let first = std::mem::replace(&mut frame.first, false);
        let Some(node) = node else {
            return Err(self.w.bail());
        };
        self.w.node = node;
        if !first {
            self.w.out.push(b',');
        }
        key.serialize(KeyWriter(&mut *self.w))?;
        // Whether the key just written is new in this map.
        let w = &mut *self.w;
        let fresh = match (w.key.take(), w.frames.last_mut()) {
            (Some(fp), Some(frame)) => {
                frame.keys += 1;
                frame.keys <= w.limits.max_keys_per_object && frame.seen_keys.insert(w.memo, fp)
            }
            _ => false,
        };
        if fresh {
            w.out.push(b':');
            Ok(())
        } else {
            Err(w.bail())
        }
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        match self.frame()?.mode {
            Mode::Map { value, values, .. } => {
                self.w.node = Node::Ty(value);
                self.w.here = values;
            }
            _ => self.w.node = Node::Free,
        }
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Stop> {
        self.close(b'}')
    }
}

/// The compounds of named fields: each field at its place in the struct.
macro_rules! fields {
    ($($trait:ident;)*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Stop;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Stop> {
                self.field(key)?;
                value.serialize(&mut *self.w)
            }

            fn end(self) -> Result<(), Stop> {
                self.close(b'}')
            }
        }
    )*};
}

fields! {
    SerializeStruct;
    SerializeStructVariant;
}

/// Writes a map key as serde_json does: a string as it is, an integer or a unit variant
/// quoted. Any other key is left to serde_json on the full path.
struct KeyWriter<'a, 'm>(&'a mut Writer<'m>);

impl KeyWriter<'_, '_> {
    fn int(
        self,
        signed: i128,
        unsigned: u128,
        write: impl FnOnce(&mut Vec<u8>),
    ) -> Result<(), Stop> {
        self.0.check(&Scalar::Int(signed, unsigned))?;
        self.0.out.push(b'"');
        write(self.0.out);
        self.0.out.push(b'"');
        Ok(())
    }
}

macro_rules! key_ints {
    ($($method:ident($ty:ty) = $write:ident;)*) => {$(
        fn $method(self, v: $ty) -> Result<(), Stop> {
            let wide = i128::from(v);
            self.int(wide.min(0), wide.max(0).unsigned_abs(), |out| {
                let _ = CompactFormatter.$write(out, v);
            })
        }
    )*};
}

/// Methods of a key's `Serializer` for what serde_json writes in a way this writer leaves to
/// it (a bool or float key) or refuses as a key (anything else): the full path decides.
macro_rules! leave_keys {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ok, Stop> {
            Err(self.0.bail())
        }
    )*};
}

impl Serializer for KeyWriter<'_, '_> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = ser::Impossible<(), Stop>;
    type SerializeTuple = ser::Impossible<(), Stop>;
    type SerializeTupleStruct = ser::Impossible<(), Stop>;
    type SerializeTupleVariant = ser::Impossible<(), Stop>;
    type SerializeMap = ser::Impossible<(), Stop>;
    type SerializeStruct = ser::Impossible<(), Stop>;
    type SerializeStructVariant = ser::Impossible<(), Stop>;

    fn serialize_str(self, v: &str) -> Result<(), Stop> {
        // A string key is written as a string value is (checked against the key's type).
        self.0.serialize_str(v)
    }

    fn serialize_char(self, v: char) -> Result<(), Stop> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Stop> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        if serde_json_private(name) {
            return Err(self.0.bail());
        }
        value.serialize(self)
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Stop> {
        self.serialize_str(&value.to_string())
    }

    key_ints! {
        serialize_i8(i8) = write_i8;
        serialize_i16(i16) = write_i16;
        serialize_i32(i32) = write_i32;
        serialize_i64(i64) = write_i64;
        serialize_i128(i128) = write_i128;
        serialize_u8(u8) = write_u8;
        serialize_u16(u16) = write_u16;
        serialize_u32(u32) = write_u32;
        serialize_u64(u64) = write_u64;
    }

    fn serialize_u128(self, v: u128) -> Result<(), Stop> {
        self.int(0, v, |out| {
            let _ = CompactFormatter.write_u128(out, v);
        })
    }

    leave_keys! {
        serialize_bool(bool) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Stop> {
        Err(self.0.bail())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Stop> {
        Err(self.0.bail())
    }
}

/// What a key of an object nobody reads is taken as: a string.
pub(crate) static FREE_KEY: Type = Type::String(contract_schema::model::StringFormat::Plain);
