//! The first pass of `receive` and `send`: JSON bytes to a flat tape of nodes.
//!
//! The scanner is iterative (an explicit stack, no recursion), so no input can overflow the
//! stack, and it enforces the limits of [`Limits`] as it goes: the total size before reading,
//! the nesting depth, the length of a string and the keys of one object. It checks what
//! serde_json checks in the values it reads (the grammar, control characters in strings) and
//! what it leaves unchecked in the values it skips (invalid UTF-8 anywhere, lone surrogates in
//! `\u` escapes), and it finds duplicate keys in every object, which serde_json never reports
//! for maps and unknown fields.
//!
//! A node records where its text is (byte offsets), never a copy of it: the tape of a
//! document costs a fixed 20 bytes per value, reused across calls on one thread.

use std::borrow::Cow;
use std::collections::HashSet;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Null,
    Bool,
    /// A number without fraction or exponent.
    Int,
    /// A number with a fraction or an exponent.
    Float,
    Str,
    Array,
    Object,
}

/// One value (or object key) of the document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub kind: NodeKind,
    /// A string with at least one escape (its text must be decoded before comparing).
    pub escaped: bool,
    /// The first byte of the value; for a string, the first byte after the opening quote.
    pub start: u32,
    /// One past the last byte; for a string, the closing quote.
    pub end: u32,
    /// The index of the node after this one's subtree.
    pub next: u32,
    /// Items of an array, members of an object (each member is a key node, then a value).
    pub count: u32,
}

use crate::runtime::options::Limits;
use crate::runtime::problem::ProblemKind;

/// A duplicate key: the object and the second key node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Duplicate {
    pub object: u32,
    pub key: u32,
}

/// A scanned document.
#[derive(Debug, Default)]
pub(crate) struct Tape {
    pub nodes: Vec<Node>,
    /// Duplicate keys, ordered by object.
    pub duplicates: Vec<Duplicate>,
    frames: Vec<Frame>,
    /// `finish`'s buffer of one object's keys: node and fingerprint of the decoded text.
    keys: Vec<(u32, u64)>,
}

/// An open array or object.
#[derive(Debug)]
struct Frame {
    node: u32,
    /// Items or members so far (the node's count, written when it closes).
    count: u32,
    object: bool,
    /// One bit per key fingerprint seen (six bits mixed from it): a key whose bit is clear is
    /// new without a search.
    prints: u64,
    /// The keys seen, once the object has more than [`LINEAR_KEYS`] (boxed: most objects
    /// never have, and a frame is pushed per array and object).
    #[allow(clippy::box_collection)]
    seen: Option<Box<HashSet<Vec<u8>>>>,
}

/// Objects up to this many keys compare them pairwise; larger ones hash.
const LINEAR_KEYS: usize = 16;

impl Tape {
    /// Scans `input` (see [`text`]) into this tape, replacing what it held.
    pub fn scan(&mut self, input: &str, limits: &Limits) -> Result<(), ProblemKind> {
        self.nodes.clear();
        self.duplicates.clear();
        self.frames.clear();
        self.keys.clear();
        let input = input.as_bytes();
        let mut s = Scanner {
            input,
            pos: 0,
            limits,
        };
        s.skip_ws();
        if s.pos == input.len() {
            return Err(ProblemKind::Empty);
        }
        self.value(&mut s)?;
        s.skip_ws();
        if s.pos != input.len() {
            return Err(ProblemKind::TrailingData { offset: s.pos });
        }
        self.duplicates.sort_by_key(|d| (d.object, d.key));
        Ok(())
    }

