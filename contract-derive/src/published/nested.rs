//! The compile-time check of nested types: the root asks, the nested type answers (the
//! items the expansion names are in `contract_core::__private`, `nested.rs`, whose docs
//! describe the protocol).
//!
//! A nested type's derive ([`answer`]) reads the crate's snapshot folders
//! ([`folders`]), and for every published `(contract, major)` whose snapshot defines a type
//! of its name (a *candidate*: a definition whose Rust path ends with the type's name), it
//! rebuilds that definition from its own syntax, runs the engine on the whole published
//! schema with it replaced, and answers with the breaking findings and a `const` that panics
//! at the offending field or variant. A proc macro does not know its module, so the answer
//! holds every candidate's result and the `const` picks by `module_path!()`.
//!
//! A root's derive ([`probes`]) and every answer ask the types they hold along the tree of
//! the published type graph (each type is asked by the type through which a walk from the
//! root first reaches it), so that asking never goes round a cycle (a `const` cycle is an
//! error, E0391).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};

use contract_schema::compat::{self, Allowances, Direction, Finding};
use contract_schema::model::{Body, Schema, Type, TypeDef, VariantDefKind};
use contract_schema::snapshot;
use contract_schema::Mode;

use super::diagnostics::{drafts, Nested};
use super::rebuild_def;
use super::target::{applies, Contract, Target};
use crate::ast::{Data, Field, Input};
use crate::symbol::DEFAULT_SNAPSHOTS;

/// One snapshot file of the crate's folders.
struct File {
    /// The folder as written in `Cargo.toml` (`contracts`).
    relative: String,
    /// The file.
    path: PathBuf,
    /// The contract's name and major, from the file name.
    name: String,
    version: u32,
}

/// The crate's snapshot folders: `[package.metadata.handoff] snapshots = [...]` in its
/// `Cargo.toml`, else `contracts`; each as written and as an absolute path.
pub(crate) fn folders() -> Vec<(String, PathBuf)> {
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return Vec::new();
    };
    let manifest_dir = PathBuf::from(manifest_dir);
    let manifest = std::fs::read_to_string(manifest_dir.join("Cargo.toml")).unwrap_or_default();
    let listed =
        metadata_snapshots(&manifest).unwrap_or_else(|| vec![DEFAULT_SNAPSHOTS.to_owned()]);
    listed
        .into_iter()
        .map(|relative| {
            let path = manifest_dir.join(&relative);
            (relative, path)
        })
        .collect()
}

/// `include_bytes!` of the crate's `Cargo.toml`, so that editing the list of its snapshot
/// folders recompiles the crate (cargo tracks the files a build read); empty without one.
pub(crate) fn manifest_track() -> TokenStream {
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return TokenStream::new();
    };
    let manifest = PathBuf::from(manifest_dir).join("Cargo.toml");
    match manifest.to_str() {
        Some(abs) if manifest.is_file() => quote!(
            const _: &[u8] = ::core::include_bytes!(#abs);
        ),
        _ => TokenStream::new(),
    }
}

/// The list `snapshots = ["a", "b"]` of the `[package.metadata.handoff]` table of a
/// `Cargo.toml`, if it has one (basic strings only, on one or more lines).
pub(crate) fn metadata_snapshots(manifest: &str) -> Option<Vec<String>> {
    let mut in_table = false;
    let mut lines = manifest.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line.trim_start_matches('[').trim_end_matches(']').trim()
                == "package.metadata.handoff";
            continue;
        }
        let Some(rest) = line.strip_prefix("snapshots") else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        if !in_table {
            continue;
        }
        let mut value = value.to_owned();
        while !value.contains(']') {
            value.push_str(lines.next()?);
        }
        let inner = value.split_once('[')?.1.split_once(']')?.0;
        return Some(
            inner
                .split(',')
                .map(|item| item.trim().trim_matches('"').to_owned())
                .filter(|item| !item.is_empty())
                .collect(),
        );
    }
    None
}

/// Every snapshot file of the folders, sorted by folder, name and version.
fn files(folders: &[(String, PathBuf)]) -> Vec<File> {
    let mut out = Vec::new();
    for (relative, dir) in folders {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let file_name = entry.file_name();
            let Some(id) = file_name.to_str().and_then(snapshot::parse_file_name) else {
                continue;
            };
            out.push(File {
                relative: relative.clone(),
                path: entry.path(),
                name: id.name,
                version: id.version,
            });
        }
    }
    out.sort_by(|a, b| (&a.path, a.version).cmp(&(&b.path, b.version)));
    out
}

