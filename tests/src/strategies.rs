//! proptest strategies that generate wire instances of any type from its schema.
//!
//! The generator walks the *receiver view* of a [`Schema`] and writes a JSON instance that a
//! faithful receiver must accept: every required field under its name or one of its aliases,
//! optional fields sometimes absent, `null` sometimes for an `Option`, unknown keys where the
//! receiver ignores them, captured keys where a flattened map keeps them, any readable variant
//! of an enum (a catch-all under an unknown tag), integers across their whole range, strings in
//! their format (uuid, RFC 3339 date-times, dates, times).
//!
//! The values of a Rust type `T` are then `serde_json::from_value::<T>` of these instances, so
//! one generator covers every test type without a hand-written strategy per type, and the
//! generation itself is a differential check: an instance the schema says is readable that
//! serde refuses is a fidelity bug. Re-serializing those values gives the sender's output.
//!
//! Each instance records its [`Site`]s: the objects written for a struct (or a struct
//! variant), with the struct's fields, so that mutations know which field they touch and can
//! be judged by type.

use std::sync::Arc;

use contract_core::schema::model::{
    Body, Constraint, EnumDef, FieldDef, FlatEnumDef, FloatKind, IntKind, IntSet, IntValue, Repr,
    StringConstraint, StringFormat, StructDef, Type, Unknown, VariantDef, VariantDefKind,
};
use contract_core::Schema;
use proptest::prelude::{any, Strategy};
use serde_json::{Map, Number, Value};

/// How many named types deep an instance may nest before optional parts are left out.
const MAX_DEPTH: usize = 4;
/// A hard stop for pathological recursion (a required field of the type's own type).
const HARD_DEPTH: usize = 24;

/// One step of a path into a JSON instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// An object the generator wrote for a struct: where it is and what it holds.
#[derive(Debug, Clone)]
pub struct Site {
    /// The path from the instance's root to the object.
    pub path: Vec<Step>,
    /// The struct's fields (both views).
    pub fields: Vec<FieldDef>,
    /// The struct's policy for unknown keys.
    pub unknown: Unknown,
    /// The value type of captured unknown keys (with [`Unknown::Capture`]).
    pub extra: Option<Type>,
    /// The tag keys written into the object: of the internally tagged variants it is the
    /// content of (outermost first), or of the adjacently tagged variant it is.
    pub tags: Vec<String>,
    /// For the object of an externally or adjacently tagged variant: the key of its content
    /// (the variant's name, or the `content` key) and what the content is.
    pub content: Option<(String, VariantDefKind)>,
}

/// A generated instance with the struct objects inside it.
#[derive(Clone)]
pub struct Instance {
    /// The JSON instance.
    pub value: Value,
    /// Every object written for a struct, outermost first.
    pub sites: Vec<Site>,
    /// Every value written for a type that has wrong values of the same JSON type
    /// ([`wrong_values`]), in the order written.
    pub slots: Vec<Slot>,
}

/// A value of an instance whose type has wrong values of the same JSON type: an integer, a
/// constrained integer or string, a `char`, a formatted string, a string enum, an array or a
/// tuple.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The path from the instance's root to the value.
    pub path: Vec<Step>,
    /// The type the receiver reads it as.
    pub ty: Type,
    /// What holds the value.
    pub place: Place,
}

/// What holds a [`Slot`]'s value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// Nothing: the instance itself.
    Root,
    /// An object: a struct's field, a variant's content.
    Field,
    /// A list or a set.
    ListItem,
    /// A map.
    MapValue,
    /// A tuple or an array.
    TupleItem,
}

/// A wrong value of the same JSON type as the value it replaces, and what is wrong with it.
#[derive(Debug, Clone)]
pub struct WrongValue {
    /// What is wrong (`"integer out of range"`, `"malformed uuid"`, …).
    pub kind: &'static str,
    /// The value.
    pub value: Value,
}

/// Shows the instance alone (the sites repeat the schema).
impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Instance({})", self.value)
    }
}

/// Instances of `schema`'s root type that its receiver view accepts.
///
/// The strategy draws a seed and generates deterministically from it, so a failure is
/// reproduced by proptest's persisted seed.
pub fn receiver_instances(schema: Arc<Schema>) -> impl Strategy<Value = Instance> {
    any::<u64>().prop_map(move |seed| generate(&schema, seed))
}

/// The instance of `schema`'s root type generated from `seed`.
#[must_use]
pub fn generate(schema: &Schema, seed: u64) -> Instance {
    let mut g = Generator {
        schema,
        rng: SplitMix(seed),
        sites: Vec::new(),
        path: Vec::new(),
        slots: Vec::new(),
        containers: Vec::new(),
    };
    let value = g.ty(&schema.root, 0);
    let mut slots = g.slots;
    for slot in &mut slots {
        // A value whose parent path is a container's is an item of it; otherwise it sits in
        // an object (a struct's or a variant's), or is the root.
        slot.place = match slot.path.split_last() {
            None => Place::Root,
            Some((_, parent)) => g
                .containers
                .iter()
                .rev()
                .find(|(path, _)| path.as_slice() == parent)
                .map_or(Place::Field, |(_, place)| *place),
        };
    }
    Instance {
        value,
        sites: g.sites,
        slots,
    }
}

/// A small deterministic PRNG (SplitMix64).
#[derive(Debug, Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        usize::try_from(self.next_u64() % n as u64).unwrap_or(0)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

