//! The document: its dialect, its root, this crate's document annotations
//! (`x-handoff-contract`, `x-handoff-mode`, `x-handoff-view`), `$ref` into `$defs` and
//! `definitions` (named types, recursion included), and the one place a schema is sent to
//! what reads it (objects, unions, scalars).

use serde_json::{Map, Value};

use crate::contract::{is_contract_name, ContractId, Mode};
use crate::model::{
    Body, EnumDef, Repr, Schema, StructDef, Type, TypeDef, Unknown, VariantDefKind,
};

use super::importer::{child, error, is_keyword, Dialect, Importer, Result, Shaped};
use super::objects::{named_through_option, NOT_AN_ENUM};

/// The error of a `type` the import does not know.
const UNKNOWN_TYPE: &str =
    "unknown type: expected `null`, `boolean`, `integer`, `number`, `string`, `array` or `object`";

/// The dialect a `$schema` names: 2020-12 (and 2019-09) or draft-07 (and draft-06); none
/// means 2020-12, as pydantic writes none.
pub(super) fn dialect(doc: &Value) -> Result<Dialect> {
    let Some(uri) = doc.get("$schema") else {
        return Ok(Dialect::Draft2020);
    };
    let Some(uri) = uri.as_str() else {
        return Err(error("/$schema", "`$schema` is not a string".to_owned()));
    };
    let uri = uri.trim_end_matches('#');
    if uri.ends_with("/draft/2020-12/schema") || uri.ends_with("/draft/2019-09/schema") {
        Ok(Dialect::Draft2020)
    } else if uri.ends_with("/draft-07/schema") || uri.ends_with("/draft-06/schema") {
        Ok(Dialect::Draft07)
    } else {
        Err(error(
            "/$schema",
            "unknown dialect: the import reads JSON Schema 2020-12 (also 2019-09) and draft-07 (also draft-06)".to_owned(),
        ))
    }
}

