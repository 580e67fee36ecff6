//! Reading an A2A Message or Artifact: its members found as byte spans borrowed from the
//! input (serde_json's `RawValue`), A2A's required fields checked, the contract's URI found in
//! `extensions[]`, and the one `data` Part's span read by `receive` as the contract.

use std::borrow::Cow;
use std::fmt;

use rustc_hash::FxHashSet;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use crate::envelope::delivery::under;
use crate::envelope::{ids, read::sender_presence, top};
use crate::runtime::options::{Limits, Numbers, ReceiveOptions};
use crate::runtime::presence::Presence;
use crate::runtime::problem::{JsonKind, Problem, ProblemKind};
use crate::runtime::receive_numbers;
use crate::traits::HandoffContract;

use super::names::{Role, MEDIA_TYPE, ROLE_AGENT, ROLE_USER};

/// Which A2A object is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Object {
    Message,
    Artifact,
}

impl Object {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Object::Message => "A2A Message",
            Object::Artifact => "A2A Artifact",
        }
    }
}

/// What was read of an A2A object besides its payload: its own fields, by name.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    pub id: String,
    pub role: Option<Role>,
    pub context_id: Option<String>,
    pub task_id: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
}

/// What a read found: the object's fields, the payload with its presence when it was read,
/// the sender's presence, and every problem.
pub(crate) struct Read<T> {
    pub fields: Fields,
    pub payload: Option<Result<(T, Presence), Presence>>,
    pub sender: Option<Presence>,
    pub problems: Vec<Problem>,
}

/// An object's members, each value's span borrowed from the input, in document order; and
/// the keys that arrived more than once.
struct Members<'a> {
    list: Vec<(Cow<'a, str>, &'a RawValue)>,
    duplicates: Vec<String>,
}

impl<'a> Members<'a> {
    fn get(&self, name: &str) -> Option<&'a RawValue> {
        self.list
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| *value)
    }
}

/// A key, borrowed where it has no escape.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Members {
                    list: Vec::new(),
                    duplicates: Vec::new(),
                };
                // Keys seen once, and those seen twice: a hash set each, so that an object of
                // many keys is not read in quadratic time.
                let mut seen = FxHashSet::default();
                let mut twice = FxHashSet::default();
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    let value = map.next_value::<&'de RawValue>()?;
                    if seen.insert(key.clone()) {
                        members.list.push((key, value));
                    } else if twice.insert(key.clone()) {
                        members.duplicates.push(key.into_owned());
                    }
                }
                Ok(members)
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}

/// The protocol read, as problems name it.
const PROTOCOL: &str = "A2A 1.0";

/// The proto field name of an A2A member's lowerCamelCase JSON name (`messageId`:
/// `message_id`), `None` when the two are one (`role`).
fn proto_name(camel: &str) -> Option<String> {
    if !camel.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let mut proto = String::with_capacity(camel.len() + 2);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            proto.push('_');
            proto.push(c.to_ascii_lowercase());
        } else {
            proto.push(c);
        }
    }
    Some(proto)
}

/// A JSON pointer's segment for `name` (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(crate) fn segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The kind of the JSON value `raw` holds, by its first byte.
fn kind_of(raw: &RawValue) -> JsonKind {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'n') => JsonKind::Null,
        Some(b't' | b'f') => JsonKind::Boolean,
        Some(b'"') => JsonKind::String,
        Some(b'[') => JsonKind::Array,
        Some(b'{') => JsonKind::Object,
        _ if text.contains(['.', 'e', 'E']) => JsonKind::Number,
        _ => JsonKind::Integer,
    }
}

/// Where `raw`, borrowed from `whole`, starts in it.
fn offset_in(whole: &str, raw: &RawValue) -> usize {
    (raw.get().as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// The byte offset of serde_json's error position (1-based line and column).
fn offset_of(text: &str, error: &serde_json::Error) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + error.column().saturating_sub(1)).min(text.len())
}

/// The read's state: the whole text and the problems found so far.
struct Reader<'a> {
    text: &'a str,
    problems: Vec<Problem>,
}

impl<'a> Reader<'a> {
    fn problem(&mut self, pointer: impl Into<String>, kind: ProblemKind) {
        self.problems.push(Problem {
            pointer: pointer.into(),
            kind,
        });
    }

