//! Integers from writers that only have doubles ([`Numbers::FromDoubles`]).
//!
//! A protobuf `Value` (A2A's `data` Part, every ProtoJSON writer) and JavaScript hold every
//! number as a double, and write the integer 1250 as `1250.0` or `1.25e3`. serde refuses such
//! a literal for an integer field. With [`Numbers::FromDoubles`], a refused payload is looked
//! at once more: each number literal with a fraction or an exponent that stands where the
//! receiver view has an integer, that equals an integer exactly, within ±(2^53 − 1) (where a
//! double is the rounding of no other integer) and within the range of the integer's kind,
//! is rewritten as that integer, and the payload is read again. (The bound is 2^53 − 1,
//! JavaScript's safe integers: the double 2^53 is also the one nearest 2^53 + 1, so it does
//! not say which integer its writer had.) Anything else is left as it
//! was and refused as before; a payload with a problem of the bytes or the limits is not
//! rewritten at all.
//!
//! Where the receiver view cannot say which type a value has (an untagged enum's variants, an
//! internally tagged enum's), the literal is rewritten when one of the types it may have is
//! an integer it fits and none is `Any`: an integer literal reads wherever a float does, and
//! a string reads neither. Inside `Any` (a `serde_json::Value`) nothing is rewritten: there
//! the literal's form is the value.
//!
//! The byte offsets of the second read's problems are those of the bytes that arrived.

use contract_schema::model::Constraint;
use contract_schema::model::{
    Body, EnumDef, FieldDef, IntKind, Repr, Schema, StructDef, Type, VariantDefKind,
};

use crate::runtime::options::{Limits, Numbers};
use crate::runtime::problem::{Problem, ProblemClass};
use crate::runtime::tape::scan::{Node, NodeKind, Tape};

/// 2^53 − 1, JavaScript's `Number.MAX_SAFE_INTEGER`: the largest magnitude a double holds
/// that is the rounding of no other integer (2^53 is also the double nearest 2^53 + 1).
const SAFE: u64 = (1 << 53) - 1;

/// How many types a value may have that the walk keeps apart (an untagged enum of untagged
/// enums multiplies them); past that, the rest are not followed.
const MAX_CANDIDATES: usize = 64;

/// A payload rewritten: its text, and each edit as (where it starts in the rewritten text,
/// how many bytes longer the rewritten literal is than the original, negative if shorter).
pub(crate) struct Rewritten {
    pub text: String,
    edits: Vec<(usize, isize)>,
}

impl Rewritten {
    /// The offset in the bytes that arrived of `offset` in the rewritten text.
    pub(crate) fn original_offset(&self, offset: usize) -> usize {
        let mut shift: isize = 0;
        for &(start, delta) in &self.edits {
            if start >= offset {
                break;
            }
            shift += delta;
        }
        offset.saturating_add_signed(-shift)
    }

    /// A problem of the rewritten text, its offset (if it has one) in the bytes that arrived.
    pub(crate) fn original(&self, mut problem: Problem) -> Problem {
        if let Some(offset) = problem.kind.offset_mut() {
            *offset = self.original_offset(*offset);
        }
        problem
    }
}

/// Whether a refusal with these problems may be read again under `numbers`: the option is
/// on, and every problem is one of the contract (the bytes are one JSON document within the
/// limits).
pub(crate) fn worth_a_second_read(numbers: Numbers, problems: &[Problem]) -> bool {
    numbers == Numbers::FromDoubles
        && problems
            .iter()
            .all(|p| p.kind.class() == ProblemClass::Contract)
}

/// `text` with every whole-number double at an integer of `schema`'s receiver view written
/// as that integer; `None` when there is none (or the text does not scan).
pub(crate) fn rewrite(schema: &Schema, text: &str, limits: &Limits) -> Option<Rewritten> {
    let mut tape = Tape::default();
    tape.scan(text, limits).ok()?;
    if !tape.nodes.iter().any(|n| n.kind == NodeKind::Float) {
        return None;
    }
    let mut walk = Walk {
        schema,
        text,
        nodes: &tape.nodes,
        found: Vec::new(),
    };
    walk.value(
        0,
        vec![At::Ty(&schema.root)],
        limits.max_depth.saturating_add(1),
    );
    if walk.found.is_empty() {
        return None;
    }
    walk.found.sort_unstable_by_key(|(start, _, _)| *start);
    let mut out = String::with_capacity(text.len());
    let mut edits = Vec::with_capacity(walk.found.len());
    let mut last = 0;
    for (start, end, integer) in walk.found {
        out.push_str(&text[last..start]);
        let literal = integer.to_string();
        edits.push((out.len(), literal.len() as isize - (end - start) as isize));
        out.push_str(&literal);
        last = end;
    }
    out.push_str(&text[last..]);
    Some(Rewritten { text: out, edits })
}