struct Generator<'a> {
    schema: &'a Schema,
    rng: SplitMix,
    sites: Vec<Site>,
    path: Vec<Step>,
    slots: Vec<Slot>,
    /// Where a list, set, map, tuple or array was written, and what its items are.
    containers: Vec<(Vec<Step>, Place)>,
}

const WORDS: [&str; 12] = [
    "",
    "a",
    "refund",
    "orderRef",
    "Zürich",
    "日本語",
    "emoji 𝄞 🎉",
    "quote \" and \\ backslash",
    "line\nbreak\ttab",
    "\u{0}nul",
    "  spaced  ",
    "null",
];

impl Generator<'_> {
    fn at<T>(&mut self, step: Step, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(step);
        let out = f(self);
        self.path.pop();
        out
    }

    fn ty(&mut self, ty: &Type, depth: usize) -> Value {
        self.slot(ty);
        let shallow = depth >= MAX_DEPTH;
        match ty {
            Type::Unit => Value::Null,
            Type::Bool => Value::Bool(self.rng.chance(50)),
            Type::Int(k) => Value::Number(self.int(*k)),
            Type::Float(k) => self.float(*k),
            Type::Char => Value::String(self.char().to_string()),
            Type::String(fmt) => Value::String(self.string(*fmt)),
            Type::Constrained(c) => match &**c {
                Constraint::Int { kind, values } => Value::Number(self.int_in(*kind, values)),
                Constraint::String(s) => Value::String(self.constrained_string(s)),
            },
            Type::Any => self.any(if shallow { 0 } else { 2 }),
            Type::Option(inner) => {
                if shallow || self.rng.chance(30) {
                    Value::Null
                } else {
                    self.ty(inner, depth)
                }
            }
            Type::List(item) => {
                let n = if shallow { 0 } else { self.rng.below(4) };
                Value::Array(
                    (0..n)
                        .map(|i| self.at(Step::Index(i), |g| g.ty(item, depth)))
                        .collect(),
                )
            }
            Type::Set(item) => {
                let n = if shallow { 0 } else { self.rng.below(4) };
                let mut items: Vec<Value> = Vec::new();
                for _ in 0..n {
                    let index = items.len();
                    let sites = self.sites.len();
                    let v = self.at(Step::Index(index), |g| g.ty(item, depth));
                    if items.contains(&v) {
                        // A duplicate: serde merges it and the schema rejects it; leave it out
                        // (the strictness tests pin this point).
                        self.sites.truncate(sites);
                    } else {
                        items.push(v);
                    }
                }
                Value::Array(items)
            }
            Type::Array(item, n) => Value::Array(
                (0..*n)
                    .map(|i| self.at(Step::Index(i), |g| g.ty(item, depth)))
                    .collect(),
            ),
            Type::Tuple(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| self.at(Step::Index(i), |g| g.ty(t, depth)))
                    .collect(),
            ),
            Type::Map(key, value) => {
                let n = if shallow { 0 } else { self.rng.below(4) };
                let mut map = Map::new();
                for _ in 0..n {
                    let k = self.key(key);
                    let sites = self.sites.len();
                    let v = self.at(Step::Key(k.clone()), |g| g.ty(value, depth));
                    if map.contains_key(&k) {
                        self.sites.truncate(sites);
                    } else {
                        map.insert(k, v);
                    }
                }
                Value::Object(map)
            }
            Type::Named(name) => {
                if depth >= HARD_DEPTH {
                    return Value::Null;
                }
                let Some(def) = self.schema.def(name) else {
                    return Value::Null;
                };
                match &def.body {
                    Body::Struct(s) => {
                        let mut map = Map::new();
                        self.fields(&mut map, s, depth + 1);
                        Value::Object(map)
                    }
                    Body::Enum(e) => self.enumeration(e, depth + 1),
                    Body::Newtype(inner)
                    | Body::Views {
                        receiver: inner, ..
                    } => self.ty(inner, depth),
                }
            }
        }
    }

    /// Records where a value of `ty` is written: a slot when it has wrong values of its JSON
    /// type, a container when it holds items.
    fn slot(&mut self, ty: &Type) {
        let container = match ty {
            Type::List(_) | Type::Set(_) => Some(Place::ListItem),
            Type::Map(..) => Some(Place::MapValue),
            Type::Tuple(_) | Type::Array(..) => Some(Place::TupleItem),
            _ => None,
        };
        if let Some(place) = container {
            self.containers.push((self.path.clone(), place));
        }
        let mutable = match ty {
            Type::Int(_) | Type::Char | Type::Constrained(_) | Type::Array(..) | Type::Tuple(_) => {
                true
            }
            Type::String(format) => *format != StringFormat::Plain,
            Type::Named(name) => string_enum(self.schema, name).is_some(),
            _ => false,
        };
        if mutable {
            self.slots.push(Slot {
                path: self.path.clone(),
                ty: ty.clone(),
                place: Place::Field,
            });
        }
    }

    /// Writes a struct's fields into `map`, which holds nothing but the tags of the
    /// internally tagged variants the struct is the content of.
    fn fields(&mut self, map: &mut Map<String, Value>, s: &StructDef, depth: usize) {
        let shallow = depth >= MAX_DEPTH;
        self.sites.push(Site {
            path: self.path.clone(),
            fields: s.fields.clone(),
            unknown: s.unknown,
            extra: s.extra.clone(),
            tags: map.keys().cloned().collect(),
            content: None,
        });
        for field in &s.fields {
            let Some(receiver) = &field.receiver else {
                continue;
            };
            if !receiver.required && (shallow || self.rng.chance(35)) {
                continue;
            }
            // serde takes the tags out first: a field is never read under a tag's key.
            let names: Vec<&String> = std::iter::once(&receiver.name)
                .chain(&receiver.aliases)
                .filter(|n| !map.contains_key(n.as_str()))
                .collect();
            let Some(&first) = names.first() else {
                continue;
            };
            let key = if self.rng.chance(60) {
                first.clone()
            } else {
                self.rng
                    .pick(&names)
                    .map_or_else(|| first.clone(), |n| (*n).clone())
            };
            let value = self.at(Step::Key(key.clone()), |g| g.ty(&field.ty, depth));
            map.insert(key, value);
        }
        let site = self.sites.len() - 1;
        for flat in &s.flattened {
            self.flat_enum(map, site, flat, depth);
        }
        // An internally tagged or untagged flattened enum reads every key the struct leaves;
        // an ignored one is tried only where no such enum may deny it.
        let reads_rest = s.flattened.iter().any(|f| {
            self.schema
                .flat_enum(&f.ty)
                .is_some_and(|(e, _)| e.repr != Repr::External)
        });
        let taken = |map: &Map<String, Value>, k: &str| {
            map.contains_key(k)
                || s.fields.iter().any(|f| {
                    f.receiver.as_ref().is_some_and(|r| r.accepts(k))
                        || f.sender.as_ref().is_some_and(|snd| snd.name == k)
                })
        };
        match (s.unknown, &s.extra) {
            (Unknown::Ignore, _) => {
                if !reads_rest && self.rng.chance(25) {
                    let key = fresh_key(|k| taken(map, k), "zzIgnored");
                    let value = self.any(1);
                    map.insert(key, value);
                }
            }
            (Unknown::Capture, Some(extra)) => {
                for i in 0..self.rng.below(3) {
                    let key = fresh_key(|k| taken(map, k), &format!("captured{i}"));
                    let value = self.at(Step::Key(key.clone()), |g| g.ty(extra, depth));
                    map.insert(key, value);
                }
            }
            (Unknown::Deny | Unknown::Capture, _) => {}
        }
    }

    /// Writes a flattened enum's variant beside the struct's fields in `map` (nothing, at
    /// times, for an `Option`). Its objects are not recorded as sites of their own: the
    /// struct's fields share them, and the mutations judge a site's keys by one struct
    /// alone. The struct's site (`site`) learns the tag keys and the key of an externally
    /// or adjacently tagged variant's content.
    fn flat_enum(
        &mut self,
        map: &mut Map<String, Value>,
        site: usize,
        flat: &FlatEnumDef,
        depth: usize,
    ) {
        let Some((e, optional)) = self.schema.flat_enum(&flat.ty) else {
            return;
        };
        if !flat.read || (optional && (depth >= MAX_DEPTH || self.rng.chance(30))) {
            return;
        }
        let e = e.clone();
        let sites = self.sites.len();
        if e.repr == Repr::External {
            // serde takes only a key naming a variant: a catch-all never reads an unknown one.
            let readable: Vec<&VariantDef> = e
                .variants
                .iter()
                .filter(|v| !v.receiver.is_empty())
                .collect();
            if let Some(variant) = self.rng.pick(&readable).copied() {
                let name = self
                    .rng
                    .pick(&variant.receiver)
                    .cloned()
                    .unwrap_or_default();
                let kind = variant.kind.clone();
                let content = self.at(Step::Key(name.clone()), |g| g.content(&kind, depth + 1));
                map.insert(name.clone(), content);
                if let Some(site) = self.sites.get_mut(site) {
                    site.content = Some((name, kind));
                }
            }
        } else {
            self.enum_beside(map, &e, depth + 1);
        }
        let written = self.sites.get(sites).map(|s| s.content.clone());
        self.sites.truncate(sites);
        if let Some(site) = self.sites.get_mut(site) {
            match &e.repr {
                Repr::Internal { tag } => site.tags.push(tag.clone()),
                Repr::Adjacent { tag, .. } => {
                    site.tags.push(tag.clone());
                    site.content = written.flatten();
                }
                Repr::External | Repr::Untagged => {}
            }
        }
    }

    /// A readable variant and the tag to read it under, or `None` and an unknown tag for the
    /// catch-all (or when no variant is readable).
    fn choose<'e>(&mut self, e: &'e EnumDef, depth: usize) -> (Option<&'e VariantDef>, String) {
        let readable: Vec<&VariantDef> = e
            .variants
            .iter()
            .filter(|v| !v.receiver.is_empty())
            .collect();
        let catch_all = e.catch_all().is_some() && self.rng.chance(15);
        let variant = if catch_all {
            None
        } else if depth >= MAX_DEPTH {
            // Prefer a variant that does not nest further.
            readable
                .iter()
                .find(|v| shallow_kind(&v.kind))
                .or_else(|| readable.first())
                .copied()
        } else {
            self.rng.pick(&readable).copied()
        };
        match variant {
            Some(variant) => {
                let tag = self
                    .rng
                    .pick(&variant.receiver)
                    .cloned()
                    .unwrap_or_default();
                (Some(variant), tag)
            }
            None => {
                let known: Vec<&String> = e.variants.iter().flat_map(|v| &v.receiver).collect();
                let tag = fresh_key(|k| known.iter().any(|n| *n == k), "unknownVariant");
                (None, tag)
            }
        }
    }

    fn enumeration(&mut self, e: &EnumDef, depth: usize) -> Value {
        if let Some(part) = self.mixed_part(e) {
            return self.enumeration(&part, depth);
        }
        if let Repr::Internal { tag: key } = &e.repr {
            let mut map = Map::new();
            self.internal(&mut map, e, key, depth);
            return Value::Object(map);
        }
        let (variant, tag) = self.choose(e, depth);
        let Some(variant) = variant else {
            return match &e.repr {
                Repr::Adjacent { tag: key, .. } | Repr::Internal { tag: key } => {
                    let mut map = Map::new();
                    map.insert(key.clone(), Value::String(tag));
                    Value::Object(map)
                }
                Repr::External | Repr::Untagged => Value::String(tag),
            };
        };
        match &e.repr {
            Repr::External => match &variant.kind {
                VariantDefKind::Unit => Value::String(tag),
                kind => {
                    self.enum_site(Unknown::Deny, Vec::new(), Some((tag.clone(), kind.clone())));
                    let content = self.at(Step::Key(tag.clone()), |g| g.content(kind, depth));
                    let mut map = Map::new();
                    map.insert(tag, content);
                    Value::Object(map)
                }
            },
            Repr::Untagged => self.content(&variant.kind, depth),
            Repr::Adjacent { tag: key, content } => {
                let unknown = if denies_unknown(e) {
                    Unknown::Deny
                } else {
                    Unknown::Ignore
                };
                self.enum_site(
                    unknown,
                    vec![key.clone()],
                    Some((content.clone(), variant.kind.clone())),
                );
                let mut map = Map::new();
                map.insert(key.clone(), Value::String(tag));
                match &variant.kind {
                    VariantDefKind::Unit => {
                        if self.rng.chance(30) {
                            map.insert(content.clone(), Value::Null);
                        }
                    }
                    // serde reads a missing content of an `Option` as `None`.
                    VariantDefKind::Newtype(Type::Option(_)) if self.rng.chance(30) => {}
                    kind => {
                        let value = self.at(Step::Key(content.clone()), |g| g.content(kind, depth));
                        map.insert(content.clone(), value);
                    }
                }
                Value::Object(map)
            }
            Repr::Internal { .. } => Value::Null,
        }
    }

    /// Writes a variant of an internally tagged enum into `map`: its tag and its fields (an
    /// inner internally tagged enum adds its own tag and fields to the same object).
    fn internal(&mut self, map: &mut Map<String, Value>, e: &EnumDef, key: &str, depth: usize) {
        let (variant, tag) = self.choose(e, depth);
        map.insert(key.to_owned(), Value::String(tag));
        let Some(variant) = variant else {
            return;
        };
        match &variant.kind {
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => {
                let tags = map.keys().cloned().collect();
                self.enum_site(Unknown::Ignore, tags, None);
            }
            VariantDefKind::Struct(s) => self.fields(map, s, depth),
            VariantDefKind::Newtype(ty) => self.beside(map, ty, depth),
        }
    }

    /// Writes a value of `ty` into `map` beside the tags it holds: the content of an
    /// internally tagged newtype variant.
    fn beside(&mut self, map: &mut Map<String, Value>, ty: &Type, depth: usize) {
        match self.schema.resolve(ty).clone() {
            Type::Named(name) if depth < HARD_DEPTH => {
                match self.schema.def(&name).map(|d| d.body.clone()) {
                    Some(Body::Struct(s)) => self.fields(map, &s, depth),
                    Some(Body::Enum(e)) => self.enum_beside(map, &e, depth + 1),
                    _ => {}
                }
            }
            // serde reads what remains of the map as `Some` of the inner type.
            Type::Option(inner) => self.beside(map, &inner, depth + 1),
            // serde reads a unit only from an empty remainder: a site, so that an unknown
            // key is tried.
            Type::Unit => {
                let tags = map.keys().cloned().collect();
                self.enum_site(Unknown::Deny, tags, None);
            }
            Type::Map(k, v) => {
                for _ in 0..self.rng.below(3) {
                    let entry = self.key(&k);
                    if map.contains_key(&entry) {
                        continue;
                    }
                    let value = self.at(Step::Key(entry.clone()), |g| g.ty(&v, depth));
                    map.insert(entry, value);
                }
            }
            // Any JSON value beside the tags: an object's entries.
            Type::Any => {
                for _ in 0..self.rng.below(3) {
                    let entry = self.string(StringFormat::Plain);
                    if map.contains_key(&entry) {
                        continue;
                    }
                    let value = self.any(1);
                    map.insert(entry, value);
                }
            }
            _ => {}
        }
    }

    /// Writes an enum into `map` beside the tags it holds.
    fn enum_beside(&mut self, map: &mut Map<String, Value>, e: &EnumDef, depth: usize) {
        if let Some(part) = self.mixed_part(e) {
            return self.enum_beside(map, &part, depth);
        }
        if let Repr::Internal { tag } = &e.repr {
            return self.internal(map, e, tag, depth);
        }
        let tags: Vec<String> = map.keys().cloned().collect();
        let (mut variant, mut name) = self.choose(e, depth);
        if e.repr == Repr::Untagged && !variant.is_some_and(|v| self.object_like(&v.kind)) {
            // Beside tags only an object is read back (an untagged unit variant reads `null`
            // alone, a tuple an array): take a variant whose content is an object.
            let other = e
                .variants
                .iter()
                .find(|v| !v.receiver.is_empty() && self.object_like(&v.kind));
            variant = other;
            name = other
                .and_then(|v| v.receiver.first())
                .cloned()
                .unwrap_or_default();
        }
        match &e.repr {
            Repr::Internal { .. } => {}
            // The variant's name beside the tags, holding its content (null for a unit
            // variant and for the catch-all).
            Repr::External => {
                let kind = variant.map_or(VariantDefKind::Unit, |v| v.kind.clone());
                self.enum_site(Unknown::Deny, tags, Some((name.clone(), kind.clone())));
                let content = self.at(Step::Key(name.clone()), |g| g.content(&kind, depth));
                map.insert(name, content);
            }
            Repr::Adjacent { tag, content } => {
                let kind = variant.map_or(VariantDefKind::Unit, |v| v.kind.clone());
                let unknown = if denies_unknown(e) {
                    Unknown::Deny
                } else {
                    Unknown::Ignore
                };
                let mut site_tags = tags;
                site_tags.push(tag.clone());
                self.enum_site(unknown, site_tags, Some((content.clone(), kind.clone())));
                map.insert(tag.clone(), Value::String(name));
                if !matches!(kind, VariantDefKind::Unit) {
                    let value = self.at(Step::Key(content.clone()), |g| g.content(&kind, depth));
                    map.insert(content.clone(), value);
                }
            }
            // An untagged unit variant reads only `null`, never an object: none is written.
            Repr::Untagged => match variant.map(|v| v.kind.clone()) {
                Some(VariantDefKind::Newtype(ty)) => self.beside(map, &ty, depth),
                Some(VariantDefKind::Struct(s)) => self.fields(map, &s, depth),
                Some(VariantDefKind::Unit | VariantDefKind::Tuple(_)) | None => {
                    self.enum_site(Unknown::Ignore, tags, None);
                }
            },
        }
    }

    /// For a tagged enum with untagged variants, the part an instance is drawn from: the
    /// tagged variants (serde tries them first) or the untagged ones (each read as an
    /// untagged enum's variant when the tagged form does not read), whichever has a readable
    /// variant, at random when both do. `None` for any other enum.
    fn mixed_part(&mut self, e: &EnumDef) -> Option<EnumDef> {
        let (tagged, untagged) = e.split_untagged()?;
        let readable = |part: &EnumDef| part.variants.iter().any(|v| !v.receiver.is_empty());
        Some(match (readable(&tagged), readable(&untagged)) {
            (true, true) if self.rng.chance(40) => untagged,
            (false, true) => untagged,
            _ => tagged,
        })
    }

    /// Whether a variant's content is written as an object (or nothing) beside tags.
    fn object_like(&self, kind: &VariantDefKind) -> bool {
        match kind {
            VariantDefKind::Struct(_) => true,
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => false,
            VariantDefKind::Newtype(ty) => match self.schema.resolve(ty) {
                Type::Named(name) => matches!(
                    self.schema.def(name).map(|d| &d.body),
                    Some(Body::Struct(_) | Body::Enum(_))
                ),
                Type::Map(..) | Type::Any => true,
                _ => false,
            },
        }
    }

    /// Records the object of an enum variant as a site without fields.
    fn enum_site(
        &mut self,
        unknown: Unknown,
        tags: Vec<String>,
        content: Option<(String, VariantDefKind)>,
    ) {
        self.sites.push(Site {
            path: self.path.clone(),
            fields: Vec::new(),
            unknown,
            extra: None,
            tags,
            content,
        });
    }

    fn content(&mut self, kind: &VariantDefKind, depth: usize) -> Value {
        match kind {
            VariantDefKind::Unit => Value::Null,
            VariantDefKind::Newtype(ty) => self.ty(ty, depth),
            VariantDefKind::Tuple(items) => self.ty(&Type::Tuple(items.clone()), depth),
            VariantDefKind::Struct(s) => {
                let mut map = Map::new();
                self.fields(&mut map, s, depth);
                Value::Object(map)
            }
        }
    }

    /// A map key of the given type, as serde_json writes it.
    fn key(&mut self, key: &Type) -> String {
        match self.schema.resolve(key).clone() {
            Type::Int(k) => self.int(k).to_string(),
            Type::Constrained(c) => match &*c {
                Constraint::Int { kind, values } => self.int_in(*kind, values).to_string(),
                Constraint::String(s) => self.constrained_string(s),
            },
            Type::Char => self.char().to_string(),
            Type::Bool => self.rng.chance(50).to_string(),
            Type::String(fmt) => self.string(fmt),
            Type::Named(name) => match self.schema.def(&name).map(|d| &d.body) {
                Some(Body::Enum(e)) => {
                    let names: Vec<&String> = e.variants.iter().flat_map(|v| &v.receiver).collect();
                    self.rng
                        .pick(&names)
                        .map_or_else(String::new, |n| (*n).clone())
                }
                _ => self.string(StringFormat::Plain),
            },
            _ => self.string(StringFormat::Plain),
        }
    }

    fn int(&mut self, kind: IntKind) -> Number {
        // serde_json numbers hold i64 and u64: 128-bit kinds are drawn within those.
        let min = i64::try_from(kind.min()).unwrap_or(i64::MIN);
        let max = u64::try_from(kind.max()).unwrap_or(u64::MAX);
        let choice = self.rng.below(6);
        if choice == 0 {
            return Number::from(min);
        }
        if choice == 1 {
            return Number::from(max);
        }
        if choice == 2 {
            return Number::from(0_u8);
        }
        if min < 0 && self.rng.chance(50) {
            // A negative value in min..0.
            let span = min.unsigned_abs();
            let offset = self.rng.next_u64() % span;
            let v = i64::try_from(offset).map_or(-1, |o| -1 - o);
            return Number::from(v.max(min));
        }
        let v = if max == u64::MAX {
            self.rng.next_u64()
        } else {
            self.rng.next_u64() % (max + 1)
        };
        Number::from(v)
    }

    /// A value of the set: a range's ends, its neighbours inside it, or anywhere in it
    /// (within what a JSON number holds); an empty set, which no value fits, gives the
    /// kind's value.
    fn int_in(&mut self, kind: IntKind, values: &IntSet) -> Number {
        let (lo_json, hi_json) = (
            IntValue::from_i128(i128::from(i64::MIN)),
            IntValue::from_u128(u128::from(u64::MAX)),
        );
        let fitting: Vec<_> = values
            .ranges()
            .iter()
            .map(|r| (r.min.max(lo_json), r.max.min(hi_json)))
            .filter(|(lo, hi)| lo <= hi)
            .collect();
        let Some(&(lo, hi)) = self.rng.pick(&fitting) else {
            return self.int(kind);
        };
        let v = match self.rng.below(5) {
            0 => lo,
            1 => hi,
            2 => lo.succ().filter(|v| *v <= hi).unwrap_or(lo),
            3 => hi.pred().filter(|v| *v >= lo).unwrap_or(hi),
            _ => {
                // Anywhere: an offset from `lo` within the range's span, when both fit a
                // 64-bit integer; otherwise `lo`.
                match (lo.to_i64(), hi.to_i64()) {
                    (Some(a), Some(b)) => {
                        let span = b.abs_diff(a).saturating_add(1);
                        let offset = self.rng.next_u64() % span;
                        IntValue::from_i128(i128::from(a) + i128::from(offset))
                    }
                    _ => lo,
                }
            }
        };
        v.to_i64()
            .map(Number::from)
            .or_else(|| v.to_u64().map(Number::from))
            .unwrap_or_else(|| Number::from(0_u8))
    }

    /// A string of the constraint's length (plain characters) or, with a format or a
    /// pattern, one of the format: no Rust type the harness tests describes a pattern yet,
    /// so the generator does not invert regular expressions.
    fn constrained_string(&mut self, c: &StringConstraint) -> String {
        if c.format != StringFormat::Plain || c.pattern.is_some() {
            return self.string(c.format);
        }
        let min = usize::try_from(c.length.min).unwrap_or(usize::MAX).min(64);
        let max = c
            .length
            .max
            .map_or(min + 8, |m| usize::try_from(m).unwrap_or(usize::MAX));
        let len = min + self.rng.below(max.saturating_sub(min).min(8) + 1);
        (0..len).map(|_| self.char()).collect()
    }

    fn float(&mut self, kind: FloatKind) -> Value {
        let special = [0.0, -0.0, 1.0, -2.5, 3.0, 1e-7, 123_456.789];
        let raw = if self.rng.chance(40) {
            self.rng.pick(&special).copied().unwrap_or(0.0)
        } else {
            let bits = self.rng.next_u64();
            let mantissa = (bits >> 11) as f64 / (1_u64 << 53) as f64;
            let exponent = i32::try_from(bits % 60).unwrap_or(0) - 30;
            let sign = if bits & 1 == 0 { 1.0 } else { -1.0 };
            sign * mantissa * 10_f64.powi(exponent)
        };
        let v = match kind {
            // Stay within f32, whose out-of-range values serde reads as infinities.
            FloatKind::F32 => f64::from(raw as f32),
            FloatKind::F64 => raw,
        };
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }

    fn char(&mut self) -> char {
        let pool = ['a', 'Z', '0', ' ', 'é', '€', '𝄞', '"', '\\', '\n'];
        if self.rng.chance(70) {
            return self.rng.pick(&pool).copied().unwrap_or('a');
        }
        let code = u32::try_from(self.rng.next_u64() % 0x11_0000).unwrap_or(0x61);
        char::from_u32(code).unwrap_or('x')
    }

    fn string(&mut self, format: StringFormat) -> String {
        if format == StringFormat::Plain {
            if self.rng.chance(70) {
                return self.rng.pick(&WORDS).copied().unwrap_or("").to_owned();
            }
            let len = self.rng.below(8);
            return (0..len).map(|_| self.char()).collect();
        }
        let r = &mut self.rng;
        let n = |r: &mut SplitMix, below: u64| r.next_u64() % below;
        match format {
            StringFormat::Plain => String::new(),
            StringFormat::Uuid => format!(
                "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
                n(r, 1 << 32),
                n(r, 1 << 16),
                n(r, 1 << 16),
                n(r, 1 << 16),
                n(r, 1 << 48)
            ),
            StringFormat::Date => format!(
                "{:04}-{:02}-{:02}",
                1970 + n(r, 100),
                1 + n(r, 12),
                1 + n(r, 28)
            ),
            StringFormat::Time => {
                let base = format!("{:02}:{:02}:{:02}", n(r, 24), n(r, 60), n(r, 60));
                if r.chance(50) {
                    format!("{base}.{:03}", n(r, 1000))
                } else {
                    base
                }
            }
            StringFormat::NaiveDateTime | StringFormat::DateTime => {
                let date = format!(
                    "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                    1970 + n(r, 100),
                    1 + n(r, 12),
                    1 + n(r, 28),
                    n(r, 24),
                    n(r, 60),
                    n(r, 60)
                );
                let frac = if r.chance(40) {
                    format!(".{:06}", n(r, 1_000_000))
                } else {
                    String::new()
                };
                if format == StringFormat::NaiveDateTime {
                    format!("{date}{frac}")
                } else if r.chance(50) {
                    format!("{date}{frac}Z")
                } else {
                    let sign = if r.chance(50) { '+' } else { '-' };
                    format!("{date}{frac}{sign}{:02}:{:02}", n(r, 14), 15 * n(r, 4))
                }
            }
            // Addresses as Rust writes them (the only spelling serde's reader is sure of).
            StringFormat::Ipv4 => self.ipv4().to_string(),
            StringFormat::Ipv6 => self.ipv6().to_string(),
            StringFormat::Ip if self.rng.chance(50) => self.ipv4().to_string(),
            StringFormat::Ip => self.ipv6().to_string(),
            StringFormat::SocketAddrV4 => {
                std::net::SocketAddrV4::new(self.ipv4(), self.port()).to_string()
            }
            StringFormat::SocketAddrV6 => {
                std::net::SocketAddrV6::new(self.ipv6(), self.port(), 0, 0).to_string()
            }
            StringFormat::SocketAddr if self.rng.chance(50) => {
                std::net::SocketAddrV4::new(self.ipv4(), self.port()).to_string()
            }
            StringFormat::SocketAddr => {
                std::net::SocketAddrV6::new(self.ipv6(), self.port(), 0, 0).to_string()
            }
            // URLs as the url crate writes them (serialized, so its reader reads them back).
            StringFormat::Url => {
                let choices = [
                    "https://example.com/",
                    "http://192.0.2.1:8080/a/b?c=d#e",
                    "mailto:agent@example.com",
                    "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
                    "file:///tmp/x",
                ];
                choices[self.rng.below(choices.len())].to_owned()
            }
        }
    }

    fn ipv4(&mut self) -> std::net::Ipv4Addr {
        std::net::Ipv4Addr::from(self.rng.next_u64() as u32)
    }

    fn ipv6(&mut self) -> std::net::Ipv6Addr {
        // Runs of zeros sometimes, so that the `::` spelling appears.
        let high = if self.rng.chance(30) {
            0
        } else {
            self.rng.next_u64()
        };
        let low = if self.rng.chance(30) {
            1
        } else {
            self.rng.next_u64()
        };
        std::net::Ipv6Addr::from((u128::from(high) << 64) | u128::from(low))
    }

    fn port(&mut self) -> u16 {
        (self.rng.next_u64() % 65_536) as u16
    }

    /// Any JSON value, nesting at most `depth` levels.
    fn any(&mut self, depth: usize) -> Value {
        let scalar_kinds = 5;
        let kinds = if depth == 0 {
            scalar_kinds
        } else {
            scalar_kinds + 2
        };
        match self.rng.below(kinds) {
            0 => Value::Null,
            1 => Value::Bool(self.rng.chance(50)),
            2 => Value::Number(self.int(IntKind::I64)),
            3 => self.float(FloatKind::F64),
            4 => Value::String(self.string(StringFormat::Plain)),
            5 => Value::Array(
                (0..self.rng.below(3))
                    .map(|_| self.any(depth - 1))
                    .collect(),
            ),
            _ => {
                let mut map = Map::new();
                for i in 0..self.rng.below(3) {
                    map.insert(format!("k{i}"), self.any(depth - 1));
                }
                Value::Object(map)
            }
        }
    }
}

