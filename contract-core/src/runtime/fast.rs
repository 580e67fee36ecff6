//! The fast path of `receive`: one pass of serde_json's own parser, through a `Deserializer`
//! wrapper that records the presence of every field on the way and watches for every point
//! where `receive` is stricter than serde.
//!
//! The wrapper forwards each call of `T`'s `Deserialize` to serde_json and wraps what comes
//! back (visitors, map and sequence accesses) so that it sees every key at every level. It
//! follows the receiver view of the schema beside serde's calls, and records arrivals into
//! the same compact [`Record`] the full walk builds. It gives up (the call returns an error
//! and `receive` takes the full path: scan, walk, every problem listed) wherever the full path
//! could find a problem that serde does not:
//!
//! - a key twice in one object (serde rejects a declared field twice itself; the wrapper
//!   compares fingerprints of every other key);
//! - a struct written as an array, a unit variant written as `{"Variant": null}`, or an
//!   all-unit enum written as an object;
//! - a value the type ignores: serde_json skips it without checking UTF-8, surrogates or
//!   duplicate keys, so the wrapper reads it through `deserialize_any` instead, which checks
//!   all three;
//! - a limit of [`Limits`] reached (a string that may be longer than the limit, in bytes of
//!   its JSON text, gives up too);
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

use std::hash::Hasher;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use contract_schema::constraint::{Constraint, IntValue};
use contract_schema::model::{Body, Emit, EnumDef, Repr, StructDef, Type, Unknown, VariantDefKind};
use contract_schema::{Schema, View};

use super::check::PathIndex;
use super::presence::{Label, PathNode, Record, Tally, ROOT};
use super::Limits;

/// What the fast path knows of a type before reading any payload: whether it can take the
/// fast path at all (no set, and every enum externally tagged), and the wire form of every
/// type of its schema, by address.
pub(crate) struct Plan {
    pub(crate) eligible: bool,
    /// Whether a constrained integer or string occurs: values are then checked against
    /// their constraint on the way (serde checks only the kind's range).
    pub(crate) constrained: bool,
    shapes: FxHashMap<usize, Shape>,
    /// What `send` checks of each struct (by address) up to 64 fields.
    structs: FxHashMap<usize, StructFacts>,
}

/// What the fast path of `send` checks of a struct's fields, known before any payload.
pub(crate) struct StructFacts {
    /// Whether two fields are written under one name.
    pub(crate) clashing: bool,
    /// The fields the sender view always writes, by bit.
    pub(crate) always: u64,
    /// Per field, what `send` needs of it, side by side (not spread over the schema's field
    /// definitions). Built once per type and kept with the plan.
    pub(crate) slots: &'static [Slot],
}

/// What `send` needs of one field of a struct.
pub(crate) struct Slot {
    /// The name the sender view writes it under; `None` for a field it never writes.
    pub(crate) name: Option<&'static str>,
    /// What `send` writes before its value: `,"name":` (serde_json's escape of the name;
    /// empty for a field never written).
    pub(crate) key: Box<[u8]>,
    /// The field's type, and its shape.
    pub(crate) ty: &'static Type,
    pub(crate) shape: Shape,
    /// The address of the `&'static str` key a `Serialize` last wrote the field under (0
    /// until one is matched), so that the same key is known again without comparing it: a
    /// hint any thread may set, since static text never changes.
    pub(crate) key_addr: AtomicUsize,
}

impl Plan {
    pub(crate) fn new(schema: &'static Schema) -> Plan {
        let mut plan = Plan {
            eligible: true,
            constrained: false,
            shapes: FxHashMap::default(),
            structs: FxHashMap::default(),
        };
        plan.ty(schema, &schema.root);
        for def in schema.types.values() {
            match &def.body {
                Body::Newtype(inner) => plan.ty(schema, inner),
                // A type with two views: the full paths follow the view they check.
                Body::Views { .. } => plan.eligible = false,
                Body::Struct(s) => plan.structure(schema, s),
                Body::Enum(e) => {
                    // An enum with untagged variants is buffered by serde and tried twice:
                    // the full walk follows it.
                    plan.eligible &= e.repr == Repr::External && !e.has_untagged_variants();
                    for v in &e.variants {
                        match &v.kind {
                            VariantDefKind::Unit => {}
                            VariantDefKind::Newtype(ty) => plan.ty(schema, ty),
                            VariantDefKind::Tuple(items) => {
                                items.iter().for_each(|ty| plan.ty(schema, ty));
                            }
                            VariantDefKind::Struct(s) => plan.structure(schema, s),
                        }
                    }
                }
            }
        }
        plan
    }

