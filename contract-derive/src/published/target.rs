//! What the compile-time check compares: the contract (its identity, mode and allowances),
//! the item when the check applies to it, and the published root type it continues.

use contract_schema::compat::{Allowance, Allowances, Rule};
use contract_schema::model::{Body, EnumDef, Schema, Type};
use contract_schema::{ContractId, Mode};

use crate::ast::{Data, Field, Input, Repr, Variant};

/// What the check needs to know about the contract.
pub struct Contract<'a> {
    /// The kebab-case name.
    pub name: &'a str,
    /// The major version.
    pub version: u32,
    /// The compatibility mode.
    pub mode: Mode,
    /// The absolute snapshots folder.
    pub dir: &'a str,
    /// The snapshots folder as written (relative to `Cargo.toml`), for messages.
    pub relative: &'a str,
}

impl Contract<'_> {
    /// The contract's id, displayed `name/vN`.
    pub fn id(&self) -> ContractId {
        ContractId {
            name: self.name.to_owned(),
            version: self.version,
        }
    }
}

/// What the compile-time check rebuilds from the syntax.
#[derive(Clone, Copy)]
pub(crate) enum Target<'i, 'a> {
    /// A struct with named fields.
    Struct(&'i [Field<'a>]),
    /// An enum.
    Enum(&'i Repr, &'i [Variant<'a>]),
}

/// Whether the compile-time check applies to `input` (otherwise only the snapshot test
/// checks it).
pub(crate) fn applies<'i, 'a>(input: &'i Input<'a>) -> Option<Target<'i, 'a>> {
    // An integer enum (`#[handoff(repr)]`) is on the wire as its discriminants, which only
    // the compiler evaluates: the syntax would describe it as a string enum.
    if input.original.generics.params.iter().next().is_some()
        || input.attrs.schema_as.is_some()
        || input.attrs.repr.is_some()
    {
        return None;
    }
    let flattens = |fields: &[Field]| fields.iter().any(|f| f.flatten && !f.is_skipped());
    match &input.data {
        Data::Struct(fields) if !flattens(fields) => Some(Target::Struct(fields)),
        Data::Enum(repr, variants)
            if !variants
                .iter()
                .any(|v| !v.is_skipped() && flattens(&v.fields)) =>
        {
            Some(Target::Enum(repr, variants))
        }
        _ => None,
    }
}

/// The allowances as the runtime reads them from `ContractInfo::allows`.
pub(super) fn allowances(input: &Input) -> Allowances {
    allow_entries(input)
        .into_iter()
        .map(|(rule, field, reason)| Allowance {
            rule: rule.id().to_owned(),
            field,
            reason,
        })
        .collect()
}

/// Every allowance as (rule, field, reason): the container's name their field, a field's
/// own apply to its wire names (the serialize name, and the deserialize name when it
/// differs, since a finding names the field as the new side sends or reads it).
pub fn allow_entries(input: &Input) -> Vec<(Rule, String, String)> {
    let mut out = Vec::new();
    for allow in &input.attrs.allows {
        if let Some(field) = &allow.field {
            out.push((allow.rule, field.value(), allow.reason.clone()));
        }
    }
    for field in input.all_fields() {
        for allow in &field.attrs.allows {
            out.push((allow.rule, field.ser_name.clone(), allow.reason.clone()));
            if field.de_name != field.ser_name {
                out.push((allow.rule, field.de_name.clone(), allow.reason.clone()));
            }
        }
    }
    out
}

/// The display name of the published root type (the contract's own name when the root is
/// not a named type).
pub(crate) fn root_name(input: &Input, published: &Schema) -> String {
    match &published.root {
        Type::Named(name) => name.clone(),
        _ => syn::ext::IdentExt::unraw(&input.original.ident).to_string(),
    }
}

/// The published definition of the root enum, when the root was an enum.
pub(super) fn published_enum<'p>(input: &Input, published: &'p Schema) -> Option<&'p EnumDef> {
    match published.def(&root_name(input, published)).map(|d| &d.body) {
        Some(Body::Enum(e)) => Some(e),
        _ => None,
    }
}
