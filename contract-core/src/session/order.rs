//! The order of a session's steps: a topological order of the constraints the journey
//! declares, never of clocks.
//!
//! The constraints, as a graph over the steps and one waypoint per agent and per retried run
//! (so that a step reached by many and reaching many costs edges in their sum, not their
//! product):
//!
//! - each ledger's sequence: a step after the step before it in its ledger;
//! - the declared edges: a step into the waypoint of its `handoffTo` (unless it is a
//!   duplicate or a conflict, which ran nothing and so reached no one, or a step from an agent
//!   to itself), the waypoint of an agent into every step handing off from it;
//! - explicit retries: a step into the waypoint of its `handoffId`, that waypoint into every
//!   step of another handoff whose `retryOf` names it.
//!
//! Steps ready together are taken by (ledger label, ledger, sequence). When no step is ready
//! (the declared edges go round a loop of agents, or contradict a ledger's sequence), the
//! next step of some ledger is taken out of turn: one whose agent has been reached if there
//! is one, else by the same key. When that was a choice (more than one ledger had steps
//! left), a diagnostic says so: once per loop of agents, naming them, else at the step.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::inbox::{Outcome, Step};

/// Where a step is: its ledger's index among those given, and its place in that ledger's
/// steps (sorted by sequence).
pub(super) type At = (usize, usize);

/// The steps of `ledgers` (each sorted by sequence) in the journey's order.
pub(super) fn order(ledgers: &[(String, Vec<Step>)], diagnostics: &mut Diagnostics) -> Vec<At> {
    let graph = Graph::new(ledgers);
    graph.walk(ledgers, diagnostics)
}

/// The order of ready steps: ledger label, ledger, sequence, place in the ledger, node.
type Key<'a> = (&'a str, usize, u64, usize, usize);

/// The constraint graph: steps are nodes `0..steps`, waypoints come after them.
struct Graph<'a> {
    /// Every step, by node.
    steps: Vec<(At, &'a Step)>,
    /// How many nodes there are, steps and waypoints.
    nodes: usize,
    /// The nodes each node must come before.
    after: Vec<Vec<usize>>,
    /// How many nodes each node must come after.
    before: Vec<usize>,
}

