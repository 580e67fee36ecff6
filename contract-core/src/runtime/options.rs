//! What a call is given beside its payload: the size [`Limits`], the [`Journey`] for traces,
//! the options that carry both; and the one naming rule every layer of the runtime asks
//! (`serde_json`'s private forms). The bottom of the runtime: it takes nothing from it.

/// Size limits of one payload. Exceeding one is a rejection, never a crash: the scan is
/// iterative, and what it allocates is bounded by `max_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The largest payload, in bytes (default 16 MiB).
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects (default 127, what `serde_json` reads).
    pub max_depth: usize,
    /// The longest string, in bytes of its JSON text (default 4 MiB).
    pub max_string_bytes: usize,
    /// The most keys in one object (default 10,000).
    pub max_keys_per_object: usize,
    /// How many unknown field names a presence record names; past that it counts them
    /// (default 32).
    pub max_unknown_names: usize,
}

impl Limits {
    pub(crate) const DEFAULT: Limits = Limits {
        max_bytes: 16 << 20,
        max_depth: 127,
        max_string_bytes: 4 << 20,
        max_keys_per_object: 10_000,
        max_unknown_names: 32,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Chainable setters, one per limit, in the style of [`Journey`]'s: `Limits` is
/// `#[non_exhaustive]` (a limit may be added without a breaking release), so a struct literal
/// cannot build one outside this crate, and these do.
///
/// ```
/// use contract_core::Limits;
///
/// let limits = Limits::default().max_bytes(1 << 20).max_depth(32);
/// assert_eq!(limits.max_bytes, 1 << 20);
/// assert_eq!(limits.max_depth, 32);
/// assert_eq!(limits.max_keys_per_object, Limits::default().max_keys_per_object);
/// ```
impl Limits {
    /// With the largest payload, in bytes.
    #[must_use]
    pub const fn max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// With the deepest nesting of arrays and objects.
    #[must_use]
    pub const fn max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// With the longest string, in bytes of its JSON text.
    #[must_use]
    pub const fn max_string_bytes(mut self, max_string_bytes: usize) -> Self {
        self.max_string_bytes = max_string_bytes;
        self
    }

    /// With the most keys in one object.
    #[must_use]
    pub const fn max_keys_per_object(mut self, max_keys_per_object: usize) -> Self {
        self.max_keys_per_object = max_keys_per_object;
        self
    }

    /// With how many unknown field names a presence record names before it counts them.
    #[must_use]
    pub const fn max_unknown_names(mut self, max_unknown_names: usize) -> Self {
        self.max_unknown_names = max_unknown_names;
        self
    }
}

/// The options of [`receive`](crate::receive), [`send`](crate::send) and
/// [`send_to`](crate::send_to): kept, not built per call.
pub(crate) static DEFAULT_RECEIVE: ReceiveOptions = ReceiveOptions {
    limits: Limits::DEFAULT,
    journey: Journey::NONE,
    numbers: Numbers::Exact,
};
pub(crate) static DEFAULT_SEND: SendOptions = SendOptions {
    limits: Limits::DEFAULT,
    journey: Journey::NONE,
};

/// The identity of the journey a payload is on, for traces (`sessionId`, `workflowName`,
/// `handoffFrom`, `handoffTo`, `attempt`, `retryOf`). None of it is checked; all of it is recorded on the span of a call when the `tracing` feature is on.
///
/// It travels in the envelope (`Handoff::journey`) with camelCase keys, so it is serde and
/// (feature `derive`) `HandoffSchema`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "derive",
    derive(crate::HandoffSchema),
    handoff(crate = "crate")
)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Journey {
    /// The session (for A2A, the `contextId`); recorded as `gen_ai.conversation.id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The workflow's name (`support-refund`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow_name: Option<String>,
    /// The agent or service handing off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handoff_from: Option<String>,
    /// The agent or service taking over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handoff_to: Option<String>,
    /// Which attempt this is, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u32>,
    /// The run this one retries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_of: Option<String>,
}

impl Journey {
    pub(crate) const NONE: Journey = Journey {
        session_id: None,
        workflow_name: None,
        handoff_from: None,
        handoff_to: None,
        attempt: None,
        retry_of: None,
    };

    /// A journey from one agent to another.
    #[must_use]
    pub fn new(handoff_from: impl Into<String>, handoff_to: impl Into<String>) -> Self {
        Journey {
            handoff_from: Some(handoff_from.into()),
            handoff_to: Some(handoff_to.into()),
            ..Journey::default()
        }
    }

    /// With the session id.
    #[must_use]
    pub fn session(mut self, session_id: impl Into<String>) -> Self {
        self.session_id = Some(session_id.into());
        self
    }

    /// With the workflow's name.
    #[must_use]
    pub fn workflow(mut self, workflow_name: impl Into<String>) -> Self {
        self.workflow_name = Some(workflow_name.into());
        self
    }

