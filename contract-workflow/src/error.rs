//! The one error type: what is wrong, and where, in words a person can act on.

use std::fmt;
use std::path::PathBuf;

/// Why a question could not be answered: the manifest, a ref, a snapshot or the store is
/// not usable. The `handoff` binary exits 2 on any of them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A mistake in the manifest: `handoff.toml:12: …` (the line when the mistake has one).
    Manifest {
        /// The manifest, as it was named.
        file: PathBuf,
        /// The line, from 1.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A ref that names no commit, or `git` that failed.
    Git(String),
    /// A snapshot or JSON Schema read at a ref that does not parse or import.
    Schema(String),
    /// The deployment store cannot be opened, read or written.
    Store(String),
}

impl Error {
    /// A mistake at `line` of the manifest `file`.
    pub(crate) fn manifest(file: &std::path::Path, line: Option<usize>, message: String) -> Self {
        Error::Manifest {
            file: file.to_owned(),
            line,
            message,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Manifest {
                file,
                line: Some(line),
                message,
            } => write!(f, "{}:{line}: {message}", file.display()),
            Error::Manifest {
                file,
                line: None,
                message,
            } => write!(f, "{}: {message}", file.display()),
            Error::Git(message) | Error::Schema(message) | Error::Store(message) => {
                f.write_str(message)
            }
        }
    }
}

impl std::error::Error for Error {}
