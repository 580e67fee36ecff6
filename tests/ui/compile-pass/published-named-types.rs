//! Types the syntax cannot tell (named types, aliases) are taken from the snapshot: an
//! unchanged contract with them compiles; the snapshot test checks them on the real types.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub enum Category {
    Damaged,
    Lost,
}

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct OrderId(pub String);

type MaybeCategory = Option<Category>;

/// Transparent around an `Option`: serde reads its absence as `None`, which the snapshot
/// records and the syntax cannot tell from a newtype struct (which serde requires).
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct Remark(pub Option<String>);

impl Remark {
    fn is_none(&self) -> bool {
        self.0.is_none()
    }
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-named-types", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub category: Category,
    pub order_id: OrderId,
    pub tags: Vec<Category>,
    pub note: MaybeCategory,
    #[serde(skip_serializing_if = "Remark::is_none")]
    pub remark: Remark,
}

fn main() {
    use contract_core::schema::snapshot;
    let info = Refund::CONTRACT;
    let file = snapshot::path(std::path::Path::new(info.snapshots_dir), info.name, info.version);
    let published = snapshot::read(&file).expect("the fixture was copied, and it parses");
    let report = contract_core::compat::evolve(&published, &Refund::schema(), Refund::CONTRACT.mode);
    assert!(report.is_compatible(), "{report}");
}
