//! Resolving a static [`Shape`] into an owned [`Schema`], applying serde's rules once.
//!
//! - A field may be absent for the receiver when it has a `default`, is skipped when
//!   deserializing, or its type is an `Option` (serde reads a missing `Option` as `None`),
//!   also behind `#[serde(transparent)]` structs (which read as their inner type) but not
//!   behind a plain newtype struct (which serde requires).
//! - Flattened structs are inlined; a flattened map makes the struct capture unknown keys; a
//!   flattened enum (or `Option` of one) is kept whole, in [`StructDef::flattened`].
//!   `default` (on the flattened field or its struct) does not make the inlined fields
//!   optional: serde reads a flattened type from the remaining keys regardless.
//!   A key goes to the field serde gives it to: the struct's own fields first, then the
//!   flattened fields in declaration order (a later field loses the names already taken).
//! - An internally tagged newtype variant whose content serde cannot write beside the tag
//!   (an `Option`, a primitive, a string, a sequence, a tuple) has no sender name: serde
//!   refuses to write it, although it reads `Some` of an `Option`'s inner type.
//! - A key or a tag goes to the first field or variant serde matches it against (a later one
//!   with the same name or alias never reads it).
//! - Named types are identified by their Rust path with generic arguments and displayed by
//!   the shortest unambiguous name: the bare name unless two reached types share it (or it is
//!   a keyword of the canonical text), then the module path too.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::contract::ContractInfo;
use crate::model::Emit;
use crate::model::{
    Body, EnumDef, FieldDef, FlatEnumDef, ReceiverField, Repr, Schema, SenderField, StructDef,
    Type, TypeDef, Unknown, VariantDef, VariantDefKind,
};
use crate::shape::{self, Kind, Send, Shape, VariantKind};
use crate::text::RESERVED;

/// How deep flattened structs may nest before the builder stops inlining.
const MAX_FLATTEN_DEPTH: usize = 32;

/// How many `#[serde(transparent)]` wrappers the builder looks through to find an `Option`
/// (a transparent struct may contain itself through a `Box`).
const MAX_TRANSPARENT_DEPTH: usize = 32;

impl Schema {
    /// Resolves the static description of a type into a schema.
    #[must_use]
    pub fn from_shape(root: &'static Shape) -> Schema {
        Builder::new(root).finish(root, None)
    }

    /// Resolves the static description of a contract's type into its schema.
    #[must_use]
    pub fn from_contract(root: &'static Shape, info: &ContractInfo) -> Schema {
        Builder::new(root).finish(root, Some(info))
    }
}

struct Builder {
    /// Display name of every named shape, by Rust path.
    names: HashMap<String, String>,
    /// Named shapes still to define, by Rust path.
    pending: Vec<&'static Shape>,
    defined: BTreeSet<String>,
    types: BTreeMap<String, TypeDef>,
}

/// Every named shape reachable from a root, visited once each.
struct Collector {
    seen: HashMap<String, &'static Shape>,
    stack: Vec<&'static Shape>,
}

impl Collector {
    fn visit(&mut self, shape: &'static Shape) {
        if shape.is_named() {
            let path = rust_path(shape);
            if self.seen.contains_key(&path) {
                return;
            }
            self.seen.insert(path, shape);
        }
        self.stack.push(shape);
    }

    fn run(mut self, root: &'static Shape) -> HashMap<String, &'static Shape> {
        self.visit(root);
        while let Some(shape) = self.stack.pop() {
            for g in shape.generics {
                self.visit(g());
            }
            for_each_child(shape, |child| self.visit(child));
        }
        self.seen
    }
}

fn for_each_child(shape: &'static Shape, mut f: impl FnMut(&'static Shape)) {
    let fields = |fields: &'static [shape::Field], f: &mut dyn FnMut(&'static Shape)| {
        for field in fields {
            f((field.ty)());
        }
    };
    match shape.kind {
        Kind::Unit
        | Kind::Bool
        | Kind::Int(_)
        | Kind::Float(_)
        | Kind::Char
        | Kind::String(_)
        | Kind::Constrained(_)
        | Kind::Any => {}
        Kind::Option(inner) | Kind::Newtype(inner) | Kind::Transparent(inner) => f(inner()),
        Kind::Seq(seq) => f((seq.item)()),
        Kind::Map { key, value } => {
            f(key());
            f(value());
        }
        Kind::Tuple(items) => items.iter().for_each(|i| f(i())),
        Kind::Struct(s) => fields(s.fields, &mut f),
        Kind::Enum(e) => {
            for v in e.variants {
                match v.kind {
                    VariantKind::Unit => {}
                    VariantKind::Newtype(inner) => f(inner()),
                    VariantKind::Tuple(items) => items.iter().for_each(|i| f(i())),
                    VariantKind::Struct(fs) => fields(fs, &mut f),
                }
            }
        }
    }
}