/// The enum named `name` when it is a string enum: externally tagged, unit variants only.
fn string_enum<'s>(schema: &'s Schema, name: &str) -> Option<&'s EnumDef> {
    match schema.def(name).map(|d| &d.body) {
        Some(Body::Enum(e))
            if matches!(e.repr, Repr::External)
                && e.variants
                    .iter()
                    .all(|v| matches!(v.kind, VariantDefKind::Unit)) =>
        {
            Some(e)
        }
        _ => None,
    }
}

/// A JSON number holding `v`, when one can.
fn number(v: IntValue) -> Option<Value> {
    v.to_i64()
        .map(Number::from)
        .or_else(|| v.to_u64().map(Number::from))
        .map(Value::Number)
}

/// Strings that are not of `format` in any spelling serde or JSON Schema reads.
fn malformed(format: StringFormat) -> &'static [&'static str] {
    match format {
        StringFormat::Plain => &[],
        StringFormat::Uuid => &["x", "0123456g-89ab-cdef-0123-456789abcdef", "01234567-89ab"],
        StringFormat::Date => &["x", "2024-13-01", "2024-02-30", "2024-01-01T00:00:00Z"],
        StringFormat::DateTime => &[
            "x",
            "2024-01-01",
            "2024-01-01T25:00:00Z",
            "2024-13-01T00:00:00Z",
        ],
        StringFormat::NaiveDateTime => &[
            "x",
            "2024-01-01",
            "2024-13-01T00:00:00",
            "2024-01-01T25:00:00",
        ],
        StringFormat::Time => &["x", "25:00:00", "12:60:00", "2024-01-01"],
        StringFormat::Ipv4 => &["x", "256.1.1.1", "1.2.3", "::1"],
        StringFormat::Ipv6 => &["x", "1::2::3", "12345::", "1.2.3.4"],
        StringFormat::Ip => &["x", "256.1.1.1", "1::2::3"],
        StringFormat::SocketAddrV4 => &["x", "1.2.3.4", "1.2.3.4:65536", "[::1]:80"],
        StringFormat::SocketAddrV6 => &["x", "[::1]", "[::1]:65536", "1.2.3.4:80"],
        StringFormat::SocketAddr => &["x", "1.2.3.4", "[::1]:65536", "::1:80:"],
        // Relative references and a broken host: no absolute URL for either reader.
        StringFormat::Url => &["x", "/a/b", "http://[::1"],
    }
}