impl<'a> Graph<'a> {
    fn new(ledgers: &'a [(String, Vec<Step>)]) -> Graph<'a> {
        let steps: Vec<(At, &Step)> = ledgers
            .iter()
            .enumerate()
            .flat_map(|(ledger, (_, steps))| {
                steps
                    .iter()
                    .enumerate()
                    .map(move |(position, step)| ((ledger, position), step))
            })
            .collect();
        let mut nodes = steps.len();
        let mut agents: HashMap<&str, usize> = HashMap::new();
        let mut runs: HashMap<&str, usize> = HashMap::new();
        let mut edges: Vec<(usize, usize)> = Vec::new();
        let mut waypoint = |map: &mut HashMap<&'a str, usize>, name: &'a str| {
            *map.entry(name).or_insert_with(|| {
                nodes += 1;
                nodes - 1
            })
        };
        for (node, ((_, position), step)) in steps.iter().enumerate() {
            if *position > 0 {
                edges.push((node - 1, node));
            }
            let ran = !matches!(step.outcome, Outcome::Duplicate | Outcome::Conflict);
            // A step from an agent to itself reaches no one new (and would wait on itself).
            if let (Some(to), true) = (step.to.as_deref(), ran && step.from != step.to) {
                edges.push((node, waypoint(&mut agents, to)));
            }
            if let Some(from) = step.from.as_deref() {
                edges.push((waypoint(&mut agents, from), node));
            }
            if let Some(handoff) = step.handoff_id.as_deref() {
                edges.push((node, waypoint(&mut runs, handoff)));
            }
            if let Some(retried) = step.retry_of.as_deref() {
                if step.handoff_id.as_deref() != Some(retried) {
                    edges.push((waypoint(&mut runs, retried), node));
                }
            }
        }
        let mut after = vec![Vec::new(); nodes];
        let mut before = vec![0; nodes];
        for (from, to) in edges {
            after[from].push(to);
            before[to] += 1;
        }
        Graph {
            steps,
            nodes,
            after,
            before,
        }
    }

    fn walk(self, ledgers: &[(String, Vec<Step>)], diagnostics: &mut Diagnostics) -> Vec<At> {
        let Graph {
            steps,
            nodes,
            after,
            mut before,
        } = self;
        let key = |node: usize| -> Key<'_> {
            let ((ledger, position), step) = steps[node];
            (ledgers[ledger].0.as_str(), ledger, step.seq, position, node)
        };
        let mut done = vec![false; nodes];
        let mut ready: BTreeSet<Key<'_>> = BTreeSet::new();
        for node in 0..nodes {
            if before[node] == 0 && !done[node] {
                if node < steps.len() {
                    ready.insert(key(node));
                } else {
                    done[node] = true;
                    release(
                        node,
                        &after,
                        steps.len(),
                        &mut before,
                        &mut done,
                        &mut ready,
                        &key,
                    );
                }
            }
        }
        // The node of each ledger's first step, and how many of its steps are taken.
        let mut first_node = Vec::with_capacity(ledgers.len());
        let mut count = 0;
        for (_, ledger) in ledgers {
            first_node.push(count);
            count += ledger.len();
        }
        let mut taken = vec![0; ledgers.len()];
        let mut reached: HashSet<&str> = HashSet::new();
        let mut order = Vec::with_capacity(steps.len());
        // The loops among the agents, and those that left a choice, in the order met.
        let loops = agent_loops(&steps);
        let mut rounds: Vec<usize> = Vec::new();
        while order.len() < steps.len() {
            let node = if let Some((.., node)) = ready.pop_first() {
                node
            } else {
                // Nothing is ready: the next step of some ledger is taken out of turn.
                let candidates: Vec<usize> = (0..ledgers.len())
                    .filter(|&l| taken[l] < ledgers[l].1.len())
                    .map(|l| first_node[l] + taken[l])
                    .collect();
                let out_of_turn = candidates.iter().copied().min_by_key(|&node| {
                    let from = steps[node].1.from.as_deref();
                    (!from.is_none_or(|f| reached.contains(f)), key(node))
                });
                let Some(node) = out_of_turn else {
                    break;
                };
                // With one ledger left, its sequence is the order: nothing was chosen.
                if candidates.len() > 1 {
                    let step = steps[node].1;
                    match step.from.as_deref().and_then(|f| loops.get(f)) {
                        Some(&round) => {
                            if !rounds.contains(&round) {
                                rounds.push(round);
                            }
                        }
                        None => diagnostics.push(format!(
                            "the declared edges and the ledgers' sequences contradict each other at {}: placed by its ledger's sequence, which may not be the order it happened in",
                            name_step(step)
                        )),
                    }
                }
                node
            };
            if done[node] {
                continue;
            }
            done[node] = true;
            let ((ledger, _), step) = steps[node];
            taken[ledger] += 1;
            if let Some(to) = step.to.as_deref() {
                reached.insert(to);
            }
            order.push(steps[node].0);
            release(
                node,
                &after,
                steps.len(),
                &mut before,
                &mut done,
                &mut ready,
                &key,
            );
        }
        for round in rounds {
            // The loop's agents, in the order the journey names them.
            let mut agents: Vec<&str> = Vec::new();
            for &node in &taken_order(&order, &first_node) {
                let step = steps[node].1;
                for agent in [step.from.as_deref(), step.to.as_deref()]
                    .into_iter()
                    .flatten()
                {
                    if loops.get(agent) == Some(&round) && !agents.contains(&agent) {
                        agents.push(agent);
                    }
                }
            }
            diagnostics.push(format!(
                "the declared edges go round a loop ({}): there steps are placed by each ledger's sequence, then by ledger label, which may not be the order they happened in",
                agents.join(", ")
            ));
        }
        order
    }
}

/// The nodes of the steps in `order`.
fn taken_order(order: &[At], first_node: &[usize]) -> Vec<usize> {
    order
        .iter()
        .map(|&(ledger, position)| first_node[ledger] + position)
        .collect()
}

