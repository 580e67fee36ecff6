//! What a finding's path reaches in one side's schema: the type there, the field the path
//! ends with and the enum a variant segment names, so that a hint for a peer can say the
//! bounds, values or type the other side asks for.
//!
//! A path is walked through the schema in the view of its side (a writer's sent keys and
//! tags, a reader's received keys, aliases and tags), through `Option`s and newtypes. A
//! segment the schema has nothing for ends the walk: the spot holds what was reached.

use crate::model::{Body, EnumDef, FieldDef, Schema, StructDef, Type, VariantDefKind, View};

/// What a path reaches in one schema.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Spot<'s> {
    /// The type at the end of the path, when the walk got there.
    pub(super) ty: Option<&'s Type>,
    /// The field the path's last segment names, when it names one that is there.
    pub(super) field: Option<&'s FieldDef>,
    /// The enum whose variant the path's last segment names (or the enum at the path's end).
    pub(super) enum_def: Option<&'s EnumDef>,
}

/// Walks `path` (a finding's, in wire names) through `schema` read in `view`.
pub(super) fn spot<'s>(schema: &'s Schema, view: View, path: &str) -> Spot<'s> {
    let walk = Walk { schema, view };
    walk.from(&schema.root, path)
}

struct Walk<'s> {
    schema: &'s Schema,
    view: View,
}

impl<'s> Walk<'s> {
    /// The walk along `path` from `start` (the root, or a variant's item or field).
    fn from(&self, start: &'s Type, path: &str) -> Spot<'s> {
        let mut spot = Spot {
            ty: Some(start),
            ..Spot::default()
        };
        let mut ty: &'s Type = start;
        let mut rest = path;
        // Every turn consumes a segment of the path or steps through an `Option` or a named
        // type's body; the named steps are bounded by the number of types.
        let mut steps = path.len() + 2 * (self.schema.types.len() + 1) + 2;
        while steps > 0 && !rest.is_empty() {
            steps -= 1;
            let rest_here = rest.strip_prefix('.').unwrap_or(rest);
            match ty {
                Type::Option(inner) => ty = inner,
                Type::List(inner) | Type::Set(inner) | Type::Array(inner, _) => {
                    let Some(after) = rest.strip_prefix("[]") else {
                        return Spot { ty: None, ..spot };
                    };
                    rest = after;
                    ty = inner;
                    spot = Spot {
                        ty: Some(ty),
                        field: None,
                        enum_def: None,
                    };
                }
                Type::Map(_, value) => {
                    let Some(after) = rest_here.strip_prefix('*') else {
                        return Spot { ty: None, ..spot };
                    };
                    rest = after;
                    ty = value;
                    spot = Spot {
                        ty: Some(ty),
                        field: None,
                        enum_def: None,
                    };
                }
                Type::Tuple(items) => {
                    let digits = rest_here.bytes().take_while(u8::is_ascii_digit).count();
                    let item = rest_here
                        .get(..digits)
                        .and_then(|d| d.parse::<usize>().ok())
                        .and_then(|i| items.get(i));
                    let Some(item) = item else {
                        return Spot { ty: None, ..spot };
                    };
                    rest = rest_here.get(digits..).unwrap_or_default();
                    ty = item;
                    spot = Spot {
                        ty: Some(ty),
                        field: None,
                        enum_def: None,
                    };
                }
                Type::Named(name) => {
                    let Some(def) = self.schema.def(name) else {
                        return Spot { ty: None, ..spot };
                    };
                    match &def.body {
                        Body::Newtype(inner) => ty = inner,
                        Body::Views { sender, receiver } => {
                            ty = match self.view {
                                View::Sender => sender,
                                View::Receiver => receiver,
                            };
                        }
                        Body::Struct(s) => {
                            let Some((field, after)) = self.field(s, rest_here) else {
                                return Spot { ty: None, ..spot };
                            };
                            rest = after;
                            ty = &field.ty;
                            spot = Spot {
                                ty: Some(ty),
                                field: Some(field),
                                enum_def: None,
                            };
                        }
                        Body::Enum(e) => {
                            let Some((kind, after)) = self.variant(e, rest) else {
                                return Spot {
                                    ty: None,
                                    field: None,
                                    enum_def: Some(e),
                                };
                            };
                            rest = after;
                            spot = Spot {
                                ty: None,
                                field: None,
                                enum_def: Some(e),
                            };
                            match kind {
                                VariantDefKind::Unit => return spot,
                                VariantDefKind::Newtype(inner) => {
                                    ty = inner;
                                    spot.ty = Some(ty);
                                }
                                VariantDefKind::Tuple(_) | VariantDefKind::Struct(_) => {
                                    return self.in_variant(kind, rest, spot);
                                }
                            }
                        }
                    }
                }
                _ => return Spot { ty: None, ..spot },
            }
        }
        if rest.is_empty() {
            // The enum at the path's end, when the type there is one.
            if spot.enum_def.is_none() {
                if let Some(Type::Named(name)) = spot.ty.map(|t| self.schema.resolve(t)) {
                    if let Some(Body::Enum(e)) = self.schema.def(name).map(|d| &d.body) {
                        spot.enum_def = Some(e);
                    }
                }
            }
            spot
        } else {
            Spot { ty: None, ..spot }
        }
    }

    /// Inside a tuple or struct variant: its item or field named next, then on.
    fn in_variant(&self, kind: &'s VariantDefKind, rest: &str, spot: Spot<'s>) -> Spot<'s> {
        if rest.is_empty() {
            return spot;
        }
        let rest_here = rest.strip_prefix('.').unwrap_or(rest);
        let (ty, field, after): (&'s Type, Option<&'s FieldDef>, &str) = match kind {
            VariantDefKind::Tuple(items) => {
                let digits = rest_here.bytes().take_while(u8::is_ascii_digit).count();
                let Some(item) = rest_here
                    .get(..digits)
                    .and_then(|d| d.parse::<usize>().ok())
                    .and_then(|i| items.get(i))
                else {
                    return Spot { ty: None, ..spot };
                };
                (item, None, rest_here.get(digits..).unwrap_or_default())
            }
            VariantDefKind::Struct(s) => {
                let Some((field, after)) = self.field(s, rest_here) else {
                    return Spot { ty: None, ..spot };
                };
                (&field.ty, Some(field), after)
            }
            VariantDefKind::Unit | VariantDefKind::Newtype(_) => return spot,
        };
        if after.is_empty() {
            return Spot {
                ty: Some(ty),
                field,
                enum_def: None,
            };
        }
        // Deeper: walk on from the item's or field's type.
        self.from(ty, after)
    }

