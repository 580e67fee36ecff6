//! The small JSON Schema helpers the exporter builds with (`obj`, `oneOf`, `anyOf`, "at most
//! one of these keys", `required` without repeats, `null` added to a schema) and the keywords
//! of a scalar: integer bounds, string formats, and the values, lengths and patterns of a
//! constrained integer or string.

use std::collections::HashSet;
use std::hash::Hash;

use serde_json::{json, Map, Number, Value};

use crate::constraint::IntRange;
use crate::model::{Constraint, IntKind, IntValue, StringFormat, Type};

/// The annotation on an alias property of the receiver view: the field's own key.
pub(super) const ALIAS_OF: &str = "x-handoff-alias-of";
/// The annotation on the alternative a `#[serde(other)]` variant reads.
pub(super) const CATCH_ALL: &str = "x-handoff-catch-all";
/// The annotation at the root of a contract's export: its id (`refund-request/v2`).
pub(super) const CONTRACT: &str = "x-handoff-contract";
/// The annotation on a struct with flattened enums: each one's Rust field name (`rust`) and
/// type (`type`, a `$ref` to the enum, or its `Option`), in declaration order.
pub(super) const FLATTENED: &str = "x-handoff-flattened";
/// The annotation on a string of a format JSON Schema has no standard name for.
pub(super) const FORMAT: &str = "x-handoff-format";
/// The annotation on an integer whose bounds a JSON number of the export cannot hold
/// (beyond `i64`/`u64`, left out of `minimum`/`maximum`): its values exactly, in the
/// canonical text (`u128(18446744073709551616..)`).
pub(super) const INTEGERS: &str = "x-handoff-integers";
/// The annotation at the root of a contract's export: its compatibility mode.
pub(super) const MODE: &str = "x-handoff-mode";
/// The annotation on a field that is a working assumption.
pub(super) const PROVENANCE: &str = "x-handoff-provenance";
/// The annotation on a field: the names it had in earlier versions.
pub(super) const RENAMED_FROM: &str = "x-handoff-renamed-from";
/// The annotation on a named type (its Rust path) or a field (its Rust name).
pub(super) const RUST: &str = "x-handoff-rust";
/// The annotation at the root of every export: `sender` or `receiver`.
pub(super) const VIEW: &str = "x-handoff-view";

/// Turns a `json!` object literal into its map (anything else is the empty schema).
pub(super) fn obj(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A schema object of these keywords, in this order, their values moved in. `json!` copies
/// a map, an array or a string it is given (it serialises it into a new value): for a
/// struct's `properties` that is a second pass over every field's schema, and a second copy
/// of it alive beside the first, which a struct of many fields pays for in memory traffic.
pub(super) fn keywords<const N: usize>(entries: [(&str, Value); N]) -> Map<String, Value> {
    let mut out = Map::new();
    for (keyword, value) in entries {
        out.insert(keyword.to_owned(), value);
    }
    out
}

/// A struct's properties, listed in the order they were written, as one map: a key listed
/// again keeps its last value, as a map's `insert` would. A map collected from a sorted list
/// is filled in one pass, where inserting each key searches a growing tree: a struct of
/// 10,000 fields would cost more than ten times one of 1,000.
pub(super) fn properties_map(mut entries: Vec<(String, Value)>) -> Map<String, Value> {
    // Stable: a key's values keep the order they were written in.
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut unique: Vec<(String, Value)> = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        match unique.last_mut() {
            Some(last) if last.0 == key => last.1 = value,
            _ => unique.push((key, value)),
        }
    }
    unique.into_iter().collect()
}

/// The names without repeats, first occurrence kept. A key can be required twice when an
/// enclosing internally tagged enum uses the same tag as an inner one, or a field's name (serde
/// then writes the key twice); `required` must not repeat an item. One pass with a set, so a
/// struct of many fields costs no more per field than a small one.
pub(super) fn unique<T: Eq + Hash>(names: Vec<T>) -> Vec<T> {
    let mut seen = HashSet::with_capacity(names.len());
    let first: Vec<bool> = names.iter().map(|name| seen.insert(name)).collect();
    names
        .into_iter()
        .zip(first)
        .filter_map(|(name, first)| first.then_some(name))
        .collect()
}

