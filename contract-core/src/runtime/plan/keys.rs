//! Keys compared and fingerprinted as the paths meet them.

use std::hash::Hasher;

use contract_schema::model::{FieldDef, StructDef};
use rustc_hash::FxHasher;

/// `a == b`, compared in line for the short names fields mostly have: two overlapping
/// loads cover every length from 4 to 16 bytes, three single bytes every length below 4.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        9..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

/// The `N` bytes of `s` from `at` (in bounds by the callers' match).
#[inline(always)]
fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
    let mut w = [0; N];
    w.copy_from_slice(&s[at..at + N]);
    w
}

pub(crate) fn fingerprint(kind: u8, bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write_u8(kind);
    h.write(bytes);
    h.finish()
}

/// The field of `def` the receiver reads `key` into: serde gives a key to the first field
/// that reads it; keys mostly come in declaration order, so the search starts at `guess`.
/// Both one-pass readers (`read::fast`, `read::reject`) match keys with it.
#[inline(always)]
pub(crate) fn field_named(def: &StructDef, guess: usize, key: &[u8]) -> Option<usize> {
    let fields = &def.fields;
    let guess = guess.min(fields.len());
    let mut f = guess;
    while f < fields.len() {
        if reads(&fields[f], key) {
            return Some(f);
        }
        f += 1;
    }
    (0..guess).find(|&f| reads(&fields[f], key))
}

/// Whether the receiver reads `key` into `field` (its name or an alias).
#[inline(always)]
fn reads(field: &FieldDef, key: &[u8]) -> bool {
    field.receiver.as_ref().is_some_and(|r| {
        same(r.name.as_bytes(), key) || r.aliases.iter().any(|a| same(a.as_bytes(), key))
    })
}

#[cfg(test)]
mod tests {
    use super::same;

    /// `same` is `==` at every length its loads split differently, whichever byte differs.
    #[test]
    fn same_is_equality_at_every_length() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same(&a, &b), "length {n}, byte {at}");
            }
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!same(&a, &longer), "{n}");
        }
    }
}
