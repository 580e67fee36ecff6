//! What is built once per type and kept for the life of the process: [`PerType`] caches, the
//! resolved schema of a type, and its [`Plan`].

use std::any::TypeId;
use std::sync::{OnceLock, PoisonError, RwLock};

use contract_schema::Schema;
use rustc_hash::FxHashMap;

use super::compiled::Plan;
use crate::traits::HandoffSchema;

/// A cache of what is built once per type, for the process: a `static` item, read through
/// [`per_type!`], which keeps the last few types asked for on each thread (found without a
/// lock).
///
/// The thread's part is a `thread_local!` of its own, named where it is read, not a field of
/// this item: a field of a `static` holding a lock is not constant, so the compiler could not
/// see which thread-local the field names and called its accessor through a pointer on every
/// lookup.
pub(crate) struct PerType<V: ?Sized + 'static> {
    process: OnceLock<RwLock<FxHashMap<TypeId, &'static V>>>,
}

/// How many types a thread finds without the process-wide lock, per cache. More than one:
/// `receive_handoff` reads three types by turns (the envelope's own fields, the sender's
/// presence, the payload), and with one place each lookup missed, taking the lock and
/// hashing the type id (about 130 instructions, six times per envelope).
pub(crate) const RECENT: usize = 4;

/// The types a thread asked a [`PerType`] for last, the newest first.
pub(crate) type Recent<V> = [std::cell::Cell<Option<(TypeId, &'static V)>>; RECENT];

/// What `$make` (a closure giving a `Box<$v>`) builds for the type id `$id`, built once per
/// type and kept for the life of the process (a [`PerType`] cache of `&'static $v` and the
/// thread's recent lookups, both defined where this is written).
macro_rules! per_type {
    ($v:ty, $id:expr, $make:expr) => {{
        static CACHE: $crate::runtime::plan::cache::PerType<$v> =
            $crate::runtime::plan::cache::PerType::new();
        thread_local! {
            static RECENT: $crate::runtime::plan::cache::Recent<$v> =
                const { [const { std::cell::Cell::new(None) }; $crate::runtime::plan::cache::RECENT] };
        }
        RECENT.with(|recent| CACHE.get(recent, $id, $make))
    }};
}

pub(crate) use per_type;

impl<V: ?Sized + Send + Sync + 'static> PerType<V> {
    pub(crate) const fn new() -> Self {
        PerType {
            process: OnceLock::new(),
        }
    }

    /// What `make` builds for type `id`, found among the thread's `recent` lookups, else
    /// built once and kept for the life of the process.
    #[inline(always)]
    pub(crate) fn get(
        &'static self,
        recent: &Recent<V>,
        id: TypeId,
        make: impl FnOnce() -> Box<V>,
    ) -> &'static V {
        for place in recent {
            if let Some((seen, value)) = place.get() {
                if seen == id {
                    return value;
                }
            }
        }
        self.missed(recent, id, make)
    }

    /// [`PerType::get`] of a type the thread did not ask for lately.
    #[inline(never)]
    fn missed(
        &'static self,
        recent: &Recent<V>,
        id: TypeId,
        make: impl FnOnce() -> Box<V>,
    ) -> &'static V {
        let value = self.process_wide(id, make);
        // The newest first; the oldest drops out.
        for at in (1..RECENT).rev() {
            recent[at].set(recent[at - 1].get());
        }
        recent[0].set(Some((id, value)));
        value
    }

    fn process_wide(&'static self, id: TypeId, make: impl FnOnce() -> Box<V>) -> &'static V {
        let cache = self.process.get_or_init(RwLock::default);
        if let Some(value) = cache
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
        {
            return value;
        }
        let value: &'static V = Box::leak(make());
        cache
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(id)
            .or_insert(value)
    }
}

/// The resolved schema of `T`, computed once per type.
pub(crate) fn schema_of<T: HandoffSchema + ?Sized + 'static>() -> &'static Schema {
    per_type!(Schema, TypeId::of::<T>(), || Box::new(T::schema()))
}

/// What the one-pass fast path of `receive` knows of `T` ([`Plan`]), built once per
/// type.
pub(crate) fn fast_plan<T: ?Sized + 'static>(schema: &'static Schema) -> &'static Plan {
    per_type!(Plan, TypeId::of::<T>(), || Box::new(Plan::new(schema)))
}

/// The schema of `T` ([`schema_of`]) and its [`Plan`] ([`fast_plan`]) together, for the
/// calls that need both: one lookup instead of two.
#[derive(Clone, Copy)]
pub(crate) struct Typed {
    pub(crate) schema: &'static Schema,
    pub(crate) plan: &'static Plan,
}

/// [`Typed`] of `T`, built once per type from [`schema_of`] and [`fast_plan`] (so that both
/// are the same as those give).
#[inline]
pub(crate) fn typed_of<T: HandoffSchema + ?Sized + 'static>() -> Typed {
    *per_type!(Typed, TypeId::of::<T>(), || {
        let schema = schema_of::<T>();
        Box::new(Typed {
            schema,
            plan: fast_plan::<T>(schema),
        })
    })
}
