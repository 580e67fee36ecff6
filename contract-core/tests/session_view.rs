//! The session view (`contract_core::session`): one session's journey put together from the
//! steps of two ledgers (the refund specialist's and the escalation agent's), ordered by the
//! declared edges and each ledger's sequence, never by clocks, and written as JSON, text,
//! Mermaid and one HTML page, which a real browser (headless Chromium) renders and runs.
//!
//! The refund journey: `triage-agent` → `refund-specialist` → `escalation-agent`. The
//! handoff to the specialist lost `orderRef` on the way (refused, twice: the second attempt
//! names no `retryOf`, so it is only related), the third attempt names the one it retries
//! and is applied; the specialist hands off to the escalation agent (applied, then once more
//! before it is ready). A parallel session shares the context id and handoff ids, and
//! interleaves its steps with this one's in both ledgers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use contract_core::inbox::{Outcome, Step, StepProblem};
use contract_core::session::{self, Format, Relation, SessionView, Tone};
use serde_json::Value;

const SESSION: &str = "sess-support-042";
const PARALLEL: &str = "sess-support-043";

/// A time in 2031: the year appears in no form of the view, which shows no clock.
fn at(seconds: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_924_992_000 + seconds)
}

/// A step of `session` from `from` to `to`, with everything else plain.
fn step(session: &str, seq: u64, from: &str, to: &str, handoff: &str) -> Step {
    Step {
        seq,
        session: Some(session.to_owned()),
        workflow: Some("support-refund".to_owned()),
        from: Some(from.to_owned()),
        to: Some(to.to_owned()),
        attempt: Some(1),
        retry_of: None,
        contract: "refund-request/v2".to_owned(),
        context_id: Some("ctx-7".to_owned()),
        handoff_id: Some(handoff.to_owned()),
        outcome: Outcome::Applied,
        reason: None,
        received_fields: vec!["category".to_owned(), "orderRef".to_owned()],
        missing_fields: vec![],
        sender_fields: None,
        causes: BTreeMap::new(),
        problems: vec![],
        spent: None,
        count: 1,
        first_seen: at(seq),
        last_seen: at(seq),
    }
}

/// `orderRef` written by the triage agent, not arrived: refused.
fn lost_order_ref(mut step: Step) -> Step {
    step.outcome = Outcome::Refused;
    step.reason = Some("rejected".to_owned());
    step.received_fields = vec!["category".to_owned()];
    step.missing_fields = vec!["orderRef".to_owned()];
    step.sender_fields = Some(vec!["category".to_owned(), "orderRef".to_owned()]);
    step.causes = BTreeMap::from([("orderRef".to_owned(), "dropped-on-the-way".to_owned())]);
    step.problems = vec![StepProblem {
        pointer: "/payload/orderRef".to_owned(),
        kind: "missing_field".to_owned(),
    }];
    step
}

/// The refund specialist's ledger: what its inbox was offered by the triage agent, this
/// session's steps and the parallel one's, interleaved.
fn specialist_ledger() -> Vec<Step> {
    let first = lost_order_ref(step(
        SESSION,
        11,
        "triage-agent",
        "refund-specialist",
        "h-1",
    ));
    let mut related = lost_order_ref(step(
        SESSION,
        12,
        "triage-agent",
        "refund-specialist",
        "h-2",
    ));
    related.attempt = Some(2);
    related.count = 2;
    let mut explicit = step(SESSION, 14, "triage-agent", "refund-specialist", "h-3");
    explicit.attempt = Some(3);
    explicit.retry_of = Some("h-2".to_owned());
    // The parallel session: the same context and handoff ids, between this one's steps.
    let mut parallel = step(PARALLEL, 13, "triage-agent", "refund-specialist", "h-1");
    parallel.contract = "refund-request/v1".to_owned();
    // Given out of sequence: the view sorts each ledger by its own sequence.
    vec![explicit, parallel, related, first]
}

/// The escalation agent's ledger: what the specialist handed it. Its clock is behind the
/// specialist's: its steps carry earlier times than the steps that lead to them.
fn escalation_ledger() -> Vec<Step> {
    let mut escalated = step(SESSION, 4, "refund-specialist", "escalation-agent", "h-4");
    escalated.contract = "refund-escalation/v1".to_owned();
    escalated.received_fields = vec!["category".to_owned(), "summary".to_owned()];
    escalated.first_seen = at(1);
    escalated.last_seen = at(1);
    let mut waiting = step(SESSION, 5, "refund-specialist", "escalation-agent", "h-5");
    waiting.contract = "refund-escalation/v1".to_owned();
    waiting.outcome = Outcome::NotReady;
    waiting.reason = Some("not_ready".to_owned());
    waiting.received_fields = vec!["category".to_owned(), "summary".to_owned()];
    waiting.first_seen = at(2);
    waiting.last_seen = at(2);
    let mut parallel = step(PARALLEL, 3, "refund-specialist", "escalation-agent", "h-4");
    parallel.contract = "refund-escalation/v1".to_owned();
    parallel.outcome = Outcome::HandlerFailed;
    vec![waiting, parallel, escalated]
}

