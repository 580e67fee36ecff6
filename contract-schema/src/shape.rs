//! The static description that `#[derive(HandoffSchema)]` emits for a type.
//!
//! Everything here is plain `'static` data: the derive writes one [`Shape`] per type and
//! never any behaviour. Edges to other types are [`ShapeFn`] function pointers rather than
//! references, so that a recursive type (a plan whose steps are plans) can point at itself
//! without a cycle in constant evaluation.
//!
//! Runtime features do not walk shapes directly: they first resolve them into the owned
//! [`Schema`](crate::Schema) with [`Schema::from_shape`](crate::Schema::from_shape), which
//! applies serde's rules once (an `Option` may be absent, flattened fields are inlined, …).
//!
//! A contract's identity and policy (its id, mode and allowances) are not part of a type's
//! description: they live in [`contract`](crate::contract), re-exported here at their
//! earlier paths, which the derive's expansion uses.

#[doc(no_inline)]
pub use crate::constraint::{ConstraintShape, IntRange, IntValue};
#[doc(no_inline)]
pub use crate::contract::{AllowInfo, ContractId, ContractInfo, Mode};
pub use crate::scalar::{FloatKind, IntKind, StringFormat};

/// A function returning the shape of a type: the edge between two descriptions.
pub type ShapeFn = fn() -> &'static Shape;

/// The static description of one Rust type as serde puts it on the wire.
#[derive(Debug)]
pub struct Shape {
    /// The type's own name without generic arguments (`"Handoff"`), or `""` for a built-in.
    pub name: &'static str,
    /// The module that declares it (`module_path!()`), or `""` for a built-in.
    pub module: &'static str,
    /// The shapes of its generic type arguments, in declaration order.
    pub generics: &'static [ShapeFn],
    /// Its doc comment, trimmed; `""` when it has none.
    pub doc: &'static str,
    /// What it is on the wire.
    pub kind: Kind,
}

impl Shape {
    /// A built-in (unnamed) shape of the given kind.
    #[must_use]
    pub const fn builtin(kind: Kind) -> Self {
        Self {
            name: "",
            module: "",
            generics: &[],
            doc: "",
            kind,
        }
    }

    /// Whether this shape is a named type (a struct or an enum the user declared).
    #[must_use]
    pub const fn is_named(&self) -> bool {
        !self.name.is_empty()
    }
}

