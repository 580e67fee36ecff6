//! A contract against its published snapshot: the check the snapshot test runs first.

use contract_schema::snapshot::{self, PublishedError};

use crate::HandoffContract;

/// Checks contract `T` against its published snapshot, if it has one, under its mode.
///
/// A version is *published* when its snapshot file `<snapshots dir>/<name>.v<N>.snap`
/// exists. A version with no snapshot file is new and passes. A published version passes
/// when the current type is compatible with it; otherwise the error holds the compatibility
/// report (every finding, with its rule, path, direction, why and fix), not only a text
/// diff: this catches what the derive cannot see at expansion time (a change inside a nested
/// type, a type alias, a type from another crate). The findings the contract accepts on
/// purpose (`#[handoff(allow(RULE_ID, reason = "…"))]`) do not fail it; they stay in the
/// report, marked allowed with their reason.
///
/// `assert_contract_snapshot!` (feature `snapshots`) runs it before comparing texts; it
/// needs no feature, so a test or a tool can run it alone. It is
/// [`snapshot::check_published`] over `T`'s [`CONTRACT`](HandoffContract::CONTRACT) and
/// [`published_schema`](HandoffContract::published_schema) (a generic contract's type
/// parameters as holes).
///
/// ```
/// use contract_core::HandoffContract;
/// # use serde::{Deserialize, Serialize};
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "ping", version = 1, snapshots = "no-such-folder")]
/// struct Ping {
///     seq: u64,
/// }
///
/// // No snapshot file: `ping/v1` is new and unpublished.
/// assert!(contract_core::check_published::<Ping>().is_ok());
/// ```
///
/// # Errors
///
/// [`PublishedError::Incompatible`] with the report when the type breaks the published
/// version; [`PublishedError::Unreadable`], naming the file, line and column, when the
/// snapshot exists but cannot be read or does not parse. Both display the whole message.
pub fn check_published<T: HandoffContract + ?Sized>() -> Result<(), PublishedError> {
    snapshot::check_published(&T::CONTRACT, &T::published_schema())
}
