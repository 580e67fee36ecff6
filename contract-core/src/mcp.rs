//! Handoff contracts on an [MCP](https://modelcontextprotocol.io) tool, through rmcp, the
//! official Rust SDK (feature `rmcp`, rmcp 3.11, which needs Rust 1.88).
//!
//! An MCP tool declares an `inputSchema` for its arguments and, optionally, an
//! `outputSchema` for the `structuredContent` of its results. MCP's 2026-07-28 revision says
//! a server MUST return structured results that match its `outputSchema` and a client SHOULD
//! validate them, and lets a result be any JSON value (earlier revisions, an object only).
//! Here both sides are contracts:
//!
//! | MCP | from the contract |
//! |---|---|
//! | `inputSchema` | the receiver view of `In` ([`json_schema`](crate::json_schema)), an object |
//! | `outputSchema` | the sender view of `Out`: what the server writes |
//! | `tools/call` arguments, on the server | read through [`receive`](crate::receive) as `In`; a refusal is an `isError` result whose text is the [`Correction`](crate::Correction): each problem's pointer and what the contract expects there, never a value |
//! | `structuredContent`, on the server | the handler's `Out` written through [`send`](crate::send): a result that breaks its own `outputSchema` is never sent (a JSON-RPC internal error instead), so what is sent is exactly what was checked, with its JSON text as the `text` content too |
//! | `structuredContent`, on the client | [`read_result`]: read through `receive` as `Out` |
//!
//! [`tool`] builds the [`Tool`] (name, description, both schemas), [`route`] the
//! [`ToolRoute`] a server's [`ToolRouter`](rmcp::handler::server::router::tool::ToolRouter)
//! takes, its handler an async function of the server and the [`Received`] arguments;
//! [`read_result`] checks a [`CallToolResult`] on the client.
//!
//! MCP's arguments reach the tool already parsed (an object of the JSON-RPC message), so a
//! key written twice has been collapsed by the transport's parser before `receive` sees it;
//! every other check is `receive`'s own, with its limits, and the problems come in the order
//! of the parsed object (serde_json's: sorted by key). rmcp's own `Parameters<T>` reads
//! the same arguments with serde, whose message repeats the value it refused (`invalid type:
//! string "…"`); the correction here never does.
//!
//! ```
//! use contract_core::mcp;
//! use contract_core::{HandoffContract, Received};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 1)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     order_ref: String,
//!     amount_cents: u32,
//! }
//!
//! #[derive(Serialize, HandoffContract)]
//! #[handoff(name = "refund-decision", version = 1)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundDecision {
//!     approved: bool,
//! }
//!
//! struct Billing;
//!
//! let tool = mcp::tool::<RefundRequest, RefundDecision>("file_refund", "File a refund request.")?;
//! assert_eq!(tool.input_schema["required"], serde_json::json!(["orderRef", "amountCents"]));
//! let router = ToolRouter::<Billing>::new().with_route(mcp::route(
//!     tool,
//!     |_billing: &Billing, request: Received<RefundRequest>| {
//!         Box::pin(async move {
//!             let approved = request.value().amount_cents <= 10_000;
//!             Ok::<_, rmcp::ErrorData>(RefundDecision { approved })
//!         })
//!     },
//! ));
//! assert!(router.has_route("file_refund"));
//! # Ok::<(), contract_core::mcp::NotAnObject>(())
//! ```

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use std::borrow::Cow;
use std::sync::Arc;

use contract_schema::json_schema::View;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::ErrorData;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::correction::CorrectionOptions;
use crate::json_schema::json_schema;
use crate::runtime::options::{ReceiveOptions, SendOptions};
use crate::runtime::problem::Rejection;
use crate::runtime::{receive_with, send_with, Received};
use crate::traits::{HandoffContract, HandoffSchema};

/// The future a [`route`]'s handler returns: what the tool gives, or its error.
pub type HandlerFuture<'a, Out, E> = Pin<Box<dyn Future<Output = Result<Out, E>> + Send + 'a>>;

/// The input of an MCP tool that is not an object: MCP's `inputSchema` has `"type":
/// "object"`, and this contract's receiver view reads something else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnObject {
    /// The contract (`refund-request/v1`), or the type's name for a schema without one.
    pub contract: String,
}

impl fmt::Display for NotAnObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot be an MCP tool's input: its receiver view is not an object, and MCP's \
             inputSchema has \"type\": \"object\" (give the tool a struct of arguments)",
            self.contract
        )
    }
}

