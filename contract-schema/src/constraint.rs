//! Constrained values: integers restricted to a set of values and strings restricted by
//! format, length and pattern — the one model element ([`Constraint`], held by
//! [`Type::Constrained`](crate::Type::Constrained)) for both.
//!
//! A `NonZeroI32` is the `i32`s without 0, a `NonZeroU8` the `u8`s from 1, an enum
//! serialized as its discriminant a finite set of integers. Every such restriction is a
//! set of integers, kept normalized as sorted, disjoint, non-adjacent inclusive ranges
//! inside the range of the integer kind that carries it ([`IntSet`]): ranges, excluded
//! values and finite sets are three spellings of it, and "a writer's set fits a reader's"
//! is set inclusion. A string restriction is a format (as an unconstrained string has), a
//! length range in characters (Unicode scalar values, as JSON Schema's `minLength` and
//! `maxLength` count) and an ECMA-262 pattern (JSON Schema's dialect, kept as written).
//!
//! The element is shaped for importing other tools' schemas: pydantic's `conint(ge, le)`,
//! zod's `.int().min().max()` and JSON Schema's `minimum`/`maximum`/`exclusiveMinimum`/
//! `not: {const}`/`enum` of integers become an [`IntSet`] over the smallest kind that
//! holds it; `minLength`/`maxLength` become a [`Length`]; `pattern` is kept verbatim.
//!
//! Build constrained types with [`Type::int_in`](crate::Type::int_in) and
//! [`Type::string_with`](crate::Type::string_with): they return the plain type when the
//! restriction restricts nothing, so that one wire type has one model.

use core::fmt;

use crate::scalar::{IntKind, StringFormat};

/// An integer anywhere serde's integer types reach, `i128::MIN ..= u128::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntValue(Wide);

/// The two halves of the range; the order of the variants is the order of the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Wide {
    /// Always below zero.
    Negative(i128),
    NonNegative(u128),
}

impl IntValue {
    /// Zero.
    pub const ZERO: IntValue = IntValue(Wide::NonNegative(0));

    /// A signed value.
    #[must_use]
    pub const fn from_i128(v: i128) -> Self {
        if v < 0 {
            IntValue(Wide::Negative(v))
        } else {
            IntValue(Wide::NonNegative(v as u128))
        }
    }

    /// An unsigned value.
    #[must_use]
    pub const fn from_u128(v: u128) -> Self {
        IntValue(Wide::NonNegative(v))
    }

    /// The smallest value of an integer kind.
    #[must_use]
    pub const fn min_of(kind: IntKind) -> Self {
        Self::from_i128(kind.min())
    }

    /// The largest value of an integer kind.
    #[must_use]
    pub const fn max_of(kind: IntKind) -> Self {
        Self::from_u128(kind.max())
    }

    /// The value as an `i64`, when it is one.
    #[must_use]
    pub fn to_i64(self) -> Option<i64> {
        match self.0 {
            Wide::Negative(v) => i64::try_from(v).ok(),
            Wide::NonNegative(v) => i64::try_from(v).ok(),
        }
    }

    /// The value as a `u64`, when it is one.
    #[must_use]
    pub fn to_u64(self) -> Option<u64> {
        match self.0 {
            Wide::Negative(_) => None,
            Wide::NonNegative(v) => u64::try_from(v).ok(),
        }
    }