/// The identity of a shape: its Rust path with generic arguments.
fn rust_path(shape: &'static Shape) -> String {
    if shape.is_named() {
        let mut out = String::new();
        if !shape.module.is_empty() {
            out.push_str(shape.module);
            out.push_str("::");
        }
        out.push_str(shape.name);
        push_generics(&mut out, shape, rust_path);
        out
    } else {
        builtin_text(shape, &mut rust_path)
    }
}

fn push_generics(
    out: &mut String,
    shape: &'static Shape,
    mut f: impl FnMut(&'static Shape) -> String,
) {
    if !shape.generics.is_empty() {
        out.push('<');
        for (i, g) in shape.generics.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&f(g()));
        }
        out.push('>');
    }
}

/// The canonical text of a built-in shape, naming nested shapes with `name`.
fn builtin_text(shape: &'static Shape, name: &mut dyn FnMut(&'static Shape) -> String) -> String {
    match shape.kind {
        Kind::Unit => "unit".into(),
        Kind::Bool => "bool".into(),
        Kind::Int(k) => k.as_str().into(),
        Kind::Float(k) => k.as_str().into(),
        Kind::Char => "char".into(),
        Kind::String(fmt) => match fmt.as_str() {
            Some(f) => format!("string({f})"),
            None => "string".into(),
        },
        Kind::Constrained(c) => c.to_type().to_string(),
        Kind::Any => "any".into(),
        Kind::Option(inner) => format!("option<{}>", name(inner())),
        Kind::Seq(seq) => {
            let item = name((seq.item)());
            match (seq.unique, seq.len) {
                (_, Some(n)) => format!("array<{item}; {n}>"),
                (true, None) => format!("set<{item}>"),
                (false, None) => format!("list<{item}>"),
            }
        }
        Kind::Map { key, value } => format!("map<{}, {}>", name(key()), name(value())),
        Kind::Tuple(items) => {
            let parts: Vec<String> = items.iter().map(|i| name(i())).collect();
            format!("tuple({})", parts.join(", "))
        }
        // A built-in shape never carries these; render through the inner type if it does.
        Kind::Newtype(inner) | Kind::Transparent(inner) => name(inner()),
        Kind::Struct(_) | Kind::Enum(_) => "any".into(),
    }
}

impl Builder {
    fn new(root: &'static Shape) -> Self {
        let named = Collector {
            seen: HashMap::new(),
            stack: Vec::new(),
        }
        .run(root);
        // Which bare names are shared by several modules (or are keywords): those get
        // qualified by their module path.
        let mut modules: HashMap<&'static str, BTreeSet<&'static str>> = HashMap::new();
        for shape in named.values() {
            modules.entry(shape.name).or_default().insert(shape.module);
        }
        let qualify: BTreeSet<&'static str> = modules
            .iter()
            .filter(|(name, mods)| mods.len() > 1 || RESERVED.contains(name))
            .map(|(name, _)| *name)
            .collect();
        let mut names = HashMap::new();
        for (path, shape) in &named {
            names.insert(path.clone(), display_name(shape, &qualify));
        }
        Builder {
            names,
            pending: Vec::new(),
            defined: BTreeSet::new(),
            types: BTreeMap::new(),
        }
    }

    fn finish(mut self, root: &'static Shape, info: Option<&ContractInfo>) -> Schema {
        let root_ty = self.ty(root);
        while let Some(shape) = self.pending.pop() {
            self.define(shape);
        }
        Schema {
            contract: info.map(ContractInfo::contract_id),
            mode: info.map(|i| i.mode).unwrap_or_default(),
            allowances: info.map(ContractInfo::allowances).unwrap_or_default(),
            root: root_ty,
            types: self.types,
        }
    }

    fn name_of(&self, shape: &'static Shape) -> String {
        let path = rust_path(shape);
        self.names.get(&path).cloned().unwrap_or(path)
    }