/// What a type is on the wire.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// `()` and unit structs: JSON `null`.
    Unit,
    /// `bool`.
    Bool,
    /// An integer of a given width and signedness.
    Int(IntKind),
    /// `f32` or `f64`.
    Float(FloatKind),
    /// `char`: a string of exactly one character.
    Char,
    /// A string, possibly with a known format (uuid, date-time).
    String(StringFormat),
    /// Any JSON value (`serde_json::Value`).
    Any,
    /// `Option<T>`: `null` or `T`.
    Option(ShapeFn),
    /// A JSON array of items.
    Seq(SeqShape),
    /// A JSON object whose keys are data.
    Map {
        /// The key type; it must serialize as a string (strings, string enums, integers).
        key: ShapeFn,
        /// The value type.
        value: ShapeFn,
    },
    /// A fixed-length heterogeneous array: tuples and tuple structs.
    Tuple(&'static [ShapeFn]),
    /// A struct with named fields.
    Struct(&'static StructShape),
    /// An enum.
    Enum(&'static EnumShape),
    /// A named newtype struct (`struct Id(T)`): on the wire it is its inner type, but serde
    /// reads it through `deserialize_newtype_struct`, so a field of this type must be present
    /// even when the inner type is an `Option`.
    Newtype(ShapeFn),
    /// An integer or a string restricted further (a `NonZeroU8` is the `u8`s from 1).
    Constrained(&'static ConstraintShape),
    /// A named `#[serde(transparent)]` struct: on the wire it is its inner type, and serde
    /// reads it with the inner type's own `Deserialize`, so a field of this type may be absent
    /// exactly when a field of the inner type may (a transparent `Option` reads as `None`).
    Transparent(ShapeFn),
    /// A named type serde writes in one form and reads in another: a tuple struct with a
    /// field skipped in one direction only (`skip_serializing` or `skip_deserializing`), whose
    /// sender's and receiver's arrays differ in length.
    Views(&'static ViewsShape),
}

/// A JSON array type.
#[derive(Debug, Clone, Copy)]
pub struct SeqShape {
    /// The item type.
    pub item: ShapeFn,
    /// A set: serde silently merges duplicates; the receiver rejects them.
    pub unique: bool,
    /// A fixed length (`[T; N]`).
    pub len: Option<usize>,
}

/// The two forms of a [`Kind::Views`] type.
#[derive(Debug)]
pub struct ViewsShape {
    /// What `Serialize` writes.
    pub sender: Kind,
    /// What `Deserialize` reads.
    pub receiver: Kind,
}

/// A struct with named fields.
#[derive(Debug)]
pub struct StructShape {
    /// The fields in declaration order.
    pub fields: &'static [Field],
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
}

impl StructShape {
    /// Whether a field is `#[serde(flatten)]`: serde then reads the struct through
    /// `deserialize_map`, and a struct that flattens it only lends it the keys.
    #[must_use]
    pub const fn flattens(&self) -> bool {
        let mut i = 0;
        while i < self.fields.len() {
            if self.fields[i].flatten {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// Whether and how the sender emits a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Send {
    /// Always written.
    Always,
    /// Written only when present (`skip_serializing_if`).
    IfPresent,
    /// Written only when `Some` (`skip_serializing_if = "Option::is_none"`, the predicate
    /// written as `Option::is_none`, `std::option::Option::is_none` or
    /// `core::option::Option::is_none`): an `Option` whose content is not nullable is then
    /// never written as `null` ([`Emit::IfSome`](crate::model::Emit::IfSome)); any other
    /// type is described as [`Send::IfPresent`].
    IfSome,
    /// Never written (`skip`, `skip_serializing`).
    Never,
}

/// Whether a value was confirmed or is a working assumption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Provenance {
    /// Confirmed (the default): the reader may rely on it.
    #[default]
    Confirmed,
    /// An unverified working assumption, not a user requirement.
    Assumption,
}

impl Provenance {
    /// The canonical spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Provenance::Confirmed => "confirmed",
            Provenance::Assumption => "assumption",
        }
    }
}

/// One field of a struct or of a struct variant, with both of its views.
#[derive(Debug)]
pub struct Field {
    /// The Rust field name.
    pub name: &'static str,
    /// The name the sender writes (serde's serialize name).
    pub ser_name: &'static str,
    /// The name the receiver reads (serde's deserialize name).
    pub de_name: &'static str,
    /// Further names the receiver reads (`#[serde(alias)]`).
    pub aliases: &'static [&'static str],
    /// Whether the sender writes it.
    pub send: Send,
    /// `#[serde(default)]` on the field or its container: may be absent for the receiver.
    pub default: bool,
    /// `#[serde(skip_deserializing)]`: the receiver never reads it.
    pub skip_deserializing: bool,
    /// `#[serde(flatten)]`: its fields are written inline.
    pub flatten: bool,
    /// The field's type.
    pub ty: ShapeFn,
    /// Confirmed or assumption.
    pub provenance: Provenance,
    /// Names this field had in earlier versions (explains; never read by serde).
    pub renamed_from: &'static [&'static str],
    /// Its doc comment.
    pub doc: &'static str,
}

impl Field {
    /// A field serde reads and writes under its Rust name, always written, required, no
    /// alias, confirmed, no doc: what `name: T` without attributes describes. Hand-written
    /// shapes start from it and change what they need with struct update syntax.
    #[must_use]
    pub const fn new(name: &'static str, ty: ShapeFn) -> Self {
        Field {
            name,
            ser_name: name,
            de_name: name,
            aliases: &[],
            send: Send::Always,
            default: false,
            skip_deserializing: false,
            flatten: false,
            ty,
            provenance: Provenance::Confirmed,
            renamed_from: &[],
            doc: "",
        }
    }
}

impl Variant {
    /// A variant serde reads and writes under its Rust name, carrying `kind`.
    #[must_use]
    pub const fn new(name: &'static str, kind: VariantKind) -> Self {
        Variant {
            name,
            ser_name: name,
            de_name: name,
            aliases: &[],
            skip_serializing: false,
            skip_deserializing: false,
            other: false,
            untagged: false,
            kind,
            doc: "",
        }
    }
}

/// An enum and its serde representation.
#[derive(Debug)]
pub struct EnumShape {
    /// How a variant is told apart on the wire.
    pub repr: Repr,
    /// The variants in declaration order.
    pub variants: &'static [Variant],
    /// `#[serde(deny_unknown_fields)]`: struct variants reject unknown fields, and an
    /// adjacently tagged enum rejects keys beside its tag and content.
    pub deny_unknown_fields: bool,
}

impl EnumShape {
    /// Whether some variants of this enum are `#[serde(untagged)]` while others are tagged
    /// (a `const fn`, so the derive can refuse to flatten such an enum at compile time).
    #[must_use]
    pub const fn has_untagged_variants(&self) -> bool {
        let mut i = 0;
        while i < self.variants.len() {
            if self.variants[i].untagged {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// serde's enum representations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repr {
    /// `{"Variant": content}`, or `"Variant"` for a unit variant (serde's default).
    External,
    /// `{"tag": "Variant", ...fields}` (`#[serde(tag = "…")]`).
    Internal {
        /// The tag key.
        tag: &'static str,
    },
    /// `{"tag": "Variant", "content": …}` (`#[serde(tag = "…", content = "…")]`).
    Adjacent {
        /// The tag key.
        tag: &'static str,
        /// The content key.
        content: &'static str,
    },
    /// The content alone; the first variant that fits wins (`#[serde(untagged)]`).
    Untagged,
}

/// One enum variant.
#[derive(Debug)]
pub struct Variant {
    /// The Rust variant name.
    pub name: &'static str,
    /// The name the sender writes.
    pub ser_name: &'static str,
    /// The name the receiver reads.
    pub de_name: &'static str,
    /// Further names the receiver reads.
    pub aliases: &'static [&'static str],
    /// `#[serde(skip_serializing)]`: never written.
    pub skip_serializing: bool,
    /// `#[serde(skip_deserializing)]`: never read.
    pub skip_deserializing: bool,
    /// `#[serde(other)]`: the receiver maps any unknown tag to this unit variant.
    pub other: bool,
    /// `#[serde(untagged)]` on a variant of a tagged enum: its content alone, tried after
    /// the tagged variants (see [`EnumDef`](crate::model::EnumDef)). `false` in an enum
    /// that is [`Repr::Untagged`] as a whole.
    pub untagged: bool,
    /// What the variant carries.
    pub kind: VariantKind,
    /// Its doc comment.
    pub doc: &'static str,
}

/// What an enum variant carries.
#[derive(Debug, Clone, Copy)]
pub enum VariantKind {
    /// Nothing.
    Unit,
    /// One unnamed value.
    Newtype(ShapeFn),
    /// Several unnamed values: an array.
    Tuple(&'static [ShapeFn]),
    /// Named fields.
    Struct(&'static [Field]),
}
