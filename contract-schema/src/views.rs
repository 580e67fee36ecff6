//! The two views of a struct's fields and of an enum's variants, from a plain description of
//! what serde's attributes say about them: serde's rules, written once.
//!
//! Two places describe a type, and both go through here: the builder
//! ([`Schema::from_shape`](crate::Schema::from_shape)) translates the static
//! [`Shape`](crate::shape::Shape) the derive emits, and the derive's compile-time check
//! translates the syntax of a contract (with what the syntax cannot tell taken from the
//! published snapshot). Neither applies a rule of its own: each says only what it knows of a
//! field (its names, its serde flags, its type and whether that type reads a missing key as a
//! value) or of a variant, and [`struct_def`] and [`enum_def`] give the views.
//!
//! The rules:
//!
//! - A field or a variant skipped both ways (`skip`, or `skip_serializing` and
//!   `skip_deserializing`) is on the wire in neither view: it is left out.
//! - The sender never writes a field that is `skip_serializing`; it writes it only when
//!   present with `skip_serializing_if`, or when it sits inside a flattened `Option` (serde
//!   writes the inner fields of `Some` only); otherwise always, an `Option`'s `None` as `null`.
//!   When the predicate is `Option::is_none` ([`FieldSpec::skip_if_none`]) on an `Option`,
//!   it is written only when `Some`, as what the `Option` holds, never as `null`
//!   ([`Emit::IfSome`]).
//! - The receiver never reads a field that is `skip_deserializing`; it reads it under its
//!   deserialize name and its aliases. The field may be absent when it has a `default` (its
//!   own or its container's), when it sits inside a flattened `Option`, or when its type reads
//!   a missing key as a value (`absent_is_none` of [`Content::Value`]): an `Option` reads it as
//!   `None`, also behind `#[serde(transparent)]` structs (which read as their inner type) but
//!   not behind a plain newtype struct (which serde requires).
//! - Flattened structs are inlined (their fields named `outer.inner`); a flattened map makes
//!   the struct capture unknown keys (unless the struct denies them: serde then rejects every
//!   key it lends the map, which stays empty); a flattened enum (or `Option` of one) is kept
//!   whole, in [`StructDef::flattened`]. Under `deny_unknown_fields` an inlined struct and an
//!   externally tagged enum take their keys, as serde's `deserialize_struct` and
//!   `deserialize_enum` do for a flattened field, and the keys nobody took are unknown. `default` (on the flattened field or its struct) does not make
//!   the inlined fields optional: serde reads a flattened type from the remaining keys
//!   regardless. A flattened struct's own `deny_unknown_fields` has no effect: serde hands it
//!   only the keys of its fields, and the outer struct ignores the rest.
//! - A key goes to the one field serde reads it into: the struct's own fields first, in
//!   declaration order, then the flattened fields in declaration order; a key an earlier
//!   field reads never reaches a later one (see [`struct_def`]).
//! - Unknown keys are ignored, or denied with `deny_unknown_fields` (on a struct variant, the
//!   enum's), or captured by a flattened map.
//! - A variant's tag: the sender writes its serialize name unless it is `skip_serializing`,
//!   or it is an internally tagged newtype variant whose content serde cannot write beside the
//!   tag (`writable_beside_tag` of [`VariantContent::Newtype`]: an `Option`, a primitive, a
//!   string, a sequence, a tuple; serde refuses to write it, although it reads `Some` of an
//!   `Option`'s inner type). The receiver reads its deserialize name and aliases unless it is
//!   `skip_deserializing`, and a tag goes to the first variant that reads it (an untagged
//!   enum reads no tag, so nothing is shadowed there).

use std::collections::BTreeSet;

use crate::model::{Emit, Provenance};
use crate::model::{
    EnumDef, FieldDef, FlatEnumDef, ReceiverField, Repr, SenderField, StructDef, Type, Unknown,
    VariantDef, VariantDefKind,
};

