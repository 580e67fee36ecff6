//! Coverage of serde's own implementations, measured: every type `serde_core`'s
//! `ser/impls.rs` and `de/impls.rs` implement `Serialize` or `Deserialize` for (read in the
//! registry copy of the version [`SERDE_READ`]) is listed in [`SERDE_IMPLS`], either with
//! the check that runs the fidelity harness on a field of that type (which requires
//! `HandoffSchema` of it at compile time) or with the reason it is out of scope.
//!
//! A serde upgrade fails [`the_table_was_read_from_the_locked_serde`] until the table is
//! read again from the new version's files.

use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{CStr, CString, OsStr, OsString};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize, Saturating, Wrapping,
};
use std::ops::{Bound, Range, RangeFrom, RangeInclusive, RangeTo};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{
    AtomicBool, AtomicI16, AtomicI32, AtomicI64, AtomicI8, AtomicIsize, AtomicU16, AtomicU32,
    AtomicU64, AtomicU8, AtomicUsize,
};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use contract_core::{json_schema, send, HandoffSchema, View};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{validator, Harness};

/// The `serde_core` version whose `impls.rs` files the table was read from.
const SERDE_READ: &str = "1.0.229";

/// One struct field of the type under test: the harness mutates struct objects, so a
/// type is checked as a field (present, absent, renamed, retyped, nulled) as well as a value.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Solo<T> {
    /// The value.
    pub value: T,
}

/// `T` itself on the wire and in its description, for a `T` without `Debug` (a tuple of
/// more than 12 items), which the harness prints when it fails.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct Opaque<T>(pub T);

impl<T> Debug for Opaque<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(std::any::type_name::<T>())
    }
}

impl<T: HandoffSchema> HandoffSchema for Opaque<T> {
    const SHAPE: &'static contract_core::schema::shape::Shape = T::SHAPE;
}

/// How one of serde's implementations is covered.
enum Coverage {
    /// Written and read: the fidelity harness ran on `Solo<T>`; instances checked.
    Both(fn() -> usize),
    /// Written only (serde reads it only borrowed, or not at all): what serde writes of
    /// sample values validates against the sender view and passes `send`; values checked.
    Written(fn() -> usize),
    /// Not described, and why.
    OutOfScope(&'static str),
}

/// One implementation (or one family of them) of `serde_core`'s `impls.rs`.
struct Impl {
    /// The type as serde's files name it.
    ty: &'static str,
    /// How it is covered.
    coverage: Coverage,
}

/// Runs the fidelity harness on a field of type `T` (requires `HandoffSchema` of `T`).
fn both<T: Serialize + DeserializeOwned + HandoffSchema + Debug + 'static>() -> usize {
    let harness = Harness::<Solo<T>>::new();
    harness.run(std::any::type_name::<T>());
    harness.checked()
}

/// What serde writes of each value validates against the sender view of `T`, and `send`
/// accepts it; returns the number of values checked.
fn written<T: Serialize + HandoffSchema + 'static>(values: &[T]) -> usize {
    let sender = validator(&json_schema::<T>(View::Sender));
    for value in values {
        let json = serde_json::to_value(value).expect("serde writes it");
        let errors: Vec<String> = sender.iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{}: the sender view rejects what serde writes, {json}: {errors:?}",
            std::any::type_name::<T>()
        );
        if let Err(rejection) = send(value) {
            panic!(
                "{}: send rejects what serde writes, {json}: {rejection}",
                std::any::type_name::<T>()
            );
        }
    }
    values.len()
}

macro_rules! table {
    ($($ty:literal => $coverage:expr,)*) => {
        /// serde's implementations, in the order of its files (`ser/impls.rs`, then what
        /// only `de/impls.rs` adds).
        const SERDE_IMPLS: &[Impl] = &[$(Impl { ty: $ty, coverage: $coverage }),*];
    };
}

use Coverage::{Both, OutOfScope, Written};

