//! `HandoffSchema` for the standard types serde supports, as serde writes them.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use contract_schema::shape::{
    ConstraintShape, EnumShape, Field, FloatKind, IntKind, IntRange, IntValue, Kind, Repr,
    SeqShape, Shape, StringFormat, StructShape, Variant, VariantKind,
};

use crate::traits::{shape_of, HandoffSchema};

macro_rules! builtin {
    ($($ty:ty => $kind:expr;)*) => {
        $(impl HandoffSchema for $ty {
            const SHAPE: &'static Shape = &Shape::builtin($kind);
        })*
    };
}

builtin! {
    () => Kind::Unit;
    bool => Kind::Bool;
    u8 => Kind::Int(IntKind::U8);
    u16 => Kind::Int(IntKind::U16);
    u32 => Kind::Int(IntKind::U32);
    u64 => Kind::Int(IntKind::U64);
    u128 => Kind::Int(IntKind::U128);
    i8 => Kind::Int(IntKind::I8);
    i16 => Kind::Int(IntKind::I16);
    i32 => Kind::Int(IntKind::I32);
    i64 => Kind::Int(IntKind::I64);
    i128 => Kind::Int(IntKind::I128);
    f32 => Kind::Float(FloatKind::F32);
    f64 => Kind::Float(FloatKind::F64);
    char => Kind::Char;
    str => Kind::String(StringFormat::Plain);
    String => Kind::String(StringFormat::Plain);
    serde_json::Value => Kind::Any;
    serde_json::Map<String, serde_json::Value> => Kind::Map {
        key: shape_of::<String>,
        value: shape_of::<serde_json::Value>,
    };
}

// `usize`/`isize` are 64-bit on every target this crate is tested on; describe them by their
// actual width so the schema is exact on the machine that compiled it.
impl HandoffSchema for usize {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Int(if usize::BITS == 64 {
        IntKind::U64
    } else if usize::BITS == 32 {
        IntKind::U32
    } else {
        IntKind::U16
    }));
}

impl HandoffSchema for isize {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Int(if isize::BITS == 64 {
        IntKind::I64
    } else if isize::BITS == 32 {
        IntKind::I32
    } else {
        IntKind::I16
    }));
}

impl<T: HandoffSchema> HandoffSchema for Option<T> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Option(shape_of::<T>));
}

macro_rules! seq {
    ($unique:expr => $($ty:ident $(: $bound:path)?),*) => {
        $(impl<T: HandoffSchema $(+ $bound)?> HandoffSchema for $ty<T> {
            const SHAPE: &'static Shape = &Shape::builtin(Kind::Seq(SeqShape {
                item: shape_of::<T>,
                unique: $unique,
                len: None,
            }));
        })*
    };
}

seq!(false => Vec, VecDeque, LinkedList, BinaryHeap);
seq!(true => BTreeSet);

impl<T: HandoffSchema> HandoffSchema for [T] {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Seq(SeqShape {
        item: shape_of::<T>,
        unique: false,
        len: None,
    }));
}

impl<T: HandoffSchema, S> HandoffSchema for HashSet<T, S> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Seq(SeqShape {
        item: shape_of::<T>,
        unique: true,
        len: None,
    }));
}

impl<T: HandoffSchema, const N: usize> HandoffSchema for [T; N] {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Seq(SeqShape {
        item: shape_of::<T>,
        unique: false,
        len: Some(N),
    }));
}

impl<K: HandoffSchema, V: HandoffSchema, S> HandoffSchema for HashMap<K, V, S> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Map {
        key: shape_of::<K>,
        value: shape_of::<V>,
    });
}

impl<K: HandoffSchema, V: HandoffSchema> HandoffSchema for BTreeMap<K, V> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Map {
        key: shape_of::<K>,
        value: shape_of::<V>,
    });
}

macro_rules! transparent {
    ($($ty:ident),*) => {
        $(impl<T: HandoffSchema + ?Sized> HandoffSchema for $ty<T> {
            const SHAPE: &'static Shape = T::SHAPE;
        })*
    };
}

transparent!(Box, Rc, Arc);

// serde writes and reads these as their inner value alone (a `RefCell` or a lock fails to
// write while it is borrowed mutably or poisoned: an error, never another form).
macro_rules! inner_value {
    ($($ty:ty),*) => {
        $(impl<T: HandoffSchema> HandoffSchema for $ty {
            const SHAPE: &'static Shape = T::SHAPE;
        })*
    };
}