/// Wrong values of the same JSON type as `current`, a value of `ty` (see [`Slot`]): integers
/// out of the kind's range or outside a constrained set, fractions for integers, strings of
/// two characters (or none) for a `char`, malformed strings for a format, a string outside a
/// string enum's names (which a catch-all reads), a constrained string of the wrong length,
/// arrays and tuples with an item more or fewer. `rng` picks two malformed strings of a
/// format.
#[must_use]
pub fn wrong_values(
    schema: &Schema,
    ty: &Type,
    current: &Value,
    rng: &mut SplitMix,
) -> Vec<WrongValue> {
    let wrong = |kind: &'static str, value: Value| WrongValue { kind, value };
    let mut out = Vec::new();
    let out_of_kind = |kind: IntKind, out: &mut Vec<WrongValue>| {
        let below = IntValue::min_of(kind).pred();
        let above = IntValue::max_of(kind).succ();
        for v in [below, above].into_iter().flatten() {
            if let Some(n) = number(v) {
                out.push(wrong("integer out of range", n));
            }
        }
        out.push(wrong("fraction for integer", serde_json::json!(0.5)));
        out.push(wrong("fraction for integer", serde_json::json!(-1.5)));
    };
    let strings = |format: StringFormat, out: &mut Vec<WrongValue>, rng: &mut SplitMix| {
        let pool = malformed(format);
        for _ in 0..2.min(pool.len()) {
            if let Some(s) = rng.pick(pool) {
                out.push(wrong(
                    "malformed formatted string",
                    Value::String((*s).to_owned()),
                ));
            }
        }
    };
    match (ty, current) {
        (Type::Int(kind), Value::Number(_)) => out_of_kind(*kind, &mut out),
        (Type::Constrained(c), Value::Number(_)) => {
            if let Constraint::Int { kind, values } = &**c {
                out_of_kind(*kind, &mut out);
                let ranges = values.ranges();
                let (lo, hi) = (IntValue::min_of(*kind), IntValue::max_of(*kind));
                // Below each range and above the last, inside the kind: excluded values.
                let mut excluded: Vec<IntValue> =
                    ranges.iter().filter_map(|r| r.min.pred()).collect();
                excluded.extend(ranges.last().and_then(|r| r.max.succ()));
                for v in excluded {
                    if v >= lo && v <= hi && !values.contains(v) {
                        out.extend(number(v).map(|n| wrong("excluded value", n)));
                    }
                }
            }
        }
        (Type::Constrained(c), Value::String(s)) => {
            if let Constraint::String(sc) = &**c {
                strings(sc.format, &mut out, rng);
                let len = s.chars().count() as u64;
                if sc.length.min > 0 && len > 0 {
                    let short: String = s
                        .chars()
                        .take(usize::try_from(sc.length.min - 1).unwrap_or(0))
                        .collect();
                    out.push(wrong("string length", Value::String(short)));
                }
                if let Some(max) = sc.length.max {
                    if max < 1024 {
                        let long = "a".repeat(usize::try_from(max + 1).unwrap_or(0));
                        out.push(wrong("string length", Value::String(long)));
                    }
                }
            }
        }
        (Type::Char, Value::String(_)) => {
            out.push(wrong(
                "two characters for char",
                Value::String("ab".to_owned()),
            ));
            out.push(wrong("no character for char", Value::String(String::new())));
        }
        (Type::String(format), Value::String(_)) => strings(*format, &mut out, rng),
        (Type::Named(name), Value::String(_)) => {
            if let Some(e) = string_enum(schema, name) {
                let known: Vec<&String> = e.variants.iter().flat_map(|v| &v.receiver).collect();
                let outside = fresh_key(|k| known.iter().any(|n| *n == k), "zzNotAVariant");
                out.push(wrong("outside string enum", Value::String(outside)));
            }
        }
        (Type::Array(..) | Type::Tuple(_), Value::Array(items)) => {
            let kind = if matches!(ty, Type::Array(..)) {
                "wrong array length"
            } else {
                "wrong tuple length"
            };
            let mut longer = items.clone();
            longer.push(items.last().cloned().unwrap_or(Value::Null));
            out.push(wrong(kind, Value::Array(longer)));
            if let Some((_, shorter)) = items.split_last() {
                out.push(wrong(kind, Value::Array(shorter.to_vec())));
            }
        }
        _ => {}
    }
    out
}