    /// Reads one value, iteratively: containers push a frame and are closed in the loop.
    fn value(&mut self, s: &mut Scanner<'_>) -> Result<(), ProblemKind> {
        // Whether the next token is a value (true) or the end/continuation of a container.
        let mut want_value = true;
        loop {
            if want_value {
                s.skip_ws();
                let start = s.pos;
                match s.peek() {
                    Some(b'{') | Some(b'[') => {
                        let object = s.peek() == Some(b'{');
                        if self.frames.len() >= s.limits.max_depth {
                            return Err(ProblemKind::TooDeep {
                                offset: start,
                                limit: s.limits.max_depth,
                            });
                        }
                        s.pos += 1;
                        let index = self.push(
                            if object {
                                NodeKind::Object
                            } else {
                                NodeKind::Array
                            },
                            start,
                            false,
                        );
                        self.frames.push(Frame {
                            node: index,
                            count: 0,
                            object,
                            prints: 0,
                            seen: None,
                        });
                        s.skip_ws();
                        let close = if object { b'}' } else { b']' };
                        if s.peek() == Some(close) {
                            s.pos += 1;
                            self.close(s.pos);
                            want_value = false;
                        } else if object {
                            self.key(s)?;
                        }
                    }
                    _ => {
                        self.scalar(s)?;
                        want_value = false;
                    }
                }
            } else {
                let Some(frame) = self.frames.last_mut() else {
                    return Ok(());
                };
                let object = frame.object;
                s.skip_ws();
                match s.peek() {
                    Some(b',') => {
                        s.pos += 1;
                        frame.count += 1;
                        if object {
                            self.key(s)?;
                        }
                        want_value = true;
                    }
                    Some(b'}') if object => {
                        s.pos += 1;
                        frame.count += 1;
                        self.close(s.pos);
                    }
                    Some(b']') if !object => {
                        s.pos += 1;
                        frame.count += 1;
                        self.close(s.pos);
                    }
                    _ => {
                        return Err(ProblemKind::Malformed {
                            offset: s.pos,
                            expected: if object { "`,` or `}`" } else { "`,` or `]`" },
                        })
                    }
                }
            }
        }
    }

    /// Closes the innermost container at `end`.
    fn close(&mut self, end: usize) {
        if let Some(frame) = self.frames.pop() {
            let next = self.nodes.len() as u32;
            let node = &mut self.nodes[frame.node as usize];
            node.end = end as u32;
            node.next = next;
            node.count = frame.count;
        }
    }

