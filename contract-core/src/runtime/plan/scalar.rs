//! A scalar as a constraint sees it, and whether a constraint admits it: asked by both
//! one-pass paths as they go.

use contract_schema::constraint::{Constraint, IntValue};

/// A scalar as a constraint sees it.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Int(IntValue),
    Str(&'a str),
}

/// Whether `value` is within `constraint` (a value of another kind is for serde to refuse). A
/// string's pattern is not checked at run time (see the checker's documentation).
pub(crate) fn constraint_admits(constraint: &Constraint, value: Value<'_>) -> bool {
    match (constraint, value) {
        (Constraint::Int { values, .. }, Value::Int(v)) => values.contains(v),
        (Constraint::String(s), Value::Str(text)) => s.length.contains(text.chars().count() as u64),
        _ => true,
    }
}
