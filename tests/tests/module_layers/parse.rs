//! Reading a crate's module tree from its source files, as text: which modules there are, in
//! which file, what each defines, what it imports and which paths its non-test code names.
//!
//! Nothing is resolved here (that is `resolve.rs`): a module records the paths as written.
//! `#[cfg(test)]` items and modules and `#[test]` functions are left out entirely, so test code
//! can never tie two modules together.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, Meta, Token, TraitItem, UseTree, Visibility};

/// One crate's modules, read from `src/lib.rs` (or `src/main.rs`) down every `mod`.
pub struct Crate {
    /// The package name, as the layer table spells it.
    pub name: String,
    /// The source files, in the order they were reached; file 0 is the crate root.
    pub files: Vec<SourceFile>,
    /// Every module, inline ones included; module 0 is the crate root.
    pub modules: Vec<Module>,
}

/// One source file of the module tree: the unit a loop and the layer table speak of.
pub struct SourceFile {
    /// The path from the crate's folder, with `/`: `src/runtime/fast.rs`.
    pub rel: String,
    /// The module path of the file's module: `runtime::fast`, or `crate` for the root.
    pub module: String,
    /// The `macro_rules!` macros defined at the top of this file, with the position of their
    /// definition among the file's items (textual scope: a child declared later sees them).
    pub macros: Vec<(String, usize)>,
}

/// A module: a file's own module, or an inline `mod x { … }` inside a file.
pub struct Module {
    /// The file the module's items are written in.
    pub file: usize,
    /// The enclosing module (`super`); `None` for the crate root.
    pub parent: Option<usize>,
    /// Where the `mod` item declaring it sits among its parent file's items, for the textual
    /// scope of the parent's macros.
    pub declared_at: usize,
    /// The names this module defines: items and child modules. A name may be defined in more
    /// than one namespace (a type and a macro), hence the list.
    pub defs: BTreeMap<String, Vec<Def>>,
    /// Its `use` items, flattened: one entry per imported name or glob.
    pub imports: Vec<Import>,
    /// The paths its non-test code names (expressions, types, patterns, macro calls, private
    /// `use` lines), as written.
    pub refs: Vec<Ref>,
    /// Its inherent `impl` blocks: a `Type::function` names the file of the block that
    /// defines `function`, which may not be the type's.
    pub impls: Vec<InherentImpl>,
    /// Children declared with `#[macro_use]`, whose macros are visible here by name.
    pub macro_use: Vec<usize>,
}

/// What a name in a module stands for.
#[derive(Clone, Debug)]
pub enum Def {
    /// A module (a reference to a module alone ties nothing: the items inside it do).
    Module(usize),
    /// An item (type, function, constant, trait, exported macro …) written in `file`.
    Item {
        /// The file the item is written in.
        file: usize,
        /// Its name.
        name: String,
        /// The variants, when it is an enum (a glob import of an enum brings them in).
        variants: Vec<String>,
    },
}

/// One name (or glob) brought in by a `use` item.
pub struct Import {
    /// The name it is known by here (`as` renames); `None` for a glob.
    pub alias: Option<String>,
    /// The path as written, `self`/`super`/`crate` included; for a glob, the path before `*`.
    pub path: Vec<String>,
}

/// An `impl Type { … }` block (no trait).
pub struct InherentImpl {
    /// The path of `Type`, without its generic arguments.
    pub self_ty: Vec<String>,
    /// The names of the functions, constants and types it defines.
    pub items: Vec<String>,
}

/// A path named by code.
pub struct Ref {
    /// The segments, `self`/`super`/`crate` included (`$crate` is read as `crate`).
    pub path: Vec<String>,
    /// It names a macro (`name!`): a one-segment macro name is looked up in textual scope first.
    pub macro_call: bool,
    /// It is the path of a `use` line: its first segment may be a `macro_rules!` macro.
    pub in_use: bool,
}

