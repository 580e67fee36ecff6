//! [`Presence`]: which fields of a contract arrived, never their values.

use core::fmt;
use std::borrow::{Borrow, Cow};
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use rustc_hash::FxHashMap;

use contract_schema::model::{Body, Type};
use contract_schema::shape::{Field, Kind, Send, Shape, StructShape};
use contract_schema::{Schema, View};
use serde::{Deserialize, Serialize};

use crate::traits::{shape_of, HandoffSchema};

/// Which side of a handoff a call ran on: the producer (`send`) or the consumer (`receive`).
///
/// A [`Rejection`](crate::Rejection) says which side refused the payload, and a [`Presence`]
/// which side recorded it (what was written, or what arrived).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Side {
    /// `send` or `send_to`: the producer, before the bytes left.
    Send,
    /// `receive`: the consumer, where the bytes arrived.
    Receive,
}

impl Side {
    /// `send` or `receive`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::Send => "send",
            Side::Receive => "receive",
        }
    }
}

/// Field-presence metadata of one payload: trace metadata that never carries a value.
///
/// It holds the contract id and, per schema path (`artifacts[].version`: one entry per path,
/// not per array element), whether the field arrived and how often, which required fields
/// were missing, and which unknown field names arrived (capped: past the cap only a count,
/// since a sender chooses them). Paths use the field names of the view they were recorded in
/// (receive: the name the receiver reads, send: the name the sender writes), `[]` for the
/// items of an array, `*` for the values of a map (whose keys are data and never appear) and
/// `(Variant)` for the variant of an enum.
///
/// It serializes with these keys: `handoffContract`,
/// `receivedFields`, `missingFields`, `unknownFields`, and `<field>Present` for every field
/// of the contract's top level. A record has a [`Side`]: one that `send` made lists what it
/// wrote under `writtenFields` instead of `receivedFields` (its other keys are the same:
/// `missingFields` are required fields it did not write, `unknownFields` names it wrote that
/// the contract does not have, `<field>Present` whether it wrote the field), and its
/// `Display` says `written [...]`; reading JSON back keeps the side, told by that key.
///
/// ```
/// use contract_core::Presence;
///
/// let presence: Presence = serde_json::from_str(
///     r#"{"handoffContract": "refund-request/v2", "receivedFields": ["category"],
///         "missingFields": ["orderId"], "unknownFields": ["orderRef"],
///         "categoryPresent": true, "orderIdPresent": false}"#,
/// )?;
/// assert_eq!(presence.contract(), Some("refund-request/v2"));
/// assert_eq!(presence.is_present("orderId"), Some(false));
/// assert_eq!(
///     presence.to_string(),
///     "refund-request/v2: received [category]; missing [orderId]; unknown [orderRef]"
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub struct Presence {
    /// Which side recorded it: what `send` wrote, or what `receive` read.
    side: Side,
    /// The record and its rendering, behind one pointer (a presence travels inside every
    /// `Received` and `Sent`), shared with the presences of its thread that recorded the same.
    recorded: Held,
}

/// How a presence holds its record: counted (the record is dropped with its last presence),
/// or kept for the life of the process (a record its thread made again and again, whose
/// presences then copy a pointer and count nothing: no atomic operation per call).
#[derive(Clone)]
pub(crate) enum Held {
    Counted(Arc<Recorded>),
    Kept(&'static Arc<Recorded>),
}

impl Held {
    /// The record behind a count of its own.
    pub(crate) fn counted(&self) -> Arc<Recorded> {
        match self {
            Held::Counted(recorded) => Arc::clone(recorded),
            Held::Kept(recorded) => Arc::clone(recorded),
        }
    }
}

impl Deref for Held {
    type Target = Recorded;

    #[inline]
    fn deref(&self) -> &Recorded {
        match self {
            Held::Counted(recorded) => recorded,
            Held::Kept(recorded) => recorded,
        }
    }
}

/// What a walk or a one-pass path recorded, and its rendering once someone read it.
///
/// A path's memo keeps the last one it made: the next call that records the same (the same
/// fields arrived in the same order, as often, with the same missing and unknown names)
/// shares it, and with it its rendering, instead of copying its counts and rendering again.
#[derive(Debug)]
pub(crate) struct Recorded {
    /// `None` for a record read from JSON.
    record: Option<Record<'static>>,
    /// The record rendered on first use.
    rendered: OnceLock<Rendered>,
}

impl Recorded {
    pub(crate) fn new(record: Record<'static>) -> Self {
        Recorded {
            record: Some(record),
            rendered: OnceLock::new(),
        }
    }

