//! A catalogue of test types: every serde attribute and shape the derive supports, and the
//! seeds' contracts. Other test suites (fidelity, JSON Schema) use them, so everything is
//! `pub` and every type derives `Serialize`, `Deserialize`, `Debug`, `Clone`, `PartialEq`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------
// The seeds' contracts.
// ---------------------------------------------------------------------------------------

/// Why a refund is requested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The goods arrived damaged.
    Damaged,
    /// The goods never arrived.
    NotDelivered,
    /// Charged twice.
    DoubleCharge,
    /// Any category this reader does not know yet.
    #[serde(other)]
    Other,
}

/// A refund request handed from the triage agent to the refund agent (seed 003).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "refund-request", version = 2)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    /// What kind of refund.
    pub category: Category,
    /// The order, called `orderRef` in v1.
    #[serde(alias = "orderRef")]
    #[handoff(renamed_from = "orderRef")]
    pub order_id: String,
    /// What the customer wants to achieve; inferred, not confirmed.
    #[handoff(assumption)]
    pub use_case: Option<String>,
}

/// What a sub-agent may and may not touch (seed 001).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scope {
    /// Fields the result must fill.
    pub required_fields: Vec<String>,
    /// Actions the sub-agent must not take.
    #[serde(default)]
    pub excluded_actions: Vec<String>,
}

/// A budget of tool calls and tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Budget {
    /// At most this many tool calls.
    pub max_tool_calls: u32,
    /// At most this many tokens.
    pub max_tokens: u64,
}

/// A sub-task handed to another agent (seed 001).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "task-contract", version = 1, mode = "backward")]
pub struct TaskContract {
    /// What to achieve.
    pub goal: String,
    /// The input, as structured data.
    pub input: BTreeMap<String, serde_json::Value>,
    /// What may be touched.
    pub scope: Scope,
    /// How the result is judged.
    pub acceptance: Vec<String>,
    /// The budget.
    pub budget: Budget,
    /// The expected deliverable.
    pub deliverable: String,
    /// Bumped when the task changes: old conclusions are void, old observations are not.
    pub task_revision: u32,
}

/// How a sub-task ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Done, acceptance met.
    Done,
    /// Partly done: see `unresolved`.
    Partial,
    /// Could not be done.
    Failed,
}

/// One observation backing a conclusion (seed 001).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Evidence {
    /// The field the evidence is about.
    pub field: String,
    /// The observed value.
    pub value: serde_json::Value,
    /// Where it was observed.
    pub source_ref: String,
    /// When it was observed.
    pub observed_at: chrono::DateTime<chrono::Utc>,
}

/// The result a sub-agent hands back (seed 001).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "task-result", version = 1)]
pub struct TaskResult {
    /// How it ended.
    pub status: TaskStatus,
    /// The conclusion, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<String>,
    /// What backs the conclusion.
    pub evidence: Vec<Evidence>,
    /// What is still open.
    #[serde(default)]
    pub unresolved: Vec<String>,
    /// What the result cannot speak to.
    #[serde(default)]
    pub limitations: Vec<String>,
    /// The task revision this result answers.
    pub task_revision: u32,
}

/// A reference to a produced artifact (seed 000).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Artifact {
    /// Its name.
    pub name: String,
    /// Where it is stored.
    pub uri: String,
    /// Its version; accepting a handoff refuses versions that do not exist.
    pub version: u32,
}

/// Where a handoff stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandoffStatus {
    /// Being prepared.
    Draft,
    /// Ready to be accepted.
    Ready,
    /// Accepted by the next owner.
    Accepted,
}

/// The handoff envelope around any payload (seed 000).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Handoff<T> {
    /// The envelope's own schema version.
    pub schema_version: u32,
    /// Groups related tasks.
    pub context_id: uuid::Uuid,
    /// This piece of work.
    pub task_id: String,
    /// Idempotency key, with `context_id`.
    pub handoff_id: String,
    /// What the next owner must achieve.
    pub goal: String,
    /// Hard constraints.
    pub constraints: Vec<String>,
    /// Confirmed decisions.
    #[handoff(confirmed)]
    pub decisions: Vec<String>,
    /// Unverified working assumptions, kept apart from decisions.
    #[serde(default)]
    #[handoff(assumption)]
    pub assumptions: Vec<String>,
    /// Questions still open.
    pub open_questions: Vec<String>,
    /// Produced artifacts, by reference.
    pub artifacts: Vec<Artifact>,
    /// What the next owner may spend.
    pub budget: Budget,
    /// Who owns the task now.
    pub owner: String,
    /// Where the handoff stands.
    pub status: HandoffStatus,
    /// The payload.
    pub payload: T,
}