/// Whether an adjacently tagged enum's object denies keys beside its tag and content.
fn denies_unknown(e: &EnumDef) -> bool {
    e.deny_unknown_fields
}

/// Whether a variant's content stops nesting (no named type inside).
fn shallow_kind(kind: &VariantDefKind) -> bool {
    fn flat(ty: &Type) -> bool {
        match ty {
            Type::Named(_) => false,
            Type::Option(_) | Type::List(_) | Type::Set(_) | Type::Map(..) => true,
            Type::Array(inner, _) => flat(inner),
            Type::Tuple(items) => items.iter().all(flat),
            _ => true,
        }
    }
    match kind {
        VariantDefKind::Unit => true,
        VariantDefKind::Newtype(ty) => flat(ty),
        VariantDefKind::Tuple(items) => items.iter().all(flat),
        VariantDefKind::Struct(s) => s
            .fields
            .iter()
            .all(|f| f.receiver.as_ref().is_none_or(|r| !r.required) || flat(&f.ty)),
    }
}

/// `base`, or `base2`, `base3`, … : the first that is not taken.
fn fresh_key(taken: impl Fn(&str) -> bool, base: &str) -> String {
    let mut key = base.to_owned();
    let mut n = 2_u32;
    while taken(&key) {
        key = format!("{base}{n}");
        n = n.saturating_add(1);
    }
    key
}
