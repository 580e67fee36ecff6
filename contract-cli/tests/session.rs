//! `handoff sessions` and `handoff session ID` over ledgers that real inboxes wrote.
//!
//! The refund journey, `triage-agent` → `refund-specialist` → `escalation-agent`, accepted
//! with `Inbox::accept` on two SQLite files, the specialist's and the escalation agent's:
//! the first handoff to the specialist lost `orderRef` on the way (its sender's presence says
//! it was written: refused, delivered twice), the second names the one it retries (attempt 2,
//! `retryOf`) and is applied; the first handoff to the escalation agent is not ready yet, the
//! second is attempt 2 without `retryOf` (a related retry) and is applied. A parallel session
//! in the same context, its steps between this one's in both ledgers, hands off to an agent
//! whose name is markup. The `handoff` binary then reads both files; every payload holds a
//! marker that no output may show. The same journey runs on PostgreSQL (one schema both
//! inboxes share) when `HANDOFF_TEST_POSTGRES` names a server.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use contract_core::inbox::{
    AcceptError, Acceptance, Inbox, Ledger, PostgresLedger, SqliteLedger, SQLITE_SCHEMA_VERSION,
};
use contract_core::session::STEP_KEYS;
use contract_core::{send_handoff, Delivery, Handoff, HandoffContract, Journey};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What the triage agent hands to the refund specialist.
#[derive(Debug, Clone, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "refund-request", version = 2, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    /// The order to refund.
    pub order_ref: String,
    /// What went wrong with it.
    pub category: String,
}

/// What the refund specialist hands to the escalation agent.
#[derive(Debug, Clone, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "refund-escalation", version = 1, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
pub struct Escalation {
    /// What went wrong.
    pub category: String,
    /// The specialist's summary.
    pub summary: String,
}

const SESSION: &str = "sess-refund-7";
const PARALLEL: &str = "sess-refund-8";
const CONTEXT: &str = "ctx-refund";
const WORKFLOW: &str = "support-refund";
const TRIAGE: &str = "triage-agent";
const SPECIALIST: &str = "refund-specialist";
const ESCALATION: &str = "escalation-agent";
/// The parallel session's last agent: a name is data, and this one is markup.
const MARKUP_AGENT: &str = "<script>alert(1)</script>";

/// Values of the payloads (and of the envelopes' goals): none may appear in any output.
const MARKERS: [&str; 4] = [
    "ORDER-MARKER-5f1c",
    "CATEGORY-MARKER-a7e2",
    "SUMMARY-MARKER-93bd",
    "GOAL-MARKER-0c44",
];

fn refund(session: &str, handoff: &str, journey: Journey) -> Handoff<RefundRequest> {
    let payload = RefundRequest {
        order_ref: MARKERS[0].to_owned(),
        category: MARKERS[1].to_owned(),
    };
    Handoff::new(CONTEXT, handoff, SPECIALIST, payload)
        .goal(format!("refund the order ({})", MARKERS[3]))
        .journey(journey.session(session).workflow(WORKFLOW))
        .ready()
}

fn escalation(session: &str, handoff: &str, to: &str, journey: Journey) -> Handoff<Escalation> {
    let payload = Escalation {
        category: MARKERS[1].to_owned(),
        summary: MARKERS[2].to_owned(),
    };
    Handoff::new(CONTEXT, handoff, to, payload)
        .goal(format!("escalate ({})", MARKERS[3]))
        .journey(journey.session(session).workflow(WORKFLOW))
}

fn sent<T: Serialize + HandoffContract + 'static>(mut handoff: Handoff<T>) -> Vec<u8> {
    send_handoff(&mut handoff).expect("sent").into_bytes()
}

/// The envelope's bytes with `orderRef` taken out of the payload on the way: the sender's
/// presence, written before, still says it was sent.
fn without_order_ref(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    let member = format!("\"orderRef\":\"{}\",", MARKERS[0]);
    assert_eq!(text.matches(&member).count(), 1, "{text}");
    let lost = text.replace(&member, "");
    assert!(lost.contains("senderPresence"), "{lost}");
    lost.into_bytes()
}

type Accepted<T> = Result<Acceptance<T, String>, AcceptError<Infallible>>;