inner_value!(
    std::num::Wrapping<T>,
    std::cmp::Reverse<T>,
    std::cell::RefCell<T>,
    std::sync::Mutex<T>,
    std::sync::RwLock<T>
);

/// Written as its integer. serde reads any integer of JSON into a `Saturating` of a
/// primitive integer, clamping it to the type's range (`300` reads as `255` for a `u8`): the
/// description is what serde writes, the integer's own range, and a receiver is stricter
/// than serde on the values beyond it (documented in `contract_schema::json_schema`, pinned
/// in the strictness tests); `receive` takes the same position (its fast path checks an
/// integer against its kind on the way).
impl<T: HandoffSchema> HandoffSchema for std::num::Saturating<T> {
    const SHAPE: &'static Shape = T::SHAPE;
}

impl<T: HandoffSchema + Copy> HandoffSchema for std::cell::Cell<T> {
    const SHAPE: &'static Shape = T::SHAPE;
}

// Atomics are their value: serde writes what a `SeqCst` load reads and reads the primitive.
macro_rules! atomic {
    ($($ty:ident => $inner:ty;)*) => {
        $(impl HandoffSchema for std::sync::atomic::$ty {
            const SHAPE: &'static Shape = <$inner as HandoffSchema>::SHAPE;
        })*
    };
}

atomic! {
    AtomicBool => bool;
    AtomicI8 => i8;
    AtomicI16 => i16;
    AtomicI32 => i32;
    AtomicI64 => i64;
    AtomicIsize => isize;
    AtomicU8 => u8;
    AtomicU16 => u16;
    AtomicU32 => u32;
    AtomicU64 => u64;
    AtomicUsize => usize;
}

/// A weak pointer is an `Option` on the wire: serde writes the value when it can still
/// upgrade the pointer and `null` when it cannot, and reads an `Option` (a missing field
/// included, as for an `Option`), then drops it: what it returns never upgrades.
impl<T: HandoffSchema> HandoffSchema for std::rc::Weak<T> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Option(shape_of::<T>));
}

/// Written like [`std::rc::Weak`].
impl<T: HandoffSchema> HandoffSchema for std::sync::Weak<T> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Option(shape_of::<T>));
}

// `NonZero*` are their integer without 0: serde reads the integer, then refuses 0.
macro_rules! non_zero {
    ($($ty:ident => $kind:expr;)*) => {
        $(impl HandoffSchema for std::num::$ty {
            const SHAPE: &'static Shape = &Shape::builtin(Kind::Constrained(
                &ConstraintShape::Int {
                    kind: $kind,
                    ranges: &non_zero_ranges($kind),
                },
            ));
        })*
    };
}

/// Every value of `kind` but 0: from 1 for an unsigned kind; below and above 0 for a
/// signed one (its second range is then empty and dropped when the schema is built).
const fn non_zero_ranges(kind: IntKind) -> [IntRange; 2] {
    let negative = if kind.min() < 0 {
        IntRange::new(IntValue::min_of(kind), IntValue::from_i128(-1))
    } else {
        IntRange::new(IntValue::from_u128(1), IntValue::ZERO)
    };
    [
        negative,
        IntRange::new(IntValue::from_u128(1), IntValue::max_of(kind)),
    ]
}

/// The kind of `usize`/`isize` on this target (as their own impls describe them).
const fn pointer_width(signed: bool) -> IntKind {
    match (usize::BITS, signed) {
        (64, false) => IntKind::U64,
        (64, true) => IntKind::I64,
        (32, false) => IntKind::U32,
        (32, true) => IntKind::I32,
        (_, false) => IntKind::U16,
        (_, true) => IntKind::I16,
    }
}

non_zero! {
    NonZeroU8 => IntKind::U8;
    NonZeroU16 => IntKind::U16;
    NonZeroU32 => IntKind::U32;
    NonZeroU64 => IntKind::U64;
    NonZeroU128 => IntKind::U128;
    NonZeroUsize => pointer_width(false);
    NonZeroI8 => IntKind::I8;
    NonZeroI16 => IntKind::I16;
    NonZeroI32 => IntKind::I32;
    NonZeroI64 => IntKind::I64;
    NonZeroI128 => IntKind::I128;
    NonZeroIsize => pointer_width(true);
}