    /// Reads a JSON integer literal, `-?[0-9]+` (`-0` is zero); `None` for anything else or
    /// a value outside `i128::MIN ..= u128::MAX`.
    #[must_use]
    pub fn parse(text: &[u8]) -> Option<Self> {
        let (negative, digits) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        if digits.is_empty() {
            return None;
        }
        let mut magnitude: u128 = 0;
        for d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            magnitude = magnitude
                .checked_mul(10)?
                .checked_add(u128::from(d - b'0'))?;
        }
        if !negative || magnitude == 0 {
            return Some(Self::from_u128(magnitude));
        }
        if magnitude == i128::MIN.unsigned_abs() {
            return Some(Self::from_i128(i128::MIN));
        }
        i128::try_from(magnitude).ok().map(|m| Self::from_i128(-m))
    }

    /// The next value, if any.
    #[must_use]
    pub const fn succ(self) -> Option<Self> {
        match self.0 {
            Wide::Negative(v) => Some(Self::from_i128(v + 1)),
            Wide::NonNegative(u128::MAX) => None,
            Wide::NonNegative(v) => Some(Self::from_u128(v + 1)),
        }
    }

    /// The previous value, if any.
    #[must_use]
    pub const fn pred(self) -> Option<Self> {
        match self.0 {
            Wide::Negative(i128::MIN) => None,
            Wide::Negative(v) => Some(Self::from_i128(v - 1)),
            Wide::NonNegative(0) => Some(Self::from_i128(-1)),
            Wide::NonNegative(v) => Some(Self::from_u128(v - 1)),
        }
    }
}

impl fmt::Display for IntValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Wide::Negative(v) => write!(f, "{v}"),
            Wide::NonNegative(v) => write!(f, "{v}"),
        }
    }
}

/// The values `min ..= max` (empty when `min > max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntRange {
    /// The smallest value.
    pub min: IntValue,
    /// The largest value.
    pub max: IntValue,
}

impl IntRange {
    /// `min ..= max`.
    #[must_use]
    pub const fn new(min: IntValue, max: IntValue) -> Self {
        IntRange { min, max }
    }

    /// The one value `v`.
    #[must_use]
    pub const fn one(v: IntValue) -> Self {
        IntRange { min: v, max: v }
    }

    /// Every value of `kind`.
    #[must_use]
    pub const fn all_of(kind: IntKind) -> Self {
        IntRange::new(IntValue::min_of(kind), IntValue::max_of(kind))
    }

    /// Whether `v` is in the range.
    #[must_use]
    pub fn contains(&self, v: IntValue) -> bool {
        self.min <= v && v <= self.max
    }
}

/// A set of integers of one kind: sorted, disjoint, non-adjacent inclusive ranges, all
/// inside the kind's range. Built only by [`IntSet::new`], so that one set has one form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntSet {
    ranges: Vec<IntRange>,
}

impl IntSet {
    /// The values of `ranges` that `kind` holds, normalized (ranges may overlap, touch, or
    /// come in any order; empty ones are dropped).
    ///
    /// ```
    /// use contract_schema::constraint::{IntRange, IntSet, IntValue};
    /// use contract_schema::model::IntKind;
    ///
    /// let v = IntValue::from_i128;
    /// let set = IntSet::new(
    ///     IntKind::U8,
    ///     [IntRange::new(v(5), v(300)), IntRange::new(v(-4), v(2)), IntRange::one(v(3))],
    /// );
    /// // 0..=3 and 5..=255: the negative part and 256.. are not u8s.
    /// assert_eq!(set.to_string(), "0..=3, 5..=255");
    /// assert!(!set.contains(v(4)));
    /// ```
    #[must_use]
    pub fn new(kind: IntKind, ranges: impl IntoIterator<Item = IntRange>) -> Self {
        let (lo, hi) = (IntValue::min_of(kind), IntValue::max_of(kind));
        let mut clamped: Vec<IntRange> = ranges
            .into_iter()
            .map(|r| IntRange::new(r.min.max(lo), r.max.min(hi)))
            .filter(|r| r.min <= r.max)
            .collect();
        clamped.sort();
        let mut out: Vec<IntRange> = Vec::with_capacity(clamped.len());
        for r in clamped {
            match out.last_mut() {
                Some(last) if last.max.succ().is_none_or(|next| r.min <= next) => {
                    last.max = last.max.max(r.max);
                }
                _ => out.push(r),
            }
        }
        IntSet { ranges: out }
    }

    /// The ranges, sorted, disjoint and non-adjacent.
    #[must_use]
    pub fn ranges(&self) -> &[IntRange] {
        &self.ranges
    }

