//! The second pass: the scanned tape against one view of a schema, collecting every problem
//! with its JSON pointer and the presence of every field.
//!
//! The walk mirrors serde's derived `Deserialize` (receiver view) or `Serialize` (sender view)
//! as the description states it, and takes the documented stricter positions of the
//! `json_schema` module (a struct must be an object, a unit variant a string, a set has no
//! duplicate items, no key twice). Where serde's decision depends on more than the
//! description says (a string format, an internally tagged newtype variant whose content is
//! an enum), it checks what it can and leaves the verdict to serde, which `receive` always
//! runs after a clean walk. A constrained integer is checked against its set and a
//! constrained string against its length; a string's `pattern` is not checked here (no Rust
//! type describes one: patterns come from imported schemas, and matching ECMA-262 would need
//! a regular-expression engine in the runtime), so the receiver is looser than the exported
//! JSON Schema on that one point. It recurses once per level of the document, which the scan has
//! bounded.

use std::borrow::Cow;
use std::collections::HashSet;

use rustc_hash::FxHashMap;

use contract_schema::model::{
    Body, Constraint, EnumDef, FieldDef, FloatKind, IntKind, IntValue, Repr, StructDef, Type,
    TypeDef, Unknown, VariantDef, VariantDefKind,
};
use contract_schema::{Schema, View};

use super::scan::{key_str, key_text, str_text, Node, NodeKind, Tape};
use crate::runtime::plan::same;
use crate::runtime::presence::{Label, Record, ROOT};
use crate::runtime::problem::{JsonKind, Problem, ProblemKind};

/// One step of the pointer into the instance.
#[derive(Debug, Clone, Copy)]
enum Seg<'s> {
    /// An object key, by its node.
    Key(u32),
    /// A name from the schema (a missing field, a tag).
    Name(&'s str),
    /// An array index.
    Index(u32),
    /// A map key: data, shown as `*`.
    Star,
}

/// The ids of the schema paths met so far, kept per thread with its memo (cleared when the
/// schema or the view changes).
#[derive(Debug, Default)]
pub(crate) struct PathIndex<'s> {
    /// The definition of a named type, by the address of the name in the schema (the same
    /// name written twice is two entries): no search of the schema's map per call.
    named: FxHashMap<usize, &'s TypeDef>,
    /// By parent path and label key (all but an array's items).
    by_label: FxHashMap<(u32, u8, usize), u32>,
    /// The id of the first of a struct's field paths, by parent path and struct.
    structs: FxHashMap<(u32, usize), u32>,
    /// The last entry of `structs` asked for: the items of an array ask for the same.
    last_struct: Option<((u32, usize), u32)>,
    /// By parent path (at the parent's id plus one: the top level, [`ROOT`], at 0): the id of
    /// its items' path (`parent[]`), `u32::MAX` until met. Every array asks for it; no hash
    /// for that.
    items: Vec<u32>,
}

impl<'s> PathIndex<'s> {
    pub(crate) fn clear(&mut self) {
        self.named.clear();
        self.items.clear();
        self.by_label.clear();
        self.structs.clear();
        self.last_struct = None;
    }

    /// The definition of the type named `name` (a name in `schema`).
    pub(crate) fn def(&mut self, schema: &'s Schema, name: &'s str) -> Option<&'s TypeDef> {
        let address = name.as_ptr() as usize;
        if let Some(&def) = self.named.get(&address) {
            return Some(def);
        }
        let def = schema.def(name)?;
        self.named.insert(address, def);
        Some(def)
    }

    /// The id of the path of the items of the array at `parent` (`parent[]`), added to
    /// `record` when new: every array asks for it, found by the parent's id alone.
    #[inline]
    pub(crate) fn items(&mut self, record: &mut Record<'s>, parent: u32) -> u32 {
        let at = parent.wrapping_add(1) as usize;
        match self.items.get(at) {
            Some(&id) if id != u32::MAX => id,
            _ => {
                let id = record.push_path(parent, Label::Items);
                if self.items.len() <= at {
                    self.items.resize(at + 1, u32::MAX);
                }
                self.items[at] = id;
                id
            }
        }
    }

    /// The id of the path `label` under `parent`, added to `record` when new.
    pub(crate) fn child(&mut self, record: &mut Record<'s>, parent: u32, label: Label<'s>) -> u32 {
        if let Label::Items = label {
            return self.items(record, parent);
        }
        let (kind, addr) = label.key();
        if let Some(id) = self.by_label.get(&(parent, kind, addr)) {
            return *id;
        }
        let id = record.push_path(parent, label);
        self.by_label.insert((parent, kind, addr), id);
        id
    }

    /// The id of the first of the paths of `def`'s fields under `here`, named as `view`
    /// names them: they follow each other, field `f`'s is this plus `f`. Added to `record`
    /// together, the first time the struct is met there (a path of a field that never arrives
    /// is never listed).
    #[inline]
    pub(crate) fn struct_ids(
        &mut self,
        record: &mut Record<'s>,
        here: u32,
        def: &'s StructDef,
        view: View,
    ) -> u32 {
        let key = (here, def as *const StructDef as usize);
        if let Some((last, first)) = self.last_struct {
            if last == key {
                return first;
            }
        }
        let first = match self.structs.get(&key) {
            Some(first) => *first,
            None => {
                let first = record.paths.len() as u32;
                for field in &def.fields {
                    record.push_path(here, Label::Field(view_name(view, field).unwrap_or("")));
                }
                self.structs.insert(key, first);
                first
            }
        };
        self.last_struct = Some((key, first));
        first
    }
}

/// The name `view` reads or writes `field` under.
pub(crate) fn view_name(view: View, field: &FieldDef) -> Option<&str> {
    match view {
        View::Sender => field.sender.as_ref().map(|s| s.name.as_str()),
        View::Receiver => field.receiver.as_ref().map(|r| r.name.as_str()),
    }
}

/// What a check produced.
pub(crate) struct Outcome<'s> {
    pub problems: Vec<Problem>,
    pub record: Record<'s>,
}

/// What a walk keeps per thread between calls, for its room.
#[derive(Default)]
pub(crate) struct WalkBuffers<'s> {
    problems: Vec<Problem>,
    seen: Vec<u32>,
    pointer: Vec<Seg<'s>>,
}

