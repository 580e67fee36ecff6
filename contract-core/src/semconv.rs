//! Every OpenTelemetry semantic-convention name the spans use (feature `tracing`), in one
//! place: attribute keys and the values the conventions enumerate.
//!
//! The version followed is the GenAI registry `open-telemetry/semantic-conventions-genai`,
//! schema `https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev` (on the core semantic
//! conventions v1.44.0): that registry has cut no release or tag, so the schema URL is its only
//! version. **Every name here is of Development status** (but `error.type`, which is stable in
//! the core conventions) and may change between versions of the registry; they are pinned
//! here, and changed here only.
//!
//! What this crate takes from it:
//!
//! - A receive (`receive`, `receive_handoff`, `Inbox::accept`, the A2A reader) is the
//!   receiving agent's **`invoke_agent`** operation: `gen_ai.operation.name = "invoke_agent"`,
//!   `gen_ai.agent.name` the receiving agent (the journey's `handoffTo`), and, the caller being
//!   known (the journey's `handoffFrom`), the caller refinement's `gen_ai.caller.name` with
//!   `gen_ai.caller.type = "agent"`.
//! - A send (`send`, `send_handoff`) is the **`execute_tool`** operation in its transfer
//!   refinement: `gen_ai.operation.name = "execute_tool"`, `gen_ai.tool.name` the call,
//!   `gen_ai.agent.name` the source (`handoffFrom`), `gen_ai.transfer.target.name` the target
//!   (`handoffTo`), `gen_ai.transfer.target.type = "agent"`, `gen_ai.transfer.mode =
//!   "pass_control"` (the target takes over the remaining work: a handoff does not return).
//! - `gen_ai.conversation.id`: the journey's session, else the envelope's (or the A2A
//!   object's) `contextId`.
//! - The A2A registry's `a2a.message.id`, `a2a.task.id` and `a2a.protocol.version` on the
//!   span of the A2A reader.
//! - `error.type` on every refused call, a low-cardinality name of the refusal.
//!
//! Not followed: the span names stay `receive refund-request/v2`, `accept refund-request/v2`
//! (the conventions' `invoke_agent {gen_ai.agent.name}` names the agent, while these spans are
//! searched for by their contract, and the conventions allow a framework its own format); the
//! span kinds stay `PRODUCER` and `CONSUMER` (a handoff is a message passed on, not a call that
//! waits for its answer, which `CLIENT` and `SERVER` describe); `gen_ai.provider.name`, which
//! names a model provider, is not set: no model is called.
//!
//! The names `gen_ai.agent.handoff.source.name` and `gen_ai.agent.handoff.target.name`,
//! which earlier versions of these spans set, were only ever a proposal, never in a registry:
//! they are gone, with no alias; `gen_ai.agent.name` with `gen_ai.caller.name` (a receive) or
//! `gen_ai.transfer.target.name` (a send) say the same.

/// The operation a GenAI span describes.
pub(crate) const GEN_AI_OPERATION_NAME: &str = "gen_ai.operation.name";
/// `gen_ai.operation.name` of a receive: the receiving agent invoked.
pub(crate) const INVOKE_AGENT: &str = "invoke_agent";
/// `gen_ai.operation.name` of a send: a tool-based transfer to another agent.
pub(crate) const EXECUTE_TOOL: &str = "execute_tool";

/// The agent running the operation: the receiver on a receive, the source on a send.
pub(crate) const GEN_AI_AGENT_NAME: &str = "gen_ai.agent.name";
/// The session: the journey's `sessionId`, else the `contextId`.
pub(crate) const GEN_AI_CONVERSATION_ID: &str = "gen_ai.conversation.id";

/// The caller of an `invoke_agent` operation: the journey's `handoffFrom`.
pub(crate) const GEN_AI_CALLER_NAME: &str = "gen_ai.caller.name";
/// What the caller is: [`CALLER_TYPE_AGENT`].
pub(crate) const GEN_AI_CALLER_TYPE: &str = "gen_ai.caller.type";
/// `gen_ai.caller.type` of a handoff's source.
pub(crate) const CALLER_TYPE_AGENT: &str = "agent";

/// The tool an `execute_tool` operation runs: the library's call (`send`, `send_handoff`).
pub(crate) const GEN_AI_TOOL_NAME: &str = "gen_ai.tool.name";
/// The target of a transfer: the journey's `handoffTo`.
pub(crate) const GEN_AI_TRANSFER_TARGET_NAME: &str = "gen_ai.transfer.target.name";
/// What the target of a transfer is: [`TRANSFER_TARGET_TYPE_AGENT`].
pub(crate) const GEN_AI_TRANSFER_TARGET_TYPE: &str = "gen_ai.transfer.target.type";
/// `gen_ai.transfer.target.type` of a handoff's target.
pub(crate) const TRANSFER_TARGET_TYPE_AGENT: &str = "agent";
/// How control passes to the target: [`TRANSFER_MODE_PASS_CONTROL`].
pub(crate) const GEN_AI_TRANSFER_MODE: &str = "gen_ai.transfer.mode";
/// `gen_ai.transfer.mode` of a handoff: the target takes over the remaining work.
pub(crate) const TRANSFER_MODE_PASS_CONTROL: &str = "pass_control";

/// The A2A Message's `messageId`.
#[cfg(feature = "a2a")]
pub(crate) const A2A_MESSAGE_ID: &str = "a2a.message.id";
/// The A2A Message's `taskId`.
#[cfg(feature = "a2a")]
pub(crate) const A2A_TASK_ID: &str = "a2a.task.id";
/// The version of the A2A protocol read: [`A2A_PROTOCOL`].
#[cfg(feature = "a2a")]
pub(crate) const A2A_PROTOCOL_VERSION: &str = "a2a.protocol.version";
/// `a2a.protocol.version` of the A2A reader: the version it reads (an earlier one is refused).
#[cfg(feature = "a2a")]
pub(crate) const A2A_PROTOCOL: &str = "1.0";

/// The class of a refusal (stable in the core conventions).
pub(crate) const ERROR_TYPE: &str = "error.type";
