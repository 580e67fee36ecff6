//! The derive's view of a type: serde's reading of its attributes (through
//! `serde_derive_internals`, so every rename means exactly what serde does) joined with the
//! `#[handoff(...)]` settings, keeping the tokens of each field and attribute for errors.

use proc_macro2::Span;
use serde_derive_internals::{ast as serde_ast, attr as serde_attr, Ctxt, Derive};
use syn::{DeriveInput, Error, Ident};

use crate::attr::{self, ContainerAttrs, FieldAttrs, SerdeKey, VariantAttrs};

/// Which derive is expanding.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DeriveKind {
    /// `#[derive(HandoffSchema)]`: a description without an identity.
    Schema,
    /// `#[derive(HandoffContract)]`: a description with a name and a version.
    Contract,
}

impl DeriveKind {
    /// The derive as the user wrote it, for messages.
    pub fn written(self) -> &'static str {
        match self {
            DeriveKind::Schema => "#[derive(HandoffSchema)]",
            DeriveKind::Contract => "#[derive(HandoffContract)]",
        }
    }
}

/// A struct or enum to describe.
pub struct Input<'a> {
    /// Which derive.
    pub derive: DeriveKind,
    /// The item as written.
    pub original: &'a DeriveInput,
    /// Its doc comment.
    pub doc: String,
    /// Its `#[handoff(...)]` settings.
    pub attrs: ContainerAttrs,
    /// The keys of its `#[serde(...)]` attributes, as written.
    pub serde_keys: Vec<SerdeKey>,
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
    /// What it is.
    pub data: Data<'a>,
}

/// The shape of the item, after serde's reading.
pub enum Data<'a> {
    /// Named fields.
    Struct(Vec<Field<'a>>),
    /// One unnamed field, or `#[serde(transparent)]`: the inner type on the wire.
    Newtype(Box<Field<'a>>),
    /// Several unnamed fields: an array.
    Tuple(Vec<Field<'a>>),
    /// No fields: `null`.
    Unit,
    /// An enum.
    Enum(Repr, Vec<Variant<'a>>),
}

/// serde's enum representation, owned.
pub enum Repr {
    /// `{"Variant": content}`.
    External,
    /// `{"tag": "Variant", ...}`.
    Internal(String),
    /// `{"tag": "Variant", "content": ...}`.
    Adjacent(String, String),
    /// The content alone.
    Untagged,
}

impl Repr {
    /// The representation on the wire, as the description records it: an enum whose every
    /// variant is `#[serde(untagged)]` is untagged whatever its container says.
    pub fn on_the_wire(&self, variants: &[Variant]) -> contract_schema::model::Repr {
        use contract_schema::model::Repr as Wire;
        let all_untagged = !variants.is_empty() && variants.iter().all(|v| v.untagged);
        match self {
            _ if all_untagged => Wire::Untagged,
            Repr::External => Wire::External,
            Repr::Internal(tag) => Wire::Internal { tag: tag.clone() },
            Repr::Adjacent(tag, content) => Wire::Adjacent {
                tag: tag.clone(),
                content: content.clone(),
            },
            Repr::Untagged => Wire::Untagged,
        }
    }
}

/// A field with both of its views.
pub struct Field<'a> {
    /// The field as written.
    pub original: &'a syn::Field,
    /// The Rust name (`0`, `1` for unnamed fields), unraw'd.
    pub name: String,
    /// The name the sender writes.
    pub ser_name: String,
    /// The name the receiver reads.
    pub de_name: String,
    /// Further names the receiver reads (`alias`), sorted.
    pub aliases: Vec<String>,
    /// `skip_serializing` (or `skip`).
    pub skip_serializing: bool,
    /// `skip_deserializing` (or `skip`).
    pub skip_deserializing: bool,
    /// `skip_serializing_if`.
    pub skip_serializing_if: bool,
    /// `skip_serializing_if = "Option::is_none"` (or `std::option::Option::is_none`,
    /// `core::option::Option::is_none`, with or without a leading `::`): an `Option` field is
    /// then written only when `Some` (the shape's `Send::IfSome`).
    pub skip_if_none: bool,
    /// `default` on the field or on its struct.
    pub default: bool,
    /// `flatten`.
    pub flatten: bool,
    /// The one field of a `#[serde(transparent)]` struct that is on the wire.
    pub transparent: bool,
    /// Its doc comment.
    pub doc: String,
    /// Its `#[handoff(...)]` settings.
    pub attrs: FieldAttrs,
    /// The keys of its `#[serde(...)]` attributes, as written.
    pub serde_keys: Vec<SerdeKey>,
}

impl Field<'_> {
    /// Whether the field is on the wire in neither view: it is left out of the description.
    pub fn is_skipped(&self) -> bool {
        self.skip_serializing && self.skip_deserializing
    }

    /// The type whose schema describes the field on the wire.
    pub fn wire_type(&self) -> &syn::Type {
        match &self.attrs.schema_as {
            Some(setting) => &setting.value,
            None => &self.original.ty,
        }
    }
}

/// What a variant carries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Nothing.
    Unit,
    /// One value.
    Newtype,
    /// An array of values.
    Tuple,
    /// Named fields.
    Struct,
}

