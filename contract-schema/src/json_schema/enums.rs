//! Enums: serde's representations (externally, internally and adjacently tagged, untagged),
//! a tagged enum's untagged variants, the content of an internally tagged newtype variant
//! inlined beside the tag, and enums flattened beside a struct's fields.

use serde_json::{json, Map, Value};

use crate::model::{Body, EnumDef, FlatEnumDef, Repr, Type, VariantDef, VariantDefKind};

use super::exporter::Exporter;
use super::keywords::{at_most_one, either, obj, one_of, required_keys, unique, CATCH_ALL, RUST};
use crate::model::View;

impl Exporter<'_> {
    /// The keys a flattened enum adds beside a struct's fields, as an open subschema (the
    /// struct closes the object with `unevaluatedProperties`); `None` when it constrains
    /// nothing in this view. `rest` says what a variant that takes every key left leaves
    /// alone (see [`Rest`]).
    pub(super) fn flat_enum_schema(
        &self,
        flat: &FlatEnumDef,
        rest: &Rest,
    ) -> Option<Map<String, Value>> {
        let present = match self.view {
            View::Sender => flat.sent,
            View::Receiver => flat.read,
        };
        let (e, optional) = self.schema.flat_enum(&flat.ty).filter(|_| present)?;
        let depth = self.flat_depth.get();
        // Inlined deep enough, or an enum with untagged variants (the derive refuses to
        // flatten one, but a newtype may hold it): its keys are accepted, whatever they hold.
        if depth >= MAX_INLINE_DEPTH || (e.repr != Repr::Untagged && e.has_untagged_variants()) {
            return Some(obj(json!({ "additionalProperties": true })));
        }
        self.flat_depth.set(depth + 1);
        let out = self.flat_enum_inlined(flat, e, optional, rest);
        self.flat_depth.set(depth);
        out
    }

    /// [`Exporter::flat_enum_schema`] of the enum `e`, inlined.
    fn flat_enum_inlined(
        &self,
        flat: &FlatEnumDef,
        e: &EnumDef,
        optional: bool,
        rest: &Rest,
    ) -> Option<Map<String, Value>> {
        let variant_keys: Vec<&String> = e.variants.iter().flat_map(|v| self.tags(v)).collect();
        if optional && self.receiver() {
            // serde reads `None` whenever the enum does not read, whatever the keys hold; an
            // externally tagged enum still takes the first key naming a variant.
            if e.repr != Repr::External || variant_keys.is_empty() {
                return None;
            }
            let properties: Map<String, Value> = variant_keys
                .iter()
                .map(|k| ((*k).clone(), Value::Bool(true)))
                .collect();
            return Some(obj(json!({ "properties": properties })));
        }
        let mut out = match &e.repr {
            Repr::External => {
                let mut alternatives = Vec::new();
                for variant in &e.variants {
                    let names = self.tags(variant);
                    if names.is_empty() {
                        continue;
                    }
                    let content = self.content(&variant.kind);
                    let properties: Map<String, Value> = names
                        .iter()
                        .map(|n| ((*n).clone(), Value::Object(content.clone())))
                        .collect();
                    let mut alternative = obj(json!({ "properties": properties }));
                    if let [only] = names.as_slice() {
                        alternative.insert("required".into(), json!([only]));
                    } else {
                        let any: Vec<Value> = names.iter().map(|n| required_keys(&[n])).collect();
                        alternative.insert("anyOf".into(), any.into());
                    }
                    alternatives.push(self.annotated(variant, alternative));
                }
                let mut out = one_of(alternatives);
                // serde takes the first key naming a variant and leaves the others to the
                // struct: the schema takes one position and accepts exactly one.
                if variant_keys.len() > 1 {
                    if let Value::Object(not) = at_most_one(&variant_keys) {
                        out.insert("allOf".into(), json!([not]));
                    }
                }
                out
            }
            _ => open_object(self.enum_beside(e, &[], 0), rest),
        };
        if optional {
            // `None` writes nothing: any key the enum did not account for is then unknown.
            let schema = Value::Object(out);
            out = obj(json!({ "anyOf": [schema, {}] }));
        }
        out.insert(RUST.into(), flat.rust_name.clone().into());
        if !flat.doc.is_empty() {
            out.insert("description".into(), flat.doc.clone().into());
        }
        Some(out)
    }

    /// The tag values a variant is written (sender) or read (receiver) under; empty when never.
    pub(super) fn tags<'v>(&self, variant: &'v VariantDef) -> Vec<&'v String> {
        match self.view {
            View::Sender => variant.sender.iter().collect(),
            View::Receiver => variant.receiver.iter().collect(),
        }
    }

    pub(super) fn enum_schema(&self, def: &EnumDef) -> Map<String, Value> {
        // The tagged variants as the enum without its untagged ones, or an untagged
        // variant's content (see `EnumDef`): serde writes either, and reads a value when
        // either part reads it.
        if let Some((tagged, untagged)) = def.split_untagged() {
            return either(self.enum_schema(&tagged), self.enum_schema(&untagged));
        }
        if def.is_string_enum() {
            return self.string_enum(def);
        }
        // Every name a receiver reads as a variant: a catch-all takes any other string.
        let known: Vec<&String> = def.variants.iter().flat_map(|v| &v.receiver).collect();
        let catch_all = def.catch_all().filter(|_| self.receiver());
        let deny = def.deny_unknown_fields;
        if let Repr::Internal { tag } = &def.repr {
            return one_of(self.internal_alternatives(def, tag, &[], 0));
        }
        let mut alternatives = Vec::new();
        for variant in &def.variants {
            let tags = self.tags(variant);
            if tags.is_empty() {
                continue;
            }
            let alternative = match &def.repr {
                Repr::External => self.external(&tags, &variant.kind),
                Repr::Adjacent { tag, content } => self.adjacent(
                    &[],
                    (tag, content),
                    tag_schema(&tags),
                    Some(&variant.kind),
                    deny,
                ),
                Repr::Untagged | Repr::Internal { .. } => self.content(&variant.kind),
            };
            alternatives.push(self.annotated(variant, alternative));
        }
        if let Some(other) = catch_all {
            let unknown_tag = obj(json!({ "type": "string", "not": { "enum": known } }));
            let alternative = match &def.repr {
                Repr::Adjacent { tag, content } => {
                    self.adjacent(&[], (tag, content), unknown_tag, None, deny)
                }
                Repr::External | Repr::Untagged | Repr::Internal { .. } => unknown_tag,
            };
            let mut alternative = self.annotated(other, alternative);
            alternative.insert(CATCH_ALL.into(), true.into());
            alternatives.push(alternative);
        }
        if def.repr == Repr::Untagged {
            if alternatives.is_empty() {
                return obj(json!({ "not": {} }));
            }
            let alternatives: Vec<Value> = alternatives.into_iter().map(Value::Object).collect();
            return obj(json!({ "anyOf": alternatives }));
        }
        one_of(alternatives)
    }

    /// The alternatives of an internally tagged enum whose tag is `tag`; each object also
    /// holds `outer`, the tags of the enums this one is a newtype variant of.
    fn internal_alternatives(
        &self,
        def: &EnumDef,
        tag: &str,
        outer: &[Tag],
        depth: usize,
    ) -> Vec<Map<String, Value>> {
        let with_tag = |value: Map<String, Value>| {
            let mut tags = outer.to_vec();
            tags.push((tag.to_owned(), value));
            tags
        };
        let mut alternatives = Vec::new();
        for variant in &def.variants {
            let names = self.tags(variant);
            if names.is_empty() {
                continue;
            }
            let tags = with_tag(tag_schema(&names));
            let alternative = self.internal(&tags, &variant.kind, depth);
            alternatives.push(self.annotated(variant, alternative));
        }
        if let Some(other) = def.catch_all().filter(|_| self.receiver()) {
            let known: Vec<&String> = def.variants.iter().flat_map(|v| &v.receiver).collect();
            let unknown_tag = obj(json!({ "type": "string", "not": { "enum": known } }));
            let mut alternative = self.annotated(other, tag_only(&with_tag(unknown_tag)));
            alternative.insert(CATCH_ALL.into(), true.into());
            alternatives.push(alternative);
        }
        alternatives
    }

    /// An externally tagged enum of unit variants: a string.
    fn string_enum(&self, def: &EnumDef) -> Map<String, Value> {
        let names: Vec<&String> = def.variants.iter().flat_map(|v| self.tags(v)).collect();
        // serde maps every unknown string to the catch-all variant.
        let catch_all = def.catch_all().filter(|_| self.receiver());
        if def.variants.iter().any(|v| !v.doc.is_empty()) {
            // One alternative per variant, to carry its doc.
            let mut one_of: Vec<Value> = def
                .variants
                .iter()
                .filter_map(|v| {
                    let tags = self.tags(v);
                    (!tags.is_empty()).then(|| Value::Object(self.annotated(v, tag_schema(&tags))))
                })
                .collect();
            if let Some(other) = catch_all {
                let mut alternative =
                    self.annotated(other, obj(json!({ "not": { "enum": names } })));
                alternative.insert(CATCH_ALL.into(), true.into());
                one_of.push(Value::Object(alternative));
            }
            if !one_of.is_empty() {
                return obj(json!({ "type": "string", "oneOf": one_of }));
            }
        }
        if catch_all.is_some() {
            return obj(json!({ "type": "string", "examples": names }));
        }
        obj(json!({ "type": "string", "enum": names }))
    }

    /// A variant's alternative with its Rust name as `title` and its doc as `description`.
    fn annotated(
        &self,
        variant: &VariantDef,
        mut schema: Map<String, Value>,
    ) -> Map<String, Value> {
        schema.insert("title".into(), variant.rust_name.clone().into());
        if !variant.doc.is_empty() {
            schema.insert("description".into(), variant.doc.clone().into());
        }
        schema
    }

    /// What a variant carries, alone (untagged and externally tagged content).
    fn content(&self, kind: &VariantDefKind) -> Map<String, Value> {
        match kind {
            VariantDefKind::Unit => obj(json!({ "type": "null" })),
            VariantDefKind::Newtype(ty) => self.ty(ty),
            VariantDefKind::Tuple(items) => self.ty(&Type::Tuple(items.clone())),
            VariantDefKind::Struct(s) => self.struct_schema(s, &[]),
        }
    }

    /// `"Unit"` or `{"Variant": content}`.
    fn external(&self, tags: &[&String], kind: &VariantDefKind) -> Map<String, Value> {
        if let VariantDefKind::Unit = kind {
            return tag_schema(tags);
        }
        let content = Value::Object(self.content(kind));
        let properties: Map<String, Value> = tags
            .iter()
            .map(|t| ((*t).clone(), content.clone()))
            .collect();
        let mut out = obj(json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
        }));
        if let [only] = tags {
            out.insert("required".into(), json!([only]));
        } else {
            out.insert("minProperties".into(), 1.into());
            out.insert("maxProperties".into(), 1.into());
        }
        out
    }

    /// `{"tag": "Variant", ...fields}`, with the tags of every enclosing internally tagged
    /// enum (`tags`, outermost first).
    fn internal(&self, tags: &[Tag], kind: &VariantDefKind, depth: usize) -> Map<String, Value> {
        match kind {
            // serde ignores every other key of a unit variant, even under deny_unknown_fields.
            VariantDefKind::Unit => tag_only(tags),
            VariantDefKind::Struct(s) => self.struct_schema(s, tags),
            // serde takes the key for this enum first; the content never finds its own tag.
            VariantDefKind::Newtype(ty)
                if tags
                    .last()
                    .is_some_and(|(key, _)| self.schema.needs_taken_tag(ty, key)) =>
            {
                obj(json!({ "not": {} }))
            }
            // serde writes no `Option` beside the tags (`None` is no object to set them in,
            // and it refuses `Some` as well): a writer's variant of one has no value.
            VariantDefKind::Newtype(ty)
                if !self.receiver() && matches!(self.schema.resolve(ty), Type::Option(_)) =>
            {
                obj(json!({ "not": {} }))
            }
            VariantDefKind::Newtype(ty) => self.beside(ty, tags, depth),
            // serde cannot write tuple variants internally: the tags and an array, which no
            // object satisfies.
            VariantDefKind::Tuple(items) => {
                let mut out = tag_only(tags);
                out.insert(
                    "allOf".into(),
                    json!([self.ty(&Type::Tuple(items.clone()))]),
                );
                out
            }
        }
    }

    /// A value of `ty` written as an object beside `tags`: the content of an internally tagged
    /// newtype variant, whose own keys serde writes next to the tag. Its schema is inlined,
    /// since a `$ref` to a closed object would reject the tag.
    fn beside(&self, ty: &Type, tags: &[Tag], depth: usize) -> Map<String, Value> {
        let combined = || {
            // Not an object on the wire (serde fails to write it): the tags and the type,
            // which no value satisfies together.
            let mut out = tag_only(tags);
            out.insert("allOf".into(), json!([self.ty(ty)]));
            out
        };
        match self.schema.resolve(ty) {
            Type::Named(name) if depth < MAX_INLINE_DEPTH => {
                match self.schema.def(name).map(|d| &d.body) {
                    Some(Body::Struct(s)) => self.struct_schema(s, tags),
                    Some(Body::Enum(e)) => self.enum_beside(e, tags, depth + 1),
                    _ => combined(),
                }
            }
            // serde reads the keys beside the tags from what it buffered, as strings, which
            // an integer (or `bool`) key does not read: the receiver reads the tags alone.
            Type::Map(key, _) if self.receiver() && !self.schema.reads_buffered_string(key) => {
                let mut out = tag_only(tags);
                out.insert("additionalProperties".into(), false.into());
                out
            }
            Type::Map(_, value) => {
                let mut out = tag_only(tags);
                out.insert("additionalProperties".into(), Value::Object(self.ty(value)));
                out
            }
            // Every key beside the tags is the value's (said, so that a flattened enum's
            // variant of it takes the keys left: see `open_object`).
            Type::Any => {
                let mut out = tag_only(tags);
                out.insert("additionalProperties".into(), true.into());
                out
            }
            // serde reads a unit from what remains of the map only when nothing does.
            Type::Unit => {
                let mut out = tag_only(tags);
                out.insert("additionalProperties".into(), false.into());
                out
            }
            // serde reads the remaining map as `Some` of the inner type (and fails to write
            // either `Some` or `None` there, so only the receiver has a use for this).
            // (Bounded: a newtype of an `Option` of itself resolves to an `Option` again.)
            Type::Option(inner) if depth < MAX_INLINE_DEPTH => self.beside(inner, tags, depth + 1),
            _ => combined(),
        }
    }

    /// An enum written as an object beside `tags` (see [`Exporter::beside`]).
    fn enum_beside(&self, e: &EnumDef, tags: &[Tag], depth: usize) -> Map<String, Value> {
        if let Some((tagged, untagged)) = e.split_untagged() {
            return either(
                self.enum_beside(&tagged, tags, depth),
                self.enum_beside(&untagged, tags, depth),
            );
        }
        let known: Vec<&String> = e.variants.iter().flat_map(|v| &v.receiver).collect();
        let catch_all = e.catch_all().filter(|_| self.receiver());
        let mut alternatives = Vec::new();
        match &e.repr {
            Repr::Internal { tag } => {
                return one_of(self.internal_alternatives(e, tag, tags, depth));
            }
            Repr::Untagged => {
                for variant in e.variants.iter().filter(|v| !self.tags(v).is_empty()) {
                    let alternative = match &variant.kind {
                        // serde writes the tags alone, and cannot read them back: an untagged
                        // unit variant reads only `null`, and here it finds an empty object.
                        VariantDefKind::Unit if self.receiver() => continue,
                        VariantDefKind::Unit => tag_only(tags),
                        VariantDefKind::Newtype(ty) => self.beside(ty, tags, depth),
                        kind @ VariantDefKind::Tuple(_) => self.internal(tags, kind, depth),
                        VariantDefKind::Struct(s) => self.struct_schema(s, tags),
                    };
                    alternatives.push(self.annotated(variant, alternative));
                }
                if alternatives.is_empty() {
                    return obj(json!({ "not": {} }));
                }
                let alternatives: Vec<Value> =
                    alternatives.into_iter().map(Value::Object).collect();
                return obj(json!({ "anyOf": alternatives }));
            }
            Repr::External => {
                // One more key beside the tags: the variant's name, holding its content (a
                // unit variant holds null).
                let single_key = |mut out: Map<String, Value>| {
                    out.insert("minProperties".into(), (tags.len() + 1).into());
                    out.insert("maxProperties".into(), (tags.len() + 1).into());
                    out
                };
                for variant in &e.variants {
                    let names = self.tags(variant);
                    if names.is_empty() {
                        continue;
                    }
                    let content = self.content(&variant.kind);
                    let mut out = tag_only(tags);
                    if let Some(Value::Object(properties)) = out.get_mut("properties") {
                        for name in names {
                            properties.insert(name.clone(), Value::Object(content.clone()));
                        }
                    }
                    out.insert("additionalProperties".into(), false.into());
                    alternatives.push(self.annotated(variant, single_key(out)));
                }
                if let Some(other) = catch_all {
                    let mut out = tag_only(tags);
                    out.insert("additionalProperties".into(), json!({ "type": "null" }));
                    out.insert("propertyNames".into(), json!({ "not": { "enum": known } }));
                    let mut alternative = self.annotated(other, single_key(out));
                    alternative.insert(CATCH_ALL.into(), true.into());
                    alternatives.push(alternative);
                }
            }
            Repr::Adjacent { tag, content } => {
                let deny = e.deny_unknown_fields;
                for variant in &e.variants {
                    let names = self.tags(variant);
                    if names.is_empty() {
                        continue;
                    }
                    let out = self.adjacent(
                        tags,
                        (tag, content),
                        tag_schema(&names),
                        Some(&variant.kind),
                        deny,
                    );
                    alternatives.push(self.annotated(variant, out));
                }
                if let Some(other) = catch_all {
                    let unknown_tag = obj(json!({ "type": "string", "not": { "enum": known } }));
                    let out = self.adjacent(tags, (tag, content), unknown_tag, None, deny);
                    let mut alternative = self.annotated(other, out);
                    alternative.insert(CATCH_ALL.into(), true.into());
                    alternatives.push(alternative);
                }
            }
        }
        one_of(alternatives)
    }

    /// `{"tag": "Variant", "content": …}` beside `outer` tags; `kind` is `None` for a
    /// catch-all.
    fn adjacent(
        &self,
        outer: &[Tag],
        (tag, content_key): (&str, &str),
        tag_value: Map<String, Value>,
        kind: Option<&VariantDefKind>,
        deny_unknown: bool,
    ) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for (name, schema) in outer {
            properties.insert(name.clone(), Value::Object(schema.clone()));
            required.push(name.clone());
        }
        properties.insert(tag.to_owned(), Value::Object(tag_value));
        required.push(tag.to_owned());
        match kind {
            Some(VariantDefKind::Unit) | None => {
                // The sender writes the tag alone; the receiver also reads `"content": null`.
                if self.receiver() {
                    properties.insert(content_key.to_owned(), json!({ "type": "null" }));
                }
            }
            Some(kind) => {
                properties.insert(content_key.to_owned(), Value::Object(self.content(kind)));
                // serde reads a missing content of an `Option` as `None` (and writes `null`).
                let optional = matches!(kind, VariantDefKind::Newtype(Type::Option(_)));
                if !(optional && self.receiver()) {
                    required.push(content_key.to_owned());
                }
            }
        }
        let mut out = obj(json!({
            "type": "object",
            "properties": properties,
            "required": unique(required),
        }));
        if !self.receiver() || deny_unknown {
            out.insert("additionalProperties".into(), false.into());
        }
        out
    }
}

