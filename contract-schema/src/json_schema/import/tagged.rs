//! Tagged enums: string enums (`enum`, `const`, a `oneOf` of `const`s), tagged unions
//! (objects with a `const` under one key, as pydantic's and zod's discriminated unions and
//! serde's internally tagged enums write them; adjacently tagged when each holds only the tag
//! and one content key), serde's externally tagged enum, and the catch-all this crate marks.

use serde_json::{Map, Value};

use crate::model::{Body, EnumDef, Repr, StringFormat, Type, VariantDef, VariantDefKind};

use super::importer::{child, error, is_keyword, item, strings, Importer, Result, Shaped};

/// One alternative, its `$ref`s followed: the object schema and its pointer.
pub(super) struct Alternative<'v> {
    /// The alternative as written (a `$ref`, or the schema itself).
    pub(super) written: &'v Value,
    /// Its pointer.
    pub(super) pointer: String,
    /// The schema it resolves to, when an object.
    pub(super) map: Option<&'v Map<String, Value>>,
    /// That schema's pointer.
    pub(super) target: String,
}

/// The tag values a property schema holds: a string `const`, or an `enum` of strings.
fn tag_values(schema: &Value) -> Option<Vec<&str>> {
    tag_values_of(schema.as_object()?)
}

/// [`tag_values`] of an object schema.
fn tag_values_of(map: &Map<String, Value>) -> Option<Vec<&str>> {
    if map.get("type").is_some_and(|t| t != "string") {
        return None;
    }
    match (map.get("const"), map.get("enum")) {
        (Some(Value::String(one)), None) => Some(vec![one.as_str()]),
        (None, Some(listed)) => strings(listed).filter(|l| !l.is_empty()),
        _ => None,
    }
}

/// Whether an alternative is this crate's catch-all: annotated so, or (the annotations
/// removed) the export's any other string, `not` of an `enum` of strings with at most
/// `type: string` beside it.
fn catch_all(map: &Map<String, Value>) -> bool {
    map.get("x-handoff-catch-all") == Some(&Value::Bool(true)) || unknown_string(map)
}

/// Whether a schema is the export's "any other string": `not` of an `enum` of strings,
/// beside at most `type: string` and annotations.
fn unknown_string(map: &Map<String, Value>) -> bool {
    let listed = map
        .get("not")
        .and_then(Value::as_object)
        .filter(|n| n.len() == 1)
        .and_then(|n| n.get("enum"))
        .and_then(strings)
        .is_some();
    listed
        && map
            .iter()
            .all(|(k, v)| k == "not" || (k == "type" && v == "string") || !is_keyword(k))
}

/// Whether a schema is `{"type": "null"}` (with annotations only).
pub(super) fn is_null(map: &Map<String, Value>) -> bool {
    map.get("type").is_some_and(|t| t == "null")
        && map.keys().all(|k| k == "type" || !is_keyword(k))
}