/// One field of a struct or of a struct variant, as its serde attributes describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSpec {
    /// The Rust field name.
    pub rust_name: String,
    /// The name the sender writes (serde's serialize name, after `rename` and `rename_all`).
    pub ser_name: String,
    /// The name the receiver reads (serde's deserialize name).
    pub de_name: String,
    /// Further names the receiver reads (`alias`), without the deserialize name.
    pub aliases: Vec<String>,
    /// `skip_serializing` (or `skip`).
    pub skip_serializing: bool,
    /// `skip_serializing_if`.
    pub skip_serializing_if: bool,
    /// The predicate of `skip_serializing_if` is `Option::is_none` and the field is an
    /// `Option` whose content is not nullable: written only when `Some`, never as `null`
    /// ([`Emit::IfSome`]).
    pub skip_if_none: bool,
    /// `skip_deserializing` (or `skip`).
    pub skip_deserializing: bool,
    /// `default` on the field or on its container.
    pub default: bool,
    /// What the field holds.
    pub content: Content,
    /// Confirmed or assumption.
    pub provenance: Provenance,
    /// Names the field had in earlier versions (explains; never read by serde).
    pub renamed_from: Vec<String>,
    /// Its doc comment.
    pub doc: String,
}

/// What a field holds: a value, or the keys of a flattened type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// A value of one type, under the field's key.
    Value {
        /// The type on the wire.
        ty: Type,
        /// Whether serde reads a missing key as a value of the type: an `Option` (read as
        /// `None`), directly or through `#[serde(transparent)]` structs, never through a
        /// newtype struct. As far as the describing side can know: the builder sees every
        /// wrapper, the derive's syntax only an `Option` written as such (and takes a named
        /// type's answer from the published snapshot).
        absent_is_none: bool,
    },
    /// `#[serde(flatten)]`: the keys of another type, beside the struct's own.
    Flatten {
        /// Whether the flattened type is an `Option` (seen through newtype and transparent
        /// structs): its keys are then all optional, and written only for `Some`.
        optional: bool,
        /// What is flattened.
        into: Flattened,
    },
}

/// What a flattened field's type is, seen through `Option`s, newtype and transparent structs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flattened {
    /// A struct: its fields are inlined.
    Struct(Vec<FieldSpec>),
    /// A map whose values have this type: it captures the keys no field reads.
    Map(Type),
    /// An enum (a named type): kept whole, beside the fields.
    Enum(Type),
    /// Anything else (the derive rejects it at compile time): described as capturing any
    /// further keys, never as nothing.
    Other,
}

/// The two views of a struct's fields: `fields` in declaration order, and whether the struct
/// has `deny_unknown_fields` (for a struct variant: the enum's).
///
/// A key goes to the one field serde reads it into. serde matches a struct's own fields
/// first, in declaration order (two of them may share a name or an alias: the first takes
/// it, and rustc warns of an unreachable pattern), and hands the other keys to its flattened
/// fields, each of which takes the keys of its fields in declaration order: a key already
/// taken never reaches a later field. So a field loses a name or alias an earlier field
/// reads (its next free alias becomes its name), and is not read at all when it has none
/// left: serde then reads its default (an `Option`'s `None`), or cannot read the struct when
/// the field is required (a documented looser point of the JSON Schema export). The sender
/// view is left as serde writes it: both fields, under the same key.
#[must_use]
pub fn struct_def(fields: Vec<FieldSpec>, deny_unknown_fields: bool) -> StructDef {
    let mut def = StructDef {
        fields: Vec::new(),
        unknown: if deny_unknown_fields {
            Unknown::Deny
        } else {
            Unknown::Ignore
        },
        extra: None,
        flattened: Vec::new(),
    };
    push_fields(&mut def, fields, "", Inside::default());
    shadow_taken_keys(&mut def);
    def
}

/// Where a field sits: inside a flattened `Option` (at any depth) or not.
#[derive(Clone, Copy, Default)]
struct Inside {
    /// May be absent for the receiver, whatever the field says.
    all_optional: bool,
    /// Written only when present, whatever the field says.
    if_present: bool,
}

