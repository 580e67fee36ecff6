//! Objects: a struct (`properties`, `required`, `additionalProperties` absent, `true`, a
//! schema or `false`), this crate's field annotations and alias constraints, and a map (an
//! object of `additionalProperties` alone, its keys from `propertyNames`).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::constraint::{IntRange, IntValue};
use crate::model::{
    Body, Emit, EnumDef, FieldDef, FlatEnumDef, IntKind, Provenance, ReceiverField, Repr,
    SenderField, StructDef, Type, Unknown, VariantDef, VariantDefKind,
};

use super::importer::{child, error, item, strings, Importer, Result, Shaped};

/// The most alternatives a producer's object with groups of keys is read as (the product of
/// the groups' sizes); an object with more keeps its further groups as an open object. It
/// holds every choice of a struct of six fields read under three keys each (3^6 = 729), as
/// this crate's receiver view of such a struct says.
const MAX_ALTERNATIVES: usize = 1024;

/// Keys of one object a producer writes exactly one of (`exactly_one`), or at most one of:
/// the export's alias constraint, in a producer's schema.
#[derive(Debug, Clone)]
struct KeyGroup {
    keys: Vec<String>,
    exactly_one: bool,
}

/// A producer's struct with groups of keys it writes one of: a sender view writes each field
/// under one key, so the object is read as the untagged enum of its alternatives, one struct
/// per choice of a key in each group (the other keys of the group left out; the chosen one
/// written always when the group says exactly one, else when present), which the
/// compatibility engine compares with a reader's struct alternative by alternative. Without
/// groups, the struct itself.
fn alternatives(def: StructDef, groups: &[KeyGroup]) -> Body {
    if groups.is_empty() {
        return Body::Struct(def);
    }
    let mut choices: Vec<Vec<&str>> = vec![Vec::new()];
    for group in groups {
        choices = choices
            .into_iter()
            .flat_map(|chosen| {
                group.keys.iter().map(move |key| {
                    let mut next = chosen.clone();
                    next.push(key.as_str());
                    next
                })
            })
            .collect();
    }
    let variants = choices
        .into_iter()
        .map(|chosen| {
            let mut alternative = def.clone();
            alternative.fields.retain(|f| {
                let Some(key) = f.sender.as_ref().map(|s| s.name.as_str()) else {
                    return true;
                };
                groups
                    .iter()
                    .zip(&chosen)
                    .all(|(g, c)| !g.keys.iter().any(|k| k == key) || key == *c)
            });
            for field in &mut alternative.fields {
                let Some(sender) = field.sender.as_mut() else {
                    continue;
                };
                let exactly_one = groups
                    .iter()
                    .zip(&chosen)
                    .any(|(g, c)| g.exactly_one && sender.name == *c);
                if exactly_one {
                    sender.emit = Emit::Always;
                    if let Some(receiver) = field.receiver.as_mut() {
                        receiver.required = true;
                    }
                }
            }
            let name = chosen.join("+");
            VariantDef {
                rust_name: name.clone(),
                sender: Some(name.clone()),
                receiver: vec![name],
                other: false,
                untagged: false,
                kind: VariantDefKind::Struct(alternative),
                doc: String::new(),
            }
        })
        .collect();
    Body::Enum(EnumDef {
        repr: Repr::Untagged,
        variants,
        deny_unknown_fields: false,
    })
}

/// The `propertyNames` pattern the export once wrote for an unsigned integer key (any
/// digits: read as `u128`); it now writes the digits of the kind's range.
const UNSIGNED_KEY: &str = "^(0|[1-9][0-9]*)$";
/// The `propertyNames` pattern the export once wrote for a signed integer key (read as
/// `i128`).
const SIGNED_KEY: &str = "^(0|-?[1-9][0-9]*)$";