/// The checker over one document.
pub(crate) struct Checker<'s, 'd> {
    schema: &'s Schema,
    view: View,
    input: &'d [u8],
    /// The same bytes as text (the scan checked them).
    text: &'d str,
    nodes: &'d [Node],
    duplicates: &'d [super::scan::Duplicate],
    /// The problems found (the buffer is the thread's, kept between calls).
    problems: &'d mut Vec<Problem>,
    /// Taken from the thread's buffer for the walk and given back at its end (owned while
    /// it runs: one indirection fewer per step).
    pointer: Vec<Seg<'s>>,
    pointer_home: &'d mut Vec<Seg<'s>>,
    /// The presence being recorded.
    record: Record<'s>,
    /// The path ids by parent and label key.
    index: &'d mut PathIndex<'s>,
    here: u32,
    /// Inside a trial of an untagged variant: record nothing, only whether it failed.
    trial: u32,
    failed: bool,
    max_unknown: usize,
    /// Per struct being checked: the key node that filled each field, `u32::MAX` if none.
    seen: &'d mut Vec<u32>,
    /// The last named type looked up, and its definition.
    last_named: Option<(&'s str, &'s TypeDef)>,
    /// While the flattened enums of a struct are read: whether a variant that takes every
    /// key left judges them by its values (see [`Checker::flat_enums`]).
    rest_judged: bool,
    /// A name or type text of the schema as a problem holds it: borrowed when the schema
    /// is `'static` (every contract's), copied otherwise.
    keep: fn(&'s str) -> Cow<'static, str>,
}

impl<'s, 'd> Checker<'s, 'd> {
    pub(crate) fn new(
        record: Record<'s>,
        text: &'d str,
        tape: &'d Tape,
        index: &'d mut PathIndex<'s>,
        max_unknown: usize,
        buffers: &'d mut WalkBuffers<'s>,
        keep: fn(&'s str) -> Cow<'static, str>,
    ) -> Self {
        buffers.problems.clear();
        buffers.seen.clear();
        let mut pointer = std::mem::take(&mut buffers.pointer);
        pointer.clear();
        Checker {
            schema: record.schema,
            view: record.view,
            input: text.as_bytes(),
            text,
            nodes: &tape.nodes,
            duplicates: &tape.duplicates,
            problems: &mut buffers.problems,
            pointer,
            pointer_home: &mut buffers.pointer,
            record,
            index,
            here: ROOT,
            trial: 0,
            failed: false,
            max_unknown,
            seen: &mut buffers.seen,
            last_named: None,
            rest_judged: false,
            keep,
        }
    }

    /// Checks the whole document against the schema's root.
    pub(crate) fn run(mut self) -> Outcome<'s> {
        if !self.nodes.is_empty() {
            self.value(0, &self.schema.root, 0);
        }
        *self.pointer_home = std::mem::take(&mut self.pointer);
        Outcome {
            // Moved out at their number: the buffer grows once per thread, not per call.
            problems: self.problems.drain(..).collect(),
            record: self.record,
        }
    }

    /// The id of the path `label` under `parent`, added when new.
    fn child(&mut self, parent: u32, label: Label<'s>) -> u32 {
        self.index.child(&mut self.record, parent, label)
    }

    fn node(&self, i: u32) -> Node {
        self.nodes[i as usize]
    }

    // ---- recording -------------------------------------------------------------------

    fn problem(&mut self, kind: ProblemKind) {
        if self.trial > 0 {
            self.failed = true;
            return;
        }
        let pointer = self.render_pointer(None);
        self.problems.push(Problem { pointer, kind });
    }

    fn problem_at(&mut self, seg: Seg<'s>, kind: ProblemKind) {
        self.pointer.push(seg);
        self.problem(kind);
        self.pointer.pop();
    }

    fn render_pointer(&self, extra: Option<Seg<'s>>) -> String {
        let mut out = String::with_capacity(64);
        for seg in self.pointer.iter().chain(extra.iter()) {
            out.push('/');
            match seg {
                Seg::Key(k) => escape_token(&key_str(self.text, &self.node(*k)), &mut out),
                Seg::Name(name) => escape_token(name, &mut out),
                Seg::Index(i) => out.push_str(itoa::Buffer::new().format(*i)),
                Seg::Star => out.push('*'),
            }
        }
        out
    }

    /// Counts one arrival at path `id` (outside trials).
    fn count_arrival(&mut self, id: u32) {
        if self.trial == 0 {
            self.record.arrive(id);
        }
    }

    fn record_missing(&mut self, name: &'s str) {
        let here = self.here;
        let missing = &mut self.record.missing;
        if self.trial == 0 && !missing.iter().any(|(p, n)| *p == here && *n == name) {
            missing.push((here, name));
        }
    }

    fn record_unknown(&mut self, key: u32) {
        if self.trial == 0 {
            let name = key_text(self.input, &self.node(key));
            self.record.unknown_name(self.here, &name, self.max_unknown);
        }
    }

    /// A value the walk does not look into: report the duplicate keys inside it.
    fn skip(&mut self, i: u32) {
        let node = self.node(i);
        if !matches!(node.kind, NodeKind::Object | NodeKind::Array) {
            return;
        }
        let from = self.duplicates.partition_point(|d| d.object < i);
        let to = self.duplicates.partition_point(|d| d.object < node.next);
        for _ in from..to {
            self.problem(ProblemKind::DuplicateKey { key: None });
        }
    }

    /// Duplicate keys of the object at `i`, named when `named` (a struct's fields).
    fn own_duplicates(&mut self, i: u32, named: bool) {
        let from = self.duplicates.partition_point(|d| d.object < i);
        let to = self.duplicates.partition_point(|d| d.object <= i);
        for d in from..to {
            let key = self.duplicates[d].key;
            if named {
                let name = Cow::Owned(
                    String::from_utf8_lossy(&key_text(self.input, &self.node(key))).into_owned(),
                );
                self.problem_at(Seg::Key(key), ProblemKind::DuplicateKey { key: Some(name) });
            } else {
                self.problem_at(Seg::Star, ProblemKind::DuplicateKey { key: None });
            }
        }
    }

    fn mismatch(&mut self, i: u32, expected: &'s Type) {
        let node = self.node(i);
        let expected = type_text(expected, self.keep);
        if node.kind == NodeKind::Null {
            self.problem(ProblemKind::NullNotAllowed { expected });
        } else {
            self.problem(ProblemKind::WrongType {
                expected,
                found: json_kind(&node),
            });
            self.skip(i);
        }
    }

    // ---- types -----------------------------------------------------------------------