/// The number of each contract name of the folders: its place in their sorted list, from 1.
fn numbers(files: &[File]) -> BTreeMap<String, u32> {
    let names: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
    names
        .into_iter()
        .zip(1u32..)
        .map(|(name, n)| (name.to_owned(), n))
        .collect()
}

/// The contract number of `name` among the crate's snapshot folders, when `dir` is one of
/// them (a contract whose `snapshots` folder is another is invisible to its nested types).
pub(crate) fn contract_number(name: &str, dir: &str) -> Option<u32> {
    let folders = folders();
    let dir = Path::new(dir);
    if !folders.iter().any(|(_, path)| path == dir) {
        return None;
    }
    numbers(&files(&folders)).get(name).copied()
}

/// A snapshot's schema, parsed once per compiler process for each content (rust-analyzer
/// keeps its proc-macro server alive); `None` when it does not parse (the root's check
/// reports it).
fn parsed(bytes: &[u8]) -> Option<Arc<Schema>> {
    /// The parsed snapshots, by content (`None` for one that does not parse).
    type Cache = Mutex<HashMap<Vec<u8>, Option<Arc<Schema>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(bytes).cloned()) {
        return hit;
    }
    let schema = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| snapshot::parse(text).ok())
        .map(Arc::new);
    if let Ok(mut cache) = cache.lock() {
        cache.insert(bytes.to_vec(), schema.clone());
    }
    schema
}

/// The last segment of a Rust path (`app::orders::Line` is `Line`).
fn last_segment(rust_path: &str) -> &str {
    rust_path.rsplit("::").next().unwrap_or(rust_path)
}

/// The module of a Rust path below its crate (`app::orders::Line` is `orders`, `app::Line`
/// the empty module), as `contract_core::__private::module_is` compares it.
fn module_suffix(rust_path: &str) -> String {
    let segments: Vec<&str> = rust_path.split("::").collect();
    match segments.as_slice() {
        [_crate, middle @ .., _name] => middle.join("::"),
        _ => String::new(),
    }
}

