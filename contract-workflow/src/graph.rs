//! The manifest drawn: agents as boxes, edges as arrows labelled with their contract, each
//! edge coloured by its verdict when there are verdicts (green ok, red breaks, grey
//! unknown). Two forms: a mermaid `flowchart LR`, and one self-contained HTML page (inline
//! SVG and CSS, no script, nothing fetched) with the edges' table under the drawing. Every
//! name is escaped for the form it lands in: an agent may be called `<script>x</script>`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use contract_schema::escape::mermaid_label;

use crate::deploy::{EdgeReport, Verdict};
use crate::Manifest;

/// An edge's colour: by verdict, or neutral without one.
fn colour(verdict: Option<Verdict>) -> &'static str {
    match verdict {
        Some(Verdict::Ok) => "#1a7f37",
        Some(Verdict::Breaks) => "#cf222e",
        Some(Verdict::Unknown) => "#8c959f",
        None => "#57606a",
    }
}

/// The verdict of the `i`-th edge, when `verdicts` (one per edge, in the manifest's order)
/// are given.
fn verdict_of(verdicts: Option<&[EdgeReport]>, i: usize) -> Option<Verdict> {
    verdicts.and_then(|v| v.get(i)).map(|e| e.verdict)
}

/// The manifest as a mermaid `flowchart LR`: one node per agent (`a0`, `a1`, … with its
/// name as the label), one arrow per edge labelled with its contract and, with `verdicts`
/// (one per edge, in the manifest's order), its verdict, styled by it.
#[must_use]
pub fn mermaid(manifest: &Manifest, verdicts: Option<&[EdgeReport]>) -> String {
    let ids: BTreeMap<&str, usize> = manifest
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    let mut out = String::from("flowchart LR\n");
    for (i, agent) in manifest.agents.iter().enumerate() {
        let _ = writeln!(out, "  a{i}[\"{}\"]", mermaid_label(&agent.name));
    }
    for (i, edge) in manifest.edges.iter().enumerate() {
        let (Some(from), Some(to)) = (ids.get(edge.from.as_str()), ids.get(edge.to.as_str()))
        else {
            continue;
        };
        let label = match verdict_of(verdicts, i) {
            Some(v) => format!("{}: {}", edge.contract, v.as_str()),
            None => edge.contract.clone(),
        };
        let _ = writeln!(out, "  a{from} -->|\"{}\"| a{to}", mermaid_label(&label));
    }
    if verdicts.is_some() {
        for i in 0..manifest.edges.len() {
            let _ = writeln!(
                out,
                "  linkStyle {i} stroke:{},stroke-width:2px,color:{}",
                colour(verdict_of(verdicts, i)),
                colour(verdict_of(verdicts, i))
            );
        }
    }
    out
}

/// Text for HTML and SVG: `&`, `<`, `>`, `"` and `'` as entities (the same escaping as the
/// session page's).
#[must_use]
pub fn html_text(text: &str) -> String {
    contract_schema::escape::html_text(text)
}

/// The column of each agent: the longest path to it from an agent no edge reaches, edges
/// that close a cycle left out.
fn layers(manifest: &Manifest) -> Vec<usize> {
    let n = manifest.agents.len();
    let index: BTreeMap<&str, usize> = manifest
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for edge in &manifest.edges {
        if let (Some(&a), Some(&b)) = (index.get(edge.from.as_str()), index.get(edge.to.as_str())) {
            if a != b {
                next[a].push(b);
            }
        }
    }
    // Depth-first, iteratively: an edge to an agent on the stack closes a cycle.
    let mut state = vec![0u8; n]; // 0 unseen, 1 on the stack, 2 done
    let mut order = Vec::with_capacity(n);
    let mut forward: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Agents no edge reaches first, so that a workflow's entry is leftmost.
    let mut reached = vec![false; n];
    for targets in &next {
        for &t in targets {
            reached[t] = true;
        }
    }
    let starts = (0..n)
        .filter(|&i| !reached[i])
        .chain((0..n).filter(|&i| reached[i]));
    for start in starts {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start] = 1;
        while let Some(&mut (node, ref mut at)) = stack.last_mut() {
            if let Some(&to) = next[node].get(*at) {
                *at += 1;
                match state[to] {
                    0 => {
                        forward[node].push(to);
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    2 => forward[node].push(to),
                    _ => {} // back to the stack: a cycle
                }
            } else {
                state[node] = 2;
                order.push(node);
                stack.pop();
            }
        }
    }
    let mut layer = vec![0usize; n];
    for &node in order.iter().rev() {
        for &to in &forward[node] {
            layer[to] = layer[to].max(layer[node] + 1);
        }
    }
    layer
}

