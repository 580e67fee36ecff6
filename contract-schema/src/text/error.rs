//! Why a schema text could not be read, and where.

use core::fmt;

/// Why a schema text could not be read, and where.
///
/// Displayed as `line 12, column 9: expected a type after ':'`. The message quotes at most
/// the offending token, shortened when long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    line: usize,
    column: usize,
    message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column,
            message: message.into(),
        }
    }

    /// The line of the problem, from 1.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column of the problem, in characters from 1.
    #[must_use]
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong, without the location.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}
