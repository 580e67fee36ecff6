//! Which file each path of a module's code names an item of: the edges between module files.
//!
//! Paths resolve as rustc resolves them, as far as syntax alone can: `crate`, `self`, `super`,
//! names a module defines, its `use` imports (renames, groups, globs, `use` lines inside
//! function bodies), re-exports followed to the item they name, an enum's variants through a
//! glob, and `macro_rules!` macros by textual scope. A path that names nothing of the crate
//! (`std`, another crate, a local variable, `Self`) is no edge; a path that ends at a module
//! (`use super::fast;`) is none either: the items taken from it are.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::parse::{Crate, Def, Ref};

/// The edges of one crate: (file that names, file that defines) → the names that tie them.
pub type Edges = BTreeMap<(usize, usize), BTreeSet<String>>;

/// Every edge between two different files of `krate`.
pub fn edges(krate: &Crate) -> Edges {
    let mut resolver = Resolver {
        krate,
        imports: HashMap::new(),
        in_progress: HashSet::new(),
        impls: HashMap::new(),
    };
    resolver.find_impls();
    let mut edges = Edges::new();
    for (module, this) in krate.modules.iter().enumerate() {
        for reference in &this.refs {
            for (file, name) in resolver.resolve_ref(module, reference) {
                if file != this.file {
                    edges.entry((this.file, file)).or_default().insert(name);
                }
            }
        }
    }
    edges
}

struct Resolver<'a> {
    krate: &'a Crate,
    /// The imports already resolved: (module, index among its imports) → what they name.
    imports: HashMap<(usize, usize), Vec<Def>>,
    /// The imports being resolved, so an import that leads back to itself ends.
    in_progress: HashSet<(usize, usize)>,
    /// (file of a type, its name, an associated item) → the files of the `impl` blocks that
    /// define that item.
    impls: HashMap<(usize, String, String), BTreeSet<usize>>,
}