/// The view of the session, the escalation agent's ledger listed first (its label sorts
/// first too), and a third ledger with no step of the session.
fn view() -> SessionView {
    let billing = vec![step(
        PARALLEL,
        1,
        "refund-specialist",
        "billing-agent",
        "h-9",
    )];
    SessionView::from_ledgers(
        SESSION,
        [
            ("escalation", escalation_ledger()),
            ("specialist", specialist_ledger()),
            ("billing", billing),
        ],
    )
}

fn handoffs(view: &SessionView) -> Vec<&str> {
    view.steps()
        .iter()
        .map(|s| s.step.handoff_id.as_deref().unwrap_or("?"))
        .collect()
}

#[test]
fn steps_follow_the_declared_edges_and_each_ledgers_sequence_not_the_clocks() {
    let view = view();
    // The escalation agent's steps carry the earliest times and the first label; they come
    // after the steps that reach the specialist, and keep their own sequence.
    assert_eq!(handoffs(&view), ["h-1", "h-2", "h-3", "h-4", "h-5"]);
    let clocks: Vec<SystemTime> = view.steps().iter().map(|s| s.step.first_seen).collect();
    assert!(clocks[3] < clocks[0], "the later step has the earlier time");
    let ledgers: Vec<&str> = view.steps().iter().map(|s| s.ledger.as_str()).collect();
    assert_eq!(
        ledgers,
        [
            "specialist",
            "specialist",
            "specialist",
            "escalation",
            "escalation"
        ]
    );

    // The order of the ledgers given changes nothing.
    let reversed = SessionView::from_ledgers(
        SESSION,
        [
            ("specialist", specialist_ledger()),
            ("escalation", escalation_ledger()),
        ],
    );
    assert_eq!(handoffs(&reversed), handoffs(&view));
}

#[test]
fn two_sessions_are_never_mixed_even_with_one_context_and_the_same_handoff_ids() {
    let view = view();
    assert!(view
        .steps()
        .iter()
        .all(|s| s.step.session.as_deref() == Some(SESSION)));
    assert_eq!(view.steps().len(), 5);

    let parallel = SessionView::from_ledgers(
        PARALLEL,
        [
            ("specialist", specialist_ledger()),
            ("escalation", escalation_ledger()),
        ],
    );
    assert_eq!(handoffs(&parallel), ["h-1", "h-4"]);
    assert_eq!(parallel.steps()[0].step.contract, "refund-request/v1");
    assert_eq!(parallel.steps()[1].step.outcome, Outcome::HandlerFailed);
    assert_eq!(parallel.session(), PARALLEL);
}

#[test]
fn retries_are_explicit_only_with_retry_of_and_related_ones_say_so() {
    let view = view();
    let relations: Vec<Relation> = view.steps().iter().map(|s| s.relation).collect();
    assert_eq!(
        relations,
        [
            Relation::First,
            Relation::Related,
            Relation::Explicit,
            Relation::First,
            Relation::First
        ]
    );
    assert_eq!(
        view.diagnostics(),
        [
            "ledger billing has no step of session sess-support-042",
            "attempt 2 of handoff h-2 (triage-agent → refund-specialist) names no retryOf: \
             shown as related, not an explicit retry",
        ]
    );
}

#[test]
fn a_step_from_an_agent_no_earlier_step_reaches_is_a_gap() {
    // The escalation agent's ledger is not listed: nothing connects the two steps, so they
    // are taken by ledger label.
    let triage = vec![step(SESSION, 1, "triage-agent", "refund-specialist", "h-1")];
    let closer = vec![step(SESSION, 1, "escalation-agent", "closer-agent", "h-7")];
    let view = SessionView::from_ledgers(SESSION, [("ticketing", closer), ("specialist", triage)]);
    assert_eq!(handoffs(&view), ["h-1", "h-7"]);
    assert_eq!(
        view.diagnostics(),
        [
            "handoff h-7 (escalation-agent → closer-agent) hands off from escalation-agent, which \
          no earlier step reaches: a gap in the chain (a ledger not listed, or a handoff not \
          recorded)"
        ]
    );
}

