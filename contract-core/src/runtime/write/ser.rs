//! `send`'s serializer: serde_json writes the bytes, and a wrapper around its serializer
//! records the tape of what it writes as it goes, so the checker walks the output without
//! parsing it again.
//!
//! The wrapper forwards every call to serde_json's serializer and reads the output's length
//! before and after (through the writer), so each node's offsets are those a scan of the
//! bytes would give; a debug build checks that they are.

use std::cell::{Cell, RefCell};
use std::fmt::Display;
use std::io;

use serde::ser::{self, Serialize, Serializer};

use crate::runtime::options::{serde_json_private, Limits};
use crate::runtime::problem::ProblemKind;
use crate::runtime::tape::scan::{NodeKind, Tape};

/// Why a value could not be written.
pub(crate) enum SerError {
    /// A size limit.
    Limit(ProblemKind),
    /// The value's `Serialize` failed.
    Failed,
}

/// Writes `value` as compact JSON (exactly `serde_json::to_vec`) into `out` and its tape into
/// `tape`.
pub(crate) fn to_tape<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
    tape: &mut Tape,
    limits: &Limits,
) -> Result<(), SerError> {
    out.clear();
    tape.start();
    let pos = Cell::new((0, 0));
    let result = {
        let build = RefCell::new(Build {
            tape,
            pos: &pos,
            limits,
            error: None,
            rescan: false,
        });
        let mut serializer = serde_json::Serializer::new(Counting { out, pos: &pos });
        let written = value.serialize(Rec {
            inner: &mut serializer,
            b: &build,
            key: false,
        });
        let build = build.into_inner();
        match (written, build.error) {
            (_, Some(e)) => Err(SerError::Limit(e)),
            (Err(_), None) => Err(SerError::Failed),
            (Ok(()), None) => Ok((build.tape, build.rescan)),
        }
    };
    let (tape, rescan) = result?;
    if out.len() > limits.max_bytes {
        return Err(SerError::Limit(ProblemKind::TooLarge {
            limit: limits.max_bytes,
        }));
    }
    if rescan {
        let text = crate::runtime::tape::scan::text(out, limits).map_err(SerError::Limit)?;
        return tape.scan(text, limits).map_err(SerError::Limit);
    }
    tape.finish(out, limits).map_err(SerError::Limit)
}

/// The output, with its length kept where the wrapper can read it, and how many escapes
/// were written (serde_json writes each escape on its own, starting with a backslash; the
/// runs between them never hold one).
struct Counting<'a> {
    out: &'a mut Vec<u8>,
    pos: &'a Cell<(usize, usize)>,
}

impl io::Write for Counting<'_> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(buf);
        let escapes = self.pos.get().1 + usize::from(buf.first() == Some(&b'\\'));
        self.pos.set((self.out.len(), escapes));
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Build<'a> {
    tape: &'a mut Tape,
    /// The output's length and the escapes written so far.
    pos: &'a Cell<(usize, usize)>,
    limits: &'a Limits,
    error: Option<ProblemKind>,
    /// serde_json wrote something in a form of its own (its `RawValue` or arbitrary-precision
    /// `Number` protocol): the tape is taken from a scan of the bytes instead.
    rescan: bool,
}

/// The length of `s` once serde_json has escaped it (without the quotes), and whether it
/// holds an escape.
pub(crate) fn escaped_len(s: &str) -> (usize, bool) {
    let len = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | 0x08 | 0x0C | b'\n' | b'\r' | b'\t' => 2,
            0x00..=0x1F => 6,
            _ => 1,
        })
        .sum();
    (len, len != s.len())
}

/// The serializer wrapper; `key` when it writes an object key.
struct Rec<'b, 'a, S> {
    inner: S,
    b: &'b RefCell<Build<'a>>,
    key: bool,
}

/// A value serialized through the wrapper.
struct Wrapped<'b, 'a, T: ?Sized> {
    value: &'b T,
    b: &'b RefCell<Build<'a>>,
    key: bool,
}

impl<'v, 'a, T: ?Sized> Wrapped<'v, 'a, T> {
    fn new(value: &'v T, b: &'v RefCell<Build<'a>>, key: bool) -> Self {
        Wrapped { value, b, key }
    }
}

impl<T: Serialize + ?Sized> Serialize for Wrapped<'_, '_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Rec {
            inner: serializer,
            b: self.b,
            key: self.key,
        })
    }
}