impl Resolver<'_> {
    /// The items (file, name) a path in `module` names.
    fn resolve_ref(&mut self, module: usize, reference: &Ref) -> Vec<(usize, String)> {
        if reference.macro_call && reference.path.len() == 1 {
            let name = &reference.path[0];
            if let Some(file) = self.textual_macro(module, name) {
                return vec![(file, format!("{name}!"))];
            }
        }
        let (defs, rest) = self.resolve_path(module, &reference.path, reference.in_use);
        let mut found = Vec::new();
        for def in defs {
            let Def::Item { file, name, .. } = def else {
                continue;
            };
            // `Type::function`: also the file of the `impl` block that defines `function`.
            if let Some(assoc) = rest.first() {
                let key = (file, name.clone(), assoc.clone());
                for &impl_file in self.impls.get(&key).into_iter().flatten() {
                    if impl_file != file {
                        found.push((impl_file, format!("{name}::{assoc}")));
                    }
                }
            }
            if reference.macro_call {
                found.push((file, format!("{name}!")));
            } else {
                found.push((file, name));
            }
        }
        found
    }

    /// Resolves the type of every inherent `impl` block, for [`Resolver::impls`].
    fn find_impls(&mut self) {
        let krate = self.krate;
        for (module, this) in krate.modules.iter().enumerate() {
            for block in &this.impls {
                let (defs, rest) = self.resolve_path(module, &block.self_ty, false);
                if !rest.is_empty() {
                    continue;
                }
                for def in defs {
                    let Def::Item { file, name, .. } = def else {
                        continue;
                    };
                    for item in &block.items {
                        self.impls
                            .entry((file, name.clone(), item.clone()))
                            .or_default()
                            .insert(this.file);
                    }
                }
            }
        }
    }

    /// What `path`, written in `module`, names, and the segments after the item it names
    /// (`Type::function`: `function`). `in_use`: a `use` line, whose first segment may also
    /// be a `macro_rules!` macro in textual scope (`pub(crate) use per_type;`).
    fn resolve_path<'p>(
        &mut self,
        module: usize,
        path: &'p [String],
        in_use: bool,
    ) -> (Vec<Def>, &'p [String]) {
        let Some((first, rest)) = path.split_first() else {
            return (Vec::new(), path);
        };
        let mut current = match first.as_str() {
            "crate" => vec![Def::Module(0)],
            "self" => vec![Def::Module(module)],
            "super" => self.parent(module).into_iter().collect(),
            "Self" => return (Vec::new(), path),
            name => self.lookup(module, name, &mut HashSet::new(), in_use),
        };
        for (at, segment) in rest.iter().enumerate() {
            let modules: Vec<usize> = current
                .iter()
                .filter_map(|def| match def {
                    Def::Module(m) => Some(*m),
                    Def::Item { .. } => None,
                })
                .collect();
            if modules.is_empty() {
                // `Type::Variant`, `Type::function`: the rest is inside the item.
                return (current, &rest[at..]);
            }
            let mut next = Vec::new();
            for m in modules {
                match segment.as_str() {
                    "super" => next.extend(self.parent(m)),
                    "self" => next.push(Def::Module(m)),
                    name => next.extend(self.lookup(m, name, &mut HashSet::new(), in_use)),
                }
            }
            current = next;
        }
        (current, &[])
    }

    fn parent(&self, module: usize) -> Option<Def> {
        self.krate.modules[module].parent.map(Def::Module)
    }

    /// What `name` stands for in `module`: what it defines, else what it imports by that
    /// name, else what its globs bring in (rustc's order of shadowing).
    fn lookup(
        &mut self,
        module: usize,
        name: &str,
        seen: &mut HashSet<(usize, String)>,
        macros: bool,
    ) -> Vec<Def> {
        if !seen.insert((module, name.to_owned())) {
            return Vec::new();
        }
        let this = &self.krate.modules[module];
        if let Some(defs) = this.defs.get(name) {
            return defs.clone();
        }
        let mut found = Vec::new();
        for (index, import) in this.imports.iter().enumerate() {
            if import.alias.as_deref() == Some(name) {
                found.extend(self.import(module, index));
            }
        }
        if !found.is_empty() {
            return found;
        }
        for (index, import) in this.imports.iter().enumerate() {
            if import.alias.is_some() {
                continue;
            }
            for target in self.import(module, index) {
                match target {
                    Def::Module(m) => found.extend(self.lookup(m, name, seen, macros)),
                    Def::Item { ref variants, .. } if variants.iter().any(|v| v == name) => {
                        found.push(target.clone());
                    }
                    Def::Item { .. } => {}
                }
            }
        }
        if found.is_empty() && macros {
            if let Some(file) = self.textual_macro(module, name) {
                found.push(Def::Item {
                    file,
                    name: name.to_owned(),
                    variants: Vec::new(),
                });
            }
        }
        found
    }

    /// What import `index` of `module` names (for a glob, the module or enum before `*`).
    fn import(&mut self, module: usize, index: usize) -> Vec<Def> {
        let key = (module, index);
        if let Some(done) = self.imports.get(&key) {
            return done.clone();
        }
        if !self.in_progress.insert(key) {
            return Vec::new();
        }
        // Only an import resolved from the top is kept: one resolved inside another may have
        // been cut short where the two lead back to each other.
        let top = self.in_progress.len() == 1;
        let path = self.krate.modules[module].imports[index].path.clone();
        let (defs, _) = self.resolve_path(module, &path, true);
        self.in_progress.remove(&key);
        if top {
            self.imports.insert(key, defs.clone());
        }
        defs
    }

    /// The file of the `macro_rules!` named `name` visible by textual scope in `module`: its
    /// own file, an ancestor's file above the `mod` item leading here, or a `#[macro_use]`
    /// child of it or of an ancestor.
    fn textual_macro(&self, module: usize, name: &str) -> Option<usize> {
        let krate = self.krate;
        let defines = |file: usize, before: usize| {
            krate.files[file]
                .macros
                .iter()
                .any(|(macro_name, at)| macro_name == name && *at < before)
        };
        let file = krate.modules[module].file;
        if defines(file, usize::MAX) {
            return Some(file);
        }
        let mut child = module;
        while let Some(parent) = krate.modules[child].parent {
            let parent_file = krate.modules[parent].file;
            if parent_file != file && defines(parent_file, krate.modules[child].declared_at) {
                return Some(parent_file);
            }
            for &used in &krate.modules[parent].macro_use {
                if defines(krate.modules[used].file, usize::MAX) {
                    return Some(krate.modules[used].file);
                }
            }
            child = parent;
        }
        None
    }
}
