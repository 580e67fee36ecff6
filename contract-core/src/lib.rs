//! handoff-contract: typed, versioned contracts for the handoffs between agents and services.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod impls;
mod json_schema;
mod traits;

pub use contract_schema as schema;
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
        ContractInfo, EnumShape, Field, Kind, Mode, Provenance, Repr, Send, Shape, ShapeFn,
        StructShape, Variant, VariantKind,
    };
    pub use core;
}
