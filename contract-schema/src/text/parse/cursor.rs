//! The cursor: a position within one line and the low-level reading it does (spaces,
//! keywords, punctuation, quoted strings with their escapes, Rust names), with errors that
//! point at a column of the line.

use std::collections::HashMap;

use super::lines::{set_once, Line, Once};
use super::messages::{shorten, LINE_KEYWORDS};
use crate::suggest::did_you_mean;
use crate::text::words::is_word_char;
use crate::text::ParseError;

/// A position within one line.
pub(super) struct Cursor<'l, 'a> {
    pub(super) line: &'l Line<'a>,
    pub(super) pos: usize,
}

impl<'l, 'a> Cursor<'l, 'a> {
    pub(super) fn new(line: &'l Line<'a>) -> Self {
        Self { line, pos: 0 }
    }

    pub(super) fn rest(&self) -> &'a str {
        self.line.text.get(self.pos..).unwrap_or("")
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    pub(super) fn spaces(&mut self) {
        while self.eat(' ') {}
    }

    pub(super) fn column(&self, at: usize) -> usize {
        let before = self.line.text.get(..at).unwrap_or(self.line.text);
        self.line.indent + before.chars().count() + 1
    }

    pub(super) fn error_at(&self, at: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(self.line.no, self.column(at), message)
    }

    /// The token at `at` as an error quotes it: up to the next space, shortened.
    pub(super) fn token_at(&self, at: usize) -> String {
        let rest = self.line.text.get(at..).unwrap_or("");
        if rest.is_empty() {
            return "the end of the line".to_owned();
        }
        let token = rest.split(' ').next().unwrap_or(rest);
        format!("`{}`", shorten(token))
    }

    /// The end of the line, or an error at whatever follows.
    pub(super) fn end(&mut self) -> Result<(), ParseError> {
        self.spaces();
        if self.rest().is_empty() {
            Ok(())
        } else {
            Err(self.error_at(
                self.pos,
                format!(
                    "unexpected {} at the end of the line",
                    self.token_at(self.pos)
                ),
            ))
        }
    }

