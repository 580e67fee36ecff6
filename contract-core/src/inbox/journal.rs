//! The journey a ledger records: one [`Step`] per kind of outcome of each handoff an inbox was
//! offered, applied or not, with the envelope's journey, the contract, both sides' presence
//! (field names only) and the diagnosed cause of each missing field; never a value.
//!
//! A step is keyed by (`contextId`, `handoffId`, `attempt`, [`Outcome`]): a redelivery or a
//! repeated refusal of the same attempt adds to its [`Step::count`] and moves its
//! [`Step::last_seen`], so that a sender retrying forever does not grow the ledger. An
//! envelope whose context or id cannot be read is keyed by its digest instead.
//!
//! Steps are ordered by each ledger's own sequence ([`Step::seq`]), never by clocks across
//! machines: a session's journey across several ledgers (each agent may keep its own) is put
//! in order by the declared edges (`handoffFrom` → `handoffTo`) and each ledger's sequence.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::task::Spent;

/// What happened to one handoff offered to an inbox, in the words of the session view
/// (`applied`, `not-ready`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Outcome {
    /// Applied now: the handler ran and its effects committed.
    Applied,
    /// Accepted before: answered with the first acknowledgement, nothing ran.
    Duplicate,
    /// Its key was accepted before with another envelope.
    Conflict,
    /// The envelope or its payload was refused (each problem recorded).
    Refused,
    /// Its status was not `ready`.
    NotReady,
    /// An artifact version it names is not there, or not its content.
    ArtifactUnavailable,
    /// An artifact version below the one its context accepted.
    ArtifactRegressed,
    /// The handler failed: rolled back.
    HandlerFailed,
}

impl Outcome {
    /// The outcome's name in the session view (`applied`, `not-ready`, …).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Applied => "applied",
            Outcome::Duplicate => "duplicate",
            Outcome::Conflict => "conflict",
            Outcome::Refused => "refused",
            Outcome::NotReady => "not-ready",
            Outcome::ArtifactUnavailable => "artifact-unavailable",
            Outcome::ArtifactRegressed => "artifact-regressed",
            Outcome::HandlerFailed => "handler-failed",
        }
    }

    /// The outcome named `name` ([`Outcome::as_str`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Outcome> {
        Some(match name {
            "applied" => Outcome::Applied,
            "duplicate" => Outcome::Duplicate,
            "conflict" => Outcome::Conflict,
            "refused" => Outcome::Refused,
            "not-ready" => Outcome::NotReady,
            "artifact-unavailable" => Outcome::ArtifactUnavailable,
            "artifact-regressed" => Outcome::ArtifactRegressed,
            "handler-failed" => Outcome::HandlerFailed,
            _ => return None,
        })
    }

    /// Whether the handoff was accepted (applied now or before).
    #[must_use]
    pub const fn is_accepted(self) -> bool {
        matches!(self, Outcome::Applied | Outcome::Duplicate)
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem of a refused step: where, and what kind (a [`ProblemKind`]'s tag:
/// `missing_field`, `wrong_type`, …); never a value.
///
/// [`ProblemKind`]: crate::ProblemKind
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepProblem {
    /// The JSON pointer from the envelope's root (`/payload/orderRef`).
    pub pointer: String,
    /// The problem's kind, as its JSON tag (`missing_field`).
    pub kind: String,
}

/// One step of a session's journey as a ledger recorded it: a kind of outcome of one handoff
/// attempt, with how often and when it was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// The ledger's own sequence of the step (its first sighting): the order within one
    /// ledger.
    pub seq: u64,
    /// The journey's `sessionId`, else the envelope's `contextId` (the conversation); `None`
    /// when neither could be read.
    pub session: Option<String>,
    /// The journey's `workflowName`.
    pub workflow: Option<String>,
    /// The journey's `handoffFrom`.
    pub from: Option<String>,
    /// The journey's `handoffTo`.
    pub to: Option<String>,
    /// The journey's `attempt`.
    pub attempt: Option<u32>,
    /// The journey's `retryOf`.
    pub retry_of: Option<String>,
    /// The payload's contract as the envelope names it (`refund-request/v2`), else the
    /// reader's.
    pub contract: String,
    /// The envelope's `contextId`.
    pub context_id: Option<String>,
    /// The envelope's `handoffId`.
    pub handoff_id: Option<String>,
    /// What happened.
    pub outcome: Outcome,
    /// The acceptance's refusal in its own words ([`AcceptError::as_str`]), for a step not
    /// accepted.
    ///
    /// [`AcceptError::as_str`]: crate::inbox::AcceptError::as_str
    pub reason: Option<String>,
    /// The payload fields the receiver got (presence paths).
    pub received_fields: Vec<String>,
    /// The payload fields the receiver's contract has that did not arrive.
    pub missing_fields: Vec<String>,
    /// The fields the sender says it wrote (its `senderPresence`), when it said.
    pub sender_fields: Option<Vec<String>>,
    /// The diagnosed cause of each missing field (`not-emitted`, `dropped-on-the-way`,
    /// `renamed-by-mapper`, `another-version`), by field.
    pub causes: BTreeMap<String, String>,
    /// Every problem of a refusal (pointer and kind).
    pub problems: Vec<StepProblem>,
    /// What the sender's task spent before this handoff, and what its budget and scope
    /// refused, when the envelope said (its `spent`): counts only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<Spent>,
    /// How many times this outcome of this attempt was seen.
    pub count: u64,
    /// When it was first seen, by this ledger's clock.
    #[serde(with = "crate::inbox::time::rfc3339")]
    pub first_seen: SystemTime,
    /// When it was last seen, by this ledger's clock.
    #[serde(with = "crate::inbox::time::rfc3339")]
    pub last_seen: SystemTime,
}

/// A session as a ledger knows it: its id, workflow, how many steps of each outcome, and its
/// last activity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    /// The session id.
    pub session: String,
    /// The workflow of its first step that names one.
    pub workflow: Option<String>,
    /// How many steps it has.
    pub steps: u64,
    /// How many steps of each outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// The last time a step of it was seen.
    #[serde(with = "crate::inbox::time::rfc3339")]
    pub last_activity: SystemTime,
}