/// Where a value stands in the receiver view.
#[derive(Clone, Copy)]
enum At<'s> {
    /// A value of this type.
    Ty(&'s Type),
    /// The content of one of an enum's variants.
    Content(&'s VariantDefKind),
}

/// What a value may be, once named types, options and views are seen through.
enum Is<'s> {
    Int(IntKind),
    Float,
    Struct(&'s StructDef),
    Enum(&'s EnumDef),
    Items(&'s [Type]),
    List(&'s Type),
    Map(&'s Type),
    /// Any JSON value (`serde_json::Value`): the literal's form is the value.
    Any,
    /// Anything else: a string, a bool, a unit (none reads a number of either form).
    Other,
}

struct Walk<'s, 't> {
    schema: &'s Schema,
    text: &'t str,
    nodes: &'t [Node],
    /// Each literal rewritten: its start and end in the text, and the integer it equals.
    found: Vec<(usize, usize, i64)>,
}

impl<'s> Walk<'s, '_> {
    /// What `ty` is, through named types (their receiver view), options and constraints.
    fn is(&self, mut ty: &'s Type) -> Is<'s> {
        // Each step resolves one name; a cycle of newtypes ends when the steps do.
        for _ in 0..=self.schema.types.len() {
            match ty {
                Type::Option(inner) => ty = inner,
                Type::Int(kind) => return Is::Int(*kind),
                Type::Constrained(c) => {
                    return match &**c {
                        Constraint::Int { kind, .. } => Is::Int(*kind),
                        Constraint::String(_) => Is::Other,
                    }
                }
                Type::Float(_) => return Is::Float,
                Type::List(item) | Type::Set(item) | Type::Array(item, _) => return Is::List(item),
                Type::Map(_, value) => return Is::Map(value),
                Type::Tuple(items) => return Is::Items(items),
                Type::Any => return Is::Any,
                Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                    Some(Body::Struct(s)) => return Is::Struct(s),
                    Some(Body::Enum(e)) => return Is::Enum(e),
                    Some(body) => match body.wire_type(contract_schema::View::Receiver) {
                        Some(inner) => ty = inner,
                        None => return Is::Other,
                    },
                    None => return Is::Other,
                },
                _ => return Is::Other,
            }
        }
        Is::Other
    }

    /// The places `at` stands for, each a type or the fields, items or content it holds.
    fn expand(&self, at: At<'s>, into: &mut Vec<Place<'s>>) {
        if into.len() >= MAX_CANDIDATES {
            return;
        }
        match at {
            At::Content(kind) => match kind {
                VariantDefKind::Unit => {}
                VariantDefKind::Newtype(ty) => self.expand(At::Ty(ty), into),
                VariantDefKind::Tuple(items) => into.push(Place::Items(items)),
                VariantDefKind::Struct(s) => into.push(Place::Fields(s)),
            },
            At::Ty(ty) => match self.is(ty) {
                Is::Int(kind) => into.push(Place::Int(kind)),
                Is::Float => into.push(Place::Float),
                Is::Struct(s) => into.push(Place::Fields(s)),
                Is::Items(items) => into.push(Place::Items(items)),
                Is::List(item) => into.push(Place::List(item)),
                Is::Map(value) => into.push(Place::Map(value)),
                Is::Enum(e) => {
                    // Untagged variants read the value itself.
                    for v in e.variants.iter().filter(|v| v.untagged) {
                        self.expand(At::Content(&v.kind), into);
                    }
                    match &e.repr {
                        Repr::Untagged => {
                            for v in &e.variants {
                                self.expand(At::Content(&v.kind), into);
                            }
                        }
                        Repr::External => into.push(Place::External(e)),
                        Repr::Internal { .. } => {
                            for v in e.variants.iter().filter(|v| !v.untagged) {
                                self.expand(At::Content(&v.kind), into);
                            }
                        }
                        Repr::Adjacent { content, .. } => into.push(Place::Adjacent(e, content)),
                    }
                }
                Is::Any => into.push(Place::Any),
                Is::Other => into.push(Place::Other),
            },
        }
    }

    /// Walks the value at node `index`, which may stand at any of `at`.
    fn value(&mut self, index: usize, at: Vec<At<'s>>, depth: usize) {
        let Some(node) = self.nodes.get(index).copied() else {
            return;
        };
        if depth == 0 || at.is_empty() {
            return;
        }
        let mut places = Vec::new();
        for a in at {
            self.expand(a, &mut places);
        }
        match node.kind {
            NodeKind::Float => self.number(node, &places),
            NodeKind::Array => {
                let mut item = index + 1;
                for i in 0..node.count as usize {
                    let mut next = Vec::new();
                    for place in &places {
                        match place {
                            Place::List(ty) => next.push(At::Ty(ty)),
                            Place::Items(items) => next.extend(items.get(i).map(At::Ty)),
                            _ => {}
                        }
                    }
                    self.value(item, next, depth - 1);
                    item = self.after(item);
                }
            }
            NodeKind::Object => {
                let mut key = index + 1;
                for _ in 0..node.count as usize {
                    let name = self.key(key);
                    let mut next = Vec::new();
                    for place in &places {
                        self.member(place, &name, &mut next);
                    }
                    self.value(key + 1, next, depth - 1);
                    key = self.after(key + 1);
                }
            }
            _ => {}
        }
    }

    /// Where the value of member `name` of an object at `place` stands.
    fn member(&self, place: &Place<'s>, name: &str, into: &mut Vec<At<'s>>) {
        match place {
            Place::Map(value) => into.push(At::Ty(value)),
            Place::Fields(s) => self.field(s, name, into),
            Place::External(e) => into.extend(
                e.variants
                    .iter()
                    .filter(|v| v.receiver.iter().any(|r| r == name))
                    .map(|v| At::Content(&v.kind)),
            ),
            Place::Adjacent(e, content) if name == content.as_str() => {
                into.extend(e.variants.iter().map(|v| At::Content(&v.kind)));
            }
            _ => {}
        }
    }

    /// Where the value of member `name` of a struct's object stands: its field, else the
    /// flattened map that keeps unknown keys, else the flattened enums' variants.
    fn field(&self, s: &'s StructDef, name: &str, into: &mut Vec<At<'s>>) {
        let accepts = |f: &&'s FieldDef| f.receiver.as_ref().is_some_and(|r| r.accepts(name));
        if let Some(field) = s.fields.iter().find(accepts) {
            into.push(At::Ty(&field.ty));
            return;
        }
        for flat in s.flattened.iter().filter(|f| f.read) {
            let Is::Enum(e) = self.is(&flat.ty) else {
                continue;
            };
            for v in &e.variants {
                let by_fields =
                    v.untagged || matches!(e.repr, Repr::Internal { .. } | Repr::Untagged);
                match (&e.repr, &v.kind) {
                    (_, VariantDefKind::Struct(fields)) if by_fields => {
                        into.extend(fields.fields.iter().find(accepts).map(|f| At::Ty(&f.ty)));
                    }
                    (Repr::External, kind) if v.receiver.iter().any(|r| r == name) => {
                        into.push(At::Content(kind));
                    }
                    (Repr::Adjacent { content, .. }, kind) if name == content => {
                        into.push(At::Content(kind));
                    }
                    _ => {}
                }
            }
        }
        if into.is_empty() {
            into.extend(s.extra.as_ref().map(At::Ty));
        }
    }

    /// A literal with a fraction or an exponent at `places`: rewritten when one place is an
    /// integer whose kind its exact value fits, and none is `Any` (where an integer literal
    /// is another value than a double). A place that reads no number of either form (a
    /// string) refuses the literal whatever its form.
    fn number(&mut self, node: Node, places: &[Place<'s>]) {
        if places.iter().any(|p| matches!(p, Place::Any)) {
            return;
        }
        let (start, end) = (node.start as usize, node.end as usize);
        let Some(integer) = self.text.get(start..end).and_then(whole_number) else {
            return;
        };
        let fits = places.iter().any(|p| match p {
            Place::Int(kind) => {
                i128::from(integer) >= IntKind::min(*kind)
                    && (integer < 0 || integer as u128 <= IntKind::max(*kind))
            }
            _ => false,
        });
        if fits {
            self.found.push((start, end, integer));
        }
    }

    /// The decoded text of the key node at `index`.
    fn key(&self, index: usize) -> std::borrow::Cow<'_, str> {
        let Some(node) = self.nodes.get(index) else {
            return "".into();
        };
        let (start, end) = (node.start as usize, node.end as usize);
        if node.escaped {
            // The quoted string, decoded by serde_json (the scan checked its escapes).
            let quoted = self
                .text
                .get(start.saturating_sub(1)..end + 1)
                .unwrap_or("\"\"");
            serde_json::from_str::<String>(quoted)
                .map(Into::into)
                .unwrap_or_default()
        } else {
            self.text.get(start..end).unwrap_or("").into()
        }
    }

    /// The index of the node after the subtree of node `index`.
    fn after(&self, index: usize) -> usize {
        self.nodes
            .get(index)
            .map_or(self.nodes.len(), |n| n.next as usize)
    }
}

/// A place a value may stand at, what the walk follows into it.
enum Place<'s> {
    Int(IntKind),
    Float,
    Fields(&'s StructDef),
    Items(&'s [Type]),
    List(&'s Type),
    Map(&'s Type),
    External(&'s EnumDef),
    Adjacent(&'s EnumDef, &'s String),
    Any,
    Other,
}

/// The integer a JSON number literal with a fraction or an exponent equals exactly, when it
/// is whole and within ±(2^53 − 1) (`1250.0`, `1.25e3`, `-0.0`, `125000e-2`); `None`
/// otherwise.
pub(crate) fn whole_number(literal: &str) -> Option<i64> {
    let (negative, rest) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let exponent = exponent.strip_prefix('+').unwrap_or(exponent);
    let (exp_negative, exp_digits) = match exponent.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, exponent),
    };
    if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The significant digits, and the power of ten they are scaled by.
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0);
    }
    // An exponent of more than a few digits scales any non-zero value out of ±2^53 (or below
    // 1): saturated, so that no literal overflows the arithmetic.
    let exp: i64 = exp_digits.parse().unwrap_or(i64::MAX).min(1 << 20);
    let mut scale = if exp_negative { -exp } else { exp } - frac.len() as i64;
    let mut digits = digits;
    while scale < 0 {
        digits = digits.strip_suffix('0')?;
        scale += 1;
    }
    if digits.len() as i64 + scale > 16 {
        return None;
    }
    let mut value: u64 = digits.parse().ok()?;
    for _ in 0..scale {
        value = value.checked_mul(10)?;
    }
    if value > SAFE {
        return None;
    }
    let value = value as i64;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::whole_number;

    #[test]
    fn whole_numbers_are_read_exactly() {
        assert_eq!(whole_number("1250.0"), Some(1250));
        assert_eq!(whole_number("1.25e3"), Some(1250));
        assert_eq!(whole_number("1.25E+3"), Some(1250));
        assert_eq!(whole_number("125000e-2"), Some(1250));
        assert_eq!(whole_number("-7.000"), Some(-7));
        assert_eq!(whole_number("-0.0"), Some(0));
        assert_eq!(whole_number("0e999999999999999999999"), Some(0));
        assert_eq!(whole_number("9007199254740991.0"), Some((1 << 53) - 1));
        assert_eq!(whole_number("-9007199254740991.0"), Some(1 - (1 << 53)));
    }

    #[test]
    fn fractions_and_inexact_magnitudes_are_not() {
        assert_eq!(whole_number("1250.5"), None);
        assert_eq!(whole_number("1.255e2"), None);
        assert_eq!(whole_number("12e-1"), None);
        assert_eq!(whole_number("9007199254740993.0"), None);
        // 2^53 is also the double nearest 2^53 + 1: what the writer had is not known.
        assert_eq!(whole_number("9007199254740992.0"), None);
        assert_eq!(whole_number("-9007199254740992.0"), None);
        assert_eq!(whole_number("1e16"), None);
        assert_eq!(whole_number("1e999999999999999999999"), None);
        assert_eq!(whole_number("1e-999999999999999999999"), None);
        assert_eq!(whole_number("abc"), None);
        assert_eq!(whole_number(""), None);
    }
}
