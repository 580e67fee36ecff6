//! Map keys: the `propertyNames` of a map, as serde_json writes and reads its keys.
//!
//! Keys are strings on the wire: an integer or `bool` key is written as its digits or
//! `true`/`false` (an integer key of a small constrained set lists its keys; any other is
//! the pattern of the canonical digits of its kind's range, or of its set's ranges), a string
//! enum's key is one of its names, an untagged variant's key is its content's key, and
//! serde_json refuses every other value as a key.

use serde_json::{json, Map, Value};

use crate::model::{Body, Constraint, EnumDef, IntRange, Repr, StringFormat, Type, VariantDefKind};

use super::digits;
use super::exporter::Exporter;
use super::keywords::{constrained_schema, either, obj, string_schema};

/// How deep a key type's schema follows untagged enums before it takes any string.
const MAX_KEY_DEPTH: usize = 8;

/// The most integers a constrained map key lists as its keys (`enum` of their digits);
/// a larger set is the pattern of its ranges.
const MAX_KEY_ENUM: u128 = 64;

impl Exporter<'_> {
    /// What a map key of this type looks like as a JSON object key; `None` for any string.
    ///
    /// Keys are strings on the wire: serde_json writes an integer, a `bool` or a newtype of
    /// one as its digits or `true`/`false`, an enum's unit variant as its name and an untagged
    /// variant as its content's key, and refuses every other value as a key; it reads a key
    /// into a type that reads a string (an integer or `bool` parses it), and an untagged
    /// variant only from the string it buffers, which no integer reads.
    pub(super) fn key_schema(&self, key: &Type) -> Option<Map<String, Value>> {
        self.key_schema_at(key, 0)
    }

    fn key_schema_at(&self, key: &Type, depth: usize) -> Option<Map<String, Value>> {
        if depth > MAX_KEY_DEPTH {
            // A key type nested this deep through untagged enums: any string (looser).
            return None;
        }
        match self.schema.resolve(key) {
            Type::String(StringFormat::Plain) | Type::Any | Type::Float(_) => None,
            Type::String(fmt) => Some(string_schema(*fmt)),
            Type::Constrained(c) => match &**c {
                Constraint::String(_) => Some(constrained_schema(c)),
                // A small finite set is its keys; otherwise the pattern of its ranges.
                Constraint::Int { values, .. } => match values.small_finite(MAX_KEY_ENUM) {
                    Some(values) => {
                        let keys: Vec<Value> = values
                            .iter()
                            .map(|v| Value::String(v.to_string()))
                            .collect();
                        Some(obj(json!({ "enum": keys })))
                    }
                    None => Some(obj(json!({ "pattern": digits::pattern(values.ranges()) }))),
                },
            },
            Type::Char => Some(obj(json!({ "minLength": 1, "maxLength": 1 }))),
            Type::Bool => Some(obj(json!({ "enum": ["true", "false"] }))),
            // The canonical digits of the kind's range, exactly: serde_json parses the key
            // into the kind and refuses what it does not hold.
            Type::Int(k) => Some(obj(json!({
                "pattern": digits::pattern(&[IntRange::all_of(*k)]),
            }))),
            named @ Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                Some(Body::Enum(def)) if !def.is_string_enum() => {
                    Some(self.enum_key_schema(def, depth))
                }
                _ => Some(self.ty(named)),
            },
            other => Some(self.ty(other)),
        }
    }

    /// The keys of an enum that is not a string enum: the names of its unit variants when
    /// externally tagged (a catch-all reads any other string), the keys of its newtype
    /// variants' contents when untagged (the receiver reads only those whose content reads a
    /// string), none in the tagged representations.
    fn enum_key_schema(&self, def: &EnumDef, depth: usize) -> Map<String, Value> {
        // serde buffers the key as a string and tries the tagged variants, then the
        // untagged ones: a key of either part.
        if let Some((tagged, untagged)) = def.split_untagged() {
            return either(
                self.enum_key_schema(&tagged, depth),
                self.enum_key_schema(&untagged, depth),
            );
        }
        let none = || obj(json!({ "not": {} }));
        match def.repr {
            Repr::External => {
                if self.receiver() && def.catch_all().is_some() {
                    return obj(json!({ "type": "string" }));
                }
                let names: Vec<&String> = def
                    .variants
                    .iter()
                    .filter(|v| matches!(v.kind, VariantDefKind::Unit))
                    .flat_map(|v| self.tags(v))
                    .collect();
                if names.is_empty() {
                    return none();
                }
                obj(json!({ "enum": names }))
            }
            Repr::Untagged => {
                let mut alternatives = Vec::new();
                for variant in &def.variants {
                    let VariantDefKind::Newtype(content) = &variant.kind else {
                        continue;
                    };
                    if self.tags(variant).is_empty()
                        || (self.receiver() && !self.schema.reads_buffered_string(content))
                    {
                        continue;
                    }
                    match self.key_schema_at(content, depth + 1) {
                        None => return obj(json!({ "type": "string" })),
                        Some(schema) => alternatives.push(Value::Object(schema)),
                    }
                }
                match alternatives.len() {
                    0 => none(),
                    1 => match alternatives.pop() {
                        Some(Value::Object(one)) => one,
                        _ => none(),
                    },
                    _ => obj(json!({ "anyOf": alternatives })),
                }
            }
            Repr::Internal { .. } | Repr::Adjacent { .. } => none(),
        }
    }
}
