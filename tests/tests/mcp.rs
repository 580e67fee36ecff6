//! Contracts on an MCP tool, through rmcp: a server whose tool router holds `mcp::route`s and
//! a client, connected in memory (a duplex pipe, JSON-RPC as on any transport, no network).
//! The listed tool's `inputSchema` and `outputSchema` are the contracts' views; arguments the
//! contract refuses are an `isError` result with the correction (no value of the arguments,
//! the handler never called); a result that breaks the `outputSchema` is never sent; and the
//! client reads `structuredContent` through its own contract.
#![cfg(feature = "rmcp")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use contract_core::mcp::{self, ResultError};
use contract_core::{json_schema, receive, HandoffContract, Received, View};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ErrorCode, InitializeResult, JsonObject, Tool,
};
use rmcp::service::{serve_directly, RunningService};
use rmcp::{tool_handler, RoleClient, RoleServer, ServerHandler, ServiceError};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The tool's arguments, as the server reads them.
#[derive(Debug, Deserialize, HandoffContract)]
#[handoff(name = "mcp-refund", version = 1)]
#[serde(rename_all = "camelCase")]
struct McpRefund {
    order_ref: String,
    amount_cents: u32,
}

/// The tool's result, as the server writes it and the client reads it.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "mcp-refund-decision", version = 1)]
#[serde(rename_all = "camelCase")]
struct Decision {
    order_ref: String,
    approved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The input of a tool that cannot be one: not an object.
#[derive(Deserialize, HandoffContract)]
#[handoff(name = "mcp-order-refs", version = 1)]
#[serde(transparent)]
struct OrderRefs(#[allow(dead_code)] Vec<String>);

/// A result `send` refuses: serde_json writes a NaN as `null`.
#[derive(Debug, Serialize, HandoffContract)]
#[handoff(name = "mcp-reading", version = 1)]
struct Reading {
    celsius: f64,
}

#[derive(Clone)]
struct Billing {
    calls: Arc<AtomicUsize>,
    tool_router: ToolRouter<Billing>,
}

fn decision_tool() -> Tool {
    mcp::tool::<McpRefund, Decision>("file_refund", "File a refund request for an order.").unwrap()
}

impl Billing {
    fn new() -> Self {
        let refund = mcp::route(
            decision_tool(),
            |billing: &Billing, request: Received<McpRefund>| {
                Box::pin(async move {
                    billing.calls.fetch_add(1, Ordering::SeqCst);
                    let request = request.into_inner();
                    if request.amount_cents == 0 {
                        // A tool error of the handler's own: rmcp makes a text an isError result.
                        return Err("nothing to refund".to_owned());
                    }
                    let approved = request.amount_cents <= 10_000;
                    Ok(Decision {
                        order_ref: request.order_ref,
                        approved,
                        reason: (!approved).then(|| "over the limit".to_owned()),
                    })
                })
            },
        );
        let reading = mcp::route(
            mcp::tool::<McpRefund, Reading>("read_thermometer", "Read the thermometer.").unwrap(),
            |_: &Billing, _: Received<McpRefund>| {
                Box::pin(async move { Ok::<_, rmcp::ErrorData>(Reading { celsius: f64::NAN }) })
            },
        );
        // A tool that does not use the route: it breaks its own outputSchema, for the client.
        let liar = ToolRoute::new_dyn(
            mcp::tool::<McpRefund, Decision>("file_refund_unchecked", "The same, unchecked.")
                .unwrap(),
            |_context| {
                Box::pin(async move {
                    Ok(CallToolResult::structured(
                        json!({"orderRef": "MARKER-7", "approved": "MARKER-yes"}),
                    )
                    .into())
                })
            },
        );
        Billing {
            calls: Arc::new(AtomicUsize::new(0)),
            tool_router: ToolRouter::new()
                .with_route(refund)
                .with_route(reading)
                .with_route(liar),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Billing {}

/// A client connected to a fresh server in memory, and the server's call count.
fn connect() -> (RunningService<RoleClient, ()>, Arc<AtomicUsize>) {
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    let billing = Billing::new();
    let calls = Arc::clone(&billing.calls);
    let server = serve_directly::<RoleServer, _, _, _, _>(billing, server_transport, None);
    tokio::spawn(async move {
        let _ = server.waiting().await;
    });
    let client = serve_directly::<RoleClient, _, _, _, _>(
        (),
        client_transport,
        Some(InitializeResult::default().into()),
    );
    (client, calls)
}

fn arguments(value: serde_json::Value) -> JsonObject {
    match value {
        serde_json::Value::Object(map) => map,
        _ => panic!("arguments are an object"),
    }
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    args: serde_json::Value,
) -> Result<CallToolResult, ServiceError> {
    client
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments(args)))
        .await
}

fn text_of(result: &CallToolResult) -> String {
    assert_eq!(result.content.len(), 1, "{result:?}");
    result.content[0]
        .as_text()
        .expect("a text block")
        .text
        .clone()
}

#[tokio::test]
async fn the_listed_tool_has_the_contracts_schemas() {
    let (client, _) = connect();
    let tools = client.list_tools(None).await.unwrap().tools;
    let tool = tools
        .iter()
        .find(|tool| tool.name == "file_refund")
        .unwrap();
    assert_eq!(
        tool.description.as_deref(),
        Some("File a refund request for an order.")
    );
    let input = serde_json::Value::Object((*tool.input_schema).clone());
    // The root type at the top, as MCP's inputSchema has it.
    assert_eq!(input["type"], "object");
    assert_eq!(input["required"], json!(["orderRef", "amountCents"]));
    assert_eq!(
        input["properties"]["amountCents"]["maximum"],
        4_294_967_295_u64
    );
    assert_eq!(input["x-handoff-contract"], "mcp-refund/v1");
    assert_eq!(input["x-handoff-view"], "receiver");
    let exported = json_schema::<McpRefund>(View::Receiver);
    let root = exported["$ref"]
        .as_str()
        .unwrap()
        .trim_start_matches("#/$defs/");
    assert_eq!(input["properties"], exported["$defs"][root]["properties"]);
    let output = serde_json::Value::Object((**tool.output_schema.as_ref().unwrap()).clone());
    assert_eq!(output["type"], "object");
    assert_eq!(output["x-handoff-contract"], "mcp-refund-decision/v1");
    assert_eq!(output["x-handoff-view"], "sender");
    // `reason` is sent only when there is one.
    assert_eq!(output["required"], json!(["orderRef", "approved"]));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_valid_call_returns_the_checked_result() {
    let (client, calls) = connect();
    let result = call(
        &client,
        "file_refund",
        json!({"orderRef": "A-1", "amountCents": 20_000}),
    )
    .await
    .unwrap();
    assert_eq!(result.is_error, Some(false));
    let expected = json!({"orderRef": "A-1", "approved": false, "reason": "over the limit"});
    assert_eq!(result.structured_content, Some(expected.clone()));
    // The same JSON as text, for clients that read only the content.
    let text: serde_json::Value = serde_json::from_str(&text_of(&result)).unwrap();
    assert_eq!(text, expected);
    let read = mcp::read_result::<Decision>(&result).unwrap();
    assert_eq!(read.value().order_ref, "A-1");
    assert!(!read.value().approved);
    assert_eq!(read.value().reason.as_deref(), Some("over the limit"));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn refused_arguments_are_answered_with_the_correction() {
    let (client, calls) = connect();
    let args = json!({"orderRef": 7, "amountCents": "MARKER-twelve", "extra": "MARKER-x"});
    let result = call(&client, "file_refund", args.clone()).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    let text = text_of(&result);
    let expected = receive::<McpRefund>(&serde_json::to_vec(&args).unwrap())
        .unwrap_err()
        .correction();
    assert_eq!(text, expected.to_string());
    // In the order of the object the transport parsed (serde_json's: sorted by key).
    assert_eq!(
        text,
        "Your mcp-refund/v1 was refused: 2 problems. Send it again, whole, with each one fixed:\n\
         - /amountCents: a string is the wrong type here. Expected u32: an integer from 0 to 4294967295; required.\n\
         - /orderRef: an integer is the wrong type here. Expected string: a string; required."
    );
    assert!(!text.contains("MARKER"));

    // No arguments at all read as an empty object: every required member is missing.
    let empty = client
        .call_tool(CallToolRequestParams::new("file_refund"))
        .await
        .unwrap();
    assert_eq!(empty.is_error, Some(true));
    let text = text_of(&empty);
    assert!(text.contains("- /orderRef: missing."), "{text}");
    assert!(text.contains("- /amountCents: missing."), "{text}");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_handler_error_is_a_tool_error() {
    let (client, calls) = connect();
    let result = call(
        &client,
        "file_refund",
        json!({"orderRef": "A-1", "amountCents": 0}),
    )
    .await
    .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text_of(&result), "nothing to refund");
    assert!(matches!(
        mcp::read_result::<Decision>(&result),
        Err(ResultError::ToolError)
    ));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_result_that_breaks_the_output_schema_is_never_sent() {
    let (client, _) = connect();
    let error = call(
        &client,
        "read_thermometer",
        json!({"orderRef": "A-1", "amountCents": 1}),
    )
    .await
    .unwrap_err();
    let ServiceError::McpError(error) = error else {
        panic!("not a JSON-RPC error: {error:?}");
    };
    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
    assert!(
        error.message.contains("breaks its outputSchema"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("mcp-reading/v1"),
        "{}",
        error.message
    );
    assert!(error.message.contains("/celsius"), "{}", error.message);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_client_refuses_structured_content_that_breaks_the_contract() {
    let (client, _) = connect();
    let result = call(
        &client,
        "file_refund_unchecked",
        json!({"orderRef": "A-1", "amountCents": 1}),
    )
    .await
    .unwrap();
    let Err(ResultError::Refused(rejection)) = mcp::read_result::<Decision>(&result) else {
        panic!("not refused");
    };
    let pointers: Vec<&str> = rejection
        .problems()
        .iter()
        .map(|p| p.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/approved"]);
    assert!(!rejection.to_string().contains("MARKER"));
    client.cancel().await.unwrap();
}

#[test]
fn a_result_without_structured_content_is_refused() {
    let result = CallToolResult::success(Vec::new());
    assert!(matches!(
        mcp::read_result::<Decision>(&result),
        Err(ResultError::NoStructuredContent)
    ));
}

#[test]
fn an_input_that_is_not_an_object_is_no_tool() {
    let error = mcp::tool::<OrderRefs, Decision>("refs", "Order references.").unwrap_err();
    assert_eq!(error.contract, "mcp-order-refs/v1");
    assert!(error
        .to_string()
        .contains("MCP's inputSchema has \"type\": \"object\""));
}
