//! Published enum contracts that did not change compile, whatever their shape; a break
//! accepted on purpose compiles; and a new major version is free to break the published one.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// What happened to a refund.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-unchanged", version = 1)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEvent {
    Approved { amount_cents: u64 },
    Rejected(String),
    Escalated,
}

/// v2 drops `escalated`: it has no snapshot yet, and v1 stays for its peers.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-unchanged", version = 2)]
#[serde(rename_all = "kebab-case")]
pub enum RefundEventV2 {
    Approved { amount_cents: u64 },
    Rejected(String),
}

/// The removal of `escalated`, accepted on purpose.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-break-allowed", version = 1)]
#[handoff(allow(ENUM_VARIANT_REMOVED, field = "(escalated)", reason = "nobody escalates any more"))]
#[serde(rename_all = "kebab-case")]
pub enum AllowedEvent {
    Approved { amount_cents: u64 },
    Rejected(String),
}

/// An order line.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u32,
}

/// Every variant shape, internally tagged: aliases, skips, a catch-all, a newtype of a named
/// type (taken from the snapshot) and one serde cannot write beside the tag.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "published-enum-internally-tagged", version = 1)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    Started,
    #[serde(alias = "line_added")]
    AddLine(Line),
    Note(String),
    Priced {
        #[serde(rename = "totalCents")]
        total_cents: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discount: Option<u32>,
        #[serde(alias = "currency")]
        ccy: Option<String>,
    },
    #[serde(skip)]
    Internal(u8),
    #[serde(skip_serializing)]
    Legacy,
    #[serde(other)]
    Unknown,
}

/// The published snapshot of `T`'s version, read as the snapshot test reads it.
fn published<T: HandoffContract>() -> contract_core::Schema {
    use contract_core::schema::snapshot;
    let info = T::CONTRACT;
    let file = snapshot::path(std::path::Path::new(info.snapshots_dir), info.name, info.version);
    snapshot::read(&file).expect("the fixture was copied, and it parses")
}

fn main() {
    // The derive found these compatible; so does the engine on the real descriptions.
    for (old, new, mode) in [
        (published::<RefundEvent>(), RefundEvent::schema(), RefundEvent::CONTRACT.mode),
        (published::<Step>(), Step::schema(), Step::CONTRACT.mode),
    ] {
        let report = contract_core::compat::evolve(&old, &new, mode);
        assert!(report.is_compatible(), "{report}");
    }
    let report = contract_core::compat::evolve(
        &published::<AllowedEvent>(),
        &AllowedEvent::schema(),
        AllowedEvent::CONTRACT.mode,
    );
    assert!(!report.is_compatible(), "{report}");
    let allowed = contract_core::compat::evolve_with(
        &published::<AllowedEvent>(),
        &AllowedEvent::schema(),
        AllowedEvent::CONTRACT.mode,
        &AllowedEvent::CONTRACT.allowances(),
    );
    assert!(allowed.is_compatible(), "{allowed}");
    assert_eq!(RefundEventV2::CONTRACT.id, "published-enum-unchanged/v2");
}
