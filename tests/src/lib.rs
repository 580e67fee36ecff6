//! Test types shared by the integration tests.
#![warn(missing_docs)]

// Fixture fields and variants: each type's doc says what shape it stands for.
#[allow(missing_docs)]
pub mod fuzz;
pub mod mutations;
pub mod peers;
pub mod strategies;
pub mod types;
