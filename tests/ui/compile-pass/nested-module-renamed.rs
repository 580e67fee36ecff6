//! The nested type's module renamed (`orders` to `sales`): no path is named in the generated
//! code, so the build never breaks on a move; the snapshot test shows the new Rust path as a
//! compatible change to accept.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

pub mod sales {
    use contract_core::HandoffSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, HandoffSchema)]
    pub struct Line {
        pub sku: String,
        pub qty: u32,
    }
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-module-renamed", version = 1)]
pub struct Order {
    pub lines: Vec<sales::Line>,
}

fn main() {
    let report = contract_core::check_published::<Order>();
    assert!(report.is_ok(), "{report:?}");
}
