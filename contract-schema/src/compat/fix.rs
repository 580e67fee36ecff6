//! A finding's fix as data: what to edit, beside the hint text written from it.
//!
//! A fix is chosen for the contract's [`Mode`](crate::contract::Mode): under `full` it
//! is one that holds in both directions at once (a catch-all `#[serde(other)]` variant
//! helps new readers of old data, but new writers may then send it to old readers; an
//! alias helps new readers, but old readers still need the old key written).

use serde::Serialize;

use super::direction::Direction;
use crate::contract::ContractId;

/// How to fix a finding, as data a tool can act on; the finding's `hint` is its text.
///
/// Edits are made on the new side of an evolution (the schema being published), or on the
/// side the hint names in a producer/consumer check. Serialized (JSON) with a `kind`:
/// `{"kind": "attribute", "on": {"kind": "field", "name": "orderId"}, "edit": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Fix {
    /// Add, change or remove an attribute.
    Attribute {
        /// What carries the attribute.
        on: FixTarget,
        /// The edit.
        edit: AttributeEdit,
    },
    /// Keep a field the new side dropped (the old side's definition of it).
    KeepField {
        /// The field's wire name.
        name: String,
    },
    /// Keep an enum variant (a string enum's value) the new side dropped.
    KeepVariant {
        /// The variant's wire tag.
        name: String,
    },
    /// Restore what changed, or publish the change as a new major version: the change
    /// cannot be made compatible in place.
    RestoreOrNewMajor {
        /// What to restore, in words (`the type of \`amount\``).
        what: String,
    },
    /// Only a new major version fixes it: the old side, already deployed, rejects what the
    /// new side needs to write.
    NewMajorVersion,
    /// No structured edit: the hint says what to do (a producer and a consumer to bring
    /// together, a choice between several edits).
    Described,
}

/// What an attribute edit is made on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum FixTarget {
    /// A field, by its wire name on the edited side (the finding's path ends with it).
    Field {
        /// The field's wire name.
        name: String,
    },
    /// The struct that holds the finding's path (its last segment is a key of it).
    Container,
}

/// An attribute to add, change or remove.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum AttributeEdit {
    /// `#[handoff(renamed_from = "old")]` and `#[serde(alias = "old")]`: the field reads
    /// its old key too.
    AliasOldName {
        /// The old wire name.
        old: String,
    },
    /// `#[serde(rename = "old", alias = "new")]`: the field keeps writing its old key (old
    /// readers require it) and reads both.
    KeepOldName {
        /// The old wire name, written and read.
        old: String,
        /// The new wire name, read too.
        new: String,
    },
    /// `#[serde(default)]`: the field may be absent.
    AddDefault,
    /// Remove `skip_serializing_if`: the field is always written.
    RemoveSkipSerializingIf,
    /// Remove `#[serde(deny_unknown_fields)]` from the container.
    RemoveDenyUnknownFields,
    /// `#[handoff(assumption)]`: the field is read as an unconfirmed assumption.
    MarkAssumption,
    /// Remove `#[handoff(assumption)]`: the field is confirmed before it is written.
    UnmarkAssumption,
}

impl AttributeEdit {
    /// The attribute as written in Rust (`#[serde(alias = "orderRef")]`).
    #[must_use]
    pub fn attribute(&self) -> String {
        match self {
            AttributeEdit::AliasOldName { old } => {
                format!("#[handoff(renamed_from = \"{old}\")] #[serde(alias = \"{old}\")]")
            }
            AttributeEdit::KeepOldName { old, new } => {
                format!("#[serde(rename = \"{old}\", alias = \"{new}\")]")
            }
            AttributeEdit::AddDefault => "#[serde(default)]".to_owned(),
            AttributeEdit::RemoveSkipSerializingIf => "skip_serializing_if".to_owned(),
            AttributeEdit::RemoveDenyUnknownFields => "#[serde(deny_unknown_fields)]".to_owned(),
            AttributeEdit::MarkAssumption | AttributeEdit::UnmarkAssumption => {
                "#[handoff(assumption)]".to_owned()
            }
        }
    }
}

impl Fix {
    /// An attribute edit on the field of this wire name.
    pub(crate) fn on_field(name: &str, edit: AttributeEdit) -> Fix {
        Fix::Attribute {
            on: FixTarget::Field {
                name: name.to_owned(),
            },
            edit,
        }
    }

    /// Whether applying the fix needs a new major version (or restoring what changed,
    /// which the fix does not describe as an edit).
    #[must_use]
    pub fn needs_new_major(&self) -> bool {
        matches!(self, Fix::RestoreOrNewMajor { .. } | Fix::NewMajorVersion)
    }
}

/// The ways a hint offers a new major version instead of (or besides) an edit in place.
const NEW_MAJOR_REMEDIES: [&str; 5] = [
    ", or publish the removal as a new major version",
    ", or publish the change as a new major version",
    ", or publish a new major version",
    "; publish a new major version",
    ": publish it in a new major version",
];

/// A hint of a comparison of two majors of one contract (`old` to `new`, a later major) in
/// `direction`: `new` already is a new major version, so the hint does not offer one; it
/// says what the edit in place would keep, and that it may be left as it is.
pub(crate) fn across_majors(
    hint: &str,
    direction: Direction,
    old: &ContractId,
    new: &ContractId,
) -> String {
    let mut hint = hint.to_owned();
    for remedy in NEW_MAJOR_REMEDIES {
        hint = hint.replace(remedy, "");
    }
    let keeps = match direction {
        Direction::Forward => {
            format!("`{old}`'s consumers are to read what `{new}`'s producers send")
        }
        Direction::Check | Direction::Backward => {
            format!("`{new}`'s consumers are to read what `{old}`'s producers sent")
        }
    };
    format!("{hint}, if {keeps}; else nothing: `{new}` is already a new major version")
}