// ---------------------------------------------------------------------------------------
// One type per serde attribute.
// ---------------------------------------------------------------------------------------

/// `rename`, `rename(serialize, deserialize)` and `alias`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Renames {
    /// Renamed in both views.
    #[serde(rename = "ID")]
    pub id: String,
    /// Two names: written as `outName`, read as `inName`.
    #[serde(rename(serialize = "outName", deserialize = "inName"))]
    pub split: String,
    /// Read under two further names.
    #[serde(alias = "fullName", alias = "full_name")]
    pub name: String,
    /// Only the serialize name is changed.
    #[serde(rename(serialize = "kindOut"))]
    pub kind: u8,
}

/// `rename_all` with different rules per view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "camelCase"))]
pub struct RenameAllSplit {
    /// `USER_ID` out, `userId` in.
    pub user_id: u64,
    /// Keeps its explicit rename in both views.
    #[serde(rename = "x")]
    pub extra_field: bool,
}

/// Container-level `default`: every field may be absent for the receiver.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, HandoffSchema)]
#[serde(default)]
pub struct Defaults {
    /// Defaults to 0.
    pub retries: u32,
    /// Defaults to empty.
    pub label: String,
}

fn default_limit() -> u32 {
    10
}

/// Field-level `default` (plain and with a function).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct FieldDefaults {
    /// Required.
    pub query: String,
    /// May be absent: defaults to 10.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// May be absent: defaults to empty.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// `skip`, `skip_serializing`, `skip_deserializing`, `skip_serializing_if`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Skips {
    /// Always on the wire.
    pub kept: String,
    /// Never on the wire.
    #[serde(skip)]
    pub cache: Vec<u8>,
    /// Read, never written.
    #[serde(skip_serializing)]
    pub write_only: String,
    /// Written, never read (defaulted when reading).
    #[serde(skip_deserializing)]
    pub computed: u32,
    /// Written only when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Written only when not empty; required for the receiver (no `default`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
}

/// Metadata flattened into other types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Meta {
    /// Who wrote it.
    pub author: String,
    /// Revision.
    #[serde(default)]
    pub revision: u32,
}

/// `flatten` of a struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenStruct {
    /// The document's title.
    pub title: String,
    /// Inlined: `author` and `revision` sit beside `title`.
    #[serde(flatten)]
    pub meta: Meta,
}

/// `flatten` of a map: unknown keys are captured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenMap {
    /// A declared field.
    pub id: u32,
    /// Every other key.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// An internally tagged enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Figure {
    /// A circle.
    Circle {
        /// Its radius.
        radius: f64,
    },
    /// A rectangle.
    Rect {
        /// Width.
        w: f64,
        /// Height.
        h: f64,
    },
    /// Its content is a struct, inlined beside the tag.
    Labelled(Meta),
    /// Nothing but the tag.
    Empty,
}

/// An adjacently tagged enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
pub enum Message {
    /// A text.
    Text(String),
    /// A pair.
    Pair(u32, u32),
    /// A struct.
    Move {
        /// Horizontal.
        x: i32,
        /// Vertical.
        y: i32,
    },
    /// No content.
    Ping,
}

/// An untagged enum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum IdOrName {
    /// A numeric id.
    Id(u64),
    /// A name.
    Name(String),
}

/// An externally tagged enum (serde's default) with every variant kind, and
/// `rename_all_fields`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all_fields = "camelCase")]
pub enum Command {
    /// A unit variant: the string `"Stop"`.
    Stop,
    /// A newtype variant.
    Say(String),
    /// A tuple variant.
    Goto(i64, i64),
    /// A struct variant; its fields are camelCase.
    Configure {
        /// `maxSpeed`.
        max_speed: f32,
        /// May be absent.
        #[serde(default)]
        dry_run: bool,
    },
    /// Read under an alias too, written under another name.
    #[serde(rename = "halt", alias = "abort")]
    Halt,
    /// Read, never written.
    #[serde(skip_serializing)]
    Legacy,
    /// Never on the wire.
    #[serde(skip)]
    Internal,
}