    /// Reads `"key" :` inside the innermost object and checks it for a duplicate.
    #[inline(always)]
    fn key(&mut self, s: &mut Scanner<'_>) -> Result<(), ProblemKind> {
        s.skip_ws();
        if s.peek() != Some(b'"') {
            return Err(ProblemKind::Malformed {
                offset: s.pos,
                expected: "a string key",
            });
        }
        let key_start = s.pos;
        let index = self.string(s)?;
        s.skip_ws();
        if s.peek() != Some(b':') {
            return Err(ProblemKind::Malformed {
                offset: s.pos,
                expected: "`:`",
            });
        }
        s.pos += 1;
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        // The members before this one.
        let count = frame.count as usize;
        if count >= s.limits.max_keys_per_object {
            return Err(ProblemKind::TooManyKeys {
                offset: key_start,
                limit: s.limits.max_keys_per_object,
            });
        }
        let nodes = &self.nodes;
        let text = |i: usize| key_text(s.input, &nodes[i]);
        let index = index as usize;
        let node = &nodes[index];
        // A key without escapes is its raw text.
        let print = if node.escaped {
            fingerprint(&text(index))
        } else {
            fingerprint(&s.input[node.start as usize..node.end as usize])
        };
        let bit = 1 << (print.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        // The keys of the members before this one, read from the tape (each member is a key
        // node and its value, whose subtree is closed).
        let earlier = || {
            let mut key = frame.node as usize + 1;
            (0..count).map_while(move |_| {
                let at = key;
                key = nodes.get(at + 1)?.next as usize;
                Some(at)
            })
        };
        let duplicate = match &mut frame.seen {
            Some(seen) => !seen.insert(text(index).into_owned()),
            None => {
                // Compared only when the fingerprint's bit is set already.
                let dup = frame.prints & bit != 0 && {
                    let this = text(index);
                    earlier().any(|k| text(k) == this)
                };
                if count + 1 > LINEAR_KEYS {
                    let mut seen: HashSet<Vec<u8>> =
                        earlier().map(|k| text(k).into_owned()).collect();
                    seen.insert(text(index).into_owned());
                    frame.seen = Some(Box::new(seen));
                }
                dup
            }
        };
        frame.prints |= bit;
        if duplicate {
            self.duplicates.push(Duplicate {
                object: frame.node,
                key: index as u32,
            });
        }
        Ok(())
    }

    fn push(&mut self, kind: NodeKind, start: usize, escaped: bool) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            kind,
            escaped,
            start: start as u32,
            end: start as u32,
            next: index + 1,
            count: 0,
        });
        index
    }

    #[inline(always)]
    fn scalar(&mut self, s: &mut Scanner<'_>) -> Result<(), ProblemKind> {
        let start = s.pos;
        match s.peek() {
            Some(b'"') => {
                self.string(s)?;
            }
            Some(b'n') => {
                s.literal(b"null")?;
                let i = self.push(NodeKind::Null, start, false);
                self.nodes[i as usize].end = s.pos as u32;
            }
            Some(b't') | Some(b'f') => {
                s.literal(if s.peek() == Some(b't') {
                    b"true"
                } else {
                    b"false"
                })?;
                let i = self.push(NodeKind::Bool, start, false);
                self.nodes[i as usize].end = s.pos as u32;
            }
            Some(b'-' | b'0'..=b'9') => {
                let float = s.number()?;
                let kind = if float {
                    NodeKind::Float
                } else {
                    NodeKind::Int
                };
                let i = self.push(kind, start, false);
                self.nodes[i as usize].end = s.pos as u32;
            }
            _ => {
                return Err(ProblemKind::Malformed {
                    offset: start,
                    expected: "a JSON value",
                })
            }
        }
        Ok(())
    }

    /// Reads a string (at its opening quote) into a node, checking its escapes.
    #[inline(always)]
    fn string(&mut self, s: &mut Scanner<'_>) -> Result<u32, ProblemKind> {
        let open = s.pos;
        let start = open + 1;
        let mut end = plain_run(s.input, start);
        let mut escaped = false;
        loop {
            match s.input.get(end) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    s.pos = end;
                    s.escape()?;
                    end = plain_run(s.input, s.pos);
                }
                Some(_) => {
                    return Err(ProblemKind::Malformed {
                        offset: end,
                        expected: "no control character inside a string",
                    })
                }
                None => {
                    return Err(ProblemKind::Malformed {
                        offset: end,
                        expected: "the end of a string",
                    })
                }
            }
        }
        if end - start > s.limits.max_string_bytes {
            return Err(ProblemKind::StringTooLong {
                offset: open,
                limit: s.limits.max_string_bytes,
            });
        }
        s.pos = end + 1;
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            kind: NodeKind::Str,
            escaped,
            start: start as u32,
            end: end as u32,
            next: index + 1,
            count: 0,
        });
        Ok(index)
    }
}

/// The index of the first byte of `input` from `at` that ends a string's plain run (a quote,
/// a backslash or a control byte), or the input's length: eight bytes at a time, then
/// straight to the first of them.
#[inline(always)]
pub(crate) fn plain_run(input: &[u8], mut at: usize) -> usize {
    while let Some(chunk) = input.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let marks = first_special(u64::from_le_bytes(word));
        if marks != 0 {
            return at + (marks.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&b) = input.get(at) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return at;
        }
        at += 1;
    }
    at
}

/// The high bit of the first quote, backslash or control byte of the eight bytes of `word`
/// (little-endian) at the lowest set bit, and maybe bits above it; zero when there is none.
/// Cheaper than [`to_escape`](crate::runtime::write::fast::to_escape), which marks every such byte and only those: a borrow from a
/// byte that matches may mark the bytes above it, never one below.
#[inline(always)]
fn first_special(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    (quote.wrapping_sub(ONES) & !quote
        | backslash.wrapping_sub(ONES) & !backslash
        | word.wrapping_sub(ONES * 0x20) & !word)
        & HIGHS
}

