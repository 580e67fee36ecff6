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
//! ```
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
//! // Both views of every field, as serde reads and writes them.
//! let text = contract_core::schema::text::to_text(&RefundRequest::schema());
//! assert!(text.contains("    receive \"orderId\" alias \"orderRef\" required\n"));
//! assert!(text.contains("  variant NotDelivered: unit\n    send \"not-delivered\"\n"));
//! ```
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
//! | container | `allow(RULE_ID, field = "wireName", reason = "…")` | accepts a compatibility finding about the field `wireName` (which may no longer exist) on purpose; repeatable; contracts only |
//! | field | `renamed_from = "old"` | a name the field had in earlier versions (repeatable); explains a rename, never makes serde read it (add `#[serde(alias)]` for that) |
//! | field | `allow(RULE_ID, reason = "…")` | accepts a compatibility finding about this field on purpose (the reason stays in the report); repeatable; contracts only |
//! | field | `assumption` | the value is an unverified working assumption |
//! | field | `confirmed` | the value is confirmed (the default) |
//! | field | `schema_as = Type` | the field is on the wire as `Type`; needed with serde's `with`, `serialize_with`, `deserialize_with` and `getter` |
//! | variant | `schema_as = Type` | the variant's content is on the wire as `Type`; needed with serde's `with`, `serialize_with` and `deserialize_with` |
//!
//! The serde attributes that are read: `rename` (also `rename(serialize = …, deserialize = …)`),
//! `rename_all`, `rename_all_fields`, `alias`, `default`, `skip`, `skip_serializing`,
//! `skip_deserializing`, `skip_serializing_if`, `flatten`, `transparent`, `tag`, `content`,
//! `untagged` (on an enum, or on its last variants: tried after the tagged ones, as serde
//! does), `other` and `deny_unknown_fields`. Those that do not change the wire (`bound`,
//! `borrow`, `crate`, `expecting`, …) are accepted. What the description cannot say is a
//! compile error that names the attribute: `#[serde(tag)]` on a struct, `#[serde(other)]`
//! on an untagged variant of a tagged enum, `flatten` with `deny_unknown_fields`, a flattened
//! enum with untagged variants, a flattened type
//! that is not a struct, an enum or a map (nor an `Option` of one; a flattened generic parameter is
//! checked for each type it is instantiated with, when that instantiation's schema is built,
//! so `cargo build` reports it where `cargo check` cannot), and the attributes above that need
//! `schema_as`.
//!
//! `RULE_ID` is a rule of the catalogue (`contract_core::compat::Rule`): an unknown id is an
//! error with the closest id, and the reason must not be empty.
//!
//! # Compile-time compatibility check
//!
//! A *published* contract version is one whose snapshot `<snapshots dir>/<name>.v<N>.snap`
//! exists. For `#[derive(HandoffContract)]` on a non-generic struct with named fields or a
//! non-generic enum, the derive reads that file while expanding:
//!
//! - no file: the version is new, nothing more is checked;
//! - a file: it is tracked with `include_bytes!` (editing it recompiles the contract) and
//!   parsed; a file that does not parse is an error at `version` naming the file, the line
//!   and the problem;
//! - the struct's schema is rebuilt from the syntax: every field's names, aliases, presence
//!   (`default`, `Option`, `skip_serializing_if`, `skip*`), provenance and `renamed_from`, and
//!   its type where the syntax says everything (`bool`, fixed-width integers, `f32`/`f64`,
//!   `char`, `String`/`str`, `()`, `Option`, `Vec`/`VecDeque`/`LinkedList`/`BinaryHeap`,
//!   `BTreeSet`/`HashSet`, `BTreeMap`/`HashMap`, arrays of a literal length, tuples,
//!   `Box`/`Rc`/`Arc`/`Cow`/references). The rest — named types, aliases, `usize`/`isize`,
//!   types of other crates — is taken from the published field of the same wire name, i.e.
//!   assumed unchanged; a new field of such a type is compared by its presence only;
//! - an enum's representation (`tag`, `content`, `untagged`) and variants are rebuilt the same
//!   way: each variant's tags and aliases, its skips, `#[serde(other)]`, and what it carries
//!   (a struct variant's fields as above, a newtype or tuple variant's types where the syntax
//!   tells them, else the published variant's);
//! - the compatibility engine runs under the contract's `mode` with its `allow`s. Each
//!   breaking finding is an error at the offending field (its type, its `renamed_from` or
//!   `assumption`, or its name; at the struct for a field that no longer exists) or variant
//!   (what it carries, or its `rename`; at the enum for a removed variant, at its `tag` for a
//!   representation change; a renamed tag, which breaks both directions, is one error) naming the
//!   rule, why, the snapshot file (relative to `Cargo.toml`) and the fixes: restore, add a
//!   default or an alias, declare `renamed_from`, `allow` it with a reason, or publish the
//!   change as `version = N+1`, which has no snapshot yet and compiles.
//!
//! What the syntax cannot show is caught by the contract's snapshot test, which runs the
//! engine on the real description: a change inside a nested type, an alias or a foreign
//! type changing. Generic contracts, types with `#[serde(flatten)]` and integer enums
//! (`#[handoff(repr)]`) are checked by the snapshot test only. Names are taken at face value: a user type named `String` or
//! `Option` is read as the std one.
//!
//! # What is emitted
//!
//! For a contract `T`, inside `const _: () = { … };`: `impl HandoffSchema for T` with
//! `SHAPE` (the description) and a hidden constant naming its contract, which the trait's
//! `schema()` reads (no function body per type), and `impl HandoffContract for T` with
//! `CONTRACT` (name, version, mode, id `name/vN`, and the absolute snapshots folder resolved
//! from `CARGO_MANIFEST_DIR` at expansion time, and the `allow`s), plus, for a published
//! contract checked at compile time, the `include_bytes!` of its snapshot. Beside it, for a
//! non-generic contract, a
//! snapshot test when `contract-core`'s `snapshots` feature is on. A type parameter gets a
//! `HandoffSchema` bound where a field on the wire uses it (not in fields skipped both
//! ways, skipped variants or `PhantomData`; through a `schema_as` type when there is one),
//! and an associated type such as `T::Item` gets one of its own, as serde infers its bounds;
//! `#[handoff(bound = "…")]` gives the `where` predicates instead. When an attribute is wrong, every error is reported together,
//! with an implementation describing the type as `any`, so one mistake does not cascade.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod allow;
mod ast;
mod attr;
mod bound;
mod case;
mod expand;
mod option;
mod published;
mod repr;
mod symbol;
mod syntax;
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
