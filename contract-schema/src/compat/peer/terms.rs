//! A model type said in a peer's terms: a Python annotation as pydantic reads it, a zod
//! schema expression, and a JSON Schema's keywords; and the integer bounds each can state.

use crate::constraint::{IntRange, IntSet, IntValue};
use crate::model::{Body, Constraint, Schema, StringConstraint, Type};
use crate::scalar::StringFormat;

/// How deep a type is written out before the rest is `…` (a hint stays one line).
const MAX_DEPTH: usize = 4;

/// The largest integer a JavaScript number holds exactly, `2^53 - 1`: zod's `.int()` keeps
/// to `±` it (and writes it as its bounds).
pub(super) const MAX_SAFE: i128 = 9_007_199_254_740_991;

/// The Python annotation pydantic reads `ty` from (`int`, `Optional[str]`, `list[Line]`).
pub(super) fn python(schema: &Schema, ty: &Type) -> String {
    python_at(schema, ty, 0)
}

fn python_at(schema: &Schema, ty: &Type, depth: usize) -> String {
    if depth >= MAX_DEPTH {
        return "…".to_owned();
    }
    let inner = |t: &Type| python_at(schema, t, depth + 1);
    match ty {
        Type::Unit => "None".to_owned(),
        Type::Bool => "bool".to_owned(),
        Type::Int(_) => "int".to_owned(),
        Type::Float(_) => "float".to_owned(),
        Type::Char => "str".to_owned(),
        Type::String(format) => python_string(*format).to_owned(),
        Type::Any => "Any".to_owned(),
        Type::Option(t) => format!("Optional[{}]", inner(t)),
        Type::List(t) => format!("list[{}]", inner(t)),
        Type::Set(t) => format!("set[{}]", inner(t)),
        Type::Array(t, n) => format!("tuple[{}]", vec![inner(t); *n].join(", ")),
        Type::Tuple(items) => {
            format!(
                "tuple[{}]",
                items.iter().map(inner).collect::<Vec<_>>().join(", ")
            )
        }
        Type::Map(k, v) => format!("dict[{}, {}]", inner(k), inner(v)),
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Newtype(t)) => python_at(schema, t, depth + 1),
            Some(Body::Enum(e)) if e.is_string_enum() && !is_identifier(name) => {
                format!("Literal[{}]", quoted(&string_values(e)))
            }
            _ => named(name),
        },
        Type::Constrained(c) => match &**c {
            Constraint::Int { .. } => "int".to_owned(),
            Constraint::String(s) => python_string(s.format).to_owned(),
        },
    }
}

/// A named type as a peer's code names it: its name when it is an identifier (a model's or
/// a schema's name), else `…` (an import names a type written inline by where it sits,
/// `Root.lines[]`, which no peer's code calls it).
fn named(name: &str) -> String {
    if is_identifier(name) {
        name.to_owned()
    } else {
        "…".to_owned()
    }
}

/// Whether `name` is an identifier in Python and JavaScript alike.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The pydantic type of a string format, `str` when pydantic has none for it.
pub(super) fn python_string(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Uuid => "UUID",
        StringFormat::DateTime => "AwareDatetime",
        StringFormat::Date => "date",
        StringFormat::Ipv4 => "IPv4Address",
        StringFormat::Ipv6 => "IPv6Address",
        StringFormat::Url => "AnyUrl",
        _ => "str",
    }
}

/// The zod 4 schema `ty` is read with (`z.number().int().min(0)`, `z.array(Line)`).
pub(super) fn zod(schema: &Schema, ty: &Type) -> String {
    zod_at(schema, ty, 0)
}