impl Importer<'_> {
    /// The whole document as a [`Schema`].
    pub(super) fn document(&mut self) -> Result<Schema> {
        let doc = self.doc;
        let (contract, mode) = self.identity()?;
        let root = match doc {
            Value::Object(map) => {
                // The root is a named type when it is a struct or an enum (or a `$ref` to
                // one); `#` names it, for a recursive root.
                if map.contains_key("$ref") {
                    self.ty(doc, "", "Root")?
                } else {
                    let root = self.reference_to("", "Root")?;
                    self.unwrap_root(root)
                }
            }
            other => self.ty(other, "", "Root")?,
        };
        if root == Type::Any {
            self.warn(
                "",
                "the root schema constrains nothing: every JSON value is valid (zod-to-json-schema returns only `$schema` for a zod 4 schema; use zod 4's own `z.toJSONSchema`)".to_owned(),
            );
        }
        let mut types = std::mem::take(&mut self.types);
        for def in types.values_mut() {
            if let Body::Enum(e) = &mut def.body {
                super::tagged::distinct_variants(&mut e.variants);
            }
        }
        let mut schema = Schema {
            contract,
            mode,
            allowances: crate::allowance::Allowances::default(),
            root,
            types,
        };
        self.settle_flats(&mut schema)?;
        Ok(schema)
    }

    /// The flattened members whose type was still being read when their struct was: each
    /// that is no enum, now that every type is read, is not read (what the model cannot
    /// hold: the text flattens enums only), and a producer's struct that flattened it may
    /// write any other key. Then the types only such members reached are dropped.
    fn settle_flats(&mut self, schema: &mut Schema) -> Result<()> {
        let pending = std::mem::take(&mut self.pending_flats);
        let mut not_enums: Vec<Type> = Vec::new();
        for (pointer, ty) in pending {
            if schema.flat_enum(&ty).is_none() {
                self.unsupported(&pointer, NOT_AN_ENUM)?;
                not_enums.push(ty);
            }
        }
        self.unflattened
            .extend(not_enums.iter().filter_map(named_through_option));
        let sender = self.sender();
        let settle = |s: &mut StructDef| {
            let before = s.flattened.len();
            s.flattened.retain(|f| !not_enums.contains(&f.ty));
            if sender && s.flattened.len() < before {
                s.unknown = Unknown::Capture;
                s.extra = Some(Type::Any);
            }
        };
        for def in schema.types.values_mut() {
            match &mut def.body {
                Body::Struct(s) => settle(s),
                Body::Enum(e) => {
                    for v in &mut e.variants {
                        if let VariantDefKind::Struct(s) = &mut v.kind {
                            settle(s);
                        }
                    }
                }
                Body::Newtype(_) | Body::Views { .. } => {}
            }
        }
        self.drop_unreached(schema);
        Ok(())
    }

    /// The root's named type when the root is a struct or an enum (or `#` is referenced),
    /// else the type it holds, its definition dropped.
    fn unwrap_root(&mut self, root: Type) -> Type {
        let Type::Named(name) = &root else {
            return root;
        };
        let recursive = self.root_referenced;
        match self.types.get(name).map(|d| &d.body) {
            Some(Body::Newtype(inner)) if !recursive => {
                let inner = inner.clone();
                self.types.remove(name);
                self.names.remove(name);
                inner
            }
            _ => root,
        }
    }

    /// `x-handoff-contract`, `x-handoff-mode` and `x-handoff-view` of the document.
    fn identity(&mut self) -> Result<(Option<ContractId>, Mode)> {
        let doc = self.doc;
        let contract = match doc.get("x-handoff-contract") {
            None => None,
            Some(value) => {
                let id = value
                    .as_str()
                    .and_then(|s| s.rsplit_once("/v"))
                    .and_then(|(name, v)| Some((name, v.parse::<u32>().ok()?)))
                    .filter(|(name, v)| is_contract_name(name) && *v >= 1);
                let Some((name, version)) = id else {
                    return Err(error(
                        "/x-handoff-contract",
                        "not a contract id: expected `name/vN`, the name kebab-case and N at least 1".to_owned(),
                    ));
                };
                Some(ContractId {
                    name: name.to_owned(),
                    version,
                })
            }
        };
        let mode = match doc.get("x-handoff-mode") {
            None => Mode::Full,
            Some(value) => value.as_str().and_then(Mode::parse).ok_or_else(|| {
                error(
                    "/x-handoff-mode",
                    "unknown mode: expected `backward`, `forward`, `full` or one of them with `-transitive`".to_owned(),
                )
            })?,
        };
        if let Some(view) = doc.get("x-handoff-view") {
            if view.as_str() != Some(self.view.as_str()) {
                self.warn(
                    "/x-handoff-view",
                    format!(
                        "the document says it is not the {} view it is read as",
                        self.view.as_str()
                    ),
                );
            }
        }
        Ok((contract, mode))
    }

    /// The type of the schema at `pointer`.
    pub(super) fn ty(&mut self, schema: &Value, pointer: &str, hint: &str) -> Result<Type> {
        let shaped = self.shaped(schema, pointer, hint)?;
        Ok(self.type_of(schema.as_object(), shaped, hint))
    }

    /// What the schema at `pointer` describes.
    pub(super) fn shaped(&mut self, schema: &Value, pointer: &str, hint: &str) -> Result<Shaped> {
        let map = match schema {
            Value::Bool(true) => return Ok(Shaped::Type(Type::Any)),
            Value::Bool(false) => {
                self.unsupported(
                    pointer,
                    "`false` admits no value, which no type of the model is",
                )?;
                return Ok(Shaped::Type(Type::Any));
            }
            Value::Object(map) => map,
            _ => {
                return Err(error(
                    pointer,
                    "a schema is an object or a boolean".to_owned(),
                ))
            }
        };
        self.enter(pointer)?;
        let out = self.dispatch(map, pointer, hint);
        self.leave();
        out
    }

    fn dispatch(&mut self, map: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Shaped> {
        if let Some(target) = map.get("$ref") {
            return self.reference(map, target, pointer).map(Shaped::Type);
        }
        // `not: {}` beside annotations only, the export's type of which no variant is in its
        // view: no value, an enum without variants (a producer never writes it, a consumer
        // never reads it).
        if matches!(map.get("not"), Some(Value::Bool(true)))
            || map
                .get("not")
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
        {
            let annotations_only = map.keys().all(|k| {
                k == "not"
                    || k.starts_with("x-")
                    || matches!(
                        k.as_str(),
                        "title" | "description" | "$comment" | "examples" | "deprecated"
                    )
            });
            if annotations_only {
                return Ok(Shaped::Body(Body::Enum(EnumDef {
                    repr: Repr::External,
                    variants: Vec::new(),
                    deny_unknown_fields: false,
                })));
            }
        }
        for key in ["$dynamicRef", "$recursiveRef"] {
            if map.contains_key(key) {
                self.unsupported(&child(pointer, key), &format!("`{key}` is not read"))?;
                return Ok(Shaped::Type(Type::Any));
            }
        }
        // `allOf` of one schema beside annotations only: that schema (older pydantic writes
        // a `$ref` with a description so).
        if let Some(Value::Array(all)) = map.get("allOf") {
            let only_annotations = map
                .keys()
                .all(|k| k == "allOf" || k.starts_with("x-") || !is_keyword(k));
            if let ([one], true) = (all.as_slice(), only_annotations) {
                return self.shaped(one, &format!("{pointer}/allOf/0"), hint);
            }
        }
        let types = match map.get("type") {
            None => Vec::new(),
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => {
                match ts.iter().map(Value::as_str).collect::<Option<Vec<_>>>() {
                    Some(ts) => ts,
                    None => {
                        return Err(error(
                            &child(pointer, "type"),
                            "`type` lists a value that is not a string".to_owned(),
                        ))
                    }
                }
            }
            Some(_) => {
                return Err(error(
                    &child(pointer, "type"),
                    "`type` is a string or an array of strings".to_owned(),
                ))
            }
        };
        let nullable = types.contains(&"null") && types.len() > 1;
        let types: Vec<&str> = types
            .into_iter()
            .filter(|t| !nullable || *t != "null")
            .collect();
        if types.len() > 1 {
            return self.several_types(map, &types, nullable, pointer, hint);
        }
        let union = map.contains_key("oneOf") || map.contains_key("anyOf");
        let listed = map.contains_key("enum") || map.contains_key("const");
        let shaped = match types.first().copied() {
            Some("integer") => Shaped::Type(self.integer(map, pointer)?),
            Some("number") => Shaped::Type(self.number(map, pointer)?),
            Some("string") if !listed && !union => Shaped::Type(self.string(map, pointer)?),
            Some("boolean") => {
                self.rest(map, pointer, &["type"])?;
                Shaped::Type(Type::Bool)
            }
            Some("null") => {
                self.rest(map, pointer, &["type"])?;
                Shaped::Type(Type::Unit)
            }
            Some("array") => Shaped::Type(self.array(map, pointer, hint)?),
            Some("object") if !union => self.object(map, pointer, hint)?,
            Some("string" | "object") | None => self.untyped(map, pointer, hint)?,
            Some(_) => return Err(error(&child(pointer, "type"), UNKNOWN_TYPE.to_owned())),
        };
        if nullable {
            let ty = self.type_of(Some(map), shaped, hint);
            return Ok(Shaped::Type(Type::option_of(ty)));
        }
        Ok(shaped)
    }

    /// A schema without one `type`: a union, an enum, an object by its keywords, or any value.
    fn untyped(&mut self, map: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Shaped> {
        if map.contains_key("anyOf") || map.contains_key("oneOf") {
            return self.union(map, pointer, hint);
        }
        if map.contains_key("enum") || map.contains_key("const") {
            return self.values(map, pointer, hint);
        }
        if [
            "properties",
            "additionalProperties",
            "required",
            "propertyNames",
        ]
        .iter()
        .any(|k| map.contains_key(*k))
        {
            return self.object(map, pointer, hint);
        }
        self.rest(map, pointer, &["type"])?;
        Ok(Shaped::Type(Type::Any))
    }

    /// `type: [A, B, …]`: an untagged union of one schema per type.
    fn several_types(
        &mut self,
        map: &Map<String, Value>,
        types: &[&str],
        nullable: bool,
        pointer: &str,
        hint: &str,
    ) -> Result<Shaped> {
        let alternatives: Vec<Value> = types
            .iter()
            .map(|t| {
                let mut one = map.clone();
                one.insert("type".into(), Value::String((*t).to_owned()));
                Value::Object(one)
            })
            .collect();
        let body = self.untagged(&alternatives, pointer, hint)?;
        if !nullable {
            return Ok(Shaped::Body(body));
        }
        let ty = self.type_of(Some(map), Shaped::Body(body), hint);
        Ok(Shaped::Type(Type::option_of(ty)))
    }

    /// A `$ref`: a named type for a local target, whatever its siblings (read as annotations
    /// in draft-07; refused beside it in 2020-12 unless they are).
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        target: &Value,
        pointer: &str,
    ) -> Result<Type> {
        let at = child(pointer, "$ref");
        if self.dialect == Dialect::Draft2020 {
            self.rest(map, pointer, &["$ref"])?;
        }
        let Some(target) = target.as_str() else {
            return Err(error(&at, "`$ref` is not a string".to_owned()));
        };
        let Some(fragment) = target.strip_prefix('#') else {
            self.unsupported(&at, "a `$ref` outside the document is not followed")?;
            return Ok(Type::Any);
        };
        let Some(target_pointer) = decode(fragment) else {
            return Err(error(
                &at,
                "`$ref` is not a JSON pointer fragment".to_owned(),
            ));
        };
        if self.doc.pointer(&target_pointer).is_none() {
            return Err(error(
                &at,
                "`$ref` points at nothing in the document".to_owned(),
            ));
        }
        if target_pointer.is_empty() {
            self.root_referenced = true;
        }
        // The last token names the type as its key was written: `~1` is `/`, `~0` is `~`.
        let last = target_pointer.rsplit('/').next().unwrap_or_default();
        let key = last.replace("~1", "/").replace("~0", "~");
        self.reference_to(&target_pointer, if key.is_empty() { "Root" } else { &key })
    }

    /// The types in [`Importer::unflattened`], and those they reach, that nothing reaches
    /// from the root once their flattened members are read otherwise, dropped: the schema
    /// holds the types its root reaches.
    fn drop_unreached(&mut self, schema: &mut Schema) {
        let candidates = std::mem::take(&mut self.unflattened);
        if candidates.is_empty() {
            return;
        }
        let reach = |mut stack: Vec<String>| {
            let mut reached = std::collections::BTreeSet::new();
            while let Some(name) = stack.pop() {
                if let (Some(def), false) = (schema.types.get(&name), reached.contains(&name)) {
                    def.body.push_names(&mut stack);
                }
                reached.insert(name);
            }
            reached
        };
        let mut from_root = Vec::new();
        schema.root.push_names(&mut from_root);
        let kept = reach(from_root);
        // The candidates and what they reach, unless the root reaches it too.
        let dropped: Vec<String> = reach(candidates)
            .into_iter()
            .filter(|name| !kept.contains(name))
            .collect();
        for name in dropped {
            schema.types.remove(&name);
        }
    }

    /// The named type of the schema at `target` (a JSON pointer into the document), read
    /// once: its `title` names it when it has a letter or a digit, else `key` (`Root` for
    /// the document).
    fn reference_to(&mut self, target: &str, key: &str) -> Result<Type> {
        let ref_key = if target.is_empty() { "#" } else { target };
        if let Some(name) = self.refs.get(ref_key) {
            return Ok(Type::Named(name.clone()));
        }
        let Some(schema) = self.doc.pointer(target) else {
            return Err(error(
                target,
                "`$ref` points at nothing in the document".to_owned(),
            ));
        };
        // A title without a letter or digit (`""`, `"→"`) names nothing, as an inline
        // type's does not.
        let title = schema
            .get("title")
            .and_then(Value::as_str)
            .filter(|t| t.chars().any(char::is_alphanumeric));
        let name = self.fresh_name(title.unwrap_or(key));
        self.refs.insert(ref_key.to_owned(), name.clone());
        let rust_path = schema
            .get("x-handoff-rust")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let doc = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let body = match self.shaped(schema, target, &name)? {
            Shaped::Body(body) => body,
            Shaped::Type(ty) => Body::Newtype(ty),
        };
        self.types.insert(
            name.clone(),
            TypeDef {
                rust_path,
                doc,
                body,
            },
        );
        Ok(Type::Named(name))
    }
}

/// A URI fragment's JSON pointer, percent-decoded; `None` when it is not one.
fn decode(fragment: &str) -> Option<String> {
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return None;
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = core::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
