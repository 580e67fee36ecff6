//! The owned schema model: what every feature (canonical text, JSON Schema, compatibility)
//! works on.
//!
//! A [`Schema`] is a resolved graph: a root [`Type`] and the named types it reaches, keyed
//! by their display name (the shortest unambiguous one). Each field carries its two views:
//! what the sender writes ([`SenderField`]) and what the receiver accepts
//! ([`ReceiverField`]), computed once by [`Schema::from_shape`] with serde's own rules.

use std::collections::BTreeMap;

use crate::allowance::Allowances;
use crate::constraint::ConstraintShape;
pub use crate::constraint::{Constraint, IntRange, IntSet, IntValue, Length, StringConstraint};
pub use crate::contract::{ContractId, Mode};
pub use crate::scalar::{FloatKind, IntKind, StringFormat};
pub use crate::shape::Provenance;

/// A resolved schema: a root type and the named types it reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    /// The contract this schema describes, when it is a contract's.
    pub contract: Option<ContractId>,
    /// The compatibility mode of the contract (`full` when it is not a contract).
    pub mode: Mode,
    /// The findings the contract accepts on purpose against its older versions, in the
    /// order declared (`#[handoff(allow(RULE_ID, reason = "…"))]`); none when it is not a
    /// contract. The canonical text records them, so the `handoff` command honours them.
    pub allowances: Allowances,
    /// The type on the wire.
    pub root: Type,
    /// The named types, by display name.
    pub types: BTreeMap<String, TypeDef>,
}

/// A constraint's type, beside the types it restricts.
impl Constraint {
    /// The unconstrained type underneath: `Type::Int(kind)` or `Type::String(format)`.
    #[must_use]
    pub fn base(&self) -> Type {
        match self {
            Constraint::Int { kind, .. } => Type::Int(*kind),
            Constraint::String(s) => Type::String(s.format),
        }
    }
}

/// The static form turned into a model type, built as [`Type::int_in`] and
/// [`Type::string_with`] build one.
impl ConstraintShape {
    /// The model type this shape describes.
    #[must_use]
    pub fn to_type(&self) -> Type {
        match *self {
            ConstraintShape::Int { kind, ranges } => Type::int_in(kind, ranges.iter().copied()),
            ConstraintShape::String {
                format,
                min_len,
                max_len,
                pattern,
            } => Type::string_with(
                format,
                Length {
                    min: min_len,
                    max: max_len,
                },
                pattern.map(str::to_owned),
            ),
        }
    }
}

/// The built-in type keywords of the canonical text (`u32`, `string`, `option`, …): the
/// one table of them. A named type is never displayed as one of these words (the builder
/// qualifies it by its module path instead), and the parser offers them as "did you mean"
/// for an undefined name spelt like one (`String` → `string`).
pub const RESERVED: &[&str] = &[
    "unit", "bool", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32",
    "f64", "char", "string", "any", "option", "list", "set", "array", "map", "tuple",
];

/// Which side of a handoff: what the producer writes (a type's sender view) or what the
/// consumer reads (its receiver view). A JSON Schema is exported for one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// What the producer's `Serialize` writes.
    Sender,
    /// What the consumer's `Deserialize` accepts.
    Receiver,
}

impl View {
    /// The canonical spelling, also the value of `x-handoff-view`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            View::Sender => "sender",
            View::Receiver => "receiver",
        }
    }
}

/// A type on the wire. Named types are references into [`Schema::types`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// JSON `null` only (`()`, unit structs).
    Unit,
    /// `true` or `false`.
    Bool,
    /// An integer within the range of its kind.
    Int(IntKind),
    /// A number.
    Float(FloatKind),
    /// A string of exactly one character.
    Char,
    /// A string, possibly of a known format.
    String(StringFormat),
    /// Any JSON value.
    Any,
    /// `null` or the inner type.
    Option(Box<Type>),
    /// An array of any length.
    List(Box<Type>),
    /// An array without duplicate items.
    Set(Box<Type>),
    /// An array of exactly this many items.
    Array(Box<Type>, usize),
    /// An object whose keys are data.
    Map(Box<Type>, Box<Type>),
    /// A fixed-length array of these types.
    Tuple(Vec<Type>),
    /// A named type, by display name.
    Named(String),
    /// An integer or a string restricted further: a set of integers, or a string's
    /// format, length and pattern (see [`constraint`](crate::constraint)). Built by
    /// [`Type::int_in`] and [`Type::string_with`], never for a restriction that restricts
    /// nothing.
    Constrained(Box<Constraint>),
}

impl Type {
    /// The names of the named types this type refers to, onto `out`, in the order they come
    /// (not the generic arguments inside a name).
    pub(crate) fn push_names(&self, out: &mut Vec<String>) {
        self.for_each_name(&mut |name| out.push(name.to_owned()));
    }