    /// The field of `s` that `rest` starts with (its key in this view, longest first) and
    /// the path after it.
    fn field<'p>(&self, s: &'s StructDef, rest: &'p str) -> Option<(&'s FieldDef, &'p str)> {
        s.fields
            .iter()
            .flat_map(|f| {
                let keys: Vec<&'s str> = match self.view {
                    View::Sender => f.sender.iter().map(|s| s.name.as_str()).collect(),
                    View::Receiver => f
                        .receiver
                        .iter()
                        .flat_map(|r| {
                            core::iter::once(r.name.as_str())
                                .chain(r.aliases.iter().map(String::as_str))
                        })
                        .collect(),
                };
                keys.into_iter().map(move |k| (f, k))
            })
            .filter_map(|(f, key)| {
                let after = rest.strip_prefix(key)?;
                let ends = after.is_empty() || after.starts_with(['.', '[', '(']);
                ends.then_some((f, after, key.len()))
            })
            .max_by_key(|&(_, _, len)| len)
            .map(|(f, after, _)| (f, after))
    }

    /// The variant of `e` that `rest` starts with, `(tag)`, and the path after it.
    fn variant<'p>(&self, e: &'s EnumDef, rest: &'p str) -> Option<(&'s VariantDefKind, &'p str)> {
        let inside = rest.strip_prefix('(')?;
        e.variants
            .iter()
            .flat_map(|v| {
                let tags: Vec<&'s str> = match self.view {
                    View::Sender => v.sender.iter().map(String::as_str).collect(),
                    View::Receiver => v.receiver.iter().map(String::as_str).collect(),
                };
                core::iter::once(v.rust_name.as_str())
                    .chain(tags)
                    .map(move |tag| (v, tag))
            })
            .filter_map(|(v, tag)| {
                let after = inside.strip_prefix(tag)?.strip_prefix(')')?;
                Some((&v.kind, after, tag.len()))
            })
            .max_by_key(|&(_, _, len)| len)
            .map(|(kind, after, _)| (kind, after))
    }
}
