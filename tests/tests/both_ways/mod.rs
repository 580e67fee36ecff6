//! Every type a source file describes, described both ways: from the static shape the derive
//! emits (`Schema::from_shape`, the builder) and from the type's syntax (the derive's
//! compile-time rebuild, through `contract_derive_internals`). The two must agree exactly:
//! both translate what they know into `contract_schema::views`, which applies serde's rules
//! once, so a difference is a translation that lost or invented something.
//!
//! The rebuild takes what the syntax cannot tell (a named field type, whether a named type
//! around an `Option` is transparent) from the published snapshot; here the published
//! schema is the shape's own, as it is for a contract published unchanged. Types the check
//! does not rebuild (generic, flattened, `schema_as`, tuple, newtype and unit structs) must be
//! named by the caller, so that the list of what is compared both ways is exact.

use std::collections::BTreeSet;

use contract_core::schema::text::to_text;
use contract_core::Schema;
use contract_derive_internals::{rebuild, rebuild_nested, Derive};
use syn::punctuated::Punctuated;

/// `(name, schema from the shape)` for each listed type, named by the last segment of its path.
macro_rules! described {
    ($($ty:ty),* $(,)?) => {
        [$((
            $crate::both_ways::last_segment(stringify!($ty)),
            <$ty as ::contract_core::HandoffSchema>::schema(),
        )),*]
    };
}
pub(crate) use described;