#[test]
fn an_explicit_retry_comes_after_the_run_it_names_even_in_another_ledger() {
    // The retry went to a second specialist: only its retryOf orders it after the first.
    let mut retry = step(SESSION, 1, "triage-agent", "refund-specialist-2", "h-2");
    retry.attempt = Some(2);
    retry.retry_of = Some("h-1".to_owned());
    let first = lost_order_ref(step(SESSION, 9, "triage-agent", "refund-specialist", "h-1"));
    let view = SessionView::from_ledgers(SESSION, [("a", vec![retry]), ("b", vec![first])]);
    assert_eq!(handoffs(&view), ["h-1", "h-2"]);
    assert_eq!(view.steps()[1].relation, Relation::Explicit);
    assert!(view.diagnostics().is_empty(), "{:?}", view.diagnostics());

    // A retryOf that names no step of the session is said.
    let mut orphan = step(SESSION, 1, "triage-agent", "refund-specialist", "h-2");
    orphan.attempt = Some(2);
    orphan.retry_of = Some("h-0".to_owned());
    let view = SessionView::from_ledgers(SESSION, [("a", vec![orphan])]);
    assert_eq!(
        view.diagnostics(),
        [
            "attempt 2 of handoff h-2 (triage-agent → refund-specialist) retries h-0, which no \
          step of this session shows"
        ]
    );
}

#[test]
fn a_loop_is_ordered_by_each_ledgers_sequence_and_said_to_be_ambiguous() {
    // triage → specialist, specialist → triage (asking back), triage → specialist again.
    let specialist = vec![
        step(SESSION, 1, "triage-agent", "refund-specialist", "h-1"),
        step(SESSION, 2, "triage-agent", "refund-specialist", "h-3"),
    ];
    let triage = vec![step(SESSION, 1, "refund-specialist", "triage-agent", "h-2")];
    let view = SessionView::from_ledgers(
        SESSION,
        [
            ("triage", triage.clone()),
            ("specialist", specialist.clone()),
        ],
    );
    assert_eq!(handoffs(&view), ["h-1", "h-2", "h-3"]);
    assert_eq!(
        view.diagnostics(),
        ["the declared edges go round a loop (triage-agent, refund-specialist): there steps are \
          placed by each ledger's sequence, then by ledger label, which may not be the order \
          they happened in"]
    );
    // Deterministic: the same steps give the same view, whatever order the ledgers come in.
    let again =
        SessionView::from_ledgers(SESSION, [("specialist", specialist), ("triage", triage)]);
    assert_eq!(handoffs(&again), handoffs(&view));
    assert_eq!(again.diagnostics(), view.diagnostics());
}

#[test]
fn one_ledgers_sequence_is_the_order_even_against_the_edges() {
    // One shared ledger saw the specialist hand off before it was handed to: its sequence is
    // one clock, so it stands, and nothing was chosen.
    let onward = step(SESSION, 1, "refund-specialist", "escalation-agent", "h-2");
    let first = step(SESSION, 2, "triage-agent", "refund-specialist", "h-1");
    let view = SessionView::from_ledgers(SESSION, [("shared", vec![first, onward])]);
    assert_eq!(handoffs(&view), ["h-2", "h-1"]);
    assert_eq!(
        view.diagnostics(),
        [
            "handoff h-1 (triage-agent → refund-specialist) hands off from triage-agent, which no \
          earlier step reaches: a gap in the chain (a ledger not listed, or a handoff not \
          recorded)"
        ]
    );

    // Across two ledgers the same contradiction leaves a choice, and says so.
    let onward = step(SESSION, 1, "refund-specialist", "escalation-agent", "h-2");
    let first = step(SESSION, 2, "triage-agent", "refund-specialist", "h-1");
    let billing = step(SESSION, 1, "refund-specialist", "billing-agent", "h-3");
    let view = SessionView::from_ledgers(
        SESSION,
        [("shared", vec![first, onward]), ("billing", vec![billing])],
    );
    assert_eq!(handoffs(&view), ["h-3", "h-2", "h-1"]);
    assert!(
        view.diagnostics()[0].starts_with(
            "the declared edges and the ledgers' sequences contradict each other at handoff h-3"
        ),
        "{:?}",
        view.diagnostics()
    );
}

#[test]
fn a_step_from_an_agent_to_itself_waits_for_no_one_but_its_arrivals() {
    let specialist = vec![
        step(SESSION, 1, "triage-agent", "refund-specialist", "h-1"),
        step(SESSION, 2, "refund-specialist", "refund-specialist", "h-2"),
    ];
    let escalation = vec![step(
        SESSION,
        1,
        "refund-specialist",
        "escalation-agent",
        "h-3",
    )];
    let view = SessionView::from_ledgers(
        SESSION,
        [("escalation", escalation), ("specialist", specialist)],
    );
    // h-3 waits for h-1 (which reached the specialist), not for the specialist's note to
    // itself; between h-2 and h-3 the ledger label decides.
    assert_eq!(handoffs(&view), ["h-1", "h-3", "h-2"]);
    assert!(view.diagnostics().is_empty(), "{:?}", view.diagnostics());
}