    /// The members of the object `raw` (at `pointer`), or a problem. A key twice is named
    /// where the object's keys are `names` (A2A's members, unknown ones included); in a map
    /// whose keys are data (`metadata`) it is not, and its pointer shows `*`.
    fn object(&mut self, raw: &'a RawValue, pointer: &str, names: bool) -> Option<Members<'a>> {
        let found = kind_of(raw);
        if found != JsonKind::Object {
            self.wrong_type(pointer, "object", found);
            return None;
        }
        match serde_json::from_str::<Members<'a>>(raw.get()) {
            Ok(members) => {
                for key in &members.duplicates {
                    let (at, key) = if names {
                        (segment(key), Some(Cow::Owned(key.clone())))
                    } else {
                        ("*".to_owned(), None)
                    };
                    self.problem(format!("{pointer}/{at}"), ProblemKind::DuplicateKey { key });
                }
                Some(members)
            }
            Err(e) => {
                let offset = offset_in(self.text, raw) + offset_of(raw.get(), &e);
                self.problem(
                    pointer,
                    ProblemKind::Malformed {
                        offset,
                        expected: "a JSON object",
                    },
                );
                None
            }
        }
    }

    fn wrong_type(&mut self, pointer: &str, expected: &'static str, found: JsonKind) {
        self.problem(
            pointer,
            ProblemKind::WrongType {
                expected: Cow::Borrowed(expected),
                found,
            },
        );
    }

    /// The member A2A names `name` (lowerCamelCase, as its JSON writers write it) of an
    /// object at `at`, under that name or its proto field name (`messageId`, `message_id`),
    /// the two names a ProtoJSON parser accepts: its pointer (by the name it arrived under)
    /// and its value, `None` when absent or `null`. Under both names: a problem, and the
    /// lowerCamelCase one read.
    fn member(
        &mut self,
        members: &Members<'a>,
        at: &str,
        name: &'static str,
    ) -> Option<(String, &'a RawValue)> {
        let proto = proto_name(name);
        let camel = members.get(name);
        let snake = proto.as_deref().and_then(|proto| members.get(proto));
        let (key, raw) = match (camel, snake) {
            (Some(raw), None) => (name, raw),
            (None, Some(raw)) => (proto.as_deref().unwrap_or(name), raw),
            (Some(raw), Some(_)) => {
                self.problem(
                    format!("{at}/{}", proto.as_deref().unwrap_or(name)),
                    ProblemKind::DuplicateField {
                        field: Cow::Borrowed(name),
                    },
                );
                (name, raw)
            }
            (None, None) => return None,
        };
        (kind_of(raw) != JsonKind::Null).then(|| (format!("{at}/{key}"), raw))
    }

    /// A string member of the object at the root: `None` when absent or `null` (with a
    /// problem when `required`), or not a string (with a problem).
    fn string(
        &mut self,
        members: &Members<'a>,
        name: &'static str,
        required: bool,
    ) -> Option<String> {
        let Some((pointer, raw)) = self.member(members, "", name) else {
            if required {
                self.problem(
                    format!("/{name}"),
                    ProblemKind::MissingMember {
                        member: name,
                        protocol: PROTOCOL,
                    },
                );
            }
            return None;
        };
        let found = kind_of(raw);
        if found != JsonKind::String {
            self.wrong_type(&pointer, "string", found);
            return None;
        }
        match serde_json::from_str::<String>(raw.get()) {
            Ok(text) => Some(text),
            Err(e) => {
                let offset = offset_in(self.text, raw) + offset_of(raw.get(), &e);
                self.problem(
                    pointer,
                    ProblemKind::Refused {
                        offset,
                        category: "syntax",
                    },
                );
                None
            }
        }
    }

    /// An array member's items (`None`, with a problem, when it is not an array).
    fn array(&mut self, raw: &'a RawValue, pointer: &str) -> Option<Vec<&'a RawValue>> {
        let found = kind_of(raw);
        if found != JsonKind::Array {
            self.wrong_type(pointer, "array", found);
            return None;
        }
        match serde_json::from_str::<Vec<&'a RawValue>>(raw.get()) {
            Ok(items) => Some(items),
            Err(e) => {
                let offset = offset_in(self.text, raw) + offset_of(raw.get(), &e);
                self.problem(
                    pointer,
                    ProblemKind::Malformed {
                        offset,
                        expected: "a JSON array",
                    },
                );
                None
            }
        }
    }
}

