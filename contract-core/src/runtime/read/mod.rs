//! Reading: `receive`'s one-pass reader of the bytes ([`fast`]), and the typed value from a
//! scanned tape ([`de`]); where both fail, serde's own verdict located ([`refused`]); where
//! the one-pass reader gave up, the rejection listed in one pass ([`reject`]).

pub(crate) mod de;
pub(crate) mod fast;
pub(crate) mod refused;
pub(crate) mod reject;