fn zod_at(schema: &Schema, ty: &Type, depth: usize) -> String {
    if depth >= MAX_DEPTH {
        return "…".to_owned();
    }
    let inner = |t: &Type| zod_at(schema, t, depth + 1);
    match ty {
        Type::Unit => "z.null()".to_owned(),
        Type::Bool => "z.boolean()".to_owned(),
        // What zod's `.int()` holds of the kind (a JavaScript number holds no more).
        Type::Int(kind) => zod_range(&IntRange::all_of(*kind), true)
            .unwrap_or_else(|| "z.number().int()".to_owned()),
        Type::Float(_) => "z.number()".to_owned(),
        Type::Char => "z.string().length(1)".to_owned(),
        Type::String(format) => zod_string(*format).to_owned(),
        Type::Any => "z.any()".to_owned(),
        Type::Option(t) => format!("{}.nullable()", inner(t)),
        Type::List(t) | Type::Set(t) => format!("z.array({})", inner(t)),
        Type::Array(t, n) => format!("z.array({}).length({n})", inner(t)),
        Type::Tuple(items) => format!(
            "z.tuple([{}])",
            items.iter().map(inner).collect::<Vec<_>>().join(", ")
        ),
        Type::Map(_, v) => format!("z.record(z.string(), {})", inner(v)),
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Newtype(t)) => zod_at(schema, t, depth + 1),
            Some(Body::Enum(e)) if e.is_string_enum() => {
                let values = string_values(e);
                format!("z.enum([{}])", quoted(&values))
            }
            _ => named(name),
        },
        Type::Constrained(c) => match &**c {
            Constraint::Int { values, .. } => {
                zod_int(values).unwrap_or_else(|| "z.number().int()".to_owned())
            }
            Constraint::String(s) => zod_string_with(s),
        },
    }
}

/// The zod 4 schema of a string format, `z.string()` when zod has none for it.
pub(super) fn zod_string(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Uuid => "z.uuid()",
        StringFormat::DateTime => "z.iso.datetime({ offset: true })",
        StringFormat::Date => "z.iso.date()",
        StringFormat::Ipv4 => "z.ipv4()",
        StringFormat::Ipv6 => "z.ipv6()",
        StringFormat::Url => "z.url()",
        _ => "z.string()",
    }
}

/// A constrained string in zod: its format's schema with the length and pattern.
pub(super) fn zod_string_with(s: &StringConstraint) -> String {
    let mut out = zod_string(s.format).to_owned();
    out.push_str(&zod_length(s));
    if let Some(p) = &s.pattern {
        out.push_str(&format!(".regex(/{p}/)"));
    }
    out
}

/// zod's length methods for a string constraint (`.min(1).max(64)`, `.length(1)`).
pub(super) fn zod_length(s: &StringConstraint) -> String {
    match (s.length.min, s.length.max) {
        (min, Some(max)) if min == max => format!(".length({max})"),
        (0, None) => String::new(),
        (0, Some(max)) => format!(".max({max})"),
        (min, None) => format!(".min({min})"),
        (min, Some(max)) => format!(".min({min}).max({max})"),
    }
}

/// pydantic's `Field` arguments for a string constraint (`min_length=1, max_length=64`).
pub(super) fn python_length(s: &StringConstraint) -> Vec<String> {
    let mut args = Vec::new();
    if s.length.min > 0 {
        args.push(format!("min_length={}", s.length.min));
    }
    if let Some(max) = s.length.max {
        args.push(format!("max_length={max}"));
    }
    if let Some(p) = &s.pattern {
        args.push(format!("pattern=r\"{p}\""));
    }
    args
}

/// JSON Schema's keywords for a string constraint (`"maxLength": 64`).
pub(super) fn json_length(s: &StringConstraint) -> Vec<String> {
    let mut out = Vec::new();
    if s.length.min > 0 {
        out.push(format!("\"minLength\": {}", s.length.min));
    }
    if let Some(max) = s.length.max {
        out.push(format!("\"maxLength\": {max}"));
    }
    if let Some(p) = &s.pattern {
        out.push(format!(
            "\"pattern\": {}",
            serde_json::Value::String(p.clone())
        ));
    }
    out
}

/// The smallest and largest of a set of integers.
pub(super) fn span(values: &IntSet) -> Option<(IntValue, IntValue)> {
    let ranges = values.ranges();
    Some((ranges.first()?.min, ranges.last()?.max))
}

/// The widest of some ranges (the first of equally wide ones): what a producer keeps to
/// when the reader's set has gaps that a pydantic or zod bound cannot state.
pub(super) fn widest(ranges: &[IntRange]) -> Option<IntRange> {
    ranges
        .iter()
        .copied()
        .max_by(|a, b| width(a).cmp(&width(b)).then(core::cmp::Ordering::Greater))
}

/// The number of values of a range, saturating.
fn width(r: &IntRange) -> u128 {
    let (lo, hi) = (value(r.min), value(r.max));
    match (lo, hi) {
        (Wide::Neg(a), Wide::Neg(b)) => b.abs_diff(a),
        (Wide::Neg(a), Wide::Pos(b)) => a.unsigned_abs().saturating_add(b),
        (Wide::Pos(a), Wide::Pos(b)) => b.saturating_sub(a),
        (Wide::Pos(_), Wide::Neg(_)) => 0,
    }
}

