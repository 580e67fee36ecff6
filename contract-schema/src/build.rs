//! Resolving a static [`Shape`] into an owned [`Schema`].
//!
//! The builder translates each struct's fields and each enum's variants into the plain
//! description of [`views`], which applies serde's rules for the two views (presence,
//! absence, skips, flattening, the key or tag each field or variant reads); what only the
//! shape can tell is decided here:
//!
//! - whether a field's type reads a missing key as a value: an `Option`, also behind
//!   `#[serde(transparent)]` structs (which read as their inner type) but not behind a plain
//!   newtype struct (which serde requires);
//! - what a flattened field holds, seen through newtype and transparent structs and
//!   `Option`s: a struct (inlined, up to a depth), a map or an enum;
//! - whether an internally tagged newtype variant's content can be written beside the tag
//!   (see `writable_beside_tag`).
//!
//! Named types are identified by their Rust path with generic arguments and displayed by
//! the shortest unambiguous name: the bare name unless two reached types share it (or it is
//! a keyword of the canonical text), then the module path too.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::contract::ContractInfo;
use crate::model::RESERVED;
use crate::model::{Body, EnumDef, Repr, Schema, StructDef, Type, TypeDef};
use crate::shape::{self, Kind, Send, Shape, VariantKind};
use crate::views::{self, Content, EnumSpec, FieldSpec, Flattened, VariantContent, VariantSpec};

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
    kind_children(shape.kind, &mut f);
}

