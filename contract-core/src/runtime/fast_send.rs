//! The fast path of `send`: serde_json writes the payload through a `Serializer` wrapper that
//! follows the sender view of the value's own schema beside the calls of its `Serialize`,
//! records the presence of every field, and gives up (the full path then serializes again,
//! records the tape and walks it, listing every problem) at the first call the sender view
//! does not expect:
//!
//! - a field the view does not write, a field written twice, a field the view always writes
//!   left out;
//! - a value of another kind than the schema's (a hand-written `Serialize` or a `schema_as`
//!   that says otherwise), an integer out of its kind's range, a float that is not finite
//!   (serde_json writes `null`), `null` where the type is not nullable, an array or tuple of
//!   another length, a variant the view does not write;
//! - the same key twice in a map (two keys that serialize alike);
//! - a limit of [`Limits`] reached, bytes, serde_json's private forms (`RawValue`,
//!   arbitrary-precision numbers), and a struct written as a map (a flattened field).
//!
//! Types whose schema holds a set or an enum that is not externally tagged take the full path
//! always (see [`Plan`]). `send_to` (another contract's receiver view) always takes the full
//! path.

use std::cell::RefCell;
use std::fmt::Display;

use serde::ser::{self, Serialize, Serializer};

use contract_schema::constraint::{Constraint, IntValue};
use contract_schema::model::{
    Body, EnumDef, FloatKind, IntKind, Repr, StructDef, Type, VariantDef, VariantDefKind,
};
use contract_schema::{Schema, View};

use super::fast::{
    constraint_admits, fingerprint, same, KeySet, LastShape, Memo, Plan, Shape, StructFacts, Value,
};
use super::presence::{Label, Record, ROOT};
use super::Limits;

/// Writes `value` as `serde_json::to_vec` does into `out` and records its presence; `None`
/// where the full path must decide.
pub(crate) fn send<T: Serialize + ?Sized>(
    schema: &'static Schema,
    plan: &'static Plan,
    value: &T,
    limits: &Limits,
    memo: &mut Memo,
    out: &mut Vec<u8>,
) -> Option<Record<'static>> {
    out.clear();
    let record = memo.start(schema, View::Sender);
    let st = RefCell::new(State {
        schema,
        plan,
        record,
        memo,
        limits: *limits,
        depth: 0,
        bail: false,
        node: Node::Ty(&schema.root),
        here: ROOT,
        key: None,
        last_shape: LastShape::default(),
    });
    let written = {
        let mut serializer = serde_json::Serializer::new(&mut *out);
        value.serialize(Ser {
            inner: &mut serializer,
            st: &st,
        })
    };
    let st = st.into_inner();
    st.memo.finish(&st.record);
    (written.is_ok() && !st.bail && out.len() <= limits.max_bytes).then_some(st.record)
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

struct State<'m> {
    schema: &'static Schema,
    plan: &'static Plan,
    record: Record<'static>,
    memo: &'m mut Memo,
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
}

impl State<'_> {
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
}

/// Gives up: the full path decides.
fn bail<E: ser::Error>(st: &RefCell<State<'_>>) -> E {
    st.borrow_mut().bail = true;
    E::custom(BAIL)
}

/// The message of the error that stops serde_json when the fast path gives up.
const BAIL: &str = "handoff: the full check decides";

/// The serializer wrapper.
struct Ser<'s, 'm, S> {
    inner: S,
    st: &'s RefCell<State<'m>>,
}

/// A value written through the wrapper.
struct W<'s, 'm, T: ?Sized> {
    value: &'s T,
    st: &'s RefCell<State<'m>>,
}

