//! The session view as a Mermaid flowchart, for a README or a pull request.

use std::fmt::Write as _;

use contract_schema::escape::mermaid_label as label;

use super::text::clean;
use super::{SessionView, Tone};

/// The view as a Mermaid `flowchart LR`: one node per agent, one edge per step, labelled with
/// the step's number in the journey, its contract and its outcome, and coloured by the
/// outcome's [`Tone`] (green accepted, grey not accepted yet and dashed, red refused).
///
/// Node ids are made from the agents' names (`n0_triage_agent`: the agent's place, then its
/// name with every character but ASCII letters and digits replaced), so that no name can
/// break the chart; labels are quoted, with Mermaid's entity codes for the characters that
/// mean something to Mermaid or to HTML (`"` is `#quot;`, `<` is `#lt;`).
///
/// ```text
/// flowchart LR
///     %% session sess-support-042, workflow support-refund
///     n0_triage_agent["triage-agent"]
///     n1_refund_specialist["refund-specialist"]
///     n0_triage_agent -->|"1. refund-request/v2 · refused"| n1_refund_specialist
///     linkStyle 0 stroke:#c62828,stroke-width:2px,color:#c62828
/// ```
#[must_use]
pub fn mermaid(view: &SessionView) -> String {
    let mut out = String::from("flowchart LR\n");
    // A comment: ids cleaned so that no line break can end it.
    let _ = write!(out, "    %% session {}", clean(view.session()));
    if let Some(workflow) = view.workflow() {
        let _ = write!(out, ", workflow {}", clean(workflow));
    }
    out.push('\n');

    let agents = view.agents();
    let ids: Vec<String> = agents
        .iter()
        .enumerate()
        .map(|(i, agent)| node_id(i, *agent))
        .collect();
    let id_of = |agent: Option<&str>| {
        agents
            .iter()
            .position(|a| *a == agent)
            .and_then(|i| ids.get(i))
            .map_or("n_", String::as_str)
    };
    for (agent, id) in agents.iter().zip(&ids) {
        let _ = writeln!(
            out,
            "    {id}[\"{}\"]",
            label(agent.unwrap_or("(not named)"))
        );
    }
    let mut tones: [(Tone, Vec<usize>); 3] = [
        (Tone::Green, Vec::new()),
        (Tone::Grey, Vec::new()),
        (Tone::Red, Vec::new()),
    ];
    for (i, step) in view.steps().iter().map(|s| &s.step).enumerate() {
        let arrow = match Tone::of(step.outcome) {
            Tone::Grey => "-.->",
            Tone::Green | Tone::Red => "-->",
        };
        let _ = writeln!(
            out,
            "    {} {arrow}|\"{}. {} · {}\"| {}",
            id_of(step.from.as_deref()),
            i + 1,
            label(&step.contract),
            step.outcome,
            id_of(step.to.as_deref()),
        );
        for (tone, edges) in &mut tones {
            if *tone == Tone::of(step.outcome) {
                edges.push(i);
            }
        }
    }
    for (tone, edges) in &tones {
        if edges.is_empty() {
            continue;
        }
        let list: Vec<String> = edges.iter().map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "    linkStyle {} stroke:{colour},stroke-width:2px,color:{colour}",
            list.join(","),
            colour = tone.css()
        );
    }
    out
}

/// `n0_triage_agent`: the agent's place, then its name with every character but ASCII letters
/// and digits replaced by `_` (at most 32 of them).
fn node_id(place: usize, agent: Option<&str>) -> String {
    let mut id = format!("n{place}");
    if let Some(name) = agent {
        id.push('_');
        id.extend(
            name.chars()
                .take(32)
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
        );
    }
    id
}
