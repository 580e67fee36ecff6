//! A struct read as a map, and a map read as a struct.
//!
//! On the wire both are JSON objects, and serde reads one as the other: a map's
//! `Deserialize` reads any object key by key, and a struct's reads a map's entries as its
//! fields. What can break:
//!
//! - a writer's struct read by a reader's `map<K, V>`: each field the writer may send is an
//!   entry whose key is the field's wire name, which `K` must read, and whose value must fit
//!   `V`; a writer that captures unknown keys (a flattened map) also sends keys that are
//!   data, which `K` must read whatever they are, with values of its extra type;
//! - a writer's `map<K, V>` read by a reader's struct: the writer may send any key `K`
//!   produces, or none. Every required reader field may be missing; every reader field whose
//!   key the writer may send must accept `V`; two keys read into one field (a name and its
//!   alias) may both come; and the keys the reader does not know are denied, captured or
//!   ignored as the reader's unknown-field policy says.
//!
//! Keys are data and never appear in a finding; the field names and string-enum tags they are
//! compared with are structure and do.

use crate::model::{
    Body, Constraint, IntKind, IntValue, ReceiverField, Schema, StructDef, Type, Unknown,
};
use crate::rules::Rule;
use crate::scalar::StringFormat;

use super::checker::Checker;
use super::paths::Seg;

/// How many `Option`s and newtypes a key type is looked through.
const MAX_KEY_UNWRAP: usize = 64;

/// The keys a writer's map may send, from its key type.
enum Keys<'a> {
    /// Any string (a plain string key, or a key type the checker does not narrow).
    Any,
    /// Strings of a format.
    Format(StringFormat),
    /// Integers of a kind, written as their digits.
    Int(IntKind),
    /// Finite numbers, written as JSON numbers.
    Float,
    /// One character.
    Char,
    /// Exactly these strings: `true` and `false`, or the tags of a string enum.
    Only(Vec<&'a str>),
}

impl<'a> Keys<'a> {
    /// The keys a writer's map with key type `key` may send.
    fn of(schema: &'a Schema, key: &'a Type) -> Keys<'a> {
        let mut ty = key;
        for _ in 0..MAX_KEY_UNWRAP {
            match schema.resolve(ty) {
                Type::Option(inner) => ty = inner,
                Type::String(StringFormat::Plain) => return Keys::Any,
                Type::String(format) => return Keys::Format(*format),
                Type::Int(kind) => return Keys::Int(*kind),
                // A constraint only narrows what the writer sends: its kind or format says
                // enough to err on the side of yes.
                Type::Constrained(c) => {
                    return match &**c {
                        Constraint::Int { kind, .. } => Keys::Int(*kind),
                        Constraint::String(s) if s.format == StringFormat::Plain => Keys::Any,
                        Constraint::String(s) => Keys::Format(s.format),
                    }
                }
                Type::Float(_) => return Keys::Float,
                Type::Char => return Keys::Char,
                Type::Bool => return Keys::Only(vec!["true", "false"]),
                Type::Named(name) => {
                    return match schema.def(name).map(|d| &d.body) {
                        Some(Body::Enum(e)) if e.is_string_enum() => Keys::Only(
                            e.variants
                                .iter()
                                .filter_map(|v| v.sender.as_deref())
                                .collect(),
                        ),
                        _ => Keys::Any,
                    };
                }
                _ => return Keys::Any,
            }
        }
        Keys::Any
    }

    /// Whether the writer may send `name` as a key. It errs on the side of yes: a format is
    /// only roughly told apart (a UUID has 36 hexadecimal digits and dashes, the date and
    /// time formats begin with a digit).
    fn may_send(&self, name: &str) -> bool {
        match self {
            Keys::Any => true,
            Keys::Format(StringFormat::Uuid) => {
                name.len() == 36 && name.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
            }
            // An IPv6 address may begin with a letter or a colon, a socket one with `[`.
            Keys::Format(
                StringFormat::Ipv6
                | StringFormat::Ip
                | StringFormat::SocketAddrV6
                | StringFormat::SocketAddr
                | StringFormat::Url,
            ) => true,
            Keys::Format(_) => name.bytes().next().is_some_and(|b| b.is_ascii_digit()),
            Keys::Int(kind) => is_int_key(name, *kind),
            Keys::Float => is_json_number(name),
            Keys::Char => name.chars().count() == 1,
            Keys::Only(keys) => keys.contains(&name),
        }
    }
}