    fn structure(&mut self, schema: &'static Schema, s: &'static StructDef) {
        let mut names = FxHashSet::default();
        let clashing = !s
            .fields
            .iter()
            .filter_map(|f| f.sender.as_ref())
            .all(|sender| names.insert(sender.name.as_str()));
        let always = s
            .fields
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, f)| f.sender.as_ref().is_some_and(|s| s.emit == Emit::Always))
            .fold(0, |mask, (i, _)| mask | 1 << i);
        let slots = s
            .fields
            .iter()
            .map(|f| {
                let name = f.sender.as_ref().map(|sender| sender.name.as_str());
                let key = name.map_or_else(Box::default, |name| {
                    let mut key = vec![b','];
                    // Writing a string into a `Vec` cannot fail.
                    let _ = serde_json::to_writer(&mut key, name);
                    key.push(b':');
                    key.into_boxed_slice()
                });
                Slot {
                    name,
                    key,
                    ty: &f.ty,
                    shape: resolve(schema, &f.ty),
                    key_addr: AtomicUsize::new(0),
                }
            })
            .collect::<Vec<_>>();
        let slots: &'static [Slot] = Box::leak(slots.into_boxed_slice());
        self.structs.insert(
            std::ptr::from_ref(s) as usize,
            StructFacts {
                clashing,
                always,
                slots,
            },
        );
        for field in &s.fields {
            self.ty(schema, &field.ty);
        }
        if let Some(extra) = &s.extra {
            self.ty(schema, extra);
        }
    }

    fn ty(&mut self, schema: &'static Schema, ty: &'static Type) {
        self.shapes
            .insert(std::ptr::from_ref(ty) as usize, resolve(schema, ty));
        match ty {
            Type::Set(_) => self.eligible = false,
            Type::Constrained(_) => self.constrained = true,
            Type::Option(inner) | Type::List(inner) | Type::Array(inner, _) => {
                self.ty(schema, inner);
            }
            Type::Map(key, value) => {
                self.ty(schema, key);
                self.ty(schema, value);
            }
            Type::Tuple(items) => items.iter().for_each(|ty| self.ty(schema, ty)),
            _ => {}
        }
    }

    /// What `send` checks of `def`'s fields.
    pub(crate) fn struct_facts(&self, def: &StructDef) -> &StructFacts {
        static NONE: StructFacts = StructFacts {
            clashing: false,
            always: 0,
            slots: &[],
        };
        self.structs
            .get(&(std::ptr::from_ref(def) as usize))
            .unwrap_or(&NONE)
    }

    pub(crate) fn shape(&self, schema: &'static Schema, ty: &'static Type) -> Shape {
        match self.shapes.get(&(std::ptr::from_ref(ty) as usize)) {
            Some(shape) => *shape,
            None => resolve(schema, ty),
        }
    }
}

/// The wire form of `ty`: through options and newtypes to what serde reads.
fn resolve(schema: &'static Schema, mut ty: &'static Type) -> Shape {
    for _ in 0..=schema.types.len() {
        match ty {
            Type::Option(inner) => ty = inner,
            Type::Named(name) => match schema.def(name).map(|d| &d.body) {
                Some(Body::Newtype(inner)) => ty = inner,
                Some(Body::Struct(s)) => return Shape::Struct(s),
                Some(Body::Enum(e)) => return Shape::Enum(e),
                // Never reached: a plan with such a type is not eligible.
                Some(Body::Views { .. }) | None => return Shape::Scalar(ty),
            },
            Type::List(item) | Type::Array(item, _) | Type::Set(item) => return Shape::Seq(item),
            Type::Tuple(items) => return Shape::Tuple(items),
            Type::Map(key, value) => return Shape::Map(key, value),
            Type::Any => return Shape::Any,
            _ => return Shape::Scalar(ty),
        }
    }
    Shape::Scalar(ty)
}

/// What a path keeps per thread between calls: the path ids of the last schema and view it
/// worked on (so a call mostly finds its paths instead of adding them) and buffers.
#[derive(Default)]
pub(crate) struct Memo {
    /// The address of the schema and the view the paths belong to.
    schema: usize,
    view: Option<View>,
    pub(crate) index: PathIndex,
    /// Every path met so far under this schema, by id (`None` while a call has them).
    paths: Option<Arc<Vec<PathNode<'static>>>>,
    /// The text of the last key read (empty for a non-string key), and its fingerprint when
    /// already known.
    key: String,
    key_fp: Option<u64>,
    /// The fingerprints of the keys of the objects open, innermost last.
    fingerprints: Vec<u64>,
    /// Which fields of the structs open arrived, innermost last.
    seen: Vec<bool>,
    /// Per path (at its id plus one: the top level, [`ROOT`], at 0), the struct last opened
    /// there: opening it again at that path looks nothing up.
    opened: Vec<Option<Opened>>,
    /// The counts of the call going on (its room kept between calls).
    tally: Vec<Tally>,
    /// `send`'s stack of arrays and objects open, kept empty between calls for its room.
    pub(crate) frames: Vec<super::fast_send::Frame>,
}

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
        let address = std::ptr::from_ref(schema) as usize;
        let paths = match self.paths.take() {
            Some(paths)
                if (self.schema, self.view) == (address, Some(view))
                    && paths.len() <= MAX_REMEMBERED_PATHS =>
            {
                paths
            }
            _ => {
                self.schema = address;
                self.view = Some(view);
                self.index.clear();
                self.opened.clear();
                Arc::default()
            }
        };
        // The counts are kept in the memo's buffer during the call, and copied out at its
        // end: the call's own allocations come after the value's, as `serde_json`'s would.
        let mut tally = std::mem::take(&mut self.tally);
        tally.clear();
        tally.resize(paths.len(), Tally::default());
        let record = Record::with_tally(schema, view, paths, tally);
        self.fingerprints.clear();
        self.seen.clear();
        record
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

    /// Keeps `key` as the last key read, a string that names no field.
    fn set_key(&mut self, key: &str) {
        self.key.clear();
        self.key.push_str(key);
        self.key_fp = None;
    }

    /// Remembers the paths a call added.
    pub(crate) fn finish(&mut self, record: &mut Record<'static>) {
        self.paths = Some(Arc::clone(&record.paths));
        let buffer = std::mem::take(&mut record.tally);
        record.tally = buffer.as_slice().to_vec();
        self.tally = buffer;
    }

    /// Remembers the paths a call added, whose record is dropped (the full path decides).
    pub(crate) fn abandon(&mut self, record: &mut Record<'static>) {
        self.paths = Some(Arc::clone(&record.paths));
        self.tally = std::mem::take(&mut record.tally);
    }
}