/// A value of `a` or of `b` (the two parts of an enum with untagged variants): an `anyOf`
/// of both, or the one left when the other admits no value.
pub(super) fn either(a: Map<String, Value>, b: Map<String, Value>) -> Map<String, Value> {
    let nothing = obj(json!({ "not": {} }));
    match (a == nothing, b == nothing) {
        (true, _) => b,
        (false, true) => a,
        (false, false) => keywords([(
            "anyOf",
            Value::Array(vec![Value::Object(a), Value::Object(b)]),
        )]),
    }
}

/// A `oneOf` of the alternatives; no value fits when there are none (no variant is written,
/// or read, in this view).
pub(super) fn one_of(alternatives: Vec<Map<String, Value>>) -> Map<String, Value> {
    if alternatives.is_empty() {
        return obj(json!({ "not": {} }));
    }
    let alternatives: Vec<Value> = alternatives.into_iter().map(Value::Object).collect();
    keywords([("oneOf", Value::Array(alternatives))])
}

/// The keys, all present: `required`, with each key also under `properties` (as `true`, which
/// constrains nothing), since ajv's `strict: true` (`strictRequired`) refuses a `required`
/// whose keys its own schema object does not define.
pub(super) fn required_keys<S: AsRef<str>>(names: &[S]) -> Value {
    let properties: Map<String, Value> = names
        .iter()
        .map(|n| (n.as_ref().to_owned(), Value::Bool(true)))
        .collect();
    let required: Vec<Value> = names.iter().map(|n| n.as_ref().into()).collect();
    Value::Object(keywords([
        ("properties", Value::Object(properties)),
        ("required", Value::Array(required)),
    ]))
}

/// At most one of these keys may be present.
pub(super) fn at_most_one(names: &[&String]) -> Value {
    let mut pairs = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in names.iter().skip(i + 1) {
            pairs.push(required_keys(&[a, b]));
        }
    }
    let any_of = keywords([("anyOf", Value::Array(pairs))]);
    Value::Object(keywords([("not", Value::Object(any_of))]))
}

pub(super) fn int_schema(kind: IntKind) -> Map<String, Value> {
    let mut out = obj(json!({ "type": "integer" }));
    if let Ok(min) = i64::try_from(kind.min()) {
        out.insert("minimum".into(), Value::Number(Number::from(min)));
    }
    if let Ok(max) = u64::try_from(kind.max()) {
        out.insert("maximum".into(), Value::Number(Number::from(max)));
    }
    out
}

/// A JSON number for an integer, when `serde_json` holds it without loss.
pub(super) fn int_value(v: IntValue) -> Option<Value> {
    v.to_i64()
        .map(Number::from)
        .or_else(|| v.to_u64().map(Number::from))
        .map(Value::Number)
}