    /// `hops`: named types followed without consuming a node (newtype cycles end here).
    fn value(&mut self, i: u32, ty: &'s Type, hops: usize) {
        let node = self.node(i);
        match ty {
            Type::Any => self.skip(i),
            Type::Option(inner) => {
                if node.kind != NodeKind::Null {
                    self.value(i, inner, hops);
                }
            }
            Type::Unit if node.kind == NodeKind::Null => {}
            Type::Bool if node.kind == NodeKind::Bool => {}
            // serde_json reads `-0` as the float `-0.0`, which no integer type takes but
            // `i128`, which serde_json parses digit by digit.
            Type::Int(kind)
                if *kind != IntKind::I128
                    && node.kind == NodeKind::Int
                    && self.text(&node) == b"-0" =>
            {
                self.problem(ProblemKind::WrongType {
                    expected: type_text(ty, self.keep),
                    found: JsonKind::Number,
                });
            }
            Type::Int(kind) if node.kind == NodeKind::Int => {
                if !int_in_range(self.text(&node), *kind) {
                    self.problem(ProblemKind::OutOfRange {
                        expected: type_text(ty, self.keep),
                    });
                }
            }
            // A constrained integer is its kind first (serde reads the kind, then the type
            // refuses what its set excludes); the message names the set, not the value.
            Type::Constrained(c) => match &**c {
                Constraint::Int { kind, values } if node.kind == NodeKind::Int => {
                    let text = self.text(&node);
                    let fits = (*kind == IntKind::I128 || text != b"-0")
                        && int_in_range(text, *kind)
                        && IntValue::parse(text).is_some_and(|v| values.contains(v));
                    if !fits {
                        self.problem(ProblemKind::OutOfRange {
                            expected: type_text(ty, self.keep),
                        });
                    }
                }
                // The length in characters; a pattern is not checked here (see the module
                // documentation).
                Constraint::String(s) if node.kind == NodeKind::Str => {
                    let chars = str_text(self.input, &node).chars().count();
                    if !s.length.contains(chars as u64) {
                        self.problem(ProblemKind::WrongStringLength {
                            expected: type_text(ty, self.keep),
                        });
                    }
                }
                _ => self.mismatch(i, ty),
            },
            // serde_json's own parse decides the range: with its `float_roundtrip` feature
            // (which any crate of the build may turn on) an `f32` beyond its range is an
            // error, without it an infinity.
            Type::Float(kind) if matches!(node.kind, NodeKind::Int | NodeKind::Float) => {
                let text = self.text(&node);
                let fits = match kind {
                    FloatKind::F32 => serde_json::from_slice::<f32>(text).is_ok(),
                    FloatKind::F64 => super::number::float(text).is_some(),
                };
                if !fits {
                    self.problem(ProblemKind::OutOfRange {
                        expected: type_text(ty, self.keep),
                    });
                }
            }
            Type::Char if node.kind == NodeKind::Str => {
                if str_text(self.input, &node).chars().count() != 1 {
                    self.problem(ProblemKind::NotOneCharacter);
                }
            }
            Type::String(_) if node.kind == NodeKind::Str => {}
            Type::List(item) | Type::Set(item) if node.kind == NodeKind::Array => {
                self.items(i, std::slice::from_ref(&**item), None);
                if matches!(ty, Type::Set(_)) {
                    self.set_duplicates(i);
                }
            }
            Type::Array(item, n) if node.kind == NodeKind::Array => {
                if node.count as usize == *n {
                    self.items(i, std::slice::from_ref(&**item), None);
                } else {
                    self.problem(ProblemKind::WrongLength {
                        expected: *n,
                        found: node.count as usize,
                    });
                    self.skip(i);
                }
            }
            Type::Tuple(items) if node.kind == NodeKind::Array => {
                if node.count as usize == items.len() {
                    self.items(i, items, Some(()));
                } else {
                    self.problem(ProblemKind::WrongLength {
                        expected: items.len(),
                        found: node.count as usize,
                    });
                    self.skip(i);
                }
            }
            Type::Map(key, value) if node.kind == NodeKind::Object => {
                self.map(i, key, value, &[]);
            }
            Type::Named(name) => self.named(i, ty, name, hops),
            _ => self.mismatch(i, ty),
        }
    }

    fn text(&self, node: &Node) -> &'d [u8] {
        &self.input[node.start as usize..node.end as usize]
    }

    /// The items of the array at `i`: all of type `types[0]`, or (`tuple`) one type each.
    fn items(&mut self, i: u32, types: &'s [Type], tuple: Option<()>) {
        let saved = self.here;
        self.here = self.index.items(&mut self.record, saved);
        let mut child = i + 1;
        for n in 0..self.node(i).count {
            let ty = if tuple.is_some() {
                &types[n as usize]
            } else {
                &types[0]
            };
            let node = self.node(child);
            if !plain(&node, ty) {
                self.pointer.push(Seg::Index(n));
                self.value(child, ty, 0);
                self.pointer.pop();
            }
            child = node.next;
        }
        self.here = saved;
    }

