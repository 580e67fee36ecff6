//! [`Handoff`]: the envelope `handoff-envelope/v1`, its [`ArtifactRef`]s and
//! its [`Status`].

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use contract_schema::shape::{Kind, Shape};

use crate::runtime::options::Journey;
use crate::runtime::presence::Presence;
use crate::task::{Budget, Spent};
use crate::traits::HandoffSchema;

use super::digest::Digest;

/// The envelope's contract id, `handoff-envelope/v1`: the value of every envelope's
/// `schemaVersion` ([`HANDOFF_SCHEMA_VERSION`] is the same constant, named after the field).
pub const ENVELOPE: &str = "handoff-envelope/v1";

/// The value of every envelope's `schemaVersion`, `handoff-envelope/v1`: the envelope's own
/// contract id, whatever its payload. [`ENVELOPE`] and `Handoff::<T>::SCHEMA_VERSION` are
/// the same value.
///
/// ```
/// use contract_core::HANDOFF_SCHEMA_VERSION;
/// use serde_json::Value;
///
/// // An envelope written by a peer, checked before its payload's type is chosen.
/// let bytes = br#"{"schemaVersion":"handoff-envelope/v1","contract":"refund-request/v1"}"#;
/// let envelope: Value = serde_json::from_slice(bytes)?;
/// assert_eq!(envelope["schemaVersion"], HANDOFF_SCHEMA_VERSION);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub const HANDOFF_SCHEMA_VERSION: &str = ENVELOPE;

/// Where a handoff stands. An inbox accepts only `ready`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, crate::HandoffSchema,
)]
#[handoff(crate = "crate")]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still being written: not to be acted on.
    #[default]
    Draft,
    /// Complete: the receiver may act on it.
    Ready,
    /// A status this version does not know (a later version's), read so that the envelope
    /// is still read; it is not `ready`.
    #[serde(other)]
    Other,
}

/// A versioned artifact a handoff refers to (a file read later must not have changed): its name, where it lives, the version the sender saw and, for a file, the hash
/// of its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(rename_all = "camelCase")]
pub struct ArtifactRef {
    /// Its name (`refund-policy`).
    pub name: String,
    /// Where it lives (`s3://…`, `file:…`, a URL).
    pub uri: String,
    /// The version the sender saw: a receiver refuses one its store cannot resolve, or one
    /// below what it accepted before for the same `uri`.
    pub version: u64,
    /// The SHA-256 of the content the sender saw, for a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<Digest>,
}

impl ArtifactRef {
    /// A reference to version `version` of the artifact `name` at `uri`, without a digest.
    #[must_use]
    pub fn new(name: impl Into<String>, uri: impl Into<String>, version: u64) -> Self {
        ArtifactRef {
            name: name.into(),
            uri: uri.into(),
            version,
            digest: None,
        }
    }

    /// With the hash of the content the sender saw.
    #[must_use]
    pub fn digest(mut self, digest: Digest) -> Self {
        self.digest = Some(digest);
        self
    }
}

/// The envelope a handoff travels in, `handoff-envelope/v1`: the shared task
/// context around a payload `T`, with camelCase keys and snake_case enum values.
///
/// Decisions the user confirmed and assumptions nobody confirmed are kept apart
/// (`assumptions` is marked `#[handoff(assumption)]`). Accepting one is idempotent on
/// `(contextId, handoffId)`: a retry keeps `handoffId` and says so in its `journey`.
///
/// It is a generic contract: every `Handoff<T>` publishes one snapshot,
/// `contracts/handoff-envelope.v1.snap`, with the payload as a hole (`any`); the payload is
/// checked by its own contract, named in `contract`. [`send_handoff`](crate::send_handoff)
/// fills `contract` and `senderPresence`; [`receive_handoff`](crate::receive_handoff) reads
/// the envelope's top level first and the payload only when `contract` names `T`'s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, crate::HandoffContract)]
#[handoff(crate = "crate", name = "handoff-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Handoff<T> {
    /// The envelope's own contract id: `handoff-envelope/v1` ([`ENVELOPE`]).
    pub schema_version: String,
    /// The payload's contract id (`refund-request/v1`); [`send_handoff`](crate::send_handoff)
    /// fills it.
    pub contract: String,
    /// The shared task context (for A2A, its `contextId`).
    pub context_id: String,
    /// The task within the context, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// This handoff, unique within the context; a retry keeps it.
    pub handoff_id: String,
    /// What the receiver is to achieve.
    pub goal: String,
    /// Limits the work must keep (`no refund above 500 EUR`).
    #[serde(default)]
    pub constraints: Vec<String>,
    /// Decisions the user confirmed.
    #[serde(default)]
    pub decisions: Vec<String>,
    /// Questions still open.
    #[serde(default)]
    pub open_questions: Vec<String>,
    /// Working assumptions nobody confirmed: kept apart from `decisions`.
    #[serde(default)]
    #[handoff(assumption)]
    pub assumptions: Vec<String>,
    /// The artifacts the handoff refers to, each at the version the sender saw.
    #[serde(default)]
    pub artifacts: Vec<ArtifactRef>,
    /// What the receiver may spend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// What the sender's own task spent before it handed off (calls, tokens, and what its
    /// budget and scope refused: counts only), recorded with the handoff's step in the
    /// receiving ledger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<Spent>,
    /// The agent or service responsible for the context once this handoff is accepted: its
    /// receiver (the journey's `handoffTo`), from which the context's next handoff comes.
    pub owner: String,
    /// Where the handoff stands: an inbox acts on `ready` only.
    pub status: Status,
    /// The journey, for traces: session, workflow, from, to, attempt, the run retried.
    #[serde(default)]
    pub journey: Journey,
    /// What the sender wrote of the payload, as its presence record (no values);
    /// [`send_handoff`](crate::send_handoff) fills it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_presence: Option<Presence>,
    /// The payload, checked by its own contract (`contract`).
    pub payload: T,
}

