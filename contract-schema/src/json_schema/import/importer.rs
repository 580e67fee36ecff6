//! The importer's state (the document, the view, the named types built so far, the
//! warnings) and what every part of it shares: the view's policy for what the model cannot
//! hold, the keywords ignored or refused, JSON pointers, fresh type names and the depth
//! bound.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use crate::model::{Body, Type, TypeDef, View, RESERVED};

use super::outcome::{ImportError, ImportWarning};

/// How many schemas deep the import follows before it gives up with an error: far deeper
/// than pydantic or zod nest, and shallow enough that the deepest path (tagged unions inside
/// tagged unions) fits a test thread's 2 MiB stack in a debug build.
pub(super) const MAX_DEPTH: usize = 64;

/// Keywords that change no verdict: annotations, identifiers, and the parts of the document
/// that are read elsewhere. (`x-` keys are ignored too, apart from this crate's own, which
/// are read where the export writes them.)
const IGNORED: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$defs",
    "definitions",
    "$vocabulary",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Every keyword of draft-07 and 2020-12 that constrains a value: one met where the import
/// does not read it is what the model cannot hold (a warning for a producer, an error for a
/// consumer); any other key is unknown, and ignored with a warning.
const KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
];

/// Whether `key` is a keyword that constrains a value (not an annotation).
pub(super) fn is_keyword(key: &str) -> bool {
    KEYWORDS.contains(&key)
}

/// The JSON Schema dialect of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    /// draft 2020-12 (also 2019-09, and a document without `$schema`).
    Draft2020,
    /// draft-07 (also draft-06): `$ref` hides its siblings.
    Draft07,
}

/// What a schema describes: a type on the wire, or the body of a named type (a struct or an
/// enum), which becomes a named type of its own.
pub(super) enum Shaped {
    /// A type.
    Type(Type),
    /// A struct or an enum.
    Body(Body),
}

/// What one import works with.
pub(super) struct Importer<'a> {
    /// The whole document, for `$ref`.
    pub(super) doc: &'a Value,
    /// Which side's schema this is.
    pub(super) view: View,
    /// The dialect.
    pub(super) dialect: Dialect,
    /// The named types built so far.
    pub(super) types: BTreeMap<String, TypeDef>,
    /// The name given to each `$ref` target (its JSON pointer), set before its body is read so
    /// that a recursive reference finds it.
    pub(super) refs: HashMap<String, String>,
    /// Every name given, for fresh ones.
    pub(super) names: HashSet<String>,
    /// The next suffix [`Importer::fresh_name`] tries for each name given more than once.
    suffixes: HashMap<String, u32>,
    /// What was dropped or doubted.
    pub(super) warnings: Vec<ImportWarning>,
    /// How deep the schema being read is.
    pub(super) depth: usize,
    /// Whether a `$ref` points at the document itself (`#`): the root is then a named type.
    pub(super) root_referenced: bool,
    /// Whether the document is this crate's export (it has `x-handoff-view`), whose fields
    /// say their provenance; a peer's say nothing of it.
    pub(super) own: bool,
    /// The flattened members whose type was still being read when their struct was (a
    /// `$ref` back into a type that holds the struct), each with the pointer of its
    /// `x-handoff-flattened` entry: whether each is an enum is known once the document is
    /// read.
    pub(super) pending_flats: Vec<(String, Type)>,
    /// The named types a flattened member's type named that are no enum (the member read
    /// otherwise, or not at all): dropped once the document is read when nothing else
    /// reaches them.
    pub(super) unflattened: Vec<String>,
}

pub(super) type Result<T> = core::result::Result<T, ImportError>;

impl<'a> Importer<'a> {
    pub(super) fn new(doc: &'a Value, view: View, dialect: Dialect) -> Self {
        Importer {
            doc,
            view,
            dialect,
            types: BTreeMap::new(),
            refs: HashMap::new(),
            names: HashSet::new(),
            suffixes: HashMap::new(),
            warnings: Vec::new(),
            depth: 0,
            root_referenced: false,
            own: doc.get("x-handoff-view").is_some(),
            pending_flats: Vec::new(),
            unflattened: Vec::new(),
        }
    }

    /// Whether this is a producer's schema.
    pub(super) fn sender(&self) -> bool {
        self.view == View::Sender
    }