/// A string enum with `rename_all`, per-variant aliases and a catch-all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Level {
    /// `LOW`.
    Low,
    /// `VERY_HIGH`, also read as `CRITICAL`.
    #[serde(alias = "CRITICAL")]
    VeryHigh,
    /// Any other level.
    #[serde(other)]
    Unknown,
}

/// A newtype struct: a string on the wire.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema,
)]
pub struct OrderId(pub String);

/// A transparent struct: its one field on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct Meters {
    /// The length.
    pub value: f64,
}

/// A tuple struct: an array of two numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Point(pub i32, pub i32);

/// A unit struct: `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Marker;

/// A plan whose steps are plans: a recursive type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct Plan {
    /// What this step does.
    pub action: String,
    /// The sub-plans.
    #[serde(default)]
    pub steps: Vec<Plan>,
    /// What to do when this step fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Box<Plan>>,
}

/// Network addresses: strings of their formats, also as map keys.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct NetAddrs {
    /// `192.0.2.1`.
    pub v4: std::net::Ipv4Addr,
    /// `2001:db8::1`.
    pub v6: std::net::Ipv6Addr,
    /// Either.
    pub ip: std::net::IpAddr,
    /// `192.0.2.1:8080`.
    pub socket_v4: std::net::SocketAddrV4,
    /// `[2001:db8::1]:8080`.
    pub socket_v6: std::net::SocketAddrV6,
    /// Either. (Not an `Option`: the harness would retype its `null` to a string of no
    /// address, which the JSON Schema, annotating formats without validating them, accepts.)
    pub socket: std::net::SocketAddr,
    /// Addresses as keys.
    pub by_address: BTreeMap<std::net::Ipv4Addr, u8>,
}

/// `NonZero*` of every width: their integer without 0, also inside an `Option`, a list and
/// as map keys.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct NonZeros {
    /// A `u8` but 0.
    pub u8: std::num::NonZeroU8,
    /// A `u16` but 0.
    pub u16: std::num::NonZeroU16,
    /// A `u32` but 0.
    pub u32: std::num::NonZeroU32,
    /// A `u64` but 0.
    pub u64: std::num::NonZeroU64,
    /// A `u128` but 0.
    pub u128: std::num::NonZeroU128,
    /// A `usize` but 0.
    pub usize: std::num::NonZeroUsize,
    /// An `i8` but 0.
    pub i8: std::num::NonZeroI8,
    /// An `i16` but 0.
    pub i16: std::num::NonZeroI16,
    /// An `i32` but 0.
    pub i32: std::num::NonZeroI32,
    /// An `i64` but 0.
    pub i64: std::num::NonZeroI64,
    /// An `i128` but 0.
    pub i128: std::num::NonZeroI128,
    /// An `isize` but 0.
    pub isize: std::num::NonZeroIsize,
    /// `null` or a nonzero value.
    pub maybe: Option<std::num::NonZeroU32>,
    /// Items of a list.
    pub list: Vec<std::num::NonZeroI16>,
    /// Keys: a key `"0"` is refused like a value 0.
    pub by_id: BTreeMap<std::num::NonZeroU64, u8>,
}

/// `Duration` and `SystemTime`: structs of seconds and nanoseconds below 10⁹, no other key.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Times {
    /// `{"secs", "nanos"}`.
    pub duration: std::time::Duration,
    /// `{"secs_since_epoch", "nanos_since_epoch"}`.
    pub since_epoch: std::time::SystemTime,
    /// `null` or a duration.
    pub timeout: Option<std::time::Duration>,
    /// Items of a list.
    pub laps: Vec<std::time::Duration>,
}

/// C strings and OS strings: arrays of nonzero bytes, and this platform's tagged form of an
/// OS string (`{"Unix": [bytes]}` here).
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct FfiStrings {
    /// `[nonzero bytes]`.
    pub c_string: std::ffi::CString,
    /// Read as a box.
    pub boxed_c_str: Box<std::ffi::CStr>,
    /// `{"Unix": [bytes]}` on Unix.
    pub os_string: std::ffi::OsString,
    /// Items of a list.
    pub os_strings: Vec<std::ffi::OsString>,
}

