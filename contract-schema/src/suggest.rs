//! "Did you mean": the closest of a few known words to a misspelt one.
//!
//! Shared by the schema text's parser (misspelt keywords and type names) and the derive
//! (misspelt attribute keys and rule ids), so that both suggest the same words. Public for
//! the derive only (hidden from the documentation): not part of the API.
//!
//! ```
//! use contract_schema::suggest::did_you_mean;
//!
//! let keys = ["name", "version", "mode"];
//! assert_eq!(did_you_mean("verison", keys), Some("version"));
//! assert_eq!(did_you_mean("colour", keys), None);
//! ```

/// Words longer than this (in characters) get no suggestion: a typo is a short word, and
/// the cost of comparing two words grows with the product of their lengths.
pub const MAX_WORD: usize = 64;

/// The candidate closest to `word` when it is close enough to be a likely typo: within an
/// [`edit_distance`] of a third of `word`'s characters (at least one). Of equally close
/// candidates, the first wins; `None` when none is close enough, or when `word` is longer
/// than [`MAX_WORD`] characters.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let length = word.chars().count();
    if length > MAX_WORD {
        return None;
    }
    let limit = (length / 3).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length: a long candidate costs
        // nothing to turn down.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The edit distance between two strings, over characters: the fewest insertions,
/// deletions, substitutions and swaps of two neighbours that turn `a` into `b` (optimal
/// string alignment), so that `sned` is one edit from `send`.
///
/// ```
/// use contract_schema::suggest::edit_distance;
///
/// assert_eq!(edit_distance("sned", "send"), 1);
/// assert_eq!(edit_distance("kitten", "sitting"), 3);
/// ```
#[must_use]
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // Three rows of the distance matrix: two back, one back, and the current one. Column
    // `j` holds the distance to the first `j` characters of `b`.
    let mut before: Vec<usize> = Vec::with_capacity(b.len() + 1);
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = Vec::with_capacity(b.len() + 1);
    let mut last_a: Option<char> = None;
    for (i, ca) in a.chars().enumerate() {
        cur.clear();
        cur.push(i + 1);
        let mut last_b: Option<char> = None;
        for (j, &cb) in b.iter().enumerate() {
            let diagonal = prev.get(j).copied().unwrap_or(usize::MAX);
            let above = prev.get(j + 1).copied().unwrap_or(usize::MAX);
            let left = cur.last().copied().unwrap_or(usize::MAX);
            let mut d = diagonal
                .saturating_add(usize::from(ca != cb))
                .min(above.saturating_add(1))
                .min(left.saturating_add(1));
            if last_a == Some(cb) && last_b == Some(ca) {
                let swapped = j
                    .checked_sub(1)
                    .and_then(|k| before.get(k))
                    .copied()
                    .unwrap_or(usize::MAX);
                d = d.min(swapped.saturating_add(1));
            }
            cur.push(d);
            last_b = Some(cb);
        }
        core::mem::swap(&mut before, &mut prev);
        core::mem::swap(&mut prev, &mut cur);
        last_a = Some(ca);
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{did_you_mean, edit_distance, MAX_WORD};

    #[test]
    fn edit_distance_counts_each_edit_once() {
        assert_eq!(edit_distance("sned", "send"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("ab", "ba"), 1);
        // Optimal string alignment: no substring is edited twice, so `ca` -> `abc` is 3.
        assert_eq!(edit_distance("ca", "abc"), 3);
        // Characters, not bytes.
        assert_eq!(edit_distance("café", "cafe"), 1);
        assert_eq!(edit_distance("日本", "本日"), 1);
    }

    #[test]
    fn typos_find_their_word() {
        let keys = ["name", "version", "mode", "crate", "snapshots", "schema_as"];
        assert_eq!(did_you_mean("verison", keys), Some("version"));
        assert_eq!(did_you_mean("snapshot", keys), Some("snapshots"));
        assert_eq!(did_you_mean("mdoe", keys), Some("mode"));
        assert_eq!(did_you_mean("schema", keys), None);
        assert_eq!(did_you_mean("zzzzzz", keys), None);
        assert_eq!(did_you_mean("", keys), None);
        assert_eq!(did_you_mean("name", []), None);
    }

    #[test]
    fn the_first_of_equally_close_candidates_wins() {
        assert_eq!(did_you_mean("bat", ["cat", "hat"]), Some("cat"));
        assert_eq!(did_you_mean("bat", ["hat", "cat"]), Some("hat"));
        // A closer candidate wins over an earlier one.
        assert_eq!(did_you_mean("send", ["sent", "send"]), Some("send"));
    }

    #[test]
    fn long_words_get_no_suggestion_and_cost_little() {
        let long = "a".repeat(MAX_WORD);
        let typo = format!("{}b", "a".repeat(MAX_WORD - 1));
        assert_eq!(did_you_mean(&typo, [long.as_str()]), Some(long.as_str()));
        let longer = format!("{long}a");
        assert_eq!(did_you_mean(&format!("{long}b"), [longer.as_str()]), None);
        // A huge word against huge candidates returns at once instead of comparing them.
        let huge = "x".repeat(1_000_000);
        assert_eq!(did_you_mean(&huge, [huge.as_str(), "x"]), None);
        assert_eq!(did_you_mean("x", [huge.as_str()]), None);
    }

    #[test]
    fn the_limit_grows_with_the_word() {
        // Up to five characters: one edit.
        assert_eq!(did_you_mean("abcde", ["abcxy"]), None);
        assert_eq!(did_you_mean("abcde", ["abcdx"]), Some("abcdx"));
        // Six characters: two edits.
        assert_eq!(did_you_mean("abcdef", ["abcdxy"]), Some("abcdxy"));
        assert_eq!(did_you_mean("abcdef", ["abcxyz"]), None);
    }
}