    /// The type of a shape in the schema; named shapes are queued for definition.
    fn ty(&mut self, shape: &'static Shape) -> Type {
        if shape.is_named() {
            if let Kind::Unit = shape.kind {
                return Type::Unit;
            }
            let name = self.name_of(shape);
            if self.defined.insert(name.clone()) {
                self.pending.push(shape);
            }
            return Type::Named(name);
        }
        self.kind_ty(shape.kind)
    }

    fn kind_ty(&mut self, kind: Kind) -> Type {
        match kind {
            Kind::Unit => Type::Unit,
            Kind::Bool => Type::Bool,
            Kind::Int(k) => Type::Int(k),
            Kind::Float(k) => Type::Float(k),
            Kind::Char => Type::Char,
            Kind::String(f) => Type::String(f),
            Kind::Constrained(c) => c.to_type(),
            Kind::Any | Kind::Struct(_) | Kind::Enum(_) => Type::Any,
            Kind::Option(inner) => {
                let inner = self.ty(inner());
                // serde cannot tell `Some(None)` from `None`: one `option` is the wire truth.
                match inner {
                    Type::Option(_) => inner,
                    other => Type::Option(Box::new(other)),
                }
            }
            Kind::Seq(seq) => {
                let item = Box::new(self.ty((seq.item)()));
                match (seq.unique, seq.len) {
                    (_, Some(n)) => Type::Array(item, n),
                    (true, None) => Type::Set(item),
                    (false, None) => Type::List(item),
                }
            }
            Kind::Map { key, value } => {
                Type::Map(Box::new(self.ty(key())), Box::new(self.ty(value())))
            }
            Kind::Tuple(items) => Type::Tuple(items.iter().map(|i| self.ty(i())).collect()),
            Kind::Newtype(inner) | Kind::Transparent(inner) => self.ty(inner()),
        }
    }

    fn define(&mut self, shape: &'static Shape) {
        let body = match shape.kind {
            Kind::Struct(s) => Body::Struct(self.struct_def(s.fields, s.deny_unknown_fields)),
            Kind::Enum(e) => Body::Enum(self.enum_def(e)),
            // Both are their inner type on the wire; transparency matters only to whether a
            // field of the type may be absent, which the field's receiver view records.
            Kind::Newtype(inner) | Kind::Transparent(inner) => Body::Newtype(self.ty(inner())),
            other => Body::Newtype(self.kind_ty(other)),
        };
        let name = self.name_of(shape);
        self.types.insert(
            name,
            TypeDef {
                rust_path: rust_path(shape),
                doc: shape.doc.to_owned(),
                body,
            },
        );
    }

    fn struct_def(&mut self, fields: &'static [shape::Field], deny: bool) -> StructDef {
        let mut def = StructDef {
            fields: Vec::new(),
            unknown: if deny { Unknown::Deny } else { Unknown::Ignore },
            extra: None,
            flattened: Vec::new(),
        };
        self.push_fields(&mut def, fields, "", (false, false), 0);
        shadow_flattened_keys(&mut def);
        def
    }

    fn push_fields(
        &mut self,
        def: &mut StructDef,
        fields: &'static [shape::Field],
        prefix: &str,
        // (may be absent for the receiver, written only when present): set inside a
        // flattened `Option`, whose fields serde writes only when it is `Some`.
        (all_optional, if_present): (bool, bool),
        depth: usize,
    ) {
        for field in fields {
            if field.flatten {
                self.flatten(def, field, prefix, (all_optional, if_present), depth);
                continue;
            }
            let ty = self.ty((field.ty)());
            let sender = match field.send {
                Send::Never => None,
                Send::Always if !if_present => Some(Emit::Always),
                Send::Always | Send::IfPresent => Some(Emit::IfPresent),
            }
            .map(|emit| SenderField {
                name: field.ser_name.to_owned(),
                emit,
            });
            let receiver = (!field.skip_deserializing).then(|| ReceiverField {
                name: field.de_name.to_owned(),
                aliases: field.aliases.iter().map(|a| (*a).to_owned()).collect(),
                required: !(all_optional || field.default || may_be_absent((field.ty)())),
            });
            def.fields.push(FieldDef {
                rust_name: format!("{prefix}{}", field.name),
                ty,
                sender,
                receiver,
                provenance: field.provenance,
                renamed_from: field.renamed_from.iter().map(|a| (*a).to_owned()).collect(),
                doc: field.doc.to_owned(),
            });
        }
    }