/// Standard types serde writes as their inner value, as a string, as a unit, or as a small
/// enum or struct of its own.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct StdWrappers {
    /// Written as the `u8`.
    pub wrapping: std::num::Wrapping<u8>,
    /// Written as the `u32`.
    pub saturating: std::num::Saturating<u32>,
    /// Written as the `i16`.
    pub reverse: std::cmp::Reverse<i16>,
    /// Written as the `bool`.
    pub cell: std::cell::Cell<bool>,
    /// Written as the `String`.
    pub ref_cell: std::cell::RefCell<String>,
    /// Written as the `Option`: absent reads `None`, as for a bare `Option`.
    pub mutex: std::sync::Mutex<Option<u8>>,
    /// Written as the list.
    pub rw_lock: std::sync::RwLock<Vec<u16>>,
    /// A string.
    pub path: std::path::PathBuf,
    /// `null`, required.
    pub phantom: std::marker::PhantomData<String>,
    /// `{"Ok": …}` or `{"Err": …}`.
    pub result: Result<u8, String>,
    /// `"Unbounded"`, `{"Included": …}` or `{"Excluded": …}`.
    pub bound: std::ops::Bound<u16>,
    /// `{"start", "end"}`, no other field.
    pub range: std::ops::Range<u32>,
    /// `{"start", "end"}`.
    pub inclusive: std::ops::RangeInclusive<i8>,
    /// `{"start"}`.
    pub from: std::ops::RangeFrom<u64>,
    /// `{"end"}`.
    pub to: std::ops::RangeTo<i64>,
    /// `Box<str>` and `Rc<str>`: strings.
    pub boxed: (Box<str>, std::rc::Rc<str>),
    /// Lists.
    pub lists: (
        std::collections::LinkedList<u8>,
        std::collections::BinaryHeap<u8>,
    ),
}

/// Every standard type serde supports, as a field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct StdTypes {
    /// `bool`.
    pub flag: bool,
    /// `u8`.
    pub u8: u8,
    /// `u16`.
    pub u16: u16,
    /// `u32`.
    pub u32: u32,
    /// `u64`.
    pub u64: u64,
    /// `u128`.
    pub u128: u128,
    /// `usize`.
    pub usize: usize,
    /// `i8`.
    pub i8: i8,
    /// `i16`.
    pub i16: i16,
    /// `i32`.
    pub i32: i32,
    /// `i64`.
    pub i64: i64,
    /// `i128`.
    pub i128: i128,
    /// `isize`.
    pub isize: isize,
    /// `f32`.
    pub f32: f32,
    /// `f64`.
    pub f64: f64,
    /// `char`.
    pub char: char,
    /// `String`.
    pub string: String,
    /// `Option`.
    pub option: Option<u32>,
    /// `Option<Option<_>>`: serde cannot tell the two `None`s apart.
    pub nested_option: Option<Option<u32>>,
    /// `Vec`.
    pub vec: Vec<String>,
    /// `VecDeque`.
    pub deque: VecDeque<u16>,
    /// An array.
    pub array: [u8; 4],
    /// `HashSet`.
    pub hash_set: HashSet<String>,
    /// `BTreeSet`.
    pub btree_set: BTreeSet<i32>,
    /// `HashMap` with string keys.
    pub hash_map: HashMap<String, u32>,
    /// `BTreeMap` with string keys.
    pub btree_map: BTreeMap<String, Vec<bool>>,
    /// `Box`.
    pub boxed: Box<String>,
    /// `Arc`.
    pub arc: Arc<str>,
    /// `Rc`.
    pub rc: Rc<u32>,
    /// `Cow`.
    pub cow: Cow<'static, str>,
    /// `serde_json::Value`.
    pub any: serde_json::Value,
    /// `()`.
    pub unit: (),
    /// A tuple.
    pub tuple: (String, i64),
}

/// The uuid and chrono types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct TimeAndIds {
    /// A UUID.
    pub id: uuid::Uuid,
    /// A date-time with offset.
    pub at: chrono::DateTime<chrono::Utc>,
    /// A date-time with a fixed offset.
    pub local: chrono::DateTime<chrono::FixedOffset>,
    /// A date-time without offset.
    pub naive: chrono::NaiveDateTime,
    /// A date.
    pub day: chrono::NaiveDate,
    /// A time of day.
    pub time: chrono::NaiveTime,
}