// Addresses are strings in human-readable formats such as JSON.
macro_rules! addresses {
    ($($ty:ident => $format:ident;)*) => {
        $(impl HandoffSchema for std::net::$ty {
            const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::$format));
        })*
    };
}

addresses! {
    Ipv4Addr => Ipv4;
    Ipv6Addr => Ipv6;
    IpAddr => Ip;
    SocketAddrV4 => SocketAddrV4;
    SocketAddrV6 => SocketAddrV6;
    SocketAddr => SocketAddr;
}

// A path is a string on the wire (serde fails to write one that is not UTF-8).
impl HandoffSchema for std::path::Path {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Plain));
}

impl HandoffSchema for std::path::PathBuf {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Plain));
}

/// `PhantomData` is a unit struct to serde: `null`, required like any unit struct. Its
/// parameter need not describe itself.
impl<T: ?Sized> HandoffSchema for std::marker::PhantomData<T> {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Unit);
}

/// `{"Ok": T}` or `{"Err": E}`: an externally tagged enum.
impl<T: HandoffSchema, E: HandoffSchema> HandoffSchema for Result<T, E> {
    const SHAPE: &'static Shape = &Shape {
        name: "Result",
        module: "core::result",
        generics: &[shape_of::<T>, shape_of::<E>],
        doc: "",
        kind: Kind::Enum(&EnumShape {
            repr: Repr::External,
            variants: &[
                Variant::new("Ok", VariantKind::Newtype(shape_of::<T>)),
                Variant::new("Err", VariantKind::Newtype(shape_of::<E>)),
            ],
            deny_unknown_fields: false,
        }),
    };
}

/// `"Unbounded"`, `{"Included": T}` or `{"Excluded": T}`.
impl<T: HandoffSchema> HandoffSchema for std::ops::Bound<T> {
    const SHAPE: &'static Shape = &Shape {
        name: "Bound",
        module: "core::ops",
        generics: &[shape_of::<T>],
        doc: "",
        kind: Kind::Enum(&EnumShape {
            repr: Repr::External,
            variants: &[
                Variant::new("Unbounded", VariantKind::Unit),
                Variant::new("Included", VariantKind::Newtype(shape_of::<T>)),
                Variant::new("Excluded", VariantKind::Newtype(shape_of::<T>)),
            ],
            deny_unknown_fields: false,
        }),
    };
}

// Ranges are structs of their bounds; serde rejects any other field.
macro_rules! range {
    ($($ty:ident: $($field:literal),+;)*) => {
        $(impl<Idx: HandoffSchema> HandoffSchema for std::ops::$ty<Idx> {
            const SHAPE: &'static Shape = &Shape {
                name: stringify!($ty),
                module: "core::ops",
                generics: &[shape_of::<Idx>],
                doc: "",
                kind: Kind::Struct(&StructShape {
                    fields: &[$(Field::new($field, shape_of::<Idx>)),+],
                    deny_unknown_fields: true,
                }),
            };
        })*
    };
}

range! {
    Range: "start", "end";
    RangeInclusive: "start", "end";
    RangeFrom: "start";
    RangeTo: "end";
}

/// The nanoseconds of a `Duration` or `SystemTime` as serde writes them:
/// `subsec_nanos`, below 10⁹.
const SUBSEC_NANOS: &Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
    kind: IntKind::U32,
    ranges: &[IntRange::new(
        IntValue::ZERO,
        IntValue::from_u128(999_999_999),
    )],
}));

fn subsec_nanos() -> &'static Shape {
    SUBSEC_NANOS
}

/// `{"secs": u64, "nanos": u32(..=999999999)}`, no other key (serde refuses unknown fields).
///
/// What the description cannot say exactly: serde writes `nanos` below 10⁹
/// (`subsec_nanos`), but reads any `u32`, carrying whole seconds into `secs`, and refuses
/// the pair when that carry overflows `secs` — a condition across two fields. The
/// description takes the form serde writes, `nanos` below 10⁹, for both views: a receiver
/// is stricter than serde on `nanos` of 10⁹ or more (documented, pinned), and within that
/// form no carry can overflow, so nothing else is looser. serde also reads a
/// `[secs, nanos]` array (a struct as an array, refused like any other).
impl HandoffSchema for std::time::Duration {
    const SHAPE: &'static Shape = &Shape {
        name: "Duration",
        module: "core::time",
        generics: &[],
        doc: "",
        kind: Kind::Struct(&StructShape {
            fields: &[
                Field::new("secs", shape_of::<u64>),
                Field::new("nanos", subsec_nanos),
            ],
            deny_unknown_fields: true,
        }),
    };
}