    /// How many paths the record counts (none for a record read from JSON).
    pub(crate) fn paths(&self) -> usize {
        self.record.as_ref().map_or(0, |record| record.tally.len())
    }

    /// Whether `record` (of the schema and view this one was recorded in) recorded the same.
    pub(crate) fn records(&self, record: &Record<'static>) -> bool {
        self.record.as_ref().is_some_and(|mine| mine.same(record))
    }
}

/// The record as it is read and written (the key of `received_fields` depends on the side:
/// [`Presence`]'s `Serialize` writes it, [`ReadRecord`] reads it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Rendered {
    handoff_contract: Option<Cow<'static, str>>,
    /// What arrived (receive) or was written (send). Shared with the records of the thread
    /// whose fields arrived in the same order.
    received_fields: Arc<[FieldPath]>,
    missing_fields: Vec<FieldPath>,
    unknown_fields: Vec<FieldPath>,
    unknown_fields_omitted: u64,
    field_counts: Sorted<Vec<(FieldPath, u64)>>,
    /// The `<field>Present` flags, shared like `received_fields`.
    present: Sorted<Arc<[Flag]>>,
}

/// A record as JSON holds it: `receivedFields` for one a receiver recorded, `writtenFields`
/// for one a sender did (exactly one of the two).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadRecord {
    #[serde(default)]
    handoff_contract: Option<Cow<'static, str>>,
    #[serde(default)]
    received_fields: Option<Arc<[FieldPath]>>,
    #[serde(default)]
    written_fields: Option<Arc<[FieldPath]>>,
    missing_fields: Vec<FieldPath>,
    unknown_fields: Vec<FieldPath>,
    #[serde(default)]
    unknown_fields_omitted: u64,
    #[serde(default)]
    field_counts: Sorted<Vec<(FieldPath, u64)>>,
    #[serde(flatten)]
    present: Sorted<Arc<[Flag]>>,
}

