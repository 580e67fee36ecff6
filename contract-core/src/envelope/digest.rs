//! [`Digest`]: a SHA-256 hash, written `sha256:<64 lowercase hex digits>`.

use core::fmt;
use core::str::FromStr;
use std::borrow::Cow;

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

impl Digest {
    /// The digest of these 32 bytes (a digest stored as bytes, read back).
    #[must_use]
    pub const fn from_bytes(bytes: [u8; 32]) -> Digest {
        Digest(bytes)
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

// The envelope's digest: SHA-256 over its canonical form (RFC 8785, the JSON Canonicalization
// Scheme), so that two receivers of the same envelope agree whatever their version reads of
// it and however its sender spaced or ordered it.

impl Digest {
    /// The digest of an envelope as received: SHA-256 of its RFC 8785 (JCS) form, without
    /// `journey.attempt` and `journey.retryOf` (a retry of a handoff keeps its digest).
    ///
    /// Every member is kept, those this version of the envelope does not know too, so that
    /// receivers on other versions agree. Object members are sorted by the UTF-16 code units
    /// of their names, strings are written with RFC 8785's escapes, and numbers as ECMAScript
    /// writes them, except integers: an integer written without a fraction or an exponent
    /// keeps its exact digits (beyond ±2⁵³ too, where a double would round it; within, the two
    /// agree). It is not the digest of serde_json's bytes, whose order and escapes differ.
    ///
    /// ```
    /// use contract_core::envelope::Digest;
    ///
    /// let sent = br#"{"b": 1.50, "a": "x", "journey": {"attempt": 1}}"#;
    /// let retried = br#"{"a":"x","b":1.5,"journey":{"attempt":2,"retryOf":"run-1"}}"#;
    /// assert_eq!(Digest::of_envelope(sent)?, Digest::of_envelope(retried)?);
    /// # Ok::<(), contract_core::envelope::DigestError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`DigestError`] when the bytes are not JSON (RFC 8259), hold an object with a name
    /// twice, a string with an unpaired surrogate escape or a number beyond a double's range
    /// (none of which has an RFC 8785 form), or nest deeper than [`MAX_DIGEST_DEPTH`].
    pub fn of_envelope(bytes: &[u8]) -> Result<Digest, DigestError> {
        let canonical = canonical_envelope(bytes)?;
        Ok(Digest::of_bytes(&canonical))
    }

    /// The SHA-256 of some content, as it is: the content hash an [`ArtifactRef`]'s
    /// `digest` names.
    ///
    /// ```
    /// use contract_core::envelope::Digest;
    ///
    /// assert_eq!(
    ///     Digest::of_bytes(b"").to_string(),
    ///     "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    /// );
    /// ```
    ///
    /// [`ArtifactRef`]: crate::envelope::ArtifactRef
    #[must_use]
    pub fn of_bytes(content: &[u8]) -> Digest {
        use sha2::Digest as _;
        Digest(sha2::Sha256::digest(content).into())
    }
}

/// How deep arrays and objects may nest in an envelope whose digest is taken.
pub const MAX_DIGEST_DEPTH: usize = 512;

/// Why an envelope has no digest. It names a byte offset and a reason, never a value of the
/// envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestError {
    offset: usize,
    reason: DigestErrorReason,
}

/// Why an envelope has no RFC 8785 form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DigestErrorReason {
    /// The bytes are not JSON text (RFC 8259), or not UTF-8.
    NotJson,
    /// An object has a member name twice.
    DuplicateName,
    /// A string escapes half of a UTF-16 surrogate pair without the other half.
    UnpairedSurrogate,
    /// A number with a fraction or an exponent lies beyond the range of a double.
    NumberOutOfRange,
    /// Arrays and objects nest deeper than [`MAX_DIGEST_DEPTH`].
    TooDeep,
}

impl DigestError {
    /// The offset in bytes, from the start of the envelope, where the problem was found.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Why the envelope has no digest.
    #[must_use]
    pub const fn reason(&self) -> DigestErrorReason {
        self.reason
    }
}