    /// What the model cannot hold: dropped with a warning for a producer (its writer only
    /// grows, which is cautious), an error for a consumer (ignoring a reader's constraint
    /// could hide a break).
    pub(super) fn unsupported(&mut self, pointer: &str, what: &str) -> Result<()> {
        match self.view {
            View::Sender => {
                self.warn(
                    pointer,
                    format!("{what}; dropped from the producer's schema, which then may write more than it does"),
                );
                Ok(())
            }
            View::Receiver => Err(error(
                pointer,
                format!("{what}; a consumer's constraint cannot be dropped without hiding what it refuses"),
            )),
        }
    }

    /// Records a warning.
    pub(super) fn warn(&mut self, pointer: &str, message: String) {
        self.warnings.push(ImportWarning {
            pointer: pointer.to_owned(),
            message,
        });
    }

    /// The keys of `map` beside those `read`: ignored, refused (a keyword the import does not
    /// read here) or unknown (warned).
    pub(super) fn rest(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        read: &[&str],
    ) -> Result<()> {
        for key in map.keys() {
            let key = key.as_str();
            if read.contains(&key) || IGNORED.contains(&key) || key.starts_with("x-") {
                continue;
            }
            let at = child(pointer, key);
            if KEYWORDS.contains(&key) {
                self.unsupported(
                    &at,
                    &format!("`{key}` is not read here: the model cannot hold it"),
                )?;
            } else {
                self.warn(&at, format!("unknown keyword `{key}` ignored"));
            }
        }
        Ok(())
    }