enum Wide {
    Neg(i128),
    Pos(u128),
}

fn value(v: IntValue) -> Wide {
    if v < IntValue::ZERO {
        // Below zero it is an `i128`.
        Wide::Neg(v.to_string().parse().unwrap_or(i128::MIN))
    } else {
        Wide::Pos(v.to_string().parse().unwrap_or(u128::MAX))
    }
}

/// pydantic's `Field(ge=…, le=…)` for a range.
pub(super) fn python_range(r: &IntRange) -> String {
    format!("Field(ge={}, le={})", r.min, r.max)
}

/// JSON Schema's bounds of a range.
pub(super) fn json_range(r: &IntRange) -> String {
    format!("\"minimum\": {}, \"maximum\": {}", r.min, r.max)
}

/// zod's integer schema for the values of `values`, when a zod number states them exactly:
/// `z.number().int()` (which keeps to `±(2^53 - 1)`) with the bounds that narrow it; `None`
/// when the set has gaps or reaches beyond what a JavaScript number holds exactly.
pub(super) fn zod_int(values: &IntSet) -> Option<String> {
    let [range] = values.ranges() else {
        return None;
    };
    zod_range(range, false)
}

/// zod's integer schema for a range: with `clamp`, the part of it zod's `.int()` holds
/// (a producer may write less than the reader reads); without, `None` when zod cannot hold
/// all of it.
pub(super) fn zod_range(r: &IntRange, clamp: bool) -> Option<String> {
    let (lo_safe, hi_safe) = (
        IntValue::from_i128(-MAX_SAFE),
        IntValue::from_i128(MAX_SAFE),
    );
    if !clamp && (r.min < lo_safe || r.max > hi_safe) {
        return None;
    }
    if r.min > hi_safe || r.max < lo_safe {
        return None;
    }
    let mut out = "z.number().int()".to_owned();
    if r.min > lo_safe {
        out.push_str(&format!(".min({})", r.min));
    }
    if r.max < hi_safe {
        out.push_str(&format!(".max({})", r.max));
    }
    Some(out)
}

/// A string enum's values, as the side reads or writes them (every tag).
pub(super) fn string_values(e: &crate::model::EnumDef) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in &e.variants {
        for tag in v.sender.iter().chain(&v.receiver) {
            if !out.contains(tag) {
                out.push(tag.clone());
            }
        }
    }
    out
}

/// `"a", "b"`: values quoted as JSON strings, comma-separated.
pub(super) fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|v| serde_json::Value::String(v.clone()).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The integers a type holds, through `Option`s and newtypes: every value of its kind, or
/// its constrained set.
pub(super) fn int_values(schema: &Schema, ty: &Type) -> Option<IntSet> {
    match strip(schema, ty) {
        Type::Int(kind) => Some(IntSet::new(*kind, [IntRange::all_of(*kind)])),
        Type::Constrained(c) => match &**c {
            Constraint::Int { values, .. } => Some(values.clone()),
            Constraint::String(_) => None,
        },
        _ => None,
    }
}

/// The strings a type holds as a constraint, through `Option`s and newtypes.
pub(super) fn string_constraint(schema: &Schema, ty: &Type) -> Option<StringConstraint> {
    match strip(schema, ty) {
        Type::String(format) => Some(StringConstraint {
            format: *format,
            length: crate::constraint::Length::ANY,
            pattern: None,
        }),
        Type::Char => Some(StringConstraint {
            format: StringFormat::Plain,
            length: crate::constraint::Length {
                min: 1,
                max: Some(1),
            },
            pattern: None,
        }),
        Type::Constrained(c) => match &**c {
            Constraint::String(s) => Some(s.clone()),
            Constraint::Int { .. } => None,
        },
        _ => None,
    }
}

/// `ty` without its `Option`s and newtypes (bounded).
pub(super) fn strip<'s>(schema: &'s Schema, ty: &'s Type) -> &'s Type {
    let mut ty = ty;
    for _ in 0..=schema.types.len() {
        ty = match schema.resolve(ty) {
            Type::Option(inner) => inner,
            other => return other,
        };
    }
    ty
}