/// A `<field>Present` key and whether the field arrived.
type Flag = (Cow<'static, str>, bool);

/// A map with text keys, sorted by key: a map on the wire, a sorted list in memory (built in
/// one go, without a node per entry).
#[derive(Clone, PartialEq, Eq, Default)]
struct Sorted<C>(C);

impl<K: Borrow<str>, V: Copy, C: Deref<Target = [(K, V)]>> Sorted<C> {
    fn get(&self, key: &str) -> Option<V> {
        self.0
            .binary_search_by(|(k, _)| k.borrow().cmp(key))
            .ok()
            .map(|i| self.0[i].1)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: fmt::Debug, V: fmt::Debug, C: Deref<Target = [(K, V)]>> fmt::Debug for Sorted<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Serialize, V: Serialize, C: Deref<Target = [(K, V)]>> Serialize for Sorted<C> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K, V, C> Deserialize<'de> for Sorted<C>
where
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
    C: Deref<Target = [(K, V)]> + FromIterator<(K, V)>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::<K, V>::deserialize(deserializer).map(|map| Sorted(map.into_iter().collect()))
    }
}

/// The path of a field in a schema, as a [`Presence`] names it: `artifacts[].version`, `[]`
/// for the items of an array, `*` for the values of a map, `(Variant)` for an enum's variant.
///
/// It is text made of the contract's names and that punctuation, never of a payload's
/// values. It reads as a `&str` (it derefs to one and compares with one), and a record
/// shares the text of a path with every other record of its thread and schema instead of
/// copying it: cloning one costs a counter's increment.
///
/// ```
/// use contract_core::FieldPath;
///
/// let path = FieldPath::from("artifacts[].version");
/// assert_eq!(path, "artifacts[].version");
/// assert!(path.ends_with(".version"));
/// assert_eq!(serde_json::to_string(&path)?, r#""artifacts[].version""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldPath(Arc<str>);

impl FieldPath {
    /// The path as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for FieldPath {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for FieldPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for FieldPath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for FieldPath {
    fn from(text: &str) -> Self {
        FieldPath(Arc::from(text))
    }
}

impl From<String> for FieldPath {
    fn from(text: String) -> Self {
        FieldPath(Arc::from(text))
    }
}

impl From<FieldPath> for String {
    fn from(path: FieldPath) -> Self {
        path.0.as_ref().to_owned()
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for FieldPath {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for FieldPath {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for FieldPath {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<FieldPath> for str {
    fn eq(&self, other: &FieldPath) -> bool {
        *self == *other.0
    }
}

impl PartialEq<FieldPath> for &str {
    fn eq(&self, other: &FieldPath) -> bool {
        **self == *other.0
    }
}

impl PartialEq<FieldPath> for String {
    fn eq(&self, other: &FieldPath) -> bool {
        **self == *other.0
    }
}

impl Serialize for FieldPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for FieldPath {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(FieldPath::from)
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What rendering a record of `schema` in `view` needs of the schema, built once per schema
/// and view: the contract id as text, and the top-level fields of the root struct, each with
/// its `<field>Present` key, sorted by that key.
struct RenderFacts {
    contract: Option<&'static str>,
    /// The `<field>Present` keys, sorted.
    present: Vec<&'static str>,
    /// The top-level fields' names, sorted, each with the place of its key in `present`.
    names: Vec<(String, usize)>,
}

fn render_facts(schema: &Schema, view: View) -> &'static RenderFacts {
    static CACHE: OnceLock<RwLock<FxHashMap<(usize, bool), &'static RenderFacts>>> =
        OnceLock::new();
    let id = (std::ptr::from_ref(schema) as usize, view == View::Sender);
    let cache = CACHE.get_or_init(RwLock::default);
    if let Some(facts) = cache
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&id)
    {
        return facts;
    }
    let root = match schema.resolve(&schema.root) {
        Type::Named(name) => schema.def(name).map(|d| &d.body),
        _ => None,
    };
    let mut fields: Vec<(String, &'static str)> = Vec::new();
    if let Some(Body::Struct(root)) = root {
        for field in &root.fields {
            let name = match view {
                View::Sender => field.sender.as_ref().map(|s| s.name.as_str()),
                View::Receiver => field.receiver.as_ref().map(|r| r.name.as_str()),
            };
            if let Some(name) = name {
                let key: &'static str = Box::leak(format!("{name}Present").into_boxed_str());
                fields.push((name.to_owned(), key));
            }
        }
    }
    fields.sort_by_key(|(_, key)| *key);
    let present = fields.iter().map(|(_, key)| *key).collect();
    let mut names: Vec<(String, usize)> = fields
        .into_iter()
        .enumerate()
        .map(|(at, (name, _))| (name, at))
        .collect();
    names.sort();
    let contract = schema
        .contract
        .as_ref()
        .map(|id| &*Box::leak(id.to_string().into_boxed_str()));
    let facts: &'static RenderFacts = Box::leak(Box::new(RenderFacts {
        contract,
        present,
        names,
    }));
    cache
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(id)
        .or_insert(facts)
}

/// One step of a schema path.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Label<'s> {
    Field(&'s str),
    Items,
    Values,
    Variant(&'s str),
}

impl Label<'_> {
    /// A key that identifies the label by the address of its name in the schema (the same
    /// name at two places of the schema gives two keys, which only costs a second entry).
    pub(crate) fn key(self) -> (u8, usize) {
        match self {
            Label::Field(name) => (0, name.as_ptr() as usize),
            Label::Items => (1, 0),
            Label::Values => (2, 0),
            Label::Variant(tag) => (3, tag.as_ptr() as usize),
        }
    }
}

/// The parent of the paths at the top level.
pub(crate) const ROOT: u32 = u32::MAX;

/// One schema path met in a payload: where it is, not how often it arrived (the paths are
/// shared by the records of one schema, their counts are each record's own).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathNode<'s> {
    pub parent: u32,
    /// The label's name (empty for `[]` and `*`) and kind (the first of [`Label::key`]).
    name: &'s str,
    kind: u8,
    /// Whether the path is inside an array or a map.
    pub inside: bool,
}

impl<'s> PathNode<'s> {
    pub(crate) fn new(parent: u32, label: Label<'s>, inside: bool) -> Self {
        let (kind, name) = match label {
            Label::Field(name) => (0, name),
            Label::Items => (1, ""),
            Label::Values => (2, ""),
            Label::Variant(name) => (3, name),
        };
        PathNode {
            parent,
            name,
            kind,
            inside,
        }
    }

    /// The step this path adds to its parent's.
    pub(crate) fn label(&self) -> Label<'s> {
        match self.kind {
            0 => Label::Field(self.name),
            1 => Label::Items,
            2 => Label::Values,
            _ => Label::Variant(self.name),
        }
    }
}

/// How often a field arrived at one path (a payload within `u32::MAX` bytes holds fewer
/// fields than that), and when it first did (1 for the first path a field arrived at, 0 for
/// none): the count in the low half, the first in the high half of one word, so that two
/// records' tallies compare as plain words.
pub(crate) type Tally = u64;

/// Whether two runs of words are equal: all of them compared, without a branch per word.
fn same_words(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// How often a field arrived at a path of `tally`.
#[inline(always)]
fn count(tally: Tally) -> u32 {
    tally as u32
}

/// When a field first arrived at a path of `tally`: the place of the path among the paths
/// that arrived, from 1 (0 for none).
#[inline(always)]
fn first(tally: Tally) -> u32 {
    (tally >> 32) as u32
}

/// The schema paths met in payloads, by id, and what rendering needs of them, once a record
/// was rendered: shared by the records of one thread, schema and view (paths are only ever
/// added, so what is rendered of a path is the same for every record that has it).
#[derive(Debug, Default)]
pub(crate) struct Paths<'s> {
    nodes: Vec<PathNode<'s>>,
    rendering: Mutex<Rendering>,
}

/// What the records of one thread, schema and view rendered: the text of the first paths,
/// and the lists of the last record rendered (the next record whose fields arrived in the
/// same order shares them).
#[derive(Debug, Clone, Default)]
struct Rendering {
    paths: Vec<PathText>,
    /// The paths that arrived, in the order they first did: the last record's, and the one
    /// being rendered.
    last: Vec<u32>,
    order: Vec<u32>,
    /// What the last record rendered from its arrivals.
    received: Arc<[FieldPath]>,
    present: Arc<[Flag]>,
    /// The paths inside arrays and maps that arrived, sorted by text, one per text.
    counted: Vec<u32>,
}

/// A path as a rendered record names it.
#[derive(Debug, Clone)]
struct PathText {
    text: FieldPath,
    /// For a field at the top level, the place of its `<field>Present` flag among the
    /// schema's ([`RenderFacts::present`]); `usize::MAX` for any other path.
    flag: usize,
}

impl Clone for Paths<'_> {
    fn clone(&self) -> Self {
        Paths {
            nodes: self.nodes.clone(),
            rendering: Mutex::new(self.lock().clone()),
        }
    }
}

