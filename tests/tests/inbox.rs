//! The inbox's conformance suite: one set of tests (`inbox/suite.rs`), run against every
//! store through a fixture (`inbox/fixture.rs`'s [`Store`](inbox::fixture::Store)), one file
//! per store: `memory.rs`, `sqlite.rs` (feature `sqlite`), `postgres.rs` (feature
//! `postgres`, against the server `HANDOFF_TEST_POSTGRES` names).
//!
//! What every store must show: **0 double-applied** (an effect applied twice) and **0 lost**
//! (an `Applied` or `Duplicate` whose acknowledgement or effect is gone on reopening) under a
//! restart, races of two connections (200 rounds), an `AsyncInbox` of 8 tasks (feature
//! `tokio`), failures injected after the claim, in the handler and after the commit (feature
//! `fail-points`), and a process killed in the handler and after the commit (durable stores:
//! the test runs its own binary again as a child, SIGKILLs it, reopens the store and
//! retries); and that refusals write nothing, a duplicate runs nothing, a conflict is
//! refused, `last_accepted` is the rollback target and `prune` keeps each context's last.
//! `postgres_killed.rs` (feature `postgres`) kills the PostgreSQL server itself while
//! threads accept (a cluster of its own, from the binaries `HANDOFF_TEST_POSTGRES_BIN`
//! names), starts it again, and finds 0 double-applied, 0 lost and one `applied` step per
//! acceptance.
//!
//! A new store is one file: a fixture implementing `Store`, and
//! `crate::inbox::suite::conformance!(TheFixture);` in it, declared below.

mod inbox {
    pub mod fixture;
    pub mod suite;

    pub mod memory;
    #[cfg(feature = "postgres")]
    pub mod postgres;
    #[cfg(all(feature = "postgres", unix))]
    pub mod postgres_killed;
    pub mod span;
    #[cfg(feature = "sqlite")]
    pub mod sqlite;
}