impl Tape {
    /// The JSON pointer of the innermost value around byte `offset` (serde_json reports a
    /// position at or just past the value it refused). Object keys in `names` (the field
    /// names of the schema: structure) are shown; any other key may be data and shows as `*`.
    pub fn pointer_at(&self, input: &[u8], offset: usize, names: &dyn Fn(&[u8]) -> bool) -> String {
        let mut out = String::new();
        let mut i = 0usize;
        let around = |n: &Node| {
            let quote = usize::from(n.kind == NodeKind::Str);
            (n.start as usize).saturating_sub(quote) <= offset && offset <= n.end as usize + quote
        };
        while let Some(node) = self.nodes.get(i).copied() {
            let object = match node.kind {
                NodeKind::Object => true,
                NodeKind::Array => false,
                _ => break,
            };
            let mut child = i + 1;
            let mut found = None;
            for n in 0..node.count {
                let (key, value) = if object {
                    (Some(child), child + 1)
                } else {
                    (None, child)
                };
                let Some(v) = self.nodes.get(value) else {
                    break;
                };
                if around(v) {
                    found = Some((n, key, value));
                    break;
                }
                child = v.next as usize;
            }
            let Some((n, key, value)) = found else { break };
            out.push('/');
            match key.and_then(|k| self.nodes.get(k)) {
                Some(k) => {
                    let text = key_text(input, k);
                    if names(&text) {
                        for c in String::from_utf8_lossy(&text).chars() {
                            match c {
                                '~' => out.push_str("~0"),
                                '/' => out.push_str("~1"),
                                c => out.push(c),
                            }
                        }
                    } else {
                        out.push('*');
                    }
                }
                None => out.push_str(&n.to_string()),
            }
            i = value;
        }
        out
    }
}

/// Building a tape while a serializer writes the document (`send`), instead of scanning it
/// afterwards: the same nodes and duplicates a scan of the written bytes gives.
impl Tape {
    /// Starts a new document.
    pub(crate) fn start(&mut self) {
        self.nodes.clear();
        self.duplicates.clear();
        self.frames.clear();
        self.keys.clear();
    }

    /// How many items or members the innermost open container has so far.
    pub(crate) fn innermost_count(&self) -> u32 {
        self.frames.last().map_or(0, |frame| frame.count)
    }

    /// Counts one more item or member in the innermost open container.
    pub(crate) fn count_one(&mut self) {
        if let Some(frame) = self.frames.last_mut() {
            frame.count += 1;
        }
    }

    /// Opens an array or object whose bracket is at `start`.
    pub(crate) fn open(
        &mut self,
        object: bool,
        start: usize,
        limits: &Limits,
    ) -> Result<(), ProblemKind> {
        if self.frames.len() >= limits.max_depth {
            return Err(ProblemKind::TooDeep {
                offset: start,
                limit: limits.max_depth,
            });
        }
        let kind = if object {
            NodeKind::Object
        } else {
            NodeKind::Array
        };
        let index = self.push(kind, start, false);
        self.frames.push(Frame {
            node: index,
            count: 0,
            object,
            prints: 0,
            seen: None,
        });
        Ok(())
    }

    /// Closes the innermost container; its closing bracket ends at `end`.
    pub(crate) fn close_at(&mut self, end: usize) {
        self.close(end);
    }

    /// A scalar at `start..end` (a string's content between its quotes).
    pub(crate) fn scalar_at(
        &mut self,
        kind: NodeKind,
        start: usize,
        end: usize,
        escaped: bool,
    ) -> u32 {
        let i = self.push(kind, start, escaped);
        self.nodes[i as usize].end = end as u32;
        i
    }

