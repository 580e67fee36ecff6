//! [`Presence`]: which fields of a contract arrived, never their values.

use core::fmt;
use std::collections::BTreeMap;

use contract_schema::shape::{Field, Kind, Provenance, Send, Shape, StructShape};
use serde::{Deserialize, Serialize};

use crate::traits::{shape_of, HandoffSchema};

/// Field-presence metadata of one payload: trace metadata that never carries a value.
///
/// It holds the contract id and, per schema path (`artifacts[].version`: one entry per path,
/// not per array element), whether the field arrived and how often, which required fields
/// were missing, and which unknown field names arrived (capped: past the cap only a count,
/// since a sender chooses them). Paths use the field names of the view they were recorded in
/// (receive: the name the receiver reads, send: the name the sender writes), `[]` for the
/// items of an array, `*` for the values of a map (whose keys are data and never appear) and
/// `(Variant)` for the variant of an enum.
///
/// It serializes with the key names of the tracing seed: `handoffContract`,
/// `receivedFields`, `missingFields`, `unknownFields`, and `<field>Present` for every field
/// of the contract's top level.
///
/// ```
/// use contract_core::Presence;
///
/// let presence: Presence = serde_json::from_str(
///     r#"{"handoffContract": "refund-request/v2", "receivedFields": ["category"],
///         "missingFields": ["orderId"], "unknownFields": ["orderRef"],
///         "categoryPresent": true, "orderIdPresent": false}"#,
/// )?;
/// assert_eq!(presence.contract(), Some("refund-request/v2"));
/// assert_eq!(presence.is_present("orderId"), Some(false));
/// assert_eq!(
///     presence.to_string(),
///     "refund-request/v2: received [category]; missing [orderId]; unknown [orderRef]"
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Presence {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    handoff_contract: Option<String>,
    received_fields: Vec<String>,
    missing_fields: Vec<String>,
    unknown_fields: Vec<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    unknown_fields_omitted: u64,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    field_counts: BTreeMap<String, u64>,
    #[serde(flatten)]
    present: BTreeMap<String, bool>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What the checker hands over to build a [`Presence`].
#[derive(Debug, Default)]
pub(crate) struct PresenceParts {
    pub contract: Option<String>,
    /// Paths that arrived, in first-arrival order, with their counts and whether they sit
    /// inside an array or a map.
    pub received: Vec<(String, u64, bool)>,
    pub missing: Vec<String>,
    pub unknown: Vec<String>,
    pub unknown_omitted: u64,
    /// The top-level fields and whether each arrived.
    pub top: Vec<(String, bool)>,
}

impl Presence {
    pub(crate) fn from_parts(parts: PresenceParts) -> Self {
        let mut field_counts = BTreeMap::new();
        let mut received_fields = Vec::with_capacity(parts.received.len());
        for (path, count, in_collection) in parts.received {
            if in_collection {
                field_counts.insert(path.clone(), count);
            }
            received_fields.push(path);
        }
        Presence {
            handoff_contract: parts.contract,
            received_fields,
            missing_fields: parts.missing,
            unknown_fields: parts.unknown,
            unknown_fields_omitted: parts.unknown_omitted,
            field_counts,
            present: parts
                .top
                .into_iter()
                .map(|(name, present)| (format!("{name}Present"), present))
                .collect(),
        }
    }

    /// The contract id (`refund-request/v2`), when the payload was checked against a contract.
    #[must_use]
    pub fn contract(&self) -> Option<&str> {
        self.handoff_contract.as_deref()
    }

    /// The paths of the fields that arrived, in the order they first arrived.
    #[must_use]
    pub fn received(&self) -> &[String] {
        &self.received_fields
    }

    /// The paths of required fields that were absent.
    #[must_use]
    pub fn missing(&self) -> &[String] {
        &self.missing_fields
    }

    /// The unknown field names that arrived, as paths (`meta.extra`), up to the cap.
    #[must_use]
    pub fn unknown(&self) -> &[String] {
        &self.unknown_fields
    }

    /// How many unknown field names arrived past the cap (counted, not named).
    #[must_use]
    pub fn unknown_omitted(&self) -> u64 {
        self.unknown_fields_omitted
    }

    /// How often the field at `path` arrived: once or not at all outside arrays and maps,
    /// once per element inside them.
    #[must_use]
    pub fn count(&self, path: &str) -> u64 {
        match self.field_counts.get(path) {
            Some(n) => *n,
            None => u64::from(self.received_fields.iter().any(|p| p == path)),
        }
    }

    /// Whether the top-level field `name` arrived; `None` when the contract has no such field.
    #[must_use]
    pub fn is_present(&self, name: &str) -> Option<bool> {
        self.present.get(&format!("{name}Present")).copied()
    }
}

fn list(f: &mut fmt::Formatter<'_>, label: &str, items: &[String]) -> fmt::Result {
    write!(f, "{label} [")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(item)?;
    }
    f.write_str("]")
}