    fn flatten(
        &mut self,
        def: &mut StructDef,
        field: &'static shape::Field,
        prefix: &str,
        (all_optional, mut if_present): (bool, bool),
        depth: usize,
    ) {
        let prefix = format!("{prefix}{}.", field.name);
        let mut shape = (field.ty)();
        // serde ignores `default` on a flattened field, and a container's `default` too: the
        // flattened type is always read from the remaining keys.
        let mut optional = all_optional;
        // Look through newtypes and one `Option` (serde flattens `Option<Struct>` too).
        for _ in 0..MAX_FLATTEN_DEPTH {
            match shape.kind {
                Kind::Newtype(inner) | Kind::Transparent(inner) => shape = inner(),
                Kind::Option(inner) => {
                    optional = true;
                    if_present = true;
                    shape = inner();
                }
                _ => break,
            }
        }
        match shape.kind {
            // A flattened struct's own `deny_unknown_fields` has no effect: serde hands it only
            // the keys of its fields, and the outer struct ignores the rest.
            Kind::Struct(s) if depth < MAX_FLATTEN_DEPTH => {
                self.push_fields(def, s.fields, &prefix, (optional, if_present), depth + 1);
            }
            Kind::Map { value, .. } => {
                let value = self.ty(value());
                def.unknown = Unknown::Capture;
                def.extra = Some(value);
            }
            // A flattened enum stays whole: its variant's keys sit beside the fields, which
            // every feature reads from the enum's own definition.
            Kind::Enum(_) => {
                let ty = self.ty(shape);
                def.flattened.push(FlatEnumDef {
                    rust_name: prefix.trim_end_matches('.').to_owned(),
                    ty: if optional {
                        Type::Option(Box::new(ty))
                    } else {
                        ty
                    },
                    sent: field.send != Send::Never,
                    read: !field.skip_deserializing,
                    doc: field.doc.to_owned(),
                });
            }
            // The derive rejects flattening anything else at compile time; an unexpected
            // shape here is described as capturing any further keys, never as nothing.
            _ => {
                def.unknown = Unknown::Capture;
                def.extra = Some(Type::Any);
            }
        }
    }

    fn enum_def(&mut self, e: &'static shape::EnumShape) -> EnumDef {
        let repr = match e.repr {
            shape::Repr::External => Repr::External,
            shape::Repr::Internal { tag } => Repr::Internal {
                tag: tag.to_owned(),
            },
            shape::Repr::Adjacent { tag, content } => Repr::Adjacent {
                tag: tag.to_owned(),
                content: content.to_owned(),
            },
            shape::Repr::Untagged => Repr::Untagged,
        };
        let mut variants = e
            .variants
            .iter()
            .map(|v| {
                let kind = match v.kind {
                    VariantKind::Unit => VariantDefKind::Unit,
                    VariantKind::Newtype(inner) => VariantDefKind::Newtype(self.ty(inner())),
                    VariantKind::Tuple(items) => {
                        VariantDefKind::Tuple(items.iter().map(|i| self.ty(i())).collect())
                    }
                    VariantKind::Struct(fields) => {
                        VariantDefKind::Struct(self.struct_def(fields, e.deny_unknown_fields))
                    }
                };
                let mut receiver = Vec::new();
                if !v.skip_deserializing {
                    receiver.push(v.de_name.to_owned());
                    receiver.extend(v.aliases.iter().map(|a| (*a).to_owned()));
                }
                // An enum untagged as a whole has no tagged variant to set apart.
                let untagged = v.untagged && repr != Repr::Untagged;
                let unwritable = match (e.repr, v.kind) {
                    (shape::Repr::Internal { .. }, VariantKind::Newtype(inner)) if !untagged => {
                        !writable_beside_tag(inner())
                    }
                    _ => false,
                };
                VariantDef {
                    rust_name: v.name.to_owned(),
                    sender: (!v.skip_serializing && !unwritable).then(|| v.ser_name.to_owned()),
                    receiver,
                    other: v.other,
                    untagged,
                    kind,
                    doc: v.doc.to_owned(),
                }
            })
            .collect::<Vec<VariantDef>>();
        // serde matches a tag against the variants' names and aliases in declaration order:
        // a name an earlier variant reads never reaches a later one (rustc warns of an
        // unreachable pattern). An untagged enum, or an untagged variant, reads no name.
        if repr != Repr::Untagged {
            let mut taken: BTreeSet<String> = BTreeSet::new();
            for variant in variants.iter_mut().filter(|v| !v.untagged) {
                variant.receiver.retain(|name| !taken.contains(name));
                taken.extend(variant.receiver.iter().cloned());
            }
        }
        EnumDef {
            repr,
            variants,
            deny_unknown_fields: e.deny_unknown_fields,
        }
    }
}

