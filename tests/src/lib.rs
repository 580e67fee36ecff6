//! Test types shared by the integration tests.
#![warn(missing_docs)]

pub mod strategies;
pub mod types;