fn push_fields(def: &mut StructDef, fields: Vec<FieldSpec>, prefix: &str, inside: Inside) {
    for field in fields {
        let FieldSpec {
            rust_name,
            ser_name,
            de_name,
            aliases,
            skip_serializing,
            skip_serializing_if,
            skip_if_none,
            skip_deserializing,
            default,
            content,
            provenance,
            renamed_from,
            doc,
        } = field;
        if skip_serializing && skip_deserializing {
            continue;
        }
        let (ty, absent_is_none) = match content {
            Content::Value { ty, absent_is_none } => (ty, absent_is_none),
            Content::Flatten { optional, into } => {
                let prefix = format!("{prefix}{rust_name}.");
                let inside = Inside {
                    all_optional: inside.all_optional || optional,
                    if_present: inside.if_present || optional,
                };
                match into {
                    Flattened::Struct(fields) => push_fields(def, fields, &prefix, inside),
                    // Under `deny_unknown_fields` serde lends a flattened map (or any value)
                    // the keys no field takes and then rejects each of them as unknown: it
                    // is always empty, and the struct denies every other key (the derive
                    // refuses the combination; a hand-written shape is described as serde
                    // reads it).
                    Flattened::Map(_) | Flattened::Other if def.unknown == Unknown::Deny => {}
                    Flattened::Map(value) => {
                        def.unknown = Unknown::Capture;
                        def.extra = Some(value);
                    }
                    Flattened::Enum(ty) => def.flattened.push(FlatEnumDef {
                        rust_name: prefix.trim_end_matches('.').to_owned(),
                        ty: if inside.all_optional {
                            Type::option_of(ty)
                        } else {
                            ty
                        },
                        sent: !skip_serializing,
                        read: !skip_deserializing,
                        doc,
                    }),
                    Flattened::Other => {
                        def.unknown = Unknown::Capture;
                        def.extra = Some(Type::Any);
                    }
                }
                continue;
            }
        };
        let sender = (!skip_serializing).then_some(SenderField {
            name: ser_name,
            // Written only when `Some` stays so inside a flattened `Option`, which only adds
            // an absence.
            emit: if skip_serializing_if && skip_if_none && matches!(ty, Type::Option(_)) {
                Emit::IfSome
            } else if skip_serializing_if || inside.if_present {
                Emit::IfPresent
            } else {
                Emit::Always
            },
        });
        let receiver = (!skip_deserializing).then_some(ReceiverField {
            name: de_name,
            aliases,
            required: !(inside.all_optional || default || absent_is_none),
        });
        def.fields.push(FieldDef {
            rust_name: format!("{prefix}{rust_name}"),
            ty,
            sender,
            receiver,
            provenance,
            renamed_from,
            doc,
        });
    }
}

/// Gives each key to the one field serde reads it into (see [`struct_def`]): the struct's
/// own fields first, then the inlined fields of flattened structs, each group in declaration
/// order.
fn shadow_taken_keys(def: &mut StructDef) {
    let depth = |f: &FieldDef| f.rust_name.matches('.').count();
    let mut order: Vec<usize> = (0..def.fields.len()).collect();
    order.sort_by_key(|&i| def.fields.get(i).map_or(0, depth));
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for i in order {
        let Some(field) = def.fields.get_mut(i) else {
            continue;
        };
        let Some(receiver) = field.receiver.as_mut() else {
            continue;
        };
        let mut free = std::iter::once(receiver.name.clone())
            .chain(receiver.aliases.iter().cloned())
            .filter(|k| !taken.contains(k));
        match free.next() {
            Some(name) => {
                let aliases = free.collect();
                receiver.name = name;
                receiver.aliases = aliases;
            }
            None => {
                field.receiver = None;
                continue;
            }
        }
        taken.insert(receiver.name.clone());
        taken.extend(receiver.aliases.iter().cloned());
    }
}

