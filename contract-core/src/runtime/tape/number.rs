//! What serde_json makes of a number's text: where it ends by JSON's grammar, and the value
//! it hands a visitor (`u64`, then `i64`, then `f64`, floats parsed by serde_json itself).
//! The walk, the tape's reader and the one-pass reader all decide numbers here.

use super::scan::NodeKind;

/// A JSON number as serde_json hands it to a visitor.
pub(crate) enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// serde_json's reading of a number literal: a non-negative integer that fits is a `u64`, a
/// negative one that fits an `i64` (not `-0`, which is the float `-0.0`), anything else a
/// float, parsed by serde_json itself so that every bit agrees.
#[inline]
pub(crate) fn number(text: &[u8], kind: NodeKind) -> Option<Number> {
    if kind == NodeKind::Int {
        let (negative, digits) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let mut n: u64 = 0;
        let mut fits = true;
        for d in digits {
            match n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(d - b'0')))
            {
                Some(m) => n = m,
                None => {
                    fits = false;
                    break;
                }
            }
        }
        if fits {
            if !negative {
                return Some(Number::U64(n));
            }
            if n != 0 && n <= i64::MIN.unsigned_abs() {
                return Some(Number::I64((n as i64).wrapping_neg()));
            }
        }
    }
    float(text).map(Number::F64)
}

/// A number literal as serde_json parses it into an `f64`.
#[inline(never)]
pub(crate) fn float(text: &[u8]) -> Option<f64> {
    exact_f64(text).or_else(|| serde_json::from_slice::<f64>(text).ok())
}

/// A number literal whose value one IEEE operation gives exactly rounded: at most 15 digits
/// (a significand below 2^53, exact as a float) and a power of ten of at most 22 either way
/// (exact as a float too). serde_json computes `significand × 10^e` (or `÷ 10^-e`) there,
/// and its `float_roundtrip` parser rounds the exact value once as well: the same bits.
fn exact_f64(text: &[u8]) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let mut at = 0;
    let mut significand: u64 = 0;
    let mut digits = 0;
    let mut exponent: i32 = 0;
    // The digits before the point (`None` past it), and after it.
    let mut whole = Some(0);
    while let Some(&b) = text.get(at) {
        match (b, &mut whole) {
            (b'0'..=b'9', _) => {
                significand = significand * 10 + u64::from(b - b'0');
                digits += 1;
                if digits > 15 {
                    return None;
                }
                match &mut whole {
                    Some(n) => *n += 1,
                    None => exponent -= 1,
                }
            }
            (b'.', Some(n)) if *n > 0 => whole = None,
            _ => break,
        }
        at += 1;
    }
    let fraction_digits = exponent.unsigned_abs() as usize;
    if digits == 0 || (whole.is_none() && fraction_digits == 0) {
        return None;
    }
    if let Some(b'e' | b'E') = text.get(at) {
        at += 1;
        let sign = match text.get(at) {
            Some(b'-') => {
                at += 1;
                -1
            }
            Some(b'+') => {
                at += 1;
                1
            }
            _ => 1,
        };
        let start = at;
        let mut e: i32 = 0;
        while let Some(&d) = text.get(at).filter(|d| d.is_ascii_digit()) {
            if at - start == 3 {
                return None;
            }
            e = e * 10 + i32::from(d - b'0');
            at += 1;
        }
        if at == start {
            return None;
        }
        exponent += sign * e;
    }
    let power = POW10.get(exponent.unsigned_abs() as usize)?;
    if at != text.len() {
        return None;
    }
    let value = if exponent >= 0 {
        significand as f64 * power
    } else {
        significand as f64 / power
    };
    Some(if negative { -value } else { value })
}

/// A number literal as serde_json hands it to an `f32`'s visitor: an integer as for any
/// number, a float through serde_json's own `f32` parse (single precision where its
/// `float_roundtrip` feature is on, which any crate of the build may turn on).
pub(crate) fn f32_number(text: &[u8], kind: NodeKind) -> Option<Number> {
    match (kind, number(text, kind)) {
        (NodeKind::Int, Some(n @ (Number::U64(_) | Number::I64(_)))) => Some(n),
        _ => serde_json::from_slice::<f32>(text)
            .ok()
            .map(|v| Number::F64(f64::from(v))),
    }
}

/// An exact 128-bit integer literal: its sign and magnitude.
fn int128(text: &[u8]) -> Option<(bool, u128)> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let mut n: u128 = 0;
    for d in digits {
        n = n
            .checked_mul(10)?
            .checked_add(u128::from(d.checked_sub(b'0')?))?;
    }
    Some((negative, n))
}

/// An integer literal as serde_json reads it for an `i128` (digit by digit, `-0` is 0).
pub(crate) fn i128_of(text: &[u8]) -> Option<i128> {
    match int128(text)? {
        (true, n) if n <= i128::MIN.unsigned_abs() => Some((n as i128).wrapping_neg()),
        (true, _) => None,
        (false, n) => i128::try_from(n).ok(),
    }
}

