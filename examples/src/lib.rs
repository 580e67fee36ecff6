//! Example types.
