//! Test types shared by the integration tests.

pub mod strategies;
pub mod types;