/// Reads the crate in `dir` (the folder holding `src/`).
pub fn read_crate(name: &str, dir: &Path) -> Result<Crate, String> {
    let root = ["src/lib.rs", "src/main.rs"]
        .iter()
        .map(|file| dir.join(file))
        .find(|path| path.is_file())
        .ok_or_else(|| {
            format!(
                "{name}: neither src/lib.rs nor src/main.rs in {}",
                dir.display()
            )
        })?;
    let mut reader = Reader {
        dir: dir.to_path_buf(),
        krate: Crate {
            name: name.to_owned(),
            files: Vec::new(),
            modules: Vec::new(),
        },
        macro_items: BTreeMap::new(),
    };
    reader.read_file_module(&root, None, 0, "crate".to_owned(), true)?;
    Ok(reader.krate)
}

struct Reader {
    dir: PathBuf,
    krate: Crate,
    /// Per file and `macro_rules!` name, the items its expansion defines by a fixed name.
    macro_items: BTreeMap<(usize, String), Vec<String>>,
}

/// Where a module's items are written, for finding the files of its `mod x;` children.
struct Place {
    file: usize,
    /// The folder a `#[path]` is relative to.
    file_dir: PathBuf,
    /// The folder `mod x;` looks in for `x.rs` or `x/mod.rs`.
    children_dir: PathBuf,
    module_name: String,
}