/// Which sessions [`Ledger::sessions`](crate::inbox::Ledger::sessions) lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionFilter {
    /// Only this workflow's.
    pub workflow: Option<String>,
    /// Only those active at or after this time.
    pub since: Option<SystemTime>,
    /// At most this many, the most recently active first.
    pub limit: Option<usize>,
}

impl SessionFilter {
    /// Only this workflow's sessions.
    #[must_use]
    pub fn workflow(mut self, workflow: impl Into<String>) -> Self {
        self.workflow = Some(workflow.into());
        self
    }

    /// Only the sessions active at or after `since`.
    #[must_use]
    pub fn since(mut self, since: SystemTime) -> Self {
        self.since = Some(since);
        self
    }

    /// At most `limit` sessions.
    #[must_use]
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }
}

impl Step {
    /// What a ledger keeps one step per: the session, the handoff (`contextId`,
    /// `handoffId`; empty where they could not be read), its attempt and the outcome. A
    /// redelivery of the same attempt with the same outcome counts on the same step. The key
    /// starts with the session, so that one index finds a step and a session's steps.
    #[must_use]
    pub fn key(&self) -> String {
        Step::key_of(
            self.session.as_deref(),
            self.context_id.as_deref(),
            self.handoff_id.as_deref(),
            self.attempt,
            self.outcome,
        )
    }

    /// The [`key`](Step::key) of the step of these.
    #[must_use]
    pub fn key_of(
        session: Option<&str>,
        context_id: Option<&str>,
        handoff_id: Option<&str>,
        attempt: Option<u32>,
        outcome: Outcome,
    ) -> String {
        // Pushed part by part: the formatting machinery costs more than the key's bytes on
        // every acceptance.
        let (session, context_id, handoff_id) = (
            session.unwrap_or(""),
            context_id.unwrap_or(""),
            handoff_id.unwrap_or(""),
        );
        let outcome = outcome.as_str();
        let mut key = String::with_capacity(
            session.len() + context_id.len() + handoff_id.len() + outcome.len() + 14,
        );
        for part in [session, context_id, handoff_id] {
            key.push_str(part);
            key.push(KEY_SEPARATOR);
        }
        if let Some(attempt) = attempt {
            let _ = write!(key, "{attempt}");
        }
        key.push(KEY_SEPARATOR);
        key.push_str(outcome);
        key
    }