/// Gives each key to the one field serde reads it into. serde matches a struct's own fields
/// first, in declaration order (two of them may share a name or an alias: the first takes
/// it, and rustc warns of an unreachable pattern), and hands the other keys to its flattened
/// fields, each of which takes the keys of its fields in declaration order: a key already
/// taken never reaches a later field. So a field loses a name or alias an earlier field
/// reads (its next free alias becomes its name), and is not read at all when it has none
/// left: serde then reads its default (an
/// `Option`'s `None`), or cannot read the struct when the field is required (a documented
/// looser point of the JSON Schema export). The sender view is left as serde writes it: both
/// fields, under the same key.
fn shadow_flattened_keys(def: &mut StructDef) {
    let depth = |f: &FieldDef| f.rust_name.matches('.').count();
    let mut order: Vec<usize> = (0..def.fields.len()).collect();
    order.sort_by_key(|&i| def.fields.get(i).map_or(0, depth));
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for i in order {
        let Some(field) = def.fields.get_mut(i) else {
            continue;
        };
        let Some(receiver) = field.receiver.as_mut() else {
            continue;
        };
        let mut free = std::iter::once(receiver.name.clone())
            .chain(receiver.aliases.iter().cloned())
            .filter(|k| !taken.contains(k));
        match free.next() {
            Some(name) => {
                let aliases = free.collect();
                receiver.name = name;
                receiver.aliases = aliases;
            }
            None => {
                field.receiver = None;
                continue;
            }
        }
        taken.insert(receiver.name.clone());
        taken.extend(receiver.aliases.iter().cloned());
    }
}

/// Whether serde can write a value of this type as the content of an internally tagged
/// newtype variant, beside the tag: a unit, a map, a struct or an enum (serde looks through
/// newtype and transparent structs to find one), and `serde_json::Value`, whose verdict
/// depends on the value. serde refuses everything else at run time ("cannot serialize tagged
/// newtype variant … containing …"): an `Option` (`Some` as well as `None`, although it reads
/// `Some` from the keys beside the tag), a bool, a number, a char, a string, a sequence and a
/// tuple. Such a variant is read (or not) but never written.
fn writable_beside_tag(mut shape: &'static Shape) -> bool {
    for _ in 0..MAX_TRANSPARENT_DEPTH {
        match shape.kind {
            Kind::Newtype(inner) | Kind::Transparent(inner) => shape = inner(),
            Kind::Unit | Kind::Any | Kind::Map { .. } | Kind::Struct(_) | Kind::Enum(_) => {
                return true
            }
            Kind::Option(_)
            | Kind::Bool
            | Kind::Int(_)
            | Kind::Float(_)
            | Kind::Char
            | Kind::String(_)
            | Kind::Constrained(_)
            | Kind::Seq(_)
            | Kind::Tuple(_) => return false,
        }
    }
    // A newtype that contains itself cannot be written at all; say it may be.
    true
}

/// Whether serde reads a missing field of this type as a value: an `Option` reads it as
/// `None`, and a `#[serde(transparent)]` struct reads it as its inner type would. A plain
/// newtype struct does not (`deserialize_newtype_struct` requires a value), even around an
/// `Option`.
fn may_be_absent(mut shape: &'static Shape) -> bool {
    for _ in 0..MAX_TRANSPARENT_DEPTH {
        match shape.kind {
            Kind::Option(_) => return true,
            Kind::Transparent(inner) => shape = inner(),
            _ => return false,
        }
    }
    false
}

fn display_name(shape: &'static Shape, qualify: &BTreeSet<&'static str>) -> String {
    if !shape.is_named() {
        return builtin_text(shape, &mut |inner| display_name(inner, qualify));
    }
    let mut out = String::new();
    if qualify.contains(shape.name) && !shape.module.is_empty() {
        out.push_str(shape.module);
        out.push_str("::");
    }
    out.push_str(shape.name);
    push_generics(&mut out, shape, |g| display_name(g, qualify));
    out
}
