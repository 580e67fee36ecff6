//! The full path, shared by both directions: the flat tape of a document ([`scan`]) and the
//! walk of a tape against a view of the schema ([`check`]), and what serde_json makes of a
//! number ([`number`]), which every reader decides the same way.

pub(crate) mod check;
pub(crate) mod number;
pub(crate) mod scan;