impl Build<'_> {
    fn fail<E: ser::Error>(&mut self, e: ProblemKind) -> E {
        self.error.get_or_insert(e);
        E::custom("a size limit")
    }
}

impl<'b, 'a, S: Serializer> Rec<'b, 'a, S> {
    fn wrap<'v, T: ?Sized>(&self, value: &'v T, key: bool) -> Wrapped<'v, 'a, T>
    where
        'b: 'v,
    {
        Wrapped::new(value, self.b, key)
    }

    fn here(&self) -> usize {
        self.b.borrow().pos.get().0
    }

    /// The output's length and the escapes written so far.
    fn mark(&self) -> (usize, usize) {
        self.b.borrow().pos.get()
    }

    fn open(&self, object: bool, start: usize) -> Result<(), S::Error> {
        let mut b = self.b.borrow_mut();
        let limits = *b.limits;
        match b.tape.open(object, start, &limits) {
            Ok(()) => Ok(()),
            Err(e) => Err(b.fail(e)),
        }
    }

    /// `{"variant":` written at `start`: the object and its key.
    fn variant_key(&self, start: usize, variant: &str) -> Result<usize, S::Error> {
        self.open(true, start)?;
        let (len, escaped) = escaped_len(variant);
        let mut b = self.b.borrow_mut();
        b.tape.count_one();
        b.tape
            .scalar_at(NodeKind::Str, start + 2, start + 2 + len, escaped);
        // Where the content starts: after the closing quote and the colon.
        Ok(start + 4 + len)
    }
}

macro_rules! scalars {
    ($($method:ident($ty:ty) => $kind:expr;)*) => {$(
        fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            self.scalar($kind, |s| s.$method(v))
        }
    )*};
}

impl Rec<'_, '_, ()> {
    /// Records a scalar written from `start` to here: in a key, the string between quotes.
    fn scalar_any<E: ser::Error>(
        &self,
        kind: NodeKind,
        (start, escapes): (usize, usize),
    ) -> Result<(), E> {
        let mut b = self.b.borrow_mut();
        let (end, escapes_now) = b.pos.get();
        let escaped = escapes_now > escapes;
        if self.key || kind == NodeKind::Str {
            let (from, to) = (start + 1, end.saturating_sub(1));
            if to.saturating_sub(from) > b.limits.max_string_bytes {
                let limit = b.limits.max_string_bytes;
                return Err(b.fail(ProblemKind::StringTooLong {
                    offset: start,
                    limit,
                }));
            }
            b.tape.scalar_at(NodeKind::Str, from, to, escaped);
        } else {
            b.tape.scalar_at(kind, start, end, false);
        }
        Ok(())
    }
}

