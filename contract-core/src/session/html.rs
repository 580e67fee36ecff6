//! The session view as one self-contained HTML page: the journey drawn as inline SVG, a
//! panel that shows a step when its edge is clicked, the steps as a list and the
//! diagnostics. Nothing is fetched: no script, style, font or image comes from anywhere but
//! the page, and its content security policy forbids every other source.

use std::fmt::Write as _;

use contract_schema::escape::html_text as escape;

use super::{SessionView, Tone};

/// The page's style.
const STYLE: &str = include_str!("html.css");
/// The page's script: fills the panel for the edge clicked (on load, the first red edge's, or
/// the step named by `#step-N`).
const SCRIPT: &str = include_str!("html.js");

/// Width of an agent's box, per character of its name, and its bounds.
const CHAR: f64 = 7.6;
/// Width of an edge's label, per character.
const LABEL_CHAR: f64 = 6.4;
const NODE_MIN: f64 = 120.0;
const NODE_MAX: f64 = 300.0;
/// Names longer than this are cut in their box (whole in its tooltip and the panel).
const NAME_MAX: usize = 36;
const NODE_HEIGHT: f64 = 44.0;
/// How far each further edge between the same two agents bends.
const BEND: f64 = 62.0;
const MARGIN: f64 = 40.0;

/// The view as one HTML page (UTF-8), to open in a browser without a network.
///
/// The graph is inline SVG: one box per agent (`<g class="agent">`), one edge per step
/// (`<g class="edge TONE" data-step="N" data-outcome="OUTCOME">`, `N` counting from 0,
/// `TONE` the outcome's [`Tone`]: `green`, `grey` or `red`), its label the step's number,
/// contract and outcome. Clicking an edge, its label or the step in the list shows in the
/// side panel the step's presence (the fields received, each missing one and its cause) and
/// its findings (each problem's pointer and kind); the panel then carries the step's number
/// in `data-shown`. On load the panel shows the step named by the address's `#step-N`
/// (counting from 1), else the first red edge's step, else the first step's.
///
/// Every name (session, agents, fields, contracts, ledgers) is data: it is HTML-escaped
/// where it is written, and the script only ever sets text, never markup.
#[must_use]
pub fn html(view: &SessionView) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let title = format!("session {}", view.session());
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n",
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    let _ = writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>");

    // The header: the session, its workflow, the outcomes, the legend.
    out.push_str("<header>\n");
    let _ = writeln!(
        out,
        "<h1>session <code class=\"session\">{}</code></h1>",
        escape(view.session())
    );
    out.push_str("<p class=\"summary\">");
    if let Some(workflow) = view.workflow() {
        let _ = write!(out, "workflow <code>{}</code> · ", escape(workflow));
    }
    let steps = view.steps();
    let _ = write!(
        out,
        "{} {}",
        steps.len(),
        if steps.len() == 1 { "step" } else { "steps" }
    );
    let ledgers: Vec<String> = view
        .ledgers()
        .iter()
        .map(|(label, _)| format!("<code>{}</code>", escape(label)))
        .collect();
    if !ledgers.is_empty() {
        let _ = write!(out, " from {}", ledgers.join(", "));
    }
    out.push_str("</p>\n");
    out.push_str(
        "<p class=\"legend\"><span class=\"swatch green\"></span>accepted \
         <span class=\"swatch grey\"></span>not accepted yet \
         <span class=\"swatch red\"></span>refused</p>\n</header>\n",
    );

    out.push_str("<main>\n<div class=\"graph\">\n");
    svg(&mut out, view);
    out.push_str("</div>\n");
    out.push_str(
        "<aside id=\"panel\" aria-live=\"polite\"><p class=\"hint\">Click an edge to see its \
         step.</p></aside>\n</main>\n",
    );

    // The steps as a list: each is a button for the panel, like its edge.
    out.push_str("<section class=\"steps\">\n<h2>steps</h2>\n<ol>\n");
    for (i, step) in steps.iter().enumerate() {
        let tone = Tone::of(step.step.outcome);
        let _ = writeln!(
            out,
            "<li><button type=\"button\" class=\"step {tone}\" data-step=\"{i}\">\
             <span class=\"edge-name\">{}</span> <code>{}</code> \
             <span class=\"outcome\">{}</span></button></li>",
            escape(&super::name_edge(&step.step)),
            escape(&step.step.contract),
            step.step.outcome,
        );
    }
    out.push_str("</ol>\n</section>\n");

    if !view.diagnostics().is_empty() {
        out.push_str("<section class=\"diagnostics\">\n<h2>diagnostics</h2>\n<ul>\n");
        for diagnostic in view.diagnostics() {
            let _ = writeln!(out, "<li>{}</li>", escape(diagnostic));
        }
        out.push_str("</ul>\n</section>\n");
    }

    // The view's JSON for the script, as text no `</script>` can end early.
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"session-data\">{}</script>",
        script_json(&super::json(view))
    );
    let _ = writeln!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>");
    out
}

