//! Which integers of a contract a peer that reads A2A's `data` as a protobuf `Value` may
//! round: those whose range reaches beyond ±2^53, the integers a double holds exactly.

use std::any::TypeId;
use std::collections::BTreeSet;
use std::sync::{OnceLock, PoisonError, RwLock};

use rustc_hash::FxHashMap;

use contract_schema::constraint::{Constraint, IntValue};
use contract_schema::model::{Body, StructDef, Type, VariantDefKind};
use contract_schema::Schema;

use crate::runtime::schema_for;
use crate::traits::HandoffSchema;

/// 2^53: every integer of at most this magnitude is a double, exactly.
const EXACT: i128 = 1 << 53;

/// The sender-view paths of `T`'s integers whose range reaches beyond ±2^53 (`amount`,
/// `lines[].id`, `totals.*`, `kind(Refund).cents`), found once per type.
pub(crate) fn inexact_integers<T: HandoffSchema + ?Sized + 'static>() -> &'static [String] {
    static CACHE: OnceLock<RwLock<FxHashMap<TypeId, &'static [String]>>> = OnceLock::new();
    let cache = CACHE.get_or_init(RwLock::default);
    let key = TypeId::of::<T>();
    if let Some(found) = cache
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return found;
    }
    let found: &'static [String] = Box::leak(paths(schema_for::<T>()).into_boxed_slice());
    cache
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key)
        .or_insert(found)
}

/// The paths of a schema's inexact integers, each named type walked once (a recursive
/// type's inner repetitions are the same fields).
pub(crate) fn paths(schema: &Schema) -> Vec<String> {
    let mut walk = Walk {
        schema,
        seen: BTreeSet::new(),
        found: Vec::new(),
    };
    walk.ty(&schema.root, String::new());
    walk.found
}

struct Walk<'s> {
    schema: &'s Schema,
    seen: BTreeSet<&'s str>,
    found: Vec<String>,
}

/// Whether integers of `kind` within `min ..= max` may lie beyond ±2^53.
fn beyond(min: IntValue, max: IntValue) -> bool {
    min < IntValue::from_i128(-EXACT) || max > IntValue::from_i128(EXACT)
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

impl<'s> Walk<'s> {
    fn ty(&mut self, ty: &'s Type, path: String) {
        match ty {
            Type::Int(kind) => {
                if beyond(IntValue::min_of(*kind), IntValue::max_of(*kind)) {
                    self.found.push(path);
                }
            }
            Type::Constrained(constraint) => {
                if let Constraint::Int { values, .. } = &**constraint {
                    let ranges = values.ranges();
                    if let (Some(first), Some(last)) = (ranges.first(), ranges.last()) {
                        if beyond(first.min, last.max) {
                            self.found.push(path);
                        }
                    }
                }
            }
            Type::Option(inner) => self.ty(inner, path),
            Type::List(inner) | Type::Set(inner) | Type::Array(inner, _) => {
                self.ty(inner, format!("{path}[]"));
            }
            Type::Map(_, value) => self.ty(value, join(&path, "*")),
            Type::Tuple(items) => {
                for item in items {
                    self.ty(item, format!("{path}[]"));
                }
            }
            Type::Named(name) => {
                let Some(def) = self.schema.types.get(name) else {
                    return;
                };
                if !self.seen.insert(name) {
                    return;
                }
                match &def.body {
                    Body::Struct(def) => self.fields(def, &path),
                    Body::Newtype(inner) => self.ty(inner, path),
                    Body::Views { sender, .. } => self.ty(sender, path),
                    Body::Enum(def) => {
                        for variant in &def.variants {
                            let Some(tag) = &variant.sender else { continue };
                            let at = format!("{path}({tag})");
                            match &variant.kind {
                                VariantDefKind::Unit => {}
                                VariantDefKind::Newtype(inner) => self.ty(inner, at),
                                VariantDefKind::Tuple(items) => {
                                    for item in items {
                                        self.ty(item, format!("{at}[]"));
                                    }
                                }
                                VariantDefKind::Struct(def) => self.fields(def, &at),
                            }
                        }
                    }
                }
            }
            Type::Unit | Type::Bool | Type::Float(_) | Type::Char | Type::String(_) | Type::Any => {
            }
        }
    }

    fn fields(&mut self, def: &'s StructDef, path: &str) {
        for field in &def.fields {
            if let Some(sender) = &field.sender {
                self.ty(&field.ty, join(path, &sender.name));
            }
        }
        for flat in &def.flattened {
            if flat.sent {
                self.ty(&flat.ty, path.to_owned());
            }
        }
        if let Some(extra) = &def.extra {
            self.ty(extra, join(path, "*"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{beyond, IntValue};
    use contract_schema::model::IntKind;

    #[test]
    fn integers_up_to_two_to_the_53_are_exact() {
        let exact = 1i128 << 53;
        assert!(!beyond(
            IntValue::from_i128(-exact),
            IntValue::from_i128(exact)
        ));
        assert!(beyond(
            IntValue::from_i128(0),
            IntValue::from_i128(exact + 1)
        ));
        assert!(beyond(
            IntValue::from_i128(-exact - 1),
            IntValue::from_i128(0)
        ));
        assert!(!beyond(
            IntValue::min_of(IntKind::U32),
            IntValue::max_of(IntKind::U32)
        ));
        assert!(beyond(
            IntValue::min_of(IntKind::I64),
            IntValue::max_of(IntKind::I64)
        ));
    }
}