#[test]
fn a_duplicate_reaches_no_one_so_it_may_come_after_what_followed_the_first_delivery() {
    // One shared ledger: applied, handed on, then the first handoff delivered again.
    let applied = step(SESSION, 1, "triage-agent", "refund-specialist", "h-1");
    let onward = step(SESSION, 2, "refund-specialist", "escalation-agent", "h-2");
    let mut again = step(SESSION, 3, "triage-agent", "refund-specialist", "h-1");
    again.outcome = Outcome::Duplicate;
    let view = SessionView::from_ledgers(SESSION, [("shared", vec![applied, onward, again])]);
    assert_eq!(handoffs(&view), ["h-1", "h-2", "h-1"]);
    assert!(view.diagnostics().is_empty(), "{:?}", view.diagnostics());
}

#[test]
fn steps_that_name_no_agent_are_placed_and_said() {
    let mut nameless = step(SESSION, 1, "x", "y", "h-1");
    nameless.from = None;
    nameless.to = None;
    nameless.handoff_id = None;
    let view = SessionView::from_ledgers(SESSION, [("a", vec![nameless])]);
    assert_eq!(view.steps().len(), 1);
    assert_eq!(
        view.diagnostics(),
        [
            "a handoff with no handoffId (? → ?) names neither handoffFrom nor handoffTo: placed \
          by its ledger's sequence alone"
        ]
    );
    assert_eq!(view.agents(), [None]);
    for format in Format::ALL {
        assert!(!format.render(&view).is_empty());
    }
    // No step at all, no ledger at all: still every form.
    let empty = SessionView::from_ledgers(SESSION, Vec::<(&str, Vec<Step>)>::new());
    for format in Format::ALL {
        assert!(!format.render(&empty).is_empty());
    }
    assert!(session::text(&empty).contains("no steps"));
}