/// A tag key and the schema of its value.
pub(super) type Tag = (String, Map<String, Value>);

/// How many types deep the content of internally tagged newtype variants is inlined.
const MAX_INLINE_DEPTH: usize = 8;

/// An object with these tags, required.
pub(super) fn tag_only(tags: &[Tag]) -> Map<String, Value> {
    let properties: Map<String, Value> = tags
        .iter()
        .map(|(name, schema)| (name.clone(), Value::Object(schema.clone())))
        .collect();
    let required: Vec<&String> = tags.iter().map(|(name, _)| name).collect();
    obj(json!({ "type": "object", "properties": properties, "required": unique(required) }))
}

/// What a variant of a flattened enum that takes every key left leaves alone: a map, any
/// JSON value, or a struct that flattens a map (serde hands the enum every key the struct's
/// fields leave, and such a content reads them all as its entries, on the writer's side as on
/// the reader's).
pub(super) struct Rest {
    /// The keys of the struct it is flattened into (its fields' keys in this view, and the
    /// tags of the enums that struct is a variant of): serde gives them to the struct first.
    pub(super) own: Vec<String>,
    /// Whether the entries are judged by the content's values: only when the enum is the
    /// struct's only flattened enum and the struct captures no key itself. Otherwise a key
    /// left may be another flattened enum's or the struct's own map's (the sender writes
    /// both, and which reads it first depends on the order of the fields, which the
    /// description does not keep): the keys are taken, whatever they hold.
    pub(super) judged: bool,
}