    /// The range of keys the steps of `session` have (and, where a session id holds the
    /// separator, maybe others: a reader checks each step's session).
    #[cfg(any(feature = "sqlite", feature = "postgres"))]
    pub(crate) fn key_range(session: &str) -> (String, String) {
        (
            format!("{session}{KEY_SEPARATOR}"),
            format!("{session}{KEY_AFTER_SEPARATOR}"),
        )
    }
}

/// What separates the parts of a step's key (the unit separator).
const KEY_SEPARATOR: char = '\u{1f}';
/// The character after [`KEY_SEPARATOR`]: the end of a session's range of keys.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
const KEY_AFTER_SEPARATOR: char = '\u{20}';

/// The summaries of sessions from their (session, workflow, outcome, steps, last seen)
/// groups, the most recently active first, as `filter` limits them.
pub(crate) fn summaries(
    groups: Vec<(String, Option<String>, String, i64, i64)>,
    filter: &SessionFilter,
) -> Vec<SessionSummary> {
    let mut sessions: std::collections::BTreeMap<String, SessionSummary> = Default::default();
    for (session, workflow, outcome, count, last_seen) in groups {
        let last_seen = crate::inbox::time::from_micros(last_seen);
        let summary = sessions
            .entry(session.clone())
            .or_insert_with(|| SessionSummary {
                session,
                workflow: None,
                steps: 0,
                outcomes: Default::default(),
                last_activity: last_seen,
            });
        if summary.workflow.is_none() {
            summary.workflow = workflow;
        }
        let count = u64::try_from(count).unwrap_or(0);
        summary.steps += count;
        if let Some(outcome) = Outcome::from_name(&outcome) {
            *summary.outcomes.entry(outcome).or_default() += count;
        }
        summary.last_activity = summary.last_activity.max(last_seen);
    }
    let mut list: Vec<SessionSummary> = sessions.into_values().collect();
    list.sort_by(|a, b| {
        b.last_activity
            .cmp(&a.last_activity)
            .then_with(|| a.session.cmp(&b.session))
    });
    if let Some(limit) = filter.limit {
        list.truncate(limit);
    }
    list
}

/// The steps of a ledger in memory: one per key, in the ledger's sequence.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    steps: BTreeMap<u64, Step>,
    by_key: std::collections::HashMap<String, u64>,
    seq: u64,
}

impl Journal {
    /// Notes `step`: a new step with the next sequence number, or one more sighting of the
    /// step of its key.
    pub(crate) fn note(&mut self, step: &Step) {
        let key = step.key();
        if let Some(seen) = self
            .by_key
            .get(&key)
            .and_then(|seq| self.steps.get_mut(seq))
        {
            seen.count += step.count.max(1);
            seen.last_seen = seen.last_seen.max(step.last_seen);
            return;
        }
        self.seq += 1;
        let mut step = step.clone();
        step.seq = self.seq;
        step.count = step.count.max(1);
        self.by_key.insert(key, self.seq);
        self.steps.insert(self.seq, step);
    }

    /// One more sighting at `at` of the step of `key`, if there is one: whether there was.
    pub(crate) fn touch(&mut self, key: &str, at: SystemTime) -> bool {
        match self.by_key.get(key).and_then(|seq| self.steps.get_mut(seq)) {
            Some(step) => {
                step.count += 1;
                step.last_seen = step.last_seen.max(at);
                true
            }
            None => false,
        }
    }

    /// The steps of `session`, in sequence.
    pub(crate) fn session(&self, session: &str) -> Vec<Step> {
        self.steps
            .values()
            .filter(|s| s.session.as_deref() == Some(session))
            .cloned()
            .collect()
    }