/// Reads `T` from `bytes` in one pass and records its presence; `None` where the full path
/// must decide (serde refused, or a stricter point was met).
pub(crate) fn receive<T: serde::de::DeserializeOwned>(
    schema: &'static Schema,
    plan: &'static Plan,
    bytes: &[u8],
    limits: &Limits,
    memo: &mut Memo,
    record: &mut Record<'static>,
) -> Option<T> {
    if bytes.len() > limits.max_bytes {
        memo.abandon(record);
        return None;
    }
    let mut fast = Fast {
        schema,
        plan,
        record,
        memo,
        limits: *limits,
        depth: 0,
        bail: false,
        key_field: None,
        node: Node::Ty(&schema.root),
        here: ROOT,
        bare_scalars: bytes.len() <= limits.max_string_bytes,
        last_shape: LastShape::default(),
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let wrapped = De {
        de: &mut de,
        fast: &mut fast,
    };
    let value = T::deserialize(wrapped).and_then(|value| de.end().map(|()| value));
    match value {
        Ok(value) if !fast.bail => {
            fast.memo.finish(fast.record);
            Some(value)
        }
        _ => {
            fast.memo.abandon(fast.record);
            None
        }
    }
}

/// What the pass carries from value to value.
struct Fast<'i> {
    schema: &'static Schema,
    plan: &'static Plan,
    record: &'i mut Record<'static>,
    memo: &'i mut Memo,
    limits: Limits,
    /// Arrays and objects open.
    depth: usize,
    /// A point where the full path decides was met.
    bail: bool,
    /// The field the last key named, when read with a struct's context.
    key_field: Option<usize>,
    /// What the schema says of the value about to be read, and its path: set by whoever
    /// asks serde_json for the next value, read where serde_json hands it over. The
    /// wrappers carry nothing else, so that they stay small.
    node: Node,
    here: u32,
    /// Whether a scalar can be handed to serde_json unwrapped: no string of the payload can
    /// be over the limit, since the payload is not.
    bare_scalars: bool,
    /// The last type whose shape was asked for, and its shape.
    last_shape: LastShape,
}

impl Fast<'_> {
    /// Gives up: the full path decides.
    fn bail<E: de::Error>(&mut self) -> E {
        self.bail = true;
        E::custom("handoff: the full check decides")
    }

    /// A string of `len` bytes, `borrowed` from the input (its JSON text is exactly as long)
    /// or unescaped (its text is at most six times as long): within the limit for sure?
    fn string_fits(&self, len: usize, borrowed: bool) -> bool {
        let max = self.limits.max_string_bytes;
        if borrowed {
            len <= max
        } else {
            len.saturating_mul(6) <= max
        }
    }

    fn child(&mut self, parent: u32, label: Label<'static>) -> u32 {
        self.memo.index.child(self.record, parent, label)
    }

    /// Whether the value at `node` goes to serde_json unwrapped (see [`bare_scalar`]): where
    /// no limit can be reached, it has nothing to record or check.
    #[inline(always)]
    fn bare(&self, node: Node) -> bool {
        self.bare_scalars && matches!(node, Node::Ty(ty) if bare_scalar(ty))
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

    /// Points the cursor at the next value.
    fn at(&mut self, node: Node, here: u32) -> &mut Self {
        self.node = node;
        self.here = here;
        self
    }

    fn enter<E: de::Error>(&mut self) -> Result<(), E> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(self.bail());
        }
        Ok(())
    }
}

