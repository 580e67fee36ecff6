//! [`Digest`]: a SHA-256 hash, written `sha256:<64 lowercase hex digits>`.

use core::fmt;
use core::str::FromStr;

use contract_schema::shape::{Kind, Shape, StringFormat};
use serde::{Deserialize, Serialize};

use crate::traits::HandoffSchema;

/// A SHA-256 hash: of an envelope (the inbox's idempotency check) or of an artifact's
/// content (`ArtifactRef::digest`). It displays, parses, serializes and deserializes as
/// `sha256:<64 lowercase hex digits>`, and is described as a string.
///
/// ```
/// use contract_core::envelope::Digest;
///
/// let text = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// let digest: Digest = text.parse()?;
/// assert_eq!(digest.to_string(), text);
/// assert_eq!(digest.as_bytes()[0], 0xe3);
/// # Ok::<(), contract_core::envelope::ParseDigestError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest([u8; 32]);

/// The prefix of a digest's text.
const PREFIX: &str = "sha256:";

impl Digest {
    /// The 32 bytes of the hash.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PREFIX)?;
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// Text that is not a digest: `sha256:` followed by 64 lowercase hex digits. It does not
/// repeat the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseDigestError {
    _private: (),
}

impl fmt::Display for ParseDigestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a digest: expected `sha256:` followed by 64 lowercase hex digits")
    }
}

impl std::error::Error for ParseDigestError {}

impl FromStr for Digest {
    type Err = ParseDigestError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = ParseDigestError { _private: () };
        let hex = text.strip_prefix(PREFIX).ok_or(error)?.as_bytes();
        if hex.len() != 64 {
            return Err(error);
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(hex.chunks_exact(2)) {
            *byte = digit(pair[0]).ok_or(error)? << 4 | digit(pair[1]).ok_or(error)?;
        }
        Ok(Digest(bytes))
    }
}

impl Serialize for Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Digest;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a digest, `sha256:` followed by 64 lowercase hex digits")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Digest, E> {
                // The text is not repeated: serde's `invalid_value` would quote it.
                text.parse()
                    .map_err(|_| E::custom(ParseDigestError { _private: () }))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A digest is a string on the wire (`sha256:<hex>`).
impl HandoffSchema for Digest {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::String(StringFormat::Plain));
}