/// chrono's named values: weekdays and months by name, a `TimeDelta` as `[secs, nanos]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct ChronoNames {
    /// `"Mon"` (read also as `"Monday"`).
    pub weekday: chrono::Weekday,
    /// `"January"` (read also as `"Jan"`).
    pub month: chrono::Month,
    /// `[secs, nanos]`.
    pub delta: chrono::TimeDelta,
    /// Items of a list.
    pub days: Vec<chrono::Weekday>,
    /// Keyed by month name.
    pub by_month: BTreeMap<chrono::Month, u8>,
    /// `null` or a delta.
    pub maybe: Option<chrono::TimeDelta>,
}

/// Types of the `url`, `indexmap` and `time` features, as fields, items and keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct OtherCrates {
    /// An absolute URL.
    pub url: url::Url,
    /// Keyed by URL.
    pub by_url: BTreeMap<url::Url, u8>,
    /// An object in insertion order.
    pub index_map: indexmap::IndexMap<String, u8>,
    /// An array without duplicates.
    pub index_set: indexmap::IndexSet<u16>,
    /// `[hour, minute, second, nanosecond]`.
    pub time: time::Time,
    /// 1 to 7.
    pub weekday: time::Weekday,
    /// 1 to 12, also as keys (`"5"`).
    pub by_month: BTreeMap<u8, time::Month>,
    /// `null` or a time.
    pub maybe: Option<time::Time>,
    /// `[hours, minutes, seconds]`.
    pub offset: time::UtcOffset,
    /// `[seconds, nanoseconds]`.
    pub duration: time::Duration,
}

/// Serializes a [`std::time::Duration`] as whole seconds.
pub mod seconds {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes whole seconds.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(d: &std::time::Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }

    /// Reads whole seconds.
    ///
    /// # Errors
    /// The deserializer's.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<std::time::Duration, D::Error> {
        u64::deserialize(d).map(std::time::Duration::from_secs)
    }
}

/// `#[serde(with)]` described by `#[handoff(schema_as)]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
pub struct WithSchemaAs {
    /// On the wire: a number of seconds.
    #[serde(with = "seconds")]
    #[handoff(schema_as = u64)]
    pub timeout: std::time::Duration,
}

/// A struct that denies unknown fields, with a field renamed across versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "strict-note", version = 3, mode = "forward")]
#[serde(deny_unknown_fields)]
pub struct StrictNote {
    /// The text; called `body`, then `content`, in earlier versions.
    #[handoff(renamed_from = "body", renamed_from = "content")]
    pub text: String,
    /// Optional.
    pub tag: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Enums written as their integer (serde_repr), and one with a `#[repr]` written by name.
// ---------------------------------------------------------------------------------------

/// Written as its `u8` discriminant by serde_repr: the set {1, 5, 6, 200}.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde_repr::Serialize_repr,
    serde_repr::Deserialize_repr,
    HandoffSchema,
)]
#[repr(u8)]
#[handoff(repr)]
pub enum Priority {
    /// 1.
    Low = 1,
    /// 5.
    Normal = 5,
    /// 6, the next after 5.
    High,
    /// 200.
    Urgent = 200,
}

/// Written as its `i16` discriminant, negative ones included: the set {-300, 0, 7}.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde_repr::Serialize_repr,
    serde_repr::Deserialize_repr,
    HandoffSchema,
)]
#[repr(i16)]
#[handoff(repr)]
pub enum Offset {
    /// -300.
    Back = -300,
    /// 0.
    Zero = 0,
    /// 7.
    Forward = 7,
}

/// Written as its `u8` discriminant, with a catch-all serde_repr reads every other `u8`
/// into: described as any `u8`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde_repr::Serialize_repr,
    serde_repr::Deserialize_repr,
    HandoffSchema,
)]
#[repr(u8)]
#[handoff(repr)]
pub enum Code {
    /// 0.
    Done = 0,
    /// 1.
    Failed = 1,
    /// Any other `u8`.
    #[serde(other)]
    Unknown = 255,
}

/// A `#[repr(u8)]` enum that serde's own derive writes by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, HandoffSchema)]
#[repr(u8)]
#[handoff(by_name)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// `"free"`.
    Free = 1,
    /// `"pro"`.
    Pro = 2,
}

/// Integer enums as fields, items and options, beside one written by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Reprs {
    /// `1`, `5`, `6` or `200`.
    pub priority: Priority,
    /// `-300`, `0` or `7`.
    pub offset: Offset,
    /// Any `u8`.
    pub code: Code,
    /// `"free"` or `"pro"`.
    pub tier: Tier,
    /// Items of a list.
    pub priorities: Vec<Priority>,
    /// `null` or an offset.
    pub maybe: Option<Offset>,
    /// Keyed by discriminant: `"1"`, `"5"`, `"6"` or `"200"`.
    pub by_priority: BTreeMap<Priority, u8>,
}

