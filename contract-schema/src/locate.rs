//! Where a compatibility finding points in a snapshot: its path, in wire names, walked
//! through the NEW schema to the innermost type, field or variant it names, and that
//! element's line in the [`SourceMap`] of the new snapshot's text.

use crate::compat::{Direction, Finding};
use crate::model::{Body, Schema, StructDef, Type, VariantDefKind};
use crate::text::{Element, SourceMap};

/// The line of the new snapshot a finding is about: the line of the innermost element its
/// path names (a field, a variant, a field of a struct variant, or, for an empty path, the
/// root type) in `schema`, the new side of the comparison, whose text `lines` maps.
///
/// When the element is gone from the new schema (a `FIELD_REMOVED`, a variant removed),
/// the line is that of the innermost element still there on the path: the struct (or the
/// struct variant) that held the field, the enum that held the variant. The path's names
/// are matched against every name the new schema gives an element there (its sent key,
/// its received key and aliases, a variant's Rust name and tags), the longest first.
/// `None` only when `lines` maps nothing on the path (a text without a `root` line cannot
/// parse, so a map from [`parse_with_lines`](crate::snapshot::parse_with_lines) always has
/// one).
///
/// ```
/// use contract_schema::{compat, snapshot};
///
/// let old = "root A\n\nstruct A\n  rust \"app::A\"\n  unknown ignore\n  field id: u64\n    send \"id\" always\n    receive \"id\" required\n  field note: string\n    send \"note\" always\n    receive \"note\" required\n";
/// let new = "root A\n\nstruct A\n  rust \"app::A\"\n  unknown ignore\n  field id: u64\n    send \"id\" always\n    receive \"id\" required\n";
/// let (new_schema, lines) = snapshot::parse_with_lines(new)?;
/// let report = compat::evolve(&snapshot::parse(old)?, &new_schema, compat::Mode::Full);
/// let removed = &report.findings()[0];
/// assert_eq!(removed.rule.id(), "FIELD_REMOVED");
/// // `note` is gone: the finding points at the struct that held it.
/// assert_eq!(snapshot::finding_line(&new_schema, &lines, removed), Some(3));
/// # Ok::<(), contract_schema::text::ParseError>(())
/// ```
#[must_use]
pub fn finding_line(schema: &Schema, lines: &SourceMap, finding: &Finding) -> Option<usize> {
    let walk = Walk {
        schema,
        sender: finding.direction == Direction::Forward,
    };
    let element = walk.innermost(&finding.path);
    element
        .and_then(|e| lines.line_of(&e))
        .or_else(|| lines.root_line())
}

/// A walk through the new schema, in the view whose names a finding's path uses: the
/// sender's when new writers are checked (forward), the receiver's otherwise.
struct Walk<'s> {
    schema: &'s Schema,
    sender: bool,
}

