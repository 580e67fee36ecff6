//! The full path, shared by both directions: the flat tape of a document ([`scan`]) and the
//! walk of a tape against a view of the schema ([`check`]).

pub(crate) mod check;
pub(crate) mod scan;