impl std::error::Error for NotAnObject {}

/// The MCP [`Tool`] named `name`: its `inputSchema` the receiver view of `In`, its
/// `outputSchema` the sender view of `Out`, both JSON Schema 2020-12.
///
/// rmcp leaves out an `outputSchema` that is not an object's for a peer on a revision before
/// 2026-07-28 (those allow objects only), and the result then reaches it as text.
///
/// # Errors
///
/// [`NotAnObject`] when `In`'s receiver view is not an object.
pub fn tool<In, Out>(
    name: impl Into<Cow<'static, str>>,
    description: impl Into<Cow<'static, str>>,
) -> Result<Tool, NotAnObject>
where
    In: HandoffContract + ?Sized,
    Out: HandoffSchema + ?Sized,
{
    let input = rooted(json_schema::<In>(View::Receiver));
    if input.get("type").and_then(serde_json::Value::as_str) != Some("object") {
        return Err(NotAnObject {
            contract: In::CONTRACT.id.to_owned(),
        });
    }
    let output = rooted(json_schema::<Out>(View::Sender));
    Ok(Tool::new(name, description, Arc::new(input)).with_raw_output_schema(Arc::new(output)))
}

/// A JSON Schema document with its root type written at the top rather than behind a
/// `$ref` to `$defs` (MCP clients, and rmcp's check of a revision's object-only output,
/// read `type` and `properties` at the root). `$defs` stays, so that references to the
/// root type from inside it still resolve.
fn rooted(schema: serde_json::Value) -> JsonObject {
    let mut doc = match schema {
        serde_json::Value::Object(doc) => doc,
        // The exporter writes an object; the guard keeps this total.
        other => {
            let mut doc = JsonObject::new();
            doc.insert("allOf".to_owned(), serde_json::Value::Array(vec![other]));
            return doc;
        }
    };
    let root = doc
        .get("$ref")
        .and_then(serde_json::Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/$defs/"))
        .and_then(|key| doc.get("$defs")?.get(key))
        .and_then(serde_json::Value::as_object)
        .cloned();
    if let Some(root) = root {
        doc.remove("$ref");
        for (key, value) in root {
            doc.entry(key).or_insert(value);
        }
    }
    doc
}

/// How a [`route`] reads its arguments and writes its results.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct RouteOptions {
    /// For reading the arguments (limits, the journey on the trace).
    pub receive: ReceiveOptions,
    /// For writing the result.
    pub send: SendOptions,
    /// The bound of the correction a refused call is answered with.
    pub corrections: CorrectionOptions,
}

/// The route of `tool` on a server `S`: each call's arguments read as `In`, `handler`
/// called with the server and what was received, its `Out` written as the result's
/// `structuredContent` (and, as JSON text, its `text` content).
///
/// - Arguments the contract refuses: an `isError` result whose text is the correction;
///   `handler` is not called.
/// - `handler`'s error `E`: as rmcp makes any tool's error a result — a text or content is
///   an `isError` result with it, an [`ErrorData`] a JSON-RPC error.
/// - An `Out` that [`send`](crate::send) refuses (a result that breaks the tool's
///   `outputSchema`): never sent; a JSON-RPC internal error that names the contract and
///   each problem's pointer, no value.
pub fn route<S, In, Out, E, F>(tool: Tool, handler: F) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    In: HandoffContract + DeserializeOwned + Send + 'static,
    Out: Serialize + HandoffSchema + 'static,
    E: IntoCallToolResult + 'static,
    F: for<'a> Fn(&'a S, Received<In>) -> HandlerFuture<'a, Out, E> + Send + Sync + 'static,
{
    route_with(tool, RouteOptions::default(), handler)
}

