//! handoff-contract: typed, versioned contracts for the handoffs between agents and services.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod impls;
mod json_schema;
#[cfg(feature = "snapshots")]
mod snapshot;
mod traits;

pub use contract_schema as schema;
pub use contract_schema::compat;
pub use contract_schema::{ContractId, ContractInfo, Mode, Provenance, Schema, Shape};
pub use contract_schema::json_schema::View;
pub use json_schema::json_schema;
pub use traits::{shape_of, HandoffContract, HandoffSchema};

#[cfg(feature = "derive")]
pub use contract_derive::{HandoffContract, HandoffSchema};

/// Items the derives expand to. Not public API: no stability guarantee.
#[doc(hidden)]
pub mod __private {
    pub use crate::traits::shape_of;
    pub use contract_schema::shape::{
        AllowInfo, ContractInfo, EnumShape, Field, Kind, Mode, Provenance, Repr, Send, Shape,
        ShapeFn, StructShape, Variant, VariantKind,
    };
    pub use core;

    #[cfg(feature = "snapshots")]
    pub use crate::__snapshot_test as snapshot_test;
    #[cfg(feature = "snapshots")]
    pub use crate::snapshot::{check_published, contract_snapshot, ContractSnapshot};
    #[cfg(feature = "snapshots")]
    pub use insta;

    /// Without the `snapshots` feature, contracts emit no snapshot test.
    #[cfg(not(feature = "snapshots"))]
    pub use crate::__no_snapshot_test as snapshot_test;
}

/// The stand-in for the snapshot test when the `snapshots` feature is off: nothing.
#[cfg(not(feature = "snapshots"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __no_snapshot_test {
    ($($tokens:tt)*) => {};
}
