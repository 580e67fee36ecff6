//! The top level of an envelope, read before anything else: where each member's value is,
//! as a byte span, in one pass that skips the values without reading them (no
//! `serde_json::value::RawValue`, no tokens kept).
//!
//! It finds the structure of any JSON document and gives up (with the offset) where a
//! document is not an object or breaks the grammar it follows; what it does not check
//! (the inside of scalars, escapes, the pairing of brackets inside a value) the reads that
//! follow check, on the spans it found.

use core::ops::Range;

/// The members of the top level an envelope is read by, found by one pass.
#[derive(Debug, Default)]
pub(crate) struct Top {
    /// The value of `schemaVersion`, when it arrived once.
    pub schema_version: Option<Range<usize>>,
    /// The value of `contract`, when it arrived once.
    pub contract: Option<Range<usize>>,
    /// The first value of `payload`, and how many arrived (more than one is a duplicate).
    pub payload: Option<Range<usize>>,
    pub payloads: usize,
    /// The first value of `senderPresence`, and how many arrived.
    pub presence: Option<Range<usize>>,
    pub presences: usize,
    /// Whether `schemaVersion` or `contract` arrived more than once.
    pub ambiguous: bool,
}

/// The members the top level is read by.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    SchemaVersion,
    Contract,
    Payload,
    SenderPresence,
    Other,
}

#[inline]
fn key(raw: &[u8], escaped: bool) -> Key {
    if escaped {
        return escaped_key(raw);
    }
    name(raw)
}

/// The member a key written without escapes names. Most keys are none of the four and have
/// another length: told without a comparison; the others are compared as arrays of their
/// length (inline, without a call).
#[inline]
fn name(raw: &[u8]) -> Key {
    fn is<const N: usize>(raw: &[u8], name: &[u8; N]) -> bool {
        <&[u8; N]>::try_from(raw).is_ok_and(|raw| raw == name)
    }
    match raw.len() {
        7 if is(raw, b"payload") => Key::Payload,
        8 if is(raw, b"contract") => Key::Contract,
        13 if is(raw, b"schemaVersion") => Key::SchemaVersion,
        14 if is(raw, b"senderPresence") => Key::SenderPresence,
        _ => Key::Other,
    }
}