/// The shapes a kind refers to, each handed to `f`.
fn kind_children(kind: Kind, f: &mut dyn FnMut(&'static Shape)) {
    let fields = |fields: &'static [shape::Field], f: &mut dyn FnMut(&'static Shape)| {
        for field in fields {
            f((field.ty)());
        }
    };
    match kind {
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
        Kind::Views(views) => {
            kind_children(views.sender, f);
            kind_children(views.receiver, f);
        }
        Kind::Struct(s) => fields(s.fields, f),
        Kind::Enum(e) => {
            for v in e.variants {
                match v.kind {
                    VariantKind::Unit => {}
                    VariantKind::Newtype(inner) => f(inner()),
                    VariantKind::Tuple(items) => items.iter().for_each(|i| f(i())),
                    VariantKind::Struct(fs) => fields(fs, f),
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
    kind_text(shape.kind, name)
}

/// The canonical text of a built-in kind, naming nested shapes with `name`.
fn kind_text(kind: Kind, name: &mut dyn FnMut(&'static Shape) -> String) -> String {
    match kind {
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
        Kind::Views(views) => kind_text(views.receiver, name),
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
            Kind::Option(inner) => Type::option_of(self.ty(inner())),
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
            // Only a named type has two views (the derive emits it for tuple structs); a
            // built-in one is described by what it reads.
            Kind::Views(views) => self.kind_ty(views.receiver),
        }
    }

    fn define(&mut self, shape: &'static Shape) {
        let body = match shape.kind {
            Kind::Struct(s) => Body::Struct(self.struct_def(s.fields, s.deny_unknown_fields)),
            Kind::Enum(e) => Body::Enum(self.enum_def(e)),
            // Both are their inner type on the wire; transparency matters only to whether a
            // field of the type may be absent, which the field's receiver view records.
            Kind::Newtype(inner) | Kind::Transparent(inner) => Body::Newtype(self.ty(inner())),
            Kind::Views(views) => Body::Views {
                sender: self.kind_ty(views.sender),
                receiver: self.kind_ty(views.receiver),
            },
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
        let fields = self.field_specs(fields, 0);
        views::struct_def(fields, deny)
    }

    /// The fields as [`views`] reads them; `depth` counts the flattened structs around them.
    fn field_specs(&mut self, fields: &'static [shape::Field], depth: usize) -> Vec<FieldSpec> {
        fields
            .iter()
            .map(|field| {
                let content = if field.flatten {
                    self.flattened(field, depth)
                } else {
                    Content::Value {
                        ty: self.ty((field.ty)()),
                        absent_is_none: absent_is_none((field.ty)()),
                    }
                };
                FieldSpec {
                    rust_name: field.name.to_owned(),
                    ser_name: field.ser_name.to_owned(),
                    de_name: field.de_name.to_owned(),
                    aliases: field.aliases.iter().map(|a| (*a).to_owned()).collect(),
                    skip_serializing: field.send == Send::Never,
                    skip_serializing_if: matches!(field.send, Send::IfPresent | Send::IfSome),
                    skip_if_none: field.send == Send::IfSome && some_is_never_null((field.ty)()),
                    skip_deserializing: field.skip_deserializing,
                    default: field.default,
                    content,
                    provenance: field.provenance,
                    renamed_from: field.renamed_from.iter().map(|a| (*a).to_owned()).collect(),
                    doc: field.doc.to_owned(),
                }
            })
            .collect()
    }

    /// What a flattened field's type is, seen through newtype and transparent structs and
    /// `Option`s (serde flattens `Option<Struct>` too).
    fn flattened(&mut self, field: &'static shape::Field, depth: usize) -> Content {
        let mut shape = (field.ty)();
        let mut optional = false;
        for _ in 0..MAX_FLATTEN_DEPTH {
            match shape.kind {
                Kind::Newtype(inner) | Kind::Transparent(inner) => shape = inner(),
                Kind::Option(inner) => {
                    optional = true;
                    shape = inner();
                }
                _ => break,
            }
        }
        let into = match shape.kind {
            Kind::Struct(s) if depth < MAX_FLATTEN_DEPTH => {
                Flattened::Struct(self.field_specs(s.fields, depth + 1))
            }
            Kind::Map { value, .. } => Flattened::Map(self.ty(value())),
            Kind::Enum(_) => Flattened::Enum(self.ty(shape)),
            _ => Flattened::Other,
        };
        Content::Flatten { optional, into }
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
        let variants = e
            .variants
            .iter()
            .map(|v| VariantSpec {
                rust_name: v.name.to_owned(),
                ser_name: v.ser_name.to_owned(),
                de_name: v.de_name.to_owned(),
                aliases: v.aliases.iter().map(|a| (*a).to_owned()).collect(),
                skip_serializing: v.skip_serializing,
                skip_deserializing: v.skip_deserializing,
                other: v.other,
                untagged: v.untagged,
                content: match v.kind {
                    VariantKind::Unit => VariantContent::Unit,
                    VariantKind::Newtype(inner) => VariantContent::Newtype {
                        ty: self.ty(inner()),
                        writable_beside_tag: writable_beside_tag(inner()),
                    },
                    VariantKind::Tuple(items) => {
                        VariantContent::Tuple(items.iter().map(|i| self.ty(i())).collect())
                    }
                    VariantKind::Struct(fields) => {
                        VariantContent::Struct(self.field_specs(fields, 0))
                    }
                },
                doc: v.doc.to_owned(),
            })
            .collect();
        views::enum_def(EnumSpec {
            repr,
            variants,
            deny_unknown_fields: e.deny_unknown_fields,
        })
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
            | Kind::Tuple(_)
            | Kind::Views(_) => return false,
        }
    }
    // A newtype that contains itself cannot be written at all; say it may be.
    true
}

/// Whether serde reads a missing field of this type as a value: an `Option` reads it as
/// `None`, and a `#[serde(transparent)]` struct reads it as its inner type would. A plain
/// newtype struct does not (`deserialize_newtype_struct` requires a value), even around an
/// `Option`.
fn absent_is_none(mut shape: &'static Shape) -> bool {
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

/// Whether a field of this shape, written only when `Some`, is never `null`: an `Option`
/// whose content (through newtypes) is not nullable itself (`Option<Option<T>>` writes
/// `Some(None)` as `null`, as `Option<()>` and `Option<serde_json::Value>` may).
fn some_is_never_null(shape: &'static Shape) -> bool {
    let Kind::Option(content) = shape.kind else {
        return false;
    };
    let mut shape = content();
    // Bounded: a cycle of newtypes has no value of its own.
    for _ in 0..64 {
        match shape.kind {
            Kind::Option(_) | Kind::Unit | Kind::Any => return false,
            Kind::Newtype(inner) | Kind::Transparent(inner) => shape = inner(),
            _ => return true,
        }
    }
    false
}
