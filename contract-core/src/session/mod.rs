//! One session's journey across the ledgers that recorded it: which agent handed what to
//! whom, in which order, what arrived, what went missing and why, and what each inbox made of
//! it; never a value of a payload.
//!
//! Each agent's inbox may keep its own ledger, so one session is recorded in pieces. A
//! [`SessionView`] puts the pieces together from the declared edges alone: a step whose
//! `handoffFrom` is the `handoffTo` of another step comes after it, and the steps of one ledger
//! keep that ledger's own sequence. Clocks are never compared across ledgers, and two sessions
//! are never joined, even when they share a context id. An attempt above the first is an
//! explicit retry only when it names the run it retries (`retryOf`); without that it is shown
//! as related, and a diagnostic says so.
//!
//! The view is written in four forms: [`json`] (for scripts), [`text`] (for a terminal),
//! [`mermaid`] (a `flowchart LR` for a README or a pull request) and [`html`] (one
//! self-contained page: the graph as inline SVG, and a panel that shows a step's fields and
//! problems when its edge is clicked). Each edge is coloured by its outcome's [`Tone`].
//!
//! With feature `sqlite` or `postgres`, `Ledgers` opens the agents' ledgers for reading
//! only, each named as a user names it (`LedgerAddress`: `sqlite:PATH`, a `.sqlite` or `.db`
//! path, a `postgres://` URL and a schema), and gathers one session's steps from all of them,
//! or the sessions they hold ([`sessions_text`], [`sessions_json`]).
//!
//! ```
//! use contract_core::inbox::{Outcome, Step};
//! use contract_core::session::{self, Relation, SessionView};
//! use std::collections::BTreeMap;
//! use std::time::SystemTime;
//!
//! // A step as a ledger gives it: names and field names only, never a value.
//! let step = |seq: u64, from: &str, to: &str, handoff: &str| Step {
//!     seq,
//!     session: Some("sess-42".into()),
//!     workflow: Some("support-refund".into()),
//!     from: Some(from.into()),
//!     to: Some(to.into()),
//!     attempt: Some(1),
//!     retry_of: None,
//!     contract: "refund-request/v2".into(),
//!     context_id: Some("ctx-1".into()),
//!     handoff_id: Some(handoff.into()),
//!     outcome: Outcome::Applied,
//!     reason: None,
//!     received_fields: vec!["category".into(), "orderRef".into()],
//!     missing_fields: vec![],
//!     sender_fields: None,
//!     causes: BTreeMap::new(),
//!     problems: vec![],
//!     spent: None,
//!     count: 1,
//!     first_seen: SystemTime::UNIX_EPOCH,
//!     last_seen: SystemTime::UNIX_EPOCH,
//! };
//! let specialist = vec![step(7, "triage-agent", "refund-specialist", "h-1")];
//! let escalation = vec![step(1, "refund-specialist", "escalation-agent", "h-2")];
//!
//! // The escalation agent's ledger comes first, by label and by order given; its step still
//! // comes second, after the step that reached the specialist.
//! let view = SessionView::from_ledgers(
//!     "sess-42",
//!     [("escalation", escalation), ("specialist", specialist)],
//! );
//! let order: Vec<_> = view.steps().iter().map(|s| s.step.handoff_id.as_deref()).collect();
//! assert_eq!(order, [Some("h-1"), Some("h-2")]);
//! assert_eq!(view.steps()[0].relation, Relation::First);
//! assert!(view.diagnostics().is_empty());
//! assert!(session::text(&view).contains("triage-agent\n"));
//! ```

#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod gather;
mod html;
mod json;
mod list;
mod mermaid;
mod order;
mod text;

use core::fmt;

use crate::inbox::{Outcome, Step};
use order::{name_edge, name_step, Diagnostics};

#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub use gather::{parse_since, GatherError, LedgerAddress, Ledgers, DEFAULT_SCHEMA};
pub use html::html;
pub use json::{json, STEP_KEYS};
pub use list::{sessions_json, sessions_text};
pub use mermaid::mermaid;
pub use text::text;

/// One session's journey, put together from the steps of one or more ledgers: the steps in
/// the order the declared edges and each ledger's sequence give, each with its ledger and
/// its relation to earlier attempts, and what could not be put together (diagnostics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionView {
    session: String,
    workflow: Option<String>,
    steps: Vec<SessionStep>,
    ledgers: Vec<(String, usize)>,
    diagnostics: Vec<String>,
}

/// One step of a [`SessionView`]: the step as its ledger recorded it, which ledger that was,
/// and how it relates to earlier attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionStep {
    /// The step as its ledger recorded it.
    pub step: Step,
    /// The label of the ledger it came from, as given to [`SessionView::from_ledgers`].
    pub ledger: String,
    /// Whether it is a first attempt, an explicit retry or a related one.
    pub relation: Relation,
}

/// How a step relates to the attempts before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    /// A first attempt (attempt 1, or none given), naming no run it retries.
    First,
    /// A retry that names the run it retries (`retryOf`).
    Explicit,
    /// An attempt above the first that names no run it retries: related to the earlier
    /// attempts, but not linked to one of them.
    Related,
}

