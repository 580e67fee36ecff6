//! Loops among module files: the strongly connected components of the edges (Tarjan), each
//! printed with its modules, one way round it, and every arrow inside it with its names.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;

use super::parse::Crate;
use super::resolve::Edges;

/// Files that reach each other through their edges (two or more).
pub struct Loop {
    /// The files, in file order.
    pub files: Vec<usize>,
}

/// Every loop of the graph.
pub fn loops(file_count: usize, edges: &Edges) -> Vec<Loop> {
    let mut successors = vec![Vec::new(); file_count];
    for &(from, to) in edges.keys() {
        successors[from].push(to);
    }
    let mut tarjan = Tarjan {
        successors: &successors,
        index: vec![None; file_count],
        low: vec![0; file_count],
        on_stack: vec![false; file_count],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for file in 0..file_count {
        if tarjan.index[file].is_none() {
            tarjan.visit(file);
        }
    }
    let mut loops: Vec<Loop> = tarjan
        .components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|mut files| {
            files.sort_unstable();
            Loop { files }
        })
        .collect();
    loops.sort_by_key(|l| l.files[0]);
    loops
}

struct Tarjan<'a> {
    successors: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, node: usize) {
        self.index[node] = Some(self.next);
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        for &succ in &self.successors[node] {
            match self.index[succ] {
                None => {
                    self.visit(succ);
                    self.low[node] = self.low[node].min(self.low[succ]);
                }
                Some(index) if self.on_stack[succ] => {
                    self.low[node] = self.low[node].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(self.low[node]) == self.index[node] {
            let mut component = Vec::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack[top] = false;
                component.push(top);
                if top == node {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// The loop for a reader: its modules, the shortest way round from its first module, and each
/// arrow inside it with the names that tie it.
pub fn describe(krate: &Crate, edges: &Edges, found: &Loop) -> String {
    let module = |file: usize| krate.files[file].module.as_str();
    let members: BTreeSet<usize> = found.files.iter().copied().collect();
    let mut out = format!(
        "{}: {} modules form a loop: {}\n",
        krate.name,
        found.files.len(),
        found
            .files
            .iter()
            .map(|&f| format!("{} ({})", module(f), krate.files[f].rel))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let round = shortest_round(found.files[0], &members, edges);
    let round: Vec<&str> = round.into_iter().map(module).collect();
    let _ = writeln!(out, "  one way round: {}", round.join(" -> "));
    for ((from, to), names) in edges {
        if members.contains(from) && members.contains(to) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let _ = writeln!(
                out,
                "  {} -> {}: {}",
                module(*from),
                module(*to),
                names.join(", ")
            );
        }
    }
    out
}

/// The shortest path from `start` back to itself inside the loop (breadth first).
fn shortest_round(start: usize, members: &BTreeSet<usize>, edges: &Edges) -> Vec<usize> {
    let mut came_from = std::collections::BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &(from, to) in edges.keys() {
            if from != node || !members.contains(&to) {
                continue;
            }
            if to == start {
                let mut back = Vec::new();
                let mut at = node;
                while at != start {
                    back.push(at);
                    at = came_from[&at];
                }
                back.reverse();
                let mut path = vec![start];
                path.extend(back);
                path.push(start);
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(entry) = came_from.entry(to) {
                entry.insert(node);
                queue.push_back(to);
            }
        }
    }
    vec![start]
}