impl Reader {
    /// Reads the module whose items are the whole of `path`. `owns_folder`: its `mod x;`
    /// children are beside it (the crate root, a `mod.rs`, a file named by `#[path]`), not in
    /// a folder named after it.
    fn read_file_module(
        &mut self,
        path: &Path,
        parent: Option<usize>,
        declared_at: usize,
        module_name: String,
        owns_folder: bool,
    ) -> Result<usize, String> {
        let text = fs::read_to_string(path)
            .map_err(|err| format!("{}: cannot read {}: {err}", self.krate.name, path.display()))?;
        let syntax = syn::parse_file(&text).map_err(|err| {
            format!(
                "{}: cannot parse {}: {err}",
                self.krate.name,
                path.display()
            )
        })?;
        let rel = path
            .strip_prefix(&self.dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let file = self.krate.files.len();
        self.krate.files.push(SourceFile {
            rel,
            module: module_name.clone(),
            macros: Vec::new(),
        });
        // A file `x.rs` (not `mod.rs`, `lib.rs`, `main.rs`) keeps its children in `x/`.
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let children_dir = if owns_folder || stem == "mod" {
            dir.clone()
        } else {
            dir.join(stem)
        };
        let place = Place {
            file,
            file_dir: dir,
            children_dir,
            module_name,
        };
        let mut position = 0;
        let module = self.read_items(&syntax.items, parent, declared_at, &place, &mut position)?;
        Ok(module)
    }

    /// Reads the items of one module (a file's, or an inline module's inside it).
    fn read_items(
        &mut self,
        items: &[Item],
        parent: Option<usize>,
        declared_at: usize,
        place: &Place,
        position: &mut usize,
    ) -> Result<usize, String> {
        let module = self.krate.modules.len();
        self.krate.modules.push(Module {
            file: place.file,
            parent,
            declared_at,
            defs: BTreeMap::new(),
            imports: Vec::new(),
            refs: Vec::new(),
            impls: Vec::new(),
            macro_use: Vec::new(),
        });
        let mut item_macros = Vec::new();
        for item in items {
            *position += 1;
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                Item::Mod(decl) => {
                    let name = ident_text(&decl.ident);
                    let module_name = if place.module_name == "crate" {
                        name.clone()
                    } else {
                        format!("{}::{name}", place.module_name)
                    };
                    let path_attr = path_attribute(&decl.attrs);
                    let child = match &decl.content {
                        Some((_, inner)) => {
                            // An inline module's own `mod x;` children live in a folder named
                            // after it, and a `#[path]` inside it is relative to that folder.
                            let dir = place.children_dir.join(&name);
                            let inner_place = Place {
                                file: place.file,
                                file_dir: dir.clone(),
                                children_dir: dir,
                                module_name,
                            };
                            self.read_items(inner, Some(module), *position, &inner_place, position)?
                        }
                        None => {
                            let owns_folder = path_attr.is_some();
                            let path = match path_attr {
                                Some(rel) => place.file_dir.join(rel),
                                None => {
                                    let flat = place.children_dir.join(format!("{name}.rs"));
                                    if flat.is_file() {
                                        flat
                                    } else {
                                        place.children_dir.join(&name).join("mod.rs")
                                    }
                                }
                            };
                            self.read_file_module(
                                &path,
                                Some(module),
                                *position,
                                module_name,
                                owns_folder,
                            )?
                        }
                    };
                    if decl
                        .attrs
                        .iter()
                        .any(|attr| attr.path().is_ident("macro_use"))
                    {
                        self.krate.modules[module].macro_use.push(child);
                    }
                    self.define(module, name, Def::Module(child));
                }
                Item::Use(item_use) => {
                    // A `pub`/`pub(crate)`/`pub(super)` import is a re-export: an edge only
                    // where this module's own code uses the name (a `Ref` of that code).
                    let reexport = !matches!(item_use.vis, Visibility::Inherited);
                    let mut found = Vec::new();
                    if item_use.leading_colon.is_none() {
                        flatten_use(&item_use.tree, &mut Vec::new(), &mut found);
                    }
                    let this = &mut self.krate.modules[module];
                    for import in found {
                        if !reexport && import.alias.is_some() {
                            this.refs.push(use_ref(&import.path));
                        }
                        this.imports.push(import);
                    }
                }
                Item::Macro(mac) if mac.mac.path.is_ident("macro_rules") => {
                    let Some(ident) = &mac.ident else { continue };
                    let name = ident_text(ident);
                    self.krate.files[place.file]
                        .macros
                        .push((name.clone(), *position));
                    let exported = mac.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                    if exported {
                        // `#[macro_export]` puts the macro at the crate root's path.
                        self.define(0, name.clone(), self.item(place.file, &name, Vec::new()));
                    }
                    // What the macro's body names is named by this file, wherever it expands.
                    scan_tokens(mac.mac.tokens.clone(), &mut self.krate.modules[module].refs);
                    let made = items_made_by_macro(mac.mac.tokens.clone());
                    self.macro_items.insert((place.file, name), made);
                }
                _ => {
                    if let Item::Macro(mac) = item {
                        if let Some(ident) = mac.mac.path.get_ident() {
                            item_macros.push(ident_text(ident));
                        }
                    }
                    for (name, variants) in defined_names(item) {
                        let def = self.item(place.file, &name, variants);
                        self.define(module, name, def);
                    }
                    if let Some(inherent) = inherent_impl(item) {
                        self.krate.modules[module].impls.push(inherent);
                    }
                    let mut collector = Collector::default();
                    visit::visit_item(&mut collector, item);
                    collector.into_module(&mut self.krate.modules[module]);
                }
            }
        }
        // Items a `macro_rules!` of this file defines by a fixed name (`catalogue!` writing
        // `pub enum Rule`) are defined where the macro is called at item level.
        for called in item_macros {
            let defined_here = self.krate.files[place.file]
                .macros
                .iter()
                .any(|(name, _)| *name == called);
            if !defined_here {
                continue;
            }
            let key = (place.file, called);
            for name in self.macro_items.get(&key).cloned().unwrap_or_default() {
                let def = self.item(place.file, &name, Vec::new());
                self.define(module, name, def);
            }
        }
        Ok(module)
    }

    fn item(&self, file: usize, name: &str, variants: Vec<String>) -> Def {
        Def::Item {
            file,
            name: name.to_owned(),
            variants,
        }
    }

    fn define(&mut self, module: usize, name: String, def: Def) {
        self.krate.modules[module]
            .defs
            .entry(name)
            .or_default()
            .push(def);
    }
}

/// The paths of the code inside one item, and the `use` lines inside its function bodies
/// (which resolve from the enclosing module, so they are counted as its imports).
#[derive(Default)]
struct Collector {
    refs: Vec<Ref>,
    imports: Vec<Import>,
}

