//! What a contract expects at a JSON pointer: the pointer walked through one view of the
//! schema (never through the payload), and the type found there said in a model's terms —
//! its canonical type, the JSON it takes, the values an enum allows, the members an object
//! requires, the limits of a number, a string or an array.

use std::fmt::Write;

use contract_schema::model::{
    Body, Constraint, EnumDef, FieldDef, IntKind, Repr, StructDef, Type, Unknown, VariantDef,
    VariantDefKind,
};
use contract_schema::{Schema, View};
use serde::Serialize;

/// How many enum values or object members an expectation names; past that it counts them.
const MAX_NAMED: usize = 16;

/// What the contract expects at one place of a payload, from the contract alone.
///
/// Every text is made of the contract's own words (type names, member names, enum values,
/// limits), never of the payload's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    /// The type in the contract's canonical text (`string`, `u64`, `list<ArtifactRef>`,
    /// `Category`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The JSON it takes, in words: `an integer from 0 to 255`, `one of "damaged",
    /// "not-delivered"`, `an object with members orderRef (required), note`.
    pub json: String,
    /// The values an enum (or a tag) allows, in declaration order, at most 16.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
    /// The members an object requires, in declaration order, at most 16.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<String>,
}

/// Where a pointer leads in a schema.
#[derive(Clone, Copy)]
enum At<'s> {
    /// A value of a type.
    Ty(&'s Type),
    /// The object of a struct (or of a struct variant).
    Struct(&'s StructDef),
    /// The items of a tuple variant.
    Items(&'s [Type]),
    /// The tag of an enum.
    Tag(&'s EnumDef),
}

/// The end of a walk: where the pointer led, the field its last step named (if any), and the
/// struct the walk stood in when a step named no member of it.
struct Spot<'s> {
    at: Option<At<'s>>,
    field: Option<&'s FieldDef>,
    unknown_in: Option<&'s StructDef>,
}

/// A walk of one view of a schema.
struct Walk<'s> {
    schema: &'s Schema,
    view: View,
}

/// What `schema`'s `view` expects at `pointer` (an RFC 6901 pointer, `*` for a map's key);
/// for a pointer that names no member of an object, that object's members. `None` where the
/// pointer leads nowhere the schema describes (past an `any`, into an untagged enum).
pub(crate) fn expected_at(schema: &Schema, view: View, pointer: &str) -> Option<Expected> {
    let walk = Walk { schema, view };
    let spot = walk.locate(pointer);
    match (spot.at, spot.unknown_in) {
        (Some(at), _) => Some(walk.expected(at, spot.field)),
        (None, Some(s)) => Some(walk.expected(At::Struct(s), None)),
        (None, None) => None,
    }
}

/// The reference tokens of a pointer, unescaped.
fn tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
}