/// The largest `secs_since_epoch` serde reads on this platform: `UNIX_EPOCH` plus the
/// duration must be a `SystemTime`, whose seconds are an `i64` on Unix, so a time after
/// the epoch has at most `i64::MAX` of them. Elsewhere the bound differs (Windows counts
/// 100 ns ticks from 1601) and is not described: `u64`.
#[cfg(unix)]
const SYSTEM_TIME_SECS: &Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
    kind: IntKind::U64,
    ranges: &[IntRange::new(
        IntValue::ZERO,
        IntValue::from_i128(i64::MAX as i128),
    )],
}));
#[cfg(not(unix))]
const SYSTEM_TIME_SECS: &Shape = <u64 as HandoffSchema>::SHAPE;

fn system_time_secs() -> &'static Shape {
    SYSTEM_TIME_SECS
}

/// `{"secs_since_epoch": u64(..=9223372036854775807), "nanos_since_epoch":
/// u32(..=999999999)}` since `UNIX_EPOCH`, no other key.
///
/// serde fails to write a time before the epoch; it reads the pair as a `Duration` (the
/// same carry out of `nanos_since_epoch`, described as for `Duration`), then refuses a
/// duration `UNIX_EPOCH` cannot be moved by. That bound is platform-dependent: on Unix a
/// `SystemTime` holds `i64` seconds, described as the set of `secs_since_epoch`; on other
/// platforms `secs_since_epoch` is described as `u64`, looser than serde there.
impl HandoffSchema for std::time::SystemTime {
    const SHAPE: &'static Shape = &Shape {
        name: "SystemTime",
        module: "std::time",
        generics: &[],
        doc: "",
        kind: Kind::Struct(&StructShape {
            fields: &[
                Field::new("secs_since_epoch", system_time_secs),
                Field::new("nanos_since_epoch", subsec_nanos),
            ],
            deny_unknown_fields: true,
        }),
    };
}

/// A `u8` but 0: a byte of a C string.
const C_BYTE: &Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
    kind: IntKind::U8,
    ranges: &[IntRange::new(
        IntValue::from_u128(1),
        IntValue::from_u128(255),
    )],
}));

fn c_byte() -> &'static Shape {
    C_BYTE
}

/// The bytes of a C string without its terminator, as serde writes them through
/// `serialize_bytes`: an array of nonzero `u8`s in JSON. serde_json also reads a string
/// (its raw bytes) into a `CString`; the description is the array serde writes, and a
/// receiver is stricter on the string form.
const C_STRING: &Shape = &Shape::builtin(Kind::Seq(SeqShape {
    item: c_byte,
    unique: false,
    len: None,
}));

impl HandoffSchema for std::ffi::CString {
    const SHAPE: &'static Shape = C_STRING;
}

/// Written like a `CString` (serde reads a `Box<CStr>`, never a `&CStr`).
impl HandoffSchema for std::ffi::CStr {
    const SHAPE: &'static Shape = C_STRING;
}

/// An OS string is platform-dependent on the wire: serde writes `{"Unix": [bytes]}` on Unix
/// and `{"Windows": [UTF-16 units]}` on Windows, and each platform refuses the other's form.
/// The description is this platform's: one externally tagged variant.
#[cfg(unix)]
const OS_STRING_VARIANTS: &[Variant] = &[Variant::new(
    "Unix",
    VariantKind::Newtype(shape_of::<Vec<u8>>),
)];
#[cfg(windows)]
const OS_STRING_VARIANTS: &[Variant] = &[Variant::new(
    "Windows",
    VariantKind::Newtype(shape_of::<Vec<u16>>),
)];

#[cfg(any(unix, windows))]
const OS_STRING: &Shape = &Shape {
    name: "OsString",
    module: "std::ffi",
    generics: &[],
    doc: "",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::External,
        variants: OS_STRING_VARIANTS,
        deny_unknown_fields: false,
    }),
};

