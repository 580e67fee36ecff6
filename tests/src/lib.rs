//! Test types shared by the integration tests.