// ---------------------------------------------------------------------------------------
// Flattened enums: the variant's key, or its tag and fields, beside the struct's fields.
// ---------------------------------------------------------------------------------------

/// An externally tagged enum of every variant kind, to be flattened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "snake_case")]
pub enum Payment {
    /// Written `"cash": null` beside the fields.
    Cash,
    /// Written `"card": 1234`; also read as `"credit"`.
    #[serde(alias = "credit")]
    Card(u16),
    /// Written `"split": [1, true]`.
    Split(u8, bool),
    /// Written `"transfer": {"iban": "…"}`.
    Transfer {
        /// The account.
        iban: String,
    },
}

/// `flatten` of an externally tagged enum: one key, the variant's name, beside `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenExternal {
    /// A declared field.
    pub id: u32,
    /// Its variant's name is a key of this object.
    #[serde(flatten)]
    pub payment: Payment,
}

/// `flatten` of an internally tagged enum: its tag and fields beside `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenInternalEnum {
    /// A declared field.
    pub id: u32,
    /// `type` and the variant's fields.
    #[serde(flatten)]
    pub figure: Figure,
}

/// `flatten` of an adjacently tagged enum: its tag and content keys beside `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenAdjacentEnum {
    /// A declared field.
    pub id: u32,
    /// `t` and `c`.
    #[serde(flatten)]
    pub message: Message,
}

/// An untagged enum whose variants serde can write beside other fields, and two it cannot
/// read there (a unit variant, written as nothing, and a number).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum Placement {
    /// Its fields.
    At {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// The struct's fields.
    Owned(Meta),
    /// Never read beside fields; serde fails to write it there.
    Index(u8),
    /// Written as nothing and never read beside fields.
    Nowhere,
}

/// `flatten` of an untagged enum: the variant's fields beside `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenUntaggedEnum {
    /// A declared field.
    pub id: u32,
    /// `x` and `y`, or `author` and `revision`.
    #[serde(flatten)]
    pub placement: Placement,
}

/// `flatten` of `Option`s of enums: `None` writes nothing, and serde reads `None` whenever
/// the enum does not read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenOptionalEnums {
    /// A declared field.
    pub id: u32,
    /// A variant's name as a key, or nothing.
    #[serde(flatten)]
    pub payment: Option<Payment>,
    /// `t` and `c`, or nothing.
    #[serde(flatten)]
    pub message: Option<Message>,
}

/// A struct that captures the keys it does not know in a map of small numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Labels {
    /// A declared field.
    pub name: String,
    /// Every other key.
    #[serde(flatten)]
    pub extra: BTreeMap<String, u8>,
}

/// An untagged enum whose variants take every key left beside the fields they are flattened
/// into: a struct that flattens a map (when its values fit), else any JSON value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum Rest {
    /// `name` and small numbers.
    Labelled(Labels),
    /// Any other keys.
    Any(serde_json::Value),
}

/// `flatten` of an untagged enum whose variants take every key left: serde writes them
/// beside `id` and reads them back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenRest {
    /// A declared field.
    pub id: u32,
    /// Every other key.
    #[serde(flatten)]
    pub rest: Rest,
}

/// An internally tagged enum whose variants hold a map, a struct that flattens a map, and
/// fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum Counted {
    /// `"t": "M"` and entries of integers.
    M(BTreeMap<String, i32>),
    /// `"t": "Labelled"`, `name` and small numbers.
    Labelled(Labels),
    /// `"t": "Plain"` and `x`.
    Plain {
        /// A small number.
        x: u8,
    },
}

/// `flatten` of an internally tagged enum whose variants take every key left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenCounted {
    /// A declared field.
    pub id: u32,
    /// `t` and the variant's keys.
    #[serde(flatten)]
    pub counted: Counted,
}

// ---------------------------------------------------------------------------------------
// Untagged variants of tagged enums (serde 1.0.181 and later): written as their content
// alone, read after the tagged variants, in declaration order.
// ---------------------------------------------------------------------------------------