impl<'s> Deref for Paths<'s> {
    type Target = [PathNode<'s>];

    fn deref(&self) -> &[PathNode<'s>] {
        &self.nodes
    }
}

impl Paths<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Rendering> {
        // A guard is held only while a record is rendered, which cannot panic midway.
        self.rendering
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// What has been rendered, with every path's text (`artifacts[].version`); `facts` are
    /// the schema's and view's these paths were met in.
    fn rendering(&self, facts: &RenderFacts) -> std::sync::MutexGuard<'_, Rendering> {
        let mut rendering = self.lock();
        let done = &mut rendering.paths;
        if done.len() < self.nodes.len() {
            let mut buffer = Vec::new();
            for node in &self.nodes[done.len()..] {
                let label = node.label();
                // A parent's id is below its children's: its text is there already.
                let text = join(&mut buffer, done, node.parent, label);
                let flag = match label {
                    Label::Field(name) if node.parent == ROOT => facts
                        .names
                        .binary_search_by(|(n, _)| n.as_str().cmp(name))
                        .map_or(usize::MAX, |at| facts.names[at].1),
                    _ => usize::MAX,
                };
                done.push(PathText { text, flag });
            }
        }
        rendering
    }
}

impl Rendering {
    /// Renders the lists that depend only on which paths arrived in which order (`order`;
    /// `nodes` are the paths), unless the last record's arrivals were the same.
    fn arrivals(&mut self, nodes: &[PathNode<'_>], facts: &RenderFacts) {
        if !self.last.is_empty() && self.order == self.last {
            return;
        }
        std::mem::swap(&mut self.order, &mut self.last);
        let paths = &self.paths;
        let arrived = || {
            self.last
                .iter()
                .filter_map(|&id| Some((id, paths.get(id as usize)?)))
        };
        self.received = arrived().map(|(_, path)| path.text.clone()).collect();
        let mut present: Vec<Flag> = facts
            .present
            .iter()
            .map(|key| (Cow::Borrowed(*key), false))
            .collect();
        for (_, path) in arrived() {
            if let Some(flag) = present.get_mut(path.flag) {
                flag.1 = true;
            }
        }
        self.present = present.into();
        // Inside arrays and maps, sorted by text (stably: of two paths with one text, the
        // later counts, as in a map filled in order).
        let text = |id: &u32| paths.get(*id as usize).map(|path| &path.text);
        let mut counted: Vec<u32> = arrived()
            .map(|(id, _)| id)
            .filter(|&id| nodes.get(id as usize).is_some_and(|node| node.inside))
            .collect();
        counted.sort_by(|a, b| text(a).cmp(&text(b)));
        counted.dedup_by(|later, kept| {
            let same = text(later) == text(kept);
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        self.counted = counted;
    }
}

/// What one walk saw, compact: no string is built until someone reads the record.
#[derive(Debug, Clone)]
pub(crate) struct Record<'s> {
    pub schema: &'s Schema,
    pub view: View,
    /// Every path met, by id: shared with the memo that remembers them between calls (and
    /// with earlier records), copied only when a path is added while another holds them.
    pub paths: Arc<Paths<'s>>,
    /// Per path, by id: how often a field arrived there and when it first did (one
    /// allocation for both).
    pub tally: Vec<Tally>,
    /// How many paths a field arrived at.
    pub arrived: u32,
    /// Required fields absent: the parent path and the name.
    pub missing: Vec<(u32, &'s str)>,
    /// Unknown names that arrived (structure, not values): the parent path and the name.
    pub unknown: Vec<(u32, String)>,
    pub unknown_omitted: u64,
}

impl<'s> Record<'s> {
    pub(crate) fn new(schema: &'s Schema, view: View) -> Self {
        Record::with_tally(schema, view, Arc::default(), Vec::new())
    }

    /// A record that starts from `paths` (met before) with `tally` (a zero per path).
    pub(crate) fn with_tally(
        schema: &'s Schema,
        view: View,
        paths: Arc<Paths<'s>>,
        tally: Vec<Tally>,
    ) -> Self {
        Record {
            schema,
            view,
            paths,
            tally,
            arrived: 0,
            missing: Vec::new(),
            unknown: Vec::new(),
            unknown_omitted: 0,
        }
    }

    /// Whether `other` recorded the same as this record, against the same paths.
    fn same(&self, other: &Record<'_>) -> bool {
        std::ptr::eq(self.schema, other.schema)
            && self.view == other.view
            && Arc::ptr_eq(&self.paths, &other.paths)
            && self.arrived == other.arrived
            && self.unknown_omitted == other.unknown_omitted
            && same_words(&self.tally, &other.tally)
            // Mostly both empty: compared without a call then.
            && self.missing.len() == other.missing.len()
            && self.unknown.len() == other.unknown.len()
            && (self.missing.is_empty() || self.missing == other.missing)
            && (self.unknown.is_empty() || self.unknown == other.unknown)
    }

    /// Forgets every arrival at a path that first arrived after the first `arrived` paths
    /// did: what was recorded since, where those later arrivals were all at paths that
    /// first arrived since (the fields of one member of the top-level struct and below).
    pub(crate) fn forget_after(&mut self, arrived: u32) {
        for tally in &mut self.tally {
            if first(*tally) > arrived {
                *tally = 0;
            }
        }
        self.arrived = arrived;
    }

    /// Whether a field arrived at path `id`.
    pub(crate) fn has_arrived(&self, id: u32) -> bool {
        self.tally.get(id as usize).is_some_and(|t| count(*t) > 0)
    }

    /// Counts one arrival at path `id`.
    #[inline(always)]
    pub(crate) fn arrive(&mut self, id: u32) {
        let tally = &mut self.tally[id as usize];
        let n = count(*tally);
        if n == 0 {
            // At most one first arrival per path: fewer than `u32::MAX`.
            self.arrived += 1;
            *tally = u64::from(self.arrived) << 32 | 1;
        } else if n < u32::MAX {
            *tally += 1;
        }
    }

    /// Adds the path `label` under `parent`: its id.
    pub(crate) fn push_path(&mut self, parent: u32, label: Label<'s>) -> u32 {
        let inside = matches!(label, Label::Items | Label::Values)
            || self.paths.get(parent as usize).is_some_and(|p| p.inside);
        let id = self.paths.len() as u32;
        Arc::make_mut(&mut self.paths)
            .nodes
            .push(PathNode::new(parent, label, inside));
        self.tally.push(0);
        id
    }

    /// Notes an unknown name that arrived under path `here`: named up to `max`, then counted.
    pub(crate) fn unknown_name(&mut self, here: u32, name: &[u8], max: usize) {
        if self
            .unknown
            .iter()
            .any(|(p, n)| *p == here && n.as_bytes() == name)
        {
            return;
        }
        if self.unknown.len() >= max {
            self.unknown_omitted += 1;
            return;
        }
        self.unknown
            .push((here, String::from_utf8_lossy(name).into_owned()));
    }

    fn render(&self) -> Rendered {
        let facts = render_facts(self.schema, self.view);
        let mut rendering = self.paths.rendering(facts);
        let rendering = &mut *rendering;
        // The paths that arrived, in the order they first did: `first` numbers them 1, 2, …
        rendering.order.clear();
        rendering.order.resize(self.arrived as usize, u32::MAX);
        for (id, tally) in (0u32..).zip(&self.tally) {
            if count(*tally) == 0 {
                continue;
            }
            let at = (first(*tally) as usize).wrapping_sub(1);
            if let Some(slot) = rendering.order.get_mut(at) {
                *slot = id;
            }
        }
        rendering.arrivals(&self.paths, facts);
        let paths = &rendering.paths;
        let counts = rendering
            .counted
            .iter()
            .filter_map(|&id| {
                let n = count(*self.tally.get(id as usize)?);
                Some((paths.get(id as usize)?.text.clone(), u64::from(n)))
            })
            .collect();
        Rendered {
            handoff_contract: facts.contract.map(Cow::Borrowed),
            received_fields: Arc::clone(&rendering.received),
            missing_fields: self
                .missing
                .iter()
                .map(|(parent, name)| join(&mut Vec::new(), paths, *parent, Label::Field(name)))
                .collect(),
            unknown_fields: self
                .unknown
                .iter()
                .map(|(parent, name)| join(&mut Vec::new(), paths, *parent, Label::Field(name)))
                .collect(),
            unknown_fields_omitted: self.unknown_omitted,
            field_counts: Sorted(counts),
            present: Sorted(Arc::clone(&rendering.present)),
        }
    }
}

/// The text of the path `label` under the path `parent` (whose text is in `paths`, none for
/// [`ROOT`]), written in `buffer`.
fn join(buffer: &mut Vec<u8>, paths: &[PathText], parent: u32, label: Label<'_>) -> FieldPath {
    buffer.clear();
    if let Some(parent) = paths.get(parent as usize) {
        buffer.extend_from_slice(parent.text.as_bytes());
    }
    let first = buffer.is_empty();
    push_label(buffer, label, first);
    // Names and punctuation only: text.
    FieldPath::from(&*String::from_utf8_lossy(buffer))
}

/// Appends the step `label` adds to a path's text; `first` when the text of its parent is
/// empty (a field at the top has no `.` before it).
fn push_label(out: &mut Vec<u8>, label: Label<'_>, first: bool) {
    match label {
        Label::Field(name) => {
            if !first {
                out.push(b'.');
            }
            out.extend_from_slice(name.as_bytes());
        }
        Label::Items => out.extend_from_slice(b"[]"),
        Label::Values => {
            if !first {
                out.push(b'.');
            }
            out.push(b'*');
        }
        Label::Variant(tag) => {
            out.push(b'(');
            out.extend_from_slice(tag.as_bytes());
            out.push(b')');
        }
    }
}

impl Presence {
    /// The presence a walk recorded against a schema kept for the life of the process.
    pub(crate) fn recorded(record: Record<'static>, side: Side) -> Self {
        Presence::shared(Arc::new(Recorded::new(record)), side)
    }

    /// The presence of a record a path's memo shares.
    pub(crate) fn shared(recorded: Arc<Recorded>, side: Side) -> Self {
        Presence::held(Held::Counted(recorded), side)
    }

    /// The presence of a record a path's memo shares, counted or kept.
    pub(crate) fn held(recorded: Held, side: Side) -> Self {
        Presence { side, recorded }
    }

    /// The schema and the view the record was made in: `None` for one read from JSON.
    pub(crate) fn schema_view(&self) -> Option<(&'static Schema, View)> {
        self.recorded
            .record
            .as_ref()
            .map(|record| (record.schema, record.view))
    }

    fn rendered(&self) -> &Rendered {
        let recorded = &*self.recorded;
        recorded.rendered.get_or_init(|| {
            recorded
                .record
                .as_ref()
                .map(Record::render)
                .unwrap_or_default()
        })
    }

    /// Which side recorded it: [`Side::Send`] for what `send` wrote, [`Side::Receive`] for
    /// what `receive` read (and for a record read from JSON with `receivedFields`).
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The contract id (`refund-request/v2`), when the payload was checked against a contract.
    #[must_use]
    pub fn contract(&self) -> Option<&str> {
        self.rendered().handoff_contract.as_deref()
    }

    /// The paths of the fields that arrived (for a send: that were written), in the order
    /// they first did.
    #[must_use]
    pub fn received(&self) -> &[FieldPath] {
        &self.rendered().received_fields
    }

    /// The paths of required fields that were absent.
    #[must_use]
    pub fn missing(&self) -> &[FieldPath] {
        &self.rendered().missing_fields
    }

    /// The unknown field names that arrived, as paths (`meta.extra`), up to the cap.
    #[must_use]
    pub fn unknown(&self) -> &[FieldPath] {
        &self.rendered().unknown_fields
    }

    /// How many unknown field names arrived past the cap (counted, not named).
    #[must_use]
    pub fn unknown_omitted(&self) -> u64 {
        self.rendered().unknown_fields_omitted
    }

    /// How often the field at `path` arrived: once or not at all outside arrays and maps,
    /// once per element inside them.
    #[must_use]
    pub fn count(&self, path: &str) -> u64 {
        let rendered = self.rendered();
        match rendered.field_counts.get(path) {
            Some(n) => n,
            None => u64::from(rendered.received_fields.iter().any(|p| p == path)),
        }
    }

    /// Whether the top-level field `name` arrived; `None` when the contract has no such field.
    #[must_use]
    pub fn is_present(&self, name: &str) -> Option<bool> {
        self.rendered()
            .present
            .get(format!("{name}Present").as_str())
    }
}

impl Presence {
    /// A presence of what was read from JSON.
    fn read(side: Side, rendered: Rendered) -> Self {
        let recorded = Recorded {
            record: None,
            rendered: OnceLock::from(rendered),
        };
        Presence::shared(Arc::new(recorded), side)
    }
}

impl Default for Presence {
    fn default() -> Self {
        Presence::read(Side::Receive, Rendered::default())
    }
}

impl Clone for Presence {
    fn clone(&self) -> Self {
        Presence {
            side: self.side,
            recorded: self.recorded.clone(),
        }
    }
}

impl PartialEq for Presence {
    fn eq(&self, other: &Self) -> bool {
        self.side == other.side && self.rendered() == other.rendered()
    }
}

impl Eq for Presence {}

impl fmt::Debug for Presence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rendered();
        f.debug_struct("Presence")
            .field("side", &self.side)
            .field("handoff_contract", &r.handoff_contract)
            .field("received_fields", &r.received_fields)
            .field("missing_fields", &r.missing_fields)
            .field("unknown_fields", &r.unknown_fields)
            .field("unknown_fields_omitted", &r.unknown_fields_omitted)
            .field("field_counts", &r.field_counts)
            .field("present", &r.present)
            .finish()
    }
}

impl Side {
    /// The key of the record's list of the fields a side saw: `receivedFields` for what
    /// arrived, `writtenFields` for what a sender wrote.
    const fn fields_key(self) -> &'static str {
        match self {
            Side::Send => "writtenFields",
            Side::Receive => "receivedFields",
        }
    }