impl fmt::Display for Presence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.contract().unwrap_or("payload"))?;
        list(f, "received", &self.received_fields)?;
        f.write_str("; ")?;
        list(f, "missing", &self.missing_fields)?;
        f.write_str("; ")?;
        list(f, "unknown", &self.unknown_fields)?;
        if self.unknown_fields_omitted > 0 {
            write!(f, " and {} more", self.unknown_fields_omitted)?;
        }
        Ok(())
    }
}

const fn field(
    name: &'static str,
    wire: &'static str,
    send: Send,
    default: bool,
    flatten: bool,
    ty: fn() -> &'static Shape,
    doc: &'static str,
) -> Field {
    Field {
        name,
        ser_name: wire,
        de_name: wire,
        aliases: &[],
        send,
        default,
        skip_deserializing: false,
        flatten,
        ty,
        provenance: Provenance::Confirmed,
        renamed_from: &[],
        doc,
    }
}

static PRESENCE_FIELDS: [Field; 7] = [
    field(
        "handoff_contract",
        "handoffContract",
        Send::IfPresent,
        true,
        false,
        shape_of::<Option<String>>,
        "The contract id, `name/vN`.",
    ),
    field(
        "received_fields",
        "receivedFields",
        Send::Always,
        false,
        false,
        shape_of::<Vec<String>>,
        "The paths of the fields that arrived.",
    ),
    field(
        "missing_fields",
        "missingFields",
        Send::Always,
        false,
        false,
        shape_of::<Vec<String>>,
        "The paths of required fields that were absent.",
    ),
    field(
        "unknown_fields",
        "unknownFields",
        Send::Always,
        false,
        false,
        shape_of::<Vec<String>>,
        "Unknown field names that arrived, up to the cap.",
    ),
    field(
        "unknown_fields_omitted",
        "unknownFieldsOmitted",
        Send::IfPresent,
        true,
        false,
        shape_of::<u64>,
        "How many unknown names arrived past the cap.",
    ),
    field(
        "field_counts",
        "fieldCounts",
        Send::IfPresent,
        true,
        false,
        shape_of::<BTreeMap<String, u64>>,
        "How often each field inside an array or a map arrived.",
    ),
    field(
        "present",
        "present",
        Send::Always,
        false,
        true,
        shape_of::<BTreeMap<String, bool>>,
        "`<field>Present` for each top-level field of the contract.",
    ),
];

static PRESENCE_STRUCT: StructShape = StructShape {
    fields: &PRESENCE_FIELDS,
    deny_unknown_fields: false,
};

/// A presence record travels in envelopes and traces, so it has a contract-grade description.
impl HandoffSchema for Presence {
    const SHAPE: &'static Shape = &Shape {
        name: "Presence",
        module: "contract_core",
        generics: &[],
        doc: "Field-presence metadata of one payload: which fields arrived, never their values.",
        kind: Kind::Struct(&PRESENCE_STRUCT),
    };
}