    /// Calls `f` with the name of each named type this type refers to, in the order they
    /// come (not the generic arguments inside a name).
    pub(crate) fn for_each_name(&self, f: &mut dyn FnMut(&str)) {
        match self {
            Type::Unit
            | Type::Bool
            | Type::Int(_)
            | Type::Float(_)
            | Type::Char
            | Type::String(_)
            | Type::Constrained(_)
            | Type::Any => {}
            Type::Option(inner) | Type::List(inner) | Type::Set(inner) | Type::Array(inner, _) => {
                inner.for_each_name(f);
            }
            Type::Map(key, value) => {
                key.for_each_name(f);
                value.for_each_name(f);
            }
            Type::Tuple(items) => items.iter().for_each(|t| t.for_each_name(f)),
            Type::Named(name) => f(name),
        }
    }

    /// `option<inner>` as serde puts it on the wire: serde cannot tell `Some(None)` from
    /// `None`, so an `Option` of an `Option` is one `option`.
    ///
    /// ```
    /// use contract_schema::model::Type;
    ///
    /// let once = Type::option_of(Type::Bool);
    /// assert_eq!(once, Type::Option(Box::new(Type::Bool)));
    /// assert_eq!(Type::option_of(once.clone()), once);
    /// ```
    #[must_use]
    pub fn option_of(inner: Type) -> Type {
        match inner {
            Type::Option(_) => inner,
            other => Type::Option(Box::new(other)),
        }
    }

    /// The integers of `kind` within `ranges`: [`Type::Int`] when that is every value of
    /// the kind, a [`Constraint::Int`] otherwise.
    ///
    /// ```
    /// use contract_schema::model::{IntKind, IntRange, IntValue, Type};
    ///
    /// let non_zero = Type::int_in(
    ///     IntKind::U8,
    ///     [IntRange::new(IntValue::from_u128(1), IntValue::max_of(IntKind::U8))],
    /// );
    /// assert_eq!(non_zero.to_string(), "u8(1..)");
    /// assert_eq!(Type::int_in(IntKind::U8, [IntRange::all_of(IntKind::U64)]), Type::Int(IntKind::U8));
    /// ```
    #[must_use]
    pub fn int_in(kind: IntKind, ranges: impl IntoIterator<Item = IntRange>) -> Type {
        let values = IntSet::new(kind, ranges);
        if values.is_all_of(kind) {
            Type::Int(kind)
        } else {
            Type::Constrained(Box::new(Constraint::Int { kind, values }))
        }
    }

    /// Strings of `format` with a length and a pattern: [`Type::String`] when neither
    /// restricts, a [`Constraint::String`] otherwise.
    ///
    /// ```
    /// use contract_schema::model::{Length, StringFormat, Type};
    ///
    /// let code = Type::string_with(StringFormat::Plain, Length { min: 1, max: Some(8) }, None);
    /// assert_eq!(code.to_string(), "string(len 1..=8)");
    /// assert_eq!(
    ///     Type::string_with(StringFormat::Uuid, Length::ANY, None),
    ///     Type::String(StringFormat::Uuid)
    /// );
    /// ```
    #[must_use]
    pub fn string_with(format: StringFormat, length: Length, pattern: Option<String>) -> Type {
        if length == Length::ANY && pattern.is_none() {
            Type::String(format)
        } else {
            Type::Constrained(Box::new(Constraint::String(StringConstraint {
                format,
                length,
                pattern,
            })))
        }
    }

    /// Whether `null` is a value of this type.
    #[must_use]
    pub fn is_nullable(&self) -> bool {
        matches!(self, Type::Option(_) | Type::Unit | Type::Any)
    }
}

/// A named type: a struct, an enum or a newtype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDef {
    /// The Rust path with generic arguments (`my_crate::Handoff<my_crate::RefundRequest>`).
    pub rust_path: String,
    /// The doc comment.
    pub doc: String,
    /// What it is.
    pub body: Body,
}

/// The body of a named type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A struct with named fields.
    Struct(StructDef),
    /// An enum.
    Enum(EnumDef),
    /// A newtype or transparent struct: the inner type on the wire. (They differ only when
    /// absent: serde reads a missing transparent `Option` as `None` and requires a newtype
    /// struct, which each field's [`ReceiverField::required`] records.)
    Newtype(Type),
    /// A type serde writes in one form and reads in another: a tuple struct with a field
    /// skipped in one direction only, whose sender's and receiver's arrays differ in length
    /// (such a type cannot read back what it writes).
    Views {
        /// What the sender writes.
        sender: Type,
        /// What the receiver reads.
        receiver: Type,
    },
}