    /// Once the document is written: its duplicate keys and the keys-per-object limit, found
    /// from the bytes as the scanner finds them.
    pub(crate) fn finish(&mut self, input: &[u8], limits: &Limits) -> Result<(), ProblemKind> {
        for object in 0..self.nodes.len() {
            let node = self.nodes[object];
            if node.kind != NodeKind::Object || node.count == 0 {
                continue;
            }
            if node.count as usize > limits.max_keys_per_object {
                return Err(ProblemKind::TooManyKeys {
                    offset: node.start as usize,
                    limit: limits.max_keys_per_object,
                });
            }
            // Small objects compare fingerprints pairwise, large ones hash them. The keys'
            // buffer of the scan is free once the document is written: reused here.
            let mut keys = std::mem::take(&mut self.keys);
            keys.clear();
            let mut key = object + 1;
            for _ in 0..node.count {
                let Some(k) = self.nodes.get(key) else { break };
                keys.push((key as u32, fingerprint(&key_text(input, k))));
                key = self
                    .nodes
                    .get(key + 1)
                    .map_or(usize::MAX, |v| v.next as usize);
            }
            let same = |a: u32, b: u32| {
                key_text(input, &self.nodes[a as usize]) == key_text(input, &self.nodes[b as usize])
            };
            let object = object as u32;
            let mut found = Vec::new();
            if keys.len() <= LINEAR_KEYS {
                for (i, (k, print)) in keys.iter().enumerate() {
                    if keys[..i].iter().any(|(e, p)| p == print && same(*e, *k)) {
                        found.push(Duplicate { object, key: *k });
                    }
                }
            } else {
                let mut seen: rustc_hash::FxHashMap<u64, Vec<u32>> = Default::default();
                for (k, print) in &keys {
                    let earlier = seen.entry(*print).or_default();
                    if earlier.iter().any(|e| same(*e, *k)) {
                        found.push(Duplicate { object, key: *k });
                    }
                    earlier.push(*k);
                }
            }
            self.duplicates.append(&mut found);
            self.keys = keys;
        }
        self.duplicates.sort_by_key(|d| (d.object, d.key));
        Ok(())
    }
}

/// In debug builds (and the unit tests of any build), `send` checks that the tape its
/// serializer recorded is the tape a scan of the written bytes gives.
#[cfg(any(debug_assertions, test))]
pub(crate) fn assert_same_as_scanned(built: &Tape, bytes: &[u8], limits: &Limits) {
    let mut scanned = Tape::default();
    let text = std::str::from_utf8(bytes).expect("serde_json writes UTF-8");
    scanned
        .scan(text, limits)
        .expect("serde_json writes JSON within the limits sent");
    let fields = |t: &Tape| -> Vec<(NodeKind, bool, u32, u32, u32, u32)> {
        t.nodes
            .iter()
            .map(|n| (n.kind, n.escaped, n.start, n.end, n.next, n.count))
            .collect()
    };
    assert_eq!(
        fields(built),
        fields(&scanned),
        "the tape of {}",
        String::from_utf8_lossy(bytes)
    );
    assert_eq!(built.duplicates, scanned.duplicates);
}

/// A cheap fingerprint of a key, compared before the key itself: its length and its first
/// and last bytes (no pass over the whole key).
fn fingerprint(key: &[u8]) -> u64 {
    let n = key.len();
    let (head, tail) = match (key.get(..4), n.checked_sub(4).and_then(|at| key.get(at..))) {
        (Some(head), Some(tail)) => (word(head), word(tail)),
        // Shorter than four bytes: the bytes themselves.
        _ => {
            let short = key.iter().fold(0, |v, &b| v << 8 | u32::from(b));
            (short, short)
        }
    };
    (n as u64) << 48 ^ u64::from(head) ^ u64::from(tail).rotate_left(24)
}

/// Four bytes as a number.
fn word(four: &[u8]) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(four);
    u32::from_le_bytes(w)
}

/// The payload as text: within the size limit, without a byte order mark, UTF-8 throughout
/// (even inside values the type ignores, which serde_json does not check).
pub(crate) fn text<'a>(input: &'a [u8], limits: &Limits) -> Result<&'a str, ProblemKind> {
    framed(input, limits)?;
    std::str::from_utf8(input).map_err(|e| ProblemKind::InvalidUtf8 {
        offset: e.valid_up_to(),
    })
}

