//! The exporter's state: the schema exported, the view, the `$defs` keys of its named
//! types and how deep flattened enums are inlined. Its methods are the JSON Schema of each
//! part of the model, beside what they build (the module, `enums`, `keys`).

use std::collections::{BTreeMap, HashSet};

use crate::model::{Schema, View};

/// What one export works with.
pub(super) struct Exporter<'a> {
    pub(super) schema: &'a Schema,
    pub(super) view: View,
    pub(super) keys: &'a BTreeMap<String, String>,
    /// The newtypes that lead through newtypes into a cycle ([`Schema::looping_newtypes`]).
    pub(super) looping: &'a HashSet<&'a str>,
    /// How many flattened enums are being inlined inside one another (a flattened enum
    /// whose variant holds its own struct recurses).
    pub(super) flat_depth: core::cell::Cell<usize>,
}
