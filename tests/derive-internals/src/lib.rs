//! `contract-derive`'s front end and compile-time rebuild, compiled as an ordinary library so
//! that tests can call them with a type's syntax: a proc-macro crate exports only its macros.
//!
//! The modules below are the derive's own source files, included by path (as
//! `serde_derive_internals` compiles `serde_derive`'s internals), so what a test runs is what
//! the derive runs while expanding, not a copy. Only [`rebuild`] is called from outside; the
//! rest of the derive (its emission, its diagnostics) is compiled because the modules refer
//! to each other, and is unused here. Not published.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The derive's modules, at the crate root as in the derive (they name each other
// `crate::…`). What only the proc macro calls is dead code here.
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/allow.rs"]
mod allow;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/ast.rs"]
mod ast;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/attr.rs"]
mod attr;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/bound.rs"]
mod bound;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/case.rs"]
mod case;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/expand.rs"]
mod expand;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/option.rs"]
mod option;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/published/mod.rs"]
mod published;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/repr.rs"]
mod repr;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/symbol.rs"]
mod symbol;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/syntax.rs"]
mod syntax;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/valid.rs"]
mod valid;
#[allow(dead_code, missing_docs)]
#[path = "../../../contract-derive/src/wire.rs"]
mod wire;

use contract_schema::model::TypeDef;
use contract_schema::{Mode, Schema};

/// Which derive an item declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// `#[derive(HandoffSchema)]`: a type without an identity.
    Schema,
    /// `#[derive(HandoffContract)]`: a contract with a name and a version.
    Contract,
}

/// The schema the derive's compile-time check rebuilds from `item`'s syntax against
/// `published` (what the syntax cannot tell, such as a named field type, is taken from it),
/// exactly as the derive does while expanding a contract whose snapshot holds `published`.
///
/// `Ok(None)` when the check does not apply to the item (a generic type, a flattened field,
/// a container `schema_as`, a tuple, newtype or unit struct): only the snapshot test checks
/// those. For a [`Derive::Schema`] item, which has no identity, the rebuilt schema has none
/// either (no contract, `full` mode, no allowances), as [`Schema::from_shape`] gives it.
///
/// # Errors
///
/// The derive's own errors about the item (its attributes, serde's reading of them), one
/// message each, when it would not expand.
pub fn rebuild(
    item: &syn::DeriveInput,
    derive: Derive,
    published: &Schema,
) -> Result<Option<Schema>, Vec<String>> {
    let kind = match derive {
        Derive::Schema => ast::DeriveKind::Schema,
        Derive::Contract => ast::DeriveKind::Contract,
    };
    let parsed = ast::parse(item, kind);
    let mut errors = parsed.errors;
    let Some(input) = parsed.input else {
        errors.push(syn::Error::new_spanned(
            &item.ident,
            "serde's front end does not read this item",
        ));
        return Err(errors.iter().map(ToString::to_string).collect());
    };
    valid::check(&input, &mut errors);
    if !errors.is_empty() {
        return Err(errors.iter().map(ToString::to_string).collect());
    }
    let Some(target) = published::applies(&input) else {
        return Ok(None);
    };
    let name = input.attrs.name.as_ref().map(|n| n.value.value());
    let version = input.attrs.version.as_ref().map(|v| v.value);
    let contract = published::Contract {
        name: name.as_deref().unwrap_or_default(),
        version: version.unwrap_or_default(),
        mode: input
            .attrs
            .mode
            .as_ref()
            .map_or(Mode::default(), |m| m.value),
        // Where the snapshot files are matters to reading them, not to the rebuild.
        dir: "",
        relative: "",
    };
    let rebuilt = published::rebuild(&input, target, &contract, published);
    Ok(Some(match derive {
        Derive::Contract => rebuilt,
        Derive::Schema => Schema {
            contract: None,
            mode: Mode::default(),
            allowances: Default::default(),
            ..rebuilt
        },
    }))
}

/// The definition the compile-time check of nested types rebuilds from `item`'s syntax for
/// the type `name` of `published` (a schema that holds the item as a nested type), exactly as
/// the item's derive does while answering the contract whose snapshot holds `published`.
///
/// `Ok(None)` when the check does not apply to the item (as for [`rebuild`]).
///
/// # Errors
///
/// The derive's own errors about the item, one message each, when it would not expand.
pub fn rebuild_nested(
    item: &syn::DeriveInput,
    derive: Derive,
    published: &Schema,
    name: &str,
) -> Result<Option<TypeDef>, Vec<String>> {
    let kind = match derive {
        Derive::Schema => ast::DeriveKind::Schema,
        Derive::Contract => ast::DeriveKind::Contract,
    };
    let parsed = ast::parse(item, kind);
    let mut errors = parsed.errors;
    let Some(input) = parsed.input else {
        errors.push(syn::Error::new_spanned(
            &item.ident,
            "serde's front end does not read this item",
        ));
        return Err(errors.iter().map(ToString::to_string).collect());
    };
    valid::check(&input, &mut errors);
    if !errors.is_empty() {
        return Err(errors.iter().map(ToString::to_string).collect());
    }
    let Some(target) = published::applies(&input) else {
        return Ok(None);
    };
    Ok(Some(published::rebuild_def(
        &input, target, name, published,
    )))
}
