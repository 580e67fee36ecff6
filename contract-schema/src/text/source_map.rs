//! Where a schema text writes each named type, field and variant: the lines a tool points
//! at, such as a CI annotation on the line of a snapshot file a finding is about.
//!
//! The parser fills a [`SourceMap`] only when asked ([`parse_with_lines`](super::parse_with_lines),
//! [`snapshot::parse_with_lines`](crate::snapshot::parse_with_lines)): a plain
//! [`parse`](super::parse) records nothing.

use std::collections::HashMap;

/// The 1-based line of each named type, field and variant of a parsed schema text (and of
/// its `root` line), counted from the start of the file: after a snapshot's insta header,
/// the header's lines are counted too.
///
/// Elements are named as the text names them: a type by its display name, a field (or a
/// flattened field) and a variant by their Rust names.
///
/// ```
/// use contract_schema::text::{parse_with_lines, Element};
///
/// let text = "root A\n\nstruct A\n  rust \"app::A\"\n  unknown ignore\n  field id: u64\n    send \"id\" always\n    receive \"id\" required\n";
/// let (_schema, map) = parse_with_lines(text)?;
/// assert_eq!(map.root_line(), Some(1));
/// assert_eq!(map.line_of(&Element::Type("A")), Some(3));
/// assert_eq!(map.line_of(&Element::Field { ty: "A", field: "id" }), Some(6));
/// assert_eq!(map.line_of(&Element::Field { ty: "A", field: "gone" }), None);
/// # Ok::<(), contract_schema::text::ParseError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    root: Option<usize>,
    types: HashMap<String, TypeLines>,
}

/// The lines of one named type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct TypeLines {
    line: usize,
    /// Fields and flattened fields of a struct, by Rust name.
    fields: HashMap<String, usize>,
    variants: HashMap<String, VariantLines>,
}

/// The lines of one enum variant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct VariantLines {
    line: usize,
    /// Fields and flattened fields of a struct variant, by Rust name.
    fields: HashMap<String, usize>,
}

/// One element of a schema text, by the names the text gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element<'s> {
    /// A named type (`struct A`, `enum E`, `newtype N: …`, `views V`), by display name.
    Type(&'s str),
    /// A field (`field x: …` or `flatten x: …`) of a struct, by Rust name.
    Field {
        /// The struct's display name.
        ty: &'s str,
        /// The field's Rust name.
        field: &'s str,
    },
    /// A variant of an enum, by Rust name.
    Variant {
        /// The enum's display name.
        ty: &'s str,
        /// The variant's Rust name.
        variant: &'s str,
    },
    /// A field of a struct variant, by Rust name.
    VariantField {
        /// The enum's display name.
        ty: &'s str,
        /// The variant's Rust name.
        variant: &'s str,
        /// The field's Rust name.
        field: &'s str,
    },
}

impl SourceMap {
    /// The line of the `root` line of the header.
    #[must_use]
    pub fn root_line(&self) -> Option<usize> {
        self.root
    }

    /// The line where `element` is written (its `struct`, `field`, `variant`… line), or
    /// `None` when the text has no such element.
    #[must_use]
    pub fn line_of(&self, element: &Element<'_>) -> Option<usize> {
        match *element {
            Element::Type(ty) => self.types.get(ty).map(|t| t.line),
            Element::Field { ty, field } => self.types.get(ty)?.fields.get(field).copied(),
            Element::Variant { ty, variant } => {
                self.types.get(ty)?.variants.get(variant).map(|v| v.line)
            }
            Element::VariantField { ty, variant, field } => self
                .types
                .get(ty)?
                .variants
                .get(variant)?
                .fields
                .get(field)
                .copied(),
        }
    }
}

/// What the parser records as it reads, in the order it reads: a type, then its fields or
/// its variants (and their fields).
#[derive(Debug, Default)]
pub(crate) struct SourceMapBuilder {
    map: SourceMap,
    /// The type being read, and the variant within it.
    open: Option<(String, Option<String>)>,
}

impl SourceMapBuilder {
    pub(crate) fn root(&mut self, line: usize) {
        self.map.root = Some(line);
    }

    /// A named type starts at `line`; the fields and variants that follow are its own.
    pub(crate) fn begin_type(&mut self, name: &str, line: usize) {
        self.map.types.insert(
            name.to_owned(),
            TypeLines {
                line,
                ..TypeLines::default()
            },
        );
        self.open = Some((name.to_owned(), None));
    }

    /// A variant of the open enum starts at `line`; the fields that follow are its own.
    pub(crate) fn begin_variant(&mut self, name: &str, line: usize) {
        let Some((ty, variant)) = &mut self.open else {
            return;
        };
        if let Some(t) = self.map.types.get_mut(ty.as_str()) {
            t.variants.insert(
                name.to_owned(),
                VariantLines {
                    line,
                    ..VariantLines::default()
                },
            );
        }
        *variant = Some(name.to_owned());
    }

    /// The open variant ends: fields that follow belong to the type.
    pub(crate) fn end_variant(&mut self) {
        if let Some((_, variant)) = &mut self.open {
            *variant = None;
        }
    }

    /// A field (or flattened field) of the open struct or struct variant, at `line`.
    pub(crate) fn field(&mut self, name: &str, line: usize) {
        let Some((ty, variant)) = &self.open else {
            return;
        };
        let Some(t) = self.map.types.get_mut(ty.as_str()) else {
            return;
        };
        let fields = match variant {
            None => &mut t.fields,
            Some(v) => match t.variants.get_mut(v.as_str()) {
                Some(v) => &mut v.fields,
                None => return,
            },
        };
        fields.insert(name.to_owned(), line);
    }

    pub(crate) fn finish(self) -> SourceMap {
        self.map
    }
}
