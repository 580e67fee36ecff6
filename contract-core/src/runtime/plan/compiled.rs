//! What the one-pass paths know of a type before reading or writing any payload: whether
//! they can follow it at all, the wire form ([`Shape`]) of every type of its schema, and
//! what `send` checks of each struct's fields.

use std::sync::atomic::AtomicUsize;

use rustc_hash::{FxHashMap, FxHashSet};

use contract_schema::model::{Body, Emit, EnumDef, Repr, StructDef, Type, VariantDefKind};
use contract_schema::Schema;

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
    pub(crate) key: FieldKey,
    /// The field's type, and its shape.
    pub(crate) ty: &'static Type,
    pub(crate) shape: Shape,
    /// The address of the `&'static str` key a `Serialize` last wrote the field under (0
    /// until one is matched), so that the same key is known again without comparing it: a
    /// hint any thread may set, since static text never changes.
    pub(crate) key_addr: AtomicUsize,
}

/// The text `send` writes before a field's value, `,"name":`, whole and (when it fits) at the
/// start of a zero-padded chunk of fixed size: a copy of the whole chunk (a few moves, no
/// call) followed by a cut to the text's length writes it.
#[derive(Default)]
pub(crate) struct FieldKey {
    pub(crate) text: Box<[u8]>,
    pub(crate) chunk: Option<[u8; FieldKey::CHUNK]>,
}

impl FieldKey {
    pub(crate) const CHUNK: usize = 32;

    fn new(text: Vec<u8>) -> Self {
        let chunk = (text.len() <= Self::CHUNK).then(|| {
            let mut chunk = [0; Self::CHUNK];
            chunk[..text.len()].copy_from_slice(&text);
            chunk
        });
        FieldKey {
            text: text.into_boxed_slice(),
            chunk,
        }
    }
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
                let key = name.map_or_else(FieldKey::default, |name| {
                    let mut key = vec![b','];
                    // Writing a string into a `Vec` cannot fail.
                    let _ = serde_json::to_writer(&mut key, name);
                    key.push(b':');
                    FieldKey::new(key)
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

/// The form a type takes on the wire.
#[derive(Clone, Copy, Debug)]
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