/// Whether `name` is an integer of `kind` as a map key is written: its digits, a `-` before
/// a negative one, no leading zero (the pattern the JSON Schema export gives such keys).
fn is_int_key(name: &str, kind: IntKind) -> bool {
    let (negative, digits) = match name.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, name),
    };
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" && !negative || !digits.starts_with('0'));
    if !well_formed {
        return false;
    }
    let Ok(magnitude) = digits.parse::<u128>() else {
        return false;
    };
    if negative {
        kind.min() < 0 && magnitude <= kind.min().unsigned_abs()
    } else {
        magnitude <= kind.max()
    }
}

/// Whether `name` is a JSON number (`-`, an integer part without leading zero, an optional
/// fraction and exponent).
fn is_json_number(name: &str) -> bool {
    fn digits(s: &[u8]) -> usize {
        s.iter().take_while(|b| b.is_ascii_digit()).count()
    }
    let s = name.as_bytes();
    let mut i = usize::from(s.first() == Some(&b'-'));
    let int = digits(s.get(i..).unwrap_or_default());
    if int == 0 || (int > 1 && s.get(i) == Some(&b'0')) {
        return false;
    }
    i += int;
    if s.get(i) == Some(&b'.') {
        let frac = digits(s.get(i + 1..).unwrap_or_default());
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(s.get(i..).unwrap_or_default());
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == s.len()
}

/// Whether a reader's map key of type `key` reads `name`. It errs on the side of no: a key of
/// a string format is not trusted to read a field name.
fn reads_key(schema: &Schema, key: &Type, name: &str) -> bool {
    let mut ty = key;
    for _ in 0..MAX_KEY_UNWRAP {
        match schema.resolve(ty) {
            // serde_json reads a map key for an `Option` as `Some`.
            Type::Option(inner) => ty = inner,
            Type::String(StringFormat::Plain) | Type::Any => return true,
            Type::Int(kind) => return is_int_key(name, *kind),
            Type::Constrained(c) => {
                return match &**c {
                    Constraint::Int { kind, values } => {
                        is_int_key(name, *kind)
                            && IntValue::parse(name.as_bytes()).is_some_and(|v| values.contains(v))
                    }
                    Constraint::String(s) => {
                        s.format == StringFormat::Plain
                            && s.pattern.is_none()
                            && s.length.contains(name.chars().count() as u64)
                    }
                }
            }
            Type::Float(_) => return is_json_number(name),
            Type::Char => return name.chars().count() == 1,
            Type::Bool => return name == "true" || name == "false",
            Type::Named(enum_name) => {
                return match schema.def(enum_name).map(|d| &d.body) {
                    Some(Body::Enum(e)) if e.is_string_enum() => {
                        e.catch_all().is_some()
                            || e.variants
                                .iter()
                                .any(|v| v.receiver.iter().any(|t| t == name))
                    }
                    _ => false,
                };
            }
            _ => return false,
        }
    }
    false
}

/// Whether a reader's map key of type `key` reads every string.
fn reads_any_key(schema: &Schema, key: &Type) -> bool {
    let mut ty = key;
    for _ in 0..MAX_KEY_UNWRAP {
        match schema.resolve(ty) {
            Type::Option(inner) => ty = inner,
            Type::String(StringFormat::Plain) | Type::Any => return true,
            Type::Named(name) => {
                return matches!(
                    schema.def(name).map(|d| &d.body),
                    Some(Body::Enum(e)) if e.is_string_enum() && e.catch_all().is_some()
                );
            }
            _ => return false,
        }
    }
    false
}

impl<'a> Checker<'a> {
    /// A writer's struct `w` read by a reader's `map<rk, rv>` (`r`).
    pub(super) fn struct_into_map(&mut self, w: &'a StructDef, rk: &'a Type, rv: &'a Type) {
        for wf in &w.fields {
            if self.stopped() {
                return;
            }
            let Some(sent) = &wf.sender else { continue };
            self.at(Seg::Field(sent.name.as_str()), |c| {
                if !reads_key(c.reader, rk, &sent.name) {
                    c.name_not_a_key(&sent.name, rk);
                }
                c.ty(wf.sent_type(), rv);
            });
        }
        if let (Unknown::Capture, Some(extra)) = (w.unknown, &w.extra) {
            if self.stopped() {
                return;
            }
            self.at(Seg::Key, |c| {
                if !reads_any_key(c.reader, rk) {
                    c.further_keys_not_read(rk);
                }
                c.ty(extra, rv);
            });
        }
        // A flattened enum sends its variant's keys (a tag, a content key, a variant's
        // fields): read as a map they fit only a map of any key and any value.
        let any_value = matches!(self.reader.resolve(rv), Type::Any);
        for wf in w.flattened.iter().filter(|f| f.sent) {
            if self.stopped() {
                return;
            }
            if any_value && reads_any_key(self.reader, rk) {
                continue;
            }
            self.at(Seg::Flatten(&wf.rust_name), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "{writer} send a struct with the flattened enum `{}`, whose keys and values the `map<{rk}, {rv}>` of {reader} may not read (only a map of any key and any value is sure to)",
                    wf.rust_name
                );
                c.report_revert(
                    Rule::TypeChanged,
                    why,
                    &format!("a struct that reads the flattened enum `{}`", wf.rust_name),
                );
            });
        }
    }

    /// A field name the writer's struct sends that the reader's map keys do not read.
    fn name_not_a_key(&mut self, name: &str, key: &Type) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send a struct whose field `{name}` is read by {reader} as a map key, which the `{key}` keys do not read"
        );
        let hint = self.forward_or(
            "old readers read the struct as a map whose keys do not read the field's name: keep the field's name a key they read, or publish a new major version",
            "read the struct as a map with `String` keys, or as a struct",
        );
        self.report(Rule::TypeChanged, why, hint.to_owned());
    }

    /// A writer's flattened map sends keys that are data, which the reader's map keys do
    /// not all read.
    fn further_keys_not_read(&mut self, key: &Type) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send further keys (a flattened map) of any name, which the `{key}` map keys of {reader} do not all read"
        );
        let hint = self.forward_or(
            "old readers read the struct as a map whose keys do not read every name: do not send further keys to them, or publish a new major version",
            "read the struct as a map with `String` keys, or as a struct",
        );
        self.report(Rule::TypeChanged, why, hint.to_owned());
    }

    /// A writer's `map<wk, wv>` read by a reader's struct `r`.
    pub(super) fn map_into_struct(&mut self, wk: &'a Type, wv: &'a Type, r: &'a StructDef) {
        let keys = Keys::of(self.writer, wk);
        for rf in &r.fields {
            if self.stopped() {
                return;
            }
            let Some(recv) = &rf.receiver else { continue };
            let sendable: Vec<&'a str> = core::iter::once(&recv.name)
                .chain(&recv.aliases)
                .map(String::as_str)
                .filter(|k| keys.may_send(k))
                .collect();
            self.at(Seg::Field(recv.name.as_str()), |c| {
                if recv.required {
                    c.required_key_may_be_missing(recv, wk, !sendable.is_empty());
                }
                if let [first, second, ..] = sendable.as_slice() {
                    c.two_keys_into_one_field(first, second, recv);
                }
                if !sendable.is_empty() {
                    c.ty(wv, &rf.ty);
                }
            });
        }
        // A map promises no variant of a reader's flattened enum: a required one may be
        // missing (an optional one reads `None`).
        for rf in r.flattened.iter().filter(|f| f.read) {
            if self.stopped() {
                return;
            }
            if self.reader.flat_enum(&rf.ty).is_some_and(|(_, o)| o) {
                continue;
            }
            self.at(Seg::Flatten(&rf.rust_name), |c| {
                let rule = c.direction.pick(
                    Rule::RequiredFieldMayBeOmitted,
                    Rule::FieldBecameRequired,
                    Rule::FieldBecameOmittable,
                );
                let (writer, reader) = c.sides();
                let why = format!(
                    "the flattened enum `{}` is required by {reader} but {writer} send a `map<{wk}, {wv}>`, which may hold none of its variants",
                    rf.rust_name
                );
                let hint = c.forward_or(
                    "old readers require the flattened enum: keep sending the struct, or publish a new major version",
                    "read the flattened enum as an `Option`, or read the map as a map",
                );
                c.report(rule, why, hint.to_owned());
            });
        }
        if self.stopped() {
            return;
        }
        let known = |key: &str| {
            r.fields
                .iter()
                .any(|f| f.receiver.as_ref().is_some_and(|recv| recv.accepts(key)))
        };
        // The keys the writer may send that no reader field reads: a few tags, or any.
        let unread: Option<Vec<&'a str>> = match &keys {
            Keys::Only(list) => Some(list.iter().copied().filter(|k| !known(k)).collect()),
            _ => None,
        };
        if unread.as_ref().is_some_and(Vec::is_empty) {
            return;
        }
        match (r.unknown, &r.extra, unread) {
            (Unknown::Deny, _, Some(tags)) => {
                for tag in tags {
                    self.at(Seg::Field(tag), |c| c.unknown_denied(tag, false));
                }
            }
            (Unknown::Deny, _, None) => self.at(Seg::Key, |c| c.map_keys_denied(wk)),
            (Unknown::Capture, Some(extra), _) => self.at(Seg::Key, |c| c.ty(wv, extra)),
            _ => {}
        }
    }

    /// A field the reader requires and a writer's map may leave out (a map may be empty),
    /// or can never send (`sendable` false: its keys cannot be the field's name).
    fn required_key_may_be_missing(&mut self, recv: &ReceiverField, key: &Type, sendable: bool) {
        let (writer, reader) = self.sides();
        if sendable {
            let rule = self.direction.pick(
                Rule::RequiredFieldMayBeOmitted,
                Rule::FieldBecameRequired,
                Rule::FieldBecameOmittable,
            );
            let why = format!(
                "`{}` is required by {reader} but {writer} send a map, which may leave out any key",
                recv.name
            );
            let hint = self.forward_or(
                "new writers send a map where old readers require the field: send the struct, or publish a new major version",
                "give the reader's field `#[serde(default)]` or make it an `Option`",
            );
            self.report(rule, why, hint.to_owned());
        } else {
            let rule = self.direction.pick(
                Rule::RequiredFieldNotSent,
                Rule::FieldAddedRequired,
                Rule::FieldRemoved,
            );
            let why = format!(
                "`{}` is required by {reader} but never sent by {writer}, whose map keys (`{key}`) cannot be `{}`",
                recv.name, recv.name
            );
            let hint = self.forward_or(
                "new writers send a map whose keys cannot be the field old readers require: send the struct, or publish a new major version",
                "give the reader's field `#[serde(default)]` or make it an `Option`",
            );
            self.report(rule, why, hint.to_owned());
        }
    }

    /// Two keys a writer's map may send that the reader reads into one field.
    fn two_keys_into_one_field(&mut self, first: &str, second: &str, recv: &ReceiverField) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send a map that may hold both `{first}` and `{second}`, which {reader} read into the same field `{}`; serde rejects the duplicate field",
            recv.name
        );
        self.report(
            Rule::FieldReadTwice,
            why,
            "read the map as a map, or drop the reader's alias so one key reads the field"
                .to_owned(),
        );
    }

    /// A reader that denies unknown fields reads a writer's map, whose keys may be others.
    fn map_keys_denied(&mut self, key: &Type) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send a map whose `{key}` keys may be names {reader} do not know and deny (`deny_unknown_fields`)"
        );
        let hint = self.forward_or(
            "old readers deny unknown fields: send them the struct, or publish a new major version",
            "remove `#[serde(deny_unknown_fields)]` from the reader, or read the map as a map",
        );
        self.report(Rule::UnknownFieldDenied, why, hint.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::{is_int_key, is_json_number};
    use crate::model::IntKind;

    #[test]
    fn integer_keys_are_digits_within_the_range() {
        assert!(is_int_key("0", IntKind::U8));
        assert!(is_int_key("255", IntKind::U8));
        assert!(!is_int_key("256", IntKind::U8));
        assert!(!is_int_key("-1", IntKind::U8));
        assert!(is_int_key("-128", IntKind::I8));
        assert!(!is_int_key("-129", IntKind::I8));
        assert!(!is_int_key("-0", IntKind::I8));
        assert!(!is_int_key("007", IntKind::U32));
        assert!(!is_int_key("", IntKind::U32));
        assert!(!is_int_key("-", IntKind::I32));
        assert!(!is_int_key("orderId", IntKind::U64));
        assert!(is_int_key(
            "-170141183460469231731687303715884105728",
            IntKind::I128
        ));
        assert!(!is_int_key(
            "999999999999999999999999999999999999999999",
            IntKind::U128
        ));
    }

    #[test]
    fn float_keys_are_json_numbers() {
        for ok in ["0", "-1", "1.5", "1e20", "-2.5E-3", "10"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "NaN", "inf", "1.5x", "orderId",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}
