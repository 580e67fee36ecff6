//! Scalars and arrays: integers (bounds, `enum`, excluded values, ranges: the existing
//! [`Type::Constrained`] over the smallest kind that holds them; unbounded, `i128`), numbers
//! (`f64`), strings (formats, lengths, patterns; one character is `char`), and arrays (lists,
//! sets, fixed-length arrays, tuples in both dialects' spellings).

use serde_json::{Map, Number, Value};

use crate::constraint::{IntRange, IntValue, Length};
use crate::model::{FloatKind, IntKind, StringFormat, Type};

use super::importer::{child, error, item, Importer, Result};

/// The kinds from the smallest, unsigned first: an integer set takes the first that holds it.
const KINDS: [IntKind; 10] = [
    IntKind::U8,
    IntKind::I8,
    IntKind::U16,
    IntKind::I16,
    IntKind::U32,
    IntKind::I32,
    IntKind::U64,
    IntKind::I64,
    IntKind::U128,
    IntKind::I128,
];

/// The integers of `ranges` over the smallest kind that holds their hull (`i128` when none
/// does, the rest dropped).
pub(super) fn int_set(ranges: Vec<IntRange>) -> Type {
    let lo = ranges.iter().map(|r| r.min).min();
    let hi = ranges.iter().map(|r| r.max).max();
    let kind = match (lo, hi) {
        (Some(lo), Some(hi)) => KINDS
            .into_iter()
            .find(|k| IntValue::min_of(*k) <= lo && hi <= IntValue::max_of(*k))
            .unwrap_or(IntKind::I128),
        _ => IntKind::U8,
    };
    Type::int_in(kind, ranges)
}

/// Which way a bound that is not an integer rounds.
#[derive(Clone, Copy)]
enum Round {
    Up,
    Down,
}

/// An integer bound from a JSON number (rounded inward when it is not an integer, and
/// moved one step inward when `exclusive`); `None` when it is not a number.
fn bound(value: &Value, round: Round, exclusive: bool) -> Option<Option<IntValue>> {
    let n = value.as_number()?;
    let (v, exact) = integer_of(n, round)?;
    if !(exclusive && exact) {
        return Some(Some(v));
    }
    Some(match round {
        Round::Up => v.succ(),
        Round::Down => v.pred(),
    })
}

/// The integer of a JSON number, rounded, and whether it was one.
fn integer_of(n: &Number, round: Round) -> Option<(IntValue, bool)> {
    if let Some(v) = n.as_i64() {
        return Some((IntValue::from_i128(i128::from(v)), true));
    }
    if let Some(v) = n.as_u64() {
        return Some((IntValue::from_u128(u128::from(v)), true));
    }
    let f = n.as_f64()?;
    let r = match round {
        Round::Up => f.ceil(),
        Round::Down => f.floor(),
    };
    // `as` saturates: a bound beyond the model's integers is the model's extreme.
    let v = if r >= 0.0 {
        IntValue::from_u128(r as u128)
    } else {
        IntValue::from_i128(r as i128)
    };
    Some((v, r == f))
}

/// The ranges of an `x-handoff-integers` annotation: an integer type in the canonical text
/// (`i128(..=-18446744073709551617)`, or a kind alone).
fn exact_integers(value: &Value) -> Option<Vec<IntRange>> {
    match crate::text::parse_type(value.as_str()?).ok()? {
        Type::Int(kind) => Some(vec![IntRange::all_of(kind)]),
        Type::Constrained(c) => match *c {
            crate::model::Constraint::Int { values, .. } => Some(values.ranges().to_vec()),
            crate::model::Constraint::String(_) => None,
        },
        _ => None,
    }
}

/// An integer value of `enum`, `const` or `not`.
fn exact_integer(value: &Value) -> Option<IntValue> {
    match integer_of(value.as_number()?, Round::Down)? {
        (v, true) => Some(v),
        (_, false) => None,
    }
}

