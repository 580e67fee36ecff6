//! Writing: `send`'s one-pass writer ([`fast`]), and serde_json's writing recorded as a tape
//! ([`ser`]).

pub(crate) mod fast;
pub(crate) mod ser;