/// Where an agent's box is.
struct Place {
    x: f64,
    width: f64,
}

/// The graph: agents in a row in the order the steps first name them, each step an edge.
fn svg(out: &mut String, view: &SessionView) {
    let agents = view.agents();
    let steps = view.steps();
    let longest_name = agents
        .iter()
        .map(|a| a.map_or(11, |n| n.chars().count().min(NAME_MAX)))
        .max()
        .unwrap_or(0);
    let width = (longest_name as f64 * CHAR + 32.0).clamp(NODE_MIN, NODE_MAX);
    let longest_label = steps
        .iter()
        .map(|s| s.step.contract.chars().count().min(60) + 4)
        .max()
        .unwrap_or(0);
    let gap = (longest_label as f64 * LABEL_CHAR + 40.0).max(120.0);
    let places: Vec<Place> = (0..agents.len())
        .map(|i| Place {
            x: MARGIN + width / 2.0 + i as f64 * (width + gap),
            width,
        })
        .collect();
    let column = |agent: Option<&str>| agents.iter().position(|a| *a == agent).unwrap_or(0);

    // Each edge's geometry, relative to the row's centre line (y = 0).
    let mut shapes = Vec::with_capacity(steps.len());
    let mut pairs: Vec<((usize, usize), usize)> = Vec::new();
    let (mut top, mut bottom) = (-NODE_HEIGHT / 2.0, NODE_HEIGHT / 2.0);
    for step in steps {
        let (a, b) = (
            column(step.step.from.as_deref()),
            column(step.step.to.as_deref()),
        );
        let n = match pairs.iter_mut().find(|(pair, _)| *pair == (a, b)) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                pairs.push(((a, b), 0));
                0
            }
        };
        let shape = Shape::of(&places, a, b, n);
        top = top.min(shape.label_y - 24.0);
        bottom = bottom.max(shape.label_y + 30.0);
        shapes.push(shape);
    }
    let row = MARGIN - top;
    let total_width = places
        .last()
        .map_or(2.0 * MARGIN, |p| p.x + p.width / 2.0 + MARGIN);
    let total_height = row + bottom + MARGIN;
    let _ = writeln!(
        out,
        "<svg class=\"journey\" role=\"group\" aria-label=\"the session's journey\" \
         width=\"{total_width:.0}\" height=\"{total_height:.0}\" \
         viewBox=\"0 0 {total_width:.0} {total_height:.0}\">"
    );
    out.push_str("<defs>\n");
    for tone in [Tone::Green, Tone::Grey, Tone::Red] {
        let _ = writeln!(
            out,
            "<marker id=\"arrow-{tone}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
             markerUnits=\"userSpaceOnUse\" markerWidth=\"11\" markerHeight=\"11\" \
             orient=\"auto-start-reverse\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
            tone.css()
        );
    }
    out.push_str("</defs>\n");

    // Agents first, edges after, so that edges and their labels are drawn on top.
    for (agent, place) in agents.iter().zip(&places) {
        let name = agent.unwrap_or("(not named)");
        let shown: String = if name.chars().count() > NAME_MAX {
            let mut cut: String = name.chars().take(NAME_MAX - 1).collect();
            cut.push('…');
            cut
        } else {
            name.to_owned()
        };
        let _ = writeln!(
            out,
            "<g class=\"agent{}\"><title>{}</title>\
             <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{NODE_HEIGHT:.1}\" rx=\"8\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            if agent.is_none() { " unnamed" } else { "" },
            escape(name),
            place.x - place.width / 2.0,
            row - NODE_HEIGHT / 2.0,
            place.width,
            place.x,
            row + 5.0,
            escape(&shown),
        );
    }
    for (i, (step, shape)) in steps.iter().zip(&shapes).enumerate() {
        let tone = Tone::of(step.step.outcome);
        let path = shape.path(row);
        let contract = format!("{}. {}", i + 1, step.step.contract);
        let mut outcome = step.step.outcome.as_str().to_owned();
        if step.step.count > 1 {
            let _ = write!(outcome, " ×{}", step.step.count);
        }
        let _ = writeln!(
            out,
            "<g class=\"edge {tone}\" data-step=\"{i}\" data-outcome=\"{}\" tabindex=\"0\" \
             role=\"button\" aria-label=\"step {}: {}, {}, {}\">\
             <path class=\"line\" d=\"{path}\" marker-end=\"url(#arrow-{tone})\"/>\
             <path class=\"hit\" d=\"{path}\"/>\
             <text class=\"label\" x=\"{x:.1}\" y=\"{y:.1}\">\
             <tspan x=\"{x:.1}\" dy=\"0\">{}</tspan>\
             <tspan class=\"outcome\" x=\"{x:.1}\" dy=\"16\">{}</tspan></text></g>",
            step.step.outcome,
            i + 1,
            escape(&super::name_edge(&step.step)),
            escape(&step.step.contract),
            step.step.outcome,
            escape(&contract),
            escape(&outcome),
            x = shape.label_x,
            y = row + shape.label_y - 5.0,
        );
    }
    out.push_str("</svg>\n");
}

