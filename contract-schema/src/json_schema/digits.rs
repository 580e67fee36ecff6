//! Integer map keys as patterns: the canonical decimal strings (no `+`, no leading zero, no
//! `-0`, as serde_json writes them and reads them back) of a set of integer ranges, written
//! as one regular expression, and that expression read back into the ranges.
//!
//! The expression is `^(A|B|…)$`, each alternative an optional `-` and a run of digit
//! positions: literal digits, then at most one class `[a-b]`, then any digits (`[0-9]`,
//! `[0-9]{k}`). Such an alternative is one contiguous range of strings of one length, so the
//! alternatives together say exactly which integers are keys, and [`ranges`] reads back
//! exactly what [`pattern`] writes (and `None` for any other expression).

use crate::constraint::{IntRange, IntValue};

/// The pattern of the keys in `ranges` (integers of any kind, `i128::MIN ..= u128::MAX`).
pub(super) fn pattern(ranges: &[IntRange]) -> String {
    let mut alternatives: Vec<String> = Vec::new();
    for range in ranges {
        let (min, max) = (range.min, range.max);
        if min > max {
            continue;
        }
        // The negative part, as magnitudes: `-5 ..= -1` is `-` and `1 ..= 5`.
        if min < IntValue::ZERO {
            let low = magnitude(min);
            let high = if max < IntValue::ZERO {
                magnitude(max)
            } else {
                1
            };
            for alt in unsigned(high, low) {
                alternatives.push(format!("-{alt}"));
            }
        }
        if max >= IntValue::ZERO {
            let low = if min < IntValue::ZERO {
                0
            } else {
                magnitude(min)
            };
            alternatives.extend(unsigned(low, magnitude(max)));
        }
    }
    if alternatives.is_empty() {
        // No key at all (the export lists an empty set instead): a lone `-`, which no
        // integer is, in the syntax of every regex dialect.
        return "^(-)$".to_owned();
    }
    format!("^({})$", alternatives.join("|"))
}

/// The ranges of a pattern [`pattern`] writes; `None` for any other expression.
pub(super) fn ranges(pattern: &str) -> Option<Vec<IntRange>> {
    let body = pattern.strip_prefix("^(")?.strip_suffix(")$")?;
    body.split('|').map(alternative).collect()
}

/// The absolute value of `v` (`i128::MIN`'s fits a `u128`).
fn magnitude(v: IntValue) -> u128 {
    let text = v.to_string();
    text.trim_start_matches('-').parse().unwrap_or(u128::MAX)
}

/// The alternatives of the unsigned decimal strings `low ..= high`.
fn unsigned(low: u128, high: u128) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = low;
    while start <= high {
        let len = start.to_string().len();
        // The largest value of `len` digits, or `high`.
        let end = 10_u128
            .checked_pow(u32::try_from(len).unwrap_or(u32::MAX))
            .map_or(u128::MAX, |p| p - 1)
            .min(high);
        let (lo, hi) = (start.to_string(), end.to_string());
        same_length(lo.as_bytes(), hi.as_bytes(), &mut String::new(), &mut out);
        match end.checked_add(1) {
            Some(next) => start = next,
            None => break,
        }
    }
    out
}

/// The alternatives of the strings of digits `lo ..= hi`, both of one length, after `prefix`.
fn same_length(lo: &[u8], hi: &[u8], prefix: &mut String, out: &mut Vec<String>) {
    let (Some((&a, lo_rest)), Some((&b, hi_rest))) = (lo.split_first(), hi.split_first()) else {
        out.push(prefix.clone());
        return;
    };
    let n = lo_rest.len();
    let zeros = lo_rest.iter().all(|&d| d == b'0');
    let nines = hi_rest.iter().all(|&d| d == b'9');
    if a == b {
        let mark = prefix.len();
        prefix.push(char::from(a));
        same_length(lo_rest, hi_rest, prefix, out);
        prefix.truncate(mark);
        return;
    }
    // Below: `a` followed by `lo_rest ..= 99…`, unless that is every tail.
    let first = if zeros {
        a
    } else {
        let mark = prefix.len();
        prefix.push(char::from(a));
        same_length(lo_rest, &vec![b'9'; n], prefix, out);
        prefix.truncate(mark);
        a + 1
    };
    let last = if nines { b } else { b - 1 };
    if first <= last {
        out.push(format!("{prefix}{}{}", class(first, last), any_digits(n)));
    }
    if !nines {
        let mark = prefix.len();
        prefix.push(char::from(b));
        same_length(&vec![b'0'; n], hi_rest, prefix, out);
        prefix.truncate(mark);
    }
}

/// One digit position of `a ..= b`.
fn class(a: u8, b: u8) -> String {
    if a == b {
        char::from(a).to_string()
    } else {
        format!("[{}-{}]", char::from(a), char::from(b))
    }
}

/// `n` positions of any digit.
fn any_digits(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => "[0-9]".to_owned(),
        n => format!("[0-9]{{{n}}}"),
    }
}

