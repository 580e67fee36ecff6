//! A payload and its contract carried in an [A2A](https://a2a-protocol.org) 1.0 `Message` or
//! `Artifact` (feature `a2a`).
//!
//! A2A lets an agent advertise media types but no payload schema; a handoff contract fills
//! that gap as an A2A **extension** (§4.6 of the specification), identified by a URI that
//! carries its version:
//!
//! | A2A member | what it holds |
//! |---|---|
//! | `parts[0].data`, `parts[0].mediaType` | exactly the bytes [`send`](crate::send) wrote; `application/json` |
//! | `extensions[]` | the contract's URI: a configured base + `<name>/v<N>` (`https://example.com/contracts/refund-request/v2`) |
//! | `metadata[<uri>]` | the sender's [`Presence`] record (field names, never values) |
//! | `messageId`, `role`, `contextId`, `taskId` | a Message's own; from a [`Handoff`], its `contextId` and `taskId` |
//! | `artifactId`, `name`, `description` | an Artifact's own (A2A sends results as Artifacts, §3.7) |
//!
//! Reading ([`A2a::receive_message`], [`A2a::receive_artifact`]) checks A2A's required fields
//! (`messageId`; `role`, `ROLE_USER` or `ROLE_AGENT`; `parts`, not empty; `artifactId`),
//! ignores the members it does not know (§5.7), finds the contract's URI in `extensions[]`
//! before anything of the payload is read (another major of the contract is refused naming
//! both: an extension has no fallback between versions), and reads the one `data` Part from
//! its **byte span** in the input: a parsed `serde_json::Value` keeps the last of duplicate
//! keys, so only the span keeps [`receive`](crate::receive)'s refusal of a key twice. Every
//! problem is located by a JSON pointer into the A2A document (`/parts/0/data/orderId`,
//! `/role`) and names no value. A 0.3 `role: "agent"` is refused, naming the version.
//!
//! # Numbers
//!
//! A2A defines `data` as a protobuf `Value`, whose numbers are **doubles**, and the SDKs
//! built on protobuf write every number as one: the official Python SDK writes the integer
//! `1250` as `1250.0`, and `9007199254740993` as `9007199254740992.0` (rounded to the nearest
//! double). So the reader takes, by default, [`Numbers::FromDoubles`]: where the contract
//! has an integer, a literal with a zero fraction or an exponent is read as the integer it
//! equals, when it equals one exactly, lies within ±(2^53 − 1) (JavaScript's safe integers: the
//! double 2^53 is also the nearest to 2^53 + 1, as the SDK's output shows) and fits the
//! field's type; a fraction, a value of 2^53 or more in magnitude, or one out of the type's
//! range is refused, located. [`A2a::numbers`] sets serde's rule,
//! [`Numbers::Exact`], instead.
//!
//! The bytes this module writes are the JSON `send` wrote, exact; but a peer that reads the
//! Part through protobuf (or JavaScript) keeps integers exactly only within ±2^53, so a
//! contract with integers that may lie beyond that range (an `i64`, `u64`, `i128` or `u128`
//! without bounds within it) can be rounded on the way, and such a value written back by the
//! peer is refused. [`A2a::inexact_integers`] lists them per contract, and
//! [`A2aSent::inexact_integers`] with every message written: give them a narrower type
//! (`u32`, `i32`, or a `schema_as` type whose range stays within ±2^53) or carry them as
//! strings.
//!
//! # Names
//!
//! A2A 1.0's JSON is ProtoJSON: its writers use each member's lowerCamelCase name
//! (`messageId`), and a ProtoJSON parser accepts the proto field name too (`message_id`). So
//! does this reader, for A2A's own members (a member under both names is refused); the
//! payload's keys inside `data` are the contract's, read as it names them. A member A2A
//! requires that is absent is a [`ProblemKind::MissingMember`] naming A2A, and every fault
//! of the A2A object (no extension of the contract, not one `data` Part, an A2A 0.3 value) is
//! of [`ProblemClass::Protocol`](crate::ProblemClass::Protocol): the payload's contract is
//! not what is wrong.
//!
//! ```
//! use contract_core::a2a::{A2a, MessageHead, Role};
//! use contract_core::{HandoffContract, ReceiveOptions};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, PartialEq, Serialize, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 2)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     order_id: String,
//!     amount_cents: u32,
//! }
//!
//! let a2a = A2a::new("https://example.com/contracts/");
//! assert_eq!(a2a.uri::<RefundRequest>(), "https://example.com/contracts/refund-request/v2");
//!
//! let request = RefundRequest { order_id: "A-1".into(), amount_cents: 1250 };
//! let head = MessageHead::new("msg-1", Role::Agent).context("ctx-1");
//! let sent = a2a.message(&head, &request)?;
//! assert!(sent.inexact_integers().is_empty());
//!
//! let message: serde_json::Value = serde_json::from_slice(sent.bytes()).unwrap();
//! assert_eq!(message["role"], "ROLE_AGENT");
//! assert_eq!(message["parts"][0]["mediaType"], "application/json");
//! assert_eq!(message["extensions"][0], a2a.uri::<RefundRequest>());
//!
//! let received = a2a.receive_message::<RefundRequest>(sent.bytes(), &ReceiveOptions::default())?;
//! assert_eq!(received.payload(), &request);
//! assert_eq!(received.head().context_id.as_deref(), Some("ctx-1"));
//! assert_eq!(received.sender_presence().unwrap().received(), ["orderId", "amountCents"]);
//!
//! // A key twice inside the Part: refused, located in the A2A document.
//! let twice = br#"{"messageId": "m", "role": "ROLE_USER",
//!     "extensions": ["https://example.com/contracts/refund-request/v2"],
//!     "parts": [{"data": {"orderId": "A-1", "amountCents": 1, "amountCents": 2}}]}"#;
//! let err = a2a.receive_message::<RefundRequest>(twice, &ReceiveOptions::default()).unwrap_err();
//! assert_eq!(err.problems()[0].pointer, "/parts/0/data/amountCents");
//! # Ok::<(), contract_core::a2a::A2aRejection>(())
//! ```