/// Reads an A2A `object` carrying a `T` under the extension `uri`.
pub(crate) fn read<T>(
    bytes: &[u8],
    object: Object,
    uri: &str,
    numbers: Numbers,
    options: &ReceiveOptions,
) -> Read<T>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    let mut read = Read {
        fields: Fields::default(),
        payload: None,
        sender: None,
        problems: Vec::new(),
    };
    let limits = &options.limits;
    let stop = |read: &mut Read<T>, kind| {
        read.problems.push(Problem {
            pointer: String::new(),
            kind,
        });
    };
    if bytes.len() > limits.max_bytes {
        stop(
            &mut read,
            ProblemKind::TooLarge {
                limit: limits.max_bytes,
            },
        );
        return read;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            stop(
                &mut read,
                ProblemKind::InvalidUtf8 {
                    offset: e.valid_up_to(),
                },
            );
            return read;
        }
    };
    let whole = match serde_json::from_str::<&RawValue>(text) {
        Ok(whole) => whole,
        Err(e) => {
            let kind = if text.trim().is_empty() {
                ProblemKind::Empty
            } else {
                ProblemKind::Malformed {
                    offset: offset_of(text, &e),
                    expected: "one JSON document, nested at most 128 deep",
                }
            };
            stop(&mut read, kind);
            return read;
        }
    };
    let mut reader = Reader {
        text,
        problems: Vec::new(),
    };
    let Some(members) = reader.object(whole, "", true) else {
        read.problems = reader.problems;
        return read;
    };
    // serde_json skips the values it borrows without a depth limit: the limit is held here,
    // in one pass over the structure (the document is an object and well formed: where that
    // pass stops, it is one level too deep).
    if let Err(offset) = top::read(bytes, limits.max_depth) {
        stop(
            &mut read,
            ProblemKind::TooDeep {
                offset,
                limit: limits.max_depth,
            },
        );
        return read;
    }

    // The object's own fields.
    let fields = &mut read.fields;
    match object {
        Object::Message => {
            fields.id = reader
                .string(&members, "messageId", true)
                .unwrap_or_default();
            fields.role = role(&mut reader, &members);
            fields.context_id = reader.string(&members, "contextId", false);
            fields.task_id = reader.string(&members, "taskId", false);
        }
        Object::Artifact => {
            fields.id = reader
                .string(&members, "artifactId", true)
                .unwrap_or_default();
            fields.name = reader.string(&members, "name", false);
            fields.description = reader.string(&members, "description", false);
        }
    }

    // The contract's URI in `extensions`, before the payload is read.
    let listed = contract_listed::<T>(&mut reader, &members, uri);

    // The sender's presence, under `metadata[<uri>]`.
    if let Some((at, metadata)) = reader.member(&members, "", "metadata") {
        if let Some(metadata) = reader.object(metadata, &at, false) {
            if let Some(raw) = metadata.get(uri) {
                let start = offset_in(text, raw);
                let pointer = format!("{at}/{}", segment(uri));
                match sender_presence(raw.get().as_bytes(), &below(limits, 2)) {
                    Ok(presence) => read.sender = presence,
                    Err(found) => reader
                        .problems
                        .extend(found.into_iter().map(|p| under(&pointer, p, start))),
                }
            }
        }
    }

    // The one `data` Part.
    let data = data_part(&mut reader, &members);
    if let (true, Some((index, raw))) = (listed, data) {
        let start = offset_in(text, raw);
        let pointer = format!("/parts/{index}/data");
        // Without a span of its own: the A2A read's span records the payload's presence
        // (`a2a::span`).
        read.payload = Some(
            match receive_numbers::<T>(raw.get().as_bytes(), &below(limits, 3), numbers) {
                Ok(received) => Ok(received.into_parts()),
                Err(rejection) => {
                    let (found, presence) = rejection.into_parts();
                    reader
                        .problems
                        .extend(found.into_iter().map(|p| under(&pointer, p, start)));
                    Err(presence)
                }
            },
        );
    }
    read.problems = reader.problems;
    read
}

/// `limits` for a value `levels` below the document's top.
fn below(limits: &Limits, levels: usize) -> Limits {
    Limits {
        max_depth: limits.max_depth.saturating_sub(levels),
        ..*limits
    }
}