impl Importer<'_> {
    /// `type: integer` with its bounds, values, excluded values and ranges.
    pub(super) fn integer(&mut self, map: &Map<String, Value>, pointer: &str) -> Result<Type> {
        let mut lo = None;
        let mut hi = None;
        let mut empty = false;
        for (key, round, exclusive) in [
            ("minimum", Round::Up, false),
            ("exclusiveMinimum", Round::Up, true),
            ("maximum", Round::Down, false),
            ("exclusiveMaximum", Round::Down, true),
        ] {
            let Some(value) = map.get(key) else { continue };
            let Some(b) = bound(value, round, exclusive) else {
                return Err(error(
                    &child(pointer, key),
                    format!("`{key}` is not a number (draft-04's boolean form is not read)"),
                ));
            };
            match (b, round) {
                (None, _) => empty = true,
                (Some(b), Round::Up) => lo = Some(lo.map_or(b, |l: IntValue| l.max(b))),
                (Some(b), Round::Down) => hi = Some(hi.map_or(b, |h: IntValue| h.min(b))),
            }
        }
        let lo_value = lo.unwrap_or(IntValue::min_of(IntKind::I128));
        // Beside `x-handoff-integers`, a missing bound is one left out, which the annotation
        // says: the keywords then bound nothing there.
        let annotated = map.contains_key("x-handoff-integers");
        let hi_value = hi.unwrap_or(if lo_value >= IntValue::ZERO || annotated {
            IntValue::max_of(IntKind::U128)
        } else {
            IntValue::max_of(IntKind::I128)
        });
        let mut ranges = if empty {
            Vec::new()
        } else {
            vec![IntRange::new(lo_value, hi_value)]
        };
        if let Some(listed) = self.listed_integers(map, pointer)? {
            ranges = listed
                .into_iter()
                .filter(|v| lo_value <= *v && *v <= hi_value)
                .map(IntRange::one)
                .collect();
        }
        if let Some(within) = self.integer_ranges(map, pointer)? {
            ranges = ranges
                .iter()
                .flat_map(|r| {
                    within.iter().filter_map(move |w| {
                        let (min, max) = (r.min.max(w.min), r.max.min(w.max));
                        (min <= max).then(|| IntRange::new(min, max))
                    })
                })
                .collect();
        }
        if let Some(not) = map.get("not") {
            let at = child(pointer, "not");
            let excluded = not.as_object().filter(|m| m.len() == 1).and_then(|m| {
                match (m.get("enum"), m.get("const")) {
                    (Some(Value::Array(values)), None) => {
                        values.iter().map(exact_integer).collect()
                    }
                    (None, Some(value)) => exact_integer(value).map(|v| vec![v]),
                    _ => None,
                }
            });
            match excluded {
                Some(mut excluded) => {
                    excluded.sort();
                    ranges = exclude(ranges, &excluded);
                }
                None => {
                    self.unsupported(&at, "a `not` other than of integers listed is not read")?
                }
            }
        }
        self.rest(
            map,
            pointer,
            &[
                "type",
                "minimum",
                "exclusiveMinimum",
                "maximum",
                "exclusiveMaximum",
                "enum",
                "const",
                "anyOf",
                "not",
            ],
        )?;
        if let Some(exact) = map.get("x-handoff-integers") {
            let at = child(pointer, "x-handoff-integers");
            let Some(exact) = exact_integers(exact) else {
                return Err(error(
                    &at,
                    "not a set of integers in the canonical text (`u128(18446744073709551616..)`)"
                        .to_owned(),
                ));
            };
            // The keywords' bounds (those a JSON number holds) and the exact values: both.
            ranges = ranges
                .iter()
                .flat_map(|r| {
                    exact.iter().filter_map(move |w| {
                        let (min, max) = (r.min.max(w.min), r.max.min(w.max));
                        (min <= max).then(|| IntRange::new(min, max))
                    })
                })
                .collect();
        }
        ranges.retain(|r| r.min <= r.max);
        if ranges.is_empty() {
            self.unsupported(
                pointer,
                "these integer keywords admit no value, which no type of the model is",
            )?;
            return Ok(Type::Int(IntKind::I128));
        }
        Ok(int_set(ranges))
    }

    /// The integers of `enum` or `const`, when given.
    fn listed_integers(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Vec<IntValue>>> {
        let (key, values) = match (map.get("enum"), map.get("const")) {
            (Some(Value::Array(values)), _) => ("enum", values.iter().collect::<Vec<_>>()),
            (None, Some(value)) => ("const", vec![value]),
            (None, None) => return Ok(None),
            (Some(_), _) => {
                return Err(error(
                    &child(pointer, "enum"),
                    "`enum` is not an array".to_owned(),
                ))
            }
        };
        let at = child(pointer, key);
        let mut out = Vec::with_capacity(values.len());
        for (i, value) in values.into_iter().enumerate() {
            match exact_integer(value) {
                Some(v) => out.push(v),
                None => self.unsupported(
                    &item(&at, i),
                    "a value of an integer `enum` that is not an integer is not read",
                )?,
            }
        }
        Ok(Some(out))
    }

    /// The ranges of an integer's `anyOf` (each `minimum` and `maximum` only), when given.
    fn integer_ranges(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Vec<IntRange>>> {
        let Some(any) = map.get("anyOf") else {
            return Ok(None);
        };
        let at = child(pointer, "anyOf");
        let parsed: Option<Vec<IntRange>> = any.as_array().and_then(|alternatives| {
            alternatives
                .iter()
                .map(|a| {
                    let a = a.as_object()?;
                    if a.keys().any(|k| k != "minimum" && k != "maximum") {
                        return None;
                    }
                    let min = match a.get("minimum") {
                        Some(v) => bound(v, Round::Up, false)??,
                        None => IntValue::min_of(IntKind::I128),
                    };
                    let max = match a.get("maximum") {
                        Some(v) => bound(v, Round::Down, false)??,
                        None => IntValue::max_of(IntKind::U128),
                    };
                    Some(IntRange::new(min, max))
                })
                .collect()
        });
        match parsed {
            Some(ranges) => Ok(Some(ranges)),
            None => {
                self.unsupported(
                    &at,
                    "an integer's `anyOf` other than of `minimum`/`maximum` ranges is not read",
                )?;
                Ok(None)
            }
        }
    }

    /// `type: number`: an `f64`; its bounds and `multipleOf` are beyond the model.
    pub(super) fn number(&mut self, map: &Map<String, Value>, pointer: &str) -> Result<Type> {
        for key in [
            "minimum",
            "exclusiveMinimum",
            "maximum",
            "exclusiveMaximum",
            "multipleOf",
        ] {
            if map.contains_key(key) {
                self.unsupported(
                    &child(pointer, key),
                    &format!("`{key}` of a number is not read: the model's floats have no bounds"),
                )?;
            }
        }
        self.rest(
            map,
            pointer,
            &[
                "type",
                "minimum",
                "exclusiveMinimum",
                "maximum",
                "exclusiveMaximum",
                "multipleOf",
            ],
        )?;
        Ok(Type::Float(FloatKind::F64))
    }

    /// `type: string` with its format, lengths and pattern (one character exactly: `char`).
    pub(super) fn string(&mut self, map: &Map<String, Value>, pointer: &str) -> Result<Type> {
        let mut format = StringFormat::Plain;
        if let Some(name) = map.get("format") {
            let at = child(pointer, "format");
            let known = name.as_str().and_then(|n| {
                [
                    StringFormat::Uuid,
                    StringFormat::DateTime,
                    StringFormat::Date,
                    StringFormat::Ipv4,
                    StringFormat::Ipv6,
                    StringFormat::Url,
                ]
                .into_iter()
                .find(|f| f.as_str() == Some(n))
            });
            match known {
                Some(f) => format = f,
                None => self.unsupported(&at, "a `format` the model lacks is not read")?,
            }
        }
        if let Some(name) = map.get("x-handoff-format") {
            let own = name.as_str().and_then(|n| {
                StringFormat::NAMED
                    .into_iter()
                    .find(|f| f.as_str() == Some(n))
            });
            match own {
                Some(f) if format == StringFormat::Plain => format = f,
                _ => {
                    return Err(error(
                        &child(pointer, "x-handoff-format"),
                        "not a format this crate writes, or beside a `format`".to_owned(),
                    ))
                }
            }
        }
        let mut length = Length::ANY;
        for (key, min) in [("minLength", true), ("maxLength", false)] {
            let Some(value) = map.get(key) else { continue };
            let Some(n) = value.as_u64() else {
                return Err(error(
                    &child(pointer, key),
                    format!("`{key}` is not a non-negative integer"),
                ));
            };
            if min {
                length.min = n;
            } else {
                length.max = Some(n);
            }
        }
        let pattern = match map.get("pattern") {
            None => None,
            Some(Value::String(p)) => Some(p.clone()),
            Some(_) => {
                return Err(error(
                    &child(pointer, "pattern"),
                    "`pattern` is not a string".to_owned(),
                ))
            }
        };
        self.rest(
            map,
            pointer,
            &["type", "format", "minLength", "maxLength", "pattern"],
        )?;
        let one = Length {
            min: 1,
            max: Some(1),
        };
        if length == one && pattern.is_none() && format == StringFormat::Plain {
            return Ok(Type::Char);
        }
        Ok(Type::string_with(format, length, pattern))
    }

    /// `type: array`: a tuple (`prefixItems`, or draft-07's `items: [...]`), a fixed-length
    /// array, a set (`uniqueItems`) or a list.
    pub(super) fn array(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Type> {
        let count = |key: &str| -> Result<Option<u64>> {
            match map.get(key) {
                None => Ok(None),
                Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                    error(
                        &child(pointer, key),
                        format!("`{key}` is not a non-negative integer"),
                    )
                }),
            }
        };
        let (min, max) = (count("minItems")?, count("maxItems")?);
        let unique = match map.get("uniqueItems") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(error(
                    &child(pointer, "uniqueItems"),
                    "`uniqueItems` is not a boolean".to_owned(),
                ))
            }
        };
        let tuple = match (map.get("prefixItems"), map.get("items")) {
            (Some(prefix), _) => Some(("prefixItems", prefix, "items")),
            (None, Some(items @ Value::Array(_))) => Some(("items", items, "additionalItems")),
            _ => None,
        };
        let read = [
            "type",
            "prefixItems",
            "items",
            "additionalItems",
            "minItems",
            "maxItems",
            "uniqueItems",
        ];
        if let Some((key, prefix, tail_key)) = tuple {
            let at = child(pointer, key);
            let Some(prefix) = prefix.as_array() else {
                return Err(error(&at, format!("`{key}` is not an array")));
            };
            let mut items = Vec::with_capacity(prefix.len());
            for (i, schema) in prefix.iter().enumerate() {
                items.push(self.ty(schema, &item(&at, i), &format!("{hint}.{i}"))?);
            }
            let len = prefix.len() as u64;
            let closed = map.get(tail_key) == Some(&Value::Bool(false)) || max == Some(len);
            if (!closed || min.unwrap_or(0) != len) && self.sender() {
                self.warn(
                    &at,
                    format!("read as a tuple of exactly {len} items; the schema also admits other lengths, which a producer may then write"),
                );
            }
            if unique {
                self.unsupported(
                    &child(pointer, "uniqueItems"),
                    "`uniqueItems` on a tuple is not read",
                )?;
            }
            self.rest(map, pointer, &read)?;
            return Ok(Type::Tuple(items));
        }
        if max == Some(0) && !map.contains_key("items") {
            self.rest(map, pointer, &read)?;
            return Ok(Type::Tuple(Vec::new()));
        }
        let item_type = match map.get("items") {
            None => Type::Any,
            Some(schema) => self.ty(schema, &child(pointer, "items"), &format!("{hint}[]"))?,
        };
        if map.contains_key("additionalItems") {
            self.warn(
                &child(pointer, "additionalItems"),
                "`additionalItems` without a tuple constrains nothing; ignored".to_owned(),
            );
        }
        let ty = match (min, max) {
            (Some(a), Some(b)) if a == b && !unique => Type::Array(
                Box::new(item_type),
                usize::try_from(a).unwrap_or(usize::MAX),
            ),
            (None | Some(0), None) => {
                if unique {
                    Type::Set(Box::new(item_type))
                } else {
                    Type::List(Box::new(item_type))
                }
            }
            _ => {
                let key = if min.unwrap_or(0) > 0 {
                    "minItems"
                } else {
                    "maxItems"
                };
                self.unsupported(
                    &child(pointer, key),
                    "an array's length bounds are not read: the model's lists have none",
                )?;
                if unique {
                    Type::Set(Box::new(item_type))
                } else {
                    Type::List(Box::new(item_type))
                }
            }
        };
        self.rest(map, pointer, &read)?;
        Ok(ty)
    }
}

/// `ranges` without the `excluded` values (sorted).
fn exclude(ranges: Vec<IntRange>, excluded: &[IntValue]) -> Vec<IntRange> {
    let mut out = Vec::with_capacity(ranges.len() + excluded.len());
    for r in ranges {
        let mut min = Some(r.min);
        let start = excluded.partition_point(|v| *v < r.min);
        for v in excluded.iter().skip(start).take_while(|v| **v <= r.max) {
            if let Some(lo) = min {
                if lo < *v {
                    if let Some(before) = v.pred() {
                        out.push(IntRange::new(lo, before));
                    }
                }
            }
            min = v.succ();
        }
        if let Some(lo) = min.filter(|lo| *lo <= r.max) {
            out.push(IntRange::new(lo, r.max));
        }
    }
    out
}