impl<'b, 'a, S: Serializer> Serializer for Rec<'b, 'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'b, 'a, S::SerializeSeq>;
    type SerializeTuple = Compound<'b, 'a, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'b, 'a, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'b, 'a, S::SerializeTupleVariant>;
    type SerializeMap = Compound<'b, 'a, S::SerializeMap>;
    type SerializeStruct = Compound<'b, 'a, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'b, 'a, S::SerializeStructVariant>;

    scalars! {
        serialize_bool(bool) => NodeKind::Bool;
        serialize_i8(i8) => NodeKind::Int;
        serialize_i16(i16) => NodeKind::Int;
        serialize_i32(i32) => NodeKind::Int;
        serialize_i64(i64) => NodeKind::Int;
        serialize_i128(i128) => NodeKind::Int;
        serialize_u8(u8) => NodeKind::Int;
        serialize_u16(u16) => NodeKind::Int;
        serialize_u32(u32) => NodeKind::Int;
        serialize_u64(u64) => NodeKind::Int;
        serialize_u128(u128) => NodeKind::Int;
    }

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        self.serialize_float(f64::from(v), |s| s.serialize_f32(v))
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        self.serialize_float(v, |s| s.serialize_f64(v))
    }

    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Str, |s| s.serialize_char(v))
    }

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Str, |s| s.serialize_str(v))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        let start = self.here();
        let (b, key) = (self.b, self.key);
        let ok = self.inner.serialize_bytes(v)?;
        if key {
            return Ok(ok);
        }
        // `[n,n,…]`: each number's place follows from its digits.
        {
            let mut build = b.borrow_mut();
            let limits = *build.limits;
            if let Err(e) = build.tape.open(false, start, &limits) {
                return Err(build.fail(e));
            }
            let mut at = start + 1;
            for byte in v {
                let digits = if *byte >= 100 {
                    3
                } else if *byte >= 10 {
                    2
                } else {
                    1
                };
                build.tape.count_one();
                build.tape.scalar_at(NodeKind::Int, at, at + digits, false);
                at += digits + 1;
            }
            let end = build.pos.get().0;
            build.tape.close_at(end);
        }
        Ok(ok)
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Null, |s| s.serialize_none())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let wrapped = self.wrap(value, self.key);
        self.inner.serialize_some(&wrapped)
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Null, |s| s.serialize_unit())
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Null, |s| s.serialize_unit_struct(name))
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.scalar(NodeKind::Str, |s| {
            s.serialize_unit_variant(name, index, variant)
        })
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let wrapped = self.wrap(value, self.key);
        self.inner.serialize_newtype_struct(name, &wrapped)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if self.key {
            return self
                .inner
                .serialize_newtype_variant(name, index, variant, value);
        }
        let start = self.here();
        self.variant_key(start, variant)?;
        let b = self.b;
        let wrapped = self.wrap(value, false);
        let ok = self
            .inner
            .serialize_newtype_variant(name, index, variant, &wrapped)?;
        let mut build = b.borrow_mut();
        let end = build.pos.get().0;
        build.tape.close_at(end);
        Ok(ok)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.compound(false, |s| s.serialize_seq(len))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.compound(false, |s| s.serialize_tuple(len))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.compound(false, |s| s.serialize_tuple_struct(name, len))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.variant_compound(false, variant, |s| {
            s.serialize_tuple_variant(name, index, variant, len)
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.compound(true, |s| s.serialize_map(len))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        if serde_json_private(name) {
            // serde_json's private protocols write the value in a form of their own.
            self.b.borrow_mut().rescan = true;
            let b = self.b;
            return self
                .inner
                .serialize_struct(name, len)
                .map(|inner| Compound::keyed(b, inner));
        }
        self.compound(true, |s| s.serialize_struct(name, len))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.variant_compound(true, variant, |s| {
            s.serialize_struct_variant(name, index, variant, len)
        })
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.serialize_str(&value.to_string())
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

impl<'b, 'a, S: Serializer> Rec<'b, 'a, S> {
    /// A scalar serde_json writes with `write`, recorded from where it starts.
    fn scalar(
        self,
        kind: NodeKind,
        write: impl FnOnce(S) -> Result<S::Ok, S::Error>,
    ) -> Result<S::Ok, S::Error> {
        let start = self.mark();
        let this = Rec {
            inner: (),
            b: self.b,
            key: self.key,
        };
        let ok = write(self.inner)?;
        this.scalar_any(kind, start)?;
        Ok(ok)
    }

    /// An array or object serde_json opens with `open`, recorded from where it starts.
    fn compound<C>(
        self,
        object: bool,
        open: impl FnOnce(S) -> Result<C, S::Error>,
    ) -> Result<Compound<'b, 'a, C>, S::Error> {
        let start = self.here();
        let (b, key) = (self.b, self.key);
        let inner = open(self.inner)?;
        Compound::opened(b, key, object, start, inner)
    }

    /// `{"variant":[…]}` or `{"variant":{…}}`: the outer object, its key, and the content
    /// container, which the compound's end closes together.
    fn variant_compound<C>(
        self,
        object: bool,
        variant: &'static str,
        open: impl FnOnce(S) -> Result<C, S::Error>,
    ) -> Result<Compound<'b, 'a, C>, S::Error> {
        let (b, key) = (self.b, self.key);
        if key {
            return open(self.inner).map(|inner| Compound::keyed(b, inner));
        }
        let content = self.variant_key(self.here(), variant)?;
        let inner = open(self.inner)?;
        let mut compound = Compound::opened(b, key, object, content, inner)?;
        compound.closes = 2;
        Ok(compound)
    }

    fn serialize_float(
        self,
        v: f64,
        write: impl FnOnce(S) -> Result<S::Ok, S::Error>,
    ) -> Result<S::Ok, S::Error> {
        // serde_json writes a non-finite float as `null`.
        let kind = if v.is_finite() {
            NodeKind::Float
        } else {
            NodeKind::Null
        };
        self.scalar(kind, write)
    }
}

/// An array or object being written: items and members go through the wrapper.
struct Compound<'b, 'a, C> {
    inner: C,
    b: &'b RefCell<Build<'a>>,
    /// Whether this container is recorded (not inside a key, which serde_json refuses).
    recorded: bool,
    /// How many containers its end closes (two for a tuple or struct variant).
    closes: u8,
    /// A map's key written, its value not yet: serde's protocol alternates them.
    pending_key: bool,
}

impl<'b, 'a, C> Compound<'b, 'a, C> {
    /// A `Serialize` impl that breaks serde's protocol (a map value without its key, two
    /// keys in a row): serde_json would write something that is not JSON.
    fn out_of_order<E: ser::Error>(&self) -> E {
        let mut build = self.b.borrow_mut();
        let offset = build.pos.get().0;
        build.fail(ProblemKind::Malformed {
            offset,
            expected: "a key, then its value: the type's Serialize broke serde's protocol",
        })
    }

    fn opened<E: ser::Error>(
        b: &'b RefCell<Build<'a>>,
        key: bool,
        object: bool,
        start: usize,
        inner: C,
    ) -> Result<Self, E> {
        if key {
            return Ok(Compound::keyed(b, inner));
        }
        let mut build = b.borrow_mut();
        let limits = *build.limits;
        if let Err(e) = build.tape.open(object, start, &limits) {
            return Err(build.fail(e));
        }
        Ok(Compound {
            inner,
            b,
            recorded: true,
            closes: 1,
            pending_key: false,
        })
    }

    fn keyed(b: &'b RefCell<Build<'a>>, inner: C) -> Self {
        Compound {
            inner,
            b,
            recorded: false,
            closes: 0,
            pending_key: false,
        }
    }

    fn wrap<'v, T: ?Sized>(&self, value: &'v T, key: bool) -> Wrapped<'v, 'a, T>
    where
        'b: 'v,
    {
        Wrapped::new(value, self.b, key)
    }

    fn member(&self) {
        if self.recorded {
            self.b.borrow_mut().tape.count_one();
        }
    }

    /// The key of a struct field, written by serde_json from `start` (after a comma unless
    /// it is the first member).
    fn field_key(&self, start: usize, key: &str) {
        if !self.recorded {
            return;
        }
        let mut build = self.b.borrow_mut();
        build.tape.count_one();
        let first = build.tape.innermost_count() == 1;
        let from = start + usize::from(!first) + 1;
        let (len, escaped) = escaped_len(key);
        build
            .tape
            .scalar_at(NodeKind::Str, from, from + len, escaped);
    }
}

/// Closes the `closes` containers a compound's end wrote (the inner one byte before the
/// outer).
fn closed(b: &RefCell<Build<'_>>, closes: u8) {
    let mut build = b.borrow_mut();
    let end = build.pos.get().0;
    for n in 0..closes {
        build
            .tape
            .close_at(end.saturating_sub(usize::from(closes - 1 - n)));
    }
}

/// The compound traits whose items have no key: each item counted and wrapped.
macro_rules! items {
    ($($trait:ident::$method:ident),*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, '_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                self.member();
                let wrapped = self.wrap(value, false);
                self.inner.$method(&wrapped)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                let (b, closes) = (self.b, self.closes);
                let ok = self.inner.end()?;
                closed(b, closes);
                Ok(ok)
            }
        }
    )*};
}