/// The member a key with escapes names (`"pay\u006coad"` is the key it decodes to, as serde
/// reads it; one that does not decode is left to the read of the envelope to report).
#[cold]
#[inline(never)]
fn escaped_key(raw: &[u8]) -> Key {
    let mut quoted = Vec::with_capacity(raw.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(raw);
    quoted.push(b'"');
    match serde_json::from_slice::<String>(&quoted) {
        Ok(decoded) => name(decoded.as_bytes()),
        Err(_) => Key::Other,
    }
}

/// Reads the top level of `bytes`: the spans of the members an envelope is read by, or the
/// offset where the document stops being an object this pass can follow (not JSON, not an
/// object, nested deeper than `max_depth`).
pub(crate) fn read(bytes: &[u8], max_depth: usize) -> Result<Top, usize> {
    scan(bytes, max_depth, false, |_| None).map(|(top, _)| top)
}

/// Reads the top level as [`read`] does, except that with `guess`, on reaching the first
/// `payload` after one `schemaVersion` and one `contract` (they are checked before the
/// payload is read), it takes the payload to run to the document's last `}` and stops there
/// (returning `true`): where `send_handoff` writes the payload, last, this skips a pass over
/// its bytes before they are read. The guess holds only when that span reads as one JSON
/// value (a payload followed by more members does not): a caller must read the payload from
/// it, and on any failure read the top level again with [`read`].
///
/// The first `senderPresence` whose value is an object is handed to `read_presence` (its
/// start) before it is skipped: where that reads it, the end it gives is the object's (the
/// matching `}` of an object that reads), and it is not passed over a second time.
pub(crate) fn scan(
    bytes: &[u8],
    max_depth: usize,
    guess: bool,
    mut read_presence: impl FnMut(usize) -> Option<usize>,
) -> Result<(Top, bool), usize> {
    let mut top = Top::default();
    let mut i = whitespace(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return Err(i);
    }
    if max_depth == 0 {
        return Err(i);
    }
    i = whitespace(bytes, i + 1);
    if bytes.get(i) == Some(&b'}') {
        return end(bytes, i + 1, top).map(|top| (top, false));
    }
    loop {
        if bytes.get(i) != Some(&b'"') {
            return Err(i);
        }
        let (close, escaped) = string(bytes, i + 1)?;
        let key = key(&bytes[i + 1..close], escaped);
        i = whitespace(bytes, close + 1);
        if bytes.get(i) != Some(&b':') {
            return Err(i);
        }
        let start = whitespace(bytes, i + 1);
        if guess && key == Key::Payload && top.payloads == 0 && !top.ambiguous {
            if let (Some(_), Some(_), Some(end)) = (
                &top.schema_version,
                &top.contract,
                last_value_end(bytes, start),
            ) {
                top.payload = Some(start..end);
                top.payloads = 1;
                return Ok((top, true));
            }
            // `contract` not met yet: where it is the last member, written plainly after the
            // payload (`…}, "contract": "c/v1"}`), the payload is taken to run up to it. As
            // above, the guess holds only when that span reads as one JSON value.
            if let (Some(_), None, Some((end, contract))) = (
                &top.schema_version,
                &top.contract,
                contract_last(bytes, start),
            ) {
                top.contract = Some(contract);
                top.payload = Some(start..end);
                top.payloads = 1;
                return Ok((top, true));
            }
        }
        let read = match key {
            Key::SenderPresence if top.presences == 0 && bytes.get(start) == Some(&b'{') => {
                read_presence(start)
            }
            _ => None,
        };
        let stop = match (read, bytes.get(start)) {
            (Some(stop), _) => stop,
            // Most members are strings: skipped here, without a call.
            (None, Some(b'"')) => string(bytes, start + 1)?.0 + 1,
            (None, _) => value(bytes, start, max_depth - 1)?,
        };
        let span = start..stop;
        match key {
            Key::SchemaVersion => {
                top.ambiguous |= top.schema_version.is_some();
                top.schema_version = Some(span);
            }
            Key::Contract => {
                top.ambiguous |= top.contract.is_some();
                top.contract = Some(span);
            }
            Key::Payload => {
                top.payloads += 1;
                top.payload.get_or_insert(span);
            }
            Key::SenderPresence => {
                top.presences += 1;
                top.presence.get_or_insert(span);
            }
            Key::Other => {}
        }
        i = whitespace(bytes, stop);
        match bytes.get(i) {
            Some(b',') => i = whitespace(bytes, i + 1),
            Some(b'}') => return end(bytes, i + 1, top).map(|top| (top, false)),
            _ => return Err(i),
        }
    }
}

/// The top level of an envelope laid out as `send_handoff` writes it, found without passing
/// over the members between the ids and the sender's presence: `{"schemaVersion":"…"` first,
/// then `,"contract":"…"` (or `contract` as the last member, after the payload), and further
/// on `,"senderPresence":{…},"payload":` with the payload running to the document's end
/// (all written without whitespace between them). The sender's presence is handed to
/// `read_presence` (its start), which gives its end where it reads it.
///
/// `None` where the envelope is not laid out so. What it finds is a guess, as [`scan`]'s is:
/// the search for `,"senderPresence":{` does not know at what depth it meets it. The guess
/// holds only when the envelope's fields read without the two members (the places of their
/// values taken by `null`), the presence reads and the payload reads as one JSON value: then
/// the document is one JSON object whose last `}` ends the payload's member (or the
/// `contract` member after it), so that the payload, and the presence just before it, are
/// members of the top level, and a second `schemaVersion`, `contract`, `senderPresence` or
/// `payload` would be a key twice in what the envelope's fields read. A caller must read the
/// envelope from it, and on any failure read the top level with [`read`].
pub(crate) fn written(
    bytes: &[u8],
    read_presence: impl FnOnce(usize) -> Option<usize>,
) -> Option<Top> {
    const OPEN: &[u8] = b"{\"schemaVersion\":\"";
    const CONTRACT: &[u8] = b",\"contract\":\"";
    const PRESENCE: &[u8] = b",\"senderPresence\":{";
    const PAYLOAD: &[u8] = b",\"payload\":";
    if !bytes.starts_with(OPEN) {
        return None;
    }
    let mut top = Top::default();
    let (close, _) = string(bytes, OPEN.len()).ok()?;
    top.schema_version = Some(OPEN.len() - 1..close + 1);
    let mut i = close + 1;
    if bytes.get(i..)?.starts_with(CONTRACT) {
        let (close, _) = string(bytes, i + CONTRACT.len()).ok()?;
        top.contract = Some(i + CONTRACT.len() - 1..close + 1);
        i = close + 1;
    }
    let start = find(bytes, i, PRESENCE)? + PRESENCE.len() - 1;
    let end = read_presence(start)?;
    top.presence = Some(start..end);
    top.presences = 1;
    if !bytes.get(end..)?.starts_with(PAYLOAD) {
        return None;
    }
    let start = end + PAYLOAD.len();
    // Whitespace before the value: the top level's read says where the value starts.
    if matches!(bytes.get(start), None | Some(b' ' | b'\t' | b'\n' | b'\r')) {
        return None;
    }
    let end = if top.contract.is_some() {
        last_value_end(bytes, start)?
    } else {
        let (end, contract) = contract_last(bytes, start)?;
        top.contract = Some(contract);
        end
    };
    top.payload = Some(start..end);
    top.payloads = 1;
    Some(top)
}

/// The first offset from `from` on where `pattern` (of at least 9 bytes) is, found eight
/// bytes at a time by its byte at index 8 (`P` of `,"senderPresence"`, rare in an
/// envelope's other members).
fn find(bytes: &[u8], from: usize, pattern: &[u8]) -> Option<usize> {
    const AT: usize = 8;
    let key = pattern[AT];
    let mut i = from + AT;
    loop {
        while let Some(word) = bytes.get(i..i + 8) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            let found = has_byte(u64::from_le_bytes(eight), key);
            if found != 0 {
                i += (found.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        if *bytes.get(i)? == key && bytes.get(i - AT..i - AT + pattern.len()) == Some(pattern) {
            return Some(i - AT);
        }
        i += 1;
    }
}

/// Where a value starting at `start` ends if it is the last member of the top level: before
/// the whitespace before the document's last `}` (`None` when there is no such `}` after it).
fn last_value_end(bytes: &[u8], start: usize) -> Option<usize> {
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let body = bytes.get(start..)?;
    let close = body.iter().rposition(|b| !space(b))?;
    if body[close] != b'}' {
        return None;
    }
    let end = body[..close].iter().rposition(|b| !space(b))? + 1;
    Some(start + end)
}

/// Where a value starting at `start` ends if it is followed by one last member, `contract`,
/// whose key and value are written without escapes, and the document's last `}`; with the
/// span of that value (`None` when the document does not end so).
fn contract_last(bytes: &[u8], start: usize) -> Option<(usize, Range<usize>)> {
    const KEY: &[u8; 10] = b"\"contract\"";
    let body = bytes.get(start..)?;
    // Walks back from the end over `}`, the value's closing quote, its text, its opening
    // quote, `:`, `"contract"` and `,`, whitespace allowed between them.
    let brace = before(body, body.len(), b'}')?;
    let close = before(body, brace, b'"')?;
    let open = body[..close]
        .iter()
        .rposition(|&b| b == b'"' || b == b'\\')?;
    if body[open] != b'"' {
        return None;
    }
    let colon = before(body, open, b':')?;
    let key_end = before(body, colon, b'"')? + 1;
    let key_start = key_end.checked_sub(KEY.len())?;
    // As an array: compared inline, without a call.
    if <&[u8; 10]>::try_from(&body[key_start..key_end]).ok() != Some(KEY) {
        return None;
    }
    let comma = before(body, key_start, b',')?;
    // The payload's last byte: the first before the comma that is not whitespace.
    let end = body[..comma]
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?
        + 1;
    Some((start + end, start + open..start + close + 1))
}

/// Where the last byte of `body` before `at` that is not whitespace is, when it is `byte`.
#[inline]
fn before(body: &[u8], mut at: usize, byte: u8) -> Option<usize> {
    while at > 0 {
        at -= 1;
        match body.get(at) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => {}
            Some(&b) if b == byte => return Some(at),
            _ => return None,
        }
    }
    None
}

/// After the top level's `}`: whitespace only.
fn end(bytes: &[u8], i: usize, top: Top) -> Result<Top, usize> {
    let i = whitespace(bytes, i);
    if i == bytes.len() {
        Ok(top)
    } else {
        Err(i)
    }
}

#[inline]
fn whitespace(bytes: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(i) {
        i += 1;
    }
    i
}

/// The closing quote of a string whose content starts at `i`, and whether it holds escapes.
#[inline]
fn string(bytes: &[u8], mut i: usize) -> Result<(usize, bool), usize> {
    let mut escaped = false;
    loop {
        // Eight bytes at a time up to the first quote or backslash.
        while let Some(word) = bytes.get(i..i + 8) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            let word = u64::from_le_bytes(eight);
            let found = has_byte(word, b'"') | has_byte(word, b'\\');
            if found != 0 {
                i += (found.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        match bytes.get(i) {
            None => return Err(bytes.len()),
            Some(b'"') => return Ok((i, escaped)),
            Some(b'\\') => {
                // A backslash and the byte it escapes (a `\u` escape's digits are plain
                // bytes).
                escaped = true;
                i += 2;
            }
            Some(_) => i += 1,
        }
    }
}

/// The bytes of `word` equal to `byte`, each marked by its top bit; exact up to the first
/// (a borrow can only mark bytes after a match).
#[inline]
fn has_byte(word: u64, byte: u8) -> u64 {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const TOPS: u64 = u64::from_le_bytes([0x80; 8]);
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & TOPS
}

/// The end of the value that starts at `i`, nesting at most `max_depth` more levels.
fn value(bytes: &[u8], i: usize, max_depth: usize) -> Result<usize, usize> {
    match bytes.get(i) {
        None => Err(i),
        Some(b'"') => string(bytes, i + 1).map(|(close, _)| close + 1),
        Some(b'{' | b'[') => container(bytes, i, max_depth),
        Some(_) => {
            // A scalar: up to the next delimiter (its grammar is checked where it is read).
            let len = bytes[i..]
                .iter()
                .position(|&b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(bytes.len() - i);
            if len == 0 {
                Err(i)
            } else {
                Ok(i + len)
            }
        }
    }
}

/// The bytes a container's skip stops at: quotes and brackets.
static STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    stops[b'"' as usize] = true;
    stops[b'{' as usize] = true;
    stops[b'[' as usize] = true;
    stops[b'}' as usize] = true;
    stops[b']' as usize] = true;
    stops
};

/// The end of the array or object that opens at `i`: its brackets counted, its strings
/// skipped.
fn container(bytes: &[u8], mut i: usize, max_depth: usize) -> Result<usize, usize> {
    let mut depth = 0usize;
    while let Some(&b) = bytes.get(i) {
        if !STOPS[b as usize] {
            i += 1;
            continue;
        }
        match b {
            b'"' => {
                i = string(bytes, i + 1)?.0 + 1;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > max_depth {
                    return Err(i);
                }
            }
            _ => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
        }
        i += 1;
    }
    Err(i)
}

#[cfg(test)]
mod tests {
    use super::read;

    fn spans(text: &str) -> (Option<&str>, Option<&str>, Option<&str>, usize, bool) {
        let top = read(text.as_bytes(), 127).expect("an object");
        (
            top.schema_version.map(|r| &text[r]),
            top.contract.map(|r| &text[r]),
            top.payload.map(|r| &text[r]),
            top.payloads,
            top.ambiguous,
        )
    }

    #[test]
    fn the_members_are_found_in_any_order_with_their_values_as_spans() {
        let text = r#" {"payload": {"a": [1, {"b": "}\"]"}]}, "x": null,
            "contract" : "c/v1", "schemaVersion":"handoff-envelope/v1"} "#;
        assert_eq!(
            spans(text),
            (
                Some(r#""handoff-envelope/v1""#),
                Some(r#""c/v1""#),
                Some(r#"{"a": [1, {"b": "}\"]"}]}"#),
                1,
                false
            )
        );
        let text = r#"{"contract":"c/v1","pay\u006coad":7,"payload":[],"contract":"d/v1"}"#;
        assert_eq!(spans(text), (None, Some(r#""d/v1""#), Some("7"), 2, true));
        assert_eq!(spans("{}"), (None, None, None, 0, false));
    }

    #[test]
    fn strings_end_at_their_first_unescaped_quote_at_any_length() {
        for len in 0..40 {
            let body = "a".repeat(len);
            for text in [
                format!(r#"{{"k": "{body}", "contract": "c/v1"}}"#),
                format!(r#"{{"k": "{body}\"{body}\\", "contract": "c/v1"}}"#),
                format!(r#"{{"k": ["{body}\\\"", {{"x": "{body}"}}], "contract": "c/v1"}}"#),
            ] {
                assert_eq!(spans(&text).1, Some(r#""c/v1""#), "{text}");
            }
        }
    }

    #[test]
    fn the_payload_is_taken_to_run_to_the_last_brace_when_the_ids_come_first() {
        fn guess(text: &str) -> Option<(Option<&str>, Option<&str>, usize)> {
            match super::scan(text.as_bytes(), 127, true, |_| None) {
                Ok((top, true)) => {
                    let payload = top.payload.map(|r| &text[r]);
                    Some((top.contract.map(|r| &text[r]), payload, top.presences))
                }
                _ => None,
            }
        }
        let text = r#"{"schemaVersion":"e/v1","contract":"c/v1","senderPresence":{},
            "payload": {"a":[1]} , "x": 2 }  "#;
        // Not checked here: the read of the payload's span refuses what follows it.
        assert_eq!(
            guess(text),
            Some((Some(r#""c/v1""#), Some(r#"{"a":[1]} , "x": 2"#), 1))
        );
        let text = r#"{"schemaVersion":"e/v1","contract":"c/v1","payload":[] }"#;
        assert_eq!(guess(text), Some((Some(r#""c/v1""#), Some("[]"), 0)));
        // The contract last, after the payload.
        let text = r#"{"schemaVersion":"e/v1","payload":[],"contract":"c/v1"}"#;
        assert_eq!(guess(text), Some((Some(r#""c/v1""#), Some("[]"), 0)));
        let text = r#"{"schemaVersion":"e/v1","senderPresence":{},"payload": {"a":["}"]}
            , "x": 1 ,
            "contract" :	"c/v1" }
        "#;
        assert_eq!(
            guess(text),
            Some((
                Some(r#""c/v1""#),
                Some(
                    r#"{"a":["}"]}
            , "x": 1"#
                ),
                1
            ))
        );
        for text in [
            r#"{"payload":[],"contract":"c/v1","schemaVersion":"e/v1"}"#,
            r#"{"payload":[],"schemaVersion":"e/v1","contract":"c/v1"}"#,
            r#"{"schemaVersion":"e/v1","payload":[],"contract":"c\/v1"}"#,
            r#"{"schemaVersion":"e/v1","payload":[],"contract":"c/v1\\"}"#,
            r#"{"schemaVersion":"e/v1","payload":[],"contr\u0061ct":"c/v1"}"#,
            r#"{"schemaVersion":"e/v1","payload":[],"contract":1}"#,
            r#"{"schemaVersion":"e/v1","payload":[] "contract":"c/v1"}"#,
            r#"{"schemaVersion":"e/v1","payload":[],"contract":"c/v1"]"#,
            r#"{"schemaVersion":"e/v1","payload":"contract":"c/v1"}"#,
            r#"{"contract":"c/v1","contract":"c/v1","schemaVersion":"e/v1","payload":1}"#,
            r#"{"schemaVersion":"e/v1","contract":"c/v1","payload": }"#,
            r#"{"schemaVersion":"e/v1","contract":"c/v1","payload":1"#,
            r#"{"schemaVersion":"e/v1","contract":"c/v1"}"#,
            r#"[]"#,
        ] {
            assert_eq!(guess(text), None, "{text}");
        }
    }

    #[test]
    fn containers_end_at_their_closing_bracket_at_any_alignment() {
        // Brackets, quotes and their look-alikes with bit 5 set or clear (`;`, `{`, `[`,
        // `]`, `}`, `=`, `\x7f`, past ASCII) before, inside and after the eight-byte words.
        for pad in 0..17 {
            let gap = " ".repeat(pad);
            let value = format!(r#"[{gap}1,{{"a":[{gap}]}},"]}}{gap}",;=[{gap}{{}}],"é€""#);
            let value = format!("{{\"x\":{value}]{gap}}}");
            let text = format!(r#"{{"payload":{value},{gap}"contract":"c/v1"}}"#);
            let (_, contract, payload, _, _) = spans(&text);
            assert_eq!(payload, Some(value.as_str()), "{text}");
            assert_eq!(contract, Some(r#""c/v1""#), "{text}");
            // Unclosed: the offset where the document ends.
            let open = &text[..text.len() - 1 - r#","contract":"c/v1""#.len() - pad - 1];
            assert_eq!(read(open.as_bytes(), 127).err(), Some(open.len()), "{open}");
        }
    }

    #[test]
    fn what_is_not_an_object_it_can_follow_gives_its_offset() {
        for (text, at) in [
            ("", 0),
            ("[]", 0),
            ("{", 1),
            (r#"{"a" 1}"#, 5),
            (r#"{"a": 1,}"#, 8),
            (r#"{"a": 1} x"#, 9),
            (r#"{"a": "open}"#, 12),
            (r#"{"a": [1, 2}"#, 12),
            (r#"{"a":}"#, 5),
        ] {
            assert_eq!(read(text.as_bytes(), 127).err(), Some(at), "{text}");
        }
        assert!(read(br#"{"a": [[1]]}"#, 3).is_ok());
        assert_eq!(read(br#"{"a": [[[1]]]}"#, 3).err(), Some(8));
        assert_eq!(read(b"{}", 0).err(), Some(0));
    }
}