/// An edge's curve, relative to the row's centre line: a quadratic from `start` to `end`
/// bent through `control` (or, for a step from an agent to itself, a cubic loop above it),
/// and where its label sits.
struct Shape {
    start: (f64, f64),
    control: (f64, f64),
    end: (f64, f64),
    /// A loop's second control point.
    control2: Option<(f64, f64)>,
    label_x: f64,
    label_y: f64,
}

impl Shape {
    /// The `n`th edge (from 0) from column `a` to column `b`: the first between neighbours
    /// straight from side to side, further ones and longer ones bent above the row (forward)
    /// or below it (backward).
    fn of(places: &[Place], a: usize, b: usize, n: usize) -> Shape {
        let (pa, pb) = (&places[a], &places[b]);
        let half = NODE_HEIGHT / 2.0;
        if a == b {
            let lift = 56.0 + 40.0 * n as f64;
            let start = (pa.x - pa.width / 4.0, -half);
            let end = (pa.x + pa.width / 4.0, -half);
            return Shape {
                start,
                control: (pa.x - pa.width / 2.0, -half - lift),
                control2: Some((pa.x + pa.width / 2.0, -half - lift)),
                end,
                label_x: pa.x,
                label_y: -half - 0.75 * lift,
            };
        }
        let forward = a < b;
        let span = a.abs_diff(b);
        if forward && n == 0 && span == 1 {
            let start = (pa.x + pa.width / 2.0, 0.0);
            let end = (pb.x - pb.width / 2.0, 0.0);
            let middle = ((start.0 + end.0) / 2.0, 0.0);
            return Shape {
                start,
                control: middle,
                control2: None,
                end,
                label_x: middle.0,
                label_y: 0.0,
            };
        }
        let (side, bend) = if forward {
            (-half, -BEND * (n + span - 1 + usize::from(span > 1)) as f64)
        } else {
            (half, BEND * (n + span) as f64)
        };
        let start = (
            pa.x + pa.width / 4.0 * if forward { 1.0 } else { -1.0 },
            side,
        );
        let end = (
            pb.x - pb.width / 4.0 * if forward { 1.0 } else { -1.0 },
            side,
        );
        let middle_x = (start.0 + end.0) / 2.0;
        Shape {
            start,
            control: (middle_x, side + 2.0 * bend),
            control2: None,
            end,
            label_x: middle_x,
            label_y: side + bend,
        }
    }

    /// The SVG path, the row's centre line at `row`.
    fn path(&self, row: f64) -> String {
        let y = |v: f64| v + row;
        match self.control2 {
            Some(control2) => format!(
                "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                self.start.0,
                y(self.start.1),
                self.control.0,
                y(self.control.1),
                control2.0,
                y(control2.1),
                self.end.0,
                y(self.end.1)
            ),
            None => format!(
                "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
                self.start.0,
                y(self.start.1),
                self.control.0,
                y(self.control.1),
                self.end.0,
                y(self.end.1)
            ),
        }
    }
}

/// JSON for inside a `<script>` element: `<`, `>` and `&` (which only strings hold) as
/// `\u` escapes, so that no `</script>` or `<!--` can end or change the element; U+2028 and
/// U+2029 too, for older readers that take JSON for JavaScript.
fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}
