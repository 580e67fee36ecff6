//! The modules of every crate form layers: no module takes an item from a module that takes
//! one back (a loop), and none takes from a layer its row of the layer table in
//! `tests/README.md` does not list, so a folder can be read from the bottom up.
//!
//! The crates are read as text (`parse.rs`), their paths resolved to the file that defines
//! each item named (`resolve.rs`), loops found in the edges (`graph.rs`) and the edges held
//! against the table (`table.rs`). An edge is any reference from one module's non-test code to
//! an item defined in another module's file: `use` lines and inline paths alike, re-exports
//! followed to the file that defines the item. The fixtures under
//! `tests/fixtures/module_layers/` (source trees read as text, never compiled) prove what
//! counts and what does not.

mod module_layers {
    pub mod graph;
    pub mod parse;
    pub mod resolve;
    pub mod table;
}

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use module_layers::graph::{describe, loops};
use module_layers::parse::{read_crate, Crate};
use module_layers::resolve::{edges, Edges};
use module_layers::table;

/// The crates whose modules the layer table covers, by package name and folder.
const WORKSPACE_CRATES: [&str; 4] = [
    "contract-schema",
    "contract-derive",
    "contract-core",
    "contract-cli",
];

/// One crate read and resolved.
struct Analysed {
    krate: Crate,
    edges: Edges,
}

impl Analysed {
    fn read(name: &str, dir: &Path) -> Analysed {
        let krate = read_crate(name, dir).unwrap_or_else(|err| panic!("{err}"));
        let edges = edges(&krate);
        Analysed { krate, edges }
    }

    /// The loops, each as its printed description.
    fn loops(&self) -> Vec<String> {
        loops(self.krate.files.len(), &self.edges)
            .iter()
            .map(|found| describe(&self.krate, &self.edges, found))
            .collect()
    }

    /// The loops, each as the set of its modules' paths.
    fn loop_modules(&self) -> Vec<BTreeSet<String>> {
        loops(self.krate.files.len(), &self.edges)
            .iter()
            .map(|found| {
                found
                    .files
                    .iter()
                    .map(|&f| self.krate.files[f].module.clone())
                    .collect()
            })
            .collect()
    }

    /// Every edge as `from -> to: names`, by module path.
    fn edge_lines(&self) -> BTreeSet<String> {
        self.edges
            .iter()
            .map(|((from, to), names)| {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                format!(
                    "{} -> {}: {}",
                    self.krate.files[*from].module,
                    self.krate.files[*to].module,
                    names.join(", ")
                )
            })
            .collect()
    }

    /// The loops and the table's complaints, one message each.
    fn problems(&self, rows: &[table::Row], table_name: &str) -> Vec<String> {
        let mut problems = self.loops();
        problems.extend(table::check(&self.krate, &self.edges, rows, table_name));
        problems
    }
}

#[test]
fn the_workspace_crates_have_no_module_loops_and_keep_their_layers() {
    let tests_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(tests_dir.join("README.md")).expect("tests/README.md");
    let rows = table::parse(&readme).unwrap_or_else(|err| panic!("tests/README.md: {err}"));
    let workspace = tests_dir.parent().expect("the workspace folder");
    let mut problems = Vec::new();
    for name in WORKSPACE_CRATES {
        let analysed = Analysed::read(name, &workspace.join(name));
        problems.extend(analysed.problems(&rows, "tests/README.md"));
    }
    assert!(
        problems.is_empty(),
        "{} problems with the module layers:\n\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn fixture_dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/module_layers")
        .join(case)
}

fn fixture(case: &str) -> Analysed {
    Analysed::read(case, &fixture_dir(case))
}

