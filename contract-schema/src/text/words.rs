//! The words of the canonical text: quoted strings (escaped so that a review sees every
//! character) and the Rust names written bare when they are plain words. Both directions
//! take them from here: the writer quotes, the parser reads a bare word as the writer
//! writes one.

use core::fmt::Write as _;

/// Whether a character is written as an escape inside a quoted string: control
/// characters, line and paragraph separators, and invisible formatting characters (zero
/// widths, bidirectional overrides, byte-order mark) that would hide text in a review.
fn must_escape(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// A string in double quotes, escaped.
pub(super) struct Quoted<'a>(pub(super) &'a str);

impl core::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if must_escape(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// Whether a Rust field or variant name can be written without quotes.
fn is_plain_word(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_word_char)
}

/// The characters of a bare Rust name: letters, digits, `_`, `.` (flattened paths) and
/// `#` (raw identifiers).
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '#')
}

/// A Rust field or variant name: bare when it is a plain word, quoted otherwise.
pub(super) struct RustName<'a>(pub(super) &'a str);

impl core::fmt::Display for RustName<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if is_plain_word(self.0) {
            f.write_str(self.0)
        } else {
            Quoted(self.0).fmt(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_escape_what_a_review_cannot_see() {
        assert_eq!(Quoted("a \"b\" \\ c").to_string(), r#""a \"b\" \\ c""#);
        assert_eq!(
            Quoted("one\ntwo\tthree\r").to_string(),
            r#""one\ntwo\tthree\r""#
        );
        assert_eq!(Quoted("\u{0}\u{7f}").to_string(), r#""\u{0}\u{7f}""#);
        // A bidirectional override and a zero-width space would hide text in a diff.
        assert_eq!(
            Quoted("a\u{202e}b\u{200b}").to_string(),
            r#""a\u{202e}b\u{200b}""#
        );
        // Printable non-ASCII stays readable.
        assert_eq!(Quoted("退款 → ok").to_string(), "\"退款 → ok\"");
    }

    #[test]
    fn rust_names_are_bare_only_when_plain_words() {
        assert_eq!(RustName("order_id").to_string(), "order_id");
        assert_eq!(RustName("context.task_id").to_string(), "context.task_id");
        assert_eq!(RustName("r#type").to_string(), "r#type");
        assert_eq!(RustName("odd name").to_string(), "\"odd name\"");
        assert_eq!(RustName("").to_string(), "\"\"");
        assert_eq!(RustName("a:b").to_string(), "\"a:b\"");
    }
}