fn accept<L: Ledger, T>(inbox: &mut Inbox<L>, bytes: &[u8]) -> Accepted<T>
where
    T: DeserializeOwned + HandoffContract + 'static,
{
    inbox.accept(bytes, |_: &mut L::Tx<'_>, _: &Delivery<T>| {
        Ok::<_, Infallible>("done".to_owned())
    })
}

/// Accepts `bytes`, expecting them applied.
fn applied<L: Ledger, T>(inbox: &mut Inbox<L>, bytes: &[u8])
where
    T: DeserializeOwned + HandoffContract + std::fmt::Debug + 'static,
{
    let accepted = accept::<_, T>(inbox, bytes);
    assert!(
        accepted.as_ref().is_ok_and(Acceptance::is_applied),
        "{accepted:?}"
    );
}

/// The journey, through the specialist's inbox and the escalation agent's (two ledgers, or
/// one both share).
fn record_journey<S: Ledger, E: Ledger>(
    at_specialist: &mut Inbox<S>,
    at_escalation: &mut Inbox<E>,
) {
    // Lost on the way, delivered twice: one refused step seen twice.
    let lost = without_order_ref(&sent(refund(
        SESSION,
        "h-1",
        Journey::new(TRIAGE, SPECIALIST).attempt(1),
    )));
    for _ in 0..2 {
        let refused = accept::<_, RefundRequest>(at_specialist, &lost);
        assert!(
            matches!(refused, Err(AcceptError::Rejected(_))),
            "{refused:?}"
        );
    }
    // The parallel session, in the same context, between this one's steps.
    let parallel = sent(refund(
        PARALLEL,
        "p-1",
        Journey::new(TRIAGE, SPECIALIST).attempt(1),
    ));
    applied::<_, RefundRequest>(at_specialist, &parallel);
    let retry = sent(refund(
        SESSION,
        "h-2",
        Journey::new(TRIAGE, SPECIALIST).attempt(2).retry_of("h-1"),
    ));
    applied::<_, RefundRequest>(at_specialist, &retry);

    let draft = sent(escalation(
        SESSION,
        "h-3",
        ESCALATION,
        Journey::new(SPECIALIST, ESCALATION).attempt(1),
    ));
    let waiting = accept::<_, Escalation>(at_escalation, &draft);
    assert!(matches!(waiting, Err(AcceptError::NotReady)), "{waiting:?}");
    let to_markup = sent(
        escalation(
            PARALLEL,
            "p-2",
            MARKUP_AGENT,
            Journey::new(SPECIALIST, MARKUP_AGENT).attempt(1),
        )
        .ready(),
    );
    applied::<_, Escalation>(at_escalation, &to_markup);
    let related = sent(
        escalation(
            SESSION,
            "h-4",
            ESCALATION,
            Journey::new(SPECIALIST, ESCALATION).attempt(2),
        )
        .ready(),
    );
    applied::<_, Escalation>(at_escalation, &related);
}

