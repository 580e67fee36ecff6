//! The wire type of a field read from its syntax, for the compile-time compatibility check.
//!
//! A proc macro sees tokens, not types: it can be sure only of the types whose meaning does
//! not depend on anything outside the field (`bool`, the fixed-width integers, `f32`/`f64`,
//! `char`, `String`/`str`, `()`, `Option`, the std sequences, sets and maps, arrays of a
//! literal length, `Box`/`Rc`/`Arc`/`Cow`/references, tuples). Everything else — a named
//! type, a type alias, a type from another crate, `usize`/`isize` (whose width is the
//! target's) — is a [`Wire::Unknown`] hole, filled from the published snapshot: the
//! compile-time check assumes it unchanged, and the contract's snapshot test, which runs the
//! engine on the real description, catches a change there.
//!
//! Names are taken at face value: a user type that shadows `String` or `Option` is read as
//! the std type (rename such types, or rely on the snapshot test by using their full path).

use contract_schema::model::{FloatKind, IntKind, Schema, StringFormat, Type};
use syn::{GenericArgument, PathArguments};

/// How deep a written type is followed; deeper parts are holes.
const MAX_DEPTH: usize = 64;

/// A wire type with holes where the syntax does not say enough.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wire {
    /// A fully known leaf: unit, bool, an integer, a float, char or a plain string.
    Leaf(Type),
    /// `Option<T>`.
    Option(Box<Wire>),
    /// A sequence without uniqueness (`Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, slices).
    List(Box<Wire>),
    /// A set (`BTreeSet`, `HashSet`).
    Set(Box<Wire>),
    /// `[T; N]` with a literal `N`.
    Array(Box<Wire>, usize),
    /// `BTreeMap<K, V>`, `HashMap<K, V>`.
    Map(Box<Wire>, Box<Wire>),
    /// A tuple of at least one item.
    Tuple(Vec<Wire>),
    /// Not known from the syntax.
    Unknown,
}

impl Wire {
    /// Reads the wire type of a written type.
    pub fn of(ty: &syn::Type) -> Wire {
        of(ty, 0)
    }

    /// Whether the syntax says everything (no hole).
    #[cfg(test)]
    pub fn is_known(&self) -> bool {
        match self {
            Wire::Leaf(_) => true,
            Wire::Option(i) | Wire::List(i) | Wire::Set(i) | Wire::Array(i, _) => i.is_known(),
            Wire::Map(k, v) => k.is_known() && v.is_known(),
            Wire::Tuple(items) => items.iter().all(Wire::is_known),
            Wire::Unknown => false,
        }
    }

    /// The type, each hole filled with the type at the same place in `published` (a type
    /// of the `schema` the snapshot holds); a hole without a counterpart becomes `any`, which
    /// the engine reads as matching every type.
    pub fn fill(&self, published: Option<&Type>, schema: &Schema) -> Type {
        fill(self, published, schema, 0)
    }
}

fn of(ty: &syn::Type, depth: usize) -> Wire {
    if depth >= MAX_DEPTH {
        return Wire::Unknown;
    }
    let depth = depth + 1;
    match ty {
        syn::Type::Paren(t) => of(&t.elem, depth),
        syn::Type::Group(t) => of(&t.elem, depth),
        syn::Type::Reference(t) => of(&t.elem, depth),
        syn::Type::Slice(t) => Wire::List(Box::new(of(&t.elem, depth))),
        syn::Type::Array(t) => match array_len(&t.len) {
            Some(n) => Wire::Array(Box::new(of(&t.elem, depth)), n),
            None => Wire::Unknown,
        },
        syn::Type::Tuple(t) if t.elems.is_empty() => Wire::Leaf(Type::Unit),
        syn::Type::Tuple(t) => Wire::Tuple(t.elems.iter().map(|e| of(e, depth)).collect()),
        // `Option` follows the derive's one rule for it, shared with the other checks.
        syn::Type::Path(p) if p.qself.is_none() => match crate::option::option_arg(ty) {
            Some(inner) => Wire::Option(Box::new(of(inner, depth))),
            None => path(&p.path, depth),
        },
        _ => Wire::Unknown,
    }
}