impl Importer<'_> {
    /// Alternatives that are each strings (`const`, `enum`, this crate's catch-all): a
    /// string enum.
    pub(super) fn string_alternatives(
        &mut self,
        alternatives: &[Alternative<'_>],
        parent: &Map<String, Value>,
    ) -> Result<Option<Body>> {
        let typed_string = parent.get("type").is_some_and(|t| t == "string");
        let mut variants = Vec::with_capacity(alternatives.len());
        let mut any_other = false;
        for alternative in alternatives {
            let Some(map) = alternative.map else {
                return Ok(None);
            };
            let title = map.get("title").and_then(Value::as_str);
            if catch_all(map)
                && map.get("not").and_then(|n| n.get("enum")).is_some()
                && !map.contains_key("properties")
            {
                any_other = true;
                let name = title.unwrap_or("Other");
                let mut v = variant(name, &[name], VariantDefKind::Unit, alternative.written);
                v.other = true;
                variants.push(v);
                continue;
            }
            let typed = typed_string || map.get("type").is_some_and(|t| t == "string");
            let Some(names) = tag_values_of(map)
                .filter(|_| typed || map.contains_key("const") || map.contains_key("enum"))
            else {
                return Ok(None);
            };
            let name = title.or_else(|| names.first().copied()).unwrap_or_default();
            variants.push(variant(
                name,
                &names,
                VariantDefKind::Unit,
                alternative.written,
            ));
        }
        if any_other && self.sender() {
            // A producer that may write any other string writes any string: a catch-all
            // variant would say it writes only its own name.
            return Ok(Some(Body::Newtype(Type::String(StringFormat::Plain))));
        }
        Ok(Some(Body::Enum(EnumDef {
            repr: Repr::External,
            variants,
            deny_unknown_fields: false,
        })))
    }

    /// A tagged union: each alternative an object with the tag under `tag`; adjacently
    /// tagged when each holds the tag and at most one other key, the same in each.
    pub(super) fn tagged(
        &mut self,
        alternatives: &[Alternative<'_>],
        tag: &str,
        hint: &str,
    ) -> Result<Body> {
        let content = adjacent_content(alternatives, tag);
        let mut variants = Vec::with_capacity(alternatives.len());
        let mut deny = false;
        for alternative in alternatives {
            let Some(map) = alternative.map else { continue };
            let props = map.get("properties").and_then(Value::as_object);
            // A newtype variant of an enum whose variants are each written beside the tag:
            // that enum, read from them without the tag.
            if let (None, None, Some(names)) = (props, &content, nested_tag(map, tag)) {
                let key = if map.contains_key("oneOf") {
                    "oneOf"
                } else {
                    "anyOf"
                };
                let inner = nested(map).map_or_else(Vec::new, |a| {
                    a.iter()
                        .map(|i| alone(without_tag(i, tag)))
                        .collect::<Vec<_>>()
                });
                let name = map
                    .get("title")
                    .and_then(Value::as_str)
                    .or_else(|| names.first().copied())
                    .unwrap_or("Other")
                    .to_owned();
                let at = child(&alternative.target, key);
                let ty = self.ty(
                    &serde_json::json!({ key: inner }),
                    &at,
                    &format!("{hint}.{name}"),
                )?;
                variants.push(variant(
                    &name,
                    &names,
                    VariantDefKind::Newtype(ty),
                    alternative.written,
                ));
                continue;
            }
            let tag_schema = props.and_then(|p| p.get(tag));
            let names = tag_schema.and_then(tag_values).unwrap_or_default();
            let title = map
                .get("title")
                .and_then(Value::as_str)
                .or_else(|| alternative.written.get("title").and_then(Value::as_str));
            let name = title
                .or_else(|| names.first().copied())
                .unwrap_or("Other")
                .to_owned();
            let variant_hint = format!("{hint}.{name}");
            let properties_at = child(&alternative.target, "properties");
            let kind = match &content {
                Some(content_key) => match props.and_then(|p| p.get(content_key.as_str())) {
                    Some(schema)
                        if !schema.get("type").is_some_and(|t| t == "null")
                            || self.required(map, content_key) =>
                    {
                        let at = child(&properties_at, content_key);
                        match schema.as_object() {
                            Some(m) if !m.contains_key("$ref") && m.contains_key("properties") => {
                                self.struct_content(m, &at, &variant_hint, &[])?
                            }
                            _ => self.content(schema, &at, &variant_hint)?,
                        }
                    }
                    _ => VariantDefKind::Unit,
                },
                None => {
                    let others = props.map_or(0, |p| p.keys().filter(|k| *k != tag).count());
                    let all_of = map.get("allOf").and_then(Value::as_array);
                    match map.get("additionalProperties") {
                        // The tag beside one schema of `allOf`: a newtype variant of it (the
                        // export's form of one whose content is not an object, which serde
                        // neither writes nor reads, so that no value satisfies both).
                        None if others == 0 && all_of.is_some_and(|a| a.len() == 1) => {
                            let at = item(&child(&alternative.target, "allOf"), 0);
                            match all_of.and_then(|a| a.first()) {
                                Some(content) => self.content(content, &at, &variant_hint)?,
                                None => VariantDefKind::Unit,
                            }
                        }
                        None if others == 0 => VariantDefKind::Unit,
                        // A producer's closed object of the tag alone (the provider dialects
                        // close every object) writes what a unit variant writes.
                        Some(Value::Bool(false)) if others == 0 && self.sender() => {
                            VariantDefKind::Unit
                        }
                        Some(Value::Bool(true)) if others == 0 => {
                            VariantDefKind::Newtype(Type::Any)
                        }
                        _ => {
                            self.struct_content(map, &alternative.target, &variant_hint, &[tag])?
                        }
                    }
                }
            };
            if content.is_some() {
                deny |=
                    map.get("additionalProperties") == Some(&Value::Bool(false)) && !self.sender();
                self.rest(
                    map,
                    &alternative.target,
                    &["type", "properties", "required", "additionalProperties"],
                )?;
            }
            let mut v = variant(&name, &names, kind, alternative.written);
            if catch_all(map) || names.is_empty() {
                v.other = true;
            }
            variants.push(v);
        }
        let repr = match content {
            Some(content) => Repr::Adjacent {
                tag: tag.to_owned(),
                content,
            },
            None => Repr::Internal {
                tag: tag.to_owned(),
            },
        };
        Ok(Body::Enum(EnumDef {
            repr,
            variants,
            deny_unknown_fields: deny,
        }))
    }

    /// Whether `key` is in the object's `required`.
    fn required(&self, map: &Map<String, Value>, key: &str) -> bool {
        map.get("required")
            .and_then(strings)
            .is_some_and(|r| r.contains(&key))
    }

    /// serde's externally tagged enum: each alternative a string (a unit variant) or an
    /// object of exactly one key, the variant's name, holding its content.
    pub(super) fn external(
        &mut self,
        alternatives: &[Alternative<'_>],
        hint: &str,
    ) -> Result<Option<Body>> {
        // The shape first, so that nothing is read from alternatives of another shape: one
        // property, required, or several of which at most one is written (a closed object
        // with other properties, optional, is a struct).
        let single_key = |map: &Map<String, Value>| {
            let properties = map.get("properties").and_then(Value::as_object);
            map.get("additionalProperties") == Some(&Value::Bool(false))
                && properties.is_some_and(|p| !p.is_empty())
                && ((properties.is_some_and(|p| p.len() == 1)
                    && map
                        .get("required")
                        .and_then(strings)
                        .is_some_and(|r| r.len() == 1))
                    || map.get("maxProperties").and_then(Value::as_u64) == Some(1))
        };
        let fits = alternatives.iter().all(|a| {
            a.map.is_some_and(|m| {
                tag_values_of(m).is_some()
                    || single_key(m)
                    || (catch_all(m) && m.contains_key("not"))
            })
        });
        if !fits || !alternatives.iter().any(|a| a.map.is_some_and(single_key)) {
            return Ok(None);
        }
        let mut variants = Vec::with_capacity(alternatives.len());
        for alternative in alternatives {
            let Some(map) = alternative.map else { continue };
            let title = map.get("title").and_then(Value::as_str);
            if let Some(names) = tag_values_of(map) {
                let name = title.or_else(|| names.first().copied()).unwrap_or_default();
                variants.push(variant(
                    name,
                    &names,
                    VariantDefKind::Unit,
                    alternative.written,
                ));
                continue;
            }
            if catch_all(map) && !single_key(map) {
                let name = title.unwrap_or("Other");
                let mut v = variant(name, &[name], VariantDefKind::Unit, alternative.written);
                v.other = true;
                variants.push(v);
                continue;
            }
            let Some(props) = map.get("properties").and_then(Value::as_object) else {
                continue;
            };
            let names: Vec<&str> = props.keys().map(String::as_str).collect();
            let Some((first, schema)) = props.iter().next() else {
                continue;
            };
            let name = title.unwrap_or(first).to_owned();
            let at = child(&child(&alternative.target, "properties"), first);
            let variant_hint = format!("{hint}.{name}");
            let kind = match schema.as_object() {
                Some(m) if is_null(m) => VariantDefKind::Newtype(Type::Unit),
                Some(m) if !m.contains_key("$ref") && m.contains_key("properties") => {
                    self.struct_content(m, &at, &variant_hint, &[])?
                }
                _ => self.content(schema, &at, &variant_hint)?,
            };
            self.rest(
                map,
                &alternative.target,
                &[
                    "type",
                    "properties",
                    "required",
                    "additionalProperties",
                    "minProperties",
                    "maxProperties",
                ],
            )?;
            variants.push(variant(&name, &names, kind, alternative.written));
        }
        Ok(Some(Body::Enum(EnumDef {
            repr: Repr::External,
            variants,
            deny_unknown_fields: false,
        })))
    }

    /// `enum` or `const` without alternatives: a string enum, integers, `null`, booleans, or
    /// strings or `null`.
    pub(super) fn values(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Shaped> {
        let (key, listed): (&str, Vec<&Value>) = match (map.get("enum"), map.get("const")) {
            (Some(Value::Array(values)), None) => ("enum", values.iter().collect()),
            (None, Some(value)) => ("const", vec![value]),
            (Some(Value::Array(values)), Some(value)) => {
                ("enum", values.iter().filter(|v| *v == value).collect())
            }
            _ => {
                return Err(error(
                    &child(pointer, "enum"),
                    "`enum` is not an array".to_owned(),
                ))
            }
        };
        let at = child(pointer, key);
        let typed = map.get("type").and_then(Value::as_str);
        if listed.iter().all(|v| v.is_i64() || v.is_u64())
            && !listed.is_empty()
            && typed.is_none_or(|t| t == "integer")
        {
            return self.integer(map, pointer).map(Shaped::Type);
        }
        let null = listed.iter().any(|v| v.is_null());
        let names: Option<Vec<&str>> = listed
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| v.as_str())
            .collect();
        self.rest(map, pointer, &["type", "enum", "const"])?;
        let ty = match names {
            Some(names) if names.is_empty() && null => return Ok(Shaped::Type(Type::Unit)),
            // `enum: []` admits no value: an enum without variants, which a producer never
            // writes and a consumer never reads (the export's enum of which no variant is
            // sent, or read, in its view).
            Some(_) if listed.is_empty() => {
                return Ok(Shaped::Body(Body::Enum(EnumDef {
                    repr: Repr::External,
                    variants: Vec::new(),
                    deny_unknown_fields: false,
                })))
            }
            Some(names) if !names.is_empty() => {
                let variants = names
                    .iter()
                    .map(|n| variant(n, &[n], VariantDefKind::Unit, &Value::Null))
                    .collect();
                let body = Body::Enum(EnumDef {
                    repr: Repr::External,
                    variants,
                    deny_unknown_fields: false,
                });
                if !null {
                    return Ok(Shaped::Body(body));
                }
                self.type_of(Some(map), Shaped::Body(body), hint)
            }
            _ if listed.iter().all(|v| v.is_boolean())
                && listed.len() == 2
                && listed[0] != listed[1] =>
            {
                Type::Bool
            }
            _ => {
                self.unsupported(
                    &at,
                    &format!("an `{key}` other than of strings or of integers is not read"),
                )?;
                Type::Any
            }
        };
        Ok(Shaped::Type(if null { Type::option_of(ty) } else { ty }))
    }
}

/// A variant named `name`, written under the first of `names` and read under all of them,
/// its doc the alternative's `description`.
pub(super) fn variant(
    name: &str,
    names: &[&str],
    kind: VariantDefKind,
    written: &Value,
) -> VariantDef {
    VariantDef {
        rust_name: name.to_owned(),
        sender: names.first().map(|n| (*n).to_owned()),
        receiver: names.iter().map(|n| (*n).to_owned()).collect(),
        other: false,
        untagged: false,
        kind,
        doc: written
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    }
}

/// An enum's variants named apart, as a Rust enum's are: a catch-all titled as a unit variant
/// beside it (this crate's export of a `#[serde(other)]` variant: the variant's own name, then
/// the catch-all) is that one variant, reading its own names and any other; then a name
/// given twice (a peer's titles are free text) is suffixed, `X`, `X_2`, … in the order the
/// alternatives come.
pub(super) fn distinct_variants(variants: &mut Vec<VariantDef>) {
    let unit = |v: &VariantDef| matches!(v.kind, VariantDefKind::Unit);
    let mut i = 0;
    while i < variants.len() {
        if variants[i].other && unit(&variants[i]) {
            let name = &variants[i].rust_name;
            let own = variants
                .iter()
                .position(|v| !v.other && !v.untagged && unit(v) && v.rust_name == *name);
            if let Some(j) = own {
                // The variant where its own name stands, now reading any other string too.
                let catch_all = variants.remove(i);
                let own = &mut variants[if j > i { j - 1 } else { j }];
                own.other = true;
                if own.doc.is_empty() {
                    own.doc = catch_all.doc;
                }
                continue;
            }
        }
        i += 1;
    }
    let mut seen = std::collections::BTreeSet::new();
    for v in variants.iter_mut() {
        if !seen.insert(v.rust_name.clone()) {
            let base = v.rust_name.clone();
            let mut n = 2_u32;
            let mut name = format!("{base}_{n}");
            while seen.contains(&name) {
                n = n.saturating_add(1);
                name = format!("{base}_{n}");
            }
            seen.insert(name.clone());
            v.rust_name = name;
        }
    }
}

/// An alternative's `properties`.
fn properties<'v>(a: &Alternative<'v>) -> Option<&'v Map<String, Value>> {
    a.map?.get("properties")?.as_object()
}

