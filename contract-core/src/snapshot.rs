//! Snapshot tests of contracts: `assert_contract_snapshot!` and the test each contract emits.
//!
//! A contract's canonical schema text is snapshotted with insta into
//! `<snapshots dir>/<name>.v<N>.snap`, the folder the derive resolved from the contract's
//! `#[handoff(snapshots = "…")]` attribute (default `contracts`, relative to the crate's
//! `Cargo.toml`). The file is the contract's *published* shape: a later change of the struct
//! that no longer matches it fails the snapshot test, and `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test`) accepts a compatible change.

use contract_schema::snapshot;
use contract_schema::text::to_text;

use crate::HandoffContract;

/// What a contract snapshot is made of: where it lives and the text it holds.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct ContractSnapshot {
    /// The absolute folder of the snapshot files.
    pub dir: &'static str,
    /// The insta snapshot name, `<name>.v<N>` (the file adds `.snap`).
    pub name: String,
    /// The canonical schema text.
    pub text: String,
    /// The line insta shows in its review.
    pub description: String,
}

/// The snapshot of contract `T`.
#[doc(hidden)]
#[must_use]
pub fn contract_snapshot<T: HandoffContract + ?Sized>() -> ContractSnapshot {
    let info = T::CONTRACT;
    ContractSnapshot {
        dir: info.snapshots_dir,
        name: snapshot::stem(info.name, info.version),
        text: to_text(&T::published_schema()),
        description: format!("handoff contract {}: both views, canonical text", info.id),
    }
}

/// Asserts that the canonical schema text of a contract matches its committed snapshot,
/// `<snapshots dir>/<name>.v<N>.snap`.
///
/// The contract derive already emits this test for every non-generic contract when the
/// `snapshots` feature of `contract-core` is on (put it in your `[dev-dependencies]`), so
/// `cargo test` checks every contract of the crate; call the macro yourself for a generic
/// contract, at any concrete type: a generic contract publishes one snapshot per contract id,
/// with each type parameter as a hole (`any`), so every instantiation writes the same file.
///
/// Before comparing texts it checks the contract against the published snapshot with the
/// compatibility engine under the contract's mode ([`check_published`](crate::check_published)),
/// and fails with the report when the change breaks a peer: a compatible change fails only
/// with the text diff, to be reviewed.
///
/// A new contract version has no snapshot yet: the first run writes
/// `<name>.v<N>.snap.new` and fails; accept it with `cargo insta review` (or run the tests
/// once with `INSTA_UPDATE=always`) and commit the file: the version is then *published*.
///
/// ```no_run
/// use contract_core::HandoffContract;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "ping", version = 1)]
/// struct Ping {
///     seq: u64,
/// }
///
/// contract_core::assert_contract_snapshot!(Ping);
/// ```
#[macro_export]
macro_rules! assert_contract_snapshot {
    ($ty:ty $(,)?) => {{
        if let ::core::result::Result::Err(__report) = $crate::check_published::<$ty>() {
            ::core::panic!("{}", __report);
        }
        let __snapshot = $crate::__private::contract_snapshot::<$ty>();
        let mut __settings = $crate::__private::insta::Settings::clone_current();
        __settings.set_snapshot_path(__snapshot.dir);
        __settings.set_prepend_module_to_snapshot(false);
        __settings.set_omit_expression(true);
        __settings.set_description(__snapshot.description.clone());
        __settings.bind(|| {
            $crate::__private::insta::assert_snapshot!(__snapshot.name.as_str(), __snapshot.text);
        });
    }};
}

/// The snapshot test the contract derive emits beside each non-generic contract.
#[doc(hidden)]
#[macro_export]
macro_rules! __snapshot_test {
    ($krate:path; $ty:ident; $test:ident) => {
        #[cfg(test)]
        #[test]
        #[allow(non_snake_case)]
        fn $test() {
            $crate::assert_contract_snapshot!($ty);
        }
    };
}