/// The named types a definition refers to, in order.
fn refs(def: &TypeDef) -> Vec<&str> {
    fn walk<'a>(ty: &'a Type, out: &mut Vec<&'a str>) {
        match ty {
            Type::Named(name) => out.push(name),
            Type::Option(inner) | Type::List(inner) | Type::Set(inner) | Type::Array(inner, _) => {
                walk(inner, out);
            }
            Type::Map(key, value) => {
                walk(key, out);
                walk(value, out);
            }
            Type::Tuple(items) => items.iter().for_each(|t| walk(t, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match &def.body {
        Body::Struct(s) => {
            for f in &s.fields {
                walk(&f.ty, &mut out);
            }
            if let Some(extra) = &s.extra {
                walk(extra, &mut out);
            }
            for flat in &s.flattened {
                walk(&flat.ty, &mut out);
            }
        }
        Body::Enum(e) => {
            for v in &e.variants {
                match &v.kind {
                    VariantDefKind::Unit => {}
                    VariantDefKind::Newtype(t) => walk(t, &mut out),
                    VariantDefKind::Tuple(items) => items.iter().for_each(|t| walk(t, &mut out)),
                    VariantDefKind::Struct(s) => {
                        for f in &s.fields {
                            walk(&f.ty, &mut out);
                        }
                    }
                }
            }
        }
        Body::Newtype(t) => walk(t, &mut out),
        Body::Views { sender, receiver } => {
            walk(sender, &mut out);
            walk(receiver, &mut out);
        }
    }
    out
}

/// The children of `parent` in the tree of the published type graph: the types a walk from
/// the root (breadth first, in the order the definitions name them) first reaches through
/// `parent`.
fn tree_children(schema: &Schema, parent: &str) -> Vec<String> {
    let Type::Named(root) = &schema.root else {
        return Vec::new();
    };
    let mut seen: BTreeSet<&str> = BTreeSet::from([root.as_str()]);
    let mut queue = VecDeque::from([root.as_str()]);
    let mut out = Vec::new();
    while let Some(name) = queue.pop_front() {
        let Some(def) = schema.def(name) else {
            continue;
        };
        for child in refs(def) {
            if seen.insert(child) {
                queue.push_back(child);
                if name == parent {
                    out.push(child.to_owned());
                }
            }
        }
    }
    out
}

/// The Rust names (last path segments) of `parent`'s children in the published tree.
pub(crate) fn child_idents(schema: &Schema, parent: &str) -> BTreeSet<String> {
    tree_children(schema, parent)
        .iter()
        .filter_map(|child| schema.def(child))
        .map(|def| last_segment(&def.rust_path).to_owned())
        .collect()
}

/// The types written in the item's fields and variants (those on the wire) whose name is
/// one of `idents`, through the standard wrappers (`Vec<Line>`, `Option<Box<Line>>`, map
/// values…), each once; a `schema_as` field's `schema_as` type.
pub(crate) fn held_types(input: &Input, idents: &BTreeSet<String>) -> Vec<syn::Type> {
    let fields: Vec<&Field> = match &input.data {
        Data::Struct(fields) => fields.iter().filter(|f| !f.is_skipped()).collect(),
        Data::Enum(_, variants) => variants
            .iter()
            .filter(|v| !v.is_skipped())
            .flat_map(|v| v.fields.iter().filter(|f| !f.is_skipped()))
            .collect(),
        Data::Newtype(field) => vec![field],
        Data::Tuple(fields) => fields.iter().filter(|f| !f.is_skipped()).collect(),
        Data::Unit => Vec::new(),
    };
    let mut variant_types: Vec<&syn::Type> = Vec::new();
    if let Data::Enum(_, variants) = &input.data {
        for v in variants.iter().filter(|v| !v.is_skipped()) {
            if let Some(schema_as) = &v.attrs.schema_as {
                variant_types.push(&schema_as.value);
            }
        }
    }
    let mut out: Vec<syn::Type> = Vec::new();
    let mut seen = BTreeSet::new();
    for ty in fields.iter().map(|f| f.wire_type()).chain(variant_types) {
        let mut found = Vec::new();
        named_in(ty, idents, &mut found);
        for ty in found {
            if seen.insert(ty.to_token_stream().to_string()) {
                out.push(ty.clone());
            }
        }
    }
    out
}

/// The standard types whose type arguments are on the wire as their items or values.
const WRAPPERS: &[&str] = &[
    "Option",
    "Box",
    "Rc",
    "Arc",
    "Cow",
    "Vec",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "BTreeSet",
    "HashSet",
    "BTreeMap",
    "HashMap",
    "IndexMap",
    "IndexSet",
];

fn named_in<'t>(ty: &'t syn::Type, idents: &BTreeSet<String>, out: &mut Vec<&'t syn::Type>) {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return;
            };
            let name = last.ident.to_string();
            match &last.arguments {
                syn::PathArguments::None if idents.contains(&name) => out.push(ty),
                syn::PathArguments::AngleBracketed(args) if WRAPPERS.contains(&name.as_str()) => {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(inner) = arg {
                            named_in(inner, idents, out);
                        }
                    }
                }
                _ => {}
            }
        }
        syn::Type::Reference(r) => named_in(&r.elem, idents, out),
        syn::Type::Array(a) => named_in(&a.elem, idents, out),
        syn::Type::Slice(s) => named_in(&s.elem, idents, out),
        syn::Type::Paren(p) => named_in(&p.elem, idents, out),
        syn::Type::Group(g) => named_in(&g.elem, idents, out),
        syn::Type::Tuple(t) => t.elems.iter().for_each(|e| named_in(e, idents, out)),
        _ => {}
    }
}