/// An integer literal as serde_json reads it for a `u128` (no sign at all).
pub(crate) fn u128_of(text: &[u8]) -> Option<u128> {
    match int128(text)? {
        (false, n) => Some(n),
        (true, _) => None,
    }
}

/// serde_json's reading of an object key as a number (its `MapKey`, where the key type asks
/// for one): the key's raw bytes (a key with an escape is none) are one number by JSON's
/// grammar, nothing around it.
pub(crate) fn key_number(text: &[u8]) -> Option<Number> {
    match number_end(text, 0) {
        Some((end, kind)) if end == text.len() => number(text, kind),
        _ => None,
    }
}

/// The end of the number that starts at `input[start]` by JSON's grammar, and whether it
/// has a fraction or an exponent; `None` where it breaks the grammar (a leading zero, a
/// point or an exponent without digits).
pub(crate) fn number_end(input: &[u8], start: usize) -> Option<(usize, NodeKind)> {
    let digits = |at: &mut usize| {
        let from = *at;
        while input.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - from
    };
    let mut at = start;
    if input.get(at) == Some(&b'-') {
        at += 1;
    }
    match input.get(at)? {
        b'0' => {
            at += 1;
            if input.get(at).is_some_and(u8::is_ascii_digit) {
                return None;
            }
        }
        b'1'..=b'9' => {
            digits(&mut at);
        }
        _ => return None,
    }
    let mut kind = NodeKind::Int;
    if input.get(at) == Some(&b'.') {
        at += 1;
        kind = NodeKind::Float;
        if digits(&mut at) == 0 {
            return None;
        }
    }
    if let Some(b'e' | b'E') = input.get(at) {
        at += 1;
        kind = NodeKind::Float;
        if let Some(b'+' | b'-') = input.get(at) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return None;
        }
    }
    Some((at, kind))
}

/// The integer at `input[at]` when it has at most 18 digits (which a `u64` holds) by JSON's
/// grammar (no leading zero, no fraction, no exponent) and is not `-0`: whether it is
/// negative, its magnitude, and where it ends; `None` for any other text. Both one-pass
/// readers take such an integer in the pass that finds its end.
#[inline(always)]
pub(crate) fn plain_int(input: &[u8], at: usize) -> Option<(bool, u64, usize)> {
    let negative = input.get(at) == Some(&b'-');
    let start = at + usize::from(negative);
    let mut end = start;
    let mut n: u64 = 0;
    while let Some(&b) = input.get(end) {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        n = n.wrapping_mul(10).wrapping_add(u64::from(digit));
        end += 1;
    }
    let digits = end - start;
    let plain = (1..=18).contains(&digits)
        && (digits == 1 || input[start] != b'0')
        && !matches!(input.get(end), Some(b'.' | b'e' | b'E'))
        && !(negative && n == 0);
    plain.then_some((negative, n, end))
}

#[cfg(test)]
mod tests {
    use super::exact_f64;

    /// Where `exact_f64` gives a value, it is the one serde_json parses, to the bit; and it
    /// gives one for the short literals payloads mostly hold.
    #[test]
    fn exact_floats_are_serde_jsons_to_the_bit() {
        let mut seen = 0;
        let mut mantissas = vec![0u64, 1, 5, 9, 10, 905, 123_456, 999_999_999_999_999];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            mantissas.push(x % 10u64.pow(1 + (x % 17) as u32));
        }
        for m in mantissas {
            let digits = m.to_string();
            for point in 0..=digits.len() {
                for exponent in [
                    None,
                    Some(-30),
                    Some(-23),
                    Some(-22),
                    Some(-7),
                    Some(0),
                    Some(3),
                    Some(22),
                    Some(23),
                    Some(300),
                ] {
                    for sign in ["", "-"] {
                        let (int, frac) = digits.split_at(point);
                        let mut text = format!("{sign}{}", if int.is_empty() { "0" } else { int });
                        if !frac.is_empty() {
                            text = format!("{text}.{frac}");
                        }
                        if let Some(e) = exponent {
                            text = format!("{text}e{e}");
                        }
                        let serde = serde_json::from_str::<f64>(&text).ok();
                        if let Some(exact) = exact_f64(text.as_bytes()) {
                            seen += 1;
                            assert_eq!(Some(exact.to_bits()), serde.map(f64::to_bits), "{text}");
                        }
                    }
                }
            }
        }
        assert!(seen > 1000, "{seen}");
        for short in [
            "90.5",
            "0.1",
            "-0.0",
            "1e5",
            "1E+05",
            "2.5e-3",
            "123456.789",
        ] {
            assert!(exact_f64(short.as_bytes()).is_some(), "{short}");
        }
        for other in [
            "1e400",
            "0.30000000000000004",
            "1e-23",
            "1.5e0001",
            "1.",
            "e5",
        ] {
            assert!(exact_f64(other.as_bytes()).is_none(), "{other}");
        }
    }
}
