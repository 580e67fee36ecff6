//! The layer table: one markdown row per module file (`crate | module file | layer | may take
//! from`), and its check against a crate's modules and edges.
//!
//! A module may take items from a module of its own layer (a loop among them is still a loop)
//! and from the layers its row lists; any other edge points up, or across, and fails.

use std::collections::{BTreeMap, BTreeSet};

use super::parse::Crate;
use super::resolve::Edges;

/// The header the table is found by, cells compared without case or backticks.
const HEADER: [&str; 4] = ["crate", "module file", "layer", "may take from"];

/// One row of the table.
pub struct Row {
    /// The package name: `contract-core`.
    pub krate: String,
    /// The file from the crate's folder: `src/runtime/fast.rs`.
    pub file: String,
    /// The layer's name.
    pub layer: String,
    /// The other layers it may take items from (`—` in the table: none).
    pub may_take_from: BTreeSet<String>,
    /// The line in the markdown file, for messages.
    pub line: usize,
}

/// The rows of the first table in `markdown` whose header is [`HEADER`].
pub fn parse(markdown: &str) -> Result<Vec<Row>, String> {
    let lines: Vec<&str> = markdown.lines().collect();
    let start = lines
        .iter()
        .position(|line| {
            cells(line).is_some_and(|cells| {
                cells
                    .iter()
                    .map(|c| c.to_lowercase())
                    .eq(HEADER.iter().map(|h| h.to_string()))
            })
        })
        .ok_or_else(|| format!("no table with the header | {} |", HEADER.join(" | ")))?;
    let mut rows = Vec::new();
    let mut seen = BTreeSet::new();
    // The line after the header is the `|---|` separator.
    for (offset, line) in lines[start + 2..].iter().enumerate() {
        let Some(cells) = cells(line) else { break };
        let line = start + 3 + offset;
        let [krate, file, layer, may_take_from] = <[String; 4]>::try_from(cells)
            .map_err(|cells| format!("line {line}: {} cells, not 4", cells.len()))?;
        if krate.is_empty() || file.is_empty() || layer.is_empty() {
            return Err(format!(
                "line {line}: crate, module file and layer are required"
            ));
        }
        if !seen.insert((krate.clone(), file.clone())) {
            return Err(format!("line {line}: a second row for {krate} {file}"));
        }
        let may_take_from = may_take_from
            .split(',')
            .map(str::trim)
            .filter(|layer| !layer.is_empty() && !["—", "-", "nothing"].contains(layer))
            .map(str::to_owned)
            .collect();
        rows.push(Row {
            krate,
            file,
            layer,
            may_take_from,
            line,
        });
    }
    Ok(rows)
}

/// The cells of a table line, trimmed, without backticks; `None` for a line that is not one.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(
        inner
            .split('|')
            .map(|cell| cell.replace('`', "").trim().to_owned())
            .collect(),
    )
}

/// What is wrong between `krate`'s modules and edges and the rows of the table named
/// `table` (in messages): a module without a row, a row without a module, a layer named in
/// "may take from" that no row has, and every edge that points to a layer its row does not
/// list.
pub fn check(krate: &Crate, edges: &Edges, rows: &[Row], table: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let rows: BTreeMap<&str, &Row> = rows
        .iter()
        .filter(|row| row.krate == krate.name)
        .map(|row| (row.file.as_str(), row))
        .collect();
    let files: BTreeSet<&str> = krate.files.iter().map(|f| f.rel.as_str()).collect();
    for file in &krate.files {
        if !rows.contains_key(file.rel.as_str()) {
            problems.push(format!(
                "{}: module {} ({}) has no row in the layer table of {table}: add one \
                 (| {} | {} | <layer> | <layers it may take from> |)",
                krate.name, file.module, file.rel, krate.name, file.rel
            ));
        }
    }
    let layers: BTreeSet<&str> = rows.values().map(|row| row.layer.as_str()).collect();
    for row in rows.values() {
        if !files.contains(row.file.as_str()) {
            problems.push(format!(
                "{table} line {}: {} has no module {}: remove the row, or name the file it \
                 moved to",
                row.line, krate.name, row.file
            ));
        }
        for layer in &row.may_take_from {
            if !layers.contains(layer.as_str()) {
                problems.push(format!(
                    "{table} line {}: {} {} may take from layer `{layer}`, which no row of {} has",
                    row.line, krate.name, row.file, krate.name
                ));
            }
        }
    }
    for ((from, to), names) in edges {
        let (from, to) = (&krate.files[*from], &krate.files[*to]);
        let (Some(from_row), Some(to_row)) =
            (rows.get(from.rel.as_str()), rows.get(to.rel.as_str()))
        else {
            continue;
        };
        if from_row.layer == to_row.layer || from_row.may_take_from.contains(&to_row.layer) {
            continue;
        }
        let allowed: Vec<&str> = from_row.may_take_from.iter().map(String::as_str).collect();
        let allowed = if allowed.is_empty() {
            "nothing".to_owned()
        } else {
            allowed.join(", ")
        };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        problems.push(format!(
            "{}: {} (layer `{}`, may take from: {allowed}) takes {} from {} (layer `{}`): \
             an import that points up; move the item down to a layer it may take from",
            krate.name,
            from.module,
            from_row.layer,
            names.join(", "),
            to.module,
            to_row.layer
        ));
    }
    problems
}