fn array_len(expr: &syn::Expr) -> Option<usize> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => lit.base10_parse::<usize>().ok(),
        syn::Expr::Group(g) => array_len(&g.expr),
        syn::Expr::Paren(p) => array_len(&p.expr),
        _ => None,
    }
}

/// A path the derive can be sure of: one segment, or a path into `std`, `core` or `alloc`.
fn path(path: &syn::Path, depth: usize) -> Wire {
    let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
    let Some((last, prefix)) = segments.split_last() else {
        return Wire::Unknown;
    };
    let std_prefix = prefix
        .first()
        .is_some_and(|s| s.ident == "std" || s.ident == "core" || s.ident == "alloc")
        && prefix.iter().all(|s| s.arguments.is_none());
    let bare = prefix.is_empty() && path.leading_colon.is_none();
    if !(bare || std_prefix) {
        return Wire::Unknown;
    }
    let Some(args) = type_args(&last.arguments) else {
        return Wire::Unknown;
    };
    let name = last.ident.to_string();
    let leaf = |t: Type| {
        if args.is_empty() {
            Wire::Leaf(t)
        } else {
            Wire::Unknown
        }
    };
    let one = |f: fn(Box<Wire>) -> Wire, max: usize| match args.as_slice() {
        [item, rest @ ..] if rest.len() < max => f(Box::new(of(item, depth))),
        _ => Wire::Unknown,
    };
    match name.as_str() {
        "bool" => leaf(Type::Bool),
        "char" => leaf(Type::Char),
        "str" | "String" => leaf(Type::String(StringFormat::Plain)),
        "f32" => leaf(Type::Float(FloatKind::F32)),
        "f64" => leaf(Type::Float(FloatKind::F64)),
        "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" => one(Wire::List, 1),
        "BTreeSet" => one(Wire::Set, 1),
        // `HashSet<T, S>`: the hasher is not on the wire.
        "HashSet" => one(Wire::Set, 2),
        "Box" | "Rc" | "Arc" | "Cow" => match args.as_slice() {
            [inner] => of(inner, depth),
            _ => Wire::Unknown,
        },
        "BTreeMap" | "HashMap" => match args.as_slice() {
            [k, v] => Wire::Map(Box::new(of(k, depth)), Box::new(of(v, depth))),
            [k, v, _hasher] if name == "HashMap" => {
                Wire::Map(Box::new(of(k, depth)), Box::new(of(v, depth)))
            }
            _ => Wire::Unknown,
        },
        other => match IntKind::ALL.into_iter().find(|k| k.as_str() == other) {
            Some(kind) => leaf(Type::Int(kind)),
            None => Wire::Unknown,
        },
    }
}

/// The type arguments of a segment (lifetimes skipped); `None` when there is anything else
/// (const arguments, associated types, `Fn(..)` sugar).
fn type_args(arguments: &PathArguments) -> Option<Vec<&syn::Type>> {
    match arguments {
        PathArguments::None => Some(Vec::new()),
        PathArguments::AngleBracketed(args) => {
            let mut out = Vec::new();
            for arg in &args.args {
                match arg {
                    GenericArgument::Type(t) => out.push(t),
                    GenericArgument::Lifetime(_) => {}
                    _ => return None,
                }
            }
            Some(out)
        }
        PathArguments::Parenthesized(_) => None,
    }
}