impl Body {
    /// The names of the named types this body refers to, onto `out`, in the order they
    /// come (not the generic arguments inside a name): its fields', flattened members' and
    /// extra keys' types, its variants', its wire types.
    pub(crate) fn push_names(&self, out: &mut Vec<String>) {
        fn of_struct(def: &StructDef, out: &mut Vec<String>) {
            def.fields.iter().for_each(|f| f.ty.push_names(out));
            def.flattened.iter().for_each(|f| f.ty.push_names(out));
            if let Some(extra) = &def.extra {
                extra.push_names(out);
            }
        }
        match self {
            Body::Struct(s) => of_struct(s, out),
            Body::Newtype(ty) => ty.push_names(out),
            Body::Views { sender, receiver } => {
                sender.push_names(out);
                receiver.push_names(out);
            }
            Body::Enum(e) => {
                for v in &e.variants {
                    match &v.kind {
                        VariantDefKind::Unit => {}
                        VariantDefKind::Newtype(ty) => ty.push_names(out),
                        VariantDefKind::Tuple(items) => {
                            items.iter().for_each(|t| t.push_names(out))
                        }
                        VariantDefKind::Struct(s) => of_struct(s, out),
                    }
                }
            }
        }
    }

    /// The type on the wire in `view` of a body that is a type on the wire (a newtype, or a
    /// type with two views); `None` for a struct or an enum.
    #[must_use]
    pub fn wire_type(&self, view: View) -> Option<&Type> {
        match (self, view) {
            (Body::Newtype(inner), _) => Some(inner),
            (Body::Views { sender, .. }, View::Sender) => Some(sender),
            (Body::Views { receiver, .. }, View::Receiver) => Some(receiver),
            (Body::Struct(_) | Body::Enum(_), _) => None,
        }
    }
}

/// What a receiver does with fields it does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Unknown {
    /// Skips them (serde's default).
    #[default]
    Ignore,
    /// Rejects them (`deny_unknown_fields`).
    Deny,
    /// Keeps them in a flattened map whose values have this type (see [`StructDef::extra`]).
    Capture,
}

/// A struct's fields, flattened fields already inlined.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StructDef {
    /// The fields in wire order.
    pub fields: Vec<FieldDef>,
    /// The receiver's policy for unknown fields.
    pub unknown: Unknown,
    /// With [`Unknown::Capture`]: the value type of the flattened map that keeps them
    /// (the sender may then also write further keys of this type).
    pub extra: Option<Type>,
    /// The flattened enums, in declaration order: their variant's key, or their tag and
    /// the variant's fields, sit beside [`StructDef::fields`] (see [`FlatEnumDef`]).
    pub flattened: Vec<FlatEnumDef>,
}

/// A `#[serde(flatten)]` field whose type is an enum or an `Option` of one.
///
/// serde writes the enum's variant beside the struct's fields, as it would write it alone
/// but without the surrounding object: an externally tagged variant as one key, its name,
/// holding its content (`null` for a unit variant); an internally tagged one as its tag and
/// its fields (or its newtype's keys); an adjacently tagged one as its tag and content keys;
/// an untagged one as its fields or its newtype's keys (a unit variant as nothing; a tuple
/// variant, or a newtype of anything but a struct, a map or an enum, cannot be written
/// there: serde fails). It reads the variant from the keys the struct's own fields leave,
/// after its flattened structs: an externally tagged enum takes the first key that names a
/// variant, an adjacently tagged one its tag and content keys, an internally tagged or
/// untagged one reads from all of them without taking any (an untagged unit or tuple
/// variant, or a newtype of a primitive, never reads). [`Schema::flat_enum`] tells the enum
/// and whether it is optional.
///
/// Through an `Option`, `None` writes nothing, and the receiver reads `None` whenever the
/// enum cannot be read, whatever the keys hold: it never rejects a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatEnumDef {
    /// The Rust field name (for one inside a flattened struct, the path `inner.field`).
    pub rust_name: String,
    /// The enum, a named type, or an [`Type::Option`] of it.
    pub ty: Type,
    /// Whether the sender writes it (not `skip_serializing`).
    pub sent: bool,
    /// Whether the receiver reads it (not `skip_deserializing`).
    pub read: bool,
    /// Its doc comment.
    pub doc: String,
}

/// Whether a sender writes a field always or only when it has a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Emit {
    /// Always written.
    Always,
    /// Written only when present (`skip_serializing_if`), as its type (an `Option`'s `None`
    /// as `null` when the predicate lets it through).
    IfPresent,
    /// Written only when `Some`, as what the `Option` holds, never as the `Option`'s `null`:
    /// `skip_serializing_if = "Option::is_none"` on an `Option` whose content is not
    /// nullable itself. The field is then absent or its content (see
    /// [`FieldDef::sent_type`]).
    IfSome,
}

impl Emit {
    /// The canonical spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Emit::Always => "always",
            Emit::IfPresent => "if-present",
            Emit::IfSome => "if-some",
        }
    }

    /// Whether the sender may leave the field out.
    #[must_use]
    pub const fn may_omit(self) -> bool {
        !matches!(self, Emit::Always)
    }
}

/// The sender's view of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderField {
    /// The key it is written under.
    pub name: String,
    /// Always, or only when present.
    pub emit: Emit,
}