/// [`route`] with these options.
pub fn route_with<S, In, Out, E, F>(tool: Tool, options: RouteOptions, handler: F) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    In: HandoffContract + DeserializeOwned + Send + 'static,
    Out: Serialize + HandoffSchema + 'static,
    E: IntoCallToolResult + 'static,
    F: for<'a> Fn(&'a S, Received<In>) -> HandlerFuture<'a, Out, E> + Send + Sync + 'static,
{
    let handler = Arc::new(handler);
    let options = Arc::new(options);
    ToolRoute::new_dyn(tool, move |context: ToolCallContext<'_, S>| {
        let handler = Arc::clone(&handler);
        let options = Arc::clone(&options);
        Box::pin(async move {
            let service = context.service;
            let arguments = serde_json::Value::Object(context.arguments.unwrap_or_default());
            let bytes = serde_json::to_vec(&arguments).map_err(|_| {
                ErrorData::internal_error("the tool's arguments could not be written", None)
            })?;
            let received = match receive_with::<In>(&bytes, &options.receive) {
                Ok(received) => received,
                Err(rejection) => {
                    let correction = rejection.correction_with(&options.corrections);
                    return Ok(
                        CallToolResult::error(vec![ContentBlock::text(correction.text())]).into(),
                    );
                }
            };
            match handler(service, received).await {
                Ok(out) => structured(&out, &options.send).map(Into::into),
                Err(error) => Err::<CallToolResult, E>(error).into_call_tool_result(),
            }
        })
    })
}

/// `out` as a result's `structuredContent`, exactly as `send` wrote and checked it.
fn structured<Out>(out: &Out, options: &SendOptions) -> Result<CallToolResult, ErrorData>
where
    Out: Serialize + HandoffSchema + 'static,
{
    let sent = send_with(out, options).map_err(|rejection| {
        ErrorData::internal_error(
            format!("the tool's result breaks its outputSchema, and was not sent: {rejection}"),
            None,
        )
    })?;
    let value: serde_json::Value = serde_json::from_slice(sent.bytes())
        .map_err(|_| ErrorData::internal_error("the tool's result could not be read back", None))?;
    Ok(CallToolResult::structured(value))
}

/// Why a tool's result was not read as its output contract (on the client).
#[derive(Debug, Clone)]
pub enum ResultError {
    /// The server reported the call as failed (`isError`); its content says why.
    ToolError,
    /// The result has no `structuredContent`, which a tool with an `outputSchema` must give.
    NoStructuredContent,
    /// The `structuredContent` breaks the output contract: every problem, located.
    Refused(Rejection),
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultError::ToolError => f.write_str("the tool reported an error (isError)"),
            ResultError::NoStructuredContent => f.write_str(
                "the result has no structuredContent, which a tool with an outputSchema must give",
            ),
            ResultError::Refused(rejection) => rejection.fmt(f),
        }
    }
}

impl std::error::Error for ResultError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ResultError::Refused(rejection) => Some(rejection),
            ResultError::ToolError | ResultError::NoStructuredContent => None,
        }
    }
}

/// A tool's result on the client: its `structuredContent` read through
/// [`receive`](crate::receive) as the output contract `Out`.
///
/// ```
/// use contract_core::mcp::{read_result, ResultError};
/// use contract_core::HandoffContract;
/// use rmcp::model::CallToolResult;
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize, HandoffContract)]
/// #[handoff(name = "refund-decision", version = 1)]
/// struct RefundDecision {
///     approved: bool,
/// }
///
/// let result = CallToolResult::structured(serde_json::json!({"approved": true}));
/// assert!(read_result::<RefundDecision>(&result)?.value().approved);
///
/// let wrong = CallToolResult::structured(serde_json::json!({"approved": "yes"}));
/// let ResultError::Refused(rejection) = read_result::<RefundDecision>(&wrong).unwrap_err() else {
///     unreachable!()
/// };
/// assert_eq!(rejection.problems()[0].pointer, "/approved");
/// # Ok::<(), ResultError>(())
/// ```
///
/// # Errors
///
/// [`ResultError`]: an `isError` result, no `structuredContent`, or a refusal.
pub fn read_result<Out>(result: &CallToolResult) -> Result<Received<Out>, ResultError>
where
    Out: HandoffSchema + DeserializeOwned + 'static,
{
    read_result_with(result, &ReceiveOptions::default())
}

/// [`read_result`] with these options.
///
/// # Errors
///
/// [`ResultError`]: an `isError` result, no `structuredContent`, or a refusal.
pub fn read_result_with<Out>(
    result: &CallToolResult,
    options: &ReceiveOptions,
) -> Result<Received<Out>, ResultError>
where
    Out: HandoffSchema + DeserializeOwned + 'static,
{
    if result.is_error == Some(true) {
        return Err(ResultError::ToolError);
    }
    let content = result
        .structured_content
        .as_ref()
        .ok_or(ResultError::NoStructuredContent)?;
    let bytes = serde_json::to_vec(content).map_err(|_| ResultError::NoStructuredContent)?;
    receive_with::<Out>(&bytes, options).map_err(ResultError::Refused)
}