    /// How `Display` names that list.
    const fn fields_label(self) -> &'static str {
        match self {
            Side::Send => "written",
            Side::Receive => "received",
        }
    }
}

impl Serialize for Presence {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let r = self.rendered();
        let mut map = serializer.serialize_map(None)?;
        if let Some(contract) = &r.handoff_contract {
            map.serialize_entry("handoffContract", contract)?;
        }
        map.serialize_entry(self.side.fields_key(), &r.received_fields)?;
        map.serialize_entry("missingFields", &r.missing_fields)?;
        map.serialize_entry("unknownFields", &r.unknown_fields)?;
        if !is_zero(&r.unknown_fields_omitted) {
            map.serialize_entry("unknownFieldsOmitted", &r.unknown_fields_omitted)?;
        }
        if !r.field_counts.is_empty() {
            map.serialize_entry("fieldCounts", &r.field_counts)?;
        }
        for (key, present) in r.present.0.iter() {
            map.serialize_entry(key, present)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Presence {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let read = ReadRecord::deserialize(deserializer)?;
        let (side, fields) = match (read.received_fields, read.written_fields) {
            (Some(fields), None) => (Side::Receive, fields),
            (None, Some(fields)) => (Side::Send, fields),
            (None, None) => return Err(D::Error::missing_field("receivedFields")),
            (Some(_), Some(_)) => {
                return Err(D::Error::custom(
                    "a presence record holds `receivedFields` or `writtenFields`, not both",
                ))
            }
        };
        let rendered = Rendered {
            handoff_contract: read.handoff_contract,
            received_fields: fields,
            missing_fields: read.missing_fields,
            unknown_fields: read.unknown_fields,
            unknown_fields_omitted: read.unknown_fields_omitted,
            field_counts: read.field_counts,
            present: read.present,
        };
        Ok(Presence::read(side, rendered))
    }
}

fn list(f: &mut fmt::Formatter<'_>, label: &str, items: &[FieldPath]) -> fmt::Result {
    write!(f, "{label} [")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(item)?;
    }
    f.write_str("]")
}