    /// A keyword (letters, digits, `-`), possibly empty, and where it starts.
    pub(super) fn keyword(&mut self) -> (&'a str, usize) {
        self.spaces();
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            self.pos += 1;
        }
        let word = self.line.text.get(start..self.pos).unwrap_or("");
        (word, start)
    }

    pub(super) fn expect_colon(&mut self, after: &str) -> Result<(), ParseError> {
        self.spaces();
        if !self.eat(':') {
            return Err(self.error_at(
                self.pos,
                format!(
                    "expected `:` after {after}, found {}",
                    self.token_at(self.pos)
                ),
            ));
        }
        self.spaces();
        if self.rest().is_empty() {
            return Err(self.error_at(self.pos, "expected a type after ':'"));
        }
        Ok(())
    }

    /// A double-quoted string with escapes.
    pub(super) fn string(&mut self, what: &str) -> Result<String, ParseError> {
        self.spaces();
        let start = self.pos;
        if !self.eat('"') {
            return Err(self.error_at(
                start,
                format!(
                    "expected {what} as a quoted string, found {}",
                    self.token_at(start)
                ),
            ));
        }
        let mut out = String::new();
        loop {
            let at = self.pos;
            match self.bump() {
                None => {
                    return Err(self.error_at(
                        start,
                        format!("{what} is not closed by a `\"` on this line"),
                    ))
                }
                Some('"') => return Ok(out),
                Some('\\') => out.push(self.escape(at)?),
                Some(c) => out.push(c),
            }
        }
    }

    fn escape(&mut self, at: usize) -> Result<char, ParseError> {
        match self.bump() {
            Some('"') => Ok('"'),
            Some('\\') => Ok('\\'),
            Some('n') => Ok('\n'),
            Some('r') => Ok('\r'),
            Some('t') => Ok('\t'),
            Some('u') => {
                if !self.eat('{') {
                    return Err(self.error_at(at, "expected `{` after `\\u` (write `\\u{1f600}`)"));
                }
                let digits_at = self.pos;
                while matches!(self.peek(), Some(c) if c.is_ascii_hexdigit()) {
                    self.pos += 1;
                }
                let digits = self.line.text.get(digits_at..self.pos).unwrap_or("");
                if !self.eat('}') || digits.is_empty() || digits.len() > 6 {
                    return Err(self.error_at(
                        at,
                        "a `\\u{…}` escape takes one to six hexadecimal digits and a closing `}`",
                    ));
                }
                u32::from_str_radix(digits, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        self.error_at(
                            at,
                            format!("`\\u{{{digits}}}` is not a Unicode scalar value"),
                        )
                    })
            }
            Some(other) => Err(self.error_at(
                at,
                format!(
                    "unknown escape `\\{}`; use `\\\"`, `\\\\`, `\\n`, `\\r`, `\\t` or `\\u{{…}}`",
                    other.escape_default()
                ),
            )),
            None => Err(self.error_at(at, "a `\\` at the end of the line")),
        }
    }

    /// `never` or a quoted name.
    pub(super) fn name_or_never(&mut self, what: &str) -> Result<Option<String>, ParseError> {
        self.spaces();
        if self.peek() == Some('"') {
            return self.string(what).map(Some);
        }
        let (word, at) = self.keyword();
        if word == "never" {
            return Ok(None);
        }
        Err(self.error_at(
            at,
            format!(
                "expected {what} as a quoted string, or `never`; found {}",
                self.token_at(at)
            ),
        ))
    }

    /// Zero or more `alias "NAME"`, leaving the cursor before the next word.
    pub(super) fn aliases(&mut self) -> Result<Vec<String>, ParseError> {
        let mut aliases = Vec::new();
        loop {
            self.spaces();
            let save = self.pos;
            let (word, _) = self.keyword();
            if word != "alias" {
                self.pos = save;
                return Ok(aliases);
            }
            aliases.push(self.string("the alias")?);
        }
    }

    /// The end of a line that may appear once in its item, and the `value` it gives.
    pub(super) fn end_once<T>(
        &mut self,
        slot: &mut Once<T>,
        value: T,
        keyword: &str,
    ) -> Result<(), ParseError> {
        self.end()?;
        set_once(slot, value, self.line, keyword)
    }

    /// The Rust name of a `what` (`field` or `variant`) that `names` (each with its line)
    /// does not hold yet, which it then holds.
    pub(super) fn unique_rust_name(
        &mut self,
        what: &str,
        names: &mut HashMap<String, usize>,
    ) -> Result<String, ParseError> {
        self.spaces();
        let at = self.pos;
        let name = self.rust_name(what)?;
        self.record_name(at, &name, names, |first| {
            format!(
                "a second {what} `{}` (the first is at line {first})",
                shorten(&name)
            )
        })?;
        Ok(name)
    }

    /// Records `name`, read at `at`, with this line in `names`; when `names` already holds
    /// it, the error `duplicate` words from the line of the first.
    pub(super) fn record_name(
        &self,
        at: usize,
        name: &str,
        names: &mut HashMap<String, usize>,
        duplicate: impl FnOnce(usize) -> String,
    ) -> Result<(), ParseError> {
        if let Some(&first) = names.get(name) {
            return Err(self.error_at(at, duplicate(first)));
        }
        names.insert(name.to_owned(), self.line.no);
        Ok(())
    }

    /// A Rust field or variant name: a plain word or a quoted string.
    fn rust_name(&mut self, what: &str) -> Result<String, ParseError> {
        self.spaces();
        if self.peek() == Some('"') {
            return self.string(&format!("the {what} name"));
        }
        let start = self.pos;
        while matches!(self.peek(), Some(c) if is_word_char(c)) {
            self.bump();
        }
        if start == self.pos {
            return Err(self.error_at(
                start,
                format!("expected the {what} name, found {}", self.token_at(start)),
            ));
        }
        Ok(self.line.text.get(start..self.pos).unwrap_or("").to_owned())
    }

    pub(super) fn expect_word(&mut self, expected: &str, place: &str) -> Result<(), ParseError> {
        let (word, at) = self.keyword();
        if word == expected {
            Ok(())
        } else {
            Err(self.error_at(
                at,
                format!("expected `{expected}` {place}, found {}", self.token_at(at)),
            ))
        }
    }

    pub(super) fn expect_char(&mut self, c: char, what: &str) -> Result<(), ParseError> {
        self.spaces();
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error_at(
                self.pos,
                format!("expected `{c}` {what}, found {}", self.token_at(self.pos)),
            ))
        }
    }
}

/// The error for a word that is not one of the keywords `allowed` in `context`: a line
/// keyword out of place, a likely misspelling, or a list of what is expected.
pub(super) fn unknown_keyword(
    c: &Cursor<'_, '_>,
    at: usize,
    word: &str,
    allowed: &[&str],
    context: &str,
) -> ParseError {
    let expected = allowed
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if word.is_empty() {
        return c.error_at(
            at,
            format!(
                "expected a keyword in {context}, found {}; expected one of {expected}",
                c.token_at(at)
            ),
        );
    }
    let word = shorten(word);
    if LINE_KEYWORDS.contains(&word.as_str()) {
        return c.error_at(
            at,
            format!("`{word}` does not belong in {context}; expected one of {expected}"),
        );
    }
    match did_you_mean(&word, allowed.iter().copied()) {
        Some(s) => c.error_at(
            at,
            format!("unknown keyword `{word}` in {context}; did you mean `{s}`?"),
        ),
        None => c.error_at(
            at,
            format!("unknown keyword `{word}` in {context}; expected one of {expected}"),
        ),
    }
}