    /// Enters one schema deeper; an error past [`MAX_DEPTH`].
    pub(super) fn enter(&mut self, pointer: &str) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(error(
                pointer,
                format!("schemas nest deeper than {MAX_DEPTH} levels; the import stops here"),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves the schema [`Importer::enter`] entered.
    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// A display name not given yet, from `base` (a title, a `$defs` key, or where an
    /// inline type sits: `Order.lines[]`), spelt as the canonical text writes a named type
    /// and reads it back (see [`display_name`]). A name given already, or a built-in type's
    /// word (`string`), is suffixed `_2`, `_3`, … (before its generic arguments), so that
    /// names stay distinct.
    pub(super) fn fresh_name(&mut self, base: &str) -> String {
        let base = display_name(base);
        if !self.names.contains(&base) && !RESERVED.contains(&base.as_str()) {
            self.names.insert(base.clone());
            return base;
        }
        // The bare name before any generic arguments takes the suffix: `Page_2<Order>`.
        let split = base.find('<').unwrap_or(base.len());
        let (head, args) = base.split_at(split);
        // Where the search for a free suffix resumes: a document with many types of one
        // title names each in one step, not in as many steps as there are before it.
        let next = self.suffixes.entry(base.clone()).or_insert(2);
        loop {
            let name = format!("{head}_{next}{args}");
            *next = next.saturating_add(1);
            if !self.names.contains(&name) {
                self.names.insert(name.clone());
                return name;
            }
        }
    }

    /// Registers a named type under a fresh name from `hint`.
    pub(super) fn named(&mut self, hint: &str, rust_path: String, body: Body) -> Type {
        let name = self.fresh_name(hint);
        self.types.insert(
            name.clone(),
            TypeDef {
                rust_path,
                doc: String::new(),
                body,
            },
        );
        Type::Named(name)
    }

    /// A type from a shaped schema: a struct or an enum becomes a named type under a fresh
    /// name from `hint` (its `title` when it has one).
    pub(super) fn type_of(
        &mut self,
        map: Option<&Map<String, Value>>,
        shaped: Shaped,
        hint: &str,
    ) -> Type {
        match shaped {
            Shaped::Type(ty) => ty,
            Shaped::Body(body) => {
                // A title without a letter or digit (`""`, `"→"`) names nothing: where the
                // type sits does. Nor does an enum's that only restates the member's name:
                // pydantic titles every field (`order_status` → `Order Status`), a
                // `Literal[…]` too, which has no name in the peer's code (pydantic writes
                // its models and `Enum`s under `$defs`, so an inline object's title is a
                // type's, as a code generator names a class after it).
                let title = map
                    .and_then(|m| m.get("title"))
                    .and_then(Value::as_str)
                    .filter(|t| t.chars().any(char::is_alphanumeric))
                    .filter(|t| !(matches!(body, Body::Enum(_)) && restates_member(t, hint)));
                let rust = map
                    .and_then(|m| m.get("x-handoff-rust"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                self.named(title.unwrap_or(hint), rust, body)
            }
        }
    }
}

/// Whether `title` spells the name of the member a schema sits under (the last part of its
/// `hint`, `Refund.order_status`), letters and digits alike whatever their case:
/// `Order Status`, `order-status` and `OrderStatus` all restate `order_status`.
fn restates_member(title: &str, hint: &str) -> bool {
    let member = hint.rsplit('.').next().unwrap_or(hint);
    let folded = |s: &'_ str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    folded(title) == folded(member)
}

/// `base` as the canonical text writes a named type's display name and reads it back:
///
/// - a name the text reads as a named type is kept, in the text's spelling (surrounding
///   spaces dropped, generic arguments spaced as the text spaces them): `RefundRequest`,
///   `refund_request`, `Zählung`, `billing::Order`, `Page<Order>` (this crate's export
///   titles its types so);
/// - any other is read as a path, its parts apart at `.` (as the import writes where an
///   inline type sits) or `::`, and written with `::`, as the text writes a path: each
///   part kept when it is a word of letters, digits and `_`, else made one of its runs of
///   letters and digits, each a capital (a run of digits after another set apart by `_`):
///   `refund request` → `RefundRequest`, `order-status` → `OrderStatus`, `Name-2` →
///   `Name_2`, `Order.payment` → `Order::payment`, `app.models.Order` →
///   `app::models::Order`; a list's items `Order.lines[]` are `Order::lines::Item` and a
///   map's values `Order.*` are `Order::Value` (as Rust names an iterator's and a map's);
/// - a built-in type's word alone (`string`) is its capital (`String`); nothing left (`""`,
///   `"→"`) is `Type`.
pub(super) fn display_name(base: &str) -> String {
    if let Ok(Type::Named(name)) = crate::text::parse_type(base) {
        // The text's spelling, when the text reads it back as itself.
        if matches!(crate::text::parse_type(&name), Ok(Type::Named(ref again)) if *again == name) {
            return name;
        }
    }
    let mut parts: Vec<String> = Vec::new();
    let mut part = String::new();
    let mut chars = base.chars().peekable();
    while let Some(c) = chars.next() {
        let marker = match c {
            '.' => None,
            ':' if chars.peek() == Some(&':') => {
                chars.next();
                None
            }
            '[' if chars.peek() == Some(&']') => {
                chars.next();
                Some("Item")
            }
            '*' => Some("Value"),
            c => {
                part.push(c);
                continue;
            }
        };
        parts.extend(one_word(&part));
        part.clear();
        parts.extend(marker.map(str::to_owned));
    }
    parts.extend(one_word(&part));
    match parts.as_slice() {
        [] => "Type".to_owned(),
        [one] if RESERVED.contains(&one.as_str()) => capitalised(one),
        _ => parts.join("::"),
    }
}

/// One part of a path as a word of the text: itself when it is one already (letters,
/// digits and `_`), else its runs of letters and digits, each a capital, a run of digits
/// after another set apart by `_`; `None` when it has no letter or digit.
fn one_word(part: &str) -> Option<String> {
    let part = part.trim();
    if part.is_empty() {
        return None;
    }
    if part.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Some(part.to_owned());
    }
    let mut out = String::with_capacity(part.len());
    for run in part.split(|c: char| !c.is_alphanumeric()) {
        if run.is_empty() {
            continue;
        }
        if !out.is_empty() && run.starts_with(char::is_numeric) {
            out.push('_');
        }
        out.push_str(&capitalised(run));
    }
    (!out.is_empty()).then_some(out)
}

/// `word` with a capital first letter, where the capital is letters too (`ß` → `SS`; a
/// letter without a capital, or a digit, stays).
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let upper: String = first.to_uppercase().collect();
    let mut out = if upper.chars().all(char::is_alphanumeric) {
        upper
    } else {
        first.to_string()
    };
    out.push_str(chars.as_str());
    out
}

/// An error at `pointer`.
pub(super) fn error(pointer: &str, message: String) -> ImportError {
    ImportError {
        pointer: pointer.to_owned(),
        message,
    }
}

/// The pointer of `key` inside the value at `pointer` (RFC 6901: `~` and `/` escaped).
pub(super) fn child(pointer: &str, key: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + key.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The pointer of item `index` inside the array at `pointer`.
pub(super) fn item(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// The strings of a JSON array, `None` when it is not an array of strings.
pub(super) fn strings(value: &Value) -> Option<Vec<&str>> {
    value.as_array()?.iter().map(Value::as_str).collect()
}