mod names;
mod read;
mod span;
mod width;

use core::fmt;

use serde::de::DeserializeOwned;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::envelope::delivery::under;
use crate::envelope::Handoff;
use crate::runtime::options::{Numbers, ReceiveOptions, SendOptions};
use crate::runtime::presence::{Presence, Side};
use crate::runtime::problem::{Problem, ProblemKind};
use crate::runtime::{send_with, why_missing, WhyMissing};
use crate::traits::{HandoffContract, HandoffSchema};

pub use names::{Role, MEDIA_TYPE, ROLE_AGENT, ROLE_USER};
use read::{Object, Read};

/// The A2A mapping of handoff contracts: the base their extension URIs are built on.
///
/// A contract's URI is the base followed by its id, `<name>/v<N>`; a `/` is put between the
/// two when the base does not end with one. Sender and receiver configure the same base.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct A2a {
    base: String,
    numbers: Numbers,
}

/// A Message's own fields: what is written around the payload, and what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageHead {
    /// `messageId`, set by the message's creator.
    pub message_id: String,
    /// `role`.
    pub role: Role,
    /// `contextId`, opaque.
    pub context_id: Option<String>,
    /// `taskId`, of a task that exists.
    pub task_id: Option<String>,
}

impl MessageHead {
    /// A message `message_id` from `role`, in no context or task.
    #[must_use]
    pub fn new(message_id: impl Into<String>, role: Role) -> Self {
        MessageHead {
            message_id: message_id.into(),
            role,
            context_id: None,
            task_id: None,
        }
    }

    /// A message of `handoff`'s context and task: A2A's `contextId` and `taskId` are the
    /// envelope's of the same names.
    #[must_use]
    pub fn of_handoff<T>(handoff: &Handoff<T>, message_id: impl Into<String>, role: Role) -> Self {
        MessageHead {
            message_id: message_id.into(),
            role,
            context_id: Some(handoff.context_id.clone()),
            task_id: handoff.task_id.clone(),
        }
    }

    /// With this `contextId`.
    #[must_use]
    pub fn context(mut self, context_id: impl Into<String>) -> Self {
        self.context_id = Some(context_id.into());
        self
    }

    /// With this `taskId`.
    #[must_use]
    pub fn task(mut self, task_id: impl Into<String>) -> Self {
        self.task_id = Some(task_id.into());
        self
    }
}

/// An Artifact's own fields: what is written around the payload, and what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactHead {
    /// `artifactId`, unique within its task.
    pub artifact_id: String,
    /// `name`, for people.
    pub name: Option<String>,
    /// `description`, for people.
    pub description: Option<String>,
}

impl ArtifactHead {
    /// An artifact `artifact_id`, without name or description.
    #[must_use]
    pub fn new(artifact_id: impl Into<String>) -> Self {
        ArtifactHead {
            artifact_id: artifact_id.into(),
            name: None,
            description: None,
        }
    }