/// An externally tagged enum whose last variants are untagged, of every kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub enum ExternalWithUntagged {
    /// `"Stop"`.
    Stop,
    /// `{"Say": "…"}`.
    Say(String),
    /// `{"Move": {"x": …, "y": …}}`.
    Move {
        /// Horizontal.
        x: i32,
        /// Vertical.
        y: i32,
    },
    /// A number alone.
    #[serde(untagged)]
    Code(u16),
    /// An array of two.
    #[serde(untagged)]
    Pair(u8, bool),
    /// An object of its fields: `{"Say": "…"}` is read as `Say`, never as this.
    #[serde(untagged)]
    Note {
        /// The text.
        text: String,
        /// May be absent.
        #[serde(default)]
        urgent: bool,
    },
    /// `null`.
    #[serde(untagged)]
    Nothing,
}

/// An internally tagged enum whose last variants are untagged: a map and a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum InternalWithUntagged {
    /// `{"kind": "Ping"}`.
    Ping,
    /// `{"kind": "Note", "text": …}`.
    Note {
        /// The text.
        text: String,
    },
    /// `{"kind": "Signed", "author": …, "revision": …}`.
    Signed(Meta),
    /// Any object the tagged variants do not read, whose values are small numbers.
    #[serde(untagged)]
    Counts(BTreeMap<String, u8>),
    /// A number alone.
    #[serde(untagged)]
    Number(i64),
}

/// An adjacently tagged enum that denies unknown keys, whose last variants are untagged:
/// the untagged struct variant denies unknown fields too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum AdjacentWithUntagged {
    /// `{"t": "A", "c": …}`.
    A(u8),
    /// `{"t": "U"}`.
    U,
    /// `{"t": "S", "c": {"y": …}}`.
    S {
        /// A text.
        y: String,
    },
    /// An array of two.
    #[serde(untagged)]
    Pair(u8, u8),
    /// An object of its fields, no other key.
    #[serde(untagged)]
    Loose {
        /// A text.
        y: String,
        /// May be absent.
        #[serde(default)]
        z: Option<u8>,
    },
}

/// Known names, and any other string kept as written: a common use of an untagged variant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// `"email"`.
    Email,
    /// `"phone"`.
    Phone,
    /// Any other string.
    #[serde(untagged)]
    Other(String),
}

/// Enums with untagged variants as fields, in an `Option`, in a list and as map keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct WithUntaggedVariants {
    /// Externally tagged.
    pub external: ExternalWithUntagged,
    /// Internally tagged, in a list.
    pub internal: Vec<InternalWithUntagged>,
    /// Adjacently tagged, optional.
    pub adjacent: Option<AdjacentWithUntagged>,
    /// As a field and as map keys.
    pub channel: Channel,
    /// Keyed by a channel.
    pub by_channel: BTreeMap<Channel, u8>,
}

/// Calls the macro `$m` with every type of this file, in the file's order: the one list the
/// tests that run over the whole catalogue share (`field_views.rs`, `json_schema_roundtrip.rs`,
/// `interop_export.rs`), each of which also checks it against the types this file declares,
/// so a new type is added here once. The types are named as the caller sees them (a `use
/// contract_tests::types::*` there).
#[macro_export]
macro_rules! with_catalogue {
    ($m:ident) => {
        $m![
            Category,
            RefundRequest,
            Scope,
            Budget,
            TaskContract,
            TaskStatus,
            Evidence,
            TaskResult,
            Artifact,
            HandoffStatus,
            Renames,
            RenameAllSplit,
            Defaults,
            FieldDefaults,
            Skips,
            Meta,
            FlattenStruct,
            FlattenMap,
            Figure,
            Message,
            IdOrName,
            Command,
            Level,
            OrderId,
            Meters,
            Point,
            Marker,
            Plan,
            NetAddrs,
            NonZeros,
            Times,
            FfiStrings,
            StdWrappers,
            StdTypes,
            TimeAndIds,
            ChronoNames,
            OtherCrates,
            WithSchemaAs,
            StrictNote,
            Priority,
            Offset,
            Code,
            Tier,
            Reprs,
            Payment,
            FlattenExternal,
            FlattenInternalEnum,
            FlattenAdjacentEnum,
            Placement,
            FlattenUntaggedEnum,
            FlattenOptionalEnums,
            Labels,
            Rest,
            FlattenRest,
            Counted,
            FlattenCounted,
            ExternalWithUntagged,
            InternalWithUntagged,
            AdjacentWithUntagged,
            Channel,
            WithUntaggedVariants,
        ]
    };
}