impl<T: Serialize + ?Sized> Serialize for W<'_, '_, T> {
    fn serialize<S: Serializer>(&self, inner: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Ser { inner, st: self.st })
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

impl<S> Ser<'_, '_, S> {
    /// Whether the scalar `value` may stand where the cursor points (recording a map key or a
    /// unit variant on the way).
    #[inline(always)]
    fn scalar_fits(&self, value: &Scalar<'_>) -> bool {
        let mut st = self.st.borrow_mut();
        let node = st.node;
        if let Node::Key(ty) = node {
            return key_fits(&mut st, ty, value);
        }
        if let Scalar::Str(s) = value {
            if !string_fits(&st.limits, s) {
                return false;
            }
        }
        if let Scalar::Null = value {
            return match node {
                Node::Ty(ty) => st.schema.resolve(ty).is_nullable(),
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
        match st.shape(node) {
            Shape::Any => true,
            Shape::Scalar(ty) => scalar_of(ty, value),
            // An enum of names written by a hand-written `Serialize`: its unit variant.
            Shape::Enum(e) => match value {
                Scalar::Str(s) => match unit_variant(e, s) {
                    Some(v) => {
                        let here = st.here;
                        st.child(here, variant_label(v));
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    #[inline(always)]
    fn check<E: ser::Error>(&self, value: &Scalar<'_>) -> Result<(), E> {
        if self.scalar_fits(value) {
            Ok(())
        } else {
            Err(bail(self.st))
        }
    }
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
fn key_fits(st: &mut State<'_>, ty: &'static Type, value: &Scalar<'_>) -> bool {
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

fn variant_label(v: &'static VariantDef) -> Label<'static> {
    Label::Variant(v.sender.as_deref().unwrap_or(v.rust_name.as_str()))
}

macro_rules! ints {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            let wide = i128::from(v);
            self.check(&Scalar::Int(wide.min(0), wide.max(0).unsigned_abs()))?;
            self.inner.$method(v)
        }
    )*};
}

impl<'s, 'm, S: Serializer> Serializer for Ser<'s, 'm, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'s, 'm, S::SerializeSeq>;
    type SerializeTuple = Compound<'s, 'm, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'s, 'm, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'s, 'm, S::SerializeTupleVariant>;
    type SerializeMap = Compound<'s, 'm, S::SerializeMap>;
    type SerializeStruct = Compound<'s, 'm, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'s, 'm, S::SerializeStructVariant>;

    fn serialize_bool(self, v: bool) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Bool)?;
        self.inner.serialize_bool(v)
    }

    ints! {
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
    }

    fn serialize_u128(self, v: u128) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Int(0, v))?;
        self.inner.serialize_u128(v)
    }

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Float(f64::from(v), true))?;
        self.inner.serialize_f32(v)
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Float(v, false))?;
        self.inner.serialize_f64(v)
    }

    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Str(v.encode_utf8(&mut [0; 4])))?;
        self.inner.serialize_char(v)
    }

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Str(v))?;
        self.inner.serialize_str(v)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<S::Ok, S::Error> {
        Err(bail(self.st))
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Null)?;
        self.inner.serialize_none()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        {
            let mut st = self.st.borrow_mut();
            if let Node::Ty(Type::Option(inner)) = st.node {
                st.node = Node::Ty(inner);
            }
        }
        self.inner.serialize_some(&W { value, st: self.st })
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Null)?;
        self.inner.serialize_unit()
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Null)?;
        self.inner.serialize_unit_struct(name)
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.check(&Scalar::Str(variant))?;
        self.inner.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if name.starts_with("$serde_json::") {
            return Err(bail(self.st));
        }
        self.inner
            .serialize_newtype_struct(name, &W { value, st: self.st })
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let VariantKind::Newtype(ty) = enter_variant(self.st, variant)? else {
            return Err(bail(self.st));
        };
        self.st.borrow_mut().node = Node::Ty(ty);
        let result =
            self.inner
                .serialize_newtype_variant(name, index, variant, &W { value, st: self.st });
        self.st.borrow_mut().depth -= 1;
        result
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        let mode = open_items(self.st, None)?;
        Ok(Compound::new(self.inner.serialize_seq(len)?, self.st, mode))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        let mode = open_items(self.st, Some(len))?;
        Ok(Compound::new(
            self.inner.serialize_tuple(len)?,
            self.st,
            mode,
        ))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        let mode = open_items(self.st, Some(len))?;
        Ok(Compound::new(
            self.inner.serialize_tuple_struct(name, len)?,
            self.st,
            mode,
        ))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let VariantKind::Tuple(items) = enter_variant(self.st, variant)? else {
            return Err(bail(self.st));
        };
        self.st.borrow_mut().node = Node::Tuple(items);
        let mode = open_items(self.st, Some(len))?;
        let inner = self
            .inner
            .serialize_tuple_variant(name, index, variant, len)?;
        Ok(Compound::new(inner, self.st, mode).in_variant())
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let mode = {
            let mut st = self.st.borrow_mut();
            match st.shape(st.node) {
                Shape::Map(key, value) => {
                    let here = st.here;
                    Mode::Map {
                        key,
                        value,
                        values: st.child(here, Label::Values),
                    }
                }
                Shape::Any => Mode::Free,
                // A struct written as a map: a flattened field.
                _ => {
                    drop(st);
                    return Err(bail(self.st));
                }
            }
        };
        open(self.st)?;
        Ok(Compound::new(self.inner.serialize_map(len)?, self.st, mode))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let mode = open_struct(self.st)?;
        Ok(Compound::new(
            self.inner.serialize_struct(name, len)?,
            self.st,
            mode,
        ))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let VariantKind::Struct(s) = enter_variant(self.st, variant)? else {
            return Err(bail(self.st));
        };
        self.st.borrow_mut().node = Node::Struct(s);
        let mode = open_struct(self.st)?;
        let inner = self
            .inner
            .serialize_struct_variant(name, index, variant, len)?;
        Ok(Compound::new(inner, self.st, mode).in_variant())
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.serialize_str(&value.to_string())
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// What a variant carries.
enum VariantKind {
    Newtype(&'static Type),
    Tuple(&'static [Type]),
    Struct(&'static StructDef),
}

/// Enters the variant written as `tag` of the enum at the cursor (opening the object serde_json
/// writes around its content) and points the cursor at its path.
fn enter_variant<E: ser::Error>(st: &RefCell<State<'_>>, tag: &str) -> Result<VariantKind, E> {
    let found = {
        let mut st = st.borrow_mut();
        match st.shape(st.node) {
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
                        let here = st.here;
                        st.here = st.child(here, variant_label(v));
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
        }
    };
    let Some(kind) = found else {
        return Err(bail(st));
    };
    open(st)?;
    Ok(kind)
}

/// Opens an array or object: one level deeper.
fn open<E: ser::Error>(st: &RefCell<State<'_>>) -> Result<(), E> {
    let deep = {
        let mut st = st.borrow_mut();
        st.depth += 1;
        st.depth > st.limits.max_depth
    };
    if deep {
        return Err(bail(st));
    }
    Ok(())
}

/// Opens an array at the cursor: its items (of `len`, for a tuple).
fn open_items<E: ser::Error>(st: &RefCell<State<'_>>, len: Option<usize>) -> Result<Mode, E> {
    let mode = {
        let mut st = st.borrow_mut();
        let here = st.here;
        match st.shape(st.node) {
            Shape::Seq(item) => {
                let expected = match resolved(&st, st.node) {
                    Some(Type::Array(_, n)) => Some(*n),
                    _ => None,
                };
                Some(Mode::Items {
                    items: Items::One(item),
                    here: st.child(here, Label::Items),
                    n: 0,
                    expected,
                })
            }
            Shape::Tuple(items) => Some(Mode::Items {
                items: Items::Each(items),
                here: st.child(here, Label::Items),
                n: 0,
                expected: Some(items.len()),
            }),
            Shape::Any => Some(Mode::Free),
            _ => None,
        }
    };
    match mode {
        Some(Mode::Items {
            expected: Some(n), ..
        }) if len.is_some_and(|len| len != n) => Err(bail(st)),
        Some(mode) => {
            open(st)?;
            Ok(mode)
        }
        None => Err(bail(st)),
    }
}

/// The type at `node` through options and newtypes.
fn resolved(st: &State<'_>, node: Node) -> Option<&'static Type> {
    let Node::Ty(mut ty) = node else {
        return None;
    };
    for _ in 0..=st.schema.types.len() {
        ty = match st.schema.resolve(ty) {
            Type::Option(inner) => inner,
            other => return Some(other),
        };
    }
    None
}

/// Opens a struct's object at the cursor.
fn open_struct<E: ser::Error>(st: &RefCell<State<'_>>) -> Result<Mode, E> {
    let mode = {
        let mut st = st.borrow_mut();
        match st.shape(st.node) {
            Shape::Struct(def) if def.fields.len() <= 64 => {
                let here = st.here;
                let base = st.memo.index.struct_ids(here, def);
                Some(Mode::Struct {
                    def,
                    here,
                    base,
                    seen: 0,
                    next_guess: 0,
                    facts: st.plan.struct_facts(def),
                })
            }
            _ => None,
        }
    };
    match mode {
        Some(mode) => {
            open(st)?;
            Ok(mode)
        }
        None => Err(bail(st)),
    }
}

#[derive(Clone, Copy)]
enum Items {
    One(&'static Type),
    Each(&'static [Type]),
}

/// What a compound writes.
#[derive(Clone, Copy)]
enum Mode {
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
        def: &'static StructDef,
        here: u32,
        base: usize,
        /// Which fields were written, by bit.
        seen: u64,
        next_guess: usize,
        facts: StructFacts,
    },
    /// Inside `Any`: anything.
    Free,
}

/// A compound being written: serde_json's, wrapped.
struct Compound<'s, 'm, C> {
    inner: C,
    st: &'s RefCell<State<'m>>,
    mode: Mode,
    /// Whether it is a variant's content (whose enclosing object closes with it).
    variant: bool,
    /// The keys of a map written so far.
    keys: usize,
    seen_keys: KeySet,
}

impl<'s, 'm, C> Compound<'s, 'm, C> {
    fn new(inner: C, st: &'s RefCell<State<'m>>, mode: Mode) -> Self {
        let seen_keys = KeySet::open(st.borrow().memo);
        Compound {
            inner,
            st,
            mode,
            variant: false,
            keys: 0,
            seen_keys,
        }
    }

    fn in_variant(mut self) -> Self {
        self.variant = true;
        self
    }

    /// Points the cursor at the next item.
    fn item<E: ser::Error>(&mut self) -> Result<(), E> {
        let node = match &mut self.mode {
            Mode::Items {
                items,
                here,
                n,
                expected,
            } => {
                let node = match items {
                    Items::One(item) => Node::Ty(item),
                    Items::Each(items) => match items.get(*n) {
                        Some(ty) => Node::Ty(ty),
                        None => return Err(bail(self.st)),
                    },
                };
                *n += 1;
                if expected.is_some_and(|e| *n > e) {
                    return Err(bail(self.st));
                }
                let mut st = self.st.borrow_mut();
                st.node = node;
                st.here = *here;
                return Ok(());
            }
            Mode::Free => Node::Free,
            _ => return Err(bail(self.st)),
        };
        self.st.borrow_mut().node = node;
        Ok(())
    }

    /// Points the cursor at the field written as `key`.
    ///
    /// A derived `Serialize` writes a struct's fields under the same `&'static str` keys in
    /// every call: a key at the address the guessed field was last matched under, and of its
    /// name's length, is that name (static text never changes), so it is known without
    /// comparing the text.
    #[inline(always)]
    fn field<E: ser::Error>(&mut self, key: &'static str) -> Result<(), E> {
        let Mode::Struct {
            def,
            here,
            base,
            ref mut seen,
            ref mut next_guess,
            facts,
        } = self.mode
        else {
            return Err(bail(self.st));
        };
        let mut st = self.st.borrow_mut();
        let st = &mut *st;
        let fields = &def.fields;
        let n = fields.len();
        let guess = (*next_guess).min(n);
        let addr = key.as_ptr() as usize;
        let sent = |f: usize| fields[f].sender.as_ref();
        let known = guess < n
            && st.memo.index.key_addr(base + guess) == addr
            && sent(guess).is_some_and(|s| s.name.len() == key.len());
        let found = if known {
            Some(guess)
        } else {
            let found = (guess..n)
                .chain(0..guess)
                .find(|&f| sent(f).is_some_and(|s| same(s.name.as_bytes(), key.as_bytes())));
            if let Some(f) = found {
                st.memo.index.set_key_addr(base + f, addr);
            }
            found
        };
        let written_before = |seen: u64| {
            (0..n).any(|g| {
                seen & 1 << g != 0
                    && sent(g).is_some_and(|s| same(s.name.as_bytes(), key.as_bytes()))
            })
        };
        // A field the view does not write, one written twice, or two fields under one name
        // (the key twice in the object).
        let Some(f) =
            found.filter(|f| *seen & 1 << f == 0 && !(facts.clashing && written_before(*seen)))
        else {
            st.bail = true;
            return Err(E::custom(BAIL));
        };
        *seen |= 1 << f;
        *next_guess = f + 1;
        let field = &fields[f];
        let name = field.sender.as_ref().map_or("", |s| s.name.as_str());
        let id = st.memo.index.field(&mut st.record, here, base, f, name);
        st.record.arrive(id);
        st.node = Node::Ty(&field.ty);
        st.here = id;
        Ok(())
    }

    /// Whether the key just written is new in this map.
    fn fresh(&mut self) -> bool {
        let mut st = self.st.borrow_mut();
        let Some(fp) = st.key.take() else {
            return false;
        };
        self.keys += 1;
        if self.keys > st.limits.max_keys_per_object {
            return false;
        }
        self.seen_keys.insert(st.memo, fp)
    }

    /// Closes the compound: every field the view always writes was written, every item of a
    /// fixed length is there.
    fn close<E: ser::Error>(&mut self) -> Result<(), E> {
        let complete = match self.mode {
            Mode::Struct { seen, facts, .. } => seen & facts.always == facts.always,
            Mode::Items {
                n,
                expected: Some(e),
                ..
            } => n == e,
            _ => true,
        };
        let mut st = self.st.borrow_mut();
        self.seen_keys.close(st.memo);
        st.depth -= 1 + usize::from(self.variant);
        drop(st);
        if complete {
            Ok(())
        } else {
            Err(bail(self.st))
        }
    }
}

/// The compounds whose items have no key: each item at the cursor's next position.
macro_rules! items {
    ($($trait:ident :: $method:ident;)*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, '_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                self.item()?;
                self.inner.$method(&W { value, st: self.st })
            }

            fn end(mut self) -> Result<C::Ok, C::Error> {
                self.close()?;
                self.inner.end()
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

impl<C: ser::SerializeMap> ser::SerializeMap for Compound<'_, '_, C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        let node = match self.mode {
            Mode::Map { key, .. } => Node::Key(key),
            // Inside `Any`: a string key, checked for repeats.
            Mode::Free => Node::Key(&FREE_KEY),
            _ => return Err(bail(self.st)),
        };
        self.st.borrow_mut().node = node;
        self.inner.serialize_key(&W {
            value: key,
            st: self.st,
        })?;
        if self.fresh() {
            Ok(())
        } else {
            Err(bail(self.st))
        }
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        let (node, here) = match self.mode {
            Mode::Map { value, values, .. } => (Node::Ty(value), Some(values)),
            _ => (Node::Free, None),
        };
        {
            let mut st = self.st.borrow_mut();
            st.node = node;
            if let Some(here) = here {
                st.here = here;
            }
        }
        self.inner.serialize_value(&W { value, st: self.st })
    }

    fn end(mut self) -> Result<C::Ok, C::Error> {
        self.close()?;
        self.inner.end()
    }
}

/// The compounds of named fields: each field at its place in the struct.
macro_rules! fields {
    ($($trait:ident;)*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, '_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), C::Error> {
                self.field(key)?;
                self.inner.serialize_field(key, &W { value, st: self.st })
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            fn end(mut self) -> Result<C::Ok, C::Error> {
                self.close()?;
                self.inner.end()
            }
        }
    )*};
}

fields! {
    SerializeStruct;
    SerializeStructVariant;
}

/// What a key of an object nobody reads is taken as: a string.
pub(crate) static FREE_KEY: Type = Type::String(contract_schema::model::StringFormat::Plain);
