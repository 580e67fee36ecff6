//! Which pairing a finding breaks: a producer against a consumer, or old and new versions
//! of one contract, each way.

use serde::{Serialize, Serializer};

use crate::rules::Rule;

/// Which pairing a finding breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Direction {
    /// A producer's output read by a consumer ([`check`](crate::compat::check)).
    Check,
    /// Old writers read by new readers.
    Backward,
    /// New writers read by old readers.
    Forward,
}

impl Direction {
    /// The canonical spelling: `"check"`, `"backward"` or `"forward"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Check => "check",
            Direction::Backward => "backward",
            Direction::Forward => "forward",
        }
    }

    /// Who writes and who reads: `"writer -> reader"`, `"old writers -> new readers"`, ...
    #[must_use]
    pub const fn pairing(self) -> &'static str {
        match self {
            Direction::Check => "writer -> reader",
            Direction::Backward => "old writers -> new readers",
            Direction::Forward => "new writers -> old readers",
        }
    }

    /// Picks the rule that names a condition in this direction.
    pub(crate) const fn pick(self, check: Rule, backward: Rule, forward: Rule) -> Rule {
        match self {
            Direction::Check => check,
            Direction::Backward => backward,
            Direction::Forward => forward,
        }
    }

    /// The writers, as a plural sentence subject ("writers", "old writers").
    pub(crate) const fn writer(self) -> &'static str {
        match self {
            Direction::Check => "writers",
            Direction::Backward => "old writers",
            Direction::Forward => "new writers",
        }
    }

    /// The readers, as a plural sentence subject ("readers", "new readers").
    pub(crate) const fn reader(self) -> &'static str {
        match self {
            Direction::Check => "readers",
            Direction::Backward => "new readers",
            Direction::Forward => "old readers",
        }
    }
}

impl core::fmt::Display for Direction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as its canonical spelling.
impl Serialize for Direction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
