//! Why a field is missing: its four causes (not emitted, dropped on the way, renamed by a
//! mapper, another version), told apart from the evidence at hand.
//!
//! A required field that did not arrive was either **not emitted** (the producer never wrote
//! it), **dropped on the way** (written, not arrived), **renamed by a mapper** (it arrived
//! under another name), or sent by a producer on **another version** of the contract. The
//! receiver's [`Presence`] says what arrived; the sender's `Presence`, when it travels with
//! the payload, says what was written; the contract's other published versions, and the
//! payload itself, say which version it fits.

use core::fmt;
use std::any::TypeId;

use contract_schema::model::{Body, FieldDef, Type, VariantDefKind};
use contract_schema::suggest::did_you_mean;
use contract_schema::Schema;
use serde::Serialize;

use super::options::Limits;
use super::presence::Presence;
use crate::traits::HandoffContract;

/// How sure a cause is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Certainty {
    /// The evidence shows it.
    Established,
    /// Not ruled out by the evidence at hand.
    Possible,
}

/// One cause of a missing field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Cause {
    /// The producer never wrote it.
    NotEmitted {
        /// How sure.
        certainty: Certainty,
    },
    /// The producer wrote it and it did not arrive.
    DroppedOnTheWay {
        /// How sure.
        certainty: Certainty,
    },
    /// It arrived under another name, which the receiver does not read.
    RenamedByMapper {
        /// The name it arrived under (a field name: structure).
        arrived_as: String,
        /// Why that name is this field: `renamed_from`, its name in another version, or a
        /// close spelling.
        because: String,
        /// How sure.
        certainty: Certainty,
    },
    /// The producer follows another version of the contract.
    AnotherVersion {
        /// That version's id (`refund-request/v1`).
        contract: String,
        /// What shows it.
        because: String,
        /// How sure.
        certainty: Certainty,
    },
}

impl Cause {
    /// How sure this cause is.
    #[must_use]
    pub fn certainty(&self) -> Certainty {
        match self {
            Cause::NotEmitted { certainty }
            | Cause::DroppedOnTheWay { certainty }
            | Cause::RenamedByMapper { certainty, .. }
            | Cause::AnotherVersion { certainty, .. } => *certainty,
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sure = |c: Certainty| match c {
            Certainty::Established => "",
            Certainty::Possible => "possibly ",
        };
        match self {
            Cause::NotEmitted { certainty } => {
                write!(f, "{}not emitted by the producer", sure(*certainty))
            }
            Cause::DroppedOnTheWay { certainty } => write!(
                f,
                "{}dropped on the way: the producer wrote it, it did not arrive",
                sure(*certainty)
            ),
            Cause::RenamedByMapper {
                arrived_as,
                because,
                certainty,
            } => write!(
                f,
                "{}renamed on the way: it arrived as `{arrived_as}` ({because})",
                sure(*certainty)
            ),
            Cause::AnotherVersion {
                contract,
                because,
                certainty,
            } => write!(
                f,
                "{}the producer follows {contract} ({because})",
                sure(*certainty)
            ),
        }
    }
}

/// The causes of one missing field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingField {
    /// The field's schema path in the receiver's view (`artifacts[].version`).
    pub path: String,
    /// Its causes: those the evidence establishes, or else those it leaves possible.
    pub causes: Vec<Cause>,
}

/// Why each missing field of one payload is missing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    contract: String,
    fields: Vec<MissingField>,
    /// What the diagnosis could not use, and why (a version without a contract id).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
}

impl Diagnosis {
    /// One entry per missing field, in the order of the receiver's presence record.
    #[must_use]
    pub fn fields(&self) -> &[MissingField] {
        &self.fields
    }

    /// What the diagnosis could not use of the evidence it was given, and why: a schema
    /// passed with [`WhyMissing::version`] that has no contract id is used to explain renames
    /// only, since "the producer follows another version" needs a version to name.
    #[must_use]
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The causes of the field at `path`.
    #[must_use]
    pub fn causes(&self, path: &str) -> &[Cause] {
        self.fields
            .iter()
            .find(|f| f.path == path)
            .map_or(&[], |f| &f.causes)
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fields.is_empty() {
            // Notes explain causes: with no field missing there is nothing they qualify.
            return write!(f, "{}: no field is missing", self.contract);
        }
        write!(f, "{}: why fields are missing", self.contract)?;
        for field in &self.fields {
            write!(f, "\n  {}:", field.path)?;
            for (i, cause) in field.causes.iter().enumerate() {
                let sep = if i == 0 { " " } else { "; or " };
                write!(f, "{sep}{cause}")?;
            }
        }
        for note in &self.notes {
            write!(f, "\n  note: {note}")?;
        }
        Ok(())
    }
}

