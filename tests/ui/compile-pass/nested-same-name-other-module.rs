//! Two nested types of one name in two modules, both held by a published contract: each
//! answers for its own definition (chosen by `module_path!()`), so neither is compared with
//! the other's and the unchanged contract compiles.
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
    pub sku: String,
    pub qty: u32,
}

pub mod other {
    use contract_core::HandoffSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, HandoffSchema)]
    pub struct Line {
        pub label: String,
    }
}

#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "nested-same-name-other-module", version = 1)]
pub struct Order {
    pub line: Line,
    pub other: other::Line,
}

fn main() {
    let report = contract_core::check_published::<Order>();
    assert!(report.is_ok(), "{report:?}");
}