    fn set_duplicates(&mut self, i: u32) {
        let mut seen = HashSet::new();
        let mut child = i + 1;
        for n in 0..self.node(i).count {
            let node = self.node(child);
            let raw = &self.input[node.start as usize..node.end as usize];
            let key: std::borrow::Cow<'_, [u8]> = if node.kind == NodeKind::Str {
                key_text(self.input, &node)
            } else {
                raw.into()
            };
            if !seen.insert((node.kind as u8, key)) {
                self.problem_at(Seg::Index(n), ProblemKind::DuplicateItem);
            }
            child = node.next;
        }
    }

    /// A map: every key read by `key`, every value of type `value`; `skip_keys` are the tags
    /// of enclosing internally tagged enums.
    fn map(&mut self, i: u32, key: &'s Type, value: &'s Type, skip_keys: &[&str]) {
        let saved = self.here;
        self.here = self.child(saved, Label::Values);
        let mut k = i + 1;
        for _ in 0..self.node(i).count {
            let v = k + 1;
            let text = key_text(self.input, &self.node(k));
            if !skip_keys.iter().any(|t| t.as_bytes() == &*text) {
                if !self.key_fits(&text, key) {
                    self.problem_at(
                        Seg::Star,
                        ProblemKind::InvalidKey {
                            expected: type_text(key, self.keep),
                        },
                    );
                }
                self.pointer.push(Seg::Star);
                self.value(v, value, 0);
                self.pointer.pop();
            }
            k = self.node(v).next;
        }
        self.here = saved;
        self.own_duplicates(i, false);
    }

    /// Whether serde_json reads `text` as a map key of type `key` (a format it cannot tell is
    /// left to serde).
    fn key_fits(&self, text: &[u8], key: &'s Type) -> bool {
        match self.schema.resolve(key) {
            Type::Int(kind) => is_canonical_int(text) && int_in_range(text, *kind),
            Type::Constrained(c) => match &**c {
                Constraint::Int { kind, values } => {
                    is_canonical_int(text)
                        && int_in_range(text, *kind)
                        && IntValue::parse(text).is_some_and(|v| values.contains(v))
                }
                Constraint::String(s) => std::str::from_utf8(text)
                    .is_ok_and(|t| s.length.contains(t.chars().count() as u64)),
            },
            Type::Bool => text == b"true" || text == b"false",
            Type::Char => std::str::from_utf8(text).is_ok_and(|t| t.chars().count() == 1),
            Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                Some(Body::Enum(e)) if e.is_string_enum() => {
                    e.catch_all().is_some() && self.view == View::Receiver
                        || e.variants
                            .iter()
                            .any(|v| self.tags(v).any(|t| t.as_bytes() == text))
                }
                _ => true,
            },
            _ => true,
        }
    }

    fn named(&mut self, i: u32, ty: &'s Type, name: &'s str, hops: usize) {
        // The items of an array name one type after the other: the last one is kept.
        let def = match self.last_named {
            Some((last, def)) if std::ptr::eq(last, name) => Some(def),
            _ => self.index.def(self.schema, name),
        };
        let Some(def) = def else {
            return self.skip(i);
        };
        self.last_named = Some((name, def));
        match &def.body {
            Body::Newtype(_) | Body::Views { .. } => {
                if hops > self.schema.types.len() {
                    // A cycle of newtypes: serde decides.
                    return self.skip(i);
                }
                if let Some(inner) = def.body.wire_type(self.view) {
                    self.value(i, inner, hops + 1);
                }
            }
            Body::Struct(s) => {
                if self.node(i).kind == NodeKind::Object {
                    self.structure(i, s, &[]);
                } else {
                    self.mismatch(i, ty);
                }
            }
            Body::Enum(e) => self.enumeration(i, ty, e),
        }
    }

    /// The tags a variant is read (receiver) or written (sender) under.
    fn tags(&self, v: &'s VariantDef) -> impl Iterator<Item = &'s String> {
        let (sender, receiver) = match self.view {
            View::Sender => (v.sender.as_ref(), &v.receiver[..0]),
            View::Receiver => (None, &v.receiver[..]),
        };
        sender.into_iter().chain(receiver)
    }

    /// The problem of a tag `e` does not know: the tags this view knows, by name (structure,
    /// not payload), the first [`MAX_KNOWN_TAGS`] of them kept.
    #[cold]
    fn unknown_variant(&self, ty: &'s Type, e: &'s EnumDef) -> ProblemKind {
        let mut known = Vec::new();
        let mut known_count = 0;
        for tag in e.tagged_variants().flat_map(|v| self.tags(v)) {
            if known.len() < MAX_KNOWN_TAGS {
                known.push((self.keep)(tag.as_str()));
            }
            known_count += 1;
        }
        ProblemKind::UnknownVariant {
            expected: type_text(ty, self.keep),
            known,
            known_count,
        }
    }

    fn primary_name(&self, field: &'s FieldDef) -> Option<&'s str> {
        view_name(self.view, field)
    }

    fn field_reads(&self, field: &'s FieldDef, key: &[u8]) -> bool {
        match self.view {
            View::Sender => field
                .sender
                .as_ref()
                .is_some_and(|s| same(s.name.as_bytes(), key)),
            View::Receiver => field.receiver.as_ref().is_some_and(|r| {
                same(r.name.as_bytes(), key) || r.aliases.iter().any(|a| same(a.as_bytes(), key))
            }),
        }
    }

    fn field_required(&self, field: &'s FieldDef, tags: &[&str]) -> Option<&'s str> {
        match self.view {
            View::Sender => field
                .sender
                .as_ref()
                .filter(|s| s.emit == contract_schema::model::Emit::Always)
                .filter(|s| !tags.contains(&s.name.as_str()))
                .map(|s| s.name.as_str()),
            View::Receiver => field
                .receiver
                .as_ref()
                .filter(|r| r.required)
                .map(|r| r.name.as_str()),
        }
    }

    /// A struct's object; `tags` are keys taken by enclosing internally tagged enums.
    fn structure(&mut self, i: u32, def: &'s StructDef, tags: &[&str]) {
        self.structure_of(i, def, tags, None);
    }

    /// A struct's object, or (with `only`) the struct read from those keys of the object
    /// alone: a variant of a flattened enum, beside the fields of another struct, which
    /// leaves every key it does not read to that struct.
    fn structure_of(&mut self, i: u32, def: &'s StructDef, tags: &[&str], only: Option<&[u32]>) {
        let base = self.seen.len();
        self.seen.resize(base + def.fields.len(), u32::MAX);
        let mut next_guess = 0;
        let ids = self
            .index
            .struct_ids(&mut self.record, self.here, def, self.view);
        // The keys no field reads, when flattened enums may read them.
        let mut leftover: Vec<u32> = Vec::new();
        let mut k = i + 1;
        for _ in 0..self.node(i).count {
            let v = k + 1;
            let next = self.node(v).next;
            if only.is_some_and(|keys| !keys.contains(&k)) {
                k = next;
                continue;
            }
            let text = key_text(self.input, &self.node(k));
            if tags.iter().any(|t| t.as_bytes() == &*text) {
                k = next;
                continue;
            }
            // The receiver gives a key to the first field that reads it (serde's matcher); a
            // sender may write one name for several fields, each once.
            let found = match self.view {
                // The model gives every key to one field at most, and keys mostly come in
                // declaration order: look from the field after the last one found.
                View::Receiver => {
                    let n = def.fields.len();
                    let from = next_guess.min(n);
                    (from..n)
                        .chain(0..from)
                        .find(|&f| self.field_reads(&def.fields[f], &text))
                }
                View::Sender => {
                    let mut fields = def.fields.iter().enumerate();
                    let first = fields
                        .clone()
                        .find(|(_, f)| self.field_reads(f, &text))
                        .map(|(n, _)| n);
                    fields
                        .find(|(n, f)| {
                            self.seen[base + n] == u32::MAX && self.field_reads(f, &text)
                        })
                        .map(|(n, _)| n)
                        .or(first)
                }
            };
            match found {
                Some(f) => {
                    next_guess = f + 1;
                    let field = &def.fields[f];
                    let earlier = self.seen[base + f];
                    if earlier != u32::MAX {
                        // The same key twice is a duplicate key; two names of one field are
                        // serde's "duplicate field".
                        if key_text(self.input, &self.node(earlier)) != text {
                            let name = (self.keep)(self.primary_name(field).unwrap_or_default());
                            self.problem_at(
                                Seg::Key(k),
                                ProblemKind::DuplicateField { field: name },
                            );
                        }
                        self.skip(v);
                    } else {
                        self.seen[base + f] = k;
                        // At most 2^32 fields: `f` fits.
                        let id = ids + f as u32;
                        self.count_arrival(id);
                        if !plain(&self.node(v), &field.ty) {
                            let saved = self.here;
                            self.here = id;
                            self.pointer.push(Seg::Key(k));
                            self.value(v, &field.ty, 0);
                            self.pointer.pop();
                            self.here = saved;
                        }
                    }
                }
                // Beside another struct's fields: a key this one does not read is that
                // struct's, unless this one denies it or captures it (serde hands it every
                // key left).
                None if only.is_some() => {
                    if def.unknown == Unknown::Capture && def.extra.is_some() {
                        // Captured: judged here, or left to the struct (see `flat_enums`).
                        if self.rest_judged {
                            self.unknown_key(k, def);
                        }
                    } else if self.view == View::Receiver && def.unknown == Unknown::Deny {
                        self.pointer.push(Seg::Key(k));
                        let field = Cow::Owned(String::from_utf8_lossy(&text).into_owned());
                        self.problem(ProblemKind::UnknownField { field });
                        self.pointer.pop();
                    }
                }
                // Left for the flattened enums, then judged as unknown.
                None if !def.flattened.is_empty() => leftover.push(k),
                None => self.unknown_key(k, def),
            }
            k = next;
        }
        if !def.flattened.is_empty() && only.is_none() {
            let taken = self.flat_enums(i, def, &mut leftover);
            for k in leftover {
                // Entries of a variant that takes every key left, not judged (see
                // `flat_enums`); a receiver's own map reads them too.
                if taken && !(self.view == View::Receiver && def.unknown == Unknown::Capture) {
                    self.skip(k + 1);
                } else {
                    self.unknown_key(k, def);
                }
            }
        }
        for (f, field) in def.fields.iter().enumerate() {
            if self.seen[base + f] != u32::MAX {
                continue;
            }
            if let Some(name) = self.field_required(field, tags) {
                self.record_missing(name);
                self.problem_at(
                    Seg::Name(name),
                    ProblemKind::MissingField {
                        field: (self.keep)(name),
                    },
                );
            }
        }
        self.seen.truncate(base);
        if only.is_none() {
            self.own_duplicates(i, true);
        }
    }

    /// A key no field of `def` reads: captured, ignored or a problem, as `def` says.
    fn unknown_key(&mut self, k: u32, def: &'s StructDef) {
        let v = k + 1;
        self.pointer.push(Seg::Key(k));
        match (&def.extra, def.unknown, self.view) {
            (Some(extra), Unknown::Capture, _) => {
                let saved = self.here;
                self.here = self.child(saved, Label::Values);
                self.value(v, extra, 0);
                self.here = saved;
            }
            (_, Unknown::Deny, _) | (_, _, View::Sender) => {
                let text = key_text(self.input, &self.node(k));
                let field = Cow::Owned(String::from_utf8_lossy(&text).into_owned());
                self.problem(ProblemKind::UnknownField { field });
                self.skip(v);
            }
            _ => {
                self.record_unknown(k);
                self.skip(v);
            }
        }
        self.pointer.pop();
    }

    /// The flattened enums of the struct at `i`, read from the `leftover` keys no field
    /// reads, as serde reads them (see `FlatEnumDef`); the keys they take leave `leftover`.
    ///
    /// A variant that holds a map, any JSON value or a struct that flattens a map takes
    /// every key left, on the writer's side as on the reader's: serde writes its entries
    /// beside the fields, and hands the enum every key the fields leave. Its entries are
    /// judged by its values when the enum is the struct's only flattened enum and the struct
    /// captures no key itself; otherwise a key left may be another flattened enum's or the
    /// struct's own map's (which reads it first depends on the order of the fields, which
    /// the description does not keep), and the keys are taken whatever they hold (a
    /// receiver then has serde's verdict). Returns whether such a variant was read: the keys
    /// still left are its entries, not unknown.
    fn flat_enums(&mut self, i: u32, def: &'s StructDef, leftover: &mut Vec<u32>) -> bool {
        let saved = self.rest_judged;
        self.rest_judged = def.flattened.len() == 1 && def.unknown != Unknown::Capture;
        let mut taken = false;
        for flat in &def.flattened {
            let present = match self.view {
                View::Sender => flat.sent,
                View::Receiver => flat.read,
            };
            let Some((e, optional)) = self.schema.flat_enum(&flat.ty).filter(|_| present) else {
                continue;
            };
            // A flattened enum with untagged variants (the derive refuses one written as
            // such; a newtype may still hold one): serde reads it from every key left, which
            // this walk does not follow. serde decides.
            if e.repr != Repr::Untagged && e.has_untagged_variants() {
                continue;
            }
            if optional && self.view == View::Receiver {
                // serde reads `None` whenever the enum does not read: nothing is rejected.
                // An externally tagged enum still takes the first key naming a variant.
                if e.repr == Repr::External {
                    if let Some(at) = leftover.iter().position(|&k| {
                        let text = key_text(self.input, &self.node(k));
                        self.variant_named(e, &text).is_some()
                    }) {
                        let k = leftover.remove(at);
                        self.skip(k + 1);
                    }
                }
                continue;
            }
            let checked = if optional {
                // The sender wrote `None` unless the enum's keys are there.
                let mut keys = leftover.clone();
                self.trial_fits(|c| {
                    c.flat_enum(i, &flat.ty, e, &mut keys);
                }) && keys.len() < leftover.len()
            } else {
                true
            };
            if checked {
                taken |= self.flat_enum(i, &flat.ty, e, leftover);
            }
        }
        self.rest_judged = saved;
        taken
    }

    /// One flattened enum read from the `leftover` keys of the object at `i`; whether the
    /// variant read takes every key left (see [`Checker::flat_enums`]).
    fn flat_enum(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef, leftover: &mut Vec<u32>) -> bool {
        let enum_ty = match ty {
            Type::Option(inner) => &**inner,
            other => other,
        };
        let key_named = |c: &Self, leftover: &[u32], name: &str| {
            leftover
                .iter()
                .position(|&k| &*key_text(c.input, &c.node(k)) == name.as_bytes())
        };
        match &e.repr {
            Repr::External => {
                // serde takes the first key naming a variant; the others stay unknown.
                let found = leftover.iter().position(|&k| {
                    let text = key_text(self.input, &self.node(k));
                    self.variant_named(e, &text).is_some()
                });
                let Some(at) = found else {
                    self.problem(ProblemKind::NoVariantMatches {
                        expected: type_text(enum_ty, self.keep),
                    });
                    return false;
                };
                let k = leftover.remove(at);
                let text = key_text(self.input, &self.node(k));
                if let Some(v) = self.choose_variant(e, &text, |c, v| c.content(k + 1, v)) {
                    self.pointer.push(Seg::Key(k));
                    self.content(k + 1, v);
                    self.pointer.pop();
                }
                false
            }
            Repr::Internal { tag } => {
                let Some(at) = key_named(self, leftover, tag) else {
                    self.problem_at(
                        Seg::Name(tag),
                        ProblemKind::MissingField {
                            field: (self.keep)(tag),
                        },
                    );
                    return false;
                };
                let k = leftover.remove(at);
                let keys = leftover.clone();
                let fits = |c: &mut Self, v: &'s VariantDef| {
                    c.flat_content(i, v, &keys);
                };
                let Some(variant) = self.flat_tag(k, enum_ty, e, fits) else {
                    return false;
                };
                self.flat_content(i, variant, &keys);
                self.claim(variant, leftover)
            }
            Repr::Adjacent { tag, content } => {
                let Some(at) = key_named(self, leftover, tag) else {
                    self.problem_at(
                        Seg::Name(tag),
                        ProblemKind::MissingField {
                            field: (self.keep)(tag),
                        },
                    );
                    return false;
                };
                let k = leftover.remove(at);
                let content_at = key_named(self, leftover, content).map(|at| leftover.remove(at));
                let fits = |c: &mut Self, v: &'s VariantDef| {
                    if let Some(ck) = content_at {
                        c.content(ck + 1, v);
                    }
                };
                let Some(variant) = self.flat_tag(k, enum_ty, e, fits) else {
                    if let Some(ck) = content_at {
                        self.skip(ck + 1);
                    }
                    return false;
                };
                let unit = matches!(variant.kind, VariantDefKind::Unit);
                match content_at {
                    Some(ck) if unit => {
                        if self.view == View::Sender || self.node(ck + 1).kind != NodeKind::Null {
                            self.pointer.push(Seg::Key(ck));
                            self.mismatch(ck + 1, &Type::Unit);
                            self.pointer.pop();
                        }
                    }
                    Some(ck) => {
                        self.pointer.push(Seg::Key(ck));
                        self.content(ck + 1, variant);
                        self.pointer.pop();
                    }
                    None => {
                        let optional = self.view == View::Receiver
                            && matches!(variant.kind, VariantDefKind::Newtype(Type::Option(_)));
                        if unit || optional {
                            self.in_variant(variant, |_| {});
                        } else {
                            self.problem_at(
                                Seg::Name(content),
                                ProblemKind::MissingField {
                                    field: (self.keep)(content),
                                },
                            );
                        }
                    }
                }
                false
            }
            Repr::Untagged => {
                let keys = leftover.clone();
                for v in &e.variants {
                    if self.tags(v).next().is_none() || !self.flat_readable(v) {
                        continue;
                    }
                    if self.trial_fits(|c| c.flat_content(i, v, &keys)) {
                        self.flat_content(i, v, &keys);
                        return self.claim(v, leftover);
                    }
                }
                self.problem(ProblemKind::NoVariantMatches {
                    expected: type_text(enum_ty, self.keep),
                });
                false
            }
        }
    }

    /// The variant the tag at key `k` names (a catch-all reads as its own variant), or a
    /// problem and `None`.
    fn flat_tag(
        &mut self,
        k: u32,
        ty: &'s Type,
        e: &'s EnumDef,
        fits: impl FnMut(&mut Self, &'s VariantDef),
    ) -> Option<&'s VariantDef> {
        let node = self.node(k + 1);
        self.pointer.push(Seg::Key(k));
        let found = if node.kind == NodeKind::Str {
            let text = key_text(self.input, &node);
            match self.choose_variant(e, &text, fits) {
                Some(v) => Some(v),
                None => {
                    if self.catch_all(e).is_none() {
                        self.problem(self.unknown_variant(ty, e));
                    }
                    self.catch_all(e)
                }
            }
        } else {
            self.problem(ProblemKind::WrongType {
                expected: Cow::Owned(format!("a variant name of {ty}")),
                found: json_kind(&node),
            });
            None
        };
        self.pointer.pop();
        found
    }

    /// Whether serde reads a variant of a flattened untagged enum (in the sender view,
    /// writes it) at all: its fields, or a newtype's struct, map or enum; a unit variant is
    /// written as nothing and never read.
    fn flat_readable(&self, v: &'s VariantDef) -> bool {
        match &v.kind {
            VariantDefKind::Struct(_) => true,
            VariantDefKind::Unit => self.view == View::Sender,
            VariantDefKind::Tuple(_) => false,
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

    /// The content of a variant of a flattened internally tagged or untagged enum, read
    /// from the `keys` of the object at `i`.
    fn flat_content(&mut self, i: u32, v: &'s VariantDef, keys: &[u32]) {
        self.in_variant(v, |c| match &v.kind {
            VariantDefKind::Struct(s) => c.structure_of(i, s, &[], Some(keys)),
            VariantDefKind::Newtype(ty) => match c.schema.resolve(ty) {
                Type::Named(name) => {
                    // An inner enum beside the fields: serde decides.
                    if let Some(Body::Struct(s)) = c.schema.def(name).map(|d| &d.body) {
                        c.structure_of(i, s, &[], Some(keys));
                    }
                }
                // Every key left is an entry (see `flat_enums`), judged as a map's: its key
                // is data, shown as `*`.
                Type::Map(key, value) if c.rest_judged => {
                    let saved = c.here;
                    c.here = c.child(saved, Label::Values);
                    for &k in keys {
                        let text = key_text(c.input, &c.node(k));
                        if !c.key_fits(&text, key) {
                            c.problem_at(
                                Seg::Star,
                                ProblemKind::InvalidKey {
                                    expected: type_text(key, c.keep),
                                },
                            );
                        }
                        c.pointer.push(Seg::Star);
                        c.value(k + 1, value, 0);
                        c.pointer.pop();
                    }
                    c.here = saved;
                }
                Type::Any if c.rest_judged => {
                    for &k in keys {
                        c.skip(k + 1);
                    }
                }
                // Left to the struct (see `flat_enums`).
                _ => {}
            },
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => {}
        });
    }

    /// Takes out of `leftover` the keys a variant's fields read; whether the variant takes
    /// every key left (a map, any JSON value, a struct that flattens a map: see
    /// [`Checker::flat_enums`]), whose keys then stay for the struct's other flattened enums
    /// (serde lends them to each in turn).
    fn claim(&self, v: &'s VariantDef, leftover: &mut Vec<u32>) -> bool {
        let captures = |s: &StructDef| s.unknown == Unknown::Capture && s.extra.is_some();
        let (fields, rest): (&'s [FieldDef], bool) = match &v.kind {
            VariantDefKind::Struct(s) => (&s.fields, captures(s)),
            VariantDefKind::Newtype(ty) => match self.schema.resolve(ty) {
                Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                    Some(Body::Struct(s)) => (&s.fields, captures(s)),
                    _ => (&[], false),
                },
                Type::Map(..) | Type::Any => (&[], true),
                _ => (&[], false),
            },
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => (&[], false),
        };
        if rest && self.rest_judged {
            // Judged as its entries: no other flattened enum, no map of the struct's own.
            leftover.clear();
        } else {
            leftover.retain(|&k| {
                let text = key_text(self.input, &self.node(k));
                !fields.iter().any(|f| self.field_reads(f, &text))
            });
        }
        rest
    }

    /// The tagged variant `text` names (an untagged variant reads no tag).
    fn variant_named(&self, e: &'s EnumDef, text: &[u8]) -> Option<&'s VariantDef> {
        e.tagged_variants()
            .find(|v| self.tags(v).any(|t| t.as_bytes() == text))
    }

    /// The variant a tag names. A receiver reads the first declared (serde's matcher); a
    /// sender may write one tag for several variants, so the first whose content `fits`
    /// (checked as a trial) is taken, or else the first.
    fn choose_variant(
        &mut self,
        e: &'s EnumDef,
        text: &[u8],
        mut fits: impl FnMut(&mut Self, &'s VariantDef),
    ) -> Option<&'s VariantDef> {
        let first = self.variant_named(e, text)?;
        if self.view == View::Receiver {
            return Some(first);
        }
        let candidates: Vec<&'s VariantDef> = e
            .tagged_variants()
            .filter(|v| self.tags(v).any(|t| t.as_bytes() == text))
            .collect();
        if candidates.len() == 1 {
            return Some(first);
        }
        for v in candidates {
            if self.trial_fits(|c| fits(c, v)) {
                return Some(v);
            }
        }
        Some(first)
    }

    /// Runs `f` as a trial: records nothing, and says whether it found no problem.
    fn trial_fits(&mut self, f: impl FnOnce(&mut Self)) -> bool {
        let (outer_trial, outer_failed) = (self.trial, self.failed);
        self.trial += 1;
        self.failed = false;
        f(self);
        let fits = !self.failed;
        self.trial = outer_trial;
        self.failed = outer_failed;
        fits
    }

    fn catch_all(&self, e: &'s EnumDef) -> Option<&'s VariantDef> {
        e.catch_all().filter(|_| self.view == View::Receiver)
    }

    fn enumeration(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef) {
        if e.repr != Repr::Untagged && e.has_untagged_variants() {
            return self.with_untagged_variants(i, ty, e);
        }
        self.tagged(i, ty, e);
    }

    /// An enum with `#[serde(untagged)]` variants, as serde reads it: the tagged variants
    /// first, then each untagged variant in declaration order; the first that reads wins.
    /// When none does, one problem at the enum (as for an untagged enum): which part the
    /// sender meant is not on the wire.
    fn with_untagged_variants(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef) {
        if self.trial_fits(|c| c.tagged(i, ty, e)) {
            return self.tagged(i, ty, e);
        }
        self.first_that_fits(i, ty, e.untagged_variants());
    }

    /// The enum's tagged variants, in its representation.
    fn tagged(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef) {
        match &e.repr {
            Repr::External => self.external(i, ty, e),
            Repr::Internal { tag } => {
                if self.node(i).kind != NodeKind::Object {
                    return self.mismatch(i, ty);
                }
                self.internal(i, ty, e, tag);
            }
            Repr::Adjacent { tag, content } => {
                if self.node(i).kind != NodeKind::Object {
                    return self.mismatch(i, ty);
                }
                self.adjacent(i, ty, e, tag, content);
            }
            Repr::Untagged => self.untagged(i, ty, e),
        }
    }

    /// Enters a variant's path and checks its content.
    fn in_variant(&mut self, v: &'s VariantDef, f: impl FnOnce(&mut Self)) {
        let saved = self.here;
        let tag = match self.view {
            View::Sender => v.sender.as_deref(),
            View::Receiver => v.receiver.first().map(String::as_str),
        };
        self.here = self.child(saved, Label::Variant(tag.unwrap_or(&v.rust_name)));
        f(self);
        self.here = saved;
    }

    fn content(&mut self, i: u32, v: &'s VariantDef) {
        self.in_variant(v, |c| match &v.kind {
            VariantDefKind::Unit => {
                if c.node(i).kind != NodeKind::Null {
                    c.mismatch(i, &Type::Unit);
                }
            }
            VariantDefKind::Newtype(ty) => c.value(i, ty, 0),
            VariantDefKind::Tuple(items) => {
                let node = c.node(i);
                if node.kind != NodeKind::Array {
                    c.problem(ProblemKind::WrongType {
                        expected: Cow::Owned(format!("an array of {} items", items.len())),
                        found: json_kind(&node),
                    });
                    c.skip(i);
                } else if node.count as usize != items.len() {
                    c.problem(ProblemKind::WrongLength {
                        expected: items.len(),
                        found: node.count as usize,
                    });
                    c.skip(i);
                } else {
                    c.items(i, items, Some(()));
                }
            }
            VariantDefKind::Struct(s) => {
                if c.node(i).kind == NodeKind::Object {
                    c.structure(i, s, &[]);
                } else {
                    let node = c.node(i);
                    c.problem(ProblemKind::WrongType {
                        expected: Cow::Owned(format!("the fields of variant {}", v.rust_name)),
                        found: json_kind(&node),
                    });
                    c.skip(i);
                }
            }
        });
    }

    fn external(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef) {
        let node = self.node(i);
        match node.kind {
            NodeKind::Str => {
                let text = key_text(self.input, &node);
                match self.variant_named(e, &text) {
                    Some(v) if matches!(v.kind, VariantDefKind::Unit) => {
                        self.in_variant(v, |_| {});
                    }
                    Some(_) => self.mismatch(i, ty),
                    None if self.catch_all(e).is_some() => {}
                    None => self.problem(self.unknown_variant(ty, e)),
                }
            }
            NodeKind::Object if !e.is_string_enum() => {
                if node.count != 1 {
                    self.problem(ProblemKind::NotOneKey {
                        expected: type_text(ty, self.keep),
                    });
                    return self.skip(i);
                }
                let k = i + 1;
                let text = key_text(self.input, &self.node(k));
                match self.choose_variant(e, &text, |c, v| c.content(k + 1, v)) {
                    Some(v) if !matches!(v.kind, VariantDefKind::Unit) => {
                        self.pointer.push(Seg::Key(k));
                        self.content(k + 1, v);
                        self.pointer.pop();
                    }
                    Some(_) => self.mismatch(i, ty),
                    // The key is the variant's name: a value the sender chose, not shown.
                    None => {
                        self.problem(self.unknown_variant(ty, e));
                        self.skip(i);
                    }
                }
            }
            _ => self.mismatch(i, ty),
        }
    }

    /// The value node of `key` in the object at `i`.
    fn member(&self, i: u32, key: &str) -> Option<(u32, u32)> {
        let mut k = i + 1;
        for _ in 0..self.node(i).count {
            if &*key_text(self.input, &self.node(k)) == key.as_bytes() {
                return Some((k, k + 1));
            }
            k = self.node(k + 1).next;
        }
        None
    }

    /// Reads the tag under `key`: the variant, `Ok(None)` for the catch-all, or a problem.
    fn tag(
        &mut self,
        i: u32,
        ty: &'s Type,
        e: &'s EnumDef,
        key: &'s str,
        fits: impl FnMut(&mut Self, &'s VariantDef),
    ) -> Result<Option<&'s VariantDef>, ()> {
        let Some((k, v)) = self.member(i, key) else {
            self.problem_at(
                Seg::Name(key),
                ProblemKind::MissingField {
                    field: (self.keep)(key),
                },
            );
            return Err(());
        };
        let node = self.node(v);
        if node.kind != NodeKind::Str {
            self.pointer.push(Seg::Key(k));
            self.problem(ProblemKind::WrongType {
                expected: Cow::Owned(format!("a variant name of {ty}")),
                found: json_kind(&node),
            });
            self.pointer.pop();
            return Err(());
        }
        match self.choose_variant(e, &key_text(self.input, &node), fits) {
            Some(variant) => Ok(Some(variant)),
            None if self.catch_all(e).is_some() => Ok(None),
            None => {
                self.problem_at(Seg::Key(k), self.unknown_variant(ty, e));
                Err(())
            }
        }
    }

    fn internal(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef, tag: &'s str) {
        let variant = match self.tag(i, ty, e, tag, |c, v| c.internal_content(i, v, tag)) {
            Ok(Some(v)) => v,
            // The catch-all is a unit variant: serde ignores the other keys.
            Ok(None) => return self.skip(i),
            Err(()) => return self.skip(i),
        };
        self.internal_content(i, variant, tag);
    }

    /// The keys beside the tag of an internally tagged variant.
    fn internal_content(&mut self, i: u32, variant: &'s VariantDef, tag: &'s str) {
        let tags = [tag];
        self.in_variant(variant, |c| match &variant.kind {
            VariantDefKind::Unit => c.skip(i),
            VariantDefKind::Struct(s) => c.structure(i, s, &tags),
            VariantDefKind::Newtype(inner) => c.beside(i, inner, &tags, 0),
            // serde cannot read a tuple variant beside a tag: it decides.
            VariantDefKind::Tuple(_) => c.skip(i),
        });
    }

    /// The content of an internally tagged newtype variant: the object beside the tag.
    fn beside(&mut self, i: u32, ty: &'s Type, tags: &[&str], hops: usize) {
        match self.schema.resolve(ty) {
            Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                Some(Body::Struct(s)) => self.structure(i, s, tags),
                // An inner enum beside the tag: serde decides.
                _ => self.skip(i),
            },
            Type::Map(key, value) => self.map(i, key, value, tags),
            Type::Option(inner) if hops < 8 => self.beside(i, inner, tags, hops + 1),
            // A unit reads only an empty remainder; anything else beside a tag is for serde.
            _ => self.skip(i),
        }
    }

    fn adjacent(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef, tag: &'s str, content: &'s str) {
        let closed = e.deny_unknown_fields || self.view == View::Sender;
        let mut k = i + 1;
        for _ in 0..self.node(i).count {
            let v = k + 1;
            let text = key_text(self.input, &self.node(k));
            if &*text != tag.as_bytes() && &*text != content.as_bytes() {
                self.pointer.push(Seg::Key(k));
                if closed {
                    let field = Cow::Owned(String::from_utf8_lossy(&text).into_owned());
                    self.problem(ProblemKind::UnknownField { field });
                } else {
                    self.record_unknown(k);
                }
                self.skip(v);
                self.pointer.pop();
            }
            k = self.node(v).next;
        }
        let found = self.member(i, content);
        let fits = |c: &mut Self, v: &'s VariantDef| {
            if let Some((_, cv)) = found {
                c.content(cv, v);
            }
        };
        let variant = match self.tag(i, ty, e, tag, fits) {
            Ok(v) => v,
            Err(()) => {
                if let Some((_, c)) = self.member(i, content) {
                    self.skip(c);
                }
                return;
            }
        };
        let unit = variant.is_none_or(|v| matches!(v.kind, VariantDefKind::Unit));
        match (found, variant) {
            (Some((ck, cv)), _) if unit => {
                // A unit variant: no content, or (receiver) `null`.
                if self.view == View::Sender || self.node(cv).kind != NodeKind::Null {
                    self.pointer.push(Seg::Key(ck));
                    self.mismatch(cv, &Type::Unit);
                    self.pointer.pop();
                }
            }
            (Some((ck, cv)), Some(v)) => {
                self.pointer.push(Seg::Key(ck));
                self.content(cv, v);
                self.pointer.pop();
            }
            (None, Some(v)) => {
                let optional = self.view == View::Receiver
                    && matches!(v.kind, VariantDefKind::Newtype(Type::Option(_)));
                if unit || optional {
                    self.in_variant(v, |_| {});
                } else {
                    self.problem_at(
                        Seg::Name(content),
                        ProblemKind::MissingField {
                            field: (self.keep)(content),
                        },
                    );
                }
            }
            (_, None) => {}
        }
        self.own_duplicates(i, true);
    }

    fn untagged(&mut self, i: u32, ty: &'s Type, e: &'s EnumDef) {
        self.first_that_fits(i, ty, e.variants.iter());
    }

    /// The content of the first of `variants` (read untagged, in order, as serde tries
    /// them) that fits node `i`; a problem when none does.
    fn first_that_fits(
        &mut self,
        i: u32,
        ty: &'s Type,
        variants: impl Iterator<Item = &'s VariantDef>,
    ) {
        for v in variants {
            if self.tags(v).next().is_none() {
                continue;
            }
            // A trial records nothing; the first variant that fits is checked for real.
            if self.trial_fits(|c| c.content(i, v)) {
                return self.content(i, v);
            }
        }
        self.problem(ProblemKind::NoVariantMatches {
            expected: type_text(ty, self.keep),
        });
        self.skip(i);
    }
}

fn json_kind(node: &Node) -> JsonKind {
    match node.kind {
        NodeKind::Null => JsonKind::Null,
        NodeKind::Bool => JsonKind::Boolean,
        NodeKind::Int => JsonKind::Integer,
        NodeKind::Float => JsonKind::Number,
        NodeKind::Str => JsonKind::String,
        NodeKind::Array => JsonKind::Array,
        NodeKind::Object => JsonKind::Object,
    }
}

/// Whether an integer literal (`-?digits`) is a value of `kind`.
pub(crate) fn int_in_range(text: &[u8], kind: IntKind) -> bool {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let mut magnitude: u128 = 0;
    for d in digits {
        let Some(m) = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u128::from(d.wrapping_sub(b'0'))))
        else {
            return false;
        };
        magnitude = m;
    }
    if negative {
        // -min of a signed kind is max + 1.
        magnitude == 0 || (kind.min() < 0 && magnitude <= kind.min().unsigned_abs())
    } else {
        magnitude <= kind.max()
    }
}

