//! Compile-time diagnostics and what must compile, with trybuild.
//!
//! Compiler wording drifts between releases, so the cases run only on the compiler their
//! `.stderr` files were blessed on (as thiserror gates its ui tests). To bless them again:
//! `TRYBUILD=overwrite cargo test -p contract-tests --test ui`, then review every diff.

#[rustversion::attr(not(stable(1.95)), ignore = "ui tests are blessed on rustc 1.95")]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/compile-fail/*.rs");
    t.pass("ui/compile-pass/*.rs");
}
