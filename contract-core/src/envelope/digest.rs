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
    let value = jcs::parse(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    jcs::write(&value, jcs::Strip::Envelope, &mut out);
    Ok(out)
}

/// RFC 8785: a JSON reader that keeps what the canonical form needs (decoded strings, the
/// text of numbers), and the writer of the canonical form.
mod jcs {
    use std::borrow::Cow;

    use super::{DigestError, DigestErrorReason, MAX_DIGEST_DEPTH};

    /// A JSON value as read.
    pub(super) enum Value<'a> {
        /// `null`, `true` or `false`, as written.
        Literal(&'static str),
        /// A number in its canonical form.
        Number(String),
        /// A string, decoded.
        String(Cow<'a, str>),
        /// An array.
        Array(Vec<Value<'a>>),
        /// An object's members, sorted by the UTF-16 code units of their names.
        Object(Vec<(Cow<'a, str>, Value<'a>)>),
    }

    /// The members the writer leaves out: those of the envelope's `journey` that a retry
    /// changes.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub(super) enum Strip {
        /// The envelope: its `journey` member is written without them.
        Envelope,
        /// The envelope's `journey`: `attempt` and `retryOf` are left out.
        Journey,
        /// Anything else: every member is written.
        Nothing,
    }

    /// Reads one JSON text.
    pub(super) fn parse(bytes: &[u8]) -> Result<Value<'_>, DigestError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err(error(e.valid_up_to(), DigestErrorReason::NotJson)),
        };
        let mut reader = Reader { text, pos: 0 };
        reader.skip_space();
        let value = reader.value(0)?;
        reader.skip_space();
        if reader.pos != text.len() {
            return Err(error(reader.pos, DigestErrorReason::NotJson));
        }
        Ok(value)
    }

    fn error(offset: usize, reason: DigestErrorReason) -> DigestError {
        DigestError { offset, reason }
    }

    struct Reader<'a> {
        text: &'a str,
        pos: usize,
    }

    impl<'a> Reader<'a> {
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

        fn value(&mut self, depth: usize) -> Result<Value<'a>, DigestError> {
            match self.peek() {
                Some(b'{') => self.object(depth + 1),
                Some(b'[') => self.array(depth + 1),
                Some(b'"') => Ok(Value::String(self.string()?)),
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => {
                    for literal in ["null", "true", "false"] {
                        if self.text[self.pos..].starts_with(literal) {
                            self.pos += literal.len();
                            return Ok(Value::Literal(literal));
                        }
                    }
                    Err(self.not_json())
                }
            }
        }

        fn object(&mut self, depth: usize) -> Result<Value<'a>, DigestError> {
            if depth > MAX_DIGEST_DEPTH {
                return Err(error(self.pos, DigestErrorReason::TooDeep));
            }
            let start = self.pos;
            self.pos += 1;
            let mut members = Vec::new();
            self.skip_space();
            if self.peek() == Some(b'}') {
                self.pos += 1;
                return Ok(Value::Object(members));
            }
            loop {
                self.skip_space();
                if self.peek() != Some(b'"') {
                    return Err(self.not_json());
                }
                let name = self.string()?;
                self.skip_space();
                self.expect(b':')?;
                self.skip_space();
                let value = self.value(depth)?;
                members.push((name, value));
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
            members.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            if members.windows(2).any(|pair| pair[0].0 == pair[1].0) {
                return Err(error(start, DigestErrorReason::DuplicateName));
            }
            Ok(Value::Object(members))
        }

        fn array(&mut self, depth: usize) -> Result<Value<'a>, DigestError> {
            if depth > MAX_DIGEST_DEPTH {
                return Err(error(self.pos, DigestErrorReason::TooDeep));
            }
            self.pos += 1;
            let mut items = Vec::new();
            self.skip_space();
            if self.peek() == Some(b']') {
                self.pos += 1;
                return Ok(Value::Array(items));
            }
            loop {
                self.skip_space();
                items.push(self.value(depth)?);
                self.skip_space();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.not_json()),
                }
            }
            Ok(Value::Array(items))
        }

        /// A string, decoded: borrowed when it has no escape.
        fn string(&mut self) -> Result<Cow<'a, str>, DigestError> {
            self.pos += 1;
            let start = self.pos;
            let bytes = self.text.as_bytes();
            // The run without escapes, borrowed as it is.
            loop {
                match bytes.get(self.pos) {
                    Some(b'"') => {
                        let run = &self.text[start..self.pos];
                        self.pos += 1;
                        return Ok(Cow::Borrowed(run));
                    }
                    Some(b'\\') => break,
                    Some(0x00..=0x1f) | None => return Err(self.not_json()),
                    Some(_) => self.pos += 1,
                }
            }
            let mut owned = String::from(&self.text[start..self.pos]);
            loop {
                match bytes.get(self.pos) {
                    Some(b'"') => {
                        self.pos += 1;
                        return Ok(Cow::Owned(owned));
                    }
                    Some(b'\\') => {
                        self.pos += 1;
                        self.escape(&mut owned)?;
                    }
                    Some(0x00..=0x1f) | None => return Err(self.not_json()),
                    Some(_) => {
                        // Copy up to the next quote or backslash (whole UTF-8 sequences: both
                        // stop bytes are ASCII).
                        let run_start = self.pos;
                        while let Some(&b) = bytes.get(self.pos) {
                            if b == b'"' || b == b'\\' || b < 0x20 {
                                break;
                            }
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
        fn number(&mut self) -> Result<Value<'a>, DigestError> {
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
                return Ok(Value::Number(canonical.to_owned()));
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
                return Ok(Value::Number("0".to_owned()));
            }
            let mut buffer = ryu_js::Buffer::new();
            Ok(Value::Number(buffer.format_finite(number).to_owned()))
        }
    }

    /// Writes a value's canonical form.
    pub(super) fn write(value: &Value<'_>, strip: Strip, out: &mut Vec<u8>) {
        match value {
            Value::Literal(text) => out.extend_from_slice(text.as_bytes()),
            Value::Number(text) => out.extend_from_slice(text.as_bytes()),
            Value::String(text) => write_string(text, out),
            Value::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write(item, Strip::Nothing, out);
                }
                out.push(b']');
            }
            Value::Object(members) => {
                out.push(b'{');
                let mut first = true;
                for (name, member) in members {
                    if strip == Strip::Journey && (name == "attempt" || name == "retryOf") {
                        continue;
                    }
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    write_string(name, out);
                    out.push(b':');
                    let inner = if strip == Strip::Envelope && name == "journey" {
                        Strip::Journey
                    } else {
                        Strip::Nothing
                    };
                    write(member, inner, out);
                }
                out.push(b'}');
            }
        }
    }

    /// A string with RFC 8785's escapes (§3.2.2.2): `\"`, `\\`, the five short control
    /// escapes, `\u00xx` (lowercase) for the other controls, everything else as UTF-8.
    fn write_string(text: &str, out: &mut Vec<u8>) {
        out.push(b'"');
        let bytes = text.as_bytes();
        let mut run = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0c => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x00..=0x1f => {
                    out.extend_from_slice(&bytes[run..i]);
                    run = i + 1;
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 0xf)]);
                    continue;
                }
                _ => continue,
            };
            out.extend_from_slice(&bytes[run..i]);
            out.extend_from_slice(escape);
            run = i + 1;
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
    /// D83D DE00, so it sorts before U+FB33, which UTF-8 or code points would put after).
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
        let names: Vec<String> = match jcs::parse(input.as_bytes()).expect("parsed") {
            jcs::Value::Object(members) => {
                members.into_iter().map(|(n, _)| n.into_owned()).collect()
            }
            _ => panic!("an object"),
        };
        assert_eq!(
            names,
            [
                "\r",
                "1",
                "\u{80}",
                "\u{f6}",
                "\u{20ac}",
                "\u{1f600}",
                "\u{fb33}"
            ]
        );
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