/// The evidence about one payload's missing fields; [`WhyMissing::explain`] weighs it.
/// Start it with [`why_missing`].
#[derive(Debug, Clone)]
pub struct WhyMissing<'a> {
    schema: &'static Schema,
    received: &'a Presence,
    sender: Option<&'a Presence>,
    payload: Option<&'a [u8]>,
    /// The other published versions the derive embedded, parsed once per type.
    published: &'static [Schema],
    /// Versions passed in by hand.
    versions: Vec<Schema>,
}

/// The other published versions of contract `T` (its embedded snapshots that parse), once
/// per type.
pub(crate) fn published_of<T: HandoffContract + 'static>() -> &'static [Schema] {
    super::plan::per_type!([Schema], TypeId::of::<T>(), || {
        let own = T::CONTRACT.version;
        T::PUBLISHED
            .iter()
            .filter(|p| p.version != own)
            .filter_map(|p| contract_schema::snapshot::parse(p.text).ok())
            .collect::<Vec<_>>()
            .into_boxed_slice()
    })
}

/// Starts a diagnosis of the fields of contract `T` missing from a payload, from the
/// receiver's presence record (of a [`Received`](super::Received) or a
/// [`Rejection`](super::Rejection)). The contract's other published versions, which the
/// derive embeds from its snapshot folder, are taken into account.
///
/// ```
/// use contract_core::{receive, why_missing, HandoffContract};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 2)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     category: String,
///     #[handoff(renamed_from = "orderRef")]
///     order_id: String,
/// }
///
/// // A mapper on the way wrote the old name.
/// let payload = br#"{"category": "damaged", "orderRef": "A-1"}"#;
/// let rejection = receive::<RefundRequest>(payload).unwrap_err();
/// let diagnosis = why_missing::<RefundRequest>(rejection.presence()).payload(payload).explain();
/// assert_eq!(
///     diagnosis.to_string(),
///     "refund-request/v2: why fields are missing
///   orderId: renamed on the way: it arrived as `orderRef` (the field's renamed_from)"
/// );
/// ```
#[must_use]
pub fn why_missing<T: HandoffContract + 'static>(received: &Presence) -> WhyMissing<'_> {
    WhyMissing {
        schema: super::plan::schema_of::<T>(),
        received,
        sender: None,
        payload: None,
        published: published_of::<T>(),
        versions: Vec::new(),
    }
}

impl<'a> WhyMissing<'a> {
    /// The producer's presence record of what it wrote (it travels with the payload).
    #[must_use]
    pub fn sender(mut self, sender: &'a Presence) -> Self {
        self.sender = Some(sender);
        self
    }

    /// The payload, so that other versions can be tried on it.
    #[must_use]
    pub fn payload(mut self, bytes: &'a [u8]) -> Self {
        self.payload = Some(bytes);
        self
    }

    /// Another version of the contract (one the derive did not embed).
    #[must_use]
    pub fn version(mut self, schema: Schema) -> Self {
        self.versions.push(schema);
        self
    }

    /// Weighs the evidence for every missing field.
    #[must_use]
    pub fn explain(&self) -> Diagnosis {
        let contract = self
            .schema
            .contract
            .as_ref()
            .map_or_else(|| "payload".to_owned(), ToString::to_string);
        let fitting = self.fitting_versions();
        let fields = self
            .received
            .missing()
            .iter()
            .map(|path| MissingField {
                path: path.as_str().to_owned(),
                causes: self.causes(path, &contract, &fitting),
            })
            .collect();
        let unnamed = self
            .versions
            .iter()
            .filter(|v| v.contract.is_none())
            .count();
        let notes = match unnamed {
            0 => Vec::new(),
            n => vec![format!(
                "{n} version{s} passed with .version() {have} no contract id: used to explain \
                 renames only, never as another version the producer may follow (pass a \
                 contract's schema, or a snapshot, to have {it} considered)",
                s = if n == 1 { "" } else { "s" },
                have = if n == 1 { "has" } else { "have" },
                it = if n == 1 { "it" } else { "them" },
            )],
        };
        Diagnosis {
            contract,
            fields,
            notes,
        }
    }

