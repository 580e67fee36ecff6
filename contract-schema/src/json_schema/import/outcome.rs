//! What an import returns: the schema and its warnings, or the error that stopped it. Each
//! carries the JSON pointer (RFC 6901) of the keyword it is about, in the document read.

use crate::model::Schema;

/// A peer's JSON Schema read into the model, with what the import dropped or doubts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The schema: the root type and the named types it reaches.
    pub schema: Schema,
    /// What was dropped (a producer's constraint the model cannot hold) or is doubtful (a
    /// root that constrains nothing, a producer's default not listed as required), in the
    /// order met.
    pub warnings: Vec<ImportWarning>,
}

/// Something the import dropped or doubts, at a keyword of the document (as JSON:
/// `{"pointer": …, "message": …}`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportWarning {
    /// The JSON pointer of the keyword, `""` for the document itself.
    pub pointer: String,
    /// What was dropped or doubted, and why; never a value of the document other than
    /// keyword and property names.
    pub message: String,
}

/// Why a document could not be imported: a keyword a consumer's schema relies on that the
/// model cannot hold, or a document that is not a JSON Schema the import reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The JSON pointer of the offending keyword, `""` for the document itself.
    pub pointer: String,
    /// What is wrong, and, where there is one, what to do.
    pub message: String,
}

/// The pointer as a URI fragment, `#` for the document itself: `#/properties/amount`.
fn fragment(f: &mut core::fmt::Formatter<'_>, pointer: &str) -> core::fmt::Result {
    write!(f, "#{pointer}")
}

/// `#/properties/amount/multipleOf: …`: the pointer as a URI fragment (`#` alone for the
/// document), so that the document itself is not confused with the pointer `/` (the key
/// `""`).
impl core::fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fragment(f, &self.pointer)?;
        write!(f, ": {}", self.message)
    }
}

/// As [`ImportWarning`]'s: `#/properties/amount/multipleOf: …`.
impl core::fmt::Display for ImportError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fragment(f, &self.pointer)?;
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ImportError {}
