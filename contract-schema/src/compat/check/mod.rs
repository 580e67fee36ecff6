//! The checker: one writer's sender view against one reader's receiver view.
//!
//! Named types are compared structurally, never by name. Each pair of named types
//! (writer's, reader's) is compared once: the pair is memoized before its body is walked, so
//! recursive types terminate and every type is visited once (the cost grows linearly with
//! the schemas). A finding inside a shared type is reported at the first path that reaches
//! it.
//!
//! The `why` and `hint` texts are pinned by the derive's compile-fail cases
//! (`tests/ui/compile-fail/published-*.stderr`): rewording one means re-blessing them.
//!
//! The checker's state and its reporting are in `checker`, the comparison of types in
//! `types`; structs (fields, unknown keys, flattened enums) are compared in `structs`, enums
//! (variants, representations, tags, untagged variants) in `enums`, a struct read as a map
//! and a map read as a struct in `struct_map`, and `paths` holds a finding's path and
//! names the kinds its text speaks of.

mod checker;
mod enums;
mod paths;
mod struct_map;
mod structs;
mod types;

pub(crate) use checker::Checker;
