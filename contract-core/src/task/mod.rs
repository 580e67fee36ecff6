//! The task contracts of seed `001_…`: what a sub-task asks and what its result claims, where
//! "not found" cannot pass for "none", and the budget both carry.

mod budget;

pub use budget::Budget;