    /// Whether `v` is in the set.
    #[must_use]
    pub fn contains(&self, v: IntValue) -> bool {
        let i = self.ranges.partition_point(|r| r.max < v);
        self.ranges.get(i).is_some_and(|r| r.contains(v))
    }

    /// Whether every value of `self` is in `other`.
    #[must_use]
    pub fn is_subset(&self, other: &IntSet) -> bool {
        self.ranges.iter().all(|a| {
            let i = other.ranges.partition_point(|b| b.max < a.min);
            other
                .ranges
                .get(i)
                .is_some_and(|b| b.min <= a.min && a.max <= b.max)
        })
    }

    /// Whether the set is every value of `kind`.
    #[must_use]
    pub fn is_all_of(&self, kind: IntKind) -> bool {
        self.ranges == [IntRange::all_of(kind)]
    }

    /// Every value of the set in order, when it has at most `limit` of them.
    ///
    /// ```
    /// use contract_schema::constraint::{IntRange, IntSet, IntValue};
    /// use contract_schema::model::IntKind;
    ///
    /// let v = IntValue::from_i128;
    /// let set = IntSet::new(IntKind::I8, [IntRange::new(v(-1), v(1)), IntRange::one(v(9))]);
    /// assert_eq!(set.small_finite(4).map(|s| s.len()), Some(4));
    /// assert_eq!(set.small_finite(3), None);
    /// ```
    #[must_use]
    pub fn small_finite(&self, limit: u128) -> Option<Vec<IntValue>> {
        let mut out = Vec::new();
        for r in &self.ranges {
            let mut v = r.min;
            loop {
                if out.len() as u128 >= limit {
                    return None;
                }
                out.push(v);
                if v == r.max {
                    break;
                }
                v = v.succ()?;
            }
        }
        Some(out)
    }

    /// The gaps between the ranges, when every gap is a single value (`NonZeroI32` has the
    /// gap 0): the excluded values of the set's hull.
    #[must_use]
    pub fn single_gaps(&self) -> Option<Vec<IntValue>> {
        self.ranges
            .windows(2)
            .map(|w| {
                let gap = w[0].max.succ()?;
                (Some(gap) == w[1].min.pred()).then_some(gap)
            })
            .collect()
    }
}

/// A length range in characters: `min ..= max`, no upper bound when `max` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Length {
    /// The fewest characters.
    pub min: u64,
    /// The most characters, if bounded.
    pub max: Option<u64>,
}

impl Length {
    /// Any length.
    pub const ANY: Length = Length { min: 0, max: None };

    /// Whether a string of `n` characters has this length.
    #[must_use]
    pub fn contains(&self, n: u64) -> bool {
        self.min <= n && self.max.is_none_or(|max| n <= max)
    }

    /// Whether every length of `self` is a length of `other`.
    #[must_use]
    pub fn is_within(&self, other: &Length) -> bool {
        self.min >= other.min
            && match (self.max, other.max) {
                (_, None) => true,
                (Some(a), Some(b)) => a <= b,
                (None, Some(_)) => false,
            }
            || self.max.is_some_and(|max| max < self.min)
    }
}

/// A string restricted by format, length and pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringConstraint {
    /// The format, as an unconstrained string has one.
    pub format: StringFormat,
    /// The length in characters.
    pub length: Length,
    /// An ECMA-262 regular expression (JSON Schema's `pattern`, unanchored), as written.
    pub pattern: Option<String>,
}

impl StringConstraint {
    /// Whether every string of `self` is a string of `other`. A pattern is compared as
    /// text: a different pattern on the reader's side is not known to hold the writer's
    /// strings (regular-expression inclusion is not decided here).
    #[must_use]
    pub fn fits_in(&self, other: &StringConstraint) -> bool {
        self.format.fits_in(other.format)
            && self.length.is_within(&other.length)
            && (other.pattern.is_none() || other.pattern == self.pattern)
    }
}