/// `const _: () = <Probe<Ty, C, N, Root>>::CHECK;` for each type held, spanned at it, with
/// the probe defined beside them ([`local_probe`]).
pub(crate) fn probe_items(
    types: &[syn::Type],
    number: u32,
    version: u32,
    root: &TokenStream,
    krate: &syn::Path,
) -> TokenStream {
    let probe = local_probe(krate);
    let items = types.iter().map(|ty| {
        let span = first_span(&ty.to_token_stream());
        quote_spanned! {span=>
            const _: () = <__HandoffProbe<#ty, #number, #version, #root>>::CHECK;
        }
    });
    quote!(const _: () = { #probe #(#items)* };)
}

/// The library's `Probe` and its `Unanswered` default, defined again in the scope of the
/// questions a derive asks: when a nested type breaks a published contract, rustc's notes
/// of the constants that led to its error ("erroneous constant encountered") then point at
/// the user's derive and fields, not into the library's sources. Items only: a block of
/// them holds no generic parameter of its surroundings, so the probe takes them all.
fn local_probe(krate: &syn::Path) -> TokenStream {
    let p = quote!(#krate::__private);
    quote! {
        #[allow(dead_code, non_camel_case_types)]
        struct __HandoffProbe<T: ?::core::marker::Sized, const C: u32, const N: u32, R: ?::core::marker::Sized>(
            ::core::marker::PhantomData<fn() -> (*const T, *const R)>,
        );
        #[allow(dead_code, non_camel_case_types)]
        trait __HandoffUnanswered {
            const CHECK: () = ();
        }
        impl<T: ?::core::marker::Sized, const C: u32, const N: u32, R: ?::core::marker::Sized>
            __HandoffUnanswered for __HandoffProbe<T, C, N, R> {}
        #[allow(dead_code)]
        impl<T: ?::core::marker::Sized + #p::CheckedIn<C, N, R>, const C: u32, const N: u32, R: ?::core::marker::Sized>
            __HandoffProbe<T, C, N, R>
        {
            const CHECK: () = <T as #p::CheckedIn<C, N, R>>::CHECK;
        }
    }
}

/// The span of the first token (an error spanning tokens points at the first).
fn first_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t: TokenTree| t.span())
}

/// One error a nested type may raise against one published contract: the finding that
/// sets its bit, and the message under each mode that breaks.
struct Bit {
    rule: &'static str,
    path: String,
    field: String,
    backward: bool,
    forward: bool,
    /// Where the `const` panics.
    tokens: TokenStream,
    /// The message under each mode it breaks.
    messages: Vec<(Mode, String)>,
}

/// What one candidate definition answers: its bits, and the types it asks in turn.
struct Candidate {
    module: String,
    bits: Vec<Bit>,
    asks: Vec<syn::Type>,
}

/// The answer of a nested type's derive: for each published `(contract, major)` that
/// defines a type of its name, `PublishedIn` and `CheckedIn` (see the module docs). Empty for
/// a type the check does not apply to (generic, `flatten`, container `schema_as`, integer
/// enum, tuple struct).
///
/// No `include_bytes!` of the snapshots: an answer matters only when the contract's root
/// asks, and the root's derive (in the same crate, as it reads the same folders) includes its
/// snapshot, so that editing it recompiles the crate, this type's derive included (cargo
/// tracks the files a crate's build read, not an item's).
pub(crate) fn answer(input: &Input, krate: &syn::Path, own: Option<(&str, u32)>) -> TokenStream {
    let Some(target) = applies(input) else {
        return TokenStream::new();
    };
    let ident = syn::ext::IdentExt::unraw(&input.original.ident).to_string();
    let folders = folders();
    let files = files(&folders);
    if files.is_empty() {
        return TokenStream::new();
    }
    let numbers = numbers(&files);
    let needle = format!("::{ident}\"");
    let mut out = TokenStream::new();
    for file in &files {
        // Its own contract is checked by its own derive.
        if own == Some((file.name.as_str(), file.version)) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&file.path) else {
            continue;
        };
        // A cheap look before any parse (std's substring search: the derive itself is
        // usually compiled without optimizations, the standard library never is).
        if !std::str::from_utf8(&bytes).is_ok_and(|text| text.contains(&needle)) {
            continue;
        }
        let Some(schema) = parsed(&bytes) else {
            continue;
        };
        let root_name = match &schema.root {
            Type::Named(name) => name.clone(),
            _ => String::new(),
        };
        let candidates: Vec<(&String, &TypeDef)> = schema
            .types
            .iter()
            .filter(|(name, def)| **name != root_name && last_segment(&def.rust_path) == ident)
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let Some(&number) = numbers.get(&file.name) else {
            continue;
        };
        let shown = format!(
            "{}/{}",
            file.relative.trim_end_matches(['/', '\\']),
            snapshot::file_name(&file.name, file.version)
        );
        let root = schema.def(&root_name);
        let root_kind = match root.map(|d| &d.body) {
            Some(Body::Enum(_)) => "enum",
            _ => "struct",
        };
        let root_rust = root.map_or(root_name.as_str(), |d| last_segment(&d.rust_path));
        // Two candidates of one name: the tree by name is ambiguous, so neither asks further.
        let ambiguous = candidates.len() > 1;
        let answers: Vec<Candidate> = candidates
            .iter()
            .map(|(name, def)| Candidate {
                module: module_suffix(&def.rust_path),
                bits: bits(
                    input,
                    target,
                    &schema,
                    name,
                    (&file.name, file.version),
                    &shown,
                    (root_rust, root_kind),
                ),
                asks: if ambiguous {
                    Vec::new()
                } else {
                    held_types(input, &child_idents(&schema, name))
                },
            })
            .collect();
        if answers
            .iter()
            .all(|c| c.bits.is_empty() && c.asks.is_empty())
        {
            continue;
        }
        out.extend(answer_impls(
            input,
            krate,
            number,
            file.version,
            &file.name,
            &answers,
        ));
    }
    out
}