/// The receiver's view of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiverField {
    /// The key it is read from.
    pub name: String,
    /// Further keys it is read from (`alias`).
    pub aliases: Vec<String>,
    /// Whether it must be present (not an `Option`, no `default`).
    pub required: bool,
}

impl ReceiverField {
    /// Whether the receiver reads this key into the field.
    #[must_use]
    pub fn accepts(&self, key: &str) -> bool {
        self.name == key || self.aliases.iter().any(|a| a == key)
    }
}

/// One field with both views.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDef {
    /// The Rust field name (for a flattened field, the path `inner.field`).
    pub rust_name: String,
    /// The field's type; `null` is accepted exactly when the type is nullable.
    pub ty: Type,
    /// How the sender writes it; `None` when it is never written.
    pub sender: Option<SenderField>,
    /// How the receiver reads it; `None` when it is never read.
    pub receiver: Option<ReceiverField>,
    /// Confirmed or assumption.
    pub provenance: Provenance,
    /// Names it had in earlier versions.
    pub renamed_from: Vec<String>,
    /// Its doc comment.
    pub doc: String,
}

impl FieldDef {
    /// The type of the values the sender writes under the field's key: its type, or for a
    /// field written only when `Some` ([`Emit::IfSome`]) what the `Option` holds (never
    /// `null`).
    ///
    /// ```
    /// use contract_schema::model::{Emit, FieldDef, Type};
    ///
    /// let mut field = FieldDef::plain("reason", Type::option_of(Type::Bool));
    /// assert_eq!(field.sent_type(), &Type::option_of(Type::Bool));
    /// field.sender.as_mut().expect("sent").emit = Emit::IfSome;
    /// assert_eq!(field.sent_type(), &Type::Bool);
    /// ```
    #[must_use]
    pub fn sent_type(&self) -> &Type {
        match (&self.sender, &self.ty) {
            (
                Some(SenderField {
                    emit: Emit::IfSome, ..
                }),
                Type::Option(inner),
            ) => inner,
            _ => &self.ty,
        }
    }

    /// The field the derive describes for `name: ty` with no serde or handoff attribute:
    /// sent always under `name` (an `Option` as `null` when `None`), read under `name`
    /// with no alias, required by the receiver unless `ty` is an [`Type::Option`],
    /// confirmed, with no earlier name and no doc comment. Tests and benchmarks build
    /// schemas from it and change what they need.
    ///
    /// ```
    /// use contract_schema::model::{FieldDef, Emit, Type};
    ///
    /// let field = FieldDef::plain("note", Type::Option(Box::new(Type::Bool)));
    /// assert_eq!(field.sender.map(|s| s.emit), Some(Emit::Always));
    /// assert_eq!(field.receiver.map(|r| r.required), Some(false));
    /// ```
    #[must_use]
    pub fn plain(name: impl Into<String>, ty: Type) -> Self {
        let name = name.into();
        let required = !matches!(ty, Type::Option(_));
        FieldDef {
            rust_name: name.clone(),
            ty,
            sender: Some(SenderField {
                name: name.clone(),
                emit: Emit::Always,
            }),
            receiver: Some(ReceiverField {
                name,
                aliases: Vec::new(),
                required,
            }),
            provenance: Provenance::Confirmed,
            renamed_from: Vec::new(),
            doc: String::new(),
        }
    }
}

/// serde's enum representations, owned.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Repr {
    /// `{"Variant": content}`, or `"Variant"` for a unit variant.
    External,
    /// `{"tag": "Variant", ...fields}`.
    Internal {
        /// The tag key.
        tag: String,
    },
    /// `{"tag": "Variant", "content": …}`.
    Adjacent {
        /// The tag key.
        tag: String,
        /// The content key.
        content: String,
    },
    /// The content alone.
    Untagged,
}

