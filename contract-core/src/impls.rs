//! `HandoffSchema` for the standard types serde supports, as serde writes them.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use contract_schema::shape::{FloatKind, IntKind, Kind, SeqShape, Shape, StringFormat};

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

impl<T: HandoffSchema + ?Sized> HandoffSchema for &T {
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

#[cfg(feature = "uuid")]
impl HandoffSchema for uuid::Uuid {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Uuid));
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::{HandoffSchema, Kind, Shape, StringFormat};

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