impl Collector {
    fn into_module(self, module: &mut Module) {
        module.refs.extend(self.refs);
        module.imports.extend(self.imports);
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast Item) {
        if is_test_only(item_attrs(item)) {
            return;
        }
        match item {
            Item::Use(item_use) => {
                if item_use.leading_colon.is_some() {
                    return;
                }
                let mut found = Vec::new();
                flatten_use(&item_use.tree, &mut Vec::new(), &mut found);
                for import in found {
                    if import.alias.is_some() {
                        self.refs.push(use_ref(&import.path));
                    }
                    self.imports.push(import);
                }
            }
            Item::Macro(mac) if mac.mac.path.is_ident("macro_rules") => {
                scan_tokens(mac.mac.tokens.clone(), &mut self.refs);
            }
            _ => visit::visit_item(self, item),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        let attrs = match item {
            ImplItem::Const(item) => &item.attrs,
            ImplItem::Fn(item) => &item.attrs,
            ImplItem::Type(item) => &item.attrs,
            ImplItem::Macro(item) => &item.attrs,
            _ => return visit::visit_impl_item(self, item),
        };
        if !is_test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        let attrs = match item {
            TraitItem::Const(item) => &item.attrs,
            TraitItem::Fn(item) => &item.attrs,
            TraitItem::Type(item) => &item.attrs,
            TraitItem::Macro(item) => &item.attrs,
            _ => return visit::visit_trait_item(self, item),
        };
        if !is_test_only(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_field(&mut self, field: &'ast syn::Field) {
        if !is_test_only(&field.attrs) {
            visit::visit_field(self, field);
        }
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        if !is_test_only(&variant.attrs) {
            visit::visit_variant(self, variant);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !is_test_only(&arm.attrs) {
            visit::visit_arm(self, arm);
        }
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let test_only = match stmt {
            syn::Stmt::Macro(mac) => is_test_only(&mac.attrs),
            syn::Stmt::Expr(expr, _) => expr_attrs(expr).is_some_and(is_test_only),
            _ => false,
        };
        if !test_only {
            visit::visit_stmt(self, stmt);
        }
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if !is_test_only(&local.attrs) {
            visit::visit_local(self, local);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        // `::name` is another crate's.
        if path.leading_colon.is_none() {
            self.refs.push(Ref {
                path: path.segments.iter().map(|s| ident_text(&s.ident)).collect(),
                macro_call: false,
                in_use: false,
            });
        }
        // The generic arguments (`Vec<crate::a::A>`) are paths too.
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac.path.leading_colon.is_none() {
            self.refs.push(Ref {
                path: mac
                    .path
                    .segments
                    .iter()
                    .map(|s| ident_text(&s.ident))
                    .collect(),
                macro_call: true,
                in_use: false,
            });
        }
        // A macro's input is not parsed by syn: its paths are read from the tokens.
        scan_tokens(mac.tokens.clone(), &mut self.refs);
    }
}

fn use_ref(path: &[String]) -> Ref {
    Ref {
        path: path.to_vec(),
        macro_call: false,
        in_use: true,
    }
}

/// One entry per name (or glob) of a `use` tree: `a::{b, c::{self, D as E}, f::*}` is `a::b`
/// as `b`, `a::c` as `c`, `a::c::D` as `E` and the glob `a::f`.
fn flatten_use(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<Import>) {
    let import = |path: Vec<String>, alias: Option<String>| Import { alias, path };
    match tree {
        UseTree::Path(path) => {
            prefix.push(ident_text(&path.ident));
            flatten_use(&path.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(name) => {
            let (path, alias) = if name.ident == "self" {
                (prefix.clone(), prefix.last().cloned())
            } else {
                let mut path = prefix.clone();
                path.push(ident_text(&name.ident));
                (path, Some(ident_text(&name.ident)))
            };
            if !path.is_empty() {
                out.push(import(path, alias));
            }
        }
        UseTree::Rename(rename) => {
            let mut path = prefix.clone();
            if rename.ident != "self" {
                path.push(ident_text(&rename.ident));
            }
            let alias = ident_text(&rename.rename);
            // `use x as _;` brings a trait's methods in scope without a name.
            out.push(import(path, Some(alias)));
        }
        UseTree::Glob(_) => out.push(import(prefix.clone(), None)),
        UseTree::Group(group) => {
            for tree in &group.items {
                flatten_use(tree, prefix, out);
            }
        }
    }
}

/// The names an item defines in its module, with an enum's variants.
fn defined_names(item: &Item) -> Vec<(String, Vec<String>)> {
    let name = |ident: &syn::Ident| vec![(ident_text(ident), Vec::new())];
    match item {
        Item::Const(item) => name(&item.ident),
        Item::Enum(item) => {
            let variants = item.variants.iter().map(|v| ident_text(&v.ident)).collect();
            vec![(ident_text(&item.ident), variants)]
        }
        Item::Fn(item) => name(&item.sig.ident),
        Item::Static(item) => name(&item.ident),
        Item::Struct(item) => name(&item.ident),
        Item::Trait(item) => name(&item.ident),
        Item::TraitAlias(item) => name(&item.ident),
        Item::Type(item) => name(&item.ident),
        Item::Union(item) => name(&item.ident),
        Item::ForeignMod(item) => item
            .items
            .iter()
            .filter_map(|item| match item {
                syn::ForeignItem::Fn(item) => Some((ident_text(&item.sig.ident), Vec::new())),
                syn::ForeignItem::Static(item) => Some((ident_text(&item.ident), Vec::new())),
                syn::ForeignItem::Type(item) => Some((ident_text(&item.ident), Vec::new())),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|(name, _)| name != "_")
    .collect()
}

fn inherent_impl(item: &Item) -> Option<InherentImpl> {
    let Item::Impl(block) = item else { return None };
    let syn::Type::Path(self_ty) = &*block.self_ty else {
        return None;
    };
    if block.trait_.is_some() || self_ty.qself.is_some() || self_ty.path.leading_colon.is_some() {
        return None;
    }
    let items = block
        .items
        .iter()
        .filter_map(|item| match item {
            ImplItem::Const(item) if !is_test_only(&item.attrs) => Some(ident_text(&item.ident)),
            ImplItem::Fn(item) if !is_test_only(&item.attrs) => Some(ident_text(&item.sig.ident)),
            ImplItem::Type(item) if !is_test_only(&item.attrs) => Some(ident_text(&item.ident)),
            _ => None,
        })
        .collect();
    Some(InherentImpl {
        self_ty: self_ty
            .path
            .segments
            .iter()
            .map(|s| ident_text(&s.ident))
            .collect(),
        items,
    })
}

/// The attributes of the expressions a `#[cfg(test)]` is put on as a statement.
fn expr_attrs(expr: &syn::Expr) -> Option<&[Attribute]> {
    Some(match expr {
        syn::Expr::Assign(expr) => &expr.attrs,
        syn::Expr::Block(expr) => &expr.attrs,
        syn::Expr::Call(expr) => &expr.attrs,
        syn::Expr::ForLoop(expr) => &expr.attrs,
        syn::Expr::If(expr) => &expr.attrs,
        syn::Expr::Macro(expr) => &expr.attrs,
        syn::Expr::Match(expr) => &expr.attrs,
        syn::Expr::MethodCall(expr) => &expr.attrs,
        syn::Expr::Unsafe(expr) => &expr.attrs,
        _ => return None,
    })
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(item) => &item.attrs,
        Item::Enum(item) => &item.attrs,
        Item::ExternCrate(item) => &item.attrs,
        Item::Fn(item) => &item.attrs,
        Item::ForeignMod(item) => &item.attrs,
        Item::Impl(item) => &item.attrs,
        Item::Macro(item) => &item.attrs,
        Item::Mod(item) => &item.attrs,
        Item::Static(item) => &item.attrs,
        Item::Struct(item) => &item.attrs,
        Item::Trait(item) => &item.attrs,
        Item::TraitAlias(item) => &item.attrs,
        Item::Type(item) => &item.attrs,
        Item::Union(item) => &item.attrs,
        Item::Use(item) => &item.attrs,
        _ => &[],
    }
}

/// `#[test]`, or a `#[cfg(…)]` that holds only in a test build (`test`, `all(test, …)`,
/// `any(test, all(test, …))`).
pub fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test")
            || (attr.path().is_ident("cfg")
                && attr
                    .parse_args::<Meta>()
                    .is_ok_and(|meta| implies_test(&meta)))
    })
}

fn implies_test(meta: &Meta) -> bool {
    match meta {
        Meta::Path(path) => path.is_ident("test"),
        Meta::List(list) => {
            let Ok(nested) = list
                .parse_args_with(syn::punctuated::Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                return false;
            };
            if list.path.is_ident("all") {
                nested.iter().any(implies_test)
            } else if list.path.is_ident("any") {
                !nested.is_empty() && nested.iter().all(implies_test)
            } else {
                false
            }
        }
        Meta::NameValue(_) => false,
    }
}

/// The file a `#[path = "…"]` names.
fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The paths inside tokens syn does not parse (a macro's input or a `macro_rules!` body):
/// every `a::b::c` and lone name not after `.` (a field or method) or `$` (a metavariable);
/// `$crate::x` is read as `crate::x`, `::x` (another crate's) is skipped.
fn scan_tokens(tokens: TokenStream, refs: &mut Vec<Ref>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(group) => {
                scan_tokens(group.stream(), refs);
                i += 1;
            }
            TokenTree::Punct(punct) if punct.as_char() == '$' => {
                match tokens.get(i + 1) {
                    Some(TokenTree::Ident(ident)) if ident == "crate" => {
                        i = read_path(&tokens, i + 1, refs);
                    }
                    // `$name`: a metavariable, not a path.
                    Some(TokenTree::Ident(_)) => i += 2,
                    // `$( … )*`: a repetition, whose group is read next.
                    _ => i += 1,
                }
            }
            TokenTree::Ident(_) => {
                let after = |c: char| {
                    matches!(i.checked_sub(1).map(|p| &tokens[p]),
                        Some(TokenTree::Punct(p)) if p.as_char() == c)
                };
                let after_path_separator = i >= 2 && is_path_separator(&tokens, i - 2);
                if after('.') || after('\'') || after_path_separator {
                    i += 1;
                } else {
                    i = read_path(&tokens, i, refs);
                }
            }
            _ => i += 1,
        }
    }
}

/// Reads `a::b::c` (and a `!` after it) from the ident at `start`; returns where it ends.
fn read_path(tokens: &[TokenTree], start: usize, refs: &mut Vec<Ref>) -> usize {
    let mut path = Vec::new();
    let mut i = start;
    while let Some(TokenTree::Ident(ident)) = tokens.get(i) {
        path.push(ident_text(ident));
        if is_path_separator(tokens, i + 1)
            && matches!(tokens.get(i + 3), Some(TokenTree::Ident(_)))
        {
            i += 3;
        } else {
            i += 1;
            break;
        }
    }
    let macro_call = matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    refs.push(Ref {
        path,
        macro_call,
        in_use: false,
    });
    i
}

fn is_path_separator(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// The items a `macro_rules!` body defines by a fixed name: `struct Name`, `enum Name`,
/// `fn name` … at the top of a transcriber (not inside an `impl` block it also writes).
fn items_made_by_macro(body: TokenStream) -> Vec<String> {
    const ITEM_KEYWORDS: [&str; 9] = [
        "struct", "enum", "fn", "const", "static", "type", "trait", "union", "mod",
    ];
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    let mut made = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        // A rule is `(matcher) => { transcriber }`: the group after `=>`.
        let TokenTree::Group(transcriber) = token else {
            continue;
        };
        let after_arrow = i >= 1
            && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '>')
            && transcriber.delimiter() != Delimiter::None;
        if !after_arrow {
            continue;
        }
        let inner: Vec<TokenTree> = transcriber.stream().into_iter().collect();
        for pair in inner.windows(2) {
            if let [TokenTree::Ident(keyword), TokenTree::Ident(name)] = pair {
                let name = ident_text(name);
                if ITEM_KEYWORDS.contains(&keyword.to_string().as_str())
                    && !ITEM_KEYWORDS.contains(&name.as_str())
                    && name != "_"
                {
                    made.push(name);
                }
            }
        }
    }
    made
}

/// An identifier as a name: `r#type` is `type`, as the file `type.rs` and every path spell it.
fn ident_text(ident: &proc_macro2::Ident) -> String {
    let text = ident.to_string();
    match text.strip_prefix("r#") {
        Some(raw) => raw.to_owned(),
        None => text,
    }
}
