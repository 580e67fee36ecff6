//! What the compatibility tests share: schema fixers (plain fields are
//! `FieldDef::plain`).
// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use contract_schema::model::{
    Body, Emit, FieldDef, ReceiverField, Repr, Schema, StructDef, Type, VariantDefKind,
};
use contract_schema::shape::{FloatKind, IntKind, StringFormat};

/// Makes every type read what it writes, as a serde type that round-trips does: each field
/// is read under the name it is sent (no `rename(serialize, deserialize)`, no aliases), a
/// field sent only when present may be absent, a field never sent is never read, each
/// variant is read under the tag it is sent, and a type with two views reads what it sends.
pub fn consistent(mut schema: Schema) -> Schema {
    for def in schema.types.values_mut() {
        match &mut def.body {
            Body::Struct(s) => consistent_struct(s),
            Body::Enum(e) => {
                for v in &mut e.variants {
                    if let Some(tag) = &v.sender {
                        v.receiver = vec![tag.clone()];
                    } else if !v.other {
                        v.receiver.clear();
                    }
                    if let VariantDefKind::Struct(s) = &mut v.kind {
                        consistent_struct(s);
                    }
                }
            }
            Body::Newtype(_) => {}
            // A type that reads what it writes has one view.
            Body::Views { sender, .. } => def.body = Body::Newtype(sender.clone()),
        }
    }
    without_units_beside_tags(&mut schema);
    schema
}

/// The untagged enums an internally tagged newtype variant holds (through newtypes, and
/// through their own newtype variants of untagged enums) lose their unit variants: serde
/// writes one there as the tag alone and cannot read that back (an untagged unit variant
/// reads only `null`), so no serde type round-trips with one.
fn without_units_beside_tags(schema: &mut Schema) {
    let untagged = |schema: &Schema, ty: &Type| match schema.resolve(ty) {
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Enum(e)) if e.repr == Repr::Untagged => Some(name.clone()),
            _ => None,
        },
        _ => None,
    };
    let mut pending: Vec<String> = schema
        .types
        .values()
        .filter_map(|d| match &d.body {
            Body::Enum(e) if matches!(e.repr, Repr::Internal { .. }) => Some(e),
            _ => None,
        })
        .flat_map(|e| e.variants.iter().filter(|v| !v.untagged))
        .filter_map(|v| match &v.kind {
            VariantDefKind::Newtype(ty) => untagged(schema, ty),
            _ => None,
        })
        .collect();
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = pending.pop() {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        if let Some(Body::Enum(e)) = schema.def(&name).map(|d| &d.body) {
            for v in &e.variants {
                if let VariantDefKind::Newtype(ty) = &v.kind {
                    pending.extend(untagged(schema, ty));
                }
            }
        }
    }
    for name in seen {
        if let Some(Body::Enum(e)) = schema.types.get_mut(&name).map(|d| &mut d.body) {
            for v in &mut e.variants {
                if matches!(v.kind, VariantDefKind::Unit) {
                    v.sender = None;
                    v.receiver.clear();
                }
            }
        }
    }
    // Likewise an internally tagged newtype variant of a map whose keys do not read a string:
    // serde reads the keys beside the tag only as strings.
    let unread: Vec<(String, usize)> = schema
        .types
        .iter()
        .filter_map(|(name, d)| match &d.body {
            Body::Enum(e) if matches!(e.repr, Repr::Internal { .. }) => Some((name, e)),
            _ => None,
        })
        .flat_map(|(name, e)| {
            e.variants
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.untagged && map_of_unread_keys(schema, &v.kind))
                .map(move |(i, _)| (name.clone(), i))
        })
        .collect();
    for (name, i) in unread {
        if let Some(Body::Enum(e)) = schema.types.get_mut(&name).map(|d| &mut d.body) {
            if let Some(v) = e.variants.get_mut(i) {
                v.sender = None;
                v.receiver.clear();
            }
        }
    }
}

/// Whether `kind` is a newtype of a map (through newtypes) whose key type reads no string
/// serde buffered (an integer, a `bool`, a float, anything but a string, `char`, `any` or a
/// string enum).
fn map_of_unread_keys(schema: &Schema, kind: &VariantDefKind) -> bool {
    let VariantDefKind::Newtype(ty) = kind else {
        return false;
    };
    let Type::Map(key, _) = schema.resolve(ty) else {
        return false;
    };
    match schema.resolve(key) {
        Type::String(_) | Type::Char | Type::Any => false,
        Type::Constrained(c) => !matches!(&**c, contract_schema::model::Constraint::String(_)),
        Type::Named(name) => !matches!(
            schema.def(name).map(|d| &d.body),
            Some(Body::Enum(def)) if def.is_string_enum()
        ),
        _ => true,
    }
}