/// The manifest as one HTML page: an inline SVG drawing (agents in columns, left to right
/// along the edges) and a table of the edges; `title` heads it (say, the environment).
/// Nothing is fetched and nothing runs: no script, no link, no image.
#[must_use]
pub fn html(manifest: &Manifest, verdicts: Option<&[EdgeReport]>, title: &str) -> String {
    const ROW: usize = 72;
    const BOX_H: usize = 40;
    const MARGIN: usize = 24;
    let layer = layers(manifest);
    // The gap between columns fits the longest edge label (about 7 px a character at the
    // labels' size), so that no label runs under a box.
    let longest_label = manifest
        .edges
        .iter()
        .map(|e| e.contract.chars().count() + ": unknown".len())
        .max()
        .unwrap_or(0);
    let gap = (longest_label * 7 + 32).clamp(120, 480);
    let widest = manifest
        .agents
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(0);
    let box_w = (widest * 8 + 32).clamp(120, 360);
    let mut rows_in = BTreeMap::<usize, usize>::new();
    let mut place = Vec::with_capacity(manifest.agents.len());
    for &l in &layer {
        let row = rows_in.entry(l).or_insert(0);
        place.push((MARGIN + l * (box_w + gap), MARGIN + 20 + *row * ROW));
        *row += 1;
    }
    let columns = layer.iter().max().map_or(0, |m| m + 1);
    let rows = rows_in.values().max().copied().unwrap_or(0);
    let width = MARGIN * 2 + columns * box_w + columns.saturating_sub(1) * gap;
    let index: BTreeMap<&str, usize> = manifest
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    // Room under the boxes only for the edges drawn there (backwards, or to themselves).
    let loops = manifest
        .edges
        .iter()
        .filter(
            |e| match (index.get(e.from.as_str()), index.get(e.to.as_str())) {
                (Some(&a), Some(&b)) => layer[b] <= layer[a],
                _ => false,
            },
        )
        .count();
    let height = MARGIN * 2 + 20 + rows * ROW + if loops > 0 { 28 + loops * 14 } else { 0 };

    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\">\n<defs>\n",
        html_text(title)
    );
    for (name, verdict) in [
        ("ok", Some(Verdict::Ok)),
        ("breaks", Some(Verdict::Breaks)),
        ("unknown", Some(Verdict::Unknown)),
        ("none", None),
    ] {
        let _ = writeln!(
            svg,
            "<marker id=\"arrow-{name}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
            colour(verdict)
        );
    }
    svg.push_str("</defs>\n");
    // Edges first, under the boxes; a second edge between one pair gets its label lower.
    let mut seen = BTreeMap::<(usize, usize), usize>::new();
    for (i, edge) in manifest.edges.iter().enumerate() {
        let (Some(&a), Some(&b)) = (index.get(edge.from.as_str()), index.get(edge.to.as_str()))
        else {
            continue;
        };
        let verdict = verdict_of(verdicts, i);
        let marker = verdict.map_or("none", Verdict::as_str);
        let nth = {
            let n = seen.entry((a, b)).or_insert(0);
            *n += 1;
            *n - 1
        };
        let (ax, ay) = place[a];
        let (bx, by) = place[b];
        let (path, lx, ly) = if layer[b] > layer[a] {
            let (x1, y1) = (ax + box_w, ay + BOX_H / 2);
            let (x2, y2) = (bx, by + BOX_H / 2);
            let dx = (x2 - x1) / 2;
            (
                format!("M{x1},{y1} C{},{y1} {},{y2} {x2},{y2}", x1 + dx, x2 - dx),
                (x1 + x2) / 2,
                (y1 + y2) / 2 - 6 + nth * 14,
            )
        } else {
            // Backwards, within a column, or to itself: a loop under the boxes.
            let (x1, y1) = (ax + box_w / 2, ay + BOX_H);
            let (x2, y2) = (bx + box_w / 2, by + BOX_H);
            let low = y1.max(y2) + 28 + nth * 14;
            let (c1, c2) = if a == b {
                (x1 + box_w / 3, x2.saturating_sub(box_w / 3))
            } else {
                (x1, x2)
            };
            (
                format!("M{x1},{y1} C{c1},{low} {c2},{low} {x2},{y2}"),
                (x1 + x2) / 2,
                low,
            )
        };
        let label = match verdict {
            Some(v) => format!("{}: {}", edge.contract, v.as_str()),
            None => edge.contract.clone(),
        };
        let hover = format!("{} → {} ({label})", edge.from, edge.to);
        let _ = writeln!(
            svg,
            "<g class=\"edge {marker}\"><title>{}</title><path d=\"{path}\" stroke=\"{c}\" marker-end=\"url(#arrow-{marker})\"/><text x=\"{lx}\" y=\"{ly}\" fill=\"{c}\">{}</text></g>",
            html_text(&hover),
            html_text(&label),
            c = colour(verdict),
        );
    }
    for (agent, &(x, y)) in manifest.agents.iter().zip(&place) {
        let _ = writeln!(
            svg,
            "<g class=\"agent\"><title>{name}</title><rect x=\"{x}\" y=\"{y}\" width=\"{box_w}\" height=\"{BOX_H}\" rx=\"6\"/><text x=\"{tx}\" y=\"{ty}\">{name}</text></g>",
            name = html_text(&agent.name),
            tx = x + box_w / 2,
            ty = y + BOX_H / 2 + 5,
        );
    }
    svg.push_str("</svg>\n");

    let mut table = String::from(
        "<table>\n<thead><tr><th>from</th><th>to</th><th>contract</th><th>versions</th><th>verdict</th></tr></thead>\n<tbody>\n",
    );
    for (i, edge) in manifest.edges.iter().enumerate() {
        let verdict = verdict_of(verdicts, i);
        let versions = verdicts
            .and_then(|v| v.get(i))
            .map(|e| {
                e.versions
                    .iter()
                    .map(|(agent, version)| format!("{agent} {version}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let _ = writeln!(
            table,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>",
            html_text(&edge.from),
            html_text(&edge.to),
            html_text(&edge.contract),
            html_text(&versions),
            verdict.map_or("none", Verdict::as_str),
            verdict.map_or("", Verdict::as_str),
        );
    }
    table.push_str("</tbody>\n</table>\n");

    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n\
body {{ font-family: system-ui, sans-serif; margin: 24px; color: #1f2328; }}\n\
svg {{ display: block; max-width: 100%; height: auto; }}\n\
.agent rect {{ fill: #f6f8fa; stroke: #57606a; stroke-width: 1.5; }}\n\
.agent text {{ text-anchor: middle; font-size: 13px; }}\n\
.edge path {{ fill: none; stroke-width: 2; }}\n\
.edge text {{ text-anchor: middle; font-size: 11px; }}\n\
.legend span {{ margin-right: 16px; }}\n\
table {{ border-collapse: collapse; margin-top: 16px; font-size: 13px; }}\n\
th, td {{ border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }}\n\
td.ok {{ color: #1a7f37; }} td.breaks {{ color: #cf222e; font-weight: bold; }} td.unknown {{ color: #8c959f; }}\n\
</style>\n</head>\n<body>\n<h1>{title}</h1>\n{legend}{svg}{table}</body>\n</html>\n",
        title = html_text(title),
        legend = if verdicts.is_some() {
            "<p class=\"legend\"><span style=\"color:#1a7f37\">&#9632; ok</span><span style=\"color:#cf222e\">&#9632; breaks</span><span style=\"color:#8c959f\">&#9632; unknown</span></p>\n"
        } else {
            ""
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const MANIFEST: &str = r#"
[agents."<script>x</script>"]
contracts = "a"
[agents.billing]
contracts = "b"
[agents.triage]
contracts = "c"
[[edges]]
from = "triage"
to = "billing"
contract = "refund-request"
[[edges]]
from = "billing"
to = "<script>x</script>"
contract = "receipt"
[[edges]]
from = "<script>x</script>"
to = "triage"
contract = "loop-back"
"#;

    fn manifest() -> Manifest {
        Manifest::parse(Path::new("handoff.toml"), MANIFEST).unwrap()
    }

    #[test]
    fn names_are_escaped_in_both_forms() {
        let m = manifest();
        let html = html(&m, None, "<b>graph</b>");
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;x&lt;/script&gt;"));
        assert!(html.contains("<title>&lt;b&gt;graph&lt;/b&gt;</title>"));
        // Nothing fetched: no URL but the SVG namespace.
        assert_eq!(html.matches("http").count(), 1, "{html}");
        let mermaid = mermaid(&m, None);
        assert!(
            mermaid.contains("a0[\"#lt;script#gt;x#lt;/script#gt;\"]"),
            "{mermaid}"
        );
        assert!(!mermaid.contains('<'), "{mermaid}");
    }

    #[test]
    fn a_cycle_still_gets_columns_along_its_edges() {
        // triage -> billing -> <script> -> triage, a cycle with no entry: walked from the
        // first agent, `<script>x</script>`; billing's edge back to it is drawn backwards.
        let layer = layers(&manifest());
        // Agents sorted: `<script>x</script>`, billing, triage.
        assert_eq!(layer, [0, 2, 1]);
        // With an entry, the entry is leftmost.
        let entry = MANIFEST.replace(
            "from = \"<script>x</script>\"\nto = \"triage\"",
            "from = \"<script>x</script>\"\nto = \"<script>x</script>\"",
        );
        let m = Manifest::parse(Path::new("handoff.toml"), &entry).unwrap();
        assert_eq!(layers(&m), [2, 1, 0]);
    }

    #[test]
    fn mermaid_has_an_arrow_per_edge() {
        let out = mermaid(&manifest(), None);
        assert!(out.starts_with("flowchart LR\n"));
        assert!(out.contains("  a2 -->|\"refund-request\"| a1\n"), "{out}");
        assert_eq!(out.matches("-->").count(), 3);
        assert!(!out.contains("linkStyle"));
    }
}