/// The agents on a loop of declared edges (edges of steps that ran, an agent to itself
/// aside), each with the number of its loop: the strongly connected components of more than
/// one agent, found as Kosaraju does, without recursion.
fn agent_loops<'a>(steps: &[(At, &'a Step)]) -> HashMap<&'a str, usize> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut id = |name: &'a str, names: &mut Vec<&'a str>| {
        *index.entry(name).or_insert_with(|| {
            names.push(name);
            names.len() - 1
        })
    };
    let mut edges: HashSet<(usize, usize)> = HashSet::new();
    for (_, step) in steps {
        if matches!(step.outcome, Outcome::Duplicate | Outcome::Conflict) {
            continue;
        }
        if let (Some(from), Some(to)) = (step.from.as_deref(), step.to.as_deref()) {
            if from != to {
                let edge = (id(from, &mut names), id(to, &mut names));
                edges.insert(edge);
            }
        }
    }
    let n = names.len();
    let mut forward = vec![Vec::new(); n];
    let mut backward = vec![Vec::new(); n];
    for &(a, b) in &edges {
        forward[a].push(b);
        backward[b].push(a);
    }
    // First pass: the agents in the order their depth-first search finishes.
    let mut finished = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0)];
        while let Some((agent, next)) = stack.pop() {
            if let Some(&to) = forward[agent].get(next) {
                stack.push((agent, next + 1));
                if !seen[to] {
                    seen[to] = true;
                    stack.push((to, 0));
                }
            } else {
                finished.push(agent);
            }
        }
    }
    // Second pass, on the reversed edges, latest finished first: one component per tree.
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in finished.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = count;
        let mut stack = vec![root];
        while let Some(agent) = stack.pop() {
            for &from in &backward[agent] {
                if component[from] == usize::MAX {
                    component[from] = count;
                    stack.push(from);
                }
            }
        }
        count += 1;
    }
    let mut sizes = vec![0usize; count];
    for &c in &component {
        sizes[c] += 1;
    }
    names
        .iter()
        .enumerate()
        .filter(|&(agent, _)| sizes[component[agent]] > 1)
        .map(|(agent, name)| (*name, component[agent]))
        .collect()
}

/// Releases what waited on `node` alone: steps become ready, waypoints pass it on at once.
fn release<'k>(
    node: usize,
    after: &[Vec<usize>],
    steps: usize,
    before: &mut [usize],
    done: &mut [bool],
    ready: &mut BTreeSet<Key<'k>>,
    key: &dyn Fn(usize) -> Key<'k>,
) {
    let mut released = vec![node];
    while let Some(n) = released.pop() {
        for &next in &after[n] {
            before[next] = before[next].saturating_sub(1);
            if before[next] == 0 && !done[next] {
                if next < steps {
                    ready.insert(key(next));
                } else {
                    done[next] = true;
                    released.push(next);
                }
            }
        }
    }
}

/// Diagnostics in the order found, each once.
#[derive(Default)]
pub(crate) struct Diagnostics {
    list: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Diagnostics {
    pub(crate) fn push(&mut self, diagnostic: String) {
        if self.seen.insert(diagnostic.clone()) {
            self.list.push(diagnostic);
        }
    }

    pub(crate) fn into_vec(self) -> Vec<String> {
        self.list
    }
}

/// `handoff h-2 (triage-agent → refund-specialist)`: a step named for a diagnostic.
pub(crate) fn name_step(step: &Step) -> String {
    let handoff = match &step.handoff_id {
        Some(id) => format!("handoff {id}"),
        None => "a handoff with no handoffId".to_owned(),
    };
    format!("{handoff} ({})", name_edge(step))
}

/// `triage-agent → refund-specialist`, `?` for an agent not named.
pub(crate) fn name_edge(step: &Step) -> String {
    format!(
        "{} → {}",
        step.from.as_deref().unwrap_or("?"),
        step.to.as_deref().unwrap_or("?")
    )
}