fn fill(wire: &Wire, published: Option<&Type>, schema: &Schema, depth: usize) -> Type {
    if depth >= MAX_DEPTH {
        return published.cloned().unwrap_or(Type::Any);
    }
    let depth = depth + 1;
    // Structure is matched through the published side's newtypes; a hole takes the
    // published type as written (a named type stays named).
    let resolved = published.map(|p| schema.resolve(p));
    match wire {
        Wire::Unknown => published.cloned().unwrap_or(Type::Any),
        Wire::Leaf(t) => t.clone(),
        Wire::Option(inner) => {
            let p = match resolved {
                Some(Type::Option(p)) => Some(&**p),
                other => other,
            };
            Type::option_of(fill(inner, p, schema, depth))
        }
        Wire::List(inner) | Wire::Set(inner) | Wire::Array(inner, _) => {
            let p = match resolved {
                Some(Type::List(p) | Type::Set(p) | Type::Array(p, _)) => Some(&**p),
                _ => None,
            };
            let item = Box::new(fill(inner, p, schema, depth));
            match wire {
                Wire::Set(_) => Type::Set(item),
                Wire::Array(_, n) => Type::Array(item, *n),
                _ => Type::List(item),
            }
        }
        Wire::Map(k, v) => {
            let (pk, pv) = match resolved {
                Some(Type::Map(pk, pv)) => (Some(&**pk), Some(&**pv)),
                _ => (None, None),
            };
            Type::Map(
                Box::new(fill(k, pk, schema, depth)),
                Box::new(fill(v, pv, schema, depth)),
            )
        }
        Wire::Tuple(items) => {
            let published: Vec<Option<&Type>> = match resolved {
                Some(Type::Tuple(ps)) if ps.len() == items.len() => ps.iter().map(Some).collect(),
                Some(Type::Array(p, n)) if *n == items.len() => vec![Some(&**p); *n],
                _ => vec![None; items.len()],
            };
            Type::Tuple(
                items
                    .iter()
                    .zip(published)
                    .map(|(item, p)| fill(item, p, schema, depth))
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Wire;
    use contract_schema::model::{IntKind, Schema, StringFormat, Type};

    fn wire(source: &str) -> Wire {
        Wire::of(&syn::parse_str::<syn::Type>(source).expect("a type"))
    }

    fn empty() -> Schema {
        contract_schema::text::parse("root unit\n").expect("a schema")
    }

    fn known(source: &str) -> String {
        let w = wire(source);
        assert!(w.is_known(), "{source} should be known");
        w.fill(None, &empty()).to_string()
    }

    #[test]
    fn std_types_are_read_from_their_syntax() {
        assert_eq!(known("u32"), "u32");
        assert_eq!(known("i128"), "i128");
        assert_eq!(known("std::string::String"), "string");
        assert_eq!(known("&'a str"), "string");
        assert_eq!(known("Cow<'a, str>"), "string");
        assert_eq!(known("Option<Option<bool>>"), "option<bool>");
        assert_eq!(known("::core::option::Option<u8>"), "option<u8>");
        assert_eq!(known("Vec<Box<f64>>"), "list<f64>");
        assert_eq!(known("::std::collections::VecDeque<char>"), "list<char>");
        assert_eq!(known("HashSet<String, S>"), "set<string>");
        assert_eq!(known("BTreeMap<String, Vec<u8>>"), "map<string, list<u8>>");
        assert_eq!(known("HashMap<u16, (), H>"), "map<u16, unit>");
        assert_eq!(known("[u8; 4]"), "array<u8; 4>");
        assert_eq!(known("&[i8]"), "list<i8>");
        assert_eq!(known("(String, Arc<i64>)"), "tuple(string, i64)");
    }

    #[test]
    fn what_the_syntax_cannot_tell_is_a_hole() {
        for source in [
            "Category",
            "usize",
            "isize",
            "serde_json::Value",
            "crate::Id",
            "my::Vec<u8>",
            "[u8; N]",
            "Option<Category>",
            "Vec<T>",
            "<T as Trait>::Out",
            "Vec<u8, A, B>",
            "u32<u8>",
            // Only the std `Option` paths are `Option` (see `crate::option`).
            "my::Option<u8>",
            "alloc::option::Option<u8>",
        ] {
            assert!(!wire(source).is_known(), "{source} must not be known");
        }
    }

    #[test]
    fn holes_take_the_published_type_at_the_same_place() {
        let schema = contract_schema::text::parse(
            "root Id\n\nnewtype Id: list<option<u64>>\n  rust \"app::Id\"\n",
        )
        .expect("a schema");
        let named = Type::Named("Id".to_owned());
        // A hole at the top keeps the published name.
        assert_eq!(wire("Id").fill(Some(&named), &schema), named);
        // Structure is matched through the newtype.
        assert_eq!(
            wire("Vec<Option<Ident>>").fill(Some(&named), &schema),
            Type::List(Box::new(Type::Option(Box::new(Type::Int(IntKind::U64)))))
        );
        // A hole without a counterpart is `any`.
        assert_eq!(
            wire("Vec<Ident>").fill(Some(&Type::String(StringFormat::Plain)), &schema),
            Type::List(Box::new(Type::Any))
        );
        assert_eq!(wire("Ident").fill(None, &schema), Type::Any);
    }
}