/// The one model element for constrained values.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Constraint {
    /// Integers of `kind` restricted to `values` (which [`IntSet::new`] kept inside the
    /// kind's range).
    Int {
        /// The integer type that carries the values (serde reads it first).
        kind: IntKind,
        /// The values.
        values: IntSet,
    },
    /// Strings restricted by format, length and pattern.
    String(StringConstraint),
}

/// The static form of a [`Constraint`], for the description a type emits
/// ([`Kind::Constrained`](crate::shape::Kind::Constrained)).
#[derive(Debug, Clone, Copy)]
pub enum ConstraintShape {
    /// Integers of `kind` within any of `ranges`.
    Int {
        /// The integer type.
        kind: IntKind,
        /// The values, as ranges (normalized when the schema is built).
        ranges: &'static [IntRange],
    },
    /// Strings of a format, a length and a pattern.
    String {
        /// The format.
        format: StringFormat,
        /// The fewest characters.
        min_len: u64,
        /// The most characters, if bounded.
        max_len: Option<u64>,
        /// An ECMA-262 pattern.
        pattern: Option<&'static str>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: i128) -> IntValue {
        IntValue::from_i128(n)
    }

    #[test]
    fn values_order_across_the_sign() {
        assert!(v(-1) < IntValue::ZERO);
        assert!(IntValue::from_i128(i128::MIN) < v(-1));
        assert!(IntValue::from_u128(u128::MAX) > IntValue::from_u128(i128::MAX as u128));
        assert_eq!(v(-1).succ(), Some(IntValue::ZERO));
        assert_eq!(IntValue::ZERO.pred(), Some(v(-1)));
        assert_eq!(IntValue::from_u128(u128::MAX).succ(), None);
        assert_eq!(IntValue::from_i128(i128::MIN).pred(), None);
    }

    #[test]
    fn literals_parse_exactly_at_the_edges() {
        assert_eq!(IntValue::parse(b"-0"), Some(IntValue::ZERO));
        assert_eq!(
            IntValue::parse(b"-170141183460469231731687303715884105728"),
            Some(IntValue::from_i128(i128::MIN))
        );
        assert_eq!(
            IntValue::parse(b"-170141183460469231731687303715884105729"),
            None
        );
        assert_eq!(
            IntValue::parse(b"340282366920938463463374607431768211455"),
            Some(IntValue::from_u128(u128::MAX))
        );
        assert_eq!(
            IntValue::parse(b"340282366920938463463374607431768211456"),
            None
        );
        for bad in ["", "-", "1.0", "+1", "1e3", " 1"] {
            assert_eq!(IntValue::parse(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn sets_normalize_and_include() {
        let non_zero = IntSet::new(
            IntKind::I8,
            [IntRange::new(v(1), v(500)), IntRange::new(v(-500), v(-1))],
        );
        assert_eq!(non_zero.ranges().len(), 2);
        assert_eq!(non_zero.single_gaps(), Some(vec![IntValue::ZERO]));
        assert!(!non_zero.contains(IntValue::ZERO));
        assert!(non_zero.contains(v(-128)) && non_zero.contains(v(127)));
        let positive = IntSet::new(IntKind::I8, [IntRange::new(v(1), v(127))]);
        assert!(positive.is_subset(&non_zero));
        assert!(!non_zero.is_subset(&positive));
        let touching = IntSet::new(
            IntKind::I8,
            [IntRange::one(v(0)), IntRange::new(v(1), v(3))],
        );
        assert_eq!(touching.ranges(), [IntRange::new(v(0), v(3))]);
        assert!(IntSet::new(IntKind::U8, [IntRange::all_of(IntKind::I64)]).is_all_of(IntKind::U8));
        assert!(IntSet::new(IntKind::U8, []).is_subset(&positive));
    }

    #[test]
    fn lengths_include() {
        let short = Length {
            min: 1,
            max: Some(4),
        };
        assert!(short.is_within(&Length::ANY));
        assert!(!Length::ANY.is_within(&short));
        assert!(short.contains(4) && !short.contains(0) && !short.contains(5));
        assert_eq!(short.to_string(), "1..=4");
        assert_eq!(Length { min: 2, max: None }.to_string(), "2..");
    }
}