impl fmt::Display for DigestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            DigestErrorReason::NotJson => "not JSON text",
            DigestErrorReason::DuplicateName => "an object has a member name twice",
            DigestErrorReason::UnpairedSurrogate => {
                "a string escapes half of a UTF-16 surrogate pair"
            }
            DigestErrorReason::NumberOutOfRange => "a number lies beyond the range of a double",
            DigestErrorReason::TooDeep => "arrays and objects nest too deep",
        };
        write!(
            f,
            "the envelope has no RFC 8785 form, so no digest: {why} (at byte {})",
            self.offset
        )
    }
}

impl std::error::Error for DigestError {}

/// The RFC 8785 form of an envelope without `journey.attempt` and `journey.retryOf`.
pub(crate) fn canonical_envelope(bytes: &[u8]) -> Result<Vec<u8>, DigestError> {
    jcs::canonical(bytes).map(|(canonical, _)| canonical)
}

/// What the digest's pass notes of an envelope on its way, for an inbox to find a key it
/// accepted before without reading the envelope again: the top level's `contextId` and
/// `handoffId`, the journey's `sessionId` and `attempt`, where each is of its type.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Noted<'a> {
    /// The top level's `contextId`, when a string.
    pub context_id: Option<Cow<'a, str>>,
    /// The top level's `handoffId`, when a string.
    pub handoff_id: Option<Cow<'a, str>>,
    /// The journey's `sessionId`, when a string.
    pub session_id: Option<Cow<'a, str>>,
    /// The journey's `attempt`, when an integer that fits.
    pub attempt: Option<u32>,
}

/// The digest of an envelope ([`Digest::of_envelope`]) and what its pass noted.
pub(crate) fn noted_digest(bytes: &[u8]) -> Result<(Digest, Noted<'_>), DigestError> {
    let (canonical, noted) = jcs::canonical(bytes)?;
    Ok((Digest::of_bytes(&canonical), noted))
}

/// RFC 8785 in one pass: a JSON reader that writes the canonical form as it reads. An
/// object's members are written in the order they come, each noted with its decoded name
/// and where its bytes are; when the object closes, they are rewritten in the order of
/// their names (nested objects are canonical by then).
mod jcs {
    use std::borrow::Cow;

    use super::{DigestError, DigestErrorReason, Noted, MAX_DIGEST_DEPTH};