    /// The embedded versions, then those passed in.
    fn all_versions(&self) -> impl Iterator<Item = &Schema> {
        self.published.iter().chain(&self.versions)
    }

    /// The other versions whose receiver view accepts the payload.
    fn fitting_versions(&self) -> Vec<String> {
        let Some(bytes) = self.payload else {
            return Vec::new();
        };
        let limits = Limits::default();
        self.all_versions()
            .filter(|v| v.contract != self.schema.contract)
            .filter(|v| super::full::fits_receiver(v, bytes, &limits))
            .filter_map(|v| v.contract.as_ref().map(ToString::to_string))
            .collect()
    }

    fn causes(&self, path: &str, contract: &str, fitting: &[String]) -> Vec<Cause> {
        let (parent, name) = match path.rsplit_once('.') {
            Some((parent, name)) => (Some(parent), name),
            None => (None, path),
        };
        let field = field_at(self.schema, path);
        let mut causes = Vec::new();
        let sent_by = self.sender.and_then(Presence::contract);
        // The producer on another version.
        if let Some(sent_by) = sent_by {
            if sent_by != contract {
                causes.push(Cause::AnotherVersion {
                    contract: sent_by.to_owned(),
                    because: "the producer's presence record names it".to_owned(),
                    certainty: Certainty::Established,
                });
            }
        }
        // A producer's record naming this very contract says which version wrote the
        // payload: that another version's receiver view also accepts it is no evidence then.
        let fits = if sent_by == Some(contract) {
            &[][..]
        } else {
            fitting
        };
        for version in fits {
            if !causes
                .iter()
                .any(|c| matches!(c, Cause::AnotherVersion { contract, .. } if contract == version))
            {
                causes.push(Cause::AnotherVersion {
                    contract: version.clone(),
                    because: "the payload fits its receiver view".to_owned(),
                    certainty: Certainty::Established,
                });
            }
        }
        // A name that arrived beside it, unknown to the receiver.
        if let Some(rename) = self.renamed(parent, name, field, sent_by) {
            causes.push(rename);
        }
        let renamed = causes
            .iter()
            .any(|c| matches!(c, Cause::RenamedByMapper { .. }));
        // A producer on another version writes that version's names: what its record lacks
        // says nothing about this version's fields.
        let sender = self
            .sender
            .filter(|s| s.contract().is_none_or(|id| id == contract));
        match sender {
            Some(sender) => {
                let sender_path = field
                    .and_then(|f| f.sender.as_ref())
                    .map_or_else(|| path.to_owned(), |s| join(parent, &s.name));
                let written = sender.count(&sender_path) > 0 || sender.count(path) > 0;
                if !written {
                    causes.push(Cause::NotEmitted {
                        certainty: Certainty::Established,
                    });
                } else if !renamed {
                    causes.push(Cause::DroppedOnTheWay {
                        certainty: Certainty::Established,
                    });
                }
            }
            None if causes.is_empty() && self.sender.is_none() => {
                causes.push(Cause::NotEmitted {
                    certainty: Certainty::Possible,
                });
                causes.push(Cause::DroppedOnTheWay {
                    certainty: Certainty::Possible,
                });
            }
            None => {}
        }
        causes
    }

    /// An unknown name that arrived beside the missing field and names it. A name that is
    /// the field's in the version the producer's record names (`sent_by`) is that version's
    /// writing, not a rename on the way: none is offered then.
    fn renamed(
        &self,
        parent: Option<&str>,
        name: &str,
        field: Option<&FieldDef>,
        sent_by: Option<&str>,
    ) -> Option<Cause> {
        let beside: Vec<&str> = self
            .received
            .unknown()
            .iter()
            .filter_map(|u| match (u.rsplit_once('.'), parent) {
                (Some((p, n)), Some(parent)) if p == parent => Some(n),
                (None, None) => Some(u.as_str()),
                _ => None,
            })
            .collect();
        let found = |arrived_as: &str, because: String| {
            Some(Cause::RenamedByMapper {
                arrived_as: arrived_as.to_owned(),
                because,
                certainty: Certainty::Established,
            })
        };
        if let Some(field) = field {
            if let Some(old) = beside
                .iter()
                .find(|u| field.renamed_from.iter().any(|r| r == *u))
            {
                return found(old, "the field's renamed_from".to_owned());
            }
            for version in self.all_versions() {
                let id = version.contract.as_ref().map(ToString::to_string);
                for other in same_field(version, field) {
                    if let Some(u) = beside.iter().find(|u| **u == other) {
                        if id.is_some() && id.as_deref() == sent_by {
                            return None;
                        }
                        let id = id.as_deref().unwrap_or("another version");
                        return found(u, format!("its name in {id}"));
                    }
                }
            }
        }
        let close = did_you_mean(name, beside.iter().copied())?;
        found(close, "a close spelling".to_owned())
    }
}

