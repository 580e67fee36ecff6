//! Unions: `anyOf`/`oneOf` read as `null` or a type, as a tagged enum (see `tagged`), as
//! serde's tagged enum with `#[serde(untagged)]` variants, or as an untagged enum; `type`
//! arrays; and whether a `oneOf`'s alternatives may overlap.

use serde_json::{Map, Value};

use crate::model::{Body, EnumDef, Repr, Type, VariantDefKind};

use super::importer::{child, error, item, Importer, Result, Shaped};
use super::tagged::{common_tag, is_null, variant, Alternative};

/// How many `$ref`s in a row an alternative is followed through to see its shape.
const MAX_REF_CHAIN: usize = 32;

/// A JSON type as a bit, for telling whether `oneOf` alternatives may overlap (an integer is
/// also a number).
const NULL: u8 = 1;
const BOOL: u8 = 2;
const INTEGER: u8 = 4;
const FRACTION: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;
const ANY: u8 = 127;

impl<'a> Importer<'a> {
    /// `anyOf` or `oneOf` (beside an optional `type`).
    pub(super) fn union(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Shaped> {
        let key = if map.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        let at = child(pointer, key);
        let Some(listed) = map.get(key).and_then(Value::as_array) else {
            return Err(error(&at, format!("`{key}` is not an array")));
        };
        if key == "anyOf" && map.contains_key("oneOf") {
            self.unsupported(
                &child(pointer, "oneOf"),
                "`oneOf` beside `anyOf` is not read",
            )?;
        }
        let mut alternatives = Vec::with_capacity(listed.len());
        let mut null = false;
        // A variant the export says admits nothing (`not: {}` beside its title), dropped
        // when another alternative admits something: a producer never writes it, and it has
        // no tag to tell its enum's representation by.
        let admits_nothing = |written: &Value| {
            written.as_object().is_some_and(|m| {
                m.get("not")
                    .is_some_and(|n| n.as_object().is_some_and(Map::is_empty))
                    && m.keys().all(|k| {
                        k == "not"
                            || k.starts_with("x-")
                            || matches!(k.as_str(), "title" | "description")
                    })
            })
        };
        let some_admit = listed
            .iter()
            .any(|w| w != &Value::Bool(false) && !admits_nothing(w));
        for (i, written) in listed.iter().enumerate() {
            let alt_at = item(&at, i);
            // An alternative that admits nothing adds nothing.
            let nothing = written == &Value::Bool(false)
                || written.as_object().is_some_and(|m| {
                    m.len() == 1
                        && m.get("not")
                            .is_some_and(|n| n.as_object().is_some_and(Map::is_empty))
                })
                || (some_admit && admits_nothing(written));
            if nothing {
                continue;
            }
            let (map, target) = self.follow(written, &alt_at)?;
            if map.is_some_and(|m| is_null(m) && !m.contains_key("title")) {
                null = true;
                continue;
            }
            alternatives.push(Alternative {
                written,
                pointer: alt_at,
                map,
                target,
            });
        }
        self.rest(map, pointer, &["type", "anyOf", "oneOf"])?;
        let ty = match alternatives.as_slice() {
            [] if null => Type::Unit,
            [] => {
                self.unsupported(
                    &at,
                    "no alternative admits a value, which no type of the model is",
                )?;
                Type::Any
            }
            // One alternative is that type, unless it is a variant (this crate annotates each
            // with its `title`): an enum of one variant.
            [one] if one.written.get("title").is_none() => {
                self.ty(one.written, &one.pointer, hint)?
            }
            _ => {
                let body = self.alternatives(&alternatives, key, map, hint)?;
                if !null {
                    return Ok(Shaped::Body(body));
                }
                self.type_of(Some(map), Shaped::Body(body), hint)
            }
        };
        Ok(Shaped::Type(if null { Type::option_of(ty) } else { ty }))
    }

    /// Follows `$ref`s from an alternative to the object schema it is.
    fn follow<'v>(
        &mut self,
        written: &'v Value,
        pointer: &str,
    ) -> Result<(Option<&'v Map<String, Value>>, String)>
    where
        'a: 'v,
    {
        let mut value = written;
        let mut at = pointer.to_owned();
        for _ in 0..MAX_REF_CHAIN {
            let Some(map) = value.as_object() else {
                return Ok((None, at));
            };
            let Some(target) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
            else {
                return Ok((Some(map), at));
            };
            let doc: &'a Value = self.doc;
            match doc.pointer(target) {
                Some(next) => {
                    value = next;
                    at = target.to_owned();
                }
                None => return Ok((None, at)),
            }
        }
        Err(error(
            pointer,
            format!("`$ref`s lead to `$ref`s more than {MAX_REF_CHAIN} times"),
        ))
    }

    /// Two or more alternatives: a string enum, a tagged, externally tagged or untagged enum.
    fn alternatives(
        &mut self,
        alternatives: &[Alternative<'_>],
        key: &str,
        parent: &Map<String, Value>,
        hint: &str,
    ) -> Result<Body> {
        if key == "anyOf" {
            if let Some(body) = self.with_untagged_variants(alternatives, hint)? {
                return Ok(body);
            }
        }
        if let Some(body) = self.string_alternatives(alternatives, parent)? {
            return Ok(body);
        }
        if let Some(tag) = common_tag(alternatives) {
            return self.tagged(alternatives, &tag, hint);
        }
        if let Some(body) = self.external(alternatives, hint)? {
            return Ok(body);
        }
        if key == "oneOf" {
            let mut seen = 0_u8;
            for alternative in alternatives {
                let kinds = alternative.map.map_or(ANY, kinds);
                if seen & kinds != 0 {
                    self.unsupported(
                        &alternative.pointer,
                        "a `oneOf` whose alternatives may overlap (a value valid for two is refused) is not read: read as `anyOf`",
                    )?;
                    break;
                }
                seen |= kinds;
            }
        }
        let written: Vec<&Value> = alternatives.iter().map(|a| a.written).collect();
        self.untagged_at(
            &written,
            alternatives.iter().map(|a| a.pointer.clone()).collect(),
            hint,
        )
    }

    /// serde's tagged enum with `#[serde(untagged)]` variants, as the export writes it: an
    /// `anyOf` of the tagged enum (inline, the first alternative) and of the untagged
    /// variants' contents. `None` when the first alternative is not a tagged enum.
    fn with_untagged_variants(
        &mut self,
        alternatives: &[Alternative<'_>],
        hint: &str,
    ) -> Result<Option<Body>> {
        let Some((first, rest)) = alternatives.split_first() else {
            return Ok(None);
        };
        let inline_enum = first.written.as_object().is_some_and(|m| {
            !m.contains_key("$ref")
                && (m.contains_key("oneOf") || m.contains_key("anyOf") || m.contains_key("enum"))
                && !m.contains_key("title")
        });
        if !inline_enum || rest.is_empty() {
            return Ok(None);
        }
        let Shaped::Body(Body::Enum(mut tagged)) =
            self.shaped(first.written, &first.pointer, hint)?
        else {
            return Ok(None);
        };
        if tagged.repr == Repr::Untagged {
            return Ok(None);
        }
        let mut written: Vec<&Value> = rest.iter().map(|a| a.written).collect();
        let mut pointers: Vec<String> = rest.iter().map(|a| a.pointer.clone()).collect();
        // Several untagged variants are one `anyOf` of their contents.
        if let ([only], [at]) = (rest, pointers.as_slice()) {
            let nested = only
                .written
                .as_object()
                .filter(|m| !m.contains_key("title") && m.len() == 1);
            if let Some(Value::Array(inner)) = nested.and_then(|m| m.get("anyOf")) {
                let at = child(at, "anyOf");
                pointers = (0..inner.len()).map(|i| item(&at, i)).collect();
                written = inner.iter().collect();
            }
        }
        if let Body::Enum(untagged) = self.untagged_at(&written, pointers, hint)? {
            tagged
                .variants
                .extend(untagged.variants.into_iter().map(|mut v| {
                    v.untagged = true;
                    v
                }));
        }
        Ok(Some(Body::Enum(tagged)))
    }

    /// `type: [A, B]`: an untagged enum of one schema per type. Each alternative is the
    /// schema itself with one of its types, so that what is found in it is located at the
    /// schema's own keywords (its `properties`, say), not under `type`.
    pub(super) fn untagged(
        &mut self,
        alternatives: &[Value],
        pointer: &str,
        hint: &str,
    ) -> Result<Body> {
        let pointers = alternatives.iter().map(|_| pointer.to_owned()).collect();
        let alternatives: Vec<&Value> = alternatives.iter().collect();
        self.untagged_at(&alternatives, pointers, hint)
    }

    /// An untagged enum: a variant per alternative, named by its `title`.
    fn untagged_at(
        &mut self,
        alternatives: &[&Value],
        pointers: Vec<String>,
        hint: &str,
    ) -> Result<Body> {
        let mut variants = Vec::with_capacity(alternatives.len());
        for (i, (written, pointer)) in alternatives.iter().zip(pointers).enumerate() {
            let title = written.get("title").and_then(Value::as_str);
            let name = title.map_or_else(|| format!("V{i}"), str::to_owned);
            let kind = match written.as_object() {
                Some(m) if is_null(m) => VariantDefKind::Unit,
                Some(m)
                    if !m.contains_key("$ref")
                        && m.contains_key("properties")
                        && !m.contains_key("anyOf")
                        && !m.contains_key("oneOf") =>
                {
                    self.struct_content(m, &pointer, &format!("{hint}.{name}"), &[])?
                }
                _ => self.content(written, &pointer, &format!("{hint}.{name}"))?,
            };
            variants.push(variant(&name, &[name.as_str()], kind, written));
        }
        Ok(Body::Enum(EnumDef {
            repr: Repr::Untagged,
            variants,
            deny_unknown_fields: false,
        }))
    }

    /// What a variant carries beside its tag or under its name: a tuple, or one value.
    pub(super) fn content(
        &mut self,
        schema: &Value,
        pointer: &str,
        hint: &str,
    ) -> Result<VariantDefKind> {
        if let Some(map) = schema.as_object() {
            if map.contains_key("prefixItems") && !map.contains_key("$ref") {
                if let Type::Tuple(items) = self.ty(schema, pointer, hint)? {
                    return Ok(VariantDefKind::Tuple(items));
                }
            }
        }
        Ok(VariantDefKind::Newtype(self.ty(schema, pointer, hint)?))
    }
}

/// The JSON types a schema admits, as bits (every type when it does not say).
fn kinds(map: &Map<String, Value>) -> u8 {
    let one = |t: &str| match t {
        "null" => NULL,
        "boolean" => BOOL,
        "integer" => INTEGER,
        "number" => INTEGER | FRACTION,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => ANY,
    };
    match map.get("type") {
        Some(Value::String(t)) => one(t),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .fold(0, |acc, t| acc | one(t)),
        _ if map.contains_key("properties") => OBJECT,
        _ => ANY,
    }
}