/// The breaking findings of the item rebuilt as `name` in `schema`, as bits (at most 64).
fn bits(
    input: &Input,
    target: Target,
    schema: &Schema,
    name: &str,
    (contract, version): (&str, u32),
    shown: &str,
    root: (&str, &'static str),
) -> Vec<Bit> {
    let rebuilt = rebuild_def(input, target, name, schema);
    // Unchanged (the common case): nothing to find, and no copy of the schema to make.
    if schema.def(name) == Some(&rebuilt) {
        return Vec::new();
    }
    let mut new = schema.clone();
    new.types.insert(name.to_owned(), rebuilt);
    let none = Allowances::new();
    let full = compat::evolve_with(schema, &new, Mode::Full, &none);
    if full.is_compatible() {
        return Vec::new();
    }
    // Where the type is on the paths the contract uses: the engine's own paths, found by
    // comparing the schema with one where the type is a `bool`.
    let mut marked = schema.clone();
    if let Some(def) = marked.types.get_mut(name) {
        def.body = Body::Newtype(Type::Bool);
    }
    let at: BTreeSet<String> = compat::evolve_with(schema, &marked, Mode::Full, &none)
        .findings()
        .iter()
        .map(|f| f.path.clone())
        .collect();
    let relative = move |path: &str| -> String {
        let prefix = at
            .iter()
            .filter(|p| {
                path.strip_prefix(p.as_str()).is_some_and(|rest| {
                    rest.is_empty() || p.is_empty() || rest.starts_with(['.', '[', '('])
                })
            })
            .max_by_key(|p| p.len());
        match prefix {
            Some(p) => path[p.len()..].trim_start_matches('.').to_owned(),
            None => path.to_owned(),
        }
    };
    let nested = Nested {
        relative: &relative,
        root,
    };
    let old_enum = match schema.def(name).map(|d| &d.body) {
        Some(Body::Enum(e)) => Some(e),
        _ => None,
    };
    // One bit per (rule, path), in the order found.
    let mut bits: Vec<Bit> = Vec::new();
    for finding in full.breaking() {
        let backward = finding.direction == Direction::Backward;
        let known = bits
            .iter()
            .position(|b| b.rule == finding.rule.id() && b.path == finding.path);
        match known {
            Some(i) => {
                bits[i].backward |= backward;
                bits[i].forward |= !backward;
            }
            None if bits.len() < 64 => bits.push(Bit {
                rule: finding.rule.id(),
                path: finding.path.clone(),
                field: finding.field.clone().unwrap_or_default(),
                backward,
                forward: !backward,
                tokens: TokenStream::new(),
                messages: Vec::new(),
            }),
            None => {}
        }
    }
    for mode in Mode::ALL {
        let contract = Contract {
            name: contract,
            version,
            mode,
            dir: "",
            relative: "",
        };
        let report = compat::evolve_with(schema, &new, mode, &none);
        let findings: Vec<Finding> = report.breaking().cloned().collect();
        let id = contract.id().to_string();
        for draft in drafts(input, target, old_enum, &contract, &findings, Some(&nested)) {
            let message = draft.message(&id, shown, mode);
            for bit in &mut bits {
                if draft
                    .keys
                    .iter()
                    .any(|(rule, path)| rule.id() == bit.rule && *path == bit.path)
                {
                    if bit.tokens.is_empty() {
                        bit.tokens = draft.tokens.clone();
                    }
                    bit.messages.push((mode, message.clone()));
                }
            }
        }
    }
    bits
}

/// `PublishedIn<C, N>` and `CheckedIn<C, N, R>` for the item.
fn answer_impls(
    input: &Input,
    krate: &syn::Path,
    number: u32,
    version: u32,
    contract: &str,
    answers: &[Candidate],
) -> TokenStream {
    let p = quote!(#krate::__private);
    let ident = &input.original.ident;
    let findings = answers.iter().map(|c| {
        let module = &c.module;
        let entries = c.bits.iter().map(|b| {
            let Bit {
                rule,
                path,
                field,
                backward,
                forward,
                ..
            } = b;
            quote!(#p::NestedFinding { rule: #rule, path: #path, field: #field, backward: #backward, forward: #forward })
        });
        quote!(if #p::module_is(::core::module_path!(), #module) { &[#(#entries),*] } else)
    });
    let checks = answers.iter().filter(|c| !c.bits.is_empty()).map(|c| {
        let module = &c.module;
        let bits = c.bits.iter().enumerate().map(|(i, b)| {
            let span = first_span(&b.tokens);
            let bit = 1u64 << i;
            let arms = b.messages.iter().map(|(mode, message)| {
                let mode = mode_ident(*mode);
                quote_spanned!(span=> #p::Mode::#mode => ::core::panic!("{}", #message),)
            });
            quote! {
                if mask & #bit != 0 {
                    match mode {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        });
        quote! {
            if #p::module_is(::core::module_path!(), #module) {
                #(#bits)*
            }
        }
    });
    let has_bits = answers.iter().any(|c| !c.bits.is_empty());
    let own = if has_bits {
        let checks: Vec<TokenStream> = checks.collect();
        quote! {
            if #p::is_contract(&R::CONTRACT, #contract) {
                let mask = #p::mask(<Self as #p::PublishedIn<#number, #version>>::FINDINGS, &R::CONTRACT);
                let mode = R::CONTRACT.mode;
                #(#checks)*
            }
        }
    } else {
        TokenStream::new()
    };
    let mut asks: Vec<&syn::Type> = Vec::new();
    let mut seen = BTreeSet::new();
    for ty in answers.iter().flat_map(|c| c.asks.iter()) {
        if seen.insert(ty.to_token_stream().to_string()) {
            asks.push(ty);
        }
    }
    let asks = asks.iter().map(|ty| {
        let span = first_span(&ty.to_token_stream());
        quote_spanned!(span=> let _: () = <__HandoffProbe<#ty, #number, #version, R>>::CHECK;)
    });
    let asks: Vec<TokenStream> = asks.collect();
    let probe = if asks.is_empty() {
        TokenStream::new()
    } else {
        local_probe(krate)
    };
    quote! {
        #[automatically_derived]
        impl #p::PublishedIn<#number, #version> for #ident {
            const FINDINGS: &'static [#p::NestedFinding] = #(#findings)* { &[] };
        }
        #[automatically_derived]
        #[allow(unreachable_patterns, unused_variables)]
        impl<R: ?::core::marker::Sized + #krate::HandoffContract> #p::CheckedIn<#number, #version, R> for #ident {
            const CHECK: () = {
                #probe
                #own
                #(#asks)*
            };
        }
    }
}

/// The variant of `Mode` in generated code.
fn mode_ident(mode: Mode) -> proc_macro2::Ident {
    let name = match mode {
        Mode::Backward => "Backward",
        Mode::Forward => "Forward",
        Mode::Full => "Full",
        Mode::BackwardTransitive => "BackwardTransitive",
        Mode::ForwardTransitive => "ForwardTransitive",
        Mode::FullTransitive => "FullTransitive",
    };
    proc_macro2::Ident::new(name, Span::call_site())
}

#[cfg(test)]
mod tests {
    use super::{metadata_snapshots, module_suffix};

    #[test]
    fn the_metadata_lists_the_folders() {
        let manifest = "[package]\nname = \"x\"\nsnapshots = [\"no\"]\n\n[package.metadata.handoff]\nsnapshots = [\"contracts\", \"more/contracts\"]\n";
        assert_eq!(
            metadata_snapshots(manifest),
            Some(vec!["contracts".to_owned(), "more/contracts".to_owned()])
        );
        let multi = "[package.metadata.handoff]\nsnapshots = [\n  \"a\",\n  \"b\",\n]\n";
        assert_eq!(
            metadata_snapshots(multi),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(metadata_snapshots("[package]\nname = \"x\"\n"), None);
    }

    #[test]
    fn a_module_is_named_below_its_crate() {
        assert_eq!(module_suffix("app::Line"), "");
        assert_eq!(module_suffix("app::orders::Line"), "orders");
        assert_eq!(module_suffix("app::a::b::Line"), "a::b");
    }
}