/// An enum.
///
/// # Untagged variants of a tagged enum
///
/// serde (1.0.181 and later) lets `#[serde(untagged)]` mark some variants of an externally,
/// internally or adjacently tagged enum ([`VariantDef::untagged`]); an enum whose every
/// variant is so marked is [`Repr::Untagged`] instead. serde requires those variants to come
/// after every tagged one (its front end rejects an untagged variant followed by a tagged
/// one: "all variants with the #[serde(untagged)] attribute must be placed at the end of the
/// enum"), and then:
///
/// - it **writes** an untagged variant as its content alone, as an untagged enum would (a
///   unit variant as `null`, a newtype as its value, a tuple as an array, a struct as an
///   object of its fields), with no tag whatever the enum's representation; the tagged
///   variants are written as usual;
/// - it **reads** by buffering the whole value (its private `Content`), trying the tagged
///   variants on it first, exactly as the enum without its untagged variants would read it
///   (an error there is dropped), and then each untagged variant that is read (not
///   `skip_deserializing`) in declaration order, as an untagged enum does; the first that
///   reads wins. When none does it fails with "data did not match any variant of untagged
///   enum `Name`". So a value that both a tagged and an untagged variant could read is read
///   as the tagged one.
///
/// An untagged variant's tag names are not matched against a tag on the wire: it keeps its
/// names in [`VariantDef::sender`] and [`VariantDef::receiver`] only to say whether it is
/// written and read (as every variant of an untagged enum does), and takes no name from a
/// tagged variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDef {
    /// How variants are told apart.
    pub repr: Repr,
    /// The variants in declaration order.
    pub variants: Vec<VariantDef>,
    /// `#[serde(deny_unknown_fields)]` on the enum. What serde does with it depends on the
    /// representation: an adjacently tagged enum rejects every key beside its tag and
    /// content; in every representation a struct variant rejects unknown fields (its
    /// [`StructDef::unknown`] is then [`Unknown::Deny`]); an internally tagged unit or
    /// newtype variant ignores it (the newtype's own type decides); an externally tagged
    /// enum reads exactly one key whatever the flag says.
    pub deny_unknown_fields: bool,
}

impl EnumDef {
    /// Whether no variant is ever sent: a writer of this enum writes no value of it.
    #[must_use]
    pub(crate) fn sends_no_variant(&self) -> bool {
        self.variants.iter().all(|v| v.sender.is_none())
    }

    /// The keys this enum may write or read when flattened beside a struct's fields: an
    /// externally tagged one's variant names, the tag and content keys of a tagged one, and
    /// the fields of the struct variants of an internally tagged or untagged one (which reads
    /// every key).
    #[must_use]
    pub fn flat_keys(&self) -> Vec<&str> {
        let mut keys = Vec::new();
        match &self.repr {
            Repr::External => {
                for v in &self.variants {
                    keys.extend(v.sender.iter().map(String::as_str));
                    keys.extend(v.receiver.iter().map(String::as_str));
                }
            }
            Repr::Internal { tag } => keys.push(tag.as_str()),
            Repr::Adjacent { tag, content } => keys.extend([tag.as_str(), content.as_str()]),
            Repr::Untagged => {}
        }
        if matches!(self.repr, Repr::Internal { .. } | Repr::Untagged) {
            for v in &self.variants {
                if let VariantDefKind::Struct(s) = &v.kind {
                    for f in &s.fields {
                        keys.extend(f.sender.iter().map(|x| x.name.as_str()));
                        if let Some(r) = &f.receiver {
                            keys.push(&r.name);
                            keys.extend(r.aliases.iter().map(String::as_str));
                        }
                    }
                }
            }
        }
        keys
    }

    /// Whether every variant is a unit variant and the representation is external: a JSON
    /// string enum.
    #[must_use]
    pub fn is_string_enum(&self) -> bool {
        self.repr == Repr::External
            && !self.has_untagged_variants()
            && self
                .variants
                .iter()
                .all(|v| matches!(v.kind, VariantDefKind::Unit))
    }

    /// Whether some variants of this tagged enum are `#[serde(untagged)]` (see
    /// [`EnumDef`]): tried after the tagged ones.
    #[must_use]
    pub fn has_untagged_variants(&self) -> bool {
        self.variants.iter().any(|v| v.untagged)
    }

    /// The variants matched by their tag: all of them but the untagged ones.
    pub fn tagged_variants(&self) -> impl Iterator<Item = &VariantDef> {
        self.variants.iter().filter(|v| !v.untagged)
    }

    /// The `#[serde(untagged)]` variants of a tagged enum, in the order serde tries them.
    pub fn untagged_variants(&self) -> impl Iterator<Item = &VariantDef> {
        self.variants.iter().filter(|v| v.untagged)
    }

    /// A tagged enum with untagged variants as the two enums serde reads it as, in order:
    /// the tagged variants alone, in the enum's representation, and the untagged variants
    /// as an untagged enum (keeping the enum's `deny_unknown_fields`, which serde applies to
    /// the struct variants of both). `None` when the enum has no untagged variant, or is
    /// untagged as a whole.
    ///
    /// ```
    /// use contract_schema::model::{EnumDef, Repr, VariantDef, VariantDefKind};
    ///
    /// let variant = |name: &str, untagged| VariantDef {
    ///     rust_name: name.to_owned(),
    ///     sender: Some(name.to_owned()),
    ///     receiver: vec![name.to_owned()],
    ///     other: false,
    ///     untagged,
    ///     kind: VariantDefKind::Unit,
    ///     doc: String::new(),
    /// };
    /// let e = EnumDef {
    ///     repr: Repr::External,
    ///     variants: vec![variant("A", false), variant("Raw", true)],
    ///     deny_unknown_fields: false,
    /// };
    /// let (tagged, untagged) = e.split_untagged().expect("Raw is untagged");
    /// assert_eq!(tagged.repr, Repr::External);
    /// assert_eq!(tagged.variants[0].rust_name, "A");
    /// assert_eq!(untagged.repr, Repr::Untagged);
    /// assert_eq!(untagged.variants[0].rust_name, "Raw");
    /// assert!(!untagged.variants[0].untagged);
    /// ```
    #[must_use]
    pub fn split_untagged(&self) -> Option<(EnumDef, EnumDef)> {
        if self.repr == Repr::Untagged || !self.has_untagged_variants() {
            return None;
        }
        let tagged = EnumDef {
            repr: self.repr.clone(),
            variants: self.tagged_variants().cloned().collect(),
            deny_unknown_fields: self.deny_unknown_fields,
        };
        let untagged = EnumDef {
            repr: Repr::Untagged,
            variants: self
                .untagged_variants()
                .map(|v| VariantDef {
                    untagged: false,
                    ..v.clone()
                })
                .collect(),
            deny_unknown_fields: self.deny_unknown_fields,
        };
        Some((tagged, untagged))
    }