    /// The members the writer leaves out: those of the envelope's `journey` that a retry
    /// changes.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Strip {
        /// The envelope: its `journey` member is written without them.
        Envelope,
        /// The envelope's `journey`: `attempt` and `retryOf` are left out.
        Journey,
        /// Anything else: every member is written.
        Nothing,
    }

    /// A member of an object being read: its decoded name and where its `"name":value`
    /// bytes are in the output.
    struct Member<'a> {
        name: Cow<'a, str>,
        start: usize,
        end: usize,
    }

    /// Which member's value is noted.
    #[derive(Clone, Copy)]
    enum Note {
        Context,
        Handoff,
        Session,
        Attempt,
    }

    /// The canonical form of one JSON text, without the envelope journey's `attempt` and
    /// `retryOf`, and what was noted on the way.
    pub(super) fn canonical(bytes: &[u8]) -> Result<(Vec<u8>, Noted<'_>), DigestError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err(error(e.valid_up_to(), DigestErrorReason::NotJson)),
        };
        let mut canon = Canon {
            text,
            pos: 0,
            out: Vec::with_capacity(bytes.len()),
            members: Vec::new(),
            scratch: Vec::new(),
            noted: Noted::default(),
        };
        canon.skip_space();
        canon.value(0, Strip::Envelope)?;
        canon.skip_space();
        if canon.pos != text.len() {
            return Err(error(canon.pos, DigestErrorReason::NotJson));
        }
        Ok((canon.out, canon.noted))
    }

    fn error(offset: usize, reason: DigestErrorReason) -> DigestError {
        DigestError { offset, reason }
    }

    struct Canon<'a> {
        text: &'a str,
        pos: usize,
        out: Vec<u8>,
        /// The members of the objects open, innermost last.
        members: Vec<Member<'a>>,
        /// Where an object's members are copied to while they are put in order.
        scratch: Vec<u8>,
        /// The envelope's key and journey, as read.
        noted: Noted<'a>,
    }

    impl<'a> Canon<'a> {
        fn peek(&self) -> Option<u8> {
            self.text.as_bytes().get(self.pos).copied()
        }

        fn not_json(&self) -> DigestError {
            error(self.pos, DigestErrorReason::NotJson)
        }

        fn skip_space(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
                self.pos += 1;
            }
        }

        fn expect(&mut self, byte: u8) -> Result<(), DigestError> {
            if self.peek() == Some(byte) {
                self.pos += 1;
                Ok(())
            } else {
                Err(self.not_json())
            }
        }

        fn value(&mut self, depth: usize, strip: Strip) -> Result<(), DigestError> {
            match self.peek() {
                Some(b'{') => self.object(depth + 1, strip),
                Some(b'[') => self.array(depth + 1),
                Some(b'"') => {
                    let (string, raw) = self.string()?;
                    write_string(&string, raw, &mut self.out);
                    Ok(())
                }
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => {
                    for literal in ["null", "true", "false"] {
                        if self.text[self.pos..].starts_with(literal) {
                            self.pos += literal.len();
                            self.out.extend_from_slice(literal.as_bytes());
                            return Ok(());
                        }
                    }
                    Err(self.not_json())
                }
            }
        }

        fn object(&mut self, depth: usize, strip: Strip) -> Result<(), DigestError> {
            if depth > MAX_DIGEST_DEPTH {
                return Err(error(self.pos, DigestErrorReason::TooDeep));
            }
            let at = self.pos;
            self.pos += 1;
            self.out.push(b'{');
            let first = self.out.len();
            let base = self.members.len();
            self.skip_space();
            if self.peek() == Some(b'}') {
                self.pos += 1;
                self.out.push(b'}');
                return Ok(());
            }
            loop {
                self.skip_space();
                if self.peek() != Some(b'"') {
                    return Err(self.not_json());
                }
                let start = self.out.len();
                let (name, raw) = self.string()?;
                write_string(&name, raw, &mut self.out);
                self.out.push(b':');
                self.skip_space();
                self.expect(b':')?;
                self.skip_space();
                let inner = match strip {
                    Strip::Envelope if name == "journey" => Strip::Journey,
                    _ => Strip::Nothing,
                };
                let note = match (strip, &*name) {
                    (Strip::Envelope, "contextId") => Some(Note::Context),
                    (Strip::Envelope, "handoffId") => Some(Note::Handoff),
                    (Strip::Journey, "sessionId") => Some(Note::Session),
                    (Strip::Journey, "attempt") => Some(Note::Attempt),
                    _ => None,
                };
                match (note, self.peek()) {
                    (Some(Note::Attempt), _) => {
                        let from = self.pos;
                        self.value(depth, inner)?;
                        self.noted.attempt = self.text[from..self.pos].parse().ok();
                    }
                    (Some(note), Some(b'"')) => {
                        let (string, raw) = self.string()?;
                        write_string(&string, raw, &mut self.out);
                        let slot = match note {
                            Note::Context => &mut self.noted.context_id,
                            Note::Handoff => &mut self.noted.handoff_id,
                            _ => &mut self.noted.session_id,
                        };
                        *slot = Some(string);
                    }
                    _ => self.value(depth, inner)?,
                }
                if strip == Strip::Journey && (name == "attempt" || name == "retryOf") {
                    // Read (it must be JSON), not written; its name still counts twice.
                    self.out.truncate(start);
                    self.members.push(Member {
                        name,
                        start,
                        end: start,
                    });
                } else {
                    let end = self.out.len();
                    self.members.push(Member { name, start, end });
                }
                self.skip_space();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.not_json()),
                }
            }
            // RFC 8785 §3.2.3: names sorted by their UTF-16 code units, compared as unsigned
            // integers (not by UTF-8 bytes or code points, which differ past U+FFFF).
            let members = &mut self.members[base..];
            if !members.is_sorted_by(|a, b| utf16_order(&a.name, &b.name).is_le()) {
                members.sort_by(|a, b| utf16_order(&a.name, &b.name));
            }
            if members.windows(2).any(|pair| pair[0].name == pair[1].name) {
                return Err(error(at, DigestErrorReason::DuplicateName));
            }
            // The members' bytes, in order, with commas between them.
            self.scratch.clear();
            self.scratch.extend_from_slice(&self.out[first..]);
            self.out.truncate(first);
            let written = members.iter().filter(|m| m.end > m.start);
            for (i, member) in written.enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                let bytes = &self.scratch[member.start - first..member.end - first];
                self.out.extend_from_slice(bytes);
            }
            self.out.push(b'}');
            self.members.truncate(base);
            Ok(())
        }

        fn array(&mut self, depth: usize) -> Result<(), DigestError> {
            if depth > MAX_DIGEST_DEPTH {
                return Err(error(self.pos, DigestErrorReason::TooDeep));
            }
            self.pos += 1;
            self.out.push(b'[');
            self.skip_space();
            if self.peek() == Some(b']') {
                self.pos += 1;
                self.out.push(b']');
                return Ok(());
            }
            loop {
                self.skip_space();
                self.value(depth, Strip::Nothing)?;
                self.skip_space();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.out.push(b',');
                    }
                    Some(b']') => {
                        self.pos += 1;
                        self.out.push(b']');
                        return Ok(());
                    }
                    _ => return Err(self.not_json()),
                }
            }
        }

        /// A string, decoded (borrowed when it has no escape), and whether it was written
        /// without escapes (then its canonical form is its text as it came).
        fn string(&mut self) -> Result<(Cow<'a, str>, bool), DigestError> {
            self.pos += 1;
            let start = self.pos;
            let bytes = self.text.as_bytes();
            // The run without escapes, borrowed as it is: the bytes a string writes as they
            // are are those it reads as they are (its stops: the quote, a backslash, a control).
            while bytes
                .get(self.pos)
                .is_some_and(|&b| ESCAPE[usize::from(b)] == 0)
            {
                self.pos += 1;
            }
            if bytes.get(self.pos) == Some(&b'"') {
                let run = &self.text[start..self.pos];
                self.pos += 1;
                return Ok((Cow::Borrowed(run), true));
            }
            let mut owned = String::from(&self.text[start..self.pos]);
            loop {
                match bytes.get(self.pos) {
                    Some(b'"') => {
                        self.pos += 1;
                        return Ok((Cow::Owned(owned), false));
                    }
                    Some(b'\\') => {
                        self.pos += 1;
                        self.escape(&mut owned)?;
                    }
                    Some(0x00..=0x1f) | None => return Err(self.not_json()),
                    Some(_) => {
                        // Up to the next stop (whole UTF-8 sequences: the stops are ASCII).
                        let run_start = self.pos;
                        while bytes
                            .get(self.pos)
                            .is_some_and(|&b| ESCAPE[usize::from(b)] == 0)
                        {
                            self.pos += 1;
                        }
                        owned.push_str(&self.text[run_start..self.pos]);
                    }
                }
            }
        }
        /// One escape, after its backslash.
        fn escape(&mut self, out: &mut String) -> Result<(), DigestError> {
            let at = self.pos - 1;
            let Some(kind) = self.peek() else {
                return Err(self.not_json());
            };
            self.pos += 1;
            let decoded = match kind {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let unit = self.hex4()?;
                    match unit {
                        0xd800..=0xdbff => {
                            // A high surrogate: only a low one escaped right after completes it.
                            if !self.text[self.pos..].starts_with("\\u") {
                                return Err(error(at, DigestErrorReason::UnpairedSurrogate));
                            }
                            self.pos += 2;
                            let low = self.hex4()?;
                            if !(0xdc00..=0xdfff).contains(&low) {
                                return Err(error(at, DigestErrorReason::UnpairedSurrogate));
                            }
                            let scalar = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                            char::from_u32(scalar)
                                .ok_or(error(at, DigestErrorReason::UnpairedSurrogate))?
                        }
                        0xdc00..=0xdfff => {
                            return Err(error(at, DigestErrorReason::UnpairedSurrogate))
                        }
                        _ => char::from_u32(unit).ok_or(error(at, DigestErrorReason::NotJson))?,
                    }
                }
                _ => return Err(error(at, DigestErrorReason::NotJson)),
            };
            out.push(decoded);
            Ok(())
        }

        fn hex4(&mut self) -> Result<u32, DigestError> {
            let digits = self
                .text
                .as_bytes()
                .get(self.pos..self.pos + 4)
                .ok_or_else(|| self.not_json())?;
            let mut unit = 0;
            for &d in digits {
                let v = match d {
                    b'0'..=b'9' => d - b'0',
                    b'a'..=b'f' => d - b'a' + 10,
                    b'A'..=b'F' => d - b'A' + 10,
                    _ => return Err(self.not_json()),
                };
                unit = unit << 4 | u32::from(v);
            }
            self.pos += 4;
            Ok(unit)
        }

        /// A number (RFC 8259's grammar), in its canonical form.
        fn number(&mut self) -> Result<(), DigestError> {
            let start = self.pos;
            let bytes = self.text.as_bytes();
            let digits = |pos: &mut usize| {
                let from = *pos;
                while let Some(b'0'..=b'9') = bytes.get(*pos) {
                    *pos += 1;
                }
                *pos - from
            };
            let mut pos = self.pos;
            let negative = bytes.get(pos) == Some(&b'-');
            if negative {
                pos += 1;
            }
            let int_start = pos;
            let int_len = digits(&mut pos);
            if int_len == 0 || (int_len > 1 && bytes[int_start] == b'0') {
                return Err(error(start, DigestErrorReason::NotJson));
            }
            let mut integer = true;
            if bytes.get(pos) == Some(&b'.') {
                pos += 1;
                if digits(&mut pos) == 0 {
                    return Err(error(start, DigestErrorReason::NotJson));
                }
                integer = false;
            }
            if let Some(b'e' | b'E') = bytes.get(pos) {
                pos += 1;
                if let Some(b'+' | b'-') = bytes.get(pos) {
                    pos += 1;
                }
                if digits(&mut pos) == 0 {
                    return Err(error(start, DigestErrorReason::NotJson));
                }
                integer = false;
            }
            self.pos = pos;
            let literal = &self.text[start..pos];
            if integer {
                // An integer keeps its digits: within ±2^53 they are what ECMAScript writes,
                // beyond it they are exact where a double would round. `-0` is `0`.
                let canonical = if literal == "-0" { "0" } else { literal };
                self.out.extend_from_slice(canonical.as_bytes());
                return Ok(());
            }
            // Rust's parse rounds correctly, as ECMAScript's does.
            let number: f64 = literal
                .parse()
                .map_err(|_| error(start, DigestErrorReason::NotJson))?;
            if !number.is_finite() {
                return Err(error(start, DigestErrorReason::NumberOutOfRange));
            }
            if number == 0.0 {
                // -0 is written `0` (ECMAScript's Number::toString).
                self.out.push(b'0');
                return Ok(());
            }
            let mut buffer = ryu_js::Buffer::new();
            self.out
                .extend_from_slice(buffer.format_finite(number).as_bytes());
            Ok(())
        }
    }

    /// The order of two strings by their UTF-16 code units. UTF-8's byte order is the order of
    /// code points, which is UTF-16's except between a character past U+FFFF (a surrogate
    /// pair, from D800) and one from U+E000 to U+FFFF: only there is the first differing
    /// character looked at.
    pub(super) fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
        let (x, y) = (a.as_bytes(), b.as_bytes());
        let Some(i) = x.iter().zip(y).position(|(p, q)| p != q) else {
            return x.len().cmp(&y.len());
        };
        // Both differ from here; the lead byte of the character each is in tells its range.
        let lead = |s: &[u8]| {
            let mut start = i;
            while start > 0 && s[start] & 0xc0 == 0x80 {
                start -= 1;
            }
            s[start]
        };
        let (p, q) = (lead(x), lead(y));
        // 0xEE..=0xEF lead U+E000..U+FFFF; 0xF0 and up lead what is past U+FFFF.
        let high_bmp = |l: u8| (0xee..0xf0).contains(&l);
        let astral = |l: u8| l >= 0xf0;
        if (high_bmp(p) && astral(q)) || (astral(p) && high_bmp(q)) {
            return a.encode_utf16().cmp(b.encode_utf16());
        }
        x[i].cmp(&y[i])
    }

    /// What a byte of a string is written as: `0` itself, `u` a `\u00xx` escape, else the
    /// letter of its short escape (`\n`) or the byte escaped (`\"`, `\\`).
    const ESCAPE: [u8; 256] = {
        let mut table = [0u8; 256];
        let mut b = 0;
        while b < 0x20 {
            table[b] = b'u';
            b += 1;
        }
        table[0x08] = b'b';
        table[0x0c] = b'f';
        table[b'\n' as usize] = b'n';
        table[b'\r' as usize] = b'r';
        table[b'\t' as usize] = b't';
        table[b'"' as usize] = b'"';
        table[b'\\' as usize] = b'\\';
        table
    };

    /// A string with RFC 8785's escapes (§3.2.2.2): `\"`, `\\`, the five short control
    /// escapes, `\u00xx` (lowercase) for the other controls, everything else as UTF-8.
    fn write_string(text: &str, raw: bool, out: &mut Vec<u8>) {
        let bytes = text.as_bytes();
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        // Most strings escape nothing: written without escapes, their text is their form;
        // else one pass without a branch per byte tells.
        let plain = raw
            || bytes
                .iter()
                .fold(true, |plain, &b| plain & (ESCAPE[usize::from(b)] == 0));
        if plain {
            out.extend_from_slice(bytes);
            out.push(b'"');
            return;
        }
        let mut run = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape = ESCAPE[usize::from(b)];
            if escape == 0 {
                continue;
            }
            out.extend_from_slice(&bytes[run..i]);
            run = i + 1;
            if escape == b'u' {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            } else {
                out.push(b'\\');
                out.push(escape);
            }
        }
        out.extend_from_slice(&bytes[run..]);
        out.push(b'"');
    }
}