impl<'s> Walk<'s> {
    /// Follows options, newtypes and the view's side of a two-view type to what is on the wire.
    fn settle(&self, mut at: At<'s>) -> At<'s> {
        for _ in 0..=self.schema.types.len() + 1 {
            let At::Ty(ty) = at else { return at };
            match ty {
                Type::Option(inner) => at = At::Ty(inner),
                Type::Named(name) => match self.schema.def(name).map(|d| &d.body) {
                    Some(Body::Struct(s)) => return At::Struct(s),
                    Some(body @ (Body::Newtype(_) | Body::Views { .. })) => {
                        match body.wire_type(self.view) {
                            Some(inner) => at = At::Ty(inner),
                            None => return at,
                        }
                    }
                    Some(Body::Enum(_)) | None => return at,
                },
                _ => return at,
            }
        }
        at
    }

    fn enum_of(&self, ty: &'s Type) -> Option<&'s EnumDef> {
        let Type::Named(name) = ty else { return None };
        match self.schema.def(name).map(|d| &d.body) {
            Some(Body::Enum(e)) => Some(e),
            _ => None,
        }
    }

    /// The field of `s` the view reads (or writes) under `name`.
    fn field(&self, s: &'s StructDef, name: &str) -> Option<&'s FieldDef> {
        s.fields.iter().find(|f| match self.view {
            View::Receiver => f.receiver.as_ref().is_some_and(|r| r.accepts(name)),
            View::Sender => f.sender.as_ref().is_some_and(|w| w.name == name),
        })
    }

    /// The name the view gives a field, if it reads (or writes) it.
    fn field_name(&self, f: &'s FieldDef) -> Option<&'s str> {
        match self.view {
            View::Receiver => f.receiver.as_ref().map(|r| r.name.as_str()),
            View::Sender => f.sender.as_ref().map(|w| w.name.as_str()),
        }
    }

    /// The tag the view gives a variant, if it reads (or writes) it.
    fn tag(&self, v: &'s VariantDef) -> Option<&'s str> {
        match self.view {
            View::Receiver => v.receiver.first().map(String::as_str),
            View::Sender => v.sender.as_deref(),
        }
    }

    fn variant(&self, e: &'s EnumDef, tag: &str) -> Option<&'s VariantDef> {
        e.tagged_variants().find(|v| match self.view {
            View::Receiver => v.receiver.iter().any(|t| t == tag),
            View::Sender => v.sender.as_deref() == Some(tag),
        })
    }

    /// The place a variant's content takes.
    fn content(v: &'s VariantDef) -> Option<At<'s>> {
        match &v.kind {
            VariantDefKind::Unit => None,
            VariantDefKind::Newtype(ty) => Some(At::Ty(ty)),
            VariantDefKind::Tuple(items) => Some(At::Items(items)),
            VariantDefKind::Struct(s) => Some(At::Struct(s)),
        }
    }

    /// A field of one of the enum's struct variants named `name` (an internally tagged or
    /// untagged enum's fields sit in the enum's own object): the first variant that has one.
    fn variant_field(&self, e: &'s EnumDef, name: &str) -> Option<&'s FieldDef> {
        e.variants.iter().find_map(|v| match &v.kind {
            VariantDefKind::Struct(s) => self.field(s, name),
            _ => None,
        })
    }

    fn locate(&self, pointer: &str) -> Spot<'s> {
        let mut at = At::Ty(&self.schema.root);
        let mut field = None;
        for token in tokens(pointer) {
            field = None;
            at = self.settle(at);
            let next = match at {
                At::Struct(s) => match self.field(s, &token) {
                    Some(f) => {
                        field = Some(f);
                        Some(At::Ty(&f.ty))
                    }
                    None => s.extra.as_ref().map(At::Ty),
                },
                At::Items(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i))
                    .map(At::Ty),
                At::Tag(_) => None,
                At::Ty(ty) => self.step(ty, &token, &mut field),
            };
            match next {
                Some(next) => at = next,
                None => {
                    let unknown_in = match at {
                        At::Struct(s) => Some(s),
                        _ => None,
                    };
                    return Spot {
                        at: None,
                        field: None,
                        unknown_in,
                    };
                }
            }
        }
        Spot {
            at: Some(at),
            field,
            unknown_in: None,
        }
    }

    /// One step from a value of `ty` (settled: no option, newtype or struct).
    fn step(&self, ty: &'s Type, token: &str, field: &mut Option<&'s FieldDef>) -> Option<At<'s>> {
        match ty {
            Type::List(item) | Type::Set(item) | Type::Array(item, _) => {
                token.parse::<usize>().ok().map(|_| At::Ty(item))
            }
            Type::Tuple(items) => token
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .map(At::Ty),
            Type::Map(_, value) => Some(At::Ty(value)),
            Type::Named(_) => {
                let e = self.enum_of(ty)?;
                match &e.repr {
                    Repr::External => self.variant(e, token).and_then(Self::content),
                    Repr::Internal { tag } if tag == token => Some(At::Tag(e)),
                    Repr::Adjacent { tag, .. } if tag == token => Some(At::Tag(e)),
                    Repr::Adjacent { .. } => None,
                    Repr::Internal { .. } | Repr::Untagged => {
                        let f = self.variant_field(e, token)?;
                        *field = Some(f);
                        Some(At::Ty(&f.ty))
                    }
                }
            }
            _ => None,
        }
    }

    fn expected(&self, at: At<'s>, field: Option<&'s FieldDef>) -> Expected {
        let ty = match at {
            At::Ty(ty) => ty.to_string(),
            At::Struct(_) => field.map_or_else(|| "object".to_owned(), |f| f.ty.to_string()),
            At::Items(items) => format!("{} items", items.len()),
            At::Tag(_) => "tag".to_owned(),
        };
        let mut expected = Expected {
            ty,
            json: String::new(),
            allowed: Vec::new(),
            required: Vec::new(),
        };
        expected.json = self.describe(at, &mut expected, true);
        if let Some(f) = field {
            let required = match self.view {
                View::Receiver => f.receiver.as_ref().is_some_and(|r| r.required),
                View::Sender => f
                    .sender
                    .as_ref()
                    .is_some_and(|w| w.emit == contract_schema::model::Emit::Always),
            };
            expected.json.push_str(if required {
                "; required"
            } else {
                "; may be absent"
            });
        }
        expected
    }

    /// `at` in words; `top` fills the lists of `expected` (the allowed values, the required
    /// members), which only the place itself does, not the types inside it.
    fn describe(&self, at: At<'s>, expected: &mut Expected, top: bool) -> String {
        let nullable = matches!(at, At::Ty(Type::Option(_)));
        let text = match self.settle(at) {
            At::Struct(s) => self.describe_struct(s, expected, top),
            At::Items(items) => format!(
                "an array of {} items: [{}]",
                items.len(),
                self.briefs(items)
            ),
            At::Tag(e) => {
                let tags = self.tags(e);
                let text = format!("a string, one of {}", quoted_list(&tags, e.variants.len()));
                if top {
                    expected.allowed = tags.iter().map(|t| (*t).to_owned()).collect();
                }
                text
            }
            At::Ty(ty) => self.describe_type(ty, expected, top),
        };
        if nullable && text != "null" {
            format!("{text}, or null")
        } else {
            text
        }
    }

    fn describe_type(&self, ty: &'s Type, expected: &mut Expected, top: bool) -> String {
        match ty {
            Type::Unit => "null".to_owned(),
            Type::Bool => "true or false".to_owned(),
            Type::Int(kind) => format!(
                "an integer from {} to {}",
                IntKind::min(*kind),
                IntKind::max(*kind)
            ),
            Type::Float(_) => "a number".to_owned(),
            Type::Char => "a string of exactly one character".to_owned(),
            Type::String(format) => match format.as_str() {
                Some(name) => format!("a string in the {name} format"),
                None => "a string".to_owned(),
            },
            Type::Any => "any JSON value".to_owned(),
            Type::Option(inner) => self.describe(At::Ty(inner), expected, top),
            Type::List(item) => format!("an array, each item {}", self.brief(item)),
            Type::Set(item) => format!("an array of distinct items, each {}", self.brief(item)),
            Type::Array(item, n) => {
                format!("an array of exactly {n} items, each {}", self.brief(item))
            }
            Type::Tuple(items) => {
                format!(
                    "an array of {} items: [{}]",
                    items.len(),
                    self.briefs(items)
                )
            }
            Type::Map(key, value) => {
                let keys = match &**key {
                    Type::String(contract_schema::model::StringFormat::Plain) => String::new(),
                    key => format!(" whose keys read as {}", self.brief(key)),
                };
                format!(
                    "an object{keys} whose values are each {}",
                    self.brief(value)
                )
            }
            Type::Constrained(c) => describe_constraint(c),
            Type::Named(_) => match self.enum_of(ty) {
                Some(e) => self.describe_enum(e, expected, top),
                // A named type the schema does not define: its name is all there is.
                None => format!("a {ty}"),
            },
        }
    }

    fn describe_struct(&self, s: &'s StructDef, expected: &mut Expected, top: bool) -> String {
        let mut members = Vec::new();
        let mut required = Vec::new();
        for f in &s.fields {
            let Some(name) = self.field_name(f) else {
                continue;
            };
            let must = match self.view {
                View::Receiver => f.receiver.as_ref().is_some_and(|r| r.required),
                View::Sender => f
                    .sender
                    .as_ref()
                    .is_some_and(|w| w.emit == contract_schema::model::Emit::Always),
            };
            if must {
                required.push(name);
            }
            members.push((name, must, &f.ty));
        }
        let mut text = String::from("an object");
        if members.is_empty() {
            text.push_str(" with no members");
        } else {
            text.push_str(" with members ");
            for (i, (name, must, ty)) in members.iter().take(MAX_NAMED).enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                let _ = write!(
                    text,
                    "{name} ({}{})",
                    if *must { "required " } else { "" },
                    ty
                );
            }
            if members.len() > MAX_NAMED {
                let _ = write!(text, ", and {} more", members.len() - MAX_NAMED);
            }
        }
        match s.unknown {
            Unknown::Deny => text.push_str("; no other member"),
            Unknown::Capture => {
                if let Some(extra) = &s.extra {
                    let _ = write!(text, "; other members are {}", self.brief(extra));
                }
            }
            Unknown::Ignore => {}
        }
        if top {
            expected.required = required
                .iter()
                .take(MAX_NAMED)
                .map(|n| (*n).to_owned())
                .collect();
        }
        text
    }

    fn tags(&self, e: &'s EnumDef) -> Vec<&'s str> {
        e.tagged_variants()
            .filter(|v| !v.other)
            .filter_map(|v| self.tag(v))
            .take(MAX_NAMED)
            .collect()
    }

    fn describe_enum(&self, e: &'s EnumDef, expected: &mut Expected, top: bool) -> String {
        let tags = self.tags(e);
        let count = e.tagged_variants().filter(|v| !v.other).count();
        let list = quoted_list(&tags, count);
        let catch_all = if e.catch_all().is_some() {
            " (any other string is read too)"
        } else {
            ""
        };
        let text = match &e.repr {
            Repr::External if e.is_string_enum() => format!("one of {list}{catch_all}"),
            Repr::External => format!(
                "a variant of {count}: a string for a variant without content, else an object \
                 with exactly one key, the variant's name; the variants are {list}"
            ),
            Repr::Internal { tag } => {
                format!("an object whose member \"{tag}\" is one of {list}, beside the variant's members")
            }
            Repr::Adjacent { tag, content } => format!(
                "an object whose member \"{tag}\" is one of {list} and whose member \
                 \"{content}\" holds the variant's content"
            ),
            Repr::Untagged => {
                let forms: Vec<String> = e
                    .variants
                    .iter()
                    .take(MAX_NAMED)
                    .map(|v| match &v.kind {
                        VariantDefKind::Unit => "null".to_owned(),
                        VariantDefKind::Newtype(ty) => self.brief(ty),
                        VariantDefKind::Tuple(items) => format!("[{}]", self.briefs(items)),
                        VariantDefKind::Struct(_) => format!("the object of {}", v.rust_name),
                    })
                    .collect();
                format!("any one of these forms: {}", forms.join("; "))
            }
        };
        if top && !matches!(e.repr, Repr::Untagged) {
            expected.allowed = tags.iter().map(|t| (*t).to_owned()).collect();
        }
        text
    }

    /// A type inside another, in a few words: scalars said in full, the rest by canonical type.
    fn brief(&self, ty: &'s Type) -> String {
        match ty {
            Type::Unit
            | Type::Bool
            | Type::Int(_)
            | Type::Float(_)
            | Type::Char
            | Type::String(_)
            | Type::Any
            | Type::Constrained(_) => {
                let mut scratch = Expected {
                    ty: String::new(),
                    json: String::new(),
                    allowed: Vec::new(),
                    required: Vec::new(),
                };
                self.describe_type(ty, &mut scratch, false)
            }
            Type::Option(inner) => format!("{} or null", self.brief(inner)),
            ty => ty.to_string(),
        }
    }

    fn briefs(&self, items: &'s [Type]) -> String {
        items
            .iter()
            .map(|ty| self.brief(ty))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `"a", "b", "c"`, and how many more when `all` exceeds the names given.
fn quoted_list(names: &[&str], all: usize) -> String {
    let mut text = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        // A name of the contract, quoted as JSON writes it.
        text.push_str(&serde_json::to_string(name).unwrap_or_default());
    }
    if all > names.len() {
        let _ = write!(text, ", and {} more", all - names.len());
    }
    if names.is_empty() {
        text.push_str("no value");
    }
    text
}

fn describe_constraint(c: &Constraint) -> String {
    match c {
        Constraint::Int { values, .. } => format!("an integer in {values}"),
        Constraint::String(s) => {
            let mut text = match s.format.as_str() {
                Some(name) => format!("a string in the {name} format"),
                None => "a string".to_owned(),
            };
            match (s.length.min, s.length.max) {
                (0, None) => {}
                (min, None) => {
                    let _ = write!(text, " of at least {min} characters");
                }
                (0, Some(max)) => {
                    let _ = write!(text, " of at most {max} characters");
                }
                (min, Some(max)) if min == max => {
                    let _ = write!(text, " of exactly {min} characters");
                }
                (min, Some(max)) => {
                    let _ = write!(text, " of {min} to {max} characters");
                }
            }
            if let Some(pattern) = &s.pattern {
                let _ = write!(text, " matching the pattern {pattern}");
            }
            text
        }
    }
}