/// The key under which every alternative is an object holding its tag (a `const` or an
/// `enum` of strings; this crate's catch-all, any other string).
pub(super) fn common_tag(alternatives: &[Alternative<'_>]) -> Option<String> {
    let first = alternatives.first()?;
    let candidates = match properties(first) {
        Some(p) => p,
        None => nested(first.map?)?
            .first()?
            .get("properties")?
            .as_object()?,
    };
    'keys: for (key, schema) in candidates {
        if tag_values(schema).is_none() {
            continue;
        }
        for alternative in alternatives {
            let map = alternative.map?;
            if properties(alternative).is_none() && nested_tag(map, key).is_some() {
                continue;
            }
            let Some(schema) = properties(alternative).and_then(|p| p.get(key)) else {
                continue 'keys;
            };
            let catch = (catch_all(map) && schema.get("not").is_some())
                || schema.as_object().is_some_and(unknown_string);
            if tag_values(schema).is_none() && !catch {
                continue 'keys;
            }
        }
        return Some(key.clone());
    }
    None
}

/// The alternatives of an alternative that is itself a union beside the tags, with no
/// properties of its own: the export's internally tagged newtype variant of an enum, each
/// of whose variants is written beside the tag.
fn nested(map: &Map<String, Value>) -> Option<&Vec<Value>> {
    if map.contains_key("properties") || map.contains_key("$ref") {
        return None;
    }
    map.get("oneOf")
        .or_else(|| map.get("anyOf"))?
        .as_array()
        .filter(|a| !a.is_empty())
}

