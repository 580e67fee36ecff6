//! What is built once per type and kept for the life of the process: [`PerType`] caches, the
//! resolved schema of a type, and its [`Plan`].

use std::any::TypeId;
use std::sync::{OnceLock, PoisonError, RwLock};

use contract_schema::Schema;
use rustc_hash::FxHashMap;

use super::compiled::Plan;
use crate::traits::HandoffSchema;

/// A cache of what is built once per type: for the process, and the last few types asked
/// for on each thread (found without a lock).
pub(crate) struct PerType<V: ?Sized + 'static> {
    process: OnceLock<RwLock<FxHashMap<TypeId, &'static V>>>,
    thread: &'static std::thread::LocalKey<Recent<V>>,
}

/// How many types a thread finds without the process-wide lock, per cache. More than one:
/// `receive_handoff` reads three types by turns (the envelope's own fields, the sender's
/// presence, the payload), and with one place each lookup missed, taking the lock and
/// hashing the type id (about 130 instructions, six times per envelope).
pub(crate) const RECENT: usize = 4;

/// The types a thread asked a [`PerType`] for last, the newest first.
pub(crate) type Recent<V> = [std::cell::Cell<Option<(TypeId, &'static V)>>; RECENT];

/// A [`PerType`] cache of `&'static $v`, as a `static` item.
macro_rules! per_type {
    ($v:ty) => {{
        thread_local! {
            static RECENT: $crate::runtime::plan::cache::Recent<$v> =
                const { [const { std::cell::Cell::new(None) }; $crate::runtime::plan::cache::RECENT] };
        }
        $crate::runtime::plan::cache::PerType::<$v>::new(&RECENT)
    }};
}

pub(crate) use per_type;

impl<V: ?Sized + Send + Sync + 'static> PerType<V> {
    pub(crate) const fn new(thread: &'static std::thread::LocalKey<Recent<V>>) -> Self {
        PerType {
            process: OnceLock::new(),
            thread,
        }
    }

    /// What `make` builds for type `id`, built once and kept for the life of the process.
    pub(crate) fn get(&'static self, id: TypeId, make: impl FnOnce() -> Box<V>) -> &'static V {
        self.thread.with(|recent| {
            for place in recent {
                if let Some((seen, value)) = place.get() {
                    if seen == id {
                        return value;
                    }
                }
            }
            let value = self.process_wide(id, make);
            // The newest first; the oldest drops out.
            for at in (1..RECENT).rev() {
                recent[at].set(recent[at - 1].get());
            }
            recent[0].set(Some((id, value)));
            value
        })
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
    static CACHE: PerType<Schema> = per_type!(Schema);
    CACHE.get(TypeId::of::<T>(), || Box::new(T::schema()))
}

/// What the one-pass fast path of `receive` knows of `T` ([`Plan`]), built once per
/// type.
pub(crate) fn fast_plan<T: ?Sized + 'static>(schema: &'static Schema) -> &'static Plan {
    static CACHE: PerType<Plan> = per_type!(Plan);
    CACHE.get(TypeId::of::<T>(), || Box::new(Plan::new(schema)))
}