/// A map key serde_json reads as an integer: `0` or `-?[1-9][0-9]*`.
pub(crate) fn is_canonical_int(text: &[u8]) -> bool {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    match digits {
        [b'0'] => text.len() == 1,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// Whether `node` is a value of `ty` with nothing inside to check or record (a string, a
/// boolean, or `null` for an `Option`): the walk need not go into it.
#[inline]
fn plain(node: &Node, ty: &Type) -> bool {
    let ty = match ty {
        Type::Option(_) if node.kind == NodeKind::Null => return true,
        Type::Option(inner) => inner,
        ty => ty,
    };
    match ty {
        Type::String(_) => node.kind == NodeKind::Str,
        Type::Bool => node.kind == NodeKind::Bool,
        _ => false,
    }
}

/// The canonical text of `ty` (its `Display`), the leaves a problem mostly names without
/// the formatter.
pub(crate) fn type_text<'s>(
    ty: &'s Type,
    keep: fn(&'s str) -> Cow<'static, str>,
) -> Cow<'static, str> {
    Cow::Borrowed(match ty {
        Type::Unit => "unit",
        Type::Bool => "bool",
        Type::Int(kind) => kind.as_str(),
        Type::Float(kind) => kind.as_str(),
        Type::Char => "char",
        Type::Any => "any",
        Type::Named(name) => return keep(name),
        ty => return Cow::Owned(ty.to_string()),
    })
}

/// How many of an enum's tags an unknown-variant problem names; past that it counts them.
pub(crate) const MAX_KNOWN_TAGS: usize = 12;

/// Appends a JSON-pointer reference token (`~` as `~0`, `/` as `~1`).
pub(crate) fn escape_token(text: &str, out: &mut String) {
    if !text.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(text);
        return;
    }
    let mut rest = text;
    // Runs without `~` or `/` are copied whole.
    while let Some(at) = rest.find(['~', '/']) {
        out.push_str(&rest[..at]);
        out.push_str(if rest.as_bytes()[at] == b'~' {
            "~0"
        } else {
            "~1"
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ranges_are_exact_at_every_edge() {
        assert!(int_in_range(b"255", IntKind::U8));
        assert!(!int_in_range(b"256", IntKind::U8));
        assert!(!int_in_range(b"-1", IntKind::U64));
        assert!(int_in_range(b"-0", IntKind::U64));
        assert!(int_in_range(b"-128", IntKind::I8));
        assert!(!int_in_range(b"-129", IntKind::I8));
        assert!(int_in_range(b"18446744073709551615", IntKind::U64));
        assert!(!int_in_range(b"18446744073709551616", IntKind::U64));
        assert!(int_in_range(b"18446744073709551616", IntKind::U128));
        assert!(int_in_range(
            b"-170141183460469231731687303715884105728",
            IntKind::I128
        ));
        assert!(!int_in_range(
            b"-170141183460469231731687303715884105729",
            IntKind::I128
        ));
        assert!(!int_in_range(&[b'9'; 60], IntKind::U128));
    }

    #[test]
    fn canonical_integer_keys() {
        for ok in ["0", "7", "-7", "120"] {
            assert!(is_canonical_int(ok.as_bytes()), "{ok}");
        }
        for bad in ["", "-", "-0", "01", "+1", "1.0", " 1", "1e2"] {
            assert!(!is_canonical_int(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn type_text_is_the_types_display() {
        for ty in [
            Type::Unit,
            Type::Bool,
            Type::Int(IntKind::U32),
            Type::Int(IntKind::I128),
            Type::Float(FloatKind::F32),
            Type::Char,
            Type::Any,
            Type::Named("Order".into()),
            Type::List(Box::new(Type::Int(IntKind::U8))),
        ] {
            assert_eq!(
                type_text(&ty, |name| Cow::Owned(name.to_owned())),
                ty.to_string()
            );
        }
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        let mut out = String::new();
        escape_token("a/b~c", &mut out);
        assert_eq!(out, "a~1b~0c");
        for (raw, escaped) in [
            ("", ""),
            ("plain", "plain"),
            ("~~//", "~0~0~1~1"),
            ("/lead", "~1lead"),
            ("trail~", "trail~0"),
            ("退款/x", "退款~1x"),
        ] {
            let mut out = String::new();
            escape_token(raw, &mut out);
            assert_eq!(out, escaped, "{raw:?}");
        }
    }
}