    /// With this `name`.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// With this `description`.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// A Message or Artifact written: its bytes, the payload's presence, and the contract's
/// integers a protobuf reader of `data` may round.
#[derive(Debug, Clone)]
pub struct A2aSent {
    bytes: Vec<u8>,
    presence: Presence,
    inexact: &'static [String],
}

impl A2aSent {
    /// The A2A JSON bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The A2A JSON bytes, owned.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Which fields of the payload were written (also under `metadata[<uri>]`).
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// The warning of the [module docs](self#numbers): the sender-view paths of the
    /// contract's integers whose range reaches beyond ±2^53 (`amount`, `lines[].id`), which
    /// a peer reading `data` as a protobuf `Value` may round; empty when there are none.
    #[must_use]
    pub fn inexact_integers(&self) -> &'static [String] {
        self.inexact
    }
}

impl AsRef<[u8]> for A2aSent {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl From<A2aSent> for Vec<u8> {
    fn from(sent: A2aSent) -> Vec<u8> {
        sent.bytes
    }
}

/// A payload received in a Message or Artifact: the object's own fields (`H`: a
/// [`MessageHead`] or an [`ArtifactHead`]), the payload, its presence (payload-relative, as
/// [`why_missing`] reads it), and the sender's presence from
/// `metadata[<uri>]`.
#[derive(Debug, Clone)]
pub struct A2aDelivery<T, H> {
    head: H,
    payload: T,
    presence: Presence,
    sender_presence: Option<Presence>,
}

impl<T, H> A2aDelivery<T, H> {
    /// The Message's or Artifact's own fields.
    #[must_use]
    pub fn head(&self) -> &H {
        &self.head
    }

    /// The payload.
    #[must_use]
    pub fn payload(&self) -> &T {
        &self.payload
    }

    /// The payload, owned.
    #[must_use]
    pub fn into_payload(self) -> T {
        self.payload
    }

    /// Which fields of the payload arrived, payload-relative.
    #[must_use]
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// What the sender says it wrote, when `metadata[<uri>]` holds it.
    #[must_use]
    pub fn sender_presence(&self) -> Option<&Presence> {
        self.sender_presence.as_ref()
    }
}

/// A Message or Artifact refused by [`A2a::receive_message`] or [`A2a::receive_artifact`]
/// (or a payload [`A2a::message`] or [`A2a::artifact`] refused to write): every problem,
/// each located by a JSON pointer into the A2A document, and the presence records of what
/// was read. Neither its `Display`, `Debug` nor JSON holds a value of the payload.
#[derive(Debug, Clone, Serialize)]
pub struct A2aRejection {
    side: Side,
    object: &'static str,
    contract: &'static str,
    problems: Vec<Problem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    presence: Option<Box<Presence>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sender_presence: Option<Box<Presence>>,
}

impl A2aRejection {
    /// Every problem, each with a pointer from the A2A document's root.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The side that refused it.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The contract the payload was to be checked against.
    #[must_use]
    pub fn contract(&self) -> &str {
        self.contract
    }

    /// Which fields of the payload arrived (or were written), payload-relative, when it was
    /// read: `None` when the object was refused before it (no URI of the contract, not one
    /// `data` Part).
    #[must_use]
    pub fn presence(&self) -> Option<&Presence> {
        self.presence.as_deref()
    }

    /// What the sender says it wrote, from `metadata[<uri>]`, when that was read.
    #[must_use]
    pub fn sender_presence(&self) -> Option<&Presence> {
        self.sender_presence.as_deref()
    }

    /// The diagnosis of the payload's missing fields, the sender's presence taken as
    /// evidence (a field it wrote that did not arrive was dropped on the way): `None` when
    /// the payload was not read, or `T` is not the contract it was read as.
    #[must_use]
    pub fn why_missing<T: HandoffContract + 'static>(&self) -> Option<WhyMissing<'_>> {
        if T::CONTRACT.id != self.contract {
            return None;
        }
        let mut diagnosis = why_missing::<T>(self.presence.as_deref()?);
        if let Some(sender) = self.sender_presence.as_deref() {
            diagnosis = diagnosis.sender(sender);
        }
        Some(diagnosis)
    }
}

impl fmt::Display for A2aRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(
            f,
            "{} of {} carrying {} refused: {n} problem{}",
            self.side.as_str(),
            self.object,
            self.contract,
            if n == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for A2aRejection {}

/// One member of `metadata`: the contract's URI and the sender's presence.
struct Metadata<'a> {
    uri: &'a str,
    presence: &'a Presence,
}

impl Serialize for Metadata<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map([(self.uri, self.presence)])
    }
}