/// A Message's `role`: `ROLE_USER` or `ROLE_AGENT`; A2A 0.3's `user` and `agent` refused
/// naming that version.
fn role<'a>(reader: &mut Reader<'a>, members: &Members<'a>) -> Option<Role> {
    let text = reader.string(members, "role", true)?;
    let earlier = |expected| ProblemKind::EarlierProtocol {
        found: "A2A 0.3",
        expected,
    };
    match text.as_str() {
        ROLE_USER => Some(Role::User),
        ROLE_AGENT => Some(Role::Agent),
        "user" => {
            reader.problem("/role", earlier("ROLE_USER, as A2A 1.0 writes it"));
            None
        }
        "agent" => {
            reader.problem("/role", earlier("ROLE_AGENT, as A2A 1.0 writes it"));
            None
        }
        _ => {
            reader.problem(
                "/role",
                ProblemKind::UnknownVariant {
                    expected: Cow::Borrowed("an A2A 1.0 Role"),
                    known: vec![Cow::Borrowed(ROLE_USER), Cow::Borrowed(ROLE_AGENT)],
                    known_count: 2,
                },
            );
            None
        }
    }
}

/// Whether `extensions` lists `uri`; a problem when it does not, naming the other major it
/// lists instead, if any.
fn contract_listed<'a, T: HandoffContract>(
    reader: &mut Reader<'a>,
    members: &Members<'a>,
    uri: &str,
) -> bool {
    let expected_uri = || ProblemKind::NoContractExtension {
        expected: Cow::Owned(uri.to_owned()),
    };
    let Some((at, raw)) = reader.member(members, "", "extensions") else {
        reader.problem("/extensions", expected_uri());
        return false;
    };
    let Some(items) = reader.array(raw, &at) else {
        return false;
    };
    let base = uri.strip_suffix(T::CONTRACT.id).unwrap_or(uri);
    let mut other = None;
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("/extensions/{i}");
        let found = kind_of(item);
        if found != JsonKind::String {
            reader.wrong_type(&pointer, "string", found);
            continue;
        }
        let Ok(listed) = serde_json::from_str::<Cow<'_, str>>(item.get()) else {
            continue;
        };
        if listed == uri {
            return true;
        }
        if let Some((name, version)) = listed.strip_prefix(base).and_then(ids::parse) {
            if name == T::CONTRACT.name && other.is_none() {
                other = Some((pointer, format!("{name}/v{version}")));
            }
        }
    }
    match other {
        Some((pointer, found)) => reader.problem(
            pointer,
            ProblemKind::OtherMajor {
                expected: Cow::Borrowed(T::CONTRACT.id),
                found: Cow::Owned(found),
            },
        ),
        None => reader.problem(at, expected_uri()),
    }
    false
}

/// The one Part with a `data` member: its index and the span of its value; problems for
/// `parts` absent, empty or not an array, and for other than one `data` Part.
fn data_part<'a>(reader: &mut Reader<'a>, members: &Members<'a>) -> Option<(usize, &'a RawValue)> {
    let Some((_, raw)) = reader.member(members, "", "parts") else {
        reader.problem(
            "/parts",
            ProblemKind::MissingMember {
                member: "parts",
                protocol: PROTOCOL,
            },
        );
        return None;
    };
    let parts = reader.array(raw, "/parts")?;
    if parts.is_empty() {
        reader.problem("/parts", ProblemKind::EmptyArray);
        return None;
    }
    let mut data = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let pointer = format!("/parts/{i}");
        let Some(part) = reader.object(part, &pointer, true) else {
            continue;
        };
        if let Some(value) = part.get("data") {
            if let Some((at, media)) = reader.member(&part, &pointer, "mediaType") {
                match serde_json::from_str::<Cow<'_, str>>(media.get()) {
                    Ok(media) if media == MEDIA_TYPE => {}
                    Ok(_) => reader.problem(
                        at,
                        ProblemKind::WrongMediaType {
                            expected: MEDIA_TYPE,
                        },
                    ),
                    Err(_) => reader.wrong_type(&at, "string", kind_of(media)),
                }
            }
            data.push((i, value));
        }
    }
    if data.len() == 1 {
        data.pop()
    } else {
        reader.problem("/parts", ProblemKind::NotOneDataPart { found: data.len() });
        None
    }
}