/// An enum variant with both of its views.
pub struct Variant<'a> {
    /// The variant as written.
    pub original: &'a syn::Variant,
    /// The Rust name.
    pub name: String,
    /// The tag the sender writes.
    pub ser_name: String,
    /// The tag the receiver reads.
    pub de_name: String,
    /// Further tags the receiver reads, sorted.
    pub aliases: Vec<String>,
    /// `skip_serializing` (or `skip`).
    pub skip_serializing: bool,
    /// `skip_deserializing` (or `skip`).
    pub skip_deserializing: bool,
    /// `#[serde(other)]`.
    pub other: bool,
    /// `#[serde(untagged)]` on the variant.
    pub untagged: bool,
    /// What it carries.
    pub style: Style,
    /// Its fields.
    pub fields: Vec<Field<'a>>,
    /// Its doc comment.
    pub doc: String,
    /// Its `#[handoff(...)]` settings.
    pub attrs: VariantAttrs,
    /// The keys of its `#[serde(...)]` attributes, as written.
    pub serde_keys: Vec<SerdeKey>,
}

impl Variant<'_> {
    /// Whether the variant is on the wire in neither view: it is left out.
    pub fn is_skipped(&self) -> bool {
        self.skip_serializing && self.skip_deserializing
    }
}

impl<'a> Input<'a> {
    /// Every field of the item, the fields of every variant included, skipped ones too.
    pub fn all_fields(&self) -> Vec<&Field<'a>> {
        match &self.data {
            Data::Struct(fields) | Data::Tuple(fields) => fields.iter().collect(),
            Data::Newtype(field) => vec![&**field],
            Data::Unit => Vec::new(),
            Data::Enum(_, variants) => variants.iter().flat_map(|v| v.fields.iter()).collect(),
        }
    }
}

/// The outcome of reading an item: the IR when serde could read it, and every error found.
pub struct Parsed<'a> {
    /// The IR; `None` for a union or when serde rejects the attributes.
    pub input: Option<Input<'a>>,
    /// Every error found while reading.
    pub errors: Vec<Error>,
    /// The path of the runtime crate (`crate = "..."`, default `::contract_core`).
    pub krate: syn::Path,
}

/// Reads `input` through serde's own front end and the handoff attributes.
pub fn parse(input: &DeriveInput, derive: DeriveKind) -> Parsed<'_> {
    let mut errors = Vec::new();
    let attrs = attr::container(&input.attrs, &mut errors);
    let krate = attrs
        .krate
        .as_ref()
        .map_or_else(default_krate, |s| s.value.clone());
    if let syn::Data::Union(data) = &input.data {
        errors.push(Error::new_spanned(
            data.union_token,
            format!(
                "{} does not support unions: serde cannot serialize or deserialize them; \
                 use a struct or an enum",
                derive.written()
            ),
        ));
        return Parsed {
            input: None,
            errors,
            krate,
        };
    }
    let cx = Ctxt::new();
    let private = Ident::new("__handoff_private", Span::call_site());
    let container = serde_ast::Container::from_ast(&cx, input, Derive::Deserialize, &private);
    // serde's own derives report these errors; reporting them twice would only add noise.
    // The description still falls back (see `expand::fallback`) rather than guess.
    let serde_ok = cx.check().is_ok();
    let Some(container) = container.filter(|_| serde_ok) else {
        return Parsed {
            input: None,
            errors,
            krate,
        };
    };
    let serde_keys = attr::serde_keys(&input.attrs);
    let container_default = !container.attrs.default().is_none();
    let data = match container.data {
        serde_ast::Data::Struct(style, fields) => {
            let mut fields: Vec<Field> = fields
                .into_iter()
                .map(|f| field(f, container_default, &mut errors))
                .collect();
            if container.attrs.transparent() {
                let index = container_transparent_index(&fields);
                match index {
                    Some(i) if i < fields.len() => Data::Newtype(Box::new(fields.swap_remove(i))),
                    _ => Data::Unit,
                }
            } else {
                match style {
                    serde_ast::Style::Struct => Data::Struct(fields),
                    serde_ast::Style::Newtype => match fields.pop() {
                        Some(f) => Data::Newtype(Box::new(f)),
                        None => Data::Unit,
                    },
                    serde_ast::Style::Tuple => Data::Tuple(fields),
                    serde_ast::Style::Unit => Data::Unit,
                }
            }
        }
        serde_ast::Data::Enum(variants) => {
            let repr = match container.attrs.tag() {
                serde_attr::TagType::External => Repr::External,
                serde_attr::TagType::Internal { tag } => Repr::Internal(tag.clone()),
                serde_attr::TagType::Adjacent { tag, content } => {
                    Repr::Adjacent(tag.clone(), content.clone())
                }
                serde_attr::TagType::None => Repr::Untagged,
            };
            let variants = variants
                .into_iter()
                .map(|v| variant(v, &mut errors))
                .collect();
            Data::Enum(repr, variants)
        }
    };
    let input = Input {
        derive,
        original: input,
        doc: attr::doc(&input.attrs),
        attrs,
        serde_keys,
        deny_unknown_fields: container.attrs.deny_unknown_fields(),
        data,
    };
    Parsed {
        input: Some(input),
        errors,
        krate,
    }
}