items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The compound traits of named fields: each key recorded where serde_json writes it.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, '_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), C::Error> {
                let start = self.b.borrow().pos.get().0;
                self.field_key(start, key);
                let wrapped = self.wrap(value, false);
                self.inner.serialize_field(key, &wrapped)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                let (b, closes) = (self.b, self.closes);
                let ok = self.inner.end()?;
                closed(b, closes);
                Ok(ok)
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

impl<C: ser::SerializeMap> ser::SerializeMap for Compound<'_, '_, C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        if self.pending_key {
            return Err(self.out_of_order());
        }
        self.pending_key = true;
        self.member();
        let wrapped = self.wrap(key, self.recorded);
        self.inner.serialize_key(&wrapped)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        if !self.pending_key {
            return Err(self.out_of_order());
        }
        self.pending_key = false;
        let wrapped = self.wrap(value, false);
        self.inner.serialize_value(&wrapped)
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        if self.pending_key {
            return Err(self.out_of_order());
        }
        let (b, closes) = (self.b, self.closes);
        let ok = self.inner.end()?;
        closed(b, closes);
        Ok(ok)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::{to_tape, Limits, ProblemKind, Tape};

    #[derive(Serialize)]
    enum Shapes {
        Unit,
        #[serde(rename = "new\"type\u{1}")]
        Newtype(String),
        Tuple(u8, char),
        Struct {
            #[serde(rename = "a\\b")]
            a: f64,
            b: Vec<()>,
        },
    }

    #[derive(Serialize)]
    struct Everything {
        #[serde(rename = "ké\ty")]
        text: String,
        chars: (char, char),
        floats: [f64; 3],
        #[serde(with = "serde_bytes_like")]
        bytes: Vec<u8>,
        by_int: BTreeMap<i64, bool>,
        by_bool: BTreeMap<bool, Option<u8>>,
        shapes: Vec<Shapes>,
        empty: (Vec<u8>, BTreeMap<String, u8>),
        big: (u128, i128),
    }

    mod serde_bytes_like {
        pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(v)
        }
    }

    #[test]
    fn the_recorded_tape_is_the_scanned_tape_and_the_bytes_are_serde_jsons() {
        let value = Everything {
            text: "quote \" backslash \\ newline \n control \u{7} é".into(),
            chars: ('"', 'é'),
            floats: [1.5, f64::NAN, -0.0],
            bytes: vec![0, 9, 10, 99, 100, 255],
            by_int: BTreeMap::from([(-3, true), (40, false)]),
            by_bool: BTreeMap::from([(true, Some(1)), (false, None)]),
            shapes: vec![
                Shapes::Unit,
                Shapes::Newtype("x\u{0}y".into()),
                Shapes::Tuple(7, '\n'),
                Shapes::Struct {
                    a: 2.0,
                    b: vec![(), ()],
                },
            ],
            empty: (Vec::new(), BTreeMap::new()),
            big: (u128::MAX, i128::MIN),
        };
        let limits = Limits::default();
        let mut out = Vec::new();
        let mut tape = Tape::default();
        assert!(to_tape(&value, &mut out, &mut tape, &limits).is_ok());
        assert_eq!(out, serde_json::to_vec(&value).expect("serializes"));
        crate::runtime::tape::scan::assert_same_as_scanned(&tape, &out, &limits);
        assert!(tape.nodes.len() > 40);
    }

    /// A `Serialize` that writes a map value without its key, or a key twice.
    struct OutOfOrder(u8);

    impl Serialize for OutOfOrder {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(None)?;
            match self.0 {
                0 => map.serialize_value(&1)?,
                1 => {
                    map.serialize_key("a")?;
                    map.serialize_key("b")?;
                }
                _ => map.serialize_key("a")?,
            }
            map.end()
        }
    }

    #[test]
    fn a_serialize_that_breaks_the_protocol_is_refused_not_written() {
        for case in 0..3 {
            let (mut out, mut tape) = (Vec::new(), Tape::default());
            assert!(
                matches!(
                    to_tape(&OutOfOrder(case), &mut out, &mut tape, &Limits::default()),
                    Err(super::SerError::Limit(ProblemKind::Malformed { .. }))
                ),
                "case {case}"
            );
        }
    }

    /// A struct under the name of serde_json's private protocols.
    #[derive(Serialize)]
    #[serde(rename = "$serde_json::private::Number")]
    struct Private {
        inner: Vec<String>,
    }

    #[test]
    fn serde_jsons_private_forms_are_scanned_after_writing() {
        let value = vec![Private {
            inner: vec!["a".into()],
        }];
        let limits = Limits::default();
        let (mut out, mut tape) = (Vec::new(), Tape::default());
        assert!(to_tape(&value, &mut out, &mut tape, &limits).is_ok());
        assert_eq!(out, serde_json::to_vec(&value).expect("serializes"));
        crate::runtime::tape::scan::assert_same_as_scanned(&tape, &out, &limits);
    }

    #[test]
    fn limits_hold_while_writing() {
        let limits = Limits {
            max_depth: 3,
            ..Limits::default()
        };
        let deep = vec![vec![vec![vec![1u8]]]];
        let (mut out, mut tape) = (Vec::new(), Tape::default());
        assert!(matches!(
            to_tape(&deep, &mut out, &mut tape, &limits),
            Err(super::SerError::Limit(ProblemKind::TooDeep { .. }))
        ));
        let limits = Limits {
            max_string_bytes: 4,
            ..Limits::default()
        };
        assert!(matches!(
            to_tape("longer", &mut out, &mut tape, &limits),
            Err(super::SerError::Limit(ProblemKind::StringTooLong { .. }))
        ));
    }
}