table! {
    "bool" => Both(both::<bool>),
    "isize" => Both(both::<isize>),
    "i8" => Both(both::<i8>),
    "i16" => Both(both::<i16>),
    "i32" => Both(both::<i32>),
    "i64" => Both(both::<i64>),
    "i128" => Both(both::<i128>),
    "usize" => Both(both::<usize>),
    "u8" => Both(both::<u8>),
    "u16" => Both(both::<u16>),
    "u32" => Both(both::<u32>),
    "u64" => Both(both::<u64>),
    "u128" => Both(both::<u128>),
    "f32" => Both(both::<f32>),
    "f64" => Both(both::<f64>),
    "char" => Both(both::<char>),
    "str" => Written(|| written::<&'static str>(&["", "a\u{1F600}b", "\"quoted\""])),
    "String" => Both(both::<String>),
    "fmt::Arguments<'a>" => OutOfScope(
        "written only, and borrowed from a `format_args!` temporary: `send` takes `'static` \
         types; a `String` field has the same wire form",
    ),
    "CStr" => Written(|| written::<&'static CStr>(&[c"", c"abc"])),
    "CString" => Both(both::<CString>),
    "Option<T>" => Both(both::<Option<u8>>),
    "PhantomData<T>" => Both(both::<PhantomData<String>>),
    "[T; 0]" => Both(both::<[u8; 0]>),
    "[T; 1..=32]" => Both(both::<([u8; 1], [String; 3], [bool; 32])>),
    "[T]" => Written(|| written::<&'static [u16]>(&[&[], &[1, 65535]])),
    "BinaryHeap<T>" => Both(both::<BinaryHeap<u8>>),
    "BTreeSet<T>" => Both(both::<BTreeSet<i16>>),
    "HashSet<T, H>" => Both(both::<HashSet<String>>),
    "LinkedList<T>" => Both(both::<LinkedList<u8>>),
    "Vec<T>" => Both(both::<Vec<String>>),
    "VecDeque<T>" => Both(both::<VecDeque<u32>>),
    "Range<Idx>" => Both(both::<Range<u32>>),
    "RangeFrom<Idx>" => Both(both::<RangeFrom<i64>>),
    "RangeInclusive<Idx>" => Both(both::<RangeInclusive<i8>>),
    "RangeTo<Idx>" => Both(both::<RangeTo<u16>>),
    "Bound<T>" => Both(both::<Bound<u16>>),
    "()" => Both(both::<()>),
    "!" => OutOfScope("behind serde's `unstable` feature and the nightly `never_type`: no value exists"),
    "(T,)" => Both(both::<(u8,)>),
    "(T0, …, T15), 2 to 16 items" => Both(both::<(
        (u8, String),
        (bool, u8, u16, u32, i8, i16, i32, i64, char),
        Opaque<(u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, String)>,
    )>),
    "BTreeMap<K, V>" => Both(both::<BTreeMap<String, u8>>),
    "HashMap<K, V, H>" => Both(both::<HashMap<u16, bool>>),
    "&'a T" => Written(|| written::<&'static u8>(&[&0, &255])),
    "&'a mut T" => Written(|| {
        let value: &'static mut Vec<u8> = Box::leak(Box::new(vec![1, 2]));
        written::<&'static mut Vec<u8>>(&[value])
    }),
    "Box<T>" => Both(both::<(Box<u8>, Box<str>, Box<[u16]>, Box<CStr>, Box<Path>, Box<OsStr>)>),
    "Rc<T>" => Both(both::<(Rc<u8>, Rc<str>, Rc<[bool]>)>),
    "Arc<T>" => Both(both::<(Arc<String>, Arc<str>)>),
    "Cow<'a, T>" => Both(both::<(std::borrow::Cow<'static, str>, std::borrow::Cow<'static, [u8]>)>),
    "RcWeak<T>" => Both(both::<std::rc::Weak<u8>>),
    "ArcWeak<T>" => Both(both::<std::sync::Weak<String>>),
    "NonZeroI8" => Both(both::<NonZeroI8>),
    "NonZeroI16" => Both(both::<NonZeroI16>),
    "NonZeroI32" => Both(both::<NonZeroI32>),
    "NonZeroI64" => Both(both::<NonZeroI64>),
    "NonZeroI128" => Both(both::<NonZeroI128>),
    "NonZeroIsize" => Both(both::<NonZeroIsize>),
    "NonZeroU8" => Both(both::<NonZeroU8>),
    "NonZeroU16" => Both(both::<NonZeroU16>),
    "NonZeroU32" => Both(both::<NonZeroU32>),
    "NonZeroU64" => Both(both::<NonZeroU64>),
    "NonZeroU128" => Both(both::<NonZeroU128>),
    "NonZeroUsize" => Both(both::<NonZeroUsize>),
    "Cell<T>" => Both(both::<Cell<u8>>),
    "RefCell<T>" => Both(both::<RefCell<String>>),
    "Mutex<T>" => Both(both::<Mutex<Option<u8>>>),
    "RwLock<T>" => Both(both::<RwLock<Vec<u8>>>),
    "Result<T, E>" => Both(both::<Result<u8, String>>),
    "Duration" => Both(both::<Duration>),
    "SystemTime" => Both(both::<SystemTime>),
    "net::IpAddr" => Both(both::<IpAddr>),
    "net::Ipv4Addr" => Both(both::<Ipv4Addr>),
    "net::Ipv6Addr" => Both(both::<Ipv6Addr>),
    "net::SocketAddr" => Both(both::<SocketAddr>),
    "net::SocketAddrV4" => Both(both::<SocketAddrV4>),
    "net::SocketAddrV6" => Both(both::<SocketAddrV6>),
    "Path" => Written(|| written::<&'static Path>(&[Path::new(""), Path::new("/tmp/a b")])),
    "PathBuf" => Both(both::<PathBuf>),
    "OsStr" => Written(|| written::<&'static OsStr>(&[OsStr::new(""), OsStr::new("é")])),
    "OsString" => Both(both::<OsString>),
    "Wrapping<T>" => Both(both::<Wrapping<i32>>),
    "Saturating<T>" => Both(both::<Saturating<u8>>),
    "Reverse<T>" => Both(both::<Reverse<u64>>),
    "AtomicBool" => Both(both::<AtomicBool>),
    "AtomicI8" => Both(both::<AtomicI8>),
    "AtomicI16" => Both(both::<AtomicI16>),
    "AtomicI32" => Both(both::<AtomicI32>),
    "AtomicIsize" => Both(both::<AtomicIsize>),
    "AtomicU8" => Both(both::<AtomicU8>),
    "AtomicU16" => Both(both::<AtomicU16>),
    "AtomicU32" => Both(both::<AtomicU32>),
    "AtomicUsize" => Both(both::<AtomicUsize>),
    "AtomicI64" => Both(both::<AtomicI64>),
    "AtomicU64" => Both(both::<AtomicU64>),
    // What only de/impls.rs adds (its borrowed readers and boxed forms).
    "&'a str (read borrowed)" => Written(|| written::<&'static str>(&["borrowed"])),
    "&'a [u8] (read borrowed)" => OutOfScope(
        "serde_json reads a borrowed `&[u8]` only from a string (its raw bytes) while serde \
         writes a `[u8]` as an array of numbers, so no description of one type is both; the \
         description is the array serde writes (`[T]` above), and a payload borrowing bytes \
         cannot use `receive`, which reads owned values (`Vec<u8>` is exact)",
    ),
    "&'a Path (read borrowed)" => Written(|| written::<&'static Path>(&[Path::new("p")])),
    "Box<CStr>, Box<str>, Box<[T]>, Box<Path>, Box<OsStr>" =>
        Both(both::<(Box<CStr>, Box<str>, Box<[u8]>, Box<Path>, Box<OsStr>)>),
}

#[test]
fn every_serde_impl_is_described_or_out_of_scope_with_a_reason() {
    let (mut both_types, mut written_types, mut out) = (0, 0, 0);
    for entry in SERDE_IMPLS {
        match &entry.coverage {
            Coverage::Both(check) => {
                let checked = check();
                assert!(
                    checked >= 3 * super::cases() as usize,
                    "{}: only {checked} checked",
                    entry.ty
                );
                both_types += 1;
            }
            Coverage::Written(check) => {
                assert!(check() > 0, "{}: no value checked", entry.ty);
                written_types += 1;
            }
            Coverage::OutOfScope(reason) => {
                assert!(reason.len() > 40, "{}: the reason must say why", entry.ty);
                out += 1;
            }
        }
    }
    eprintln!(
        "serde {SERDE_READ}: {} implementations listed: {both_types} written and read (fidelity \
         harness), {written_types} written only (sender view and send), {out} out of scope",
        SERDE_IMPLS.len()
    );
    let names: BTreeSet<&str> = SERDE_IMPLS.iter().map(|i| i.ty).collect();
    assert_eq!(names.len(), SERDE_IMPLS.len(), "a type is listed twice");
}

#[test]
fn the_table_was_read_from_the_locked_serde() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
        .expect("the workspace's Cargo.lock");
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"serde_core\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .map(|v| v.trim_end_matches('"'))
        .expect("serde_core in Cargo.lock");
    assert_eq!(
        locked, SERDE_READ,
        "serde_core is now {locked}: read its ser/impls.rs and de/impls.rs again, update \
         SERDE_IMPLS for what changed, then SERDE_READ"
    );
}
