//! The walk over the receiver view that writes a dialect's schema, narrowing or refusing as
//! the dialect's [`Rules`] say, and counting what the dialect limits.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::cycles::cycles;
use super::outcome::{DialectExport, DialectProblem, Narrowing, NarrowingKind, Rule};
use super::rules::{ItemCounts, Recursion, Rules};
use crate::json_schema::def_keys;
use crate::json_schema::keywords::{int_schema, int_value, keywords, obj};
use crate::model::{
    Body, Constraint, EnumDef, Repr, Schema, StringFormat, StructDef, Type, Unknown, VariantDefKind,
};

/// Sets at most this large are written as an `enum` of their values.
const SMALL_SET: u128 = 256;

/// How many newtypes the root is followed through.
const NEWTYPE_HOPS: usize = 64;

/// A named type's deepest object level and its references, each at the level it sits.
type Levels = (usize, Vec<(usize, String)>);

struct Writer<'a> {
    rules: &'static Rules,
    schema: &'a Schema,
    keys: BTreeMap<String, String>,
    /// The named type written at the root, referenced as `#`.
    root_name: Option<String>,
    cycles: HashMap<String, usize>,
    /// The cycle of the named type being written, if it is on one.
    current_cycle: Option<usize>,
    pointer: String,
    /// Inside a property that is not required (of the named type being written).
    under_optional: bool,
    /// Object nesting inside the named type being written.
    depth: usize,
    /// Per named type (`None` for the root): its deepest object level and its references,
    /// each at the level it sits.
    levels: HashMap<Option<String>, Levels>,
    current: Option<String>,
    queue: Vec<String>,
    queued: HashSet<String>,
    warnings: Vec<Narrowing>,
    problems: Vec<DialectProblem>,
    properties: usize,
    enum_values: usize,
    text: usize,
    optional: usize,
    unions: usize,
}

/// Writes the dialect's document, or every problem.
pub(super) fn write(
    schema: &Schema,
    rules: &'static Rules,
) -> Result<DialectExport, Vec<DialectProblem>> {
    let mut w = Writer {
        rules,
        schema,
        keys: def_keys(schema.types.keys()),
        root_name: None,
        cycles: cycles(schema),
        current_cycle: None,
        pointer: String::new(),
        under_optional: false,
        depth: 0,
        levels: HashMap::new(),
        current: None,
        queue: Vec::new(),
        queued: HashSet::new(),
        warnings: Vec::new(),
        problems: Vec::new(),
        properties: 0,
        enum_values: 0,
        text: 0,
        optional: 0,
        unions: 0,
    };
    // The root, through newtypes, written at the top.
    let mut root = &schema.root;
    for _ in 0..NEWTYPE_HOPS {
        match root {
            Type::Named(name) => match schema.types.get(name).map(|d| &d.body) {
                Some(Body::Newtype(inner)) => root = inner,
                _ => break,
            },
            _ => break,
        }
    }
    let mut doc = match root {
        Type::Named(name) if schema.types.contains_key(name) => {
            w.root_name = Some(name.clone());
            w.queued.insert(name.clone());
            w.current_cycle = w.cycles.get(name).copied();
            w.def_body(name)
        }
        other => w.ty(other),
    };
    w.finish_levels();
    let root_is_object = doc.get("type") == Some(&Value::from("object"))
        && !doc.contains_key("anyOf")
        && !doc.contains_key("$ref");
    if rules.object_root && !root_is_object {
        w.problem_at("", Rule::RootNotObject);
    }
    let mut defs = Map::new();
    while let Some(name) = w.queue.pop() {
        let key = w.keys.get(&name).cloned().unwrap_or_else(|| name.clone());
        w.text += key.len();
        w.current = Some(name.clone());
        w.current_cycle = w.cycles.get(&name).copied();
        w.pointer = format!("/$defs/{}", escape(&key));
        w.depth = 0;
        w.under_optional = false;
        let body = w.def_body(&name);
        w.finish_levels();
        defs.insert(key, Value::Object(body));
    }
    w.pointer.clear();
    if !defs.is_empty() {
        doc.insert("$defs".into(), Value::Object(defs));
    }
    w.check_limits();
    if w.problems.is_empty() {
        Ok(DialectExport {
            schema: Value::Object(doc),
            warnings: w.warnings,
        })
    } else {
        Err(w.problems)
    }
}