/// The tag values under `key` of a [`nested`] alternative: each inner alternative holds the
/// same ones.
fn nested_tag<'v>(map: &'v Map<String, Value>, key: &str) -> Option<Vec<&'v str>> {
    let mut names: Option<Vec<&str>> = None;
    for inner in nested(map)? {
        let values = inner.get("properties")?.get(key).and_then(tag_values)?;
        match &names {
            None => names = Some(values),
            Some(n) if *n == values => {}
            Some(_) => return None,
        }
    }
    names
}

/// An inner alternative of a [`nested`] one without the tag `key`: what the enum it holds
/// writes beside the tag (one property fewer). The tag beside one schema of `allOf` and
/// nothing else is the export's form of content that is not an object (an untagged
/// variant's tuple, list or scalar, which serde neither writes nor reads there): that
/// schema, as the variant is alone, with the alternative's annotations (its `title`).
fn without_tag(inner: &Value, key: &str) -> Value {
    if let Some(content) = content_of_all_of(inner, key) {
        return content;
    }
    let mut out = inner.clone();
    if let Some(map) = out.as_object_mut() {
        if let Some(Value::Object(p)) = map.get_mut("properties") {
            p.remove(key);
        }
        if let Some(Value::Array(r)) = map.get_mut("required") {
            r.retain(|k| k != key);
        }
        for bound in ["minProperties", "maxProperties"] {
            if let Some(n) = map.get(bound).and_then(Value::as_u64) {
                map.insert(bound.to_owned(), n.saturating_sub(1).into());
            }
        }
    }
    out
}

