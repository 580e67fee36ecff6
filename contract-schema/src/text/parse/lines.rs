//! The lines of a schema text (numbered, with their indentation level) and the small
//! records the reader keeps about them: a value a line may give once, with the line that
//! gave it, and a named type referenced somewhere, with where.

use crate::text::ParseError;

/// One non-blank line.
pub(super) struct Line<'a> {
    /// Its number in the file, from 1.
    pub(super) no: usize,
    /// How many spaces indent it.
    pub(super) indent: usize,
    /// The text after the indentation, trailing spaces removed.
    pub(super) text: &'a str,
}

impl Line<'_> {
    pub(super) fn level(&self) -> usize {
        self.indent / 2
    }

    pub(super) fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.no, self.indent + 1, message)
    }
}

pub(super) fn split_lines(text: &str, offset: usize) -> Result<Vec<Line<'_>>, ParseError> {
    let mut lines = Vec::new();
    for (index, raw) in text.split('\n').enumerate() {
        let no = offset + index + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let raw = if index == 0 {
            raw.strip_prefix('\u{feff}').unwrap_or(raw)
        } else {
            raw
        };
        let content = raw.trim_start_matches(' ');
        let indent = raw.len() - content.len();
        let content = content.trim_end_matches([' ', '\t']);
        if content.is_empty() {
            continue;
        }
        if content.starts_with('\t') {
            return Err(ParseError::new(
                no,
                indent + 1,
                "a tab in the indentation; indent with two spaces per level",
            ));
        }
        if indent % 2 != 0 {
            return Err(ParseError::new(
                no,
                indent + 1,
                format!("an indentation of {indent} spaces; indent with two spaces per level"),
            ));
        }
        lines.push(Line {
            no,
            indent,
            text: content,
        });
    }
    Ok(lines)
}

/// A named type referenced somewhere, with where.
pub(super) struct Reference {
    pub(super) name: String,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// A value given by a line that may appear once, with the line that gave it.
pub(super) type Once<T> = Option<(T, usize)>;

pub(super) fn set_once<T>(
    slot: &mut Once<T>,
    value: T,
    line: &Line<'_>,
    keyword: &str,
) -> Result<(), ParseError> {
    if let Some((_, first)) = slot {
        return Err(line.error(format!(
            "a second `{keyword}` line (the first is at line {first})"
        )));
    }
    *slot = Some((value, line.no));
    Ok(())
}