impl<T> Handoff<T> {
    /// The envelope's contract id, `handoff-envelope/v1`, as `schemaVersion` holds it: an
    /// alias of [`HANDOFF_SCHEMA_VERSION`], which names no payload type (the value does not
    /// depend on `T`).
    pub const SCHEMA_VERSION: &'static str = HANDOFF_SCHEMA_VERSION;

    /// A `draft` envelope of `payload` in context `context_id`, owned from its acceptance on by
    /// `owner` (the agent taking over: the receiver), with an empty goal, lists and journey. `contract` is filled by
    /// [`send_handoff`](crate::send_handoff).
    #[must_use]
    pub fn new(
        context_id: impl Into<String>,
        handoff_id: impl Into<String>,
        owner: impl Into<String>,
        payload: T,
    ) -> Self {
        Handoff {
            schema_version: ENVELOPE.to_owned(),
            contract: String::new(),
            context_id: context_id.into(),
            task_id: None,
            handoff_id: handoff_id.into(),
            goal: String::new(),
            constraints: Vec::new(),
            decisions: Vec::new(),
            open_questions: Vec::new(),
            assumptions: Vec::new(),
            artifacts: Vec::new(),
            budget: None,
            spent: None,
            owner: owner.into(),
            status: Status::Draft,
            journey: Journey::default(),
            sender_presence: None,
            payload,
        }
    }

    /// With the goal.
    #[must_use]
    pub fn goal(mut self, goal: impl Into<String>) -> Self {
        self.goal = goal.into();
        self
    }

    /// With the task id.
    #[must_use]
    pub fn task(mut self, task_id: impl Into<String>) -> Self {
        self.task_id = Some(task_id.into());
        self
    }

    /// With one more constraint.
    #[must_use]
    pub fn constraint(mut self, constraint: impl Into<String>) -> Self {
        self.constraints.push(constraint.into());
        self
    }

    /// With one more confirmed decision.
    #[must_use]
    pub fn decision(mut self, decision: impl Into<String>) -> Self {
        self.decisions.push(decision.into());
        self
    }

    /// With one more open question.
    #[must_use]
    pub fn open_question(mut self, question: impl Into<String>) -> Self {
        self.open_questions.push(question.into());
        self
    }

    /// With one more unconfirmed assumption.
    #[must_use]
    pub fn assumption(mut self, assumption: impl Into<String>) -> Self {
        self.assumptions.push(assumption.into());
        self
    }

    /// With one more artifact.
    #[must_use]
    pub fn artifact(mut self, artifact: ArtifactRef) -> Self {
        self.artifacts.push(artifact);
        self
    }

    /// With a budget.
    #[must_use]
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// With what the sender's task spent: [`Spent::of`] its meter, with the actions its guard
    /// refused ([`Spent::actions`]).
    ///
    /// ```
    /// use contract_core::task::{Budget, BudgetMeter, Call, Spent};
    /// use contract_core::Handoff;
    ///
    /// let meter = BudgetMeter::new(&Budget::default());
    /// drop(meter.reserve(Call::Model)?);
    /// let handoff = Handoff::new("ctx-1", "h-1", "supervisor", "done").spent(Spent::of(&meter));
    /// assert_eq!(handoff.spent.map(|s| s.model_calls), Some(1));
    /// # Ok::<(), contract_core::task::BudgetExceeded>(())
    /// ```
    #[must_use]
    pub fn spent(mut self, spent: Spent) -> Self {
        self.spent = Some(spent);
        self
    }

    /// With this status.
    #[must_use]
    pub fn status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }

    /// `ready`: the receiver may act on it.
    #[must_use]
    pub fn ready(self) -> Self {
        self.status(Status::Ready)
    }

    /// With this journey.
    #[must_use]
    pub fn journey(mut self, journey: Journey) -> Self {
        self.journey = journey;
        self
    }

    /// The same envelope around another payload (`f` of this one).
    #[must_use]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Handoff<U> {
        Handoff {
            schema_version: self.schema_version,
            contract: self.contract,
            context_id: self.context_id,
            task_id: self.task_id,
            handoff_id: self.handoff_id,
            goal: self.goal,
            constraints: self.constraints,
            decisions: self.decisions,
            open_questions: self.open_questions,
            assumptions: self.assumptions,
            artifacts: self.artifacts,
            budget: self.budget,
            spent: self.spent,
            owner: self.owner,
            status: self.status,
            journey: self.journey,
            sender_presence: self.sender_presence,
            payload: f(self.payload),
        }
    }
}

/// The payload's place when the envelope's own fields are read: any value, skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Skipped;

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Skipped)
    }
}

/// Written as `null`: the place the payload's bytes take in an envelope written by
/// [`send_handoff`](crate::send_handoff).
impl Serialize for Skipped {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

/// Any value: the hole of the envelope's published shape.
impl HandoffSchema for Skipped {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Any);
}

/// The envelope without its payload: what its own fields are read as.
pub(crate) type Head = Handoff<Skipped>;