    /// The sessions `filter` keeps.
    pub(crate) fn sessions(&self, filter: &SessionFilter) -> Vec<SessionSummary> {
        let groups = self
            .steps
            .values()
            .filter(|s| {
                filter.since.is_none_or(|since| s.last_seen >= since)
                    && filter
                        .workflow
                        .as_ref()
                        .is_none_or(|w| s.workflow.as_ref() == Some(w))
            })
            .filter_map(|s| {
                Some((
                    s.session.clone()?,
                    s.workflow.clone(),
                    s.outcome.as_str().to_owned(),
                    1,
                    crate::inbox::time::to_micros(s.last_seen),
                ))
            })
            .collect();
        summaries(groups, filter)
    }

    /// Forgets the steps last seen before `before`; how many.
    pub(crate) fn prune(&mut self, before: SystemTime) -> u64 {
        let old: Vec<u64> = self
            .steps
            .iter()
            .filter(|(_, s)| s.last_seen < before)
            .map(|(seq, _)| *seq)
            .collect();
        for seq in &old {
            if let Some(step) = self.steps.remove(seq) {
                self.by_key.remove(&step.key());
            }
        }
        old.len() as u64
    }
}

/// The columns a stored step keeps beside its body: its sequence, session, workflow,
/// outcome, count and times.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) struct StepColumns<'a> {
    pub seq: u64,
    pub session: Option<String>,
    pub workflow: Option<String>,
    pub outcome: &'a str,
    pub count: u64,
    pub first_seen: SystemTime,
    pub last_seen: SystemTime,
}

#[cfg(any(feature = "sqlite", feature = "postgres"))]
impl Step {
    /// The body a ledger stores beside the step's columns: what they do not hold, the empty
    /// members left out, the sender's fields as `true` when they are the received ones.
    /// Shorter than the step's JSON by about half, and written on every acceptance.
    pub(crate) fn stored_body(&self) -> Result<String, serde_json::Error> {
        let sender_fields = self.sender_fields.as_deref().map(|fields| {
            if fields == self.received_fields.as_slice() {
                SenderFieldsRef::Received(true)
            } else {
                SenderFieldsRef::Listed(fields)
            }
        });
        serde_json::to_string(&StoredRef {
            from: self.from.as_deref(),
            to: self.to.as_deref(),
            attempt: self.attempt,
            retry_of: self.retry_of.as_deref(),
            contract: &self.contract,
            context_id: self.context_id.as_deref(),
            handoff_id: self.handoff_id.as_deref(),
            reason: self.reason.as_deref(),
            received_fields: &self.received_fields,
            missing_fields: &self.missing_fields,
            sender_fields,
            causes: &self.causes,
            problems: &self.problems,
            spent: self.spent.as_ref(),
        })
    }

    /// The step of a stored body and its columns; `None` when either does not read. A body
    /// of the step's whole JSON (as ledgers wrote before) reads too: its members that the
    /// columns hold are ignored.
    pub(crate) fn from_stored(body: &str, columns: StepColumns<'_>) -> Option<Step> {
        let stored: Stored = serde_json::from_str(body).ok()?;
        let sender_fields = match stored.sender_fields {
            None | Some(SenderFields::Received(false)) => None,
            Some(SenderFields::Received(true)) => Some(stored.received_fields.clone()),
            Some(SenderFields::Listed(fields)) => Some(fields),
        };
        Some(Step {
            seq: columns.seq,
            session: columns.session,
            workflow: columns.workflow,
            from: stored.from,
            to: stored.to,
            attempt: stored.attempt,
            retry_of: stored.retry_of,
            contract: stored.contract,
            context_id: stored.context_id,
            handoff_id: stored.handoff_id,
            outcome: Outcome::from_name(columns.outcome)?,
            reason: stored.reason,
            received_fields: stored.received_fields,
            missing_fields: stored.missing_fields,
            sender_fields,
            causes: stored.causes,
            problems: stored.problems,
            spent: stored.spent,
            count: columns.count,
            first_seen: columns.first_seen,
            last_seen: columns.last_seen,
        })
    }
}