fn join(parent: Option<&str>, name: &str) -> String {
    match parent {
        Some(parent) => format!("{parent}.{name}"),
        None => name.to_owned(),
    }
}

/// The wire names another version gives the field: a field there with the same Rust name,
/// or one whose `renamed_from` names this field's key (v2's `order_id`, renamed from
/// `orderRef`, is v1's `order_ref`).
fn same_field<'v>(version: &'v Schema, field: &FieldDef) -> Vec<&'v str> {
    let keys: Vec<&str> = field
        .receiver
        .iter()
        .flat_map(|r| std::iter::once(&r.name).chain(&r.aliases))
        .chain(field.sender.iter().map(|s| &s.name))
        .map(String::as_str)
        .collect();
    let same = |f: &FieldDef| {
        f.rust_name == field.rust_name || f.renamed_from.iter().any(|r| keys.contains(&r.as_str()))
    };
    let mut names = Vec::new();
    for def in version.types.values() {
        if let Body::Struct(s) = &def.body {
            for f in s.fields.iter().filter(|f| same(f)) {
                names.extend(f.receiver.as_ref().map(|r| r.name.as_str()));
                names.extend(f.sender.as_ref().map(|s| s.name.as_str()));
            }
        }
    }
    names
}

/// The field at a receiver-view schema path (`artifacts[].version`, `payment(Card).number`,
/// `labels.*.name`).
fn field_at<'s>(schema: &'s Schema, path: &str) -> Option<&'s FieldDef> {
    /// Where the walk is: at a type, or at the fields of a struct variant.
    enum At<'s> {
        Ty(&'s Type),
        Fields(&'s [FieldDef]),
    }
    let struct_fields = |ty: &'s Type| match unwrap(schema, ty) {
        Type::Named(name) => match &schema.def(name)?.body {
            Body::Struct(s) => Some(&s.fields[..]),
            _ => None,
        },
        _ => None,
    };
    let mut at = At::Ty(&schema.root);
    let mut field = None;
    for segment in path.split('.') {
        if segment == "*" {
            let At::Ty(ty) = at else { return None };
            let Type::Map(_, value) = unwrap(schema, ty) else {
                return None;
            };
            at = At::Ty(value);
            continue;
        }
        let (head, mut rest) = segment.split_at(segment.find(['(', '[']).unwrap_or(segment.len()));
        let fields = match at {
            At::Fields(fields) => fields,
            At::Ty(ty) => struct_fields(ty)?,
        };
        let found = fields
            .iter()
            .find(|f| f.receiver.as_ref().is_some_and(|r| r.name == head))?;
        field = Some(found);
        at = At::Ty(&found.ty);
        while !rest.is_empty() {
            let At::Ty(ty) = at else { return None };
            if let Some(after) = rest.strip_prefix("[]") {
                at = match unwrap(schema, ty) {
                    Type::List(item) | Type::Set(item) | Type::Array(item, _) => At::Ty(item),
                    _ => return None,
                };
                rest = after;
            } else {
                let (tag, after) = rest.strip_prefix('(')?.split_once(')')?;
                let Type::Named(name) = unwrap(schema, ty) else {
                    return None;
                };
                let Body::Enum(e) = &schema.def(name)?.body else {
                    return None;
                };
                let variant = e
                    .variants
                    .iter()
                    .find(|v| v.receiver.iter().any(|t| t == tag))?;
                at = match &variant.kind {
                    VariantDefKind::Newtype(inner) => At::Ty(inner),
                    VariantDefKind::Struct(s) => At::Fields(&s.fields),
                    _ => return None,
                };
                rest = after;
            }
        }
    }
    field
}

/// The type under `Option`s and newtypes.
fn unwrap<'s>(schema: &'s Schema, mut ty: &'s Type) -> &'s Type {
    for _ in 0..=schema.types.len() {
        match schema.resolve(ty) {
            Type::Option(inner) => ty = inner,
            other => return other,
        }
    }
    ty
}