/// This platform's form (see `OS_STRING_VARIANTS`): `{"Unix": [bytes]}` on Unix.
#[cfg(any(unix, windows))]
impl HandoffSchema for std::ffi::OsString {
    const SHAPE: &'static Shape = OS_STRING;
}

/// Written like an `OsString`.
#[cfg(any(unix, windows))]
impl HandoffSchema for std::ffi::OsStr {
    const SHAPE: &'static Shape = OS_STRING;
}

impl<T: HandoffSchema + ?Sized> HandoffSchema for &T {
    const SHAPE: &'static Shape = T::SHAPE;
}

/// Written like `T` (serde writes through the reference; it reads none).
impl<T: HandoffSchema + ?Sized> HandoffSchema for &mut T {
    const SHAPE: &'static Shape = T::SHAPE;
}

impl<B: HandoffSchema + ToOwned + ?Sized> HandoffSchema for Cow<'_, B> {
    const SHAPE: &'static Shape = B::SHAPE;
}

macro_rules! tuple {
    ($($name:ident),+) => {
        impl<$($name: HandoffSchema),+> HandoffSchema for ($($name,)+) {
            const SHAPE: &'static Shape = &Shape::builtin(Kind::Tuple(&[$(shape_of::<$name>),+]));
        }
    };
}

tuple!(A);
tuple!(A, B);
tuple!(A, B, C);
tuple!(A, B, C, D);
tuple!(A, B, C, D, E);
tuple!(A, B, C, D, E, F);
tuple!(A, B, C, D, E, F, G);
tuple!(A, B, C, D, E, F, G, H);
tuple!(A, B, C, D, E, F, G, H, I);
tuple!(A, B, C, D, E, F, G, H, I, J);
tuple!(A, B, C, D, E, F, G, H, I, J, K);
tuple!(A, B, C, D, E, F, G, H, I, J, K, L);
tuple!(A, B, C, D, E, F, G, H, I, J, K, L, M);
tuple!(A, B, C, D, E, F, G, H, I, J, K, L, M, N);
tuple!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
tuple!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);

