//! The canonical text of a constrained value: `u8(1..)`, `i32(..=-1, 1..)`,
//! `string(uuid, len ..=36, pattern "^[0-9a-f-]+$")`. The type syntax writes a constrained
//! type this way, and the parser reads it back (`parse::types`).

use core::fmt;

use super::words::Quoted;
use crate::constraint::{Constraint, IntRange, IntSet, IntValue, Length};
use crate::scalar::IntKind;

/// The canonical text: `u8(1..)`, `i32(..=-1, 1..)`, `u8(0..=2, 7)`, `u8()` for no value;
/// `string(uuid, len ..=36, pattern "^[0-9a-f-]+$")` with the format, `len` and `pattern`
/// each written only when it restricts.
impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Constraint::Int { kind, values } => {
                write!(f, "{}(", kind.as_str())?;
                write_ranges(f, values.ranges(), Some(*kind))?;
                f.write_str(")")
            }
            Constraint::String(s) => {
                f.write_str("string(")?;
                let mut sep = "";
                if let Some(name) = s.format.as_str() {
                    f.write_str(name)?;
                    sep = ", ";
                }
                if s.length != Length::ANY {
                    write!(f, "{sep}len {}", s.length)?;
                    sep = ", ";
                }
                if let Some(pattern) = &s.pattern {
                    write!(f, "{sep}pattern {}", Quoted(pattern))?;
                }
                f.write_str(")")
            }
        }
    }
}

/// The set without its kind, every bound written: `0..=3, 5..=255`, a single value as
/// itself. ([`Constraint`]'s `Display` leaves a bound of the kind's range open.)
impl fmt::Display for IntSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ranges(f, self.ranges(), None)
    }
}

/// The ranges; when `kind` is given, an upper bound that is the kind's largest value and a
/// lower bound that is a signed kind's smallest are left open (`1..`, `..=-1`; an unsigned
/// kind's 0 is written: `0..=2`).
fn write_ranges(
    f: &mut fmt::Formatter<'_>,
    ranges: &[IntRange],
    kind: Option<IntKind>,
) -> fmt::Result {
    let lo = kind.filter(|k| IntKind::min(*k) < 0).map(IntValue::min_of);
    let hi = kind.map(IntValue::max_of);
    for (i, r) in ranges.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if r.min == r.max {
            write!(f, "{}", r.min)?;
            continue;
        }
        if Some(r.min) != lo {
            write!(f, "{}", r.min)?;
        }
        f.write_str("..")?;
        if Some(r.max) != hi {
            write!(f, "={}", r.max)?;
        }
    }
    Ok(())
}

/// `N` (exactly), `A..=B`, `A..` or `..=B`.
impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "{max}"),
            Some(max) if self.min == 0 => write!(f, "..={max}"),
            Some(max) => write!(f, "{}..={max}", self.min),
            None => write!(f, "{}..", self.min),
        }
    }
}