impl Relation {
    /// The relation's name in the session view: `first`, `explicit` or `related`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Relation::First => "first",
            Relation::Explicit => "explicit",
            Relation::Related => "related",
        }
    }

    fn of(step: &Step) -> Relation {
        if step.retry_of.is_some() {
            Relation::Explicit
        } else if step.attempt.is_some_and(|attempt| attempt > 1) {
            Relation::Related
        } else {
            Relation::First
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The colour of a step's edge in the [`mermaid`] and [`html`] forms.
///
/// - **green**: accepted (`applied`, `duplicate`);
/// - **grey**: not accepted yet, and the same envelope may still be (`not-ready`: its sender
///   has not marked it ready; `artifact-unavailable`: an artifact it names is not there yet);
/// - **red**: refused for what it is or what it did, so that sending it again as it is would
///   not help (`refused`, `conflict`, `artifact-regressed`, `handler-failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    /// Accepted.
    Green,
    /// Not accepted yet.
    Grey,
    /// Refused.
    Red,
}

impl Tone {
    /// The tone of an outcome.
    #[must_use]
    pub const fn of(outcome: Outcome) -> Tone {
        match outcome {
            Outcome::Applied | Outcome::Duplicate => Tone::Green,
            Outcome::NotReady | Outcome::ArtifactUnavailable => Tone::Grey,
            Outcome::Refused
            | Outcome::Conflict
            | Outcome::ArtifactRegressed
            | Outcome::HandlerFailed => Tone::Red,
        }
    }

    /// The tone's name: `green`, `grey` or `red`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Tone::Green => "green",
            Tone::Grey => "grey",
            Tone::Red => "red",
        }
    }

    /// The tone as a CSS colour.
    pub(crate) const fn css(self) -> &'static str {
        match self {
            Tone::Green => "#2e7d32",
            Tone::Grey => "#8a8f98",
            Tone::Red => "#c62828",
        }
    }
}

impl fmt::Display for Tone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A form of the session view, for a caller that lets its user choose one
/// (`--format text|json|mermaid|html`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// [`text`].
    Text,
    /// [`json`].
    Json,
    /// [`mermaid`].
    Mermaid,
    /// [`html`].
    Html,
}

impl Format {
    /// Every form, in the order a usage line lists them.
    pub const ALL: [Format; 4] = [Format::Text, Format::Json, Format::Mermaid, Format::Html];