/// The last segment of a path as `stringify!` writes it (`clash :: Name` is `Name`).
pub fn last_segment(path: &'static str) -> &'static str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

/// What the comparison covered.
#[derive(Debug)]
pub struct Compared {
    /// Types rebuilt from their syntax and equal to their shape's schema.
    pub equal: usize,
    /// Non-generic types the check does not rebuild (the caller's `not_rebuilt`).
    pub not_rebuilt: usize,
    /// Generic types, which only the snapshot test checks.
    pub generic: usize,
    /// Nested types rebuilt as the check of nested types rebuilds them, inside the schema of
    /// a listed type that holds them, and equal to that schema's definition.
    pub nested: usize,
}

/// Compares, for every non-generic item of `source` (the text of `file`) that derives
/// `HandoffSchema` or `HandoffContract`, inline modules included, the schema `described` holds
/// for it with the one the derive rebuilds from its syntax. Panics listing every difference,
/// every item `described` lacks or has in excess, and every item whose rebuild is not as
/// `not_rebuilt` says (`Ok(None)` exactly for those).
pub fn assert_rebuilt_as_described(
    file: &str,
    source: &str,
    described: &[(&str, Schema)],
    not_rebuilt: &[&str],
) -> Compared {
    let parsed = syn::parse_file(source).unwrap_or_else(|e| panic!("{file} does not parse: {e}"));
    let mut items = Vec::new();
    // A file of this crate's library (`src/types.rs`) is the module of its name; a test file
    // is its own crate's root.
    let file_module: Vec<String> = match file
        .strip_prefix("src/")
        .and_then(|f| f.strip_suffix(".rs"))
    {
        Some("lib") | None => Vec::new(),
        Some(module) => vec![module.to_owned()],
    };
    collect_in(&file_module, &parsed.items, &mut items);
    let mut problems = Vec::new();
    let mut compared = Compared {
        equal: 0,
        not_rebuilt: 0,
        generic: 0,
        nested: 0,
    };
    let mut seen = BTreeSet::new();
    for (modules, item, derive) in &items {
        let name = item.ident.to_string();
        if !item.generics.params.is_empty() {
            compared.generic += 1;
            continue;
        }
        seen.insert(name.clone());
        let Some((_, schema)) = described.iter().find(|(n, _)| *n == name) else {
            problems.push(format!("`{name}` is described in {file} but not listed"));
            continue;
        };
        let expected_none = not_rebuilt.contains(&name.as_str());
        match rebuild(item, *derive, schema) {
            Err(errors) => problems.push(format!("`{name}` does not expand: {errors:?}")),
            Ok(None) if expected_none => compared.not_rebuilt += 1,
            Ok(None) => problems.push(format!(
                "`{name}` is not rebuilt by the compile-time check; list it in `not_rebuilt`"
            )),
            Ok(Some(_)) if expected_none => problems.push(format!(
                "`{name}` is rebuilt by the compile-time check: remove it from `not_rebuilt`"
            )),
            Ok(Some(rebuilt)) if rebuilt == *schema => compared.equal += 1,
            Ok(Some(rebuilt)) => problems.push(format!(
                "`{name}`: the rebuild from its syntax differs from its shape's schema\n\
                 --- from the shape\n{}--- rebuilt from the syntax\n{}",
                to_text(schema),
                to_text(&rebuilt),
            )),
        }
        if !expected_none {
            compare_nested(
                modules,
                item,
                *derive,
                described,
                &mut compared,
                &mut problems,
            );
        }
    }
    for (name, _) in described {
        if !seen.contains(*name) {
            problems.push(format!("`{name}` is listed but not described in {file}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) in {file}:\n{}",
        problems.len(),
        problems.join("\n")
    );
    compared
}

/// Rebuilds `item` as the check of nested types does, inside every listed schema that holds
/// it (a definition other than the root whose Rust path, below its crate, is the item's
/// modules and name), and compares each with that schema's definition.
fn compare_nested(
    modules: &[String],
    item: &syn::DeriveInput,
    derive: Derive,
    described: &[(&str, Schema)],
    compared: &mut Compared,
    problems: &mut Vec<String>,
) {
    let name = item.ident.to_string();
    let below_crate: Vec<&str> = modules
        .iter()
        .map(String::as_str)
        .chain([name.as_str()])
        .collect();
    let below_crate = below_crate.join("::");
    for (holder, schema) in described {
        let root = match &schema.root {
            contract_core::schema::model::Type::Named(root) => root.as_str(),
            _ => "",
        };
        for (display, def) in &schema.types {
            let held = def
                .rust_path
                .split_once("::")
                .is_some_and(|(_, rest)| rest == below_crate);
            if display == root || !held {
                continue;
            }
            match rebuild_nested(item, derive, schema, display) {
                Ok(Some(rebuilt)) if rebuilt == *def => compared.nested += 1,
                Ok(Some(rebuilt)) => problems.push(format!(
                    "`{name}` inside `{holder}`: the nested rebuild differs from the holder's \
                     definition\n--- from the shape\n{def:?}\n--- rebuilt from the syntax\n\
                     {rebuilt:?}"
                )),
                Ok(None) => {}
                Err(errors) => problems.push(format!("`{name}` does not expand: {errors:?}")),
            }
        }
    }
}

/// Every item deriving `HandoffSchema` or `HandoffContract`, inline modules included, with
/// the modules it is in (`modules` and the inline ones).
fn collect_in(
    modules: &[String],
    items: &[syn::Item],
    out: &mut Vec<(Vec<String>, syn::DeriveInput, Derive)>,
) {
    for item in items {
        let input: syn::DeriveInput = match item {
            syn::Item::Struct(s) => s.clone().into(),
            syn::Item::Enum(e) => e.clone().into(),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let mut inside = modules.to_vec();
                    inside.push(m.ident.to_string());
                    collect_in(&inside, inner, out);
                }
                continue;
            }
            _ => continue,
        };
        if let Some(derive) = derive_of(&input.attrs) {
            out.push((modules.to_vec(), input, derive));
        }
    }
}

/// Which of the two derives the attributes name, if any.
fn derive_of(attrs: &[syn::Attribute]) -> Option<Derive> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let paths = attr
            .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .unwrap_or_default();
        for path in paths {
            match path.segments.last().map(|s| s.ident.to_string()).as_deref() {
                Some("HandoffContract") => found = Some(Derive::Contract),
                Some("HandoffSchema") if found.is_none() => found = Some(Derive::Schema),
                _ => {}
            }
        }
    }
    found
}
