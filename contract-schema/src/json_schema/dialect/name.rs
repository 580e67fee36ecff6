//! The dialects by name, each with its rule table.

use core::fmt;
use core::str::FromStr;

use super::rules::{self, Rules};

/// A model provider's schema dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// OpenAI structured outputs and function calling with `strict: true`.
    OpenAiStrict,
    /// Anthropic strict tool use (`input_schema`) and JSON outputs.
    Anthropic,
    /// Gemini's `responseJsonSchema`.
    Gemini,
}

impl Dialect {
    /// Every dialect, in the order of their names.
    pub const ALL: [Dialect; 3] = [Dialect::Anthropic, Dialect::Gemini, Dialect::OpenAiStrict];

    /// The dialect's name: `openai-strict`, `anthropic`, `gemini`.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The provider's documentation pages the dialect's rules follow.
    #[must_use]
    pub fn docs(self) -> &'static [&'static str] {
        self.rules().docs
    }

    pub(super) fn rules(self) -> &'static Rules {
        match self {
            Dialect::OpenAiStrict => &rules::OPENAI_STRICT,
            Dialect::Anthropic => &rules::ANTHROPIC,
            Dialect::Gemini => &rules::GEMINI,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no dialect's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect;

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown dialect: expected openai-strict, anthropic or gemini")
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or(UnknownDialect)
    }
}