    /// The variant the receiver maps unknown tags to (`#[serde(other)]`).
    #[must_use]
    pub fn catch_all(&self) -> Option<&VariantDef> {
        self.variants.iter().find(|v| v.other)
    }

    /// Whether the receiver rejects keys beside the tag and the content: an adjacently
    /// tagged enum with `deny_unknown_fields`.
    #[must_use]
    pub fn denies_keys_beside_tags(&self) -> bool {
        self.deny_unknown_fields && matches!(self.repr, Repr::Adjacent { .. })
    }
}

/// One variant with both views.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantDef {
    /// The Rust variant name.
    pub rust_name: String,
    /// The tag the sender writes; `None` when never written.
    pub sender: Option<String>,
    /// The tags the receiver reads (name first, then aliases); empty when never read.
    pub receiver: Vec<String>,
    /// `#[serde(other)]`.
    pub other: bool,
    /// `#[serde(untagged)]` on the variant of a tagged enum: written and read as its content
    /// alone, after every tagged variant (see [`EnumDef`]). Always `false` in an enum that is
    /// [`Repr::Untagged`] as a whole.
    pub untagged: bool,
    /// What it carries.
    pub kind: VariantDefKind,
    /// Its doc comment.
    pub doc: String,
}

/// What a variant carries, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantDefKind {
    /// Nothing.
    Unit,
    /// One value.
    Newtype(Type),
    /// An array of values.
    Tuple(Vec<Type>),
    /// Named fields.
    Struct(StructDef),
}

impl Schema {
    /// The definition of a named type.
    #[must_use]
    pub fn def(&self, name: &str) -> Option<&TypeDef> {
        self.types.get(name)
    }

    /// The newtypes whose content leads through newtypes into a cycle of newtypes, never
    /// reaching a type on the wire: those whose [`resolve`](Schema::resolve) ends at a
    /// newtype. Found in one pass over the newtypes (each followed once, however long the
    /// chains), where asking `resolve` of each would follow a chain once per link.
    pub(crate) fn looping_newtypes(&self) -> std::collections::HashSet<&str> {
        use std::collections::HashMap;
        // The next newtype each newtype's content names, when it names one.
        let next = |name: &str| match self.types.get(name).map(|d| &d.body) {
            Some(Body::Newtype(Type::Named(to)))
                if matches!(self.types.get(to).map(|d| &d.body), Some(Body::Newtype(_))) =>
            {
                Some(to.as_str())
            }
            _ => None,
        };
        // Per newtype: whether it loops, once known.
        let mut known: HashMap<&str, bool> = HashMap::new();
        let mut path: Vec<&str> = Vec::new();
        for (start, def) in &self.types {
            if !matches!(def.body, Body::Newtype(_)) || known.contains_key(start.as_str()) {
                continue;
            }
            path.clear();
            let mut on_path: HashMap<&str, usize> = HashMap::new();
            let mut at = start.as_str();
            let loops = loop {
                if let Some(&answer) = known.get(at) {
                    break answer;
                }
                if on_path.contains_key(at) {
                    break true;
                }
                on_path.insert(at, path.len());
                path.push(at);
                match next(at) {
                    Some(to) => at = to,
                    None => break false,
                }
            };
            for name in &path {
                known.insert(name, loops);
            }
        }
        known
            .into_iter()
            .filter_map(|(name, loops)| loops.then_some(name))
            .collect()
    }

    /// Whether a value of `ty` reads from a string serde buffered (a map key beside an
    /// internal tag): strings, `char`, `any`, string enums (and newtypes of them); not
    /// integers, `bool`, floats or compound values. The engine and the JSON Schema export
    /// both ask it.
    pub(crate) fn reads_buffered_string(&self, ty: &Type) -> bool {
        match self.resolve(ty) {
            Type::String(_) | Type::Char | Type::Any => true,
            Type::Constrained(c) => matches!(&**c, Constraint::String(_)),
            Type::Named(name) => matches!(
                self.def(name).map(|d| &d.body),
                Some(Body::Enum(def)) if def.is_string_enum()
            ),
            _ => false,
        }
    }

