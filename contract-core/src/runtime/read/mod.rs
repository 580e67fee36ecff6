//! Reading: `receive`'s one-pass reader of the bytes ([`fast`]), and the typed value from a
//! scanned tape ([`de`]); where both fail, serde's own verdict located ([`refused`]).

pub(crate) mod de;
pub(crate) mod fast;
pub(crate) mod refused;