/// The default path of the runtime crate.
fn default_krate() -> syn::Path {
    syn::Path {
        leading_colon: Some(syn::Token![::](Span::call_site())),
        segments: [syn::PathSegment::from(syn::Ident::new(
            "contract_core",
            Span::call_site(),
        ))]
        .into_iter()
        .collect(),
    }
}

/// The field serde marked transparent (it marks exactly one when the item is valid).
fn container_transparent_index(fields: &[Field]) -> Option<usize> {
    fields.iter().position(|f| f.transparent)
}

/// The serialize name, the deserialize name and the further names the receiver reads
/// (serde keeps the deserialize name among the aliases; the view lists them apart).
fn names(
    name: &serde_derive_internals::name::MultiName,
    aliases: &std::collections::BTreeSet<serde_derive_internals::name::Name>,
) -> (String, String, Vec<String>) {
    let de_name = name.deserialize_name().value.clone();
    let aliases = aliases
        .iter()
        .map(|a| a.value.clone())
        .filter(|a| *a != de_name)
        .collect();
    (name.serialize_name().value.clone(), de_name, aliases)
}

fn field<'a>(
    f: serde_ast::Field<'a>,
    container_default: bool,
    errors: &mut Vec<Error>,
) -> Field<'a> {
    let (ser_name, de_name, aliases) = names(f.attrs.name(), f.attrs.aliases());
    let name = match &f.member {
        syn::Member::Named(ident) => syn::ext::IdentExt::unraw(ident).to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    };
    Field {
        original: f.original,
        name,
        ser_name,
        de_name,
        aliases,
        skip_serializing: f.attrs.skip_serializing(),
        skip_deserializing: f.attrs.skip_deserializing(),
        skip_serializing_if: f.attrs.skip_serializing_if().is_some(),
        skip_if_none: f.attrs.skip_serializing_if().is_some_and(is_option_is_none),
        default: container_default || !f.attrs.default().is_none(),
        flatten: f.attrs.flatten(),
        transparent: f.attrs.transparent(),
        doc: attr::doc(&f.original.attrs),
        attrs: attr::field(&f.original.attrs, errors),
        serde_keys: attr::serde_keys(&f.original.attrs),
    }
}

fn variant<'a>(v: serde_ast::Variant<'a>, errors: &mut Vec<Error>) -> Variant<'a> {
    let (ser_name, de_name, aliases) = names(v.attrs.name(), v.attrs.aliases());
    let style = match v.style {
        serde_ast::Style::Unit => Style::Unit,
        serde_ast::Style::Newtype => Style::Newtype,
        serde_ast::Style::Tuple => Style::Tuple,
        serde_ast::Style::Struct => Style::Struct,
    };
    Variant {
        original: v.original,
        name: syn::ext::IdentExt::unraw(&v.ident).to_string(),
        ser_name,
        de_name,
        aliases,
        skip_serializing: v.attrs.skip_serializing(),
        skip_deserializing: v.attrs.skip_deserializing(),
        other: v.attrs.other(),
        untagged: v.attrs.untagged(),
        style,
        fields: v
            .fields
            .into_iter()
            .map(|f| field(f, false, errors))
            .collect(),
        doc: attr::doc(&v.original.attrs),
        attrs: attr::variant(&v.original.attrs, errors),
        serde_keys: attr::serde_keys(&v.original.attrs),
    }
}

/// Whether a `skip_serializing_if` predicate is `Option::is_none` by one of its paths:
/// `Option::is_none`, `std::option::Option::is_none` or `core::option::Option::is_none`,
/// with or without a leading `::`. Any other predicate (a function of the user's, a
/// method of another type) may let `None` through, as `null`.
fn is_option_is_none(path: &syn::ExprPath) -> bool {
    if path.qself.is_some() {
        return false;
    }
    let segments: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| {
            if s.arguments.is_empty() {
                s.ident.to_string()
            } else {
                String::new()
            }
        })
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let leading = path.path.leading_colon.is_some();
    match segments.as_slice() {
        ["Option", "is_none"] => !leading,
        ["std" | "core", "option", "Option", "is_none"] => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_option_is_none;

    fn path(text: &str) -> syn::ExprPath {
        syn::parse_str(text).expect("a path")
    }

    #[test]
    fn only_option_is_none_by_its_std_paths_is_never_null() {
        for yes in [
            "Option::is_none",
            "std::option::Option::is_none",
            "::std::option::Option::is_none",
            "core::option::Option::is_none",
            "::core::option::Option::is_none",
        ] {
            assert!(is_option_is_none(&path(yes)), "{yes}");
        }
        for no in [
            "is_none",
            "::Option::is_none",
            "Option::is_some",
            "Note::is_none",
            "my::Option::is_none",
            "alloc::option::Option::is_none",
            "Option::<u8>::is_none",
            "<Option<u8>>::is_none",
            "Vec::is_empty",
        ] {
            assert!(!is_option_is_none(&path(no)), "{no}");
        }
    }
}