/// A JSON-pointer token (borrowed when nothing needs escaping: the walk appends two per
/// field, `properties` and its key).
fn escape(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1").into()
    } else {
        token.into()
    }
}

impl Writer<'_> {
    /// Runs `f` with `token` appended to the pointer.
    fn at<R>(&mut self, token: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        let len = self.pointer.len();
        self.pointer.push('/');
        self.pointer.push_str(&escape(token));
        let out = f(self);
        self.pointer.truncate(len);
        out
    }

    fn problem(&mut self, rule: Rule) {
        self.problems.push(DialectProblem {
            pointer: self.pointer.clone(),
            rule,
        });
    }

    fn problem_at(&mut self, pointer: &str, rule: Rule) {
        self.problems.push(DialectProblem {
            pointer: pointer.to_owned(),
            rule,
        });
    }

    fn narrow(&mut self, kind: NarrowingKind) {
        self.warnings.push(Narrowing {
            pointer: self.pointer.clone(),
            kind,
        });
    }

    /// Records the named type just written: its deepest level and its references.
    fn finish_levels(&mut self) {
        let entry = self.levels.entry(self.current.clone()).or_default();
        entry.0 = entry.0.max(self.depth);
    }

    /// The body of a named type, in the receiver view.
    fn def_body(&mut self, name: &str) -> Map<String, Value> {
        let Some(def) = self.schema.types.get(name) else {
            return obj(json!({ "type": "null" }));
        };
        let mut out = match &def.body {
            Body::Struct(s) => self.struct_schema(s, &[]),
            Body::Enum(e) => self.enum_schema(e),
            Body::Newtype(inner) => self.ty(inner),
            Body::Views { receiver, .. } => self.ty(receiver),
        };
        if !def.doc.is_empty() && !out.contains_key("$ref") {
            out.insert("description".into(), def.doc.clone().into());
        }
        out
    }

    /// A reference to a named type, queued for `$defs`.
    fn reference(&mut self, name: &str) -> Map<String, Value> {
        if !self.schema.types.contains_key(name) {
            // The model always holds its named types; nothing to refer to otherwise.
            self.problem(Rule::NoValue);
            return obj(json!({ "type": "null" }));
        }
        if let (Some(cycle), Some(current)) = (self.cycles.get(name), self.current_cycle) {
            if *cycle == current {
                match self.rules.recursion {
                    Recursion::Allowed => {}
                    Recursion::UnderOptionalOnly if self.under_optional => {}
                    Recursion::UnderOptionalOnly | Recursion::Refused => {
                        self.problem(Rule::Recursion);
                    }
                }
            }
        }
        let depth = self.depth;
        self.levels
            .entry(self.current.clone())
            .or_default()
            .1
            .push((depth, name.to_owned()));
        if self.root_name.as_deref() == Some(name) {
            return obj(json!({ "$ref": "#" }));
        }
        if self.queued.insert(name.to_owned()) {
            self.queue.push(name.to_owned());
        }
        let key = self.keys.get(name).map_or(name, String::as_str);
        keywords([("$ref", format!("#/$defs/{key}").into())])
    }

    /// The schema of a type on the wire, as the receiver reads it.
    fn ty(&mut self, ty: &Type) -> Map<String, Value> {
        match ty {
            Type::Unit => obj(json!({ "type": "null" })),
            Type::Bool => obj(json!({ "type": "boolean" })),
            Type::Int(kind) => {
                if !self.rules.int_bounds {
                    self.problem(Rule::IntRangeUnstatable);
                }
                int_schema(*kind)
            }
            Type::Float(_) => obj(json!({ "type": "number" })),
            Type::Char => {
                if !self.rules.string_lengths {
                    self.problem(Rule::StringLengthUnstatable);
                }
                obj(json!({ "type": "string", "minLength": 1, "maxLength": 1 }))
            }
            Type::String(format) => self.string(*format),
            Type::Any => {
                self.narrow(NarrowingKind::AnyAsString);
                obj(json!({ "type": "string" }))
            }
            Type::Option(inner) => {
                let inner = self.ty(inner);
                self.nullable(inner)
            }
            Type::List(item) => {
                let items = self.at("items", |w| w.ty(item));
                keywords([("type", "array".into()), ("items", Value::Object(items))])
            }
            Type::Set(item) => {
                if !self.rules.unique_items {
                    self.problem(Rule::SetUnstatable);
                }
                let items = self.at("items", |w| w.ty(item));
                keywords([
                    ("type", "array".into()),
                    ("items", Value::Object(items)),
                    ("uniqueItems", true.into()),
                ])
            }
            Type::Array(item, n) => {
                if self.rules.item_counts != ItemCounts::Any {
                    self.problem(Rule::ArrayLengthUnstatable);
                }
                let items = self.at("items", |w| w.ty(item));
                keywords([
                    ("type", "array".into()),
                    ("items", Value::Object(items)),
                    ("minItems", (*n).into()),
                    ("maxItems", (*n).into()),
                ])
            }
            Type::Tuple(items) => {
                if !self.rules.prefix_items {
                    self.problem(Rule::TupleUnstatable);
                }
                if items.is_empty() {
                    return obj(json!({ "type": "array", "maxItems": 0 }));
                }
                let prefix: Vec<Value> = self.at("prefixItems", |w| {
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, t)| Value::Object(w.at(&i.to_string(), |w| w.ty(t))))
                        .collect()
                });
                keywords([
                    ("type", "array".into()),
                    ("prefixItems", Value::Array(prefix)),
                    ("minItems", items.len().into()),
                    ("maxItems", items.len().into()),
                ])
            }
            Type::Map(key, value) => {
                let plain_keys = matches!(**key, Type::String(StringFormat::Plain) | Type::Any);
                if !self.rules.free_keys || !plain_keys {
                    self.problem(Rule::MapUnstatable);
                }
                let values = self.at("additionalProperties", |w| w.ty(value));
                keywords([
                    ("type", "object".into()),
                    ("additionalProperties", Value::Object(values)),
                ])
            }
            Type::Named(name) => self.reference(name),
            Type::Constrained(c) => self.constrained(c),
        }
    }

    /// A string of a format.
    fn string(&mut self, format: StringFormat) -> Map<String, Value> {
        let mut out = obj(json!({ "type": "string" }));
        if format == StringFormat::Plain {
            return out;
        }
        match format.as_str() {
            Some(name) if self.rules.formats.contains(&name) && standard_format(format) => {
                out.insert("format".into(), name.into());
            }
            _ => self.problem(Rule::FormatUnsupported),
        }
        out
    }

    fn constrained(&mut self, c: &Constraint) -> Map<String, Value> {
        match c {
            Constraint::Int { values, .. } => {
                if let Some(small) = values.small_finite(SMALL_SET) {
                    let listed: Vec<Value> = small.into_iter().filter_map(int_value).collect();
                    self.enum_values += listed.len();
                    self.text += listed.iter().map(|v| v.to_string().len()).sum::<usize>();
                    return keywords([("type", "integer".into()), ("enum", Value::Array(listed))]);
                }
                if !self.rules.int_bounds {
                    self.problem(Rule::IntRangeUnstatable);
                    return obj(json!({ "type": "integer" }));
                }
                let ranges = values.ranges();
                if ranges.len() > 1 {
                    self.narrow(NarrowingKind::IntGapsDropped);
                }
                // The last range: the positive values of a set without zero.
                let widest = ranges.last().copied();
                let mut out = obj(json!({ "type": "integer" }));
                if let Some(r) = widest {
                    if let Some(min) = int_value(r.min) {
                        out.insert("minimum".into(), min);
                    }
                    if let Some(max) = int_value(r.max) {
                        out.insert("maximum".into(), max);
                    }
                }
                out
            }
            Constraint::String(s) => {
                let mut out = self.string(s.format);
                if s.length.min > 0 || s.length.max.is_some() {
                    if !self.rules.string_lengths {
                        self.problem(Rule::StringLengthUnstatable);
                    }
                    if s.length.min > 0 {
                        out.insert("minLength".into(), s.length.min.into());
                    }
                    if let Some(max) = s.length.max {
                        out.insert("maxLength".into(), max.into());
                    }
                }
                if let Some(pattern) = &s.pattern {
                    if !self.rules.pattern {
                        self.problem(Rule::PatternUnstatable);
                    }
                    out.insert("pattern".into(), pattern.as_str().into());
                }
                out
            }
        }
    }

    /// The schema or `null`.
    fn nullable(&mut self, inner: Map<String, Value>) -> Map<String, Value> {
        if inner.get("type") == Some(&Value::from("null")) {
            return inner;
        }
        self.unions += 1;
        let simple = ["enum", "const", "anyOf", "$ref"]
            .iter()
            .all(|k| !inner.contains_key(*k));
        match inner.get("type") {
            Some(Value::String(ty)) if simple && !self.rules.null_as_any_of => {
                let ty = ty.clone();
                let mut out = inner;
                out.insert("type".into(), json!([ty, "null"]));
                out
            }
            _ => keywords([(
                "anyOf",
                Value::Array(vec![Value::Object(inner), json!({ "type": "null" })]),
            )]),
        }
    }

    /// A string constant: a tag or a unit variant's name.
    fn constant(&mut self, name: &str) -> Map<String, Value> {
        self.enum_values += 1;
        self.text += name.len();
        if self.rules.const_keyword {
            obj(json!({ "type": "string", "const": name }))
        } else {
            obj(json!({ "type": "string", "enum": [name] }))
        }
    }

    /// An object of these properties, all required but those named in `optional`, closed.
    fn object(
        &mut self,
        properties: Map<String, Value>,
        required: Vec<String>,
        extra: Option<Value>,
    ) -> Map<String, Value> {
        self.properties += properties.len();
        self.text += properties.keys().map(String::len).sum::<usize>();
        let mut out = keywords([
            ("type", "object".into()),
            ("properties", Value::Object(properties)),
        ]);
        out.insert("required".into(), required.into());
        out.insert(
            "additionalProperties".into(),
            extra.unwrap_or(Value::Bool(false)),
        );
        out
    }

    /// A struct's fields beside the tags of the internally tagged enum it is a variant of.
    fn struct_schema(&mut self, def: &StructDef, tags: &[(String, String)]) -> Map<String, Value> {
        if !def.flattened.is_empty() {
            self.problem(Rule::FlattenedEnum);
        }
        self.depth += 1;
        let deepest = self.levels.entry(self.current.clone()).or_default();
        deepest.0 = deepest.0.max(self.depth);
        // The properties in a list, their keys borrowed from the contract, made a map once at
        // the end (a map collected from a list is sorted once and filled in one pass, where
        // inserting each key would search a growing tree: 10,000 fields cost more than ten
        // times 1,000), its keys then allocated side by side.
        let mut properties: Vec<(&str, Value)> = Vec::with_capacity(tags.len() + def.fields.len());
        let mut taken: HashSet<&str> = HashSet::with_capacity(tags.len() + def.fields.len());
        let mut required = Vec::new();
        for (tag, name) in tags {
            let schema = self.at("properties", |w| w.at(tag, |w| w.constant(name)));
            // One tag at most (an internally tagged variant's): never repeated.
            taken.insert(tag);
            properties.push((tag, Value::Object(schema)));
            required.push(tag.clone());
        }
        let outer_optional = self.under_optional;
        for field in &def.fields {
            let Some(receiver) = &field.receiver else {
                continue;
            };
            let key = receiver.name.as_str();
            if !taken.insert(key) {
                // serde takes the tag first: the field is never read under it.
                if receiver.required {
                    self.at("properties", |w| w.at(key, |w| w.problem(Rule::NoValue)));
                }
                continue;
            }
            let schema = self.at("properties", |w| {
                w.at(key, |w| {
                    if !receiver.aliases.is_empty() {
                        w.narrow(NarrowingKind::AliasesDropped);
                    }
                    let option = matches!(field.ty, Type::Option(_));
                    let mut optional = !receiver.required;
                    if optional && !w.rules.all_required {
                        if w.rules.max_optional.is_some_and(|max| w.optional >= max) {
                            w.narrow(NarrowingKind::OptionalLimit);
                            optional = false;
                        } else {
                            w.optional += 1;
                        }
                    }
                    let schema = if w.rules.all_required {
                        if optional && !option {
                            w.narrow(NarrowingKind::AbsenceDropped);
                        }
                        required.push(key.to_owned());
                        w.ty(&field.ty)
                    } else {
                        if !optional {
                            required.push(key.to_owned());
                        }
                        w.under_optional = outer_optional || optional;
                        // Absence reads as `None`: the model leaves the field out instead
                        // of writing `null`.
                        let ty = match (&field.ty, !receiver.required) {
                            (Type::Option(inner), true) => &**inner,
                            (ty, _) => ty,
                        };
                        let schema = w.ty(ty);
                        w.under_optional = outer_optional;
                        schema
                    };
                    let mut schema = schema;
                    if !field.doc.is_empty() && !schema.contains_key("$ref") {
                        schema.insert("description".into(), field.doc.clone().into());
                    }
                    schema
                })
            });
            properties.push((key, Value::Object(schema)));
        }
        let properties: Map<String, Value> = properties
            .into_iter()
            .map(|(key, schema)| (key.to_owned(), schema))
            .collect();
        let extra = match (&def.unknown, &def.extra) {
            (Unknown::Capture, Some(extra)) if self.rules.free_keys => Some(Value::Object(
                self.at("additionalProperties", |w| w.ty(extra)),
            )),
            (Unknown::Capture, Some(_)) => {
                self.narrow(NarrowingKind::CapturedKeysDropped);
                None
            }
            _ => None,
        };
        self.depth -= 1;
        self.object(properties, required, extra)
    }

    /// An enum in serde's representation, its variants as `anyOf` alternatives: the tagged
    /// variants first, together, then each untagged variant's content (as the import reads
    /// an enum with untagged variants).
    fn enum_schema(&mut self, def: &EnumDef) -> Map<String, Value> {
        let mut names: Vec<Value> = Vec::new();
        let mut tagged: Vec<Value> = Vec::new();
        // Unit variants' names, after the other alternatives: an `anyOf` whose first
        // alternative is a string enum is read as that enum with untagged variants.
        let mut units: Vec<Value> = Vec::new();
        let mut untagged: Vec<Value> = Vec::new();
        let any_untagged = def.repr == Repr::Untagged || def.variants.iter().any(|v| v.untagged);
        let any_tagged = def.repr != Repr::Untagged && def.variants.iter().any(|v| !v.untagged);
        // Where the tagged variants sit: their own `anyOf` inside the first alternative when
        // untagged ones follow.
        let tagged_at = if any_untagged && any_tagged {
            "/anyOf/0/anyOf"
        } else {
            "/anyOf"
        };
        for variant in &def.variants {
            let Some(name) = variant.receiver.first() else {
                continue;
            };
            if variant.other {
                self.narrow(NarrowingKind::CatchAllDropped);
                continue;
            }
            if variant.receiver.len() > 1 && !variant.untagged && def.repr != Repr::Untagged {
                self.narrow(NarrowingKind::AliasesDropped);
            }
            if variant.untagged || def.repr == Repr::Untagged {
                let index = untagged.len() + usize::from(any_tagged);
                if matches!(variant.kind, VariantDefKind::Unit) {
                    // Read from `null`, which the import takes for an `Option`: the model is
                    // not offered it.
                    self.at("anyOf", |w| {
                        w.at(&index.to_string(), |w| {
                            w.narrow(NarrowingKind::NullVariantDropped)
                        })
                    });
                    continue;
                }
                let schema = self.at("anyOf", |w| {
                    w.at(&index.to_string(), |w| w.content(&variant.kind))
                });
                untagged.push(Value::Object(schema));
                continue;
            }
            let unit = matches!(
                (&def.repr, &variant.kind),
                (Repr::External, VariantDefKind::Unit)
            );
            let index = tagged.len().to_string();
            let len = self.pointer.len();
            self.pointer.push_str(tagged_at);
            let schema = self.at(&index, |w| match (&def.repr, &variant.kind) {
                (Repr::External, VariantDefKind::Unit) => {
                    names.push(name.as_str().into());
                    w.constant(name)
                }
                (Repr::External, kind) => {
                    w.depth += 1;
                    let content = w.at("properties", |w| w.at(name, |w| w.content(kind)));
                    w.depth -= 1;
                    let mut properties = Map::new();
                    properties.insert(name.clone(), Value::Object(content));
                    w.object(properties, vec![name.clone()], None)
                }
                (Repr::Internal { tag }, kind) => w.internal(tag, name, kind),
                (Repr::Adjacent { tag, content }, kind) => {
                    w.depth += 1;
                    let mut properties = Map::new();
                    let mut required = vec![tag.clone()];
                    let t = w.at("properties", |w| w.at(tag, |w| w.constant(name)));
                    properties.insert(tag.clone(), Value::Object(t));
                    if !matches!(kind, VariantDefKind::Unit) {
                        let c = w.at("properties", |w| w.at(content, |w| w.content(kind)));
                        properties.insert(content.clone(), Value::Object(c));
                        required.push(content.clone());
                    }
                    w.depth -= 1;
                    w.object(properties, required, None)
                }
                (Repr::Untagged, kind) => w.content(kind),
            });
            self.pointer.truncate(len);
            if unit {
                units.push(Value::Object(schema));
            } else {
                tagged.push(Value::Object(schema));
            }
        }
        let only_names = !names.is_empty() && tagged.is_empty();
        let first_read = def
            .variants
            .iter()
            .find(|v| !v.receiver.is_empty() && !v.other && !v.untagged)
            .map(|v| v.rust_name.clone());
        tagged.extend(units);
        let tagged_part = if only_names {
            // A string enum: one `enum` of the names (the constants counted once).
            if let (Some(long), Some(most)) = (self.rules.long_enum, self.rules.long_enum_text) {
                let chars: usize = names.iter().filter_map(Value::as_str).map(str::len).sum();
                if names.len() > long && chars > most {
                    self.problem(Rule::TooMuchText);
                }
            }
            Some(keywords([
                ("type", "string".into()),
                ("enum", Value::Array(names)),
            ]))
        } else if tagged.is_empty() {
            None
        } else {
            // Even one alternative stays an `anyOf`, titled with its variant's name: an
            // untitled alternative alone is read as its own type (an object of one key, a
            // struct).
            if let ([Value::Object(one)], Some(v)) = (tagged.as_mut_slice(), first_read) {
                one.insert("title".into(), v.into());
            }
            self.unions += 1;
            Some(keywords([("anyOf", Value::Array(tagged))]))
        };
        match (tagged_part, untagged.len()) {
            (None, 0) => {
                self.problem(Rule::NoValue);
                obj(json!({ "type": "null" }))
            }
            (Some(part), 0) => part,
            (None, 1) => match untagged.pop() {
                Some(Value::Object(one)) => one,
                _ => Map::new(),
            },
            (part, _) => {
                self.unions += 1;
                let mut all: Vec<Value> = part.into_iter().map(Value::Object).collect();
                all.extend(untagged);
                keywords([("anyOf", Value::Array(all))])
            }
        }
    }

    /// A variant's content on its own (externally and adjacently tagged, untagged).
    fn content(&mut self, kind: &VariantDefKind) -> Map<String, Value> {
        match kind {
            VariantDefKind::Unit => obj(json!({ "type": "null" })),
            VariantDefKind::Newtype(t) => self.ty(t),
            VariantDefKind::Tuple(ts) => self.ty(&Type::Tuple(ts.clone())),
            VariantDefKind::Struct(s) => self.struct_schema(s, &[]),
        }
    }

    /// An internally tagged variant: the tag beside the content's fields.
    fn internal(&mut self, tag: &str, name: &str, kind: &VariantDefKind) -> Map<String, Value> {
        let tags = [(tag.to_owned(), name.to_owned())];
        match kind {
            VariantDefKind::Unit => self.struct_schema(&StructDef::default(), &tags),
            VariantDefKind::Struct(s) => self.struct_schema(s, &tags),
            VariantDefKind::Newtype(Type::Named(inner)) => {
                match self.schema.types.get(inner).map(|d| &d.body) {
                    Some(Body::Struct(s)) => self.struct_schema(s, &tags),
                    _ => {
                        self.problem(Rule::InternalNewtype);
                        Map::new()
                    }
                }
            }
            VariantDefKind::Newtype(_) | VariantDefKind::Tuple(_) => {
                self.problem(Rule::InternalNewtype);
                Map::new()
            }
        }
    }

    /// The dialect's limits over the whole document.
    fn check_limits(&mut self) {
        let r = self.rules;
        if r.max_properties.is_some_and(|max| self.properties > max) {
            self.problem_at("", Rule::TooManyProperties);
        }
        if r.max_enum_values.is_some_and(|max| self.enum_values > max) {
            self.problem_at("", Rule::TooManyEnumValues);
        }
        if r.max_text.is_some_and(|max| self.text > max) {
            self.problem_at("", Rule::TooMuchText);
        }
        if r.max_unions.is_some_and(|max| self.unions > max) {
            self.problem_at("", Rule::TooManyUnions);
        }
        if let Some(max) = r.max_depth {
            if self.deepest() > max {
                self.problem_at("", Rule::TooDeep);
            }
        }
    }

    /// The deepest level of nested objects from the root, through references (a cycle is
    /// followed once).
    fn deepest(&self) -> usize {
        let mut memo: HashMap<Option<String>, usize> = HashMap::new();
        let mut on_path: HashSet<Option<String>> = HashSet::new();
        let root_key = None;
        self.depth_of(&root_key, &mut memo, &mut on_path, 0)
    }

    fn depth_of(
        &self,
        key: &Option<String>,
        memo: &mut HashMap<Option<String>, usize>,
        on_path: &mut HashSet<Option<String>>,
        hops: usize,
    ) -> usize {
        if let Some(&d) = memo.get(key) {
            return d;
        }
        let Some((own, refs)) = self.levels.get(key) else {
            return 0;
        };
        if hops > self.schema.types.len() || !on_path.insert(key.clone()) {
            return 0;
        }
        let mut deepest = *own;
        for (at, target) in refs {
            let target_key = if self.root_name.as_deref() == Some(target.as_str()) {
                None
            } else {
                Some(target.clone())
            };
            let below = self.depth_of(&target_key, memo, on_path, hops + 1);
            deepest = deepest.max(at + below);
        }
        on_path.remove(key);
        memo.insert(key.clone(), deepest);
        deepest
    }
}

/// A format JSON Schema names (the others are this crate's `x-handoff-format`).
fn standard_format(format: StringFormat) -> bool {
    matches!(
        format,
        StringFormat::Uuid
            | StringFormat::DateTime
            | StringFormat::Date
            | StringFormat::Ipv4
            | StringFormat::Ipv6
            | StringFormat::Url
    )
}
