//! Reading: `receive`'s one-pass reader of the bytes ([`fast`]), and the typed value from a
//! scanned tape ([`de`]).

pub(crate) mod de;
pub(crate) mod fast;
