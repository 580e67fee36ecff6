//! The keys of `#[handoff(...)]`, as named constants (like serde_derive's `symbol.rs`).

/// The attribute namespace: `#[handoff(...)]`.
pub const HANDOFF: &str = "handoff";

/// Container: the contract's kebab-case name (`HandoffContract` only).
pub const NAME: &str = "name";
/// Container: the contract's major version, at least 1 (`HandoffContract` only).
pub const VERSION: &str = "version";
/// Container: how versions of the contract must relate (`HandoffContract` only).
pub const MODE: &str = "mode";
/// Container: the path of the `contract_core` crate in generated code.
pub const CRATE: &str = "crate";
/// Container: the folder of the snapshot files, relative to `Cargo.toml` (`HandoffContract` only).
pub const SNAPSHOTS: &str = "snapshots";
/// Container, field or variant: a type whose schema describes the wire form.
pub const SCHEMA_AS: &str = "schema_as";
/// Container (an enum with `#[repr(int)]`): written as its discriminant, the way serde_repr's
/// `Serialize_repr` and `Deserialize_repr` write it.
pub const REPR: &str = "repr";
/// Container (an enum with `#[repr(int)]`): written by variant name, the way serde's own
/// derive writes it (the explicit statement that the `#[repr]` is not the wire form).
pub const BY_NAME: &str = "by_name";
/// Container: the `where` predicates of the impl, replacing the `HandoffSchema` bounds the
/// derive infers from the fields (like serde's `bound`).
pub const BOUND: &str = "bound";
/// Field: a name the field had in an earlier version (repeatable).
pub const RENAMED_FROM: &str = "renamed_from";
/// Field: the value is a working assumption, not confirmed.
pub const ASSUMPTION: &str = "assumption";
/// Field: the value is confirmed (the default, for emphasis).
pub const CONFIRMED: &str = "confirmed";

/// Container or field: a finding of the compatibility engine accepted on purpose,
/// `allow(RULE_ID, reason = "…")` (repeatable; `HandoffContract` only).
pub const ALLOW: &str = "allow";
/// Inside `allow(...)`: the wire name of the field the finding is about (container only).
pub const ALLOW_FIELD: &str = "field";
/// Inside `allow(...)`: why the finding is accepted (required, not empty).
pub const ALLOW_REASON: &str = "reason";
/// The keys inside `allow(...)`.
pub const ALLOW_KEYS: &[&str] = &[ALLOW_FIELD, ALLOW_REASON];

/// The keys a container accepts.
pub const CONTAINER_KEYS: &[&str] = &[
    NAME, VERSION, MODE, CRATE, SNAPSHOTS, SCHEMA_AS, ALLOW, REPR, BY_NAME, BOUND,
];
/// The keys a field accepts.
pub const FIELD_KEYS: &[&str] = &[RENAMED_FROM, ASSUMPTION, CONFIRMED, SCHEMA_AS, ALLOW];
/// The keys an enum variant accepts.
pub const VARIANT_KEYS: &[&str] = &[SCHEMA_AS];

/// The default snapshots folder, relative to the crate's `Cargo.toml`.
pub const DEFAULT_SNAPSHOTS: &str = "contracts";