#[cfg(feature = "uuid")]
impl HandoffSchema for uuid::Uuid {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Uuid));
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::{
        ConstraintShape, EnumShape, HandoffSchema, IntKind, IntRange, IntValue, Kind, Repr, Shape,
        StringFormat, Variant, VariantKind,
    };

    /// A unit variant written as `name` and also read as `long`.
    const fn named(name: &'static str, long: &'static [&'static str]) -> Variant {
        Variant {
            aliases: long,
            ..Variant::new(name, VariantKind::Unit)
        }
    }

    /// A string enum as chrono writes it.
    macro_rules! names {
        ($name:literal, $module:literal, [$($variant:expr,)*] $(,)?) => {
            &Shape {
                name: $name,
                module: $module,
                generics: &[],
                doc: "",
                kind: Kind::Enum(&EnumShape {
                    repr: Repr::External,
                    variants: &[$($variant),*],
                    deny_unknown_fields: false,
                }),
            }
        };
    }

    /// chrono writes a weekday's short name (`"Mon"`) and reads its short or long name
    /// (`"Monday"`) in any ASCII case. Described as a string enum of the short names, each
    /// also read under its long name: exact for the sender; the receiver is stricter than
    /// chrono on the other cases (`"mon"`, `"MONDAY"`), documented in
    /// `contract_schema::json_schema` and pinned.
    impl HandoffSchema for chrono::Weekday {
        const SHAPE: &'static Shape = names!(
            "Weekday",
            "chrono::weekday",
            [
                named("Mon", &["Monday"]),
                named("Tue", &["Tuesday"]),
                named("Wed", &["Wednesday"]),
                named("Thu", &["Thursday"]),
                named("Fri", &["Friday"]),
                named("Sat", &["Saturday"]),
                named("Sun", &["Sunday"]),
            ],
        );
    }

    /// chrono writes a month's full name (`"January"`) and reads its full or three-letter
    /// name (`"Jan"`) in any ASCII case: a string enum of the full names, each also read
    /// under its short name (stricter than chrono on the other cases, as for `Weekday`).
    impl HandoffSchema for chrono::Month {
        const SHAPE: &'static Shape = names!(
            "Month",
            "chrono::month",
            [
                named("January", &["Jan"]),
                named("February", &["Feb"]),
                named("March", &["Mar"]),
                named("April", &["Apr"]),
                named("May", &[]),
                named("June", &["Jun"]),
                named("July", &["Jul"]),
                named("August", &["Aug"]),
                named("September", &["Sep"]),
                named("October", &["Oct"]),
                named("November", &["Nov"]),
                named("December", &["Dec"]),
            ],
        );
    }

    /// `TimeDelta`'s seconds: within `i64::MAX` milliseconds of zero, as `TimeDelta::new`
    /// bounds them, less the extreme second on each side (see the impl).
    const DELTA_SECS: &Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
        kind: IntKind::I64,
        ranges: &[IntRange::new(
            IntValue::from_i128(-(i64::MAX as i128) / 1000),
            IntValue::from_i128(i64::MAX as i128 / 1000 - 1),
        )],
    }));

    /// `TimeDelta`'s nanoseconds, below 10⁹ (chrono reads an `i32` and refuses the others).
    const DELTA_NANOS: &Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
        kind: IntKind::I32,
        ranges: &[IntRange::new(
            IntValue::ZERO,
            IntValue::from_u128(999_999_999),
        )],
    }));

    fn delta_secs() -> &'static Shape {
        DELTA_SECS
    }

    fn delta_nanos() -> &'static Shape {
        DELTA_NANOS
    }

    /// `[secs, nanos]`, the `(i64, i32)` chrono writes: seconds within `i64::MAX`
    /// milliseconds of zero, nanoseconds below 10⁹. At the two extreme seconds
    /// (`-9223372036854776` and `9223372036854775`) chrono also bounds the nanoseconds
    /// (`TimeDelta::new`), a condition across the two items no description here states: the
    /// description leaves those two seconds out, so it is stricter than chrono on the deltas
    /// within a second of `TimeDelta::MIN` and `TimeDelta::MAX`, for the receiver and for
    /// what `send` accepts (documented in `contract_schema::json_schema`, pinned), and never
    /// looser.
    impl HandoffSchema for chrono::TimeDelta {
        const SHAPE: &'static Shape = &Shape {
            name: "TimeDelta",
            module: "chrono::time_delta",
            generics: &[],
            doc: "",
            kind: Kind::Tuple(&[delta_secs, delta_nanos]),
        };
    }

    impl<Tz: chrono::TimeZone> HandoffSchema for chrono::DateTime<Tz> {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::DateTime));
    }

    impl HandoffSchema for chrono::NaiveDateTime {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::NaiveDateTime));
    }

    impl HandoffSchema for chrono::NaiveDate {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Date));
    }

    impl HandoffSchema for chrono::NaiveTime {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Time));
    }
}

/// An absolute URL, written as `Url::as_str` gives it and read by `Url::parse`.
#[cfg(feature = "url")]
impl HandoffSchema for url::Url {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Url));
}

#[cfg(feature = "indexmap")]
mod indexmap_impls {
    use super::{shape_of, HandoffSchema, Kind, SeqShape, Shape};

    /// An object, like `HashMap` (its order is the insertion order, which JSON objects
    /// do not promise).
    impl<K: HandoffSchema, V: HandoffSchema, S> HandoffSchema for indexmap::IndexMap<K, V, S> {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::Map {
            key: shape_of::<K>,
            value: shape_of::<V>,
        });
    }

    /// An array without duplicates, like `HashSet` (indexmap merges repeated items as it
    /// reads them; the receiver refuses them).
    impl<T: HandoffSchema, S> HandoffSchema for indexmap::IndexSet<T, S> {
        const SHAPE: &'static Shape = &Shape::builtin(Kind::Seq(SeqShape {
            item: shape_of::<T>,
            unique: true,
            len: None,
        }));
    }
}