/// Whether a value of `ty` may go to serde_json unwrapped: a scalar (or an `Option` of one)
/// of a type whose `Deserialize` reads only what the schema says. Not integers: a type may
/// read one more leniently than its kind (`Saturating` clamps what is out of range), so their
/// range is checked on the way.
#[inline(always)]
fn bare_scalar(ty: &Type) -> bool {
    fn scalar(ty: &Type) -> bool {
        matches!(
            ty,
            Type::Bool | Type::Float(_) | Type::Char | Type::String(_) | Type::Unit
        )
    }
    match ty {
        Type::Option(inner) => scalar(inner),
        ty => scalar(ty),
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
    /// An object key (of this type, for a map): recorded for the map that reads it.
    Key(Option<&'static Type>),
    /// A struct's key, and the field to try first: a key naming a field is matched where it
    /// is read, without a copy.
    FieldKey(&'static StructDef, usize),
    /// A value nobody reads (an unknown field, `Any`): walked only for what serde_json skips.
    Ignore,
}

/// The form a type takes on the wire.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    Struct(&'static StructDef),
    Enum(&'static EnumDef),
    Seq(&'static Type),
    Tuple(&'static [Type]),
    /// A map's key and value types.
    Map(&'static Type, &'static Type),
    Any,
    /// A scalar (or a type the schema does not know), as resolved.
    Scalar(&'static Type),
}

impl Node {
    #[inline]
    fn shape(self, fast: &Fast<'_>) -> Shape {
        match self {
            Node::Ty(ty) => fast.last_shape.of(fast.plan, fast.schema, ty),
            Node::Struct(s) => Shape::Struct(s),
            Node::Tuple(items) => Shape::Tuple(items),
            Node::Key(_) | Node::FieldKey(..) => Shape::Scalar(&super::fast_send::FREE_KEY),
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

/// A scalar as a constraint sees it.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Int(IntValue),
    Str(&'a str),
}

/// Whether `value` is within `constraint` (a value of another kind is for serde to refuse). A
/// string's pattern is not checked at run time (see the checker's documentation).
pub(crate) fn constraint_admits(constraint: &Constraint, value: Value<'_>) -> bool {
    match (constraint, value) {
        (Constraint::Int { values, .. }, Value::Int(v)) => values.contains(v),
        (Constraint::String(s), Value::Str(text)) => s.length.contains(text.chars().count() as u64),
        _ => true,
    }
}

/// The field of `def` the receiver reads `key` into (serde gives a key to the first field
/// that reads it; keys mostly come in declaration order, so the search starts at `guess`).
#[inline(always)]
fn field_named(def: &StructDef, guess: usize, key: &str) -> Option<usize> {
    let key = key.as_bytes();
    let fields = &def.fields;
    let guess = guess.min(fields.len());
    let mut f = guess;
    while f < fields.len() {
        if reads(&fields[f], key) {
            return Some(f);
        }
        f += 1;
    }
    (0..guess).find(|&f| reads(&fields[f], key))
}

/// Whether the receiver reads `key` into `field`.
#[inline(always)]
fn reads(field: &contract_schema::model::FieldDef, key: &[u8]) -> bool {
    field.receiver.as_ref().is_some_and(|r| {
        same(r.name.as_bytes(), key) || r.aliases.iter().any(|a| same(a.as_bytes(), key))
    })
}

/// `a == b`, compared in line for the short names fields mostly have: two overlapping
/// loads cover every length from 4 to 16 bytes, three single bytes every length below 4.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        9..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

/// The `N` bytes of `s` from `at` (in bounds by the callers' match).
#[inline(always)]
fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
    let mut w = [0; N];
    w.copy_from_slice(&s[at..at + N]);
    w
}

pub(crate) fn fingerprint(kind: u8, bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write_u8(kind);
    h.write(bytes);
    h.finish()
}

// ---- the deserializer ------------------------------------------------------------------

/// serde_json's deserializer (or one of its parts), followed beside the schema (at
/// `fast`'s cursor).
struct De<'f, 'i, D> {
    de: D,
    fast: &'f mut Fast<'i>,
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            self.de.$method($($arg,)* Vis { v: visitor, fast: self.fast })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for De<'_, '_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_identifier();
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        if let Shape::Struct(_) = self.fast.node.shape(self.fast) {
            // A struct with a flattened field: serde buffers the values and reads the
            // flattened ones later, where an `Option` swallows their errors.
            return Err(self.fast.bail());
        }
        self.de.deserialize_map(Vis {
            v: visitor,
            fast: self.fast,
        })
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
        // serde_json hands out a string's raw bytes unchecked.
        Err(self.fast.bail())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
        Err(self.fast.bail())
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if super::serde_json_private(name) {
            // `RawValue` and its kin: serde_json's private protocol.
            return Err(self.fast.bail());
        }
        self.de.deserialize_newtype_struct(
            name,
            Vis {
                v: visitor,
                fast: self.fast,
            },
        )
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        // serde_json would skip the value without checking it.
        if !matches!(self.fast.node, Node::Key(_) | Node::FieldKey(..)) {
            self.fast.node = Node::Ignore;
        }
        self.de.deserialize_any(Vis {
            v: visitor,
            fast: self.fast,
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (node, key) = match self.fast.node {
            // A map key naming a variant: recorded as a key, not as a path.
            Node::Key(Some(ty)) => (Node::Ty(ty), true),
            node => (node, false),
        };
        match node.shape(self.fast) {
            Shape::Enum(e) if e.repr == Repr::External && (!key || e.is_string_enum()) => {
                let here = self.fast.here;
                self.de.deserialize_any(EnumVis {
                    v: visitor,
                    fast: self.fast,
                    e,
                    here,
                    key,
                })
            }
            _ => Err(self.fast.bail()),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

// ---- the visitor -----------------------------------------------------------------------

/// `T`'s visitor, wrapped to follow what serde_json hands it.
struct Vis<'f, 'i, V> {
    v: V,
    fast: &'f mut Fast<'i>,
}

impl<V> Vis<'_, '_, V> {
    fn key_number(&mut self, kind: u8, bytes: &[u8]) {
        if let Node::Key(_) | Node::FieldKey(..) = self.fast.node {
            let memo = &mut *self.fast.memo;
            memo.key.clear();
            memo.key_fp = Some(fingerprint(kind, bytes));
            self.fast.key_field = None;
        }
    }

    #[inline(always)]
    fn string<E: de::Error>(&mut self, s: &str, borrowed: bool) -> Result<(), E> {
        if !self.fast.string_fits(s.len(), borrowed) {
            return Err(self.fast.bail());
        }
        match self.fast.node {
            Node::FieldKey(def, guess) => {
                let found = field_named(def, guess, s);
                self.fast.key_field = found;
                if found.is_none() {
                    self.fast.memo.set_key(s);
                }
                Ok(())
            }
            Node::Key(_) => {
                self.fast.key_field = None;
                self.fast.memo.set_key(s);
                Ok(())
            }
            Node::Ty(ty) => {
                if !self.fast.admits(Value::Str(s)) {
                    return Err(self.fast.bail());
                }
                // Only a named type (or an `Option` of one) can be an enum.
                let mut inner = ty;
                while let Type::Option(some) = inner {
                    inner = some;
                }
                if let Type::Named(_) = inner {
                    if let Shape::Enum(_) = self.fast.node.shape(self.fast) {
                        // An enum read as a string by a hand-written `Deserialize` (chrono's
                        // `Weekday` reads names in any case): which strings it takes is for
                        // the full path to say.
                        return Err(self.fast.bail());
                    }
                }
                Ok(())
            }
            Node::Struct(_) | Node::Tuple(_) | Node::Ignore => Ok(()),
        }
    }
}

macro_rules! numbers {
    ($($method:ident($ty:ty) = $kind:literal;)*) => {$(
        fn $method<E: de::Error>(mut self, n: $ty) -> Result<V::Value, E> {
            self.key_number($kind, &n.to_le_bytes());
            self.v.$method(n)
        }
    )*};
}

macro_rules! integers {
    ($($method:ident($ty:ty) = $kind:literal, $wide:ident;)*) => {$(
        fn $method<E: de::Error>(mut self, n: $ty) -> Result<V::Value, E> {
            self.key_number($kind, &n.to_le_bytes());
            if !self.fast.admits(Value::Int(IntValue::$wide(n.into()))) {
                return Err(self.fast.bail());
            }
            self.v.$method(n)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Vis<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.v.expecting(f)
    }

    integers! {
        visit_i8(i8) = 1, from_i128;
        visit_i16(i16) = 1, from_i128;
        visit_i32(i32) = 1, from_i128;
        visit_i64(i64) = 1, from_i128;
        visit_i128(i128) = 1, from_i128;
        visit_u8(u8) = 2, from_u128;
        visit_u16(u16) = 2, from_u128;
        visit_u32(u32) = 2, from_u128;
        visit_u64(u64) = 2, from_u128;
        visit_u128(u128) = 2, from_u128;
    }

    numbers! {
        visit_f32(f32) = 3;
        visit_f64(f64) = 3;
    }

    fn visit_bool<E: de::Error>(mut self, b: bool) -> Result<V::Value, E> {
        self.key_number(4, &[u8::from(b)]);
        self.v.visit_bool(b)
    }

    fn visit_char<E: de::Error>(mut self, c: char) -> Result<V::Value, E> {
        self.string(c.encode_utf8(&mut [0; 4]), false)?;
        self.v.visit_char(c)
    }

    fn visit_str<E: de::Error>(mut self, s: &str) -> Result<V::Value, E> {
        self.string(s, false)?;
        self.v.visit_str(s)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, s: &'de str) -> Result<V::Value, E> {
        self.string(s, true)?;
        self.v.visit_borrowed_str(s)
    }

    fn visit_string<E: de::Error>(mut self, s: String) -> Result<V::Value, E> {
        self.string(&s, false)?;
        self.v.visit_string(s)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(self.fast.bail())
    }

    fn visit_borrowed_bytes<E: de::Error>(self, _: &'de [u8]) -> Result<V::Value, E> {
        Err(self.fast.bail())
    }

    fn visit_byte_buf<E: de::Error>(self, _: Vec<u8>) -> Result<V::Value, E> {
        Err(self.fast.bail())
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_none()
    }

    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.fast.node = self.fast.node.some();
        self.v.visit_some(De {
            de: d,
            fast: self.fast,
        })
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_unit()
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.v.visit_newtype_struct(De {
            de: d,
            fast: self.fast,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let Vis { v, fast } = self;
        let here = fast.here;
        let (items, here) = match fast.node.shape(fast) {
            Shape::Seq(item) => (Items::One(item), fast.memo.index.items(fast.record, here)),
            Shape::Tuple(items) => (Items::Each(items), fast.memo.index.items(fast.record, here)),
            Shape::Any => (Items::Ignore, here),
            // A struct written as an array, or a sequence where the schema has none.
            _ => return Err(fast.bail()),
        };
        fast.enter()?;
        let result = v.visit_seq(Seq {
            seq,
            fast: &mut *fast,
            items,
            here,
            n: 0,
        });
        fast.depth -= 1;
        result
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let Vis { v, fast } = self;
        let here = fast.here;
        // Where the struct's run of `memo.seen` starts, past 64 fields.
        let mut spilled = None;
        let node = match fast.node {
            Node::Ty(ty) => std::ptr::from_ref(ty) as usize,
            Node::Struct(def) => std::ptr::from_ref(def) as usize,
            _ => 0,
        };
        // A struct opened here before, or the value's shape.
        let opened = match fast.memo.opened(here, node) {
            Some(opened) => Ok(opened),
            None => match fast.node.shape(fast) {
                Shape::Struct(def) if node != 0 => {
                    Ok(fast.memo.open(fast.plan, fast.record, here, node, def))
                }
                shape => Err(shape),
            },
        };
        let mode = match opened {
            Ok(Opened {
                def, base, facts, ..
            }) => {
                let seen = if def.fields.len() <= 64 {
                    Seen::Bits(0)
                } else {
                    let at = fast.memo.seen.len();
                    fast.memo.seen.resize(at + def.fields.len(), false);
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
                key,
                value,
                values: fast.child(here, Label::Values),
            },
            Err(Shape::Any) => Mode::Any,
            Err(_) => return Err(fast.bail()),
        };
        fast.enter()?;
        let seen_keys = KeySet::open(fast.memo);
        let result = v.visit_map(Map {
            map,
            fast: &mut *fast,
            mode,
            here,
            keys: 0,
            seen_keys,
            pending: (Node::Ignore, here, false),
        });
        fast.depth -= 1;
        if let Some(at) = spilled {
            fast.memo.seen.truncate(at);
        }
        result
    }

    fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        // serde_json offers an enum only to `deserialize_enum`, which the wrapper reads itself.
        Err(self.fast.bail())
    }
}

// ---- sequences -------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum Items {
    One(&'static Type),
    Each(&'static [Type]),
    Ignore,
}

struct Seq<'f, 'i, A> {
    seq: A,
    fast: &'f mut Fast<'i>,
    items: Items,
    here: u32,
    n: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'_, '_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let node = match self.items {
            Items::One(item) => Node::Ty(item),
            Items::Each(items) => items.get(self.n).map_or(Node::Ignore, Node::Ty),
            Items::Ignore => Node::Ignore,
        };
        self.n += 1;
        if self.fast.bare(node) {
            return self.seq.next_element_seed(seed);
        }
        self.seq.next_element_seed(Seed {
            seed,
            fast: self.fast.at(node, self.here),
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// `T`'s seed, wrapped to follow the value it reads.
struct Seed<'f, 'i, S> {
    seed: S,
    fast: &'f mut Fast<'i>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, '_, S> {
    type Value = S::Value;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(De {
            de,
            fast: self.fast,
        })
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
    /// A map: its keys are data, its values at path `values`.
    Data {
        key: &'static Type,
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

/// The shape of the last type asked for: the items of an array ask for the same type, one
/// after the other.
#[derive(Default)]
pub(crate) struct LastShape(std::cell::Cell<Option<(&'static Type, Shape)>>);

impl LastShape {
    /// Knows `shape` as the shape of `ty` (a struct field's, from the plan): asking for it
    /// next costs no lookup.
    #[inline(always)]
    pub(crate) fn set(&self, ty: &'static Type, shape: Shape) {
        self.0.set(Some((ty, shape)));
    }

    /// The shape of `ty` in `schema`, through `plan`.
    pub(crate) fn of(&self, plan: &Plan, schema: &'static Schema, ty: &'static Type) -> Shape {
        match self.0.get() {
            Some((last, shape)) if std::ptr::eq(last, ty) => shape,
            _ => {
                let shape = plan.shape(schema, ty);
                self.0.set(Some((ty, shape)));
                shape
            }
        }
    }
}

struct Map<'f, 'i, A> {
    map: A,
    fast: &'f mut Fast<'i>,
    mode: Mode,
    here: u32,
    keys: usize,
    /// The keys seen, by fingerprint.
    seen_keys: KeySet,
    /// What the value of the last key is, its path, and whether it goes to serde_json
    /// unwrapped (when no limit can be reached).
    pending: (Node, u32, bool),
}

impl<A> Map<'_, '_, A> {
    /// Whether the last key is new in this object.
    fn fresh(&mut self) -> bool {
        let memo = &mut *self.fast.memo;
        let fp = memo
            .key_fp
            .unwrap_or_else(|| fingerprint(0, memo.key.as_bytes()));
        self.seen_keys.insert(memo, fp)
    }

    /// What follows a key of a struct: its field, the captured extra keys, or an unknown
    /// name.
    #[inline(always)]
    fn struct_key<E: de::Error>(&mut self) -> Result<(Node, u32, bool), E> {
        let Mode::Struct {
            def,
            base,
            ref mut seen,
            ref mut next_guess,
            facts,
        } = self.mode
        else {
            return Err(self.fast.bail());
        };
        if let Some(f) = self.fast.key_field {
            *next_guess = f + 1;
            let again = match seen {
                Seen::Bits(bits) => std::mem::replace(bits, *bits | 1 << f) & 1 << f != 0,
                Seen::Spilled(at) => std::mem::replace(&mut self.fast.memo.seen[*at + f], true),
            };
            if again {
                // Serde's "duplicate field", or the same key twice.
                return Err(self.fast.bail());
            }
            let field = &def.fields[f];
            let fast = &mut *self.fast;
            // At most 64 fields here, or fewer than the paths: `f` fits.
            let id = base + f as u32;
            fast.record.arrive(id);
            // A compound field's shape is known from the plan: reading it looks nothing up.
            if let Some(slot) = facts.slots.get(f) {
                if !matches!(slot.shape, Shape::Scalar(_)) {
                    fast.last_shape.set(slot.ty, slot.shape);
                }
            }
            return Ok((Node::Ty(&field.ty), id, bare_scalar(&field.ty)));
        }
        if super::serde_json_private(&self.fast.memo.key) || !self.fresh() {
            return Err(self.fast.bail());
        }
        match (&def.extra, def.unknown) {
            (Some(extra), Unknown::Capture) => {
                let values = self.fast.child(self.here, Label::Values);
                Ok((Node::Ty(extra), values, false))
            }
            _ => {
                let fast = &mut *self.fast;
                let max = fast.limits.max_unknown_names;
                fast.record
                    .unknown_name(self.here, fast.memo.key.as_bytes(), max);
                Ok((Node::Ignore, self.here, false))
            }
        }
    }
}

impl<A> Drop for Map<'_, '_, A> {
    /// The object's keys leave the stack when the visitor is done with it.
    fn drop(&mut self) {
        self.seen_keys.close(self.fast.memo);
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<'_, '_, A> {
    type Error = A::Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        // A struct's keys (most keys) take a path of their own: one look at the mode.
        if let Mode::Struct {
            def, next_guess, ..
        } = self.mode
        {
            let key = self.map.next_key_seed(Seed {
                seed,
                fast: self.fast.at(Node::FieldKey(def, next_guess), self.here),
            })?;
            if key.is_some() {
                self.keys += 1;
                if self.keys > self.fast.limits.max_keys_per_object {
                    return Err(self.fast.bail());
                }
                self.pending = self.struct_key()?;
            }
            return Ok(key);
        }
        let node = match self.mode {
            Mode::Data { key, .. } => Node::Key(Some(key)),
            _ => Node::Key(None),
        };
        let key = self.map.next_key_seed(Seed {
            seed,
            fast: self.fast.at(node, self.here),
        })?;
        if key.is_none() {
            return Ok(None);
        }
        self.keys += 1;
        if self.keys > self.fast.limits.max_keys_per_object
            || super::serde_json_private(&self.fast.memo.key)
            || !self.fresh()
        {
            return Err(self.fast.bail());
        }
        self.pending = match self.mode {
            Mode::Data { value, values, .. } => (Node::Ty(value), values, bare_scalar(value)),
            _ => (Node::Ignore, self.here, false),
        };
        Ok(key)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let (node, here, bare) = self.pending;
        if bare && self.fast.bare_scalars {
            return self.map.next_value_seed(seed);
        }
        self.map.next_value_seed(Seed {
            seed,
            fast: self.fast.at(node, here),
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

// ---- externally tagged enums -----------------------------------------------------------

/// The visitor of `deserialize_enum`: a variant name, or an object of one key.
struct EnumVis<'f, 'i, V> {
    v: V,
    fast: &'f mut Fast<'i>,
    e: &'static EnumDef,
    here: u32,
    /// A map key: recorded for the map, with no path of its own.
    key: bool,
}

impl<V> EnumVis<'_, '_, V> {
    /// Enters the path of the variant named `tag`, if it is a unit variant.
    fn unit<E: de::Error>(&mut self, tag: &str, borrowed: bool) -> Result<(), E> {
        if !self.fast.string_fits(tag.len(), borrowed) {
            return Err(self.fast.bail());
        }
        if self.key {
            self.fast.memo.set_key(tag);
            return Ok(());
        }
        let variant = self
            .e
            .variants
            .iter()
            .find(|v| v.receiver.iter().any(|t| t == tag));
        if let Some(v) = variant.filter(|v| matches!(v.kind, VariantDefKind::Unit)) {
            self.fast.child(self.here, variant_label(v));
        }
        Ok(())
    }
}

fn variant_label(v: &'static contract_schema::model::VariantDef) -> Label<'static> {
    Label::Variant(
        v.receiver
            .first()
            .map_or(v.rust_name.as_str(), String::as_str),
    )
}

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumVis<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.v.expecting(f)
    }

    fn visit_str<E: de::Error>(mut self, s: &str) -> Result<V::Value, E> {
        self.unit(s, false)?;
        self.v.visit_enum(StrDeserializer::<E>::new(s))
    }

    fn visit_borrowed_str<E: de::Error>(mut self, s: &'de str) -> Result<V::Value, E> {
        self.unit(s, true)?;
        self.v.visit_enum(BorrowedStrDeserializer::<E>::new(s))
    }

    fn visit_string<E: de::Error>(mut self, s: String) -> Result<V::Value, E> {
        self.unit(&s, false)?;
        self.v.visit_enum(StringDeserializer::<E>::new(s))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let EnumVis {
            v, fast, e, here, ..
        } = self;
        if e.is_string_enum() {
            // `{"Variant": null}` for an enum of names: serde takes it, `receive` does not.
            return Err(fast.bail());
        }
        fast.enter()?;
        let result = v.visit_enum(OneKey {
            map,
            fast: &mut *fast,
            e,
            here,
        });
        fast.depth -= 1;
        result
    }
}

/// An externally tagged variant's object: the key names the variant, the value is its
/// content, and no other key may follow.
struct OneKey<'f, 'i, A> {
    map: A,
    fast: &'f mut Fast<'i>,
    e: &'static EnumDef,
    here: u32,
}

impl<'f, 'i, 'de, A: MapAccess<'de>> EnumAccess<'de> for OneKey<'f, 'i, A> {
    type Error = A::Error;
    type Variant = Content<'f, 'i, A>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let Some(value) = self.map.next_key_seed(Seed {
            seed,
            fast: self.fast.at(Node::Key(None), self.here),
        })?
        else {
            return Err(self.fast.bail());
        };
        let key = self.fast.memo.key.as_str();
        let variant = self
            .e
            .variants
            .iter()
            .find(|v| v.receiver.iter().any(|t| t == key));
        let (kind, here) = match variant {
            Some(v) if !matches!(v.kind, VariantDefKind::Unit) => {
                (&v.kind, self.fast.child(self.here, variant_label(v)))
            }
            // A unit variant as an object; a name serde may map to a catch-all.
            _ => return Err(self.fast.bail()),
        };
        Ok((
            value,
            Content {
                map: self.map,
                fast: self.fast,
                kind,
                here,
            },
        ))
    }
}

/// The content of an externally tagged variant.
struct Content<'f, 'i, A> {
    map: A,
    fast: &'f mut Fast<'i>,
    kind: &'static VariantDefKind,
    here: u32,
}

impl<'de, A: MapAccess<'de>> Content<'_, '_, A> {
    /// Reads the content with `seed`, then makes sure no second key follows.
    fn read<S: DeserializeSeed<'de>>(mut self, seed: S) -> Result<S::Value, A::Error> {
        let node = match self.kind {
            VariantDefKind::Newtype(ty) => Node::Ty(ty),
            VariantDefKind::Tuple(items) => Node::Tuple(items),
            VariantDefKind::Struct(s) => Node::Struct(s),
            VariantDefKind::Unit => return Err(self.fast.bail()),
        };
        let value = self.map.next_value_seed(Seed {
            seed,
            fast: self.fast.at(node, self.here),
        })?;
        if self.map.next_key::<IgnoredAny>()?.is_some() {
            return Err(self.fast.bail());
        }
        Ok(value)
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Content<'_, '_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        Err(self.fast.bail())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.read(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.read(Call::Tuple(len, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.read(Call::Struct(fields, visitor))
    }
}

/// A seed that reads a tuple or struct variant's content with its visitor.
enum Call<V> {
    Tuple(usize, V),
    Struct(&'static [&'static str], V),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Call<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        match self {
            Call::Tuple(len, visitor) => de.deserialize_tuple(len, visitor),
            Call::Struct(fields, visitor) => de.deserialize_struct("", fields, visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::same;

    /// `same` is `==` at every length its loads split differently, whichever byte differs.
    #[test]
    fn same_is_equality_at_every_length() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same(&a, &b), "length {n}, byte {at}");
            }
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!same(&a, &longer), "{n}");
        }
    }
}