/// `schema` without what closes it as an object of its own (`additionalProperties`,
/// `unevaluatedProperties`, `minProperties`, `maxProperties`), at its top and in the
/// alternatives of its `oneOf`, `anyOf` and `allOf`: the keys of an enum flattened beside
/// other fields. A content that takes every key left (a map's values, any value, a struct's
/// captured keys: a closing schema other than `false`, on an object not limited to a number
/// of keys) keeps it, so that the struct's closing `unevaluatedProperties` sees those keys as
/// known: judged by the content's values beside the struct's own keys (listed in `properties`
/// as `true`, so the values do not apply to them), or accepted whatever they hold (see
/// [`Rest::judged`]).
pub(super) fn open_object(mut schema: Map<String, Value>, rest: &Rest) -> Map<String, Value> {
    let counted = schema.contains_key("maxProperties");
    for key in ["additionalProperties", "unevaluatedProperties"] {
        match schema.remove(key) {
            Some(Value::Bool(false)) | None => {}
            Some(_) if counted => {}
            Some(values) => {
                let values = if rest.judged {
                    if let Value::Object(properties) = schema
                        .entry("properties")
                        .or_insert_with(|| Value::Object(Map::new()))
                    {
                        for own in &rest.own {
                            properties.entry(own.clone()).or_insert(Value::Bool(true));
                        }
                    }
                    values
                } else {
                    Value::Bool(true)
                };
                schema.insert(key.into(), values);
            }
        }
    }
    for key in ["minProperties", "maxProperties"] {
        schema.remove(key);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(items)) = schema.get_mut(key) {
            for item in items.iter_mut() {
                if let Value::Object(map) = item {
                    *map = open_object(std::mem::take(map), rest);
                }
            }
        }
    }
    schema
}

/// One tag value (`const`) or several (`enum`).
pub(super) fn tag_schema(tags: &[&String]) -> Map<String, Value> {
    match tags {
        [only] => obj(json!({ "type": "string", "const": only })),
        _ => obj(json!({ "type": "string", "enum": tags })),
    }
}