/// The one schema of `allOf` an inner alternative holds beside the tag `key` alone (an
/// object of that one property, required, and no other keyword), the alternative's
/// annotations added to it; `None` for any other alternative.
fn content_of_all_of(inner: &Value, key: &str) -> Option<Value> {
    let map = inner.as_object()?;
    let [content] = map.get("allOf")?.as_array()?.as_slice() else {
        return None;
    };
    let props = map.get("properties")?.as_object()?;
    let tag_alone = props.len() == 1 && props.contains_key(key);
    let required_tag = map
        .get("required")
        .and_then(strings)
        .is_none_or(|r| r.iter().all(|k| *k == key));
    let nothing_else = map.iter().all(|(k, v)| {
        matches!(k.as_str(), "allOf" | "properties" | "required")
            || (k == "type" && v == "object")
            || !is_keyword(k)
    });
    if !(tag_alone && required_tag && nothing_else) {
        return None;
    }
    let mut out = content.as_object()?.clone();
    for (k, v) in map.iter().filter(|(k, _)| !is_keyword(k)) {
        out.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Some(Value::Object(out))
}

/// An externally tagged variant as written beside a tag (a unit variant as its name holding
/// `null`, the catch-all as any other name holding `null`) in the form it has alone: its
/// name, or any other string. Any other alternative as it is.
fn alone(inner: Value) -> Value {
    let Some(map) = inner.as_object() else {
        return inner;
    };
    let annotations = || -> Map<String, Value> {
        map.iter()
            .filter(|(k, _)| !is_keyword(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let props = map.get("properties").and_then(Value::as_object);
    let one_key = map.get("maxProperties").and_then(Value::as_u64) == Some(1);
    let null = |v: &Value| v.as_object().is_some_and(is_null);
    if let (Some(p), true) = (props, one_key) {
        // (Several names: a unit variant read under aliases.)
        if !p.is_empty()
            && p.values().all(null)
            && map.get("additionalProperties") == Some(&Value::Bool(false))
        {
            let mut out = annotations();
            out.insert("type".into(), "string".into());
            let names: Vec<Value> = p.keys().map(|k| k.clone().into()).collect();
            out.insert("enum".into(), names.into());
            return Value::Object(out);
        }
        let not = map.get("propertyNames").and_then(|n| n.get("not"));
        if let (true, Some(not), Some(extra)) = (p.is_empty(), not, map.get("additionalProperties"))
        {
            if null(extra) {
                let mut out = annotations();
                out.insert("type".into(), "string".into());
                out.insert("not".into(), not.clone());
                return Value::Object(out);
            }
        }
    }
    inner
}

/// The content key of an adjacently tagged union: every alternative holds the tag and at
/// most this one other key (not a tag itself), and either two hold it or one holds it as an
/// optional `null` (a unit variant read with `"content": null`). With one alternative
/// holding one such key, the union is read as internally tagged, a struct variant of one
/// field, which is the same JSON.
fn adjacent_content(alternatives: &[Alternative<'_>], tag: &str) -> Option<String> {
    let mut content: Option<&str> = None;
    let mut holding = 0_usize;
    let mut null_unit = false;
    for alternative in alternatives {
        let map = alternative.map?;
        let props = map.get("properties")?.as_object()?;
        for (key, schema) in props {
            if key == tag {
                continue;
            }
            if tag_values(schema).is_some() {
                return None;
            }
            match content {
                None => content = Some(key),
                Some(c) if c == key => {}
                Some(_) => return None,
            }
            let required = map
                .get("required")
                .and_then(strings)
                .is_some_and(|r| r.contains(&key.as_str()));
            if !required && schema.get("type").is_some_and(|t| t == "null") {
                null_unit = true;
            } else {
                holding += 1;
            }
        }
    }
    content
        .filter(|_| holding >= 2 || null_unit)
        .map(str::to_owned)
}