/// A step's stored body, written ([`Step::stored_body`]).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StoredRef<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempt: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_of: Option<&'a str>,
    contract: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    handoff_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    received_fields: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    missing_fields: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    sender_fields: Option<SenderFieldsRef<'a>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    causes: &'a BTreeMap<String, String>,
    #[serde(skip_serializing_if = "<[StepProblem]>::is_empty")]
    problems: &'a [StepProblem],
    #[serde(skip_serializing_if = "Option::is_none")]
    spent: Option<&'a Spent>,
}

/// The sender's fields as stored: `true` for the received ones, else their list.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
#[derive(Serialize)]
#[serde(untagged)]
enum SenderFieldsRef<'a> {
    Received(bool),
    Listed(&'a [String]),
}

/// A step's stored body, read: this form or a step's whole JSON.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    attempt: Option<u32>,
    #[serde(default)]
    retry_of: Option<String>,
    contract: String,
    #[serde(default)]
    context_id: Option<String>,
    #[serde(default)]
    handoff_id: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    received_fields: Vec<String>,
    #[serde(default)]
    missing_fields: Vec<String>,
    #[serde(default)]
    sender_fields: Option<SenderFields>,
    #[serde(default)]
    causes: BTreeMap<String, String>,
    #[serde(default)]
    problems: Vec<StepProblem>,
    #[serde(default)]
    spent: Option<Spent>,
}

/// The sender's fields as read.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
#[derive(Deserialize)]
#[serde(untagged)]
enum SenderFields {
    Received(bool),
    Listed(Vec<String>),
}

/// How long a redelivery's count waits in memory at most before it is written (looked at on
/// each redelivery).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
const PENDING_FOR: std::time::Duration = std::time::Duration::from_secs(1);
/// How many steps' counts wait in memory at most before they are written.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
const PENDING_STEPS: usize = 64;

/// Redeliveries of recorded steps counted in memory by a ledger on a database, written
/// together: by step key, how many more sightings and the last one (micros).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
#[derive(Debug, Default)]
pub(crate) struct PendingCounts {
    counts: std::collections::HashMap<String, (i64, i64)>,
    since: Option<std::time::Instant>,
}

#[cfg(any(feature = "sqlite", feature = "postgres"))]
impl PendingCounts {
    /// One more sighting at `at` (micros) of the step of `key`, if it waits here already:
    /// whether it did.
    pub(crate) fn count(&mut self, key: &str, at: i64) -> bool {
        match self.counts.get_mut(key) {
            Some(counted) => {
                counted.0 += 1;
                counted.1 = counted.1.max(at);
                true
            }
            None => false,
        }
    }

    /// The first sighting waiting here of the step of `key`, a step the ledger holds.
    pub(crate) fn start(&mut self, key: &str, at: i64) {
        self.counts.insert(key.to_owned(), (1, at));
        self.since.get_or_insert_with(std::time::Instant::now);
    }

    /// Whether the counts are to be written now: the first waited long enough, or too many
    /// steps wait.
    pub(crate) fn due(&self) -> bool {
        self.counts.len() >= PENDING_STEPS || self.since.is_some_and(|t| t.elapsed() >= PENDING_FOR)
    }

    /// The counts waiting, taken out: (key, more sightings, last sighting).
    pub(crate) fn take(&mut self) -> Vec<(String, i64, i64)> {
        self.since = None;
        self.counts
            .drain()
            .map(|(key, (more, last))| (key, more, last))
            .collect()
    }

    /// Counts taken that could not be written, put back for the next attempt.
    pub(crate) fn restore(&mut self, counts: Vec<(String, i64, i64)>) {
        for (key, more, last) in counts {
            let counted = self.counts.entry(key).or_insert((0, last));
            counted.0 += more;
            counted.1 = counted.1.max(last);
        }
        if !self.counts.is_empty() {
            self.since.get_or_insert_with(std::time::Instant::now);
        }
    }
}

