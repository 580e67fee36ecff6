//! The messages of parse errors: what an unknown keyword, word, rule id or type name is
//! told (with a did-you-mean when one is close), the keyword tables they list, and how a
//! quoted name is shortened.

use std::collections::BTreeMap;

use crate::model::TypeDef;
use crate::model::RESERVED;
use crate::rules::Rule;
use crate::suggest::did_you_mean;

/// How many characters of an offending token an error quotes.
const MAX_QUOTE: usize = 32;

/// Every keyword that starts a line, to tell a misplaced line from a misspelt one.
pub(super) const LINE_KEYWORDS: &[&str] = &[
    "contract",
    "mode",
    "allow",
    "root",
    "struct",
    "enum",
    "newtype",
    "views",
    "rust",
    "doc",
    "unknown",
    "extra",
    "field",
    "flatten",
    "repr",
    "variant",
    "send",
    "receive",
    "renamed-from",
    "assumption",
    "catch-all",
    "untagged",
];

pub(super) const TOP_KEYWORDS: &[&str] = &[
    "contract", "mode", "allow", "root", "struct", "enum", "newtype", "views",
];
pub(super) const STRUCT_KEYWORDS: &[&str] =
    &["rust", "doc", "unknown", "extra", "field", "flatten"];
pub(super) const ENUM_KEYWORDS: &[&str] = &["rust", "doc", "repr", "unknown", "variant"];
pub(super) const NEWTYPE_KEYWORDS: &[&str] = &["rust", "doc"];
pub(super) const VIEWS_KEYWORDS: &[&str] = &["rust", "doc", "send", "receive"];
pub(super) const FIELD_KEYWORDS: &[&str] =
    &["doc", "send", "receive", "renamed-from", "assumption"];
pub(super) const FLATTEN_KEYWORDS: &[&str] = &["doc", "send", "receive"];
pub(super) const VARIANT_KEYWORDS: &[&str] = &["doc", "send", "receive", "catch-all", "untagged"];
pub(super) const STRUCT_VARIANT_KEYWORDS: &[&str] = &[
    "doc",
    "send",
    "receive",
    "catch-all",
    "untagged",
    "unknown",
    "extra",
    "field",
    "flatten",
];

/// The message for a word that is not one of a few choices.
pub(super) fn choice_message(word: &str, choices: &[&str], place: &str) -> String {
    let expected = choices
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    if word.is_empty() {
        return format!("expected {expected} {place}");
    }
    let word = shorten(word);
    match did_you_mean(&word, choices.iter().copied()) {
        Some(s) => format!("unknown word `{word}` {place}; did you mean `{s}`?"),
        None => format!("unknown word `{word}` {place}; expected {expected}"),
    }
}

/// The message for a rule id that is not in the catalogue; `token` quotes what was found
/// when the id is empty.
pub(super) fn unknown_rule(rule: &str, token: &str) -> String {
    if rule.is_empty() {
        return format!(
            "expected a rule id after `allow` (such as `FIELD_REMOVED`), found {token}"
        );
    }
    // A quoted id may hold any character: the message shows control characters escaped.
    let shown = shorten(&rule.escape_debug().to_string());
    let ids = Rule::ALL.iter().map(|r| r.id());
    // Ids are SCREAMING_SNAKE: a lowercase or kebab-case spelling is still recognised.
    let spelt = rule.to_ascii_uppercase().replace('-', "_");
    match did_you_mean(&spelt, ids) {
        Some(s) => format!("unknown rule `{shown}` after `allow`; did you mean `{s}`?"),
        None => format!(
            "unknown rule `{shown}` after `allow`; expected a rule id of the catalogue \
             (such as `FIELD_REMOVED`)"
        ),
    }
}

pub(super) fn undefined(name: &str, types: &BTreeMap<String, TypeDef>) -> String {
    let shown = shorten(name);
    let lower = name.to_lowercase();
    if RESERVED.contains(&lower.as_str()) {
        return format!("type `{shown}` is not defined; did you mean the built-in `{lower}`?");
    }
    match did_you_mean(name, types.keys().map(String::as_str)) {
        Some(s) => format!(
            "type `{shown}` is not defined; did you mean `{}`?",
            shorten(s)
        ),
        None => format!("type `{shown}` is not defined in this schema"),
    }
}

/// A name as an error quotes it: at most [`MAX_QUOTE`] characters.
pub(super) fn shorten(s: &str) -> String {
    if s.chars().count() <= MAX_QUOTE {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(MAX_QUOTE).collect();
        out.push('…');
        out
    }
}