/// The one Part written: the payload's bytes as they are.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DataPart<'a> {
    data: &'a RawValue,
    media_type: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MessageOut<'a> {
    message_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    task_id: Option<&'a str>,
    role: Role,
    parts: [DataPart<'a>; 1],
    metadata: Metadata<'a>,
    extensions: [&'a str; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactOut<'a> {
    artifact_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    parts: [DataPart<'a>; 1],
    metadata: Metadata<'a>,
    extensions: [&'a str; 1],
}

impl A2a {
    /// The mapping whose contract URIs start with `base` (`https://example.com/contracts/`).
    #[must_use]
    pub fn new(base: impl Into<String>) -> Self {
        let mut base = base.into();
        if !base.ends_with('/') {
            base.push('/');
        }
        A2a {
            base,
            numbers: Numbers::FromDoubles,
        }
    }

    /// With this reading of the payload's numbers where its contract has an integer
    /// ([`Numbers::FromDoubles`] unless set, since a protobuf `Value` holds every number as a
    /// double: see the [module docs](self#numbers)). It replaces the `numbers` of the
    /// [`ReceiveOptions`] a read is given.
    #[must_use]
    pub fn numbers(mut self, numbers: Numbers) -> Self {
        self.numbers = numbers;
        self
    }

    /// The extension URI of contract `T`: the base followed by `<name>/v<N>`.
    #[must_use]
    pub fn uri<T: HandoffContract + ?Sized>(&self) -> String {
        format!("{}{}", self.base, T::CONTRACT.id)
    }

    /// The sender-view paths of `T`'s integers whose range reaches beyond ±2^53, which a
    /// peer reading `data` as a protobuf `Value` may round (see the
    /// [module docs](self#numbers)); computed once per type.
    #[must_use]
    pub fn inexact_integers<T: HandoffSchema + ?Sized + 'static>() -> &'static [String] {
        width::inexact_integers::<T>()
    }

    /// Checks `value` with [`send`](crate::send) and writes it in an A2A Message: one `data`
    /// Part holding exactly the bytes `send` wrote, the contract's URI in `extensions[]`,
    /// the presence of what was written under `metadata[<uri>]`.
    ///
    /// # Errors
    /// An [`A2aRejection`] with `send`'s problems, each pointer under `/parts/0/data`.
    pub fn message<T>(&self, head: &MessageHead, value: &T) -> Result<A2aSent, A2aRejection>
    where
        T: Serialize + HandoffContract + 'static,
    {
        self.write(Object::Message, value, |uri, part, metadata| {
            serde_json::to_vec(&MessageOut {
                message_id: &head.message_id,
                context_id: head.context_id.as_deref(),
                task_id: head.task_id.as_deref(),
                role: head.role,
                parts: [part],
                metadata,
                extensions: [uri],
            })
        })
    }

    /// [`A2a::message`] for an Artifact, the form A2A gives results in (§3.7).
    ///
    /// # Errors
    /// An [`A2aRejection`] with `send`'s problems, each pointer under `/parts/0/data`.
    pub fn artifact<T>(&self, head: &ArtifactHead, value: &T) -> Result<A2aSent, A2aRejection>
    where
        T: Serialize + HandoffContract + 'static,
    {
        self.write(Object::Artifact, value, |uri, part, metadata| {
            serde_json::to_vec(&ArtifactOut {
                artifact_id: &head.artifact_id,
                name: head.name.as_deref(),
                description: head.description.as_deref(),
                parts: [part],
                metadata,
                extensions: [uri],
            })
        })
    }

    fn write<T>(
        &self,
        object: Object,
        value: &T,
        around: impl FnOnce(&str, DataPart<'_>, Metadata<'_>) -> serde_json::Result<Vec<u8>>,
    ) -> Result<A2aSent, A2aRejection>
    where
        T: Serialize + HandoffContract + 'static,
    {
        let rejected = |problems, presence| A2aRejection {
            side: Side::Send,
            object: object.as_str(),
            contract: T::CONTRACT.id,
            problems,
            presence: Some(Box::new(presence)),
            sender_presence: None,
        };
        let sent = match send_with(value, &SendOptions::default()) {
            Ok(sent) => sent,
            Err(rejection) => {
                let (problems, presence) = rejection.into_parts();
                let problems = problems
                    .into_iter()
                    .map(|p| under("/parts/0/data", p, 0))
                    .collect();
                return Err(rejected(problems, presence));
            }
        };
        let uri = self.uri::<T>();
        let written = serde_json::from_slice::<&RawValue>(sent.bytes()).and_then(|data| {
            let part = DataPart {
                data,
                media_type: MEDIA_TYPE,
            };
            let metadata = Metadata {
                uri: &uri,
                presence: sent.presence(),
            };
            around(&uri, part, metadata)
        });
        match written {
            Ok(bytes) => Ok(A2aSent {
                bytes,
                presence: sent.presence().clone(),
                inexact: width::inexact_integers::<T>(),
            }),
            Err(_) => Err(rejected(
                vec![Problem {
                    pointer: String::new(),
                    kind: ProblemKind::SerializeFailed,
                }],
                sent.presence().clone(),
            )),
        }
    }

    /// Reads an A2A Message carrying a `T`: its required fields, the contract's URI in
    /// `extensions[]`, then the one `data` Part's bytes as [`receive`](crate::receive)
    /// reads a payload (within `options`' limits, its depth three below the document's).
    ///
    /// # Errors
    /// An [`A2aRejection`] listing every problem, located in the A2A document.
    pub fn receive_message<T>(
        &self,
        bytes: &[u8],
        options: &ReceiveOptions,
    ) -> Result<A2aDelivery<T, MessageHead>, A2aRejection>
    where
        T: DeserializeOwned + HandoffContract + 'static,
    {
        let span = span::A2aSpan::start(Object::Message, T::CONTRACT.id, &options.journey);
        let _entered = crate::trace::enter(span.span());
        let read = read::read::<T>(
            bytes,
            Object::Message,
            &self.uri::<T>(),
            self.numbers,
            options,
        );
        span.fields(Object::Message, &read.fields);
        let result = delivered(read, Object::Message, |fields| {
            Some(MessageHead {
                message_id: fields.id,
                role: fields.role?,
                context_id: fields.context_id,
                task_id: fields.task_id,
            })
        });
        span.finish(
            Object::Message,
            result
                .as_ref()
                .map(A2aDelivery::presence)
                .map_err(|r| (r.presence(), r.problems())),
        );
        result
    }

    /// Reads an A2A Artifact carrying a `T`, as [`A2a::receive_message`] reads a Message.
    ///
    /// # Errors
    /// An [`A2aRejection`] listing every problem, located in the A2A document.
    pub fn receive_artifact<T>(
        &self,
        bytes: &[u8],
        options: &ReceiveOptions,
    ) -> Result<A2aDelivery<T, ArtifactHead>, A2aRejection>
    where
        T: DeserializeOwned + HandoffContract + 'static,
    {
        let span = span::A2aSpan::start(Object::Artifact, T::CONTRACT.id, &options.journey);
        let _entered = crate::trace::enter(span.span());
        let read = read::read::<T>(
            bytes,
            Object::Artifact,
            &self.uri::<T>(),
            self.numbers,
            options,
        );
        span.fields(Object::Artifact, &read.fields);
        let result = delivered(read, Object::Artifact, |fields| {
            Some(ArtifactHead {
                artifact_id: fields.id,
                name: fields.name,
                description: fields.description,
            })
        });
        span.finish(
            Object::Artifact,
            result
                .as_ref()
                .map(A2aDelivery::presence)
                .map_err(|r| (r.presence(), r.problems())),
        );
        result
    }
}

/// A read's outcome: the delivery, or the rejection with every problem.
fn delivered<T: HandoffContract, H>(
    read: Read<T>,
    object: Object,
    head: impl FnOnce(read::Fields) -> Option<H>,
) -> Result<A2aDelivery<T, H>, A2aRejection> {
    let Read {
        fields,
        payload,
        sender,
        problems,
    } = read;
    let payload = match (payload, head(fields)) {
        (Some(Ok((payload, presence))), Some(head)) if problems.is_empty() => {
            return Ok(A2aDelivery {
                head,
                payload,
                presence,
                sender_presence: sender,
            });
        }
        (payload, _) => payload,
    };
    let presence = match payload {
        Some(Ok((_, presence)) | Err(presence)) => Some(Box::new(presence)),
        None => None,
    };
    Err(A2aRejection {
        side: Side::Receive,
        object: object.as_str(),
        contract: T::CONTRACT.id,
        problems,
        presence,
        sender_presence: sender.map(Box::new),
    })
}