    /// The form's name: `text`, `json`, `mermaid` or `html`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Mermaid => "mermaid",
            Format::Html => "html",
        }
    }

    /// The form named `name` ([`Format::as_str`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The view written in this form.
    #[must_use]
    pub fn render(self, view: &SessionView) -> String {
        match self {
            Format::Text => text(view),
            Format::Json => json(view),
            Format::Mermaid => mermaid(view),
            Format::Html => html(view),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl SessionView {
    /// The journey of session `session` from the steps of the ledgers given, each under a
    /// label of the caller's choosing (the label is shown beside each step, and breaks ties).
    ///
    /// Only the steps of that session are kept (a step's session is its journey's
    /// `sessionId`, else its context id). They are ordered so that every step comes after
    /// the steps that reach the agent it hands off from (a step whose `handoffFrom` is the
    /// `handoffTo` of another comes after it, unless that one is a duplicate or a conflict,
    /// which ran nothing), after the steps of the run it names in `retryOf`, and after the
    /// steps before it in its own ledger's sequence. Steps those rules leave unordered are
    /// taken by ledger label, then sequence. Where the rules contradict each other (the
    /// edges go round a loop of agents, or against a ledger's sequence), the step that can go
    /// next in its own ledger is taken, preferring one whose agent has been reached, and a
    /// diagnostic says where (once per loop, naming its agents). A step from an agent to
    /// itself waits for the steps that reached that agent, and no other step waits for it.
    ///
    /// Diagnostics are also given for an attempt above the first that names no `retryOf`, a
    /// `retryOf` that names no step of the session, a step that names no `handoffFrom` or
    /// `handoffTo`, a step that hands off from an agent no earlier step reached (a gap in the
    /// chain: a ledger not listed, or a handoff not recorded), steps that name different
    /// workflows, and a ledger with no step of the session.
    #[must_use]
    pub fn from_ledgers<L, S, I>(session: &str, ledgers: L) -> SessionView
    where
        L: IntoIterator<Item = (S, I)>,
        S: Into<String>,
        I: IntoIterator<Item = Step>,
    {
        let mut diagnostics = Diagnostics::default();
        let mut labelled = Vec::new();
        let mut ledger_counts = Vec::new();
        for (label, steps) in ledgers {
            let label: String = label.into();
            let mut mine: Vec<Step> = steps
                .into_iter()
                .filter(|step| step.session.as_deref() == Some(session))
                .collect();
            // Stable: steps with one sequence number keep the order given.
            mine.sort_by_key(|step| step.seq);
            if mine.is_empty() {
                diagnostics.push(format!("ledger {label} has no step of session {session}"));
            }
            if ledger_counts.iter().any(|(l, _)| *l == label) {
                diagnostics.push(format!(
                    "two ledgers are labelled {label}: their steps are told apart by the order they were given in"
                ));
            }
            ledger_counts.push((label.clone(), mine.len()));
            labelled.push((label, mine));
        }

        let ordered = order::order(&labelled, &mut diagnostics);
        let mut steps = Vec::with_capacity(ordered.len());
        let mut ledgers_left: Vec<Vec<Option<Step>>> = labelled
            .into_iter()
            .map(|(_, steps)| steps.into_iter().map(Some).collect())
            .collect();
        for (ledger, position) in ordered {
            if let Some(step) = ledgers_left
                .get_mut(ledger)
                .and_then(|steps| steps.get_mut(position))
                .and_then(Option::take)
            {
                steps.push(SessionStep {
                    relation: Relation::of(&step),
                    ledger: ledger_counts
                        .get(ledger)
                        .map(|(label, _)| label.clone())
                        .unwrap_or_default(),
                    step,
                });
            }
        }

        describe(&steps, &mut diagnostics);
        let workflow = steps.iter().find_map(|s| s.step.workflow.clone());
        SessionView {
            session: session.to_owned(),
            workflow,
            steps,
            ledgers: ledger_counts,
            diagnostics: diagnostics.into_vec(),
        }
    }

    /// The session's id.
    #[must_use]
    pub fn session(&self) -> &str {
        &self.session
    }

    /// The workflow of the first step that names one.
    #[must_use]
    pub fn workflow(&self) -> Option<&str> {
        self.workflow.as_deref()
    }

    /// The steps, in the journey's order.
    #[must_use]
    pub fn steps(&self) -> &[SessionStep] {
        &self.steps
    }

    /// The ledgers given, each with its label and how many steps of the session it held, in
    /// the order given.
    #[must_use]
    pub fn ledgers(&self) -> &[(String, usize)] {
        &self.ledgers
    }

    /// What could not be put together, or only with a caveat, one sentence each.
    #[must_use]
    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    /// The agents of the journey, in the order the steps first name them (the agent handing
    /// off before the agent taking over); `None` stands for a step that names no agent on
    /// that side.
    #[must_use]
    pub fn agents(&self) -> Vec<Option<&str>> {
        let mut agents: Vec<Option<&str>> = Vec::new();
        for step in &self.steps {
            for agent in [step.step.from.as_deref(), step.step.to.as_deref()] {
                if !agents.contains(&agent) {
                    agents.push(agent);
                }
            }
        }
        agents
    }
}

/// The diagnostics of the steps in their order: retries, unnamed agents, gaps, workflows.
fn describe(steps: &[SessionStep], diagnostics: &mut Diagnostics) {
    let handoffs: std::collections::HashSet<&str> = steps
        .iter()
        .filter_map(|s| s.step.handoff_id.as_deref())
        .collect();
    let mut reached: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut start: Option<&str> = None;
    let mut workflow: Option<&str> = None;
    for SessionStep { step, relation, .. } in steps {
        let attempt = step
            .attempt
            .map_or_else(String::new, |a| format!("attempt {a} of "));
        match relation {
            Relation::Related => diagnostics.push(format!(
                "{attempt}{} names no retryOf: shown as related, not an explicit retry",
                name_step(step)
            )),
            Relation::Explicit => {
                if let Some(retried) = step.retry_of.as_deref() {
                    if !handoffs.contains(retried) {
                        diagnostics.push(format!(
                            "{attempt}{} retries {retried}, which no step of this session shows",
                            name_step(step)
                        ));
                    }
                    if step.attempt.is_none_or(|a| a <= 1) {
                        diagnostics.push(format!(
                            "{} names retryOf {retried} but no attempt above 1: shown as an explicit retry",
                            name_step(step)
                        ));
                    }
                }
            }
            Relation::First => {}
        }
        match (step.from.as_deref(), step.to.as_deref()) {
            (None, None) => diagnostics.push(format!(
                "{} names neither handoffFrom nor handoffTo: placed by its ledger's sequence alone",
                name_step(step)
            )),
            (None, Some(_)) => diagnostics.push(format!(
                "{} names no handoffFrom: its place is by its ledger's sequence alone",
                name_step(step)
            )),
            (Some(_), None) => diagnostics.push(format!(
                "{} names no handoffTo: no step can follow from it",
                name_step(step)
            )),
            (Some(_), Some(_)) => {}
        }
        if let Some(from) = step.from.as_deref() {
            match start {
                None => start = Some(from),
                Some(start) if start == from || reached.contains(from) => {}
                Some(_) => diagnostics.push(format!(
                    "{} hands off from {from}, which no earlier step reaches: a gap in the chain (a ledger not listed, or a handoff not recorded)",
                    name_step(step)
                )),
            }
        }
        if let Some(to) = step.to.as_deref() {
            reached.insert(to);
        }
        if let Some(named) = step.workflow.as_deref() {
            match workflow {
                None => workflow = Some(named),
                Some(first) if first == named => {}
                Some(first) => diagnostics.push(format!(
                    "{} names workflow {named}, where the session's first step names {first}",
                    name_step(step)
                )),
            }
        }
    }
}