/// Where the walk stands.
enum At<'s> {
    /// A type, whatever it is.
    Ty(&'s Type),
    /// The items of a tuple variant.
    Items(&'s [Type]),
    /// The fields of a struct, or of a struct variant (`variant` is then its Rust name), of
    /// the named type `owner`.
    Struct {
        owner: &'s str,
        variant: Option<&'s str>,
        def: &'s StructDef,
    },
}

impl<'s> Walk<'s> {
    /// The innermost element of the new schema on `path`.
    fn innermost(&self, path: &'s str) -> Option<Element<'s>> {
        let mut at = At::Ty(&self.schema.root);
        let mut element: Option<Element<'s>> = None;
        let mut rest = path;
        // Each turn either consumes a segment of the path or steps into a named type, and
        // steps into named types are bounded: the walk ends.
        let mut steps = path.len() + 2 * (self.schema.types.len() + 1);
        while steps > 0 {
            steps -= 1;
            match at {
                At::Ty(ty) => {
                    let Some(next) = self.step_into(ty, &mut rest, &mut element) else {
                        break;
                    };
                    at = next;
                }
                At::Items(items) => {
                    let Some((index, after)) = index(rest) else {
                        break;
                    };
                    let Some(item) = items.get(index) else { break };
                    rest = after;
                    at = At::Ty(item);
                }
                At::Struct {
                    owner,
                    variant,
                    def,
                } => {
                    let container = match variant {
                        None => Element::Type(owner),
                        Some(variant) => Element::Variant { ty: owner, variant },
                    };
                    if rest.is_empty() {
                        element = element.or(Some(container));
                        break;
                    }
                    let Some((ty, field, after)) = self.field(def, rest) else {
                        // Gone from the new schema: the struct that held it.
                        element = Some(container);
                        break;
                    };
                    element = Some(match variant {
                        None => Element::Field { ty: owner, field },
                        Some(variant) => Element::VariantField {
                            ty: owner,
                            variant,
                            field,
                        },
                    });
                    rest = after;
                    at = At::Ty(ty);
                }
            }
        }
        element
    }

    /// One step from `ty`: into a named type's body, or through one segment of `rest`
    /// (an item, a map value, a tuple item, a variant). `None` when the path ends here or
    /// goes on where `ty` has nothing.
    fn step_into(
        &self,
        ty: &'s Type,
        rest: &mut &'s str,
        element: &mut Option<Element<'s>>,
    ) -> Option<At<'s>> {
        match ty {
            Type::Option(inner) => Some(At::Ty(inner)),
            Type::List(inner) | Type::Set(inner) | Type::Array(inner, _) => {
                *rest = rest.strip_prefix("[]")?;
                Some(At::Ty(inner))
            }
            Type::Map(_, value) => {
                *rest = dotted(rest).strip_prefix('*')?;
                Some(At::Ty(value))
            }
            Type::Tuple(items) => Some(At::Items(items)),
            Type::Named(name) => {
                let (name, def) = self.schema.types.get_key_value(name.as_str())?;
                match &def.body {
                    Body::Newtype(inner) => Some(At::Ty(inner)),
                    Body::Views { sender, receiver } => {
                        Some(At::Ty(if self.sender { sender } else { receiver }))
                    }
                    Body::Struct(def) => Some(At::Struct {
                        owner: name,
                        variant: None,
                        def,
                    }),
                    Body::Enum(e) => {
                        if rest.is_empty() {
                            *element = element.or(Some(Element::Type(name)));
                            return None;
                        }
                        let found = rest.strip_prefix('(').and_then(|inside| {
                            e.variants
                                .iter()
                                .flat_map(|v| {
                                    let tags = v.sender.iter().chain(&v.receiver);
                                    core::iter::once(&v.rust_name)
                                        .chain(tags)
                                        .map(move |tag| (v, tag))
                                })
                                .filter_map(|(v, tag)| {
                                    let after = inside.strip_prefix(tag.as_str())?;
                                    Some((v, tag.len(), after.strip_prefix(')')?))
                                })
                                .max_by_key(|&(_, len, _)| len)
                        });
                        let Some((variant, _, after)) = found else {
                            // Gone from the new schema: the enum that held it.
                            *element = Some(Element::Type(name));
                            return None;
                        };
                        *element = Some(Element::Variant {
                            ty: name,
                            variant: &variant.rust_name,
                        });
                        *rest = after;
                        match &variant.kind {
                            VariantDefKind::Unit => None,
                            VariantDefKind::Newtype(inner) => Some(At::Ty(inner)),
                            VariantDefKind::Tuple(items) => Some(At::Items(items)),
                            VariantDefKind::Struct(def) => Some(At::Struct {
                                owner: name,
                                variant: Some(&variant.rust_name),
                                def,
                            }),
                        }
                    }
                }
            }
            Type::Constrained(_)
            | Type::Unit
            | Type::Bool
            | Type::Int(_)
            | Type::Float(_)
            | Type::Char
            | Type::String(_)
            | Type::Any => None,
        }
    }

    /// The field of `def` that the next segment of `rest` names (a key, or a flattened
    /// field's `(flatten NAME)`), the longest name first: its type, its Rust name and the
    /// path after it. A key the struct captures (`*`) names no field.
    fn field(&self, def: &'s StructDef, rest: &'s str) -> Option<(&'s Type, &'s str, &'s str)> {
        let rest = dotted(rest);
        let keys = def.fields.iter().flat_map(|f| {
            let sent = f.sender.as_ref().map(|s| s.name.as_str());
            let read = f.receiver.iter().flat_map(|r| {
                core::iter::once(r.name.as_str()).chain(r.aliases.iter().map(String::as_str))
            });
            sent.into_iter()
                .chain(read)
                .map(move |key| (&f.ty, f.rust_name.as_str(), key, false))
        });
        let flattened = def
            .flattened
            .iter()
            .map(|f| (&f.ty, f.rust_name.as_str(), f.rust_name.as_str(), true));
        keys.chain(flattened)
            .filter_map(|(ty, rust_name, key, flat)| {
                let after = if flat {
                    rest.strip_prefix("(flatten ")?
                        .strip_prefix(key)?
                        .strip_prefix(')')?
                } else {
                    rest.strip_prefix(key)?
                };
                let ends = after.is_empty() || after.starts_with(['.', '[', '(']);
                ends.then_some((ty, rust_name, after, key.len()))
            })
            .max_by_key(|&(_, _, _, len)| len)
            .map(|(ty, rust_name, after, _)| (ty, rust_name, after))
    }
}

/// The path after the dot that separates a segment from the one before it.
fn dotted(rest: &str) -> &str {
    rest.strip_prefix('.').unwrap_or(rest)
}

/// A tuple item's index at the start of `rest`, and the path after it.
fn index(rest: &str) -> Option<(usize, &str)> {
    let rest = dotted(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number = rest.get(..digits)?;
    Some((number.parse().ok()?, rest.get(digits..)?))
}
