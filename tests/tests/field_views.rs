//! Each rule written once: the builder (from the shape the derive emits) and the derive's
//! compile-time rebuild (from the syntax) give every non-generic type of the catalogue the
//! same schema (see `both_ways`). The fidelity types are compared in `fidelity.rs` and the
//! derive's own view tests in `derive_views.rs`, where those types are in scope.

mod both_ways;

use both_ways::{assert_rebuilt_as_described, described};
use contract_tests::fuzz;
use contract_tests::types::*;

#[test]
fn every_catalogue_type_is_rebuilt_from_its_syntax_as_its_shape_describes_it() {
    let compared = assert_rebuilt_as_described(
        "src/types.rs",
        include_str!("../src/types.rs"),
        &contract_tests::with_catalogue!(described),
        &[
            // Flattened fields: their keys come from another type's definition.
            "FlattenStruct",
            "FlattenMap",
            "FlattenExternal",
            "FlattenInternalEnum",
            "FlattenAdjacentEnum",
            "FlattenUntaggedEnum",
            "FlattenOptionalEnums",
            "Labels",
            "FlattenRest",
            "FlattenCounted",
            // Integer enums: their discriminants are the compiler's.
            "Priority",
            "Offset",
            "Code",
            // Newtype, transparent, tuple and unit structs: no fields to rebuild.
            "OrderId",
            "Meters",
            "Point",
            "Marker",
        ],
    );
    eprintln!("src/types.rs: {compared:?}");
    assert_eq!(compared.generic, 1, "`Handoff<T>` only");
    // Each held nested type, rebuilt inside each listed type that holds it, as the
    // compile-time check of nested types rebuilds it.
    assert_eq!(compared.nested, 24);
}

#[test]
fn every_fuzz_contract_is_rebuilt_from_its_syntax_as_its_shape_describes_it() {
    let compared = assert_rebuilt_as_described(
        "src/fuzz.rs",
        include_str!("../src/fuzz.rs"),
        &described![
            fuzz::Status,
            fuzz::External,
            fuzz::Internal,
            fuzz::Scored,
            fuzz::Adjacent,
            fuzz::Untagged,
            fuzz::Artifact,
            fuzz::Budget,
            fuzz::Meta,
            fuzz::Envelope,
            fuzz::FastEnvelope,
            fuzz::WithUntagged,
        ],
        &["Envelope"],
    );
    eprintln!("src/fuzz.rs: {compared:?}");
}
