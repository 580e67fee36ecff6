//! The contract `ping`, written by hand, of the tests that check a contract against its
//! published snapshot (`check_published`): it points at the fixtures folder and emits no
//! snapshot test of its own.
//!
//! `tests/fixtures/published/` holds `ping.v1.snap` (`seq: u64`, no `origin`: under mode
//! full, today's `seq` is `INT_NARROWED` and `origin` `FIELD_ADDED_REQUIRED`),
//! `ping.v2.snap` (exactly today's shape) and `ping.v3.snap` (not canonical text).

use contract_core::schema::contract::{AllowInfo, ContractInfo, Mode};
use contract_core::{HandoffContract, HandoffSchema, Shape};
use serde::{Deserialize, Serialize};

// Today's shape of every `ping` version: `seq` is a `u32`, `origin` is new and required
// (a plain comment: a doc comment would change the snapshot text).
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct PingToday {
    pub seq: u32,
    pub origin: String,
}

/// The folder of the published `ping` snapshots.
pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/published");

/// Accepts `seq` narrowing to `u32`.
pub const NARROWED: AllowInfo = AllowInfo {
    rule: "INT_NARROWED",
    field: "seq",
    reason: "sequence numbers never exceeded u32",
};
/// Accepts the new required `origin`.
pub const ADDED: AllowInfo = AllowInfo {
    rule: "FIELD_ADDED_REQUIRED",
    field: "origin",
    reason: "every v1 writer was upgraded",
};
/// Accepts a new required field, but names the wrong one.
pub const ADDED_ELSEWHERE: AllowInfo = AllowInfo {
    rule: "FIELD_ADDED_REQUIRED",
    field: "seq",
    reason: "names the wrong field",
};

/// The allowance sets a `Ping` may carry, by index.
pub const ALLOW_SETS: [&[AllowInfo]; 4] =
    [&[], &[NARROWED], &[NARROWED, ADDED], &[ADDED_ELSEWHERE]];

/// `ping/vV` under mode full, with the allowances `ALLOW_SETS[A]` (none by default).
pub struct Ping<const V: u32, const A: usize = 0>;

impl<const V: u32, const A: usize> HandoffSchema for Ping<V, A> {
    const SHAPE: &'static Shape = <PingToday as HandoffSchema>::SHAPE;

    fn schema() -> contract_core::Schema {
        contract_core::Schema::from_contract(Self::SHAPE, &Self::CONTRACT)
    }
}

impl<const V: u32, const A: usize> HandoffContract for Ping<V, A> {
    const CONTRACT: ContractInfo = ContractInfo {
        name: "ping",
        version: V,
        mode: Mode::Full,
        id: "ping/vN",
        snapshots_dir: FIXTURES,
        allows: ALLOW_SETS[A],
    };
}