    /// Follows newtypes from `ty` to the type on the wire (stops at cycles).
    #[must_use]
    pub fn resolve<'a>(&'a self, mut ty: &'a Type) -> &'a Type {
        let mut steps = 0;
        while let Type::Named(name) = ty {
            match self.types.get(name) {
                Some(TypeDef {
                    body: Body::Newtype(inner),
                    ..
                }) if steps < self.types.len() => {
                    ty = inner;
                    steps += 1;
                }
                _ => break,
            }
        }
        ty
    }

    /// The enum a flattened field holds (through newtypes and one `Option`), with whether it
    /// is optional; `None` when `ty` does not lead to an enum.
    #[must_use]
    pub fn flat_enum(&self, ty: &Type) -> Option<(&EnumDef, bool)> {
        let mut optional = false;
        let mut ty = ty;
        for _ in 0..MAX_UNWRAP {
            match self.resolve(ty) {
                Type::Option(inner) => {
                    optional = true;
                    ty = inner;
                }
                Type::Named(name) => {
                    return match self.def(name).map(|d| &d.body) {
                        Some(Body::Enum(e)) => Some((e, optional)),
                        _ => None,
                    };
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether serde can never read a value of `ty` as the content of a newtype variant of
    /// an internally tagged enum whose tag is `key`.
    ///
    /// This is a fact about serde, not about any one feature: serde reads such a variant by
    /// taking `key` out of the object first, to pick the variant, and hands the content only
    /// the keys that remain. When the content (through newtypes, and an `Option`, which
    /// serde reads there as `Some`) is an enum tagged under the same `key` itself
    /// (internally, or adjacently with that tag), the content never finds its tag, and
    /// reading fails whatever was sent. serde also writes such a variant with `key` twice,
    /// which it cannot read back. (An enum with `#[serde(untagged)]` variants tagged under
    /// `key` counts too: its tagged variants never read there, and its untagged ones, which
    /// might, are left out on purpose, so that every answer stays on the safe side.)
    ///
    /// The compatibility engine reports a writer that may send such a variant
    /// (`VARIANT_UNREADABLE`) and the JSON Schema export describes no value for it: every
    /// feature that needs the fact asks this method, so that they agree.
    ///
    /// ```
    /// use contract_schema::text::parse;
    /// use contract_schema::Type;
    ///
    /// let schema = parse(
    ///     "root Inner
    ///
    /// enum Inner
    ///   rust \"app::Inner\"
    ///   repr internal tag \"t\"
    ///   variant A: unit
    ///     send \"A\"
    ///     receive \"A\"
    /// ",
    /// )?;
    /// let inner = Type::Named("Inner".to_owned());
    /// assert!(schema.needs_taken_tag(&inner, "t"));
    /// assert!(schema.needs_taken_tag(&Type::Option(Box::new(inner.clone())), "t"));
    /// assert!(!schema.needs_taken_tag(&inner, "kind"));
    /// assert!(!schema.needs_taken_tag(&Type::Bool, "t"));
    /// # Ok::<(), contract_schema::text::ParseError>(())
    /// ```
    #[must_use]
    pub fn needs_taken_tag(&self, ty: &Type, key: &str) -> bool {
        let mut ty = ty;
        // Bounded: a cycle of newtypes and `Option`s has no enum at its end.
        for _ in 0..MAX_UNWRAP {
            match self.resolve(ty) {
                Type::Option(inner) => ty = inner,
                Type::Named(name) => {
                    return match self.def(name).map(|d| &d.body) {
                        Some(Body::Enum(e)) => match &e.repr {
                            Repr::Internal { tag } | Repr::Adjacent { tag, .. } => tag == key,
                            Repr::External | Repr::Untagged => false,
                        },
                        Some(Body::Struct(_) | Body::Newtype(_) | Body::Views { .. }) | None => {
                            false
                        }
                    };
                }
                _ => return false,
            }
        }
        false
    }
}

/// How many `Option`s and newtypes [`Schema::needs_taken_tag`] looks through.
const MAX_UNWRAP: usize = 64;

/// The canonical text of a type: `string`, `option<u32>`, `map<string, list<Step>>`,
/// `array<u8; 4>`, `tuple(string, i64)`, or a named type's display name.
impl core::fmt::Display for Type {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Type::Unit => f.write_str("unit"),
            Type::Bool => f.write_str("bool"),
            Type::Int(k) => f.write_str(k.as_str()),
            Type::Float(k) => f.write_str(k.as_str()),
            Type::Char => f.write_str("char"),
            Type::String(fmt) => match fmt.as_str() {
                Some(name) => write!(f, "string({name})"),
                None => f.write_str("string"),
            },
            Type::Any => f.write_str("any"),
            Type::Option(inner) => write!(f, "option<{inner}>"),
            Type::List(inner) => write!(f, "list<{inner}>"),
            Type::Set(inner) => write!(f, "set<{inner}>"),
            Type::Array(inner, n) => write!(f, "array<{inner}; {n}>"),
            Type::Map(k, v) => write!(f, "map<{k}, {v}>"),
            Type::Tuple(items) => {
                f.write_str("tuple(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
            Type::Named(name) => f.write_str(name),
            Type::Constrained(c) => c.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Emit, FieldDef, Provenance, ReceiverField, SenderField, Type};
    use crate::shape::IntKind;

    #[test]
    fn a_plain_field_is_sent_always_and_read_under_its_name() {
        let field = FieldDef::plain("orderId", Type::Int(IntKind::U32));
        assert_eq!(field.rust_name, "orderId");
        assert_eq!(field.ty, Type::Int(IntKind::U32));
        assert_eq!(
            field.sender,
            Some(SenderField {
                name: "orderId".to_owned(),
                emit: Emit::Always,
            })
        );
        assert_eq!(
            field.receiver,
            Some(ReceiverField {
                name: "orderId".to_owned(),
                aliases: Vec::new(),
                required: true,
            })
        );
        assert_eq!(field.provenance, Provenance::Confirmed);
        assert!(field.renamed_from.is_empty());
        assert!(field.doc.is_empty());
    }

    /// A schema of the newtypes `(name, content)` with a `u8` root.
    fn newtypes(pairs: &[(&str, Type)]) -> super::Schema {
        super::Schema {
            contract: None,
            mode: crate::contract::Mode::Full,
            allowances: crate::allowance::Allowances::default(),
            root: Type::Int(IntKind::U8),
            types: pairs
                .iter()
                .map(|(name, content)| {
                    let def = super::TypeDef {
                        rust_path: String::new(),
                        doc: String::new(),
                        body: super::Body::Newtype(content.clone()),
                    };
                    ((*name).to_owned(), def)
                })
                .collect(),
        }
    }

    fn named(name: &str) -> Type {
        Type::Named(name.to_owned())
    }

    #[test]
    fn looping_newtypes_are_those_whose_resolve_ends_at_a_newtype() {
        // A chain to a type on the wire; a loop of one and of two; a chain into the loop of
        // two; a newtype of a missing name.
        let schema = newtypes(&[
            ("A", named("B")),
            ("B", Type::Int(IntKind::U8)),
            ("Self", named("Self")),
            ("P", named("Q")),
            ("Q", named("P")),
            ("Into", named("P")),
            ("Gone", named("Missing")),
        ]);
        let looping = schema.looping_newtypes();
        let mut names: Vec<&str> = looping.iter().copied().collect();
        names.sort_unstable();
        assert_eq!(names, ["Into", "P", "Q", "Self"]);
        // The same answer as `resolve`, asked of each newtype's content.
        for (name, def) in &schema.types {
            let super::Body::Newtype(inner) = &def.body else {
                continue;
            };
            let by_resolve = matches!(
                schema.resolve(inner),
                Type::Named(end) if matches!(
                    schema.def(end).map(|d| &d.body),
                    Some(super::Body::Newtype(_))
                )
            );
            assert_eq!(looping.contains(name.as_str()), by_resolve, "{name}");
        }
    }

    #[test]
    fn a_long_chain_of_newtypes_and_the_same_chain_closed_into_a_loop() {
        // 20,000 links, in one pass (the JSON Schema export asked `resolve` of each link,
        // following the chain once per link: 42 s for the loop's export in release, 81 ms
        // with this pass).
        let n = 20_000;
        let pairs: Vec<(String, Type)> = (0..n)
            .map(|i| {
                let to = if i + 1 == n {
                    Type::Int(IntKind::U8)
                } else {
                    named(&format!("T{}", i + 1))
                };
                (format!("T{i}"), to)
            })
            .collect();
        let borrowed: Vec<(&str, Type)> =
            pairs.iter().map(|(n, t)| (n.as_str(), t.clone())).collect();
        let mut schema = newtypes(&borrowed);
        assert!(schema.looping_newtypes().is_empty());
        // Close the chain into a loop: every link loops.
        schema.types.get_mut(&format!("T{}", n - 1)).unwrap().body =
            super::Body::Newtype(named("T0"));
        assert_eq!(schema.looping_newtypes().len(), n);
    }

    #[test]
    fn only_an_option_makes_a_plain_field_optional() {
        let optional = FieldDef::plain("note", Type::Option(Box::new(Type::Bool)));
        assert_eq!(optional.receiver.map(|r| r.required), Some(false));
        // Nullable but not an `Option`: serde still requires the key.
        for ty in [Type::Unit, Type::Any] {
            let field = FieldDef::plain("note", ty);
            assert_eq!(field.receiver.map(|r| r.required), Some(true));
        }
    }
}