/// [`text`] of a payload already known to be UTF-8.
pub(crate) fn known_text<'a>(text: &'a str, limits: &Limits) -> Result<&'a str, ProblemKind> {
    framed(text.as_bytes(), limits).map(|()| text)
}

/// Within the size limit, without a byte order mark.
fn framed(input: &[u8], limits: &Limits) -> Result<(), ProblemKind> {
    if input.len() > limits.max_bytes || input.len() > u32::MAX as usize {
        return Err(ProblemKind::TooLarge {
            limit: limits.max_bytes.min(u32::MAX as usize),
        });
    }
    if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(ProblemKind::ByteOrderMark);
    }
    Ok(())
}

/// The text of a key node, decoded when it has escapes.
pub(crate) fn key_text<'a>(input: &'a [u8], node: &Node) -> Cow<'a, [u8]> {
    let raw = &input[node.start as usize..node.end as usize];
    if node.escaped {
        Cow::Owned(unescape(raw).into_bytes())
    } else {
        Cow::Borrowed(raw)
    }
}

/// The text of a key node as text, decoded when it has escapes: a slice of `text`, the
/// document the node is of.
pub(crate) fn key_str<'a>(text: &'a str, node: &Node) -> Cow<'a, str> {
    let raw = text.get(node.start as usize..node.end as usize);
    match raw {
        Some(raw) if !node.escaped => Cow::Borrowed(raw),
        _ => Cow::Owned(unescape(
            &text.as_bytes()[node.start as usize..node.end as usize],
        )),
    }
}

/// The text of a string node.
pub(crate) fn str_text<'a>(input: &'a [u8], node: &Node) -> Cow<'a, str> {
    let raw = &input[node.start as usize..node.end as usize];
    if node.escaped {
        Cow::Owned(unescape(raw))
    } else {
        // The scanner checked the whole input is UTF-8, and a string ends at an ASCII quote.
        String::from_utf8_lossy(raw)
    }
}

/// Decodes the escapes of a string the scanner accepted.
pub(crate) fn unescape(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut from = 0;
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&String::from_utf8_lossy(&raw[from..i]));
        // The scanner accepted every escape: a replacement character is never written.
        let (c, len) = escape_at(raw, i).unwrap_or(('\u{FFFD}', 2));
        out.push(c);
        i += len;
        from = i;
    }
    out.push_str(&String::from_utf8_lossy(
        raw.get(from..).unwrap_or_default(),
    ));
    out
}

/// The character of the escape at `input[at]` (a backslash) and the bytes it takes, as
/// serde_json decodes it; `None` where serde_json refuses it (a lone surrogate among them).
pub(crate) fn escape_at(input: &[u8], at: usize) -> Option<(char, usize)> {
    let hex = |from: usize| hex4(input.get(from..from + 4));
    let c = match *input.get(at + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = hex(at + 2)?;
            return match unit {
                0xDC00..=0xDFFF => None,
                0xD800..=0xDBFF => {
                    if input.get(at + 6..at + 8)? != b"\\u" {
                        return None;
                    }
                    let low = hex(at + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return None;
                    }
                    char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                        .map(|c| (c, 12))
                }
                _ => char::from_u32(unit).map(|c| (c, 6)),
            };
        }
        _ => return None,
    };
    Some((c, 2))
}

fn hex4(digits: Option<&[u8]>) -> Option<u32> {
    let digits = digits?;
    let mut v = 0;
    for &d in digits {
        v = v * 16 + (d as char).to_digit(16)?;
    }
    Some(v)
}

struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
    limits: &'a Limits,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), ProblemKind> {
        if self.input.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(ProblemKind::Malformed {
                offset: self.pos,
                expected: "a JSON value",
            })
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - from
    }

    /// Reads a number by JSON's grammar; true when it has a fraction or an exponent.
    fn number(&mut self) -> Result<bool, ProblemKind> {
        let bad = |offset| ProblemKind::Malformed {
            offset,
            expected: "a valid number",
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(bad(self.pos));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(bad(self.pos)),
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            float = true;
            if self.digits() == 0 {
                return Err(bad(self.pos));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            float = true;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(bad(self.pos));
            }
        }
        Ok(float)
    }

    /// Reads one escape at a backslash; a `\u` high surrogate must be followed by a low one.
    fn escape(&mut self) -> Result<(), ProblemKind> {
        let at = self.pos;
        self.pos += 1;
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'u') => {
                self.pos += 1;
                let unit = self.hex()?;
                match unit {
                    0xDC00..=0xDFFF => Err(ProblemKind::LoneSurrogate { offset: at }),
                    0xD800..=0xDBFF => {
                        if self.input.get(self.pos..self.pos + 2) != Some(b"\\u") {
                            return Err(ProblemKind::LoneSurrogate { offset: at });
                        }
                        self.pos += 2;
                        match self.hex()? {
                            0xDC00..=0xDFFF => Ok(()),
                            _ => Err(ProblemKind::LoneSurrogate { offset: at }),
                        }
                    }
                    _ => Ok(()),
                }
            }
            _ => Err(ProblemKind::Malformed {
                offset: at,
                expected: "a valid escape",
            }),
        }
    }

    fn hex(&mut self) -> Result<u32, ProblemKind> {
        match hex4(self.input.get(self.pos..self.pos + 4)) {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(ProblemKind::Malformed {
                offset: self.pos,
                expected: "four hex digits",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::write::fast::to_escape;

    const LIMITS: Limits = Limits {
        max_bytes: 1 << 20,
        max_depth: 127,
        max_string_bytes: 1 << 16,
        max_keys_per_object: 1000,
        max_unknown_names: 8,
    };

    fn scan_bytes(input: &[u8]) -> Result<Tape, ProblemKind> {
        let mut tape = Tape::default();
        let text = text(input, &LIMITS)?;
        tape.scan(text, &LIMITS).map(|()| tape)
    }

    fn scan(input: &str) -> Result<Tape, ProblemKind> {
        scan_bytes(input.as_bytes())
    }

    #[test]
    fn a_document_becomes_a_tape_with_subtree_links() {
        let tape = scan(r#" {"a": [1, 2.5, "x\n"], "b": null, "c": {}} "#).unwrap();
        let kinds: Vec<NodeKind> = tape.nodes.iter().map(|n| n.kind).collect();
        use NodeKind::*;
        assert_eq!(
            kinds,
            [Object, Str, Array, Int, Float, Str, Str, Null, Str, Object]
        );
        assert_eq!(tape.nodes[0].count, 3);
        assert_eq!(tape.nodes[0].next, 10);
        assert_eq!(tape.nodes[2].count, 3);
        assert_eq!(tape.nodes[2].next, 6);
        assert!(tape.nodes[5].escaped);
        assert_eq!(tape.nodes[9].count, 0);
    }

    #[test]
    fn duplicate_keys_are_found_in_small_and_large_objects_and_through_escapes() {
        let tape = scan(r#"{"a": 1, "\u0061": 2}"#).unwrap();
        assert_eq!(tape.duplicates, [Duplicate { object: 0, key: 3 }]);
        let mut big: String = (0..40).map(|i| format!("\"k{i}\": {i},")).collect();
        big.insert(0, '{');
        big.push_str("\"k7\": 0}");
        let tape = scan(&big).unwrap();
        assert_eq!(tape.duplicates.len(), 1);
        // The same key in two objects is no duplicate.
        assert!(scan(r#"[{"a": 1}, {"a": 1}]"#)
            .unwrap()
            .duplicates
            .is_empty());
    }

    #[test]
    fn bad_documents_are_errors_with_offsets() {
        assert_eq!(scan("").unwrap_err(), ProblemKind::Empty);
        assert_eq!(scan("  ").unwrap_err(), ProblemKind::Empty);
        assert_eq!(scan("\u{feff}{}").unwrap_err(), ProblemKind::ByteOrderMark);
        assert_eq!(
            scan("{} x").unwrap_err(),
            ProblemKind::TrailingData { offset: 3 }
        );
        assert!(matches!(
            scan("[1,]"),
            Err(ProblemKind::Malformed { offset: 3, .. })
        ));
        assert!(matches!(scan("01"), Err(ProblemKind::Malformed { .. })));
        assert!(matches!(scan("1."), Err(ProblemKind::Malformed { .. })));
        assert!(matches!(
            scan("\"a\tb\""),
            Err(ProblemKind::Malformed { .. })
        ));
        assert!(matches!(
            scan("{\"a\" 1}"),
            Err(ProblemKind::Malformed { .. })
        ));
        assert_eq!(
            scan(r#"["\udc00"]"#).unwrap_err(),
            ProblemKind::LoneSurrogate { offset: 2 }
        );
        assert_eq!(
            scan(r#""\ud800x""#).unwrap_err(),
            ProblemKind::LoneSurrogate { offset: 1 }
        );
        assert!(scan(r#""\ud83d\ude00""#).is_ok());
        assert_eq!(
            scan_bytes(b"[\"\xff\"]").unwrap_err(),
            ProblemKind::InvalidUtf8 { offset: 2 }
        );
    }

    #[test]
    fn limits_are_errors_not_crashes() {
        let deep = "[".repeat(1_000_000);
        assert_eq!(
            scan(&deep).unwrap_err(),
            ProblemKind::TooDeep {
                offset: 127,
                limit: 127
            }
        );
        let nested = format!("{}{}", "[".repeat(127), "]".repeat(127));
        assert!(scan(&nested).is_ok());
        let long = format!("\"{}\"", "a".repeat(70_000));
        assert!(matches!(
            scan(&long),
            Err(ProblemKind::StringTooLong { .. })
        ));
        let many: String = (0..1001).map(|i| format!("\"k{i}\":0,")).collect();
        let many = format!("{{{}\"z\":0}}", many);
        assert!(matches!(scan(&many), Err(ProblemKind::TooManyKeys { .. })));
    }

    #[test]
    fn the_word_test_marks_exactly_the_special_bytes() {
        let specials = (0u8..0x20).chain([b'"', b'\\']);
        for special in specials {
            for filler in [b'a', 0xC3, 0xFF, 0x7F, b' ', 0x80, 0x20] {
                for at in 0..8 {
                    let mut word = [filler; 8];
                    word[at] = special;
                    assert_eq!(
                        to_escape(u64::from_le_bytes(word)),
                        0x80 << (8 * at),
                        "{special} at {at} among {filler}"
                    );
                }
            }
        }
        assert_eq!(to_escape(u64::from_le_bytes(*b"plain ok")), 0);
        assert_eq!(
            to_escape(u64::from_le_bytes([
                0xC3, 0xA9, b'a', 0xE2, 0x82, 0xAC, b'z', b'~'
            ])),
            0
        );
    }

    /// `first_special` finds the first special byte of a word exactly, among any bytes.
    #[test]
    fn the_first_special_byte_of_a_word_is_found() {
        let special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        let first = |word: [u8; 8]| {
            let marks = first_special(u64::from_le_bytes(word));
            (marks != 0).then(|| (marks.trailing_zeros() / 8) as usize)
        };
        for filler in (0..=255u8).filter(|b| !special(*b)) {
            assert_eq!(first([filler; 8]), None, "{filler}");
            for mark in (0..=255u8).filter(|b| special(*b)) {
                for at in 0..8 {
                    let mut word = [filler; 8];
                    word[at] = mark;
                    assert_eq!(first(word), Some(at), "{mark} at {at} among {filler}");
                }
            }
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let word = x.to_le_bytes();
            assert_eq!(
                first(word),
                word.iter().position(|b| special(*b)),
                "{word:?}"
            );
        }
    }

    #[test]
    fn escapes_decode() {
        let tape = scan(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#).unwrap();
        assert_eq!(
            str_text(br#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#, &tape.nodes[0]),
            "a\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}"
        );
    }
}