/// The range of one alternative: `-`, then digit positions as [`pattern`] writes them.
fn alternative(text: &str) -> Option<IntRange> {
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.as_bytes()),
        None => (false, text.as_bytes()),
    };
    // Each position as the digits it admits.
    let mut positions: Vec<(u8, u8)> = Vec::new();
    while let Some((&c, tail)) = rest.split_first() {
        match c {
            b'0'..=b'9' => {
                positions.push((c, c));
                rest = tail;
            }
            b'[' => {
                let [a, b'-', b, b']', after @ ..] = tail else {
                    return None;
                };
                if !(a.is_ascii_digit() && b.is_ascii_digit() && a < b) {
                    return None;
                }
                let mut count = 1;
                rest = after;
                if let Some(after) = rest.strip_prefix(b"{") {
                    let close = after.iter().position(|&c| c == b'}')?;
                    let digits = core::str::from_utf8(&after[..close]).ok()?;
                    if digits.is_empty() || !digits.bytes().all(|d| d.is_ascii_digit()) {
                        return None;
                    }
                    count = digits
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (2..=40).contains(n))?;
                    rest = &after[close + 1..];
                }
                positions.extend(core::iter::repeat_n((*a, *b), count));
            }
            _ => return None,
        }
    }
    // Literals, then one class, then any digits: one contiguous range.
    let varying = positions.iter().position(|(a, b)| a != b);
    if let Some(i) = varying {
        if positions[i + 1..].iter().any(|&p| p != (b'0', b'9')) {
            return None;
        }
    }
    // No leading zero, except `0` itself; no `-0`.
    match positions.first() {
        None => return None,
        Some(&(a, _)) if a == b'0' && (positions.len() > 1 || negative) => return None,
        Some(_) => {}
    }
    let number = |pick: fn(&(u8, u8)) -> u8| -> Option<IntValue> {
        let digits: Vec<u8> = positions.iter().map(pick).collect();
        let mut text = Vec::with_capacity(digits.len() + 1);
        if negative {
            text.push(b'-');
        }
        text.extend(digits);
        IntValue::parse(&text)
    };
    let low = number(|p| p.0)?;
    let high = number(|p| p.1)?;
    Some(if negative {
        IntRange::new(high, low)
    } else {
        IntRange::new(low, high)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IntKind;

    fn range(min: i128, max: i128) -> IntRange {
        IntRange::new(IntValue::from_i128(min), IntValue::from_i128(max))
    }

    /// Whether `key` matches the pattern of `ranges`, by the ranges read back.
    fn matches(ranges_of: &[IntRange], key: &str) -> bool {
        let text = pattern(ranges_of);
        let read = ranges(&text).expect("reads back");
        let canonical =
            key == "0" || (!key.starts_with('0') && !key.starts_with("-0") && !key.is_empty());
        canonical
            && IntValue::parse(key.as_bytes()).is_some_and(|v| read.iter().any(|r| r.contains(v)))
    }

    #[test]
    fn a_kind_is_its_range_exactly() {
        assert_eq!(
            pattern(&[IntRange::all_of(IntKind::U8)]),
            "^([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"
        );
        assert_eq!(
            pattern(&[IntRange::all_of(IntKind::I8)]),
            "^(-[1-9]|-[1-9][0-9]|-1[0-1][0-9]|-12[0-8]|[0-9]|[1-9][0-9]|1[0-1][0-9]|12[0-7])$"
        );
        for kind in IntKind::ALL {
            let all = [IntRange::all_of(kind)];
            assert_eq!(
                ranges(&pattern(&all)).map(merge),
                Some(all.to_vec()),
                "{kind:?}"
            );
        }
    }

    /// Adjacent ranges joined, for comparing what is read back with what was written.
    fn merge(mut ranges: Vec<IntRange>) -> Vec<IntRange> {
        ranges.sort();
        let mut out: Vec<IntRange> = Vec::new();
        for r in ranges {
            match out.last_mut() {
                Some(last) if last.max.succ() == Some(r.min) => last.max = r.max,
                _ => out.push(r),
            }
        }
        out
    }

    #[test]
    fn ranges_read_back_as_written() {
        let cases: Vec<Vec<IntRange>> = vec![
            vec![range(0, 0)],
            vec![range(1, 1)],
            vec![range(-1, -1)],
            vec![range(7, 12_345)],
            vec![range(-300, 299)],
            vec![range(-128, -1), range(1, 127)],
            vec![range(100, 199), range(1000, 1999)],
            vec![IntRange::new(
                IntValue::from_u128(1),
                IntValue::max_of(IntKind::U64),
            )],
            vec![IntRange::all_of(IntKind::U128)],
            vec![IntRange::all_of(IntKind::I128)],
        ];
        for case in cases {
            let text = pattern(&case);
            assert_eq!(
                ranges(&text).map(merge),
                Some(merge(case.clone())),
                "{text}"
            );
        }
    }

    #[test]
    fn every_small_key_matches_exactly_when_in_range() {
        let set = [range(-130, -3), range(9, 101), range(255, 256)];
        for v in -1200_i128..1200 {
            let inside = set.iter().any(|r| r.contains(IntValue::from_i128(v)));
            assert_eq!(matches(&set, &v.to_string()), inside, "{v}");
        }
        assert!(!matches(&set, "009"));
        assert!(!matches(&set, "-0"));
    }

    #[test]
    fn other_expressions_are_not_read() {
        for text in [
            "^(0|[1-9][0-9]*)$",
            "^[0-9]+$",
            "^([1-9][0-5])$",
            "^(01)$",
            "^(-0)$",
            "^()$",
            "^([9-1])$",
        ] {
            assert_eq!(ranges(text), None, "{text}");
        }
    }
}
