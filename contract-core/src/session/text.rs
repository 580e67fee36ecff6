//! The session view as text, for an engineer at a terminal: the chain of agents along the
//! declared edges, and under each handoff its steps with what arrived, what did not and why,
//! and what the inbox made of it.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Relation, SessionStep, SessionView};

/// The view as text:
///
/// ```text
/// session: sess-support-042
/// workflow: support-refund
///
/// triage-agent
///   handoff: triage-agent -> refund-specialist
///     [1] refund-request/v2: refused
///         handoff h-1 in context ctx-7, attempt 1 (ledger specialist #1)
///         receivedFields: [category]
///         orderRefPresent: false (dropped-on-the-way)
///         problem: /payload/orderRef missing_field
///       |
///       v
/// refund-specialist
/// ```
///
/// Steps in a row that hand off from one agent are listed under it, those along one edge
/// under one `handoff:` line; an arrow leads to the next agent when a step above reaches it.
/// Then a count of the outcomes, the ledgers, and the diagnostics. Every name is printed with
/// its control characters escaped, so that none can move a terminal's cursor.
#[must_use]
pub fn text(view: &SessionView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "session: {}", clean(view.session()));
    if let Some(workflow) = view.workflow() {
        let _ = writeln!(out, "workflow: {}", clean(workflow));
    }
    let steps = view.steps();
    if steps.is_empty() {
        out.push_str("\nno steps\n");
    }

    // Runs of steps handing off from one agent.
    let mut runs: Vec<&[SessionStep]> = Vec::new();
    let mut begin = 0;
    for i in 1..=steps.len() {
        if i == steps.len() || steps[i].step.from != steps[begin].step.from {
            if i > begin {
                runs.push(&steps[begin..i]);
            }
            begin = i;
        }
    }
    let mut number = 0;
    for (r, run) in runs.iter().enumerate() {
        // A blank line before an agent, unless an arrow leads to it.
        if !out.ends_with("v\n") {
            out.push('\n');
        }
        let from = run[0].step.from.as_deref();
        let _ = writeln!(out, "{}", agent(from, "(no handoffFrom)"));
        let mut edge_begin = 0;
        for i in 1..=run.len() {
            if i == run.len() || run[i].step.to != run[edge_begin].step.to {
                let to = run[edge_begin].step.to.as_deref();
                let _ = writeln!(
                    out,
                    "  handoff: {} -> {}",
                    agent(from, "(no handoffFrom)"),
                    agent(to, "(no handoffTo)")
                );
                for step in &run[edge_begin..i] {
                    number += 1;
                    write_step(&mut out, number, step);
                }
                edge_begin = i;
            }
        }
        // The arrow to the next run's agent when this run reaches it, else a break.
        let reaches = |agent: Option<&str>| {
            agent.is_some() && run.iter().any(|s| s.step.to.as_deref() == agent)
        };
        match runs.get(r + 1) {
            Some(next) if reaches(next[0].step.from.as_deref()) => {
                out.push_str("      |\n      v\n")
            }
            Some(_) => out.push_str("      :\n"),
            None => {
                let mut last: Vec<&str> = Vec::new();
                for step in run.iter() {
                    if let Some(to) = step.step.to.as_deref() {
                        if !last.contains(&to) {
                            last.push(to);
                        }
                    }
                }
                if !last.is_empty() {
                    out.push_str("      |\n      v\n");
                    let names: Vec<Cow<'_, str>> = last.into_iter().map(clean).collect();
                    let _ = writeln!(out, "{}", names.join(", "));
                }
            }
        }
    }

    if !steps.is_empty() {
        let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
        for step in steps {
            *outcomes.entry(step.step.outcome.as_str()).or_default() += 1;
        }
        let counted: Vec<String> = outcomes
            .iter()
            .map(|(outcome, n)| format!("{n} {outcome}"))
            .collect();
        let _ = writeln!(
            out,
            "\n{} {}: {}",
            steps.len(),
            plural(steps.len(), "step", "steps"),
            counted.join(", ")
        );
    }
    if !view.ledgers().is_empty() {
        let ledgers: Vec<String> = view
            .ledgers()
            .iter()
            .map(|(label, n)| format!("{} ({n} {})", clean(label), plural(*n, "step", "steps")))
            .collect();
        let _ = writeln!(out, "ledgers: {}", ledgers.join(", "));
    }
    if !view.diagnostics().is_empty() {
        out.push_str("\ndiagnostics:\n");
        for diagnostic in view.diagnostics() {
            let _ = writeln!(out, "  - {}", clean(diagnostic));
        }
    }
    out
}

/// One step: its contract and outcome, its identity, presence and problems.
fn write_step(out: &mut String, number: usize, step: &SessionStep) {
    let SessionStep {
        step,
        ledger,
        relation,
    } = step;
    let _ = writeln!(
        out,
        "    [{number}] {}: {}",
        clean(&step.contract),
        step.outcome
    );
    let mut identity = match &step.handoff_id {
        Some(id) => format!("handoff {}", clean(id)),
        None => "no handoffId".to_owned(),
    };
    if let Some(context) = &step.context_id {
        let _ = write!(identity, " in context {}", clean(context));
    }
    if let Some(attempt) = step.attempt {
        let _ = write!(identity, ", attempt {attempt}");
    }
    match (relation, &step.retry_of) {
        (Relation::Explicit, Some(retried)) => {
            let _ = write!(identity, ", retry of {}", clean(retried));
        }
        (Relation::Related, _) => identity.push_str(", related (names no retryOf)"),
        _ => {}
    }
    if step.count > 1 {
        let _ = write!(identity, ", seen {} times", step.count);
    }
    let _ = writeln!(
        out,
        "        {identity} (ledger {} #{})",
        clean(ledger),
        step.seq
    );
    let received: Vec<Cow<'_, str>> = step.received_fields.iter().map(|f| clean(f)).collect();
    let _ = writeln!(out, "        receivedFields: [{}]", received.join(", "));
    for field in &step.missing_fields {
        match step.causes.get(field) {
            Some(cause) => {
                let _ = writeln!(
                    out,
                    "        {}Present: false ({})",
                    clean(field),
                    clean(cause)
                );
            }
            None => {
                let _ = writeln!(out, "        {}Present: false", clean(field));
            }
        }
    }
    // A cause of a field not listed as missing (a ledger may record one).
    for (field, cause) in &step.causes {
        if !step.missing_fields.contains(field) {
            let _ = writeln!(out, "        {}: {}", clean(field), clean(cause));
        }
    }
    if let Some(spent) = &step.spent {
        let _ = writeln!(out, "        spent before: {spent}");
    }
    for problem in &step.problems {
        let pointer = if problem.pointer.is_empty() {
            Cow::Borrowed("(the envelope)")
        } else {
            clean(&problem.pointer)
        };
        let _ = writeln!(out, "        problem: {pointer} {}", clean(&problem.kind));
    }
}

fn agent<'a>(name: Option<&'a str>, none: &'static str) -> Cow<'a, str> {
    name.map_or(Cow::Borrowed(none), clean)
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `name` with its control characters and bidirectional overrides escaped (`\n`,
/// `\u{1b}`, `\u{202e}`), so that a name cannot break a line, drive a terminal or turn text
/// around.
pub(super) fn clean(name: &str) -> Cow<'_, str> {
    if !name.chars().any(unprintable) {
        return Cow::Borrowed(name);
    }
    let mut cleaned = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if unprintable(c) {
            cleaned.extend(c.escape_default());
        } else {
            cleaned.push(c);
        }
    }
    Cow::Owned(cleaned)
}

/// A control character, or one that changes the direction of text.
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