impl Importer<'_> {
    /// An object: a map when it has neither `properties` nor `required` and is not closed,
    /// a struct otherwise.
    pub(super) fn object(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Shaped> {
        let closed = matches!(self.additional(map).1, Some(Value::Bool(false)));
        if !map.contains_key("properties") && !map.contains_key("required") && !closed {
            return self.map_type(map, pointer, hint).map(Shaped::Type);
        }
        let (def, groups) = self.grouped_fields(map, pointer, hint, &[])?;
        Ok(Shaped::Body(alternatives(def, &groups)))
    }

    /// What a struct schema written as a variant's content carries: its fields, or, for a
    /// producer whose object writes one of several keys (see [`alternatives`]), a newtype of
    /// the untagged enum of its alternatives, a named type from `hint`.
    pub(super) fn struct_content(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
        skip: &[&str],
    ) -> Result<VariantDefKind> {
        let (def, groups) = self.grouped_fields(map, pointer, hint, skip)?;
        Ok(match alternatives(def, &groups) {
            Body::Struct(def) => VariantDefKind::Struct(def),
            body => VariantDefKind::Newtype(self.named(hint, String::new(), body)),
        })
    }

    /// `additionalProperties`, or `unevaluatedProperties` when that alone is given (the export
    /// closes an object so beside flattened enums), with its key.
    fn additional<'m>(&self, map: &'m Map<String, Value>) -> (&'static str, Option<&'m Value>) {
        match (
            map.get("additionalProperties"),
            map.get("unevaluatedProperties"),
        ) {
            (None, Some(v)) => ("unevaluatedProperties", Some(v)),
            (v, _) => ("additionalProperties", v),
        }
    }

    /// A struct's fields and its policy for other keys.
    /// A struct whose properties named in `skip` (the tags of the enum it is a variant of)
    /// are not fields, with the groups of keys a producer writes exactly one (or at most
    /// one) of: the export's alias constraints, read in a producer's schema (see
    /// [`alternatives`]). A consumer's are its fields' aliases, and no group is returned.
    fn grouped_fields(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
        skip: &[&str],
    ) -> Result<(StructDef, Vec<KeyGroup>)> {
        let empty = Map::new();
        let properties = match map.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(error(
                    &child(pointer, "properties"),
                    "`properties` is not an object".to_owned(),
                ))
            }
        };
        let required_list: Vec<&str> = match map.get("required") {
            None => Vec::new(),
            Some(v) => strings(v).ok_or_else(|| {
                error(
                    &child(pointer, "required"),
                    "`required` is not an array of strings".to_owned(),
                )
            })?,
        };
        let mut required: HashSet<&str> = required_list.iter().copied().collect();
        let receiver = !self.sender();
        // Aliases (receiver view): a property marked `x-handoff-alias-of` is another key of
        // the field it names.
        let mut aliases: HashMap<&str, Vec<String>> = HashMap::new();
        let mut alias_of: HashMap<&str, &str> = HashMap::new();
        if receiver {
            for (key, schema) in properties {
                if let Some(primary) = schema.get("x-handoff-alias-of").and_then(Value::as_str) {
                    if primary != key && properties.contains_key(primary) {
                        aliases.entry(primary).or_default().push(key.clone());
                        alias_of.insert(key.as_str(), primary);
                    }
                }
            }
        }
        if receiver {
            // Without the annotations, a group of the export's alias constraint whose keys
            // are properties of one schema is one field: its first key the field's own, the
            // others its aliases (serde reads any one of them, and refuses two).
            let entries = map.get("allOf").and_then(Value::as_array);
            for entry in entries.into_iter().flatten() {
                let Some((names, _)) = key_group(entry) else {
                    continue;
                };
                let Some((primary, others)) = names.split_first() else {
                    continue;
                };
                let fresh = names
                    .iter()
                    .all(|n| !alias_of.contains_key(n) && !aliases.contains_key(n));
                let one_schema = properties.get(*primary).map(without_alias_of);
                let same = one_schema.is_some()
                    && others
                        .iter()
                        .all(|n| properties.get(*n).map(without_alias_of) == one_schema);
                if !fresh || !same || others.is_empty() || names.iter().any(|n| skip.contains(n)) {
                    continue;
                }
                for other in others {
                    aliases
                        .entry(primary)
                        .or_default()
                        .push((*other).to_owned());
                    alias_of.insert(other, primary);
                }
            }
        }
        // A producer's groups of keys it writes one of: disjoint, each key a property, at
        // most `MAX_ALTERNATIVES` alternatives in all (beyond, the constraint is dropped with
        // a warning below and the object read as open, which may write more than it does).
        let mut groups: Vec<KeyGroup> = Vec::new();
        let mut grouped_entries: HashSet<usize> = HashSet::new();
        if self.sender() {
            let entries = map.get("allOf").and_then(Value::as_array);
            let mut count = 1_usize;
            for (i, entry) in entries.into_iter().flatten().enumerate() {
                let Some((names, exactly_one)) = key_group(entry) else {
                    continue;
                };
                let usable = names.len() > 1
                    && names.iter().all(|n| {
                        properties.contains_key(*n)
                            && !skip.contains(n)
                            && !groups.iter().any(|g| g.keys.iter().any(|k| k == n))
                    });
                let within = count.saturating_mul(names.len()) <= MAX_ALTERNATIVES;
                if usable && within {
                    count *= names.len();
                    grouped_entries.insert(i);
                    groups.push(KeyGroup {
                        keys: names.iter().map(|n| (*n).to_owned()).collect(),
                        exactly_one,
                    });
                }
            }
        }
        // This crate's flattened enums: read from their annotation, their keys' `allOf`
        // entries then said by it. A member dropped (not an enum) opens a producer's object.
        let flattened = self.flattened(map, pointer, hint)?;
        let mut opened = flattened.as_ref().is_some_and(|(_, dropped)| *dropped);
        if let Some(all) = map.get("allOf") {
            let all_at = child(pointer, "allOf");
            let Some(all) = all.as_array() else {
                return Err(error(&all_at, "`allOf` is not an array".to_owned()));
            };
            for (i, entry) in all.iter().enumerate() {
                let at = item(&all_at, i);
                if grouped_entries.contains(&i) {
                    continue;
                }
                match key_group(entry) {
                    Some((names, exactly_one)) if alias_group(&names, &alias_of) => {
                        if exactly_one {
                            if let Some(first) = names.first() {
                                let primary = alias_of.get(first).copied().unwrap_or(first);
                                required.insert(primary);
                            }
                        }
                    }
                    _ if flattened.is_some() => {}
                    _ => {
                        self.unsupported(&at, "an `allOf` beside an object's properties (the keys of a flattened enum, a constraint across keys) is not read")?;
                        opened = true;
                    }
                }
            }
        }
        let properties_at = child(pointer, "properties");
        let mut fields = Vec::with_capacity(properties.len());
        for (key, schema) in properties {
            if alias_of.contains_key(key.as_str()) || skip.contains(&key.as_str()) {
                continue;
            }
            let at = child(&properties_at, key);
            let ty = self.ty(schema, &at, &format!("{hint}.{key}"))?;
            let is_required = required.contains(key.as_str());
            if self.sender() && !is_required && schema.get("default").is_some() {
                self.warn(
                    &child(&at, "default"),
                    format!("`{key}` has a `default` but is not required: read as written only when present; a producer that always writes it (pydantic's serialization schema with `json_schema_serialization_defaults_required=True`) lists it as required"),
                );
            }
            fields.push(self.field(key, schema, ty, is_required, aliases.remove(key.as_str())));
        }
        // A required name without a property: any value under it (once, however often
        // `required` lists it).
        let mut listed: HashSet<&str> = HashSet::with_capacity(required_list.len());
        for name in &required_list {
            if !properties.contains_key(*name) && !skip.contains(name) && listed.insert(name) {
                fields.push(self.field(name, &Value::Bool(true), Type::Any, true, None));
            }
        }
        if map.contains_key("patternProperties") {
            self.unsupported(
                &child(pointer, "patternProperties"),
                "`patternProperties` is not read: the model has no key patterns",
            )?;
            opened = true;
        }
        let (additional_key, additional) = self.additional(map);
        let (mut unknown, mut extra) = match additional {
            None | Some(Value::Bool(true)) if self.sender() => (Unknown::Capture, Some(Type::Any)),
            None | Some(Value::Bool(true)) => (Unknown::Ignore, None),
            Some(Value::Bool(false)) => (Unknown::Deny, None),
            Some(schema) => {
                let ty = self.ty(
                    schema,
                    &child(pointer, additional_key),
                    &format!("{hint}.*"),
                )?;
                (Unknown::Capture, Some(ty))
            }
        };
        if opened && self.sender() {
            unknown = Unknown::Capture;
            extra = Some(Type::Any);
        }
        self.rest(
            map,
            pointer,
            &[
                "type",
                "properties",
                "required",
                "additionalProperties",
                "unevaluatedProperties",
                "allOf",
                "patternProperties",
            ],
        )?;
        let mut flattened = flattened.map(|(members, _)| members).unwrap_or_default();
        self.distinct_rust_names(&mut fields, &mut flattened, &groups, properties, pointer);
        let def = StructDef {
            fields,
            unknown,
            extra,
            flattened,
        };
        Ok((def, groups))
    }

    /// Gives each of a struct's fields and flattened members a Rust name of its own, as a
    /// Rust struct has: one that an earlier one has (two properties annotated with one
    /// `x-handoff-rust`, a key that is another property's annotated name) becomes
    /// `name_2`, `name_3`, …, with a warning at the property (or the flattened member, or
    /// `required` for a field it alone names).
    /// The keys of one of `groups` share their name: a producer writes one of them, each
    /// in an alternative of its own (see [`alternatives`]), as this crate's export writes
    /// a field's aliases.
    fn distinct_rust_names(
        &mut self,
        fields: &mut [FieldDef],
        flattened: &mut [FlatEnumDef],
        groups: &[KeyGroup],
        properties: &Map<String, Value>,
        pointer: &str,
    ) {
        // A fresh name is none of the members' own, so that no later member loses its own.
        let own: HashSet<String> = fields
            .iter()
            .map(|f| f.rust_name.clone())
            .chain(flattened.iter().map(|m| m.rust_name.clone()))
            .collect();
        // Each name taken, with the group of the key that took it.
        let mut taken: HashMap<String, Option<usize>> = HashMap::with_capacity(own.len());
        let mut clashes: Vec<(String, String, String)> = Vec::new();
        let properties_at = child(pointer, "properties");
        let flattened_at = child(pointer, "x-handoff-flattened");
        let members = fields
            .iter_mut()
            .map(|f| {
                let key = f
                    .sender
                    .as_ref()
                    .map(|s| s.name.clone())
                    .or_else(|| f.receiver.as_ref().map(|r| r.name.clone()))
                    .unwrap_or_default();
                let group = groups.iter().position(|g| g.keys.contains(&key));
                // A field only `required` names is warned at that list.
                let at = if properties.contains_key(&key) {
                    child(&properties_at, &key)
                } else {
                    child(pointer, "required")
                };
                (&mut f.rust_name, at, group)
            })
            .chain(
                flattened
                    .iter_mut()
                    .enumerate()
                    .map(|(i, m)| (&mut m.rust_name, item(&flattened_at, i), None)),
            );
        for (name, at, group) in members {
            match taken.get(name.as_str()) {
                None => {
                    taken.insert(name.clone(), group);
                    continue;
                }
                Some(Some(earlier)) if group == Some(*earlier) => continue,
                Some(_) => {}
            }
            let fresh = (2_usize..)
                .map(|n| format!("{name}_{n}"))
                .find(|candidate| !taken.contains_key(candidate) && !own.contains(candidate))
                .unwrap_or_default();
            taken.insert(fresh.clone(), group);
            clashes.push((at, std::mem::replace(name, fresh.clone()), fresh));
        }
        for (at, name, fresh) in clashes {
            self.warn(
                &at,
                format!("a second member of the Rust name `{name}` (its `x-handoff-rust`, or its key): read as `{fresh}`"),
            );
        }
    }

    /// The flattened enums of `x-handoff-flattened`, when given: each sent and read, as the
    /// view the export was made for has it; with whether one was dropped.
    ///
    /// A member is flattened as the enum its type is. Where the type is no enum, the keys the
    /// object's `allOf` entry for the member takes say the enum as serde flattens it: this
    /// crate's consumer view writes a string enum with a catch-all as any string (serde
    /// reads any other string as the catch-all), but flattened, serde writes and reads a
    /// unit variant as its name, a key holding `null`, and no other key goes to the
    /// catch-all. Where the entry is not such an enum either, the member is not read (what
    /// the model cannot hold: the text flattens enums only).
    fn flattened(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Option<(Vec<FlatEnumDef>, bool)>> {
        let Some(entries) = map.get("x-handoff-flattened") else {
            return Ok(None);
        };
        let at = child(pointer, "x-handoff-flattened");
        let malformed = |at: &str| {
            error(
                at,
                "not an array of flattened enums, each `{\"rust\": NAME, \"type\": SCHEMA}`"
                    .to_owned(),
            )
        };
        let entries = entries.as_array().ok_or_else(|| malformed(&at))?;
        let mut out = Vec::with_capacity(entries.len());
        let mut dropped = false;
        for (i, entry) in entries.iter().enumerate() {
            let entry_at = item(&at, i);
            let (Some(rust_name), Some(schema)) =
                (entry.get("rust").and_then(Value::as_str), entry.get("type"))
            else {
                return Err(malformed(&entry_at));
            };
            let member_hint = format!("{hint}.{rust_name}");
            let ty = self.ty(schema, &child(&entry_at, "type"), &member_hint)?;
            let kind = self.flat_kind(&ty);
            if matches!(kind, FlatKind::NotEnum) {
                self.unflattened.extend(named_through_option(&ty));
            }
            let ty = match kind {
                FlatKind::Enum => ty,
                FlatKind::Pending => {
                    self.pending_flats.push((entry_at, ty.clone()));
                    ty
                }
                FlatKind::NotEnum => {
                    match flat_string_enum(map, rust_name).or_else(|| self.flat_names(map, &ty)) {
                        Some((variants, optional)) => {
                            let rust_path = self.rust_path_of(&ty);
                            let body = Body::Enum(EnumDef {
                                repr: Repr::External,
                                variants,
                                deny_unknown_fields: false,
                            });
                            let named = self.named(&member_hint, rust_path, body);
                            if optional {
                                Type::option_of(named)
                            } else {
                                named
                            }
                        }
                        None => {
                            self.unsupported(&entry_at, NOT_AN_ENUM)?;
                            dropped = true;
                            continue;
                        }
                    }
                }
            };
            out.push(FlatEnumDef {
                rust_name: rust_name.to_owned(),
                ty,
                sent: true,
                read: true,
                doc: String::new(),
            });
        }
        Ok(Some((out, dropped)))
    }

    /// Whether `ty` is an enum a struct can flatten (through `option` and newtypes, as the
    /// model resolves one), as far as the types read so far say.
    fn flat_kind(&self, ty: &Type) -> FlatKind {
        let mut ty = ty;
        // An `option` is a step into a smaller type, so those steps end; a newtype may lead
        // back to itself, so more newtypes passed than types read is a loop.
        let mut newtypes = 0_usize;
        loop {
            match ty {
                Type::Option(inner) => ty = inner,
                Type::Named(name) => match self.types.get(name).map(|d| &d.body) {
                    Some(Body::Enum(_)) => return FlatKind::Enum,
                    Some(Body::Newtype(inner)) if newtypes < self.types.len() => {
                        newtypes += 1;
                        ty = inner;
                    }
                    Some(_) => return FlatKind::NotEnum,
                    None => return FlatKind::Pending,
                },
                _ => return FlatKind::NotEnum,
            }
        }
    }

    /// The optional string enum a consumer's struct flattens as `ty`, an `option` of a
    /// string schema of `examples`, or of a `oneOf` of the variants' names beside a
    /// catch-all (this crate's consumer view of a string enum with a catch-all, without and
    /// with docs, whichever role the document is read in): the export writes its names
    /// alone as the `properties` of one `allOf` entry, each `true`, without the member's
    /// name (serde reads `None` whatever the keys hold), so the entry whose keys are those
    /// names is the member's. The variants (one per name of `examples`, one per
    /// alternative of `oneOf`), and that the member is an `option`; `None` when there is no
    /// such entry.
    fn flat_names(&self, map: &Map<String, Value>, ty: &Type) -> Option<(Vec<VariantDef>, bool)> {
        if !matches!(ty, Type::Option(_)) {
            return None;
        }
        let name = named_through_option(ty)?;
        let target = self
            .refs
            .iter()
            .find(|(_, given)| **given == name)
            .map(|(pointer, _)| pointer.as_str())?;
        let target = self.doc.pointer(if target == "#" { "" } else { target })?;
        if target.get("type").and_then(Value::as_str) != Some("string") {
            return None;
        }
        // Each variant's Rust name, names and alternative: one per name of `examples`, or,
        // where the variants have docs, one per alternative of `oneOf` that lists names
        // (`const` or `enum`), the catch-all's (any other string) left out.
        let mut listed: Vec<(&str, Vec<&str>, &Value)> = Vec::new();
        if let Some(names) = target.get("examples").and_then(strings) {
            listed.extend(names.into_iter().map(|n| (n, vec![n], &Value::Null)));
        } else {
            for alternative in target.get("oneOf")?.as_array()? {
                if alternative.get("x-handoff-catch-all") == Some(&Value::Bool(true)) {
                    continue;
                }
                let names = match (alternative.get("const"), alternative.get("enum")) {
                    (Some(Value::String(one)), None) => vec![one.as_str()],
                    (None, Some(many)) => strings(many)?,
                    _ => return None,
                };
                let first = names.first().copied()?;
                let title = alternative.get("title").and_then(Value::as_str);
                listed.push((title.unwrap_or(first), names, alternative));
            }
        }
        let mut sorted: Vec<&str> = listed.iter().flat_map(|(_, n, _)| n.clone()).collect();
        sorted.sort_unstable();
        let entry = map.get("allOf")?.as_array()?.iter().find(|entry| {
            let Some(entry) = entry.as_object() else {
                return false;
            };
            let Some(Value::Object(properties)) = entry.get("properties") else {
                return false;
            };
            let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
            keys.sort_unstable();
            entry.len() == 1
                && keys == sorted
                && properties.values().all(|v| *v == Value::Bool(true))
        });
        entry?;
        let variants = listed
            .iter()
            .map(|(rust, names, written)| {
                super::tagged::variant(rust, names, VariantDefKind::Unit, written)
            })
            .collect();
        Some((variants, true))
    }

    /// The Rust path of the first named type `ty` is or holds (through `option`).
    fn rust_path_of(&self, ty: &Type) -> String {
        match ty {
            Type::Option(inner) => self.rust_path_of(inner),
            Type::Named(name) => self
                .types
                .get(name)
                .map(|d| d.rust_path.clone())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// One field, both views: the sender writes it always when required, else when present;
    /// the receiver reads it under its key and aliases.
    fn field(
        &mut self,
        key: &str,
        schema: &Value,
        ty: Type,
        required: bool,
        aliases: Option<Vec<String>>,
    ) -> FieldDef {
        let rust_name = schema
            .get("x-handoff-rust")
            .and_then(Value::as_str)
            .unwrap_or(key)
            .to_owned();
        let provenance = match schema.get("x-handoff-provenance").and_then(Value::as_str) {
            Some("assumption") => Provenance::Assumption,
            // A peer's consumer knows nothing of provenance: it relies on no confirmation,
            // so it reads either.
            _ if !self.own && !self.sender() => Provenance::Assumption,
            _ => Provenance::Confirmed,
        };
        let renamed_from = schema
            .get("x-handoff-renamed-from")
            .and_then(strings)
            .map(|names| names.into_iter().map(str::to_owned).collect())
            .unwrap_or_default();
        FieldDef {
            rust_name,
            ty,
            sender: Some(SenderField {
                name: key.to_owned(),
                emit: if required {
                    Emit::Always
                } else {
                    Emit::IfPresent
                },
            }),
            receiver: Some(ReceiverField {
                name: key.to_owned(),
                aliases: aliases.unwrap_or_default(),
                required,
            }),
            provenance,
            renamed_from,
            doc: schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        }
    }

    /// A map: `additionalProperties` its values, `propertyNames` its keys.
    fn map_type(&mut self, map: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Type> {
        let (additional_key, additional) = self.additional(map);
        let value = match additional {
            None | Some(Value::Bool(true)) => Type::Any,
            Some(schema) => self.ty(
                schema,
                &child(pointer, additional_key),
                &format!("{hint}.*"),
            )?,
        };
        let key = match map.get("propertyNames") {
            None => Type::String(crate::model::StringFormat::Plain),
            Some(names) => self.key_type(names, &child(pointer, "propertyNames"), hint)?,
        };
        self.rest(
            map,
            pointer,
            &[
                "type",
                "additionalProperties",
                "unevaluatedProperties",
                "propertyNames",
            ],
        )?;
        Ok(Type::Map(Box::new(key), Box::new(value)))
    }

    /// A map's key type from `propertyNames`: the export's integer patterns, `true`/`false`,
    /// integers listed as strings, else a string schema.
    fn key_type(&mut self, names: &Value, pointer: &str, hint: &str) -> Result<Type> {
        let Value::Object(map) = names else {
            return self.ty(names, pointer, hint);
        };
        let only = |k: &str| map.keys().all(|x| x == k || x == "type");
        match map.get("pattern").and_then(Value::as_str) {
            Some(UNSIGNED_KEY) if only("pattern") => return Ok(Type::Int(IntKind::U128)),
            Some(SIGNED_KEY) if only("pattern") => return Ok(Type::Int(IntKind::I128)),
            // The export's digits of a kind's range or of a set's ranges.
            Some(pattern) if only("pattern") => {
                if let Some(ranges) = super::super::digits::ranges(pattern) {
                    return Ok(super::scalars::int_set(ranges));
                }
            }
            _ => {}
        }
        if let (Some(listed), true) = (map.get("enum").and_then(strings), only("enum")) {
            let mut sorted = listed.clone();
            sorted.sort_unstable();
            if sorted == ["false", "true"] {
                return Ok(Type::Bool);
            }
            let ints: Option<Vec<IntValue>> = listed.iter().map(|s| digits(s)).collect();
            if let Some(ints) = ints.filter(|v| !v.is_empty()) {
                return Ok(super::scalars::int_set(
                    ints.into_iter().map(IntRange::one).collect(),
                ));
            }
        }
        let stringly = ["type", "$ref", "anyOf", "oneOf", "enum", "const"]
            .iter()
            .all(|k| !map.contains_key(*k));
        if stringly {
            let mut with_type = map.clone();
            with_type.insert("type".into(), Value::String("string".into()));
            return self.ty(&Value::Object(with_type), pointer, hint);
        }
        self.ty(names, pointer, hint)
    }
}

/// What a flattened member's type is, as far as the types read so far say.
enum FlatKind {
    /// An enum, or an `option` of one.
    Enum,
    /// Anything else.
    NotEnum,
    /// A named type still being read.
    Pending,
}

/// The name `ty` is, through `option`s.
pub(super) fn named_through_option(ty: &Type) -> Option<String> {
    match ty {
        Type::Option(inner) => named_through_option(inner),
        Type::Named(name) => Some(name.clone()),
        _ => None,
    }
}

/// Why a flattened member is not read.
pub(super) const NOT_AN_ENUM: &str = "a flattened member that is not an enum is not read: a struct flattens enums only (the keys of its `allOf` entry say no enum of unit variants either)";

/// The string enum a struct flattens as `rust_name`, from the object's `allOf` entry for it
/// (`x-handoff-rust` is `rust_name`), as this crate's export writes an externally tagged
/// enum of unit variants beside a struct's fields: a `oneOf` of objects each of one
/// variant's names (`required`, or an `anyOf` of them, its aliases) holding `null`, titled
/// by the variant; `anyOf` of that and `{}` when optional; `not: {}` when no variant is in
/// the view. (A consumer's optional one is its names alone: see `Importer::flat_names`.)
/// The variants, and whether the member is an `option`; `None` when the entry is not so.
fn flat_string_enum(map: &Map<String, Value>, rust_name: &str) -> Option<(Vec<VariantDef>, bool)> {
    let entry = map
        .get("allOf")?
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .find(|e| e.get("x-handoff-rust").and_then(Value::as_str) == Some(rust_name))?;
    let annotation = |k: &str| matches!(k, "x-handoff-rust" | "description" | "title");
    let (body, optional) = match entry
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([inner, Value::Object(any)]) if any.is_empty() => (inner.as_object()?, true),
        _ => (entry, false),
    };
    if optional && !entry.keys().all(|k| k == "anyOf" || annotation(k)) {
        return None;
    }
    let unit = |v: &Value| {
        v.as_object()
            .is_some_and(|m| m.len() == 1 && m.get("type") == Some(&Value::String("null".into())))
    };
    if body
        .get("not")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
        && body.keys().all(|k| k == "not" || annotation(k))
    {
        return Some((Vec::new(), optional));
    }
    if !body
        .keys()
        .all(|k| matches!(k.as_str(), "oneOf" | "allOf") || annotation(k))
    {
        return None;
    }
    let mut variants = Vec::new();
    for alternative in body.get("oneOf")?.as_array()? {
        let alt = alternative.as_object()?;
        let properties = alt.get("properties")?.as_object()?;
        // One name required, or any one of several (a variant's aliases), in that order:
        // each a property holding `null`, and no other property.
        let names: Vec<&str> = match (alt.get("required").and_then(strings), alt.get("anyOf")) {
            (Some(one), None) if one.len() == 1 => one,
            (None, Some(Value::Array(any))) => any
                .iter()
                .map(|a| match required_only(a)?.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                })
                .collect::<Option<Vec<&str>>>()?,
            _ => return None,
        };
        let listed = names.len() == properties.len()
            && names.iter().all(|n| properties.get(*n).is_some_and(unit));
        let other_keys = alt.keys().all(|k| {
            matches!(
                k.as_str(),
                "properties" | "required" | "anyOf" | "title" | "description"
            ) || k.starts_with("x-")
        });
        if !listed || !other_keys {
            return None;
        }
        let first = names.first().copied()?;
        let name = alt.get("title").and_then(Value::as_str).unwrap_or(first);
        variants.push(super::tagged::variant(
            name,
            &names,
            VariantDefKind::Unit,
            alternative,
        ));
    }
    Some((variants, optional))
}

/// The names of an alias constraint the export writes: `oneOf` of `required` of one name
/// each (exactly one of them: `true`), or `not` of `anyOf` of `required` pairs (at most one).
fn key_group(entry: &Value) -> Option<(Vec<&str>, bool)> {
    let map = entry.as_object()?;
    if map.len() != 1 {
        return None;
    }
    if let Some(alternatives) = map.get("oneOf").and_then(Value::as_array) {
        let names: Option<Vec<&str>> = alternatives
            .iter()
            .map(|a| match required_only(a)?.as_slice() {
                [one] => Some(*one),
                _ => None,
            })
            .collect();
        return names.map(|n| (n, true));
    }
    let pairs = map
        .get("not")?
        .as_object()
        .filter(|m| m.len() == 1)?
        .get("anyOf")?
        .as_array()?;
    let mut names = Vec::new();
    for pair in pairs {
        let pair = required_only(pair)?;
        if pair.len() != 2 {
            return None;
        }
        for name in pair {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    Some((names, false))
}

/// The names of a schema that only requires keys: `{"required": [...]}`, with or without the
/// `properties` of exactly those names, each `true`, that the export writes beside it (ajv's
/// strict mode refuses a `required` key no `properties` defines).
fn required_only(schema: &Value) -> Option<Vec<&str>> {
    let map = schema.as_object()?;
    let names = map.get("required").and_then(strings)?;
    match map.len() {
        1 => Some(names),
        2 => {
            let properties = map.get("properties")?.as_object()?;
            let same = properties.len() == names.len()
                && names
                    .iter()
                    .all(|n| properties.get(*n) == Some(&Value::Bool(true)));
            same.then_some(names)
        }
        _ => None,
    }
}

/// A property's schema without `x-handoff-alias-of`, the one annotation an alias's schema
/// has that its field's has not.
fn without_alias_of(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(map) = &mut schema {
        map.remove("x-handoff-alias-of");
    }
    schema
}

/// Whether `names` are one field's key and its aliases.
fn alias_group(names: &[&str], alias_of: &HashMap<&str, &str>) -> bool {
    let Some(first) = names.first() else {
        return false;
    };
    let primary = alias_of.get(first).copied().unwrap_or(first);
    names.len() > 1
        && names
            .iter()
            .all(|n| *n == primary || alias_of.get(n).copied() == Some(primary))
}

/// An integer written as a map key: `0`, or digits without a leading zero, `-` before.
fn digits(s: &str) -> Option<IntValue> {
    let body = s.strip_prefix('-').unwrap_or(s);
    if body.is_empty() || (body.len() > 1 && body.starts_with('0')) || s == "-0" {
        return None;
    }
    IntValue::parse(s.as_bytes())
}