#[cfg(test)]
mod jcs_tests {
    use super::*;

    fn canonical(json: &str) -> String {
        String::from_utf8(canonical_envelope(json.as_bytes()).expect("canonical")).expect("utf-8")
    }

    fn reason(json: &[u8]) -> DigestErrorReason {
        canonical_envelope(json).expect_err("refused").reason()
    }

    /// RFC 8785 §3.2.2, the example of the whole transformation.
    #[test]
    fn rfc8785_example() {
        let input = r#"{
            "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
            "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
            "literals": [null, true, false]
        }"#;
        assert_eq!(
            canonical(input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    /// RFC 8785 §3.2.3: names sorted by UTF-16 code units (U+1F600 is the surrogate pair
    /// D83D DE00, so it sorts before U+FB33, which UTF-8 or code points would put after):
    /// CR, `1`, U+0080, `ö`, `€`, U+1F600, U+FB33.
    #[test]
    fn rfc8785_sorting() {
        let input = r#"{
            "\u20ac": "Euro Sign",
            "\r": "Carriage Return",
            "\ufb33": "Hebrew Letter Dalet With Dagesh",
            "1": "One",
            "\ud83d\ude00": "Emoji: Grinning Face",
            "\u0080": "Control",
            "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        assert_eq!(
            canonical(input),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
             \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
             \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        );
    }

    /// RFC 8785 Appendix B: IEEE 754 doubles (as bits) and the text ECMAScript writes.
    #[test]
    fn rfc8785_numbers() {
        let vectors: [(u64, &str); 24] = [
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for (bits, expected) in vectors {
            let number = f64::from_bits(bits);
            // Written with an exponent, so read as a double (an integer keeps its digits).
            let json = format!("[{number:e}]");
            assert_eq!(canonical(&json), format!("[{expected}]"), "{json}");
        }
        // NaN and the infinities have no JSON text; a number beyond the range is refused.
        assert_eq!(reason(b"[1e309]"), DigestErrorReason::NumberOutOfRange);
        assert_eq!(reason(b"[-1e400]"), DigestErrorReason::NumberOutOfRange);
    }

    /// Integers keep their digits, beyond ±2^53 too (where ECMAScript would round them to a
    /// double); with a fraction or an exponent they are doubles.
    #[test]
    fn integers_keep_their_digits() {
        assert_eq!(canonical("[9007199254740993]"), "[9007199254740993]");
        assert_eq!(
            canonical("[-123456789012345678901234567890, 18446744073709551616]"),
            "[-123456789012345678901234567890,18446744073709551616]"
        );
        assert_eq!(canonical("[-0, 0, 7, -7]"), "[0,0,7,-7]");
        assert_eq!(
            canonical("[1.0, 1e2, 1E+2, -0.0, 0.5e1]"),
            "[1,100,100,0,5]"
        );
        assert_ne!(
            Digest::of_envelope(b"{\"n\":9007199254740993}"),
            Digest::of_envelope(b"{\"n\":9007199254740992}")
        );
    }

    /// RFC 8785 §3.2.2.2: the short escapes, `\u00xx` in lowercase for the other controls,
    /// everything else (`/`, DEL, U+2028, non-ASCII) as UTF-8.
    #[test]
    fn strings_are_written_with_rfc8785_escapes() {
        assert_eq!(
            canonical(r#"["\b\f\n\r\t\u0000\u001F\u007f\/\u2028é\ud834\udd1e"]"#),
            "[\"\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}/\u{2028}é\u{1d11e}\"]"
        );
    }

    #[test]
    fn spacing_and_order_do_not_change_the_digest() {
        let a = br#"{"contextId":"c","payload":{"b":[1,2],"a":{"y":true,"x":null}}}"#;
        let b = b"{ \"payload\" : {\n \"a\": {\"x\": null, \"y\": true}, \"b\": [ 1 , 2 ] },\r\n\t\"contextId\": \"c\" }";
        assert_eq!(Digest::of_envelope(a), Digest::of_envelope(b));
        // The same text is the SHA-256 of its canonical form.
        assert_eq!(
            Digest::of_envelope(a).expect("digest"),
            Digest::of_bytes(br#"{"contextId":"c","payload":{"a":{"x":null,"y":true},"b":[1,2]}}"#)
        );
    }

    #[test]
    fn attempt_and_retry_of_are_left_out_of_the_envelope_journey_only() {
        let first = br#"{"handoffId":"h","journey":{"sessionId":"s","attempt":1}}"#;
        let retry =
            br#"{"handoffId":"h","journey":{"retryOf":"run-1","sessionId":"s","attempt":2}}"#;
        assert_eq!(Digest::of_envelope(first), Digest::of_envelope(retry));
        assert_eq!(
            canonical(std::str::from_utf8(retry).expect("utf-8")),
            r#"{"handoffId":"h","journey":{"sessionId":"s"}}"#
        );
        // Another journey member changes it; a `journey` inside the payload keeps them.
        let other = br#"{"handoffId":"h","journey":{"sessionId":"t","attempt":1}}"#;
        assert_ne!(Digest::of_envelope(first), Digest::of_envelope(other));
        let nested = r#"{"payload":{"journey":{"attempt":1,"retryOf":"r"}}}"#;
        assert_eq!(canonical(nested), nested);
    }

    #[test]
    fn the_key_and_the_journey_are_noted_on_the_way() {
        let json = br#"{"journey":{"attempt":3,"sessionId":"s\u00e9","x":{"contextId":"no"}},
            "contextId":"ctx-1","handoffId":"h-2","payload":{"handoffId":"inner"}}"#;
        let (digest, noted) = noted_digest(json).unwrap();
        assert_eq!(digest, Digest::of_envelope(json).unwrap());
        assert_eq!(noted.context_id.as_deref(), Some("ctx-1"));
        assert_eq!(noted.handoff_id.as_deref(), Some("h-2"));
        assert_eq!(noted.session_id.as_deref(), Some("s\u{e9}"));
        assert_eq!(noted.attempt, Some(3));
        // Not strings or not integers that fit: not noted.
        let (_, noted) = noted_digest(br#"{"contextId":7,"journey":{"attempt":-1}}"#).unwrap();
        assert_eq!(noted, Noted::default());
        let (_, noted) = noted_digest(br#"{"journey":{"attempt":1.5,"sessionId":null}}"#).unwrap();
        assert_eq!(noted, Noted::default());
    }

    #[test]
    fn unknown_members_are_kept() {
        let known = br#"{"contextId":"c","handoffId":"h"}"#;
        let unknown = br#"{"contextId":"c","handoffId":"h","priority":"high"}"#;
        let changed = br#"{"contextId":"c","handoffId":"h","priority":"low"}"#;
        assert_ne!(Digest::of_envelope(known), Digest::of_envelope(unknown));
        assert_ne!(Digest::of_envelope(unknown), Digest::of_envelope(changed));
    }

    #[test]
    fn what_has_no_canonical_form_is_refused_without_its_value() {
        assert_eq!(
            reason(br#"{"a":1,"a":2}"#),
            DigestErrorReason::DuplicateName
        );
        // Two spellings of one name are one name.
        assert_eq!(
            reason(br#"{"a":1,"\u0061":2}"#),
            DigestErrorReason::DuplicateName
        );
        assert_eq!(
            reason(br#"["\ud800"]"#),
            DigestErrorReason::UnpairedSurrogate
        );
        assert_eq!(
            reason(br#"["\ud800\u0041"]"#),
            DigestErrorReason::UnpairedSurrogate
        );
        assert_eq!(
            reason(br#"["\udc00"]"#),
            DigestErrorReason::UnpairedSurrogate
        );
        for not_json in [
            &b""[..],
            b"{",
            b"[1,]",
            b"{\"a\" 1}",
            b"[01]",
            b"[1.]",
            b"[.5]",
            b"[1e]",
            b"[-]",
            b"[+1]",
            b"[\"\x01\"]",
            b"[\"\\x\"]",
            b"[\"\\u12\"]",
            b"[nul]",
            b"[true] x",
            b"[\"\xff\"]",
            b"\xef\xbb\xbf[]",
        ] {
            assert_eq!(reason(not_json), DigestErrorReason::NotJson, "{not_json:?}");
        }
        let error =
            canonical_envelope(br#"{"secret":"hunter2","secret":"x"}"#).expect_err("refused");
        assert_eq!(error.offset(), 0);
        let message = error.to_string();
        assert!(
            !message.contains("hunter2") && !message.contains("secret"),
            "{message}"
        );
    }

    /// The fast order of names is UTF-16's on every pair of a set that crosses the ranges
    /// where UTF-8's order differs (U+E000..U+FFFF against the surrogate pairs).
    #[test]
    fn names_sort_as_utf16_code_units() {
        let names = [
            "",
            "a",
            "ab",
            "b",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
            "\u{d7ff}",
            "\u{e000}",
            "\u{fb33}",
            "\u{ffff}",
            "\u{10000}",
            "\u{1f600}",
            "\u{10ffff}",
            "a\u{ffff}",
            "a\u{10000}",
            "\u{e000}b",
            "\u{1f600}a",
        ];
        for a in names {
            for b in names {
                assert_eq!(
                    jcs::utf16_order(a, b),
                    a.encode_utf16().cmp(b.encode_utf16()),
                    "{a:?} {b:?}"
                );
            }
        }
        // Members of nested objects, in and out of order, escaped or not.
        assert_eq!(
            canonical(r#"{"b":{"\u0064":1,"c":[{"z":0,"y":1}]},"a":"\u00e9"}"#),
            r#"{"a":"é","b":{"c":[{"y":1,"z":0}],"d":1}}"#
        );
        // A journey's `attempt` twice is a name twice, though neither is written.
        assert_eq!(
            reason(br#"{"journey":{"attempt":1,"attempt":2}}"#),
            DigestErrorReason::DuplicateName
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(canonical_envelope(deep(MAX_DIGEST_DEPTH).as_bytes()).is_ok());
        assert_eq!(
            reason(deep(MAX_DIGEST_DEPTH + 1).as_bytes()),
            DigestErrorReason::TooDeep
        );
        assert_eq!(
            reason(deep(1_000_000).as_bytes()),
            DigestErrorReason::TooDeep
        );
    }
}
