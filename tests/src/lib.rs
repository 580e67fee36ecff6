//! Test types shared by the integration tests.

pub mod types;