    /// With the agent or service handing off (for a journey begun with `Journey::default()`).
    #[must_use]
    pub fn from(mut self, handoff_from: impl Into<String>) -> Self {
        self.handoff_from = Some(handoff_from.into());
        self
    }

    /// With the agent or service taking over.
    #[must_use]
    pub fn to(mut self, handoff_to: impl Into<String>) -> Self {
        self.handoff_to = Some(handoff_to.into());
        self
    }

    /// With the attempt number alone (a first attempt retries nothing).
    #[must_use]
    pub fn attempt(mut self, attempt: u32) -> Self {
        self.attempt = Some(attempt);
        self
    }

    /// With the run this one retries.
    #[must_use]
    pub fn retry_of(mut self, retry_of: impl Into<String>) -> Self {
        self.retry_of = Some(retry_of.into());
        self
    }

    /// With the attempt number and the run it retries.
    #[must_use]
    pub fn retry(self, attempt: u32, retry_of: impl Into<String>) -> Self {
        self.attempt(attempt).retry_of(retry_of)
    }
}

/// How [`receive_with`](crate::receive_with) reads a number where the contract has an
/// integer.
///
/// ```
/// use contract_core::{receive_with, HandoffContract, Numbers, ReceiveOptions};
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize, HandoffContract)]
/// #[handoff(name = "refund", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct Refund {
///     amount_cents: u32,
/// }
///
/// // A writer that only has doubles (protobuf's `Value`, JavaScript) wrote 1250 as `1250.0`.
/// let written = br#"{"amountCents": 1250.0}"#;
/// assert!(receive_with::<Refund>(written, &ReceiveOptions::default()).is_err());
///
/// let doubles = ReceiveOptions::default().numbers(Numbers::FromDoubles);
/// let received = receive_with::<Refund>(written, &doubles).unwrap();
/// assert_eq!(received.into_inner().amount_cents, 1250);
///
/// // Not a whole number, or 2^53 and beyond (where a double may be the rounding of another
/// // integer): refused.
/// assert!(receive_with::<Refund>(br#"{"amountCents": 1250.5}"#, &doubles).is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Numbers {
    /// serde's rule (the default): an integer field reads an integer literal only; `1250.0`
    /// is refused as a number with a fraction.
    #[default]
    Exact,
    /// For writers that hold every number as a double (a protobuf `Value`, as in A2A's
    /// `data` Part; JavaScript): a literal with a zero fraction or an exponent (`1250.0`,
    /// `1.25e3`) where the contract has an integer is read as the integer it equals, when it
    /// equals one exactly, within ±(2^53 − 1) (JavaScript's safe integers: from 2^53 on, a
    /// double may be the rounding of the writer's integer) and within the range of the field's integer type. Any other literal is
    /// refused as under [`Numbers::Exact`]; the presence and the other problems are the same.
    /// Inside an untagged enum, a literal is read so where a variant has an integer there and
    /// none has any JSON value (`serde_json::Value`, where the literal's form is the value).
    /// The A2A reader's default.
    FromDoubles,
}

/// The options of [`receive_with`](crate::receive_with).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReceiveOptions {
    /// Size limits.
    pub limits: Limits,
    /// Where the payload comes from and goes, for traces.
    pub journey: Journey,
    /// How a number is read where the contract has an integer ([`Numbers::Exact`] unless
    /// set).
    pub numbers: Numbers,
}

/// Chainable on a value, like [`Journey`]:
/// `ReceiveOptions::default().journey(journey).limits(Limits::default().max_bytes(1 << 20))`.
impl ReceiveOptions {
    /// With this journey, for traces.
    #[must_use]
    pub fn journey(mut self, journey: Journey) -> Self {
        self.journey = journey;
        self
    }

    /// With these size limits for the payload.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// With this reading of numbers where the contract has an integer (see [`Numbers`]).
    #[must_use]
    pub fn numbers(mut self, numbers: Numbers) -> Self {
        self.numbers = numbers;
        self
    }
}

/// The options of [`send_with`](crate::send_with) and [`send_to_with`](crate::send_to_with).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SendOptions {
    /// Size limits the written payload must keep (a receiver with the same limits reads it).
    pub limits: Limits,
    /// Where the payload comes from and goes, for traces.
    pub journey: Journey,
}

/// Chainable on a value, like [`Journey`]:
/// `SendOptions::default().journey(journey).limits(Limits::default().max_bytes(1 << 20))`.
impl SendOptions {
    /// With this journey, for traces.
    #[must_use]
    pub fn journey(mut self, journey: Journey) -> Self {
        self.journey = journey;
        self
    }

    /// With these size limits for the written payload.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// Whether `name` (of a struct, a newtype or a key) is one of serde_json's private forms
/// (`RawValue`, arbitrary-precision numbers), which only serde_json itself may write or read.
#[inline]
pub(crate) fn serde_json_private(name: &str) -> bool {
    name.starts_with("$serde_json::")
}
