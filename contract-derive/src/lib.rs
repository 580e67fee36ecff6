//! The derives (to be written).