/// An enum as its serde attributes describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumSpec {
    /// How a variant is told apart on the wire.
    pub repr: Repr,
    /// The variants in declaration order.
    pub variants: Vec<VariantSpec>,
    /// `#[serde(deny_unknown_fields)]` on the enum: its struct variants deny unknown fields.
    pub deny_unknown_fields: bool,
}

/// One variant of an enum, as its serde attributes describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSpec {
    /// The Rust variant name.
    pub rust_name: String,
    /// The tag the sender writes.
    pub ser_name: String,
    /// The tag the receiver reads.
    pub de_name: String,
    /// Further tags the receiver reads (`alias`), without the deserialize name.
    pub aliases: Vec<String>,
    /// `skip_serializing` (or `skip`).
    pub skip_serializing: bool,
    /// `skip_deserializing` (or `skip`).
    pub skip_deserializing: bool,
    /// `#[serde(other)]`.
    pub other: bool,
    /// `#[serde(untagged)]` on the variant: in an enum with tagged variants, it is written as
    /// its content alone and tried after them (see [`EnumDef`]).
    pub untagged: bool,
    /// What it carries.
    pub content: VariantContent,
    /// Its doc comment.
    pub doc: String,
}

/// What a variant carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantContent {
    /// Nothing.
    Unit,
    /// One value.
    Newtype {
        /// Its type on the wire.
        ty: Type,
        /// Whether serde can write a value of the type beside an internal tag: a unit, a
        /// map, a struct or an enum (through newtype and transparent structs), or
        /// `serde_json::Value`, whose verdict depends on the value. As far as the describing
        /// side can know: the builder sees through every wrapper, the derive's syntax
        /// assumes a named type writable.
        writable_beside_tag: bool,
    },
    /// Several values: an array.
    Tuple(Vec<Type>),
    /// Named fields (see [`struct_def`]).
    Struct(Vec<FieldSpec>),
}

/// The two views of an enum's variants (see the module's rules).
#[must_use]
pub fn enum_def(spec: EnumSpec) -> EnumDef {
    let EnumSpec {
        repr,
        variants,
        deny_unknown_fields,
    } = spec;
    let mut defs: Vec<VariantDef> = variants
        .into_iter()
        .filter(|v| !(v.skip_serializing && v.skip_deserializing))
        .map(|v| {
            // An enum untagged as a whole has no tagged variant to set apart.
            let untagged = v.untagged && repr != Repr::Untagged;
            let mut unwritable = false;
            let kind = match v.content {
                VariantContent::Unit => VariantDefKind::Unit,
                VariantContent::Newtype {
                    ty,
                    writable_beside_tag,
                } => {
                    unwritable =
                        matches!(repr, Repr::Internal { .. }) && !untagged && !writable_beside_tag;
                    VariantDefKind::Newtype(ty)
                }
                VariantContent::Tuple(items) => VariantDefKind::Tuple(items),
                VariantContent::Struct(fields) => {
                    VariantDefKind::Struct(struct_def(fields, deny_unknown_fields))
                }
            };
            let mut receiver = Vec::new();
            if !v.skip_deserializing {
                receiver.push(v.de_name);
                receiver.extend(v.aliases);
            }
            VariantDef {
                rust_name: v.rust_name,
                sender: (!v.skip_serializing && !unwritable).then_some(v.ser_name),
                receiver,
                other: v.other,
                untagged,
                kind,
                doc: v.doc,
            }
        })
        .collect();
    // serde matches a tag against the variants' names and aliases in declaration order: a
    // name an earlier variant reads never reaches a later one (rustc warns of an unreachable
    // pattern). An untagged enum, or an untagged variant, reads no name.
    if repr != Repr::Untagged {
        let mut taken: BTreeSet<String> = BTreeSet::new();
        for variant in defs.iter_mut().filter(|v| !v.untagged) {
            variant.receiver.retain(|name| !taken.contains(name));
            taken.extend(variant.receiver.iter().cloned());
        }
    }
    EnumDef {
        repr,
        variants: defs,
        deny_unknown_fields,
    }
}
