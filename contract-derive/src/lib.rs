//! The derives of handoff-contract: `#[derive(HandoffContract)]` and `#[derive(HandoffSchema)]`.
//!
//! Use them through `contract-core` (`use contract_core::HandoffContract;`), which
//! re-exports them with the traits they implement. Each derive emits one `'static`
//! description of the type (`HandoffSchema::SHAPE`) that says what serde puts on the wire:
//! serde's own attributes are read with `serde_derive_internals`, the front end of
//! `serde_derive`, so renames, aliases, defaults, skips, flattening, enum representations
//! and `deny_unknown_fields` mean exactly what serde does. Every feature (canonical text,
//! JSON Schema, assertions, compatibility) is a function in `contract-core` over that
//! description; the derive emits data, never behaviour.
//!
//! ```text
//! use contract_core::{HandoffContract, HandoffSchema};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 2)]
//! #[serde(rename_all = "camelCase")]
//! pub struct RefundRequest {
//!     pub category: Category,
//!     #[serde(alias = "orderRef")]
//!     #[handoff(renamed_from = "orderRef")]
//!     pub order_id: String,
//!     #[handoff(assumption)]
//!     pub use_case: Option<String>,
//! }
//!
//! #[derive(Serialize, Deserialize, HandoffSchema)]
//! #[serde(rename_all = "kebab-case")]
//! pub enum Category { Damaged, NotDelivered, #[serde(other)] Other }
//!
//! assert_eq!(RefundRequest::CONTRACT.to_string(), "refund-request/v2");
//! ```
//!
//! (A proc-macro crate cannot run its own derive in a doc test; the runnable version of
//! this example is in the documentation of `contract_core::HandoffContract`.)
//!
//! # Attributes
//!
//! | where | attribute | meaning |
//! |---|---|---|
//! | container | `name = "kebab-case"` | the contract's name; required on `HandoffContract`, rejected on `HandoffSchema` |
//! | container | `version = N` | the contract's major version, `N >= 1`; required on `HandoffContract`, rejected on `HandoffSchema` |
//! | container | `mode = "full"` | how versions relate: `"full"` (default), `"backward"`, `"forward"`, or their `-transitive` forms; contracts only |
//! | container | `snapshots = "dir"` | the folder of the snapshot files, relative to the crate's `Cargo.toml` (default `contracts`); contracts only |
//! | container | `crate = "path"` | the path of `contract_core` in generated code (default `::contract_core`) |
//! | container | `schema_as = Type` | the whole type is on the wire as `Type`; needed with serde's `from`, `into`, `try_from` and `remote` |
//! | field | `renamed_from = "old"` | a name the field had in earlier versions (repeatable); explains a rename, never makes serde read it (add `#[serde(alias)]` for that) |
//! | field | `assumption` | the value is an unverified working assumption |
//! | field | `confirmed` | the value is confirmed (the default) |
//! | field | `schema_as = Type` | the field is on the wire as `Type`; needed with serde's `with`, `serialize_with`, `deserialize_with` and `getter` |
//! | variant | `schema_as = Type` | the variant's content is on the wire as `Type`; needed with serde's `with`, `serialize_with` and `deserialize_with` |
//!
//! The serde attributes that are read: `rename` (also `rename(serialize = …, deserialize = …)`),
//! `rename_all`, `rename_all_fields`, `alias`, `default`, `skip`, `skip_serializing`,
//! `skip_deserializing`, `skip_serializing_if`, `flatten`, `transparent`, `tag`, `content`,
//! `untagged`, `other` and `deny_unknown_fields`. Those that do not change the wire (`bound`,
//! `borrow`, `crate`, `expecting`, …) are accepted. What the description cannot say is a
//! compile error that names the attribute: `#[serde(tag)]` on a struct, `#[serde(untagged)]`
//! on some variants of a tagged enum, `flatten` with `deny_unknown_fields`, a flattened type
//! that is not a struct or a map, and the attributes above that need `schema_as`.
//!
//! # What is emitted
//!
//! For a contract `T`, inside `const _: () = { … };`: `impl HandoffSchema for T` with
//! `SHAPE` (the description) and `schema()`, and `impl HandoffContract for T` with
//! `CONTRACT` (name, version, mode, id `name/vN`, and the absolute snapshots folder resolved
//! from `CARGO_MANIFEST_DIR` at expansion time). Beside it, for a non-generic contract, a
//! snapshot test when `contract-core`'s `snapshots` feature is on. Generic type parameters get
//! a `HandoffSchema` bound. When an attribute is wrong, every error is reported together,
//! with an implementation describing the type as `any`, so one mistake does not cascade.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod allow;
mod ast;
mod attr;
mod case;
mod expand;
mod published;
mod symbol;
mod valid;
mod wire;

use proc_macro::TokenStream;

/// Derives `HandoffSchema`: the static description of a nested type, without a name or
/// version. See the crate documentation for the attributes.
#[proc_macro_derive(HandoffSchema, attributes(handoff))]
pub fn derive_handoff_schema(input: TokenStream) -> TokenStream {
    derive(input, ast::DeriveKind::Schema)
}

/// Derives `HandoffContract` and `HandoffSchema`: the description of a versioned contract,
/// `#[handoff(name = "kebab-case", version = N)]`. See the crate documentation.
#[proc_macro_derive(HandoffContract, attributes(handoff))]
pub fn derive_handoff_contract(input: TokenStream) -> TokenStream {
    derive(input, ast::DeriveKind::Contract)
}

fn derive(input: TokenStream, kind: ast::DeriveKind) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(item) => expand::derive(&item, kind).into(),
        Err(err) => err.into_compile_error().into(),
    }
}