/// A folder of its own for a test, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(test: &str) -> Folder {
        let dir =
            std::env::temp_dir().join(format!("handoff-cli-session-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Folder(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The journey on two SQLite files, the specialist's and the escalation agent's.
fn two_sqlite_ledgers(folder: &Folder) -> (PathBuf, PathBuf) {
    let (specialist, escalation) = (
        folder.path("specialist.sqlite"),
        folder.path("escalation.db"),
    );
    let mut at_specialist = Inbox::new(SqliteLedger::open(&specialist).expect("opens"));
    let mut at_escalation = Inbox::new(SqliteLedger::open(&escalation).expect("opens"));
    record_journey(&mut at_specialist, &mut at_escalation);
    (specialist, escalation)
}

fn handoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_handoff"))
        .args(args)
        .output()
        .expect("the handoff binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8")
}

/// Runs `handoff` expecting success, and returns its stdout.
fn ok(args: &[&str]) -> String {
    let output = handoff(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}",
        stderr(&output)
    );
    assert!(output.stderr.is_empty(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

fn assert_no_marker(what: &str, text: &str) {
    for marker in MARKERS {
        assert!(
            !text.contains(marker),
            "{what} shows a payload value {marker}:\n{text}"
        );
    }
}

/// `handoff session SESSION --ledger …` in `format`: its stdout, checked to show no payload
/// value.
fn session_as(session: &str, ledgers: &[&str], format: &str) -> String {
    let mut args = vec!["session", session];
    for ledger in ledgers {
        args.extend(["--ledger", ledger]);
    }
    args.extend(["--format", format]);
    let shown = ok(&args);
    assert_no_marker(&format!("session --format {format}"), &shown);
    shown
}

/// The journey's steps as `session --format json` writes them, the ledger labels given.
fn check_journey_json(json_text: &str, specialist: &str, escalation: &str) {
    let view: Value = serde_json::from_str(json_text).expect("JSON");
    assert_eq!(view["session"], SESSION);
    assert_eq!(view["workflow"], WORKFLOW);
    let steps = view["steps"].as_array().expect("steps");
    let edges: Vec<(&str, &str, &str, &str)> = steps
        .iter()
        .map(|s| {
            (
                s["handoffId"].as_str().unwrap_or("?"),
                s["from"].as_str().unwrap_or("?"),
                s["to"].as_str().unwrap_or("?"),
                s["outcome"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            ("h-1", TRIAGE, SPECIALIST, "refused"),
            ("h-2", TRIAGE, SPECIALIST, "applied"),
            ("h-3", SPECIALIST, ESCALATION, "not-ready"),
            ("h-4", SPECIALIST, ESCALATION, "applied"),
        ],
        "{json_text}"
    );
    let refused = &steps[0];
    assert_eq!(refused["contract"], "refund-request/v2");
    assert_eq!(refused["contextId"], CONTEXT);
    assert_eq!(refused["attempt"], 1);
    assert_eq!(refused["relation"], "first");
    assert_eq!(refused["receivedFields"], json!(["category"]));
    assert_eq!(refused["missingFields"], json!(["orderRef"]));
    assert_eq!(refused["causes"], json!({"orderRef": "dropped-on-the-way"}));
    assert_eq!(
        refused["problems"],
        json!([{"pointer": "/payload/orderRef", "kind": "missing_field"}])
    );
    assert_eq!(refused["count"], 2, "delivered twice, one step");
    assert_eq!(refused["ledger"], specialist);

    let explicit = &steps[1];
    assert_eq!(explicit["attempt"], 2);
    assert_eq!(explicit["retryOf"], "h-1");
    assert_eq!(explicit["relation"], "explicit");
    assert_eq!(explicit["receivedFields"], json!(["orderRef", "category"]));
    assert_eq!(explicit["missingFields"], json!([]));
    assert_eq!(explicit["causes"], json!({}));
    assert_eq!(explicit["count"], 1);
    assert_eq!(explicit["ledger"], specialist);

    let waiting = &steps[2];
    assert_eq!(waiting["contract"], "refund-escalation/v1");
    assert_eq!(waiting["relation"], "first");
    assert_eq!(waiting["ledger"], escalation);

    let related = &steps[3];
    assert_eq!(related["attempt"], 2);
    assert_eq!(related["retryOf"], Value::Null);
    assert_eq!(related["relation"], "related");
    assert_eq!(related["receivedFields"], json!(["category", "summary"]));
    assert_eq!(related["ledger"], escalation);

    // The keys of every step are the session view's.
    for step in steps {
        let keys: Vec<&str> = step
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut keys = keys;
        keys.sort_unstable();
        let mut expected = STEP_KEYS;
        expected.sort_unstable();
        assert_eq!(keys, expected);
    }
    assert_eq!(
        view["diagnostics"],
        json!([
            "attempt 2 of handoff h-4 (refund-specialist → escalation-agent) names no retryOf: shown as related, not an explicit retry"
        ]),
        "{json_text}"
    );
    assert_no_marker("session --format json", json_text);
}

#[test]
fn session_shows_the_journey_across_two_sqlite_ledgers_in_every_format() {
    let folder = Folder::new("formats");
    let (specialist, escalation) = two_sqlite_ledgers(&folder);
    let (s, e) = (
        specialist.to_str().expect("UTF-8"),
        escalation.to_str().expect("UTF-8"),
    );
    let sqlite_s = format!("sqlite:{s}");
    let before = (
        std::fs::read(&specialist).expect("read"),
        std::fs::read(&escalation).expect("read"),
    );

    // Either order of the ledgers gives the same journey.
    let json_text = session_as(SESSION, &[&sqlite_s, e], "json");
    check_journey_json(&json_text, s, e);
    let reversed = ok(&[
        "session",
        SESSION,
        "--format=json",
        "--ledger",
        e,
        "--ledger",
        s,
    ]);
    check_journey_json(&reversed, s, e);

    let text = ok(&["session", SESSION, "--ledger", s, "--ledger", e]);
    assert!(
        text.starts_with(&format!("session: {SESSION}\nworkflow: {WORKFLOW}\n")),
        "{text}"
    );
    for line in [
        "  handoff: triage-agent -> refund-specialist",
        "  handoff: refund-specialist -> escalation-agent",
        "        orderRefPresent: false (dropped-on-the-way)",
        "        problem: /payload/orderRef missing_field",
        "4 steps: 2 applied, 1 not-ready, 1 refused",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "no line {line:?} in:\n{text}"
        );
    }
    assert!(
        text.contains(&format!("ledgers: {s} (2 steps), {e} (2 steps)")),
        "{text}"
    );
    assert!(
        !text.contains(PARALLEL) && !text.contains("p-1"),
        "the parallel session:\n{text}"
    );
    assert_no_marker("session --format text", &text);

    let mermaid = session_as(SESSION, &[s, e], "mermaid");
    assert!(mermaid.starts_with("flowchart LR"), "{mermaid}");
    assert!(
        mermaid.contains("refund-specialist") && mermaid.contains("escalation-agent"),
        "{mermaid}"
    );

    let page = folder.path("journey.html");
    let page_arg = page.to_str().expect("UTF-8");
    assert_eq!(
        ok(&[
            "session", SESSION, "--ledger", s, "--ledger", e, "--format", "html", "--out", page_arg
        ]),
        ""
    );
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(
        html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"),
        "{}",
        &html[..80.min(html.len())]
    );
    assert!(html.contains("escalation-agent") && html.contains("dropped-on-the-way"));
    assert_no_marker("session --format html", &html);
    assert_eq!(session_as(SESSION, &[s, e], "html"), html);

    // The readers wrote nothing.
    assert_eq!(
        (
            std::fs::read(&specialist).expect("read"),
            std::fs::read(&escalation).expect("read")
        ),
        before
    );
}

#[test]
fn names_are_data_a_markup_agent_is_escaped_and_the_parallel_session_kept_apart() {
    let folder = Folder::new("markup");
    let (specialist, escalation) = two_sqlite_ledgers(&folder);
    let (s, e) = (
        specialist.to_str().expect("UTF-8"),
        escalation.to_str().expect("UTF-8"),
    );

    let json_text = session_as(PARALLEL, &[s, e], "json");
    let view: Value = serde_json::from_str(&json_text).expect("JSON");
    let handoffs: Vec<&str> = view["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["handoffId"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(handoffs, ["p-1", "p-2"], "{json_text}");
    assert_eq!(view["steps"][1]["to"], MARKUP_AGENT);
    assert_eq!(
        view["steps"][0]["contextId"], CONTEXT,
        "the same context as the other session"
    );

    let html = session_as(PARALLEL, &[s, e], "html");
    assert!(!html.contains(MARKUP_AGENT), "unescaped markup in the page");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the name, escaped"
    );
    let mermaid = session_as(PARALLEL, &[s, e], "mermaid");
    assert!(!mermaid.contains(MARKUP_AGENT), "{mermaid}");
}

#[test]
fn sessions_lists_both_sessions_merged_across_the_ledgers() {
    let folder = Folder::new("sessions");
    let (specialist, escalation) = two_sqlite_ledgers(&folder);
    let (s, e) = (
        specialist.to_str().expect("UTF-8"),
        escalation.to_str().expect("UTF-8"),
    );

    let json_text = ok(&["sessions", "--ledger", s, "--ledger", e, "--format", "json"]);
    let list: Value = serde_json::from_str(&json_text).expect("JSON");
    assert_eq!(list["ledgers"], json!([s, e]));
    let sessions = list["sessions"].as_array().expect("sessions");
    let mut found: Vec<(&str, u64, Value)> = sessions
        .iter()
        .map(|s| {
            assert_eq!(s["workflow"], WORKFLOW);
            assert!(
                s["lastActivity"].as_str().is_some_and(|t| t.ends_with('Z')),
                "{s}"
            );
            (
                s["session"].as_str().unwrap_or("?"),
                s["steps"].as_u64().unwrap_or(0),
                s["outcomes"].clone(),
            )
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(
        found,
        [
            (
                SESSION,
                4,
                json!({"applied": 2, "not-ready": 1, "refused": 1})
            ),
            (PARALLEL, 2, json!({"applied": 2})),
        ]
    );
    // The most recently active first: the parallel session's last step came before h-4.
    assert_eq!(sessions[0]["session"], SESSION);
    assert_no_marker("sessions --format json", &json_text);

    let text = ok(&["sessions", "--ledger", s, "--ledger", e]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("session ") && lines[0].contains("last activity"),
        "{text}"
    );
    assert!(
        lines[1].starts_with(SESSION) && lines[1].contains("2 applied, 1 refused, 1 not-ready"),
        "{text}"
    );
    assert!(
        lines[2].starts_with(PARALLEL) && lines[2].contains("2 applied"),
        "{text}"
    );
    assert_eq!(
        lines.last().copied(),
        Some(format!("2 sessions in {s}, {e}").as_str()),
        "{text}"
    );
    assert_no_marker("sessions", &text);

    // One ledger alone knows its own steps.
    let one: Value =
        serde_json::from_str(&ok(&["sessions", "--ledger", e, "--format", "json"])).expect("JSON");
    assert_eq!(one["sessions"][0]["steps"], 2);

    // The filters.
    let listed = |extra: &[&str]| -> usize {
        let mut args = vec!["sessions", "--ledger", s, "--ledger", e, "--format", "json"];
        args.extend_from_slice(extra);
        let list: Value = serde_json::from_str(&ok(&args)).expect("JSON");
        list["sessions"].as_array().expect("sessions").len()
    };
    assert_eq!(listed(&["--since", "1h"]), 2);
    assert_eq!(listed(&["--since", "2999-01-01T00:00:00Z"]), 0);
    assert_eq!(listed(&["--since", "2000-01-01T01:00:00+01:00"]), 2);
    assert_eq!(listed(&["--workflow", WORKFLOW]), 2);
    assert_eq!(listed(&["--workflow", "billing"]), 0);
    assert_eq!(
        ok(&["sessions", "--ledger", s, "--workflow", "billing"]),
        format!("no sessions in {s}\n")
    );

    let bad = handoff(&["sessions", "--ledger", s, "--since", "yesterday"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("needs an RFC 3339 time"),
        "{}",
        stderr(&bad)
    );
    let none = handoff(&["sessions"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains("--ledger <URL>"),
        "{}",
        stderr(&none)
    );
}

/// Exit 2 with one line on stderr and nothing on stdout nor in `--out`: `handoff` refused
/// `args` as bad input.
fn refused(args: &[&str], out: &Path) -> String {
    for with_out in [false, true] {
        let mut all: Vec<&str> = args.to_vec();
        if with_out {
            all.extend(["--out", out.to_str().expect("UTF-8")]);
        }
        let output = handoff(&all);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{all:?}: {message}");
        assert!(output.stdout.is_empty(), "{all:?}: {}", stdout(&output));
        assert_eq!(message.lines().count(), 1, "{all:?}: {message}");
        assert!(!out.exists(), "{all:?}: wrote {}", out.display());
        if with_out {
            return message;
        }
    }
    unreachable!()
}

#[test]
fn bad_ledgers_exit_2_with_one_line_and_an_unknown_session_exits_1() {
    let folder = Folder::new("bad");
    let (specialist, escalation) = two_sqlite_ledgers(&folder);
    let (s, e) = (
        specialist.to_str().expect("UTF-8"),
        escalation.to_str().expect("UTF-8"),
    );
    let out = folder.path("out.html");

    let missing = folder.path("nowhere.sqlite");
    let m = missing.to_str().expect("UTF-8");
    let message = refused(&["session", SESSION, "--ledger", s, "--ledger", m], &out);
    assert_eq!(
        message,
        format!("error: ledger {m} does not open: no such file\n")
    );
    assert!(!missing.exists(), "created the missing ledger");

    let notes = folder.path("notes.db");
    std::fs::write(&notes, "these are notes, not a ledger ".repeat(8)).expect("written");
    let n = notes.to_str().expect("UTF-8");
    let message = refused(
        &["session", SESSION, "--ledger", n, "--format", "html"],
        &out,
    );
    assert!(
        message.contains(n) && message.contains("not a handoff ledger"),
        "{message}"
    );

    let v1 = folder.path("v1.sqlite");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../contract-core/tests/fixtures/ledger-v1.sqlite"),
        &v1,
    )
    .expect("copied");
    let before = std::fs::read(&v1).expect("read");
    let v = v1.to_str().expect("UTF-8");
    let message = refused(&["session", "sess-1", "--ledger", s, "--ledger", v], &out);
    assert!(message.contains(v), "{message}");
    assert!(
        message.contains("schema version 1") && message.contains("no journey"),
        "{message}"
    );
    assert!(message.contains("opening it read-write"), "{message}");
    assert_eq!(
        std::fs::read(&v1).expect("read"),
        before,
        "the v1 ledger was written"
    );

    let newer = folder.path("newer.sqlite");
    drop(SqliteLedger::open(&newer).expect("opens"));
    contract_core::inbox::rusqlite::Connection::open(&newer)
        .and_then(|c| c.pragma_update(None, "user_version", SQLITE_SCHEMA_VERSION + 1))
        .expect("set");
    let message = refused(
        &[
            "session",
            SESSION,
            "--ledger",
            &format!("sqlite:{}", newer.display()),
        ],
        &out,
    );
    assert!(
        message.contains("newer than this version reads"),
        "{message}"
    );

    let message = refused(&["session", SESSION, "--ledger", "ledger.txt"], &out);
    assert!(message.contains("names no ledger"), "{message}");
    let unreachable = "postgresql://app:hunter2@%2Fnowhere%2Fat-all/app";
    let message = refused(
        &["session", SESSION, "--ledger", s, "--ledger", unreachable],
        &out,
    );
    assert!(message.starts_with("error: ledger postgresql://app@%2Fnowhere%2Fat-all/app (schema handoff) does not open: "), "{message}");
    assert!(!message.contains("hunter2"), "{message}");

    // `sessions` refuses the same ledgers.
    let bad = handoff(&["sessions", "--ledger", s, "--ledger", v]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert_eq!(stderr(&bad).lines().count(), 1);

    // An unknown session: exit 1, named with the ledgers read; nothing written.
    for with_out in [false, true] {
        let mut args = vec!["session", "sess-unknown", "--ledger", s, "--ledger", e];
        if with_out {
            args.extend(["--out", out.to_str().expect("UTF-8")]);
        }
        let unknown = handoff(&args);
        assert_eq!(unknown.status.code(), Some(1), "{}", stderr(&unknown));
        assert!(unknown.stdout.is_empty());
        assert_eq!(
            stderr(&unknown),
            format!("no session sess-unknown in {s}, {e}\n")
        );
        assert!(!out.exists());
    }
    // A session id is data: its control characters are escaped in the message.
    let unknown = handoff(&["session", "sess-\u{1b}[31mred", "--ledger", s]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        !stderr(&unknown).contains('\u{1b}'),
        "{:?}",
        stderr(&unknown)
    );
}

/// The server `HANDOFF_TEST_POSTGRES` names, or `None` after printing why the test skips
/// (a failure when `HANDOFF_REQUIRE_POSTGRES=1`).
fn postgres_server(test: &str) -> Option<String> {
    match std::env::var("HANDOFF_TEST_POSTGRES") {
        Ok(params) => Some(params),
        Err(_) => {
            assert!(
                std::env::var("HANDOFF_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "{test}: HANDOFF_REQUIRE_POSTGRES=1, but HANDOFF_TEST_POSTGRES is not set"
            );
            println!("SKIPPED: {test}: the PostgreSQL tests need HANDOFF_TEST_POSTGRES");
            None
        }
    }
}

/// `params` (libpq's `key=value` form, or a URL already) as a `postgresql://` URL with a
/// password in it (the server's, else one a trusting server ignores), to show that it is
/// never printed; the URL as it is shown (without the password); the password.
fn as_url(params: &str) -> (String, String, Option<String>) {
    if params.starts_with("postgres://") || params.starts_with("postgresql://") {
        return (params.to_owned(), params.to_owned(), None);
    }
    let encode = |text: &str, keep: &[u8]| -> String {
        text.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.".contains(&b) || keep.contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    };
    let mut user = String::from("postgres");
    let mut password = String::from("not-the-password-9d2e");
    let mut dbname = String::from("postgres");
    let mut query = Vec::new();
    for pair in params.split_whitespace() {
        let Some((key, value)) = pair.split_once('=') else {
            continue;
        };
        let value = value.trim_matches('\'');
        match key {
            "user" => user = value.to_owned(),
            "password" => password = value.to_owned(),
            "dbname" => dbname = value.to_owned(),
            _ => query.push(format!("{key}={}", encode(value, b"/"))),
        }
    }
    let (user, dbname, query) = (encode(&user, b""), encode(&dbname, b""), query.join("&"));
    let url = format!(
        "postgresql://{user}:{}@/{dbname}?{query}",
        encode(&password, b"")
    );
    let shown = format!("postgresql://{user}@/{dbname}?{query}");
    (url, shown, Some(password))
}

/// A schema of its own, dropped when the test ends.
struct Schema {
    params: String,
    name: String,
}

impl Drop for Schema {
    fn drop(&mut self) {
        if let Ok(mut ledger) = PostgresLedger::connect(&self.params, &self.name) {
            let dropped = ledger
                .client()
                .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name));
            if let Err(error) = dropped {
                eprintln!("could not drop the test schema {}: {error}", self.name);
            }
        }
    }
}

#[test]
fn the_same_journey_on_a_postgresql_ledger_both_inboxes_share() {
    let Some(params) = postgres_server("the_same_journey_on_a_postgresql_ledger") else {
        return;
    };
    let schema = Schema {
        params: params.clone(),
        name: format!("handoff_cli_session_{}", std::process::id()),
    };
    let open = || PostgresLedger::connect(&params, &schema.name).expect("opens");
    let mut at_specialist = Inbox::new(open());
    let mut at_escalation = Inbox::new(open());
    record_journey(&mut at_specialist, &mut at_escalation);
    drop((at_specialist, at_escalation));

    let (url, shown, password) = as_url(&params);
    let shown = format!("{shown} (schema {})", schema.name);
    let json_text = ok(&[
        "session",
        SESSION,
        "--ledger",
        &url,
        "--schema",
        &schema.name,
        "--format",
        "json",
    ]);
    if let Some(password) = &password {
        assert!(!json_text.contains(password.as_str()), "{json_text}");
    }
    // One ledger, shared: its own sequence and the declared edges give the same order.
    check_journey_json(&json_text, &shown, &shown);

    let list: Value = serde_json::from_str(&ok(&[
        "sessions",
        "--ledger",
        &url,
        "--schema",
        &schema.name,
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert_eq!(list["ledgers"], json!([shown]));
    let steps: Vec<(&str, u64)> = list["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .map(|s| {
            (
                s["session"].as_str().unwrap_or("?"),
                s["steps"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(steps, [(SESSION, 4), (PARALLEL, 2)]);

    for format in ["text", "mermaid", "html"] {
        let shown = ok(&[
            "session",
            SESSION,
            "--ledger",
            &url,
            "--schema",
            &schema.name,
            "--format",
            format,
        ]);
        assert_no_marker(format, &shown);
    }

    // A schema that is not there: refused, and not created.
    let missing = format!("{}_none", schema.name);
    let output = handoff(&["sessions", "--ledger", &url, "--schema", &missing]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).ends_with("does not open: no such schema\n"),
        "{}",
        stderr(&output)
    );
    if let Some(password) = &password {
        assert!(
            !stderr(&output).contains(password.as_str()),
            "{}",
            stderr(&output)
        );
    }
    let mut admin = open();
    let created: bool = admin
        .client()
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
            &[&missing],
        )
        .expect("read")
        .get(0);
    assert!(!created, "the missing schema was created");
}