#[cfg(all(test, any(feature = "sqlite", feature = "postgres")))]
mod stored_tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    fn step(sender_fields: Option<Vec<String>>) -> Step {
        Step {
            seq: 7,
            session: Some("sess-1".into()),
            workflow: Some("support-refund".into()),
            from: Some("triage-agent".into()),
            to: Some("refund-specialist".into()),
            attempt: Some(2),
            retry_of: Some("handoff-0".into()),
            contract: "refund-request/v2".into(),
            context_id: Some("ctx-1".into()),
            handoff_id: Some("handoff-1".into()),
            outcome: Outcome::Refused,
            reason: Some("payload-refused".into()),
            received_fields: vec!["amountCents".into()],
            missing_fields: vec!["orderRef".into()],
            sender_fields,
            causes: [("orderRef".to_owned(), "not-emitted".to_owned())].into(),
            problems: vec![StepProblem {
                pointer: "/payload/orderRef".into(),
                kind: "missing_field".into(),
            }],
            spent: None,
            count: 3,
            first_seen: UNIX_EPOCH + Duration::from_micros(1_000),
            last_seen: UNIX_EPOCH + Duration::from_micros(2_000),
        }
    }

    fn columns(step: &Step) -> StepColumns<'_> {
        StepColumns {
            seq: step.seq,
            session: step.session.clone(),
            workflow: step.workflow.clone(),
            outcome: step.outcome.as_str(),
            count: step.count,
            first_seen: step.first_seen,
            last_seen: step.last_seen,
        }
    }

    #[test]
    fn a_stored_body_reads_back_as_its_step_whatever_the_sender_said() {
        for sender in [
            None,
            Some(vec!["amountCents".to_owned()]),
            Some(vec!["amountCents".to_owned(), "orderRef".to_owned()]),
            Some(Vec::new()),
        ] {
            let step = step(sender);
            let body = step.stored_body().expect("written");
            assert_eq!(Step::from_stored(&body, columns(&step)), Some(step.clone()));
            for column_member in ["\"seq\"", "\"session\"", "\"outcome\"", "\"firstSeen\""] {
                assert!(!body.contains(column_member), "{column_member} in {body}");
            }
        }
    }

    #[test]
    fn the_same_sender_fields_are_stored_once_and_empty_members_not_at_all() {
        let mut step = step(Some(vec!["amountCents".to_owned()]));
        step.causes.clear();
        step.problems.clear();
        step.missing_fields.clear();
        let body = step.stored_body().expect("written");
        assert!(body.contains("\"senderFields\":true"), "{body}");
        for empty in ["missingFields", "causes", "problems", "spent"] {
            assert!(!body.contains(empty), "{empty} in {body}");
        }
        assert_eq!(Step::from_stored(&body, columns(&step)), Some(step.clone()));
    }

    #[test]
    fn a_body_of_the_whole_step_as_ledgers_wrote_it_before_reads_too() {
        for sender in [None, Some(vec!["amountCents".to_owned()])] {
            let step = step(sender);
            let whole = serde_json::to_string(&step).expect("written");
            assert_eq!(
                Step::from_stored(&whole, columns(&step)),
                Some(step.clone())
            );
        }
    }

    #[test]
    fn a_key_is_its_parts_between_unit_separators() {
        let step = step(None);
        assert_eq!(
            step.key(),
            "sess-1\u{1f}ctx-1\u{1f}handoff-1\u{1f}2\u{1f}refused"
        );
        assert_eq!(
            Step::key_of(
                None,
                None,
                Some("h"),
                Some(4_294_967_295),
                Outcome::NotReady
            ),
            "\u{1f}\u{1f}h\u{1f}4294967295\u{1f}not-ready"
        );
        assert_eq!(
            Step::key_of(Some("s"), Some("c"), None, None, Outcome::Applied),
            "s\u{1f}c\u{1f}\u{1f}\u{1f}applied"
        );
    }

    #[test]
    fn a_body_that_does_not_read_or_an_unknown_outcome_is_none() {
        let step = step(None);
        assert_eq!(Step::from_stored("{", columns(&step)), None);
        assert_eq!(Step::from_stored("{\"from\":1}", columns(&step)), None);
        let body = step.stored_body().expect("written");
        let mut unknown = columns(&step);
        unknown.outcome = "exploded";
        assert_eq!(Step::from_stored(&body, unknown), None);
    }
}