/// The `time` crate's types that its `serde` feature writes without a condition across
/// values: `Time` as `[hour, minute, second, nanosecond]`, `Weekday` as its number from
/// Monday (1 to 7), `Month` as its number (1 to 12), `UtcOffset` as `[hours, minutes,
/// seconds]` and `Duration` as `[seconds, nanoseconds]` (time reads signs that disagree and
/// makes them agree, so no condition across the items refuses a value).
///
/// These are the forms of time's `serde` feature. Its `serde-human-readable` feature, if any
/// crate of the build turns it on (Cargo unifies features), makes them strings instead, and
/// these descriptions wrong: a contract using them should keep a test that pins the form
/// (`serde_json::to_value(Month::May)` is `5`). time's `Date`, `PrimitiveDateTime`,
/// `OffsetDateTime` and `UtcDateTime` are out of scope: their arrays carry a condition
/// across items (a day of the year up to 366 only in a leap year) that a description can
/// state neither exactly nor on the strict side without refusing values time writes;
/// describe such a field with `schema_as`.
#[cfg(feature = "time")]
mod time_impls {
    use super::{ConstraintShape, HandoffSchema, IntKind, IntRange, IntValue, Kind, Shape};

    /// The `kind` integers `min ..= max`.
    macro_rules! ints {
        ($kind:ident, $min:literal, $max:literal) => {
            &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
                kind: IntKind::$kind,
                ranges: &[IntRange::new(
                    IntValue::from_u128($min),
                    IntValue::from_u128($max),
                )],
            }))
        };
    }

    const HOUR: &Shape = ints!(U8, 0, 23);
    const SIXTY: &Shape = ints!(U8, 0, 59);
    const NANOSECOND: &Shape = ints!(U32, 0, 999_999_999);

    fn hour() -> &'static Shape {
        HOUR
    }

    fn sixty() -> &'static Shape {
        SIXTY
    }

    fn nanosecond() -> &'static Shape {
        NANOSECOND
    }

    /// `[hour, minute, second, nanosecond]`, each within its range (`Time::from_hms_nano`).
    impl HandoffSchema for time::Time {
        const SHAPE: &'static Shape = &Shape {
            name: "Time",
            module: "time",
            generics: &[],
            doc: "",
            kind: Kind::Tuple(&[hour, sixty, sixty, nanosecond]),
        };
    }

    /// The `kind` integers `-bound ..= bound`.
    macro_rules! symmetric {
        ($kind:ident, $bound:literal) => {
            &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
                kind: IntKind::$kind,
                ranges: &[IntRange::new(
                    IntValue::from_i128(-$bound),
                    IntValue::from_i128($bound),
                )],
            }))
        };
    }

    const OFFSET_HOURS: &Shape = symmetric!(I8, 25);
    const OFFSET_SIXTY: &Shape = symmetric!(I8, 59);
    const SIGNED_NANOSECONDS: &Shape = symmetric!(I32, 999_999_999);

    fn offset_hours() -> &'static Shape {
        OFFSET_HOURS
    }

    fn offset_sixty() -> &'static Shape {
        OFFSET_SIXTY
    }

    fn signed_nanoseconds() -> &'static Shape {
        SIGNED_NANOSECONDS
    }

    fn seconds() -> &'static Shape {
        <i64 as HandoffSchema>::SHAPE
    }

    /// `[hours, minutes, seconds]` as time writes it (hours within ±25, the others within
    /// ±59). time also reads `[hours]` and `[hours, minutes]`, which the receiver refuses
    /// (documented in `contract_schema::json_schema`, pinned).
    impl HandoffSchema for time::UtcOffset {
        const SHAPE: &'static Shape = &Shape {
            name: "UtcOffset",
            module: "time",
            generics: &[],
            doc: "",
            kind: Kind::Tuple(&[offset_hours, offset_sixty, offset_sixty]),
        };
    }

    /// `[seconds, nanoseconds]`, the nanoseconds within ±999999999.
    impl HandoffSchema for time::Duration {
        const SHAPE: &'static Shape = &Shape {
            name: "Duration",
            module: "time",
            generics: &[],
            doc: "",
            kind: Kind::Tuple(&[seconds, signed_nanoseconds]),
        };
    }

    /// Its number from Monday, 1 to 7.
    impl HandoffSchema for time::Weekday {
        const SHAPE: &'static Shape = &Shape {
            name: "Weekday",
            module: "time",
            generics: &[],
            doc: "",
            kind: ints!(U8, 1, 7).kind,
        };
    }

    /// Its number, 1 to 12.
    impl HandoffSchema for time::Month {
        const SHAPE: &'static Shape = &Shape {
            name: "Month",
            module: "time",
            generics: &[],
            doc: "",
            kind: ints!(U8, 1, 12).kind,
        };
    }
}