fn consistent_struct(s: &mut StructDef) {
    for f in &mut s.flattened {
        f.read = f.sent;
    }
    for f in &mut s.fields {
        match &f.sender {
            Some(sent) => {
                let required =
                    f.receiver.as_ref().is_some_and(|r| r.required) && sent.emit == Emit::Always;
                f.receiver = Some(ReceiverField {
                    name: sent.name.clone(),
                    aliases: Vec::new(),
                    required,
                });
            }
            None => f.receiver = None,
        }
    }
}

/// A schema whose root is the struct `name`, consistent.
pub fn rooted(schema: &Schema, name: &str) -> Schema {
    let mut s = consistent(schema.clone());
    s.root = Type::Named(name.to_owned());
    s
}

/// The root struct of a schema built by [`rooted`].
pub fn root_struct(schema: &mut Schema) -> &mut StructDef {
    let Type::Named(name) = &schema.root else {
        panic!("the root is a named struct")
    };
    match schema.types.get_mut(name).map(|d| &mut d.body) {
        Some(Body::Struct(s)) => s,
        _ => panic!("the root is a named struct"),
    }
}

/// Gives a field a new name in both views.
pub fn rename(field: &mut FieldDef, to: &str) {
    if let Some(s) = &mut field.sender {
        s.name = to.to_owned();
    }
    if let Some(r) = &mut field.receiver {
        r.name = to.to_owned();
    }
}

/// One change of a struct's fields, as `compat_props.rs` classifies it: its name, the schema
/// before and the schema after.
pub struct Step {
    pub name: &'static str,
    pub old: Schema,
    pub new: Schema,
}

/// The single-step changes `compat_props.rs` classifies, applied to the struct `pick` (modulo
/// the number of structs) made the root of `schema`, on its sent field `field` (modulo their
/// number): a required and an optional field added, the field removed, retyped to a narrower
/// and a wider integer, to a float and to something unrelated, made nullable, and renamed
/// (undeclared, then declared with the old name as an alias). Empty when `schema` has no
/// struct; the field changes are left out when its struct sends no field.
pub fn single_steps(schema: &Schema, pick: usize, field: usize) -> Vec<Step> {
    let structs: Vec<&String> = schema
        .types
        .iter()
        .filter(|(_, d)| matches!(d.body, Body::Struct(_)))
        .map(|(n, _)| n)
        .collect();
    let Some(name) = structs.get(pick % structs.len().max(1)) else {
        return Vec::new();
    };
    let base = rooted(schema, name);
    let mut steps = Vec::new();
    let mut step = |name: &'static str, old: &Schema, change: &dyn Fn(&mut StructDef)| {
        let mut new = old.clone();
        change(root_struct(&mut new));
        steps.push(Step {
            name,
            old: old.clone(),
            new,
        });
    };
    step("add required", &base, &|s| {
        s.fields.push(FieldDef::plain(
            "zzAdded",
            Type::String(StringFormat::Plain),
        ));
    });
    step("add optional", &base, &|s| {
        s.fields.push(FieldDef::plain(
            "zzAdded",
            Type::Option(Box::new(Type::Bool)),
        ));
    });
    let mut probe = base.clone();
    let sent: Vec<usize> = root_struct(&mut probe)
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.sender.is_some())
        .map(|(i, _)| i)
        .collect();
    let Some(&i) = sent.get(field % sent.len().max(1)) else {
        return steps;
    };
    step("remove", &base, &|s| {
        s.fields.remove(i);
    });
    // Integer changes start from an integer field, as `compat_props.rs` does.
    let mut int = base.clone();
    root_struct(&mut int).fields[i].ty = Type::Int(IntKind::I64);
    let mut narrow = base.clone();
    root_struct(&mut narrow).fields[i].ty = Type::Int(IntKind::U8);
    step("int narrowed", &int, &|s| {
        s.fields[i].ty = Type::Int(IntKind::U8)
    });
    step("int widened", &narrow, &|s| {
        s.fields[i].ty = Type::Int(IntKind::I64);
    });
    step("int became float", &int, &|s| {
        s.fields[i].ty = Type::Float(FloatKind::F64);
    });
    step("type changed", &int, &|s| s.fields[i].ty = Type::Bool);
    if !base
        .resolve(&root_struct(&mut probe).fields[i].ty)
        .is_nullable()
    {
        step("nullable", &base, &|s| {
            let f = &mut s.fields[i];
            f.ty = Type::Option(Box::new(f.ty.clone()));
            if let Some(r) = &mut f.receiver {
                r.required = false;
            }
        });
    }
    let field = root_struct(&mut probe).fields[i].clone();
    if let Some(old_name) = field.sender.as_ref().map(|s| s.name.clone()) {
        step("renamed", &base, &|s| rename(&mut s.fields[i], "zzRenamed"));
        step("renamed with alias", &base, &|s| {
            let f = &mut s.fields[i];
            rename(f, "zzRenamed");
            f.renamed_from.push(old_name.clone());
            if let Some(r) = &mut f.receiver {
                r.aliases.push(old_name.clone());
            }
        });
    }
    steps
}