#[test]
fn json_has_exactly_the_keys_scripts_rely_on() {
    let json: Value = serde_json::from_str(&session::json(&view())).expect("the view is JSON");
    let keys = |value: &Value| -> BTreeSet<String> {
        value
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(
        keys(&json),
        BTreeSet::from(["session", "workflow", "steps", "diagnostics"].map(String::from))
    );
    assert_eq!(json["session"], SESSION);
    assert_eq!(json["workflow"], "support-refund");
    let steps = json["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 5);
    let step_keys = BTreeSet::from(session::STEP_KEYS.map(String::from));
    for step in steps {
        assert_eq!(keys(step), step_keys);
        for problem in step["problems"].as_array().expect("problems") {
            assert_eq!(
                keys(problem),
                BTreeSet::from(["pointer", "kind"].map(String::from))
            );
        }
    }
    assert_eq!(
        steps[0],
        serde_json::json!({
            "from": "triage-agent",
            "to": "refund-specialist",
            "contract": "refund-request/v2",
            "contextId": "ctx-7",
            "handoffId": "h-1",
            "attempt": 1,
            "retryOf": null,
            "relation": "first",
            "outcome": "refused",
            "receivedFields": ["category"],
            "missingFields": ["orderRef"],
            "causes": {"orderRef": "dropped-on-the-way"},
            "problems": [{"pointer": "/payload/orderRef", "kind": "missing_field"}],
            "spent": null,
            "ledger": "specialist",
            "count": 1
        })
    );
    let column = |key: &str| -> Vec<Value> { steps.iter().map(|s| s[key].clone()).collect() };
    assert_eq!(
        column("relation"),
        ["first", "related", "explicit", "first", "first"].map(Value::from)
    );
    assert_eq!(
        column("outcome"),
        ["refused", "refused", "applied", "applied", "not-ready"].map(Value::from)
    );
    assert_eq!(
        column("retryOf"),
        [
            Value::Null,
            Value::Null,
            Value::from("h-2"),
            Value::Null,
            Value::Null
        ]
    );
    assert_eq!(column("count")[1], 2);
    assert_eq!(
        json["diagnostics"],
        serde_json::to_value(view().diagnostics()).expect("strings")
    );
    // `Serialize` writes the same as the JSON form.
    assert_eq!(
        serde_json::to_value(view()).expect("the view serializes"),
        json
    );
}

#[test]
fn every_outcome_has_its_name_and_its_tone() {
    let all = [
        (Outcome::Applied, "applied", Tone::Green),
        (Outcome::Duplicate, "duplicate", Tone::Green),
        (Outcome::Conflict, "conflict", Tone::Red),
        (Outcome::Refused, "refused", Tone::Red),
        (Outcome::NotReady, "not-ready", Tone::Grey),
        (
            Outcome::ArtifactUnavailable,
            "artifact-unavailable",
            Tone::Grey,
        ),
        (Outcome::ArtifactRegressed, "artifact-regressed", Tone::Red),
        (Outcome::HandlerFailed, "handler-failed", Tone::Red),
    ];
    for (outcome, name, tone) in all {
        let mut one = step(SESSION, 1, "a", "b", "h-1");
        one.outcome = outcome;
        let view = SessionView::from_ledgers(SESSION, [("l", vec![one])]);
        let json: Value = serde_json::from_str(&session::json(&view)).expect("JSON");
        assert_eq!(json["steps"][0]["outcome"], name);
        assert_eq!(Tone::of(outcome), tone);
        let html = session::html(&view);
        assert!(html.contains(&format!(
            "<g class=\"edge {tone}\" data-step=\"0\" data-outcome=\"{name}\""
        )));
    }
    for format in Format::ALL {
        assert_eq!(Format::from_name(format.as_str()), Some(format));
    }
    assert_eq!(Format::from_name("yaml"), None);
}

const TEXT: &str = "\
session: sess-support-042
workflow: support-refund

triage-agent
  handoff: triage-agent -> refund-specialist
    [1] refund-request/v2: refused
        handoff h-1 in context ctx-7, attempt 1 (ledger specialist #11)
        receivedFields: [category]
        orderRefPresent: false (dropped-on-the-way)
        problem: /payload/orderRef missing_field
    [2] refund-request/v2: refused
        handoff h-2 in context ctx-7, attempt 2, related (names no retryOf), seen 2 times (ledger specialist #12)
        receivedFields: [category]
        orderRefPresent: false (dropped-on-the-way)
        problem: /payload/orderRef missing_field
    [3] refund-request/v2: applied
        handoff h-3 in context ctx-7, attempt 3, retry of h-2 (ledger specialist #14)
        receivedFields: [category, orderRef]
      |
      v
refund-specialist
  handoff: refund-specialist -> escalation-agent
    [4] refund-escalation/v1: applied
        handoff h-4 in context ctx-7, attempt 1 (ledger escalation #4)
        receivedFields: [category, summary]
    [5] refund-escalation/v1: not-ready
        handoff h-5 in context ctx-7, attempt 1 (ledger escalation #5)
        receivedFields: [category, summary]
      |
      v
escalation-agent

5 steps: 2 applied, 1 not-ready, 2 refused
ledgers: escalation (2 steps), specialist (3 steps), billing (0 steps)

diagnostics:
  - ledger billing has no step of session sess-support-042
  - attempt 2 of handoff h-2 (triage-agent → refund-specialist) names no retryOf: shown as related, not an explicit retry
";

#[test]
fn text_shows_the_chain_of_agents_and_each_steps_presence_and_problems() {
    assert_eq!(session::text(&view()), TEXT);
}

const MERMAID: &str = "\
flowchart LR
    %% session sess-support-042, workflow support-refund
    n0_triage_agent[\"triage-agent\"]
    n1_refund_specialist[\"refund-specialist\"]
    n2_escalation_agent[\"escalation-agent\"]
    n0_triage_agent -->|\"1. refund-request/v2 · refused\"| n1_refund_specialist
    n0_triage_agent -->|\"2. refund-request/v2 · refused\"| n1_refund_specialist
    n0_triage_agent -->|\"3. refund-request/v2 · applied\"| n1_refund_specialist
    n1_refund_specialist -->|\"4. refund-escalation/v1 · applied\"| n2_escalation_agent
    n1_refund_specialist -.->|\"5. refund-escalation/v1 · not-ready\"| n2_escalation_agent
    linkStyle 2,3 stroke:#2e7d32,stroke-width:2px,color:#2e7d32
    linkStyle 4 stroke:#8a8f98,stroke-width:2px,color:#8a8f98
    linkStyle 0,1 stroke:#c62828,stroke-width:2px,color:#c62828
";

#[test]
fn mermaid_has_one_node_per_agent_and_one_coloured_edge_per_step() {
    assert_eq!(session::mermaid(&view()), MERMAID);
}

/// A view whose every name is hostile to HTML, Mermaid or a terminal.
fn hostile() -> SessionView {
    let mut evil = lost_order_ref(step(
        "sess \"42\" & <b>",
        1,
        "<script>alert(1)</script>",
        "agent \"quoted\" | #35; `tick` \u{1b}[31m",
        "h-<i>",
    ));
    evil.missing_fields = vec!["<img src=x onerror=alert(2)>".to_owned()];
    evil.causes = BTreeMap::from([(
        "<img src=x onerror=alert(2)>".to_owned(),
        "dropped-on-the-way".to_owned(),
    )]);
    evil.problems[0].pointer = "/payload/</script><script>alert(3)</script>".to_owned();
    evil.contract = "x</script>y/v1".to_owned();
    SessionView::from_ledgers("sess \"42\" & <b>", [("ledger <&>", vec![evil])])
}

#[test]
fn html_escapes_every_name_and_loads_nothing() {
    let html = session::html(&hostile());
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("<b>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("<title>session sess &quot;42&quot; &amp; &lt;b&gt;</title>"));
    // Two script elements (the data and the script), each ended once.
    assert_eq!(html.matches("<script").count(), 2);
    assert_eq!(html.matches("</script").count(), 2);
    let page = session::html(&view());
    // Nothing from anywhere else: no address, no link, no import; and a policy that forbids
    // any.
    for outside in [
        "http:", "https:", "://", "src=", "href=", "@import", "url(h", "<link",
    ] {
        assert!(!page.contains(outside), "{outside} in the page");
    }
    assert!(page.contains("content=\"default-src 'none'; "));
    assert_eq!(page.matches("<g class=\"edge ").count(), 5);
    assert_eq!(page.matches("<g class=\"edge red\"").count(), 2);
    assert_eq!(page.matches("<g class=\"edge green\"").count(), 2);
    assert_eq!(page.matches("<g class=\"edge grey\"").count(), 1);
    assert_eq!(page.matches("<g class=\"agent\"").count(), 3);
}

#[test]
fn mermaid_and_text_keep_hostile_names_in_their_place() {
    let view = hostile();
    let chart = session::mermaid(&view);
    for line in chart.lines().skip(1) {
        let line = line.trim_start();
        if let Some(id) = line.split(['[', ' ']).next() {
            if line.starts_with('n') {
                assert!(
                    id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{id}"
                );
            }
        }
        // Inside a label, no quote but the two that delimit it.
        if let Some((_, label)) = line.split_once("|\"") {
            assert_eq!(label.matches('"').count(), 1, "{line}");
        }
    }
    assert!(
        chart.contains("n0__script_alert_1___script_[\"#lt;script#gt;alert(1)#lt;/script#gt;\"]"),
        "{chart}"
    );
    assert!(
        chart.contains("#quot;quoted#quot; #124; #35;35; #96;tick#96; #27;[31m"),
        "{chart}"
    );
    assert!(!chart.contains('\u{1b}'));
    assert_eq!(chart.lines().count(), 6, "{chart}");

    let text = session::text(&view);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("\\u{1b}[31m"));
}

/// The words the forms write themselves, besides the steps' names: a value of a payload (or a
/// clock) would be a word outside both.
const OWN_WORDS: &[&str] = &[
    // text
    "session",
    "workflow",
    "handoff",
    "in",
    "context",
    "attempt",
    "related",
    "names",
    "no",
    "retryOf",
    "retry",
    "of",
    "seen",
    "times",
    "ledger",
    "receivedFields",
    "Present",
    "false",
    "problem",
    "steps",
    "step",
    "ledgers",
    "diagnostics",
    "v",
    "has",
    "shown",
    "as",
    "not",
    "an",
    "explicit",
    "first",
    "-",
    "--",
    // mermaid
    "flowchart",
    "LR",
    "linkStyle",
    "stroke",
    "stroke-width",
    "2e7d32",
    "8a8f98",
    "c62828",
    "2px",
    "color",
    "n0_triage_agent",
    "n1_refund_specialist",
    "n2_escalation_agent",
];

/// Every word of `out` (letters, digits, `-` and `_`) is a word of a name of the steps, one of
/// the forms' own words, or a small number (a sequence, an attempt, a count).
fn only_names(out: &str, names: &BTreeSet<String>) {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let allowed: BTreeSet<String> = names
        .iter()
        .flat_map(|n| words(n))
        .chain(OWN_WORDS.iter().map(|w| (*w).to_owned()))
        .collect();
    for word in words(out) {
        let known = allowed.contains(&word)
            || word
                .strip_suffix("Present")
                .is_some_and(|w| allowed.contains(w))
            || word.parse::<u32>().is_ok_and(|n| n <= 20);
        assert!(known, "{word:?} is no name of the steps:\n{out}");
    }
}

#[test]
fn the_forms_print_names_from_the_steps_and_nothing_else() {
    let view = view();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for s in view.steps() {
        let step = &s.step;
        names.extend(
            [
                &step.session,
                &step.workflow,
                &step.from,
                &step.to,
                &step.context_id,
                &step.handoff_id,
                &step.retry_of,
            ]
            .into_iter()
            .flatten()
            .cloned(),
        );
        names.insert(step.contract.clone());
        names.extend(step.received_fields.iter().cloned());
        names.extend(step.missing_fields.iter().cloned());
        names.extend(step.causes.values().cloned());
        names.extend(
            step.problems
                .iter()
                .flat_map(|p| [p.pointer.clone(), p.kind.clone()]),
        );
        names.insert(step.outcome.as_str().to_owned());
    }
    names.extend(view.ledgers().iter().map(|(label, _)| label.clone()));
    only_names(&session::text(&view), &names);
    only_names(&session::mermaid(&view), &names);

    // JSON: every key is a key of the form or a field's name, every string a name or a
    // diagnostic, every number an attempt or a count.
    let json: Value = serde_json::from_str(&session::json(&view)).expect("JSON");
    for diagnostic in json["diagnostics"].as_array().expect("diagnostics") {
        only_names(diagnostic.as_str().expect("a string"), &names);
    }
    for step in json["steps"].as_array().expect("steps") {
        for (key, value) in step.as_object().expect("a step") {
            let strings: Vec<&str> = match value {
                Value::String(s) => vec![s.as_str()],
                Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
                Value::Object(map) => map
                    .keys()
                    .map(String::as_str)
                    .chain(map.values().filter_map(Value::as_str))
                    .collect(),
                Value::Number(n) => {
                    assert!(n.as_u64().is_some_and(|n| n <= 3), "{key}: {n}");
                    vec![]
                }
                _ => vec![],
            };
            for s in strings {
                assert!(
                    names.contains(s) || ["first", "related", "explicit"].contains(&s),
                    "{key}: {s}"
                );
            }
        }
    }

    // No form shows a clock: the steps' times are all in 2031.
    for format in Format::ALL {
        assert!(!format.render(&view).contains("2031"), "{format}");
    }
}

// ---- A real browser -------------------------------------------------------------------

/// The workspace's `target/` (`CARGO_TARGET_DIR` when set).
fn target_dir() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf);
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    }
}

/// Whether `CI=true`: a missing browser is then a failure, not a skip.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Chromium: `HANDOFF_CHROMIUM` when set, else the first of `chromium`, `chromium-browser`,
/// `google-chrome`; whichever it is must run (`--version`).
fn chromium() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("HANDOFF_CHROMIUM") {
        Some(path) => vec![PathBuf::from(path)],
        None => ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .map(PathBuf::from)
            .collect(),
    };
    candidates.into_iter().find(|bin| {
        Command::new(bin)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// What the browser made of a page: the DOM after its script ran, and its console.
struct Rendered {
    dom: String,
    console: Vec<String>,
}

/// Opens `page` (with `fragment`, `#step-3` or empty) in headless Chromium, with a
/// screenshot to `screenshot` when given, and returns the DOM after load and every console
/// line (an uncaught error is one).
fn render(browser: &Path, page: &Path, fragment: &str, screenshot: Option<&Path>) -> Rendered {
    let profile = page.with_extension(format!("profile-{}", std::process::id()));
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
        ])
        .args(["--disable-extensions", "--disable-background-networking"])
        .args(["--enable-logging=stderr", "--v=0", "--window-size=1360,860"])
        .arg(format!("--user-data-dir={}", profile.display()));
    if let Some(png) = screenshot {
        command.arg(format!("--screenshot={}", png.display()));
    }
    let url = format!("file://{}{fragment}", page.display());
    let child = command
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // A browser that hangs fails the test instead of holding it forever.
    let id = child.id();
    let deadline = Instant::now() + Duration::from_secs(90);
    let (done, waited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = loop {
        match waited.recv_timeout(Duration::from_millis(200)) {
            Ok(output) => break output.expect("chromium ran"),
            Err(_) if Instant::now() < deadline => {}
            Err(_) => {
                let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
                panic!("chromium did not finish rendering {url} within 90 s");
            }
        }
    };
    let _ = std::fs::remove_dir_all(&profile);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "chromium failed on {url}: {}\n{stderr}",
        output.status
    );
    Rendered {
        dom: String::from_utf8_lossy(&output.stdout).into_owned(),
        console: stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
            .map(str::to_owned)
            .collect(),
    }
}

/// The side panel's markup in a rendered DOM.
fn panel(dom: &str) -> &str {
    let start = dom
        .find("<aside id=\"panel\"")
        .expect("the page has its panel");
    let end = dom[start..]
        .find("</aside>")
        .map_or(dom.len(), |e| start + e);
    &dom[start..end]
}

#[test]
fn a_real_browser_draws_the_journey_and_shows_the_red_edges_findings() {
    let Some(browser) = chromium() else {
        let what =
            "no Chromium (chromium, chromium-browser or google-chrome; or HANDOFF_CHROMIUM) \
                    to render the session page";
        assert!(
            !in_ci(),
            "CI=true, yet {what}: .ci/run installs it before the tests"
        );
        eprintln!("SKIPPED: {what}");
        return;
    };
    let dir = target_dir().join("session-view");
    std::fs::create_dir_all(&dir).expect("the folder for the page is made");

    // The harness sees a page's errors: a page whose script throws is caught.
    let broken = dir.join("broken.html");
    std::fs::write(
        &broken,
        "<!DOCTYPE html><html><body><script>console.error('seen'); missing();</script></body></html>",
    )
    .expect("the broken page is written");
    let rendered = render(&browser, &broken, "", None);
    assert!(
        rendered
            .console
            .iter()
            .any(|l| l.contains("Uncaught ReferenceError")),
        "the console is not read: {:?}",
        rendered.console
    );

    // The journey.
    let page = dir.join("session.html");
    std::fs::write(&page, session::html(&view())).expect("the page is written");
    let png = dir.join("session.png");
    let _ = std::fs::remove_file(&png);
    let rendered = render(&browser, &page, "", Some(&png));
    assert!(
        rendered.console.is_empty(),
        "console: {:?}",
        rendered.console
    );
    let dom = &rendered.dom;
    assert_eq!(dom.matches("<g class=\"edge ").count(), 5, "{dom}");
    assert_eq!(dom.matches("<g class=\"edge red").count(), 2);
    assert_eq!(dom.matches("<g class=\"edge green").count(), 2);
    assert_eq!(dom.matches("<g class=\"edge grey").count(), 1);
    // The script ran: the first red edge (step 1) is selected and its step in the panel.
    assert!(
        dom.contains("<g class=\"edge red selected\" data-step=\"0\""),
        "{dom}"
    );
    let shown = panel(dom);
    assert!(shown.contains("data-shown=\"0\""), "{shown}");
    for text in [
        "step 1 · ",
        "refused",
        "triage-agent → refund-specialist",
        "refund-request/v2",
        "<code>category</code>",
        "orderRefPresent: false",
        "dropped-on-the-way",
        "/payload/orderRef",
        "missing_field",
    ] {
        assert!(shown.contains(text), "{text:?} not in the panel: {shown}");
    }
    let image = std::fs::read(&png).expect("the screenshot is written");
    assert!(
        image.starts_with(b"\x89PNG\r\n\x1a\n") && image.len() > 10_000,
        "{} bytes",
        image.len()
    );

    // A step named by the address: the explicit retry, applied, with no problem.
    let rendered = render(&browser, &page, "#step-3", None);
    assert!(
        rendered.console.is_empty(),
        "console: {:?}",
        rendered.console
    );
    let shown = panel(&rendered.dom);
    assert!(shown.contains("data-shown=\"2\""), "{shown}");
    assert!(
        shown.contains("retry of h-2") && shown.contains("no problems"),
        "{shown}"
    );
    assert!(!shown.contains("missing_field"));

    // Edges back along the row, to the same agent, and past a neighbour are drawn too.
    let loops = SessionView::from_ledgers(
        SESSION,
        [
            (
                "specialist",
                vec![
                    step(SESSION, 1, "triage-agent", "refund-specialist", "h-1"),
                    lost_order_ref(step(SESSION, 2, "triage-agent", "refund-specialist", "h-3")),
                ],
            ),
            (
                "triage",
                vec![step(SESSION, 1, "refund-specialist", "triage-agent", "h-2")],
            ),
            (
                "escalation",
                vec![
                    step(SESSION, 1, "triage-agent", "escalation-agent", "h-4"),
                    step(SESSION, 2, "escalation-agent", "escalation-agent", "h-5"),
                ],
            ),
        ],
    );
    let page = dir.join("loops.html");
    std::fs::write(&page, session::html(&loops)).expect("the page is written");
    let rendered = render(&browser, &page, "", Some(&dir.join("loops.png")));
    assert!(
        rendered.console.is_empty(),
        "console: {:?}",
        rendered.console
    );
    assert_eq!(rendered.dom.matches("<g class=\"edge ").count(), 5);
    assert!(
        panel(&rendered.dom).contains("data-shown=\""),
        "{}",
        rendered.dom
    );

    // Hostile names stay text: no element made of them, no error.
    let page = dir.join("hostile.html");
    std::fs::write(&page, session::html(&hostile())).expect("the page is written");
    let rendered = render(&browser, &page, "", None);
    assert!(
        rendered.console.is_empty(),
        "console: {:?}",
        rendered.console
    );
    assert!(!rendered.dom.contains("<script>alert"), "{}", rendered.dom);
    assert!(!rendered.dom.contains("<img"), "{}", rendered.dom);
    let shown = panel(&rendered.dom);
    assert!(
        shown.contains("&lt;img src=x onerror=alert(2)&gt;Present: false"),
        "{shown}"
    );
    assert!(
        shown.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{shown}"
    );
}