impl fmt::Display for Presence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rendered();
        write!(f, "{}: ", self.contract().unwrap_or("payload"))?;
        list(f, self.side.fields_label(), &r.received_fields)?;
        f.write_str("; ")?;
        list(f, "missing", &r.missing_fields)?;
        f.write_str("; ")?;
        list(f, "unknown", &r.unknown_fields)?;
        if r.unknown_fields_omitted > 0 {
            write!(f, " and {} more", r.unknown_fields_omitted)?;
        }
        Ok(())
    }
}

/// A field of the record: `wire` on the wire, `optional` ones written only when present.
const fn field(
    name: &'static str,
    wire: &'static str,
    optional: bool,
    flatten: bool,
    ty: fn() -> &'static Shape,
    doc: &'static str,
) -> Field {
    Field {
        ser_name: wire,
        de_name: wire,
        send: if optional {
            Send::IfPresent
        } else {
            Send::Always
        },
        default: optional,
        flatten,
        doc,
        ..Field::new(name, ty)
    }
}

static PRESENCE_FIELDS: [Field; 8] = [
    field(
        "handoff_contract",
        "handoffContract",
        true,
        false,
        shape_of::<Option<String>>,
        "The contract id, `name/vN`.",
    ),
    field(
        "received_fields",
        "receivedFields",
        true,
        false,
        shape_of::<Vec<String>>,
        "The paths of the fields that arrived (a receiver's record).",
    ),
    field(
        "written_fields",
        "writtenFields",
        true,
        false,
        shape_of::<Vec<String>>,
        "The paths of the fields that were written (a sender's record).",
    ),
    field(
        "missing_fields",
        "missingFields",
        false,
        false,
        shape_of::<Vec<String>>,
        "The paths of required fields that were absent.",
    ),
    field(
        "unknown_fields",
        "unknownFields",
        false,
        false,
        shape_of::<Vec<String>>,
        "Unknown field names that arrived, up to the cap.",
    ),
    field(
        "unknown_fields_omitted",
        "unknownFieldsOmitted",
        true,
        false,
        shape_of::<u64>,
        "How many unknown names arrived past the cap.",
    ),
    field(
        "field_counts",
        "fieldCounts",
        true,
        false,
        shape_of::<BTreeMap<String, u64>>,
        "How often each field inside an array or a map arrived.",
    ),
    field(
        "present",
        "present",
        false,
        true,
        shape_of::<BTreeMap<String, bool>>,
        "`<field>Present` for each top-level field of the contract.",
    ),
];

static PRESENCE_STRUCT: StructShape = StructShape {
    fields: &PRESENCE_FIELDS,
    deny_unknown_fields: false,
};

/// A presence record travels in envelopes and traces, so it has a contract-grade description.
impl HandoffSchema for Presence {
    const SHAPE: &'static Shape = &Shape {
        name: "Presence",
        module: "contract_core",
        generics: &[],
        doc: "Field-presence metadata of one payload: which fields arrived, never their values.",
        kind: Kind::Struct(&PRESENCE_STRUCT),
    };
}