fn fixture_rows(case: &str) -> Vec<table::Row> {
    let path = fixture_dir(case).join("layers.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    table::parse(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

fn set<const N: usize>(items: [&str; N]) -> BTreeSet<String> {
    items.into_iter().map(str::to_owned).collect()
}

#[test]
fn a_loop_through_a_reexport_is_found_between_the_defining_modules() {
    // `model` takes `Quoted` through `text/mod.rs`'s re-export; `text::quote` takes `Schema`
    // through the crate root's. The loop is between the two files that define them.
    let analysed = fixture("reexport_loop");
    assert_eq!(
        analysed.loop_modules(),
        vec![set(["model", "text::quote"])],
        "{:#?}",
        analysed.edge_lines()
    );
    let printed = analysed.loops().join("\n");
    assert!(
        printed.contains("model -> text::quote: Quoted"),
        "{printed}"
    );
    assert!(
        printed.contains("text::quote -> model: Schema"),
        "{printed}"
    );
    assert!(
        printed.contains("one way round: model -> text::quote -> model"),
        "{printed}"
    );
}

#[test]
fn a_loop_through_inline_paths_is_found() {
    // No `use` line at all: `crate::walk::Frame` in an expression, `super::plan::Plan` in a
    // field's type.
    let analysed = fixture("inline_path_loop");
    assert_eq!(
        analysed.edge_lines(),
        set(["plan -> walk: Frame", "walk -> plan: Plan"])
    );
    assert_eq!(analysed.loop_modules(), vec![set(["plan", "walk"])]);
}

#[test]
fn a_loop_through_a_macro_is_found() {
    // `diagnose` calls `crate::cache::per_type!` (a `macro_rules!` re-exported by
    // `pub(crate) use`), whose body names `$crate::diagnose::Schema`.
    let analysed = fixture("macro_loop");
    assert_eq!(
        analysed.edge_lines(),
        set(["cache -> diagnose: Schema", "diagnose -> cache: per_type!"])
    );
    assert_eq!(analysed.loop_modules(), vec![set(["cache", "diagnose"])]);
}

#[test]
fn an_upward_import_fails_without_a_loop() {
    let analysed = fixture("upward");
    assert!(analysed.loops().is_empty(), "{:?}", analysed.loops());
    let problems = analysed.problems(&fixture_rows("upward"), "layers.md");
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("low (layer `bottom`, may take from: nothing) takes Big from high (layer `top`): an import that points up"),
        "{}",
        problems[0]
    );
}

#[test]
fn test_code_and_a_parent_that_only_declares_and_reexports_add_no_edge() {
    // `text::quote` names `Parser` from `#[cfg(test)]` code of every kind, and `text/mod.rs`
    // re-exports both of its children, which take from each other through it.
    let analysed = fixture("not_counted");
    assert_eq!(
        analysed.edge_lines(),
        set(["text::parse -> text::quote: Quoted"])
    );
    let problems = analysed.problems(&fixture_rows("not_counted"), "layers.md");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_module_without_a_row_and_a_row_without_a_module_fail_saying_what_to_do() {
    let analysed = fixture("not_counted");
    let rows = fixture_rows("not_counted")
        .into_iter()
        .filter(|row| row.file != "src/text/parse.rs")
        .chain(
            table::parse(
                "| crate | module file | layer | may take from |\n|---|---|---|---|\n\
             | not_counted | src/text/gone.rs | text | — |\n",
            )
            .expect("a table"),
        )
        .collect::<Vec<_>>();
    let problems = analysed.problems(&rows, "layers.md");
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems.iter().any(|p| p.contains(
            "module text::parse (src/text/parse.rs) has no row in the layer table of layers.md: add one"
        )),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("has no module src/text/gone.rs: remove the row")),
        "{problems:#?}"
    );
}

#[test]
fn every_form_of_reference_is_an_edge_and_nothing_else_is() {
    // `user.rs` names one item of each module in a different way; `unused.rs` is only
    // glob-imported, and a glob ties only the names used.
    let analysed = fixture("forms");
    let from_user: BTreeSet<String> = analysed
        .edge_lines()
        .into_iter()
        .filter(|line| line.starts_with("user -> "))
        .collect();
    assert_eq!(
        from_user,
        set([
            "user -> crate: announce!",
            "user -> macro_used: shout!",
            "user -> grouped: Grouped, Inline",
            "user -> renamed: Renamed",
            "user -> globbed: Globbed",
            "user -> reexported: Deep",
            "user -> pattern: Kind",
            "user -> macros: make!",
            "user -> moved: Moved",
            "user -> nested::deep: Nested",
            "user -> in_macro: InMacro",
            "user -> variants: Color",
            "user -> traits: Describe",
            "user -> extra_impl: Renamed::new",
        ])
    );
    let all = analysed.edge_lines();
    assert!(
        !all.iter().any(|line| line.contains("-> unused")),
        "{all:#?}"
    );
}