/// A constrained integer or string.
pub(super) fn constrained_schema(c: &Constraint) -> Map<String, Value> {
    match c {
        Constraint::Int { values, .. } => {
            let ranges = values.ranges();
            let mut out = obj(json!({ "type": "integer" }));
            let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
                // No value at all.
                return obj(json!({ "not": {} }));
            };
            let singles: Option<Vec<Value>> = ranges
                .iter()
                .map(|r| (r.min == r.max).then(|| int_value(r.min)).flatten())
                .collect();
            if let Some(singles) = singles {
                out.insert("enum".into(), Value::Array(singles));
                return out;
            }
            // The hull, bounds beyond what a JSON number holds left out (as for `u128`).
            if let Some(min) = int_value(first.min) {
                out.insert("minimum".into(), min);
            }
            if let Some(max) = int_value(last.max) {
                out.insert("maximum".into(), max);
            }
            if ranges.len() > 1 {
                let gaps = values
                    .single_gaps()
                    .and_then(|gaps| gaps.into_iter().map(int_value).collect::<Option<Vec<_>>>());
                match gaps {
                    Some(gaps) => {
                        out.insert("not".into(), json!({ "enum": gaps }));
                    }
                    None => {
                        let alternatives: Vec<Value> = ranges
                            .iter()
                            .map(|r| {
                                let mut one = Map::new();
                                if let Some(min) = int_value(r.min) {
                                    one.insert("minimum".into(), min);
                                }
                                if let Some(max) = int_value(r.max) {
                                    one.insert("maximum".into(), max);
                                }
                                Value::Object(one)
                            })
                            .collect();
                        out.insert("anyOf".into(), Value::Array(alternatives));
                    }
                }
            }
            if !said_exactly(ranges) {
                let exact = Type::Constrained(Box::new(c.clone())).to_string();
                out.insert(INTEGERS.into(), exact.into());
            }
            out
        }
        Constraint::String(s) => {
            let mut out = string_schema(s.format);
            if s.length.min > 0 {
                out.insert("minLength".into(), s.length.min.into());
            }
            if let Some(max) = s.length.max {
                out.insert("maxLength".into(), max.into());
            }
            if let Some(pattern) = &s.pattern {
                out.insert("pattern".into(), pattern.as_str().into());
            }
            out
        }
    }
}

/// Whether the hull and the ranges written for `ranges` (non-empty, sorted, apart) say
/// them exactly, as the import reads them back: a bound a JSON number cannot hold is left
/// out, which reads as the widest value (`i128`'s least for a minimum; for a maximum `u128`'s
/// greatest from a minimum of 0 or more, `i128`'s greatest otherwise), so only a bound that
/// is that value may be left out.
fn said_exactly(ranges: &[IntRange]) -> bool {
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return true;
    };
    let widest_max = if first.min >= IntValue::ZERO {
        IntValue::max_of(IntKind::U128)
    } else {
        IntValue::max_of(IntKind::I128)
    };
    let held = |v: IntValue| int_value(v).is_some();
    let inner = ranges.windows(2).all(|w| held(w[0].max) && held(w[1].min));
    (held(first.min) || first.min == IntValue::min_of(IntKind::I128))
        && (held(last.max) || last.max == widest_max)
        && inner
}

pub(super) fn string_schema(format: StringFormat) -> Map<String, Value> {
    let mut out = obj(json!({ "type": "string" }));
    match format {
        StringFormat::Plain => {}
        StringFormat::Uuid
        | StringFormat::DateTime
        | StringFormat::Date
        | StringFormat::Ipv4
        | StringFormat::Ipv6
        | StringFormat::Url => {
            if let Some(name) = format.as_str() {
                out.insert("format".into(), name.into());
            }
        }
        // JSON Schema's `date-time` and `time` require an offset these values do not have.
        // JSON Schema has no format for either address family, or for socket addresses.
        StringFormat::NaiveDateTime
        | StringFormat::Time
        | StringFormat::Ip
        | StringFormat::SocketAddrV4
        | StringFormat::SocketAddrV6
        | StringFormat::SocketAddr => {
            if let Some(name) = format.as_str() {
                out.insert(FORMAT.into(), name.into());
            }
        }
    }
    out
}

/// The schema or `null`.
pub(super) fn nullable(mut inner: Map<String, Value>) -> Map<String, Value> {
    const VALUE_KEYWORDS: [&str; 7] = ["enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref"];
    if inner.is_empty() {
        // Any value already includes null.
        return inner;
    }
    let simple = VALUE_KEYWORDS.iter().all(|k| !inner.contains_key(*k));
    if let (true, Some(Value::String(ty))) = (simple, inner.get("type")) {
        if ty == "null" {
            return inner;
        }
        let types = json!([ty, "null"]);
        inner.insert("type".into(), types);
        return inner;
    }
    keywords([(
        "anyOf",
        Value::Array(vec![Value::Object(inner), json!({ "type": "null" })]),
    )])
}
