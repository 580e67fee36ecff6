//! A contract as a rig tool's arguments, called through rig's own tool set (rig-agent's
//! `ToolSet::execute`, by name, with the argument text a model writes): the definition's
//! `parameters` in each provider dialect, valid arguments reaching the handler, and every
//! refusal (a missing field, a wrong type, a key twice, text that is not JSON) answered with
//! the correction, no value of the arguments in it, the handler never called.
#![cfg(feature = "rig")]

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use contract_core::rig::{ContractTool, ToolError};
use contract_core::{
    json_schema, json_schema_dialect, receive, Dialect, HandoffContract, HandoffSchema, Received,
    View,
};
use rig_agent::tool::ToolSet;
use rig_core::tool::{ToolContext, ToolErrorKind, ToolResult};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, HandoffContract)]
#[handoff(name = "rig-refund", version = 1)]
#[serde(rename_all = "camelCase")]
struct RigRefund {
    category: Category,
    order_ref: String,
    amount_cents: u32,
    note: Option<String>,
}

#[derive(Debug, Deserialize, HandoffSchema)]
#[serde(rename_all = "kebab-case")]
enum Category {
    Damaged,
    NotDelivered,
}

/// What the tool answers: the model sees it as JSON.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Filed {
    order_ref: String,
    amount_cents: u32,
    damaged: bool,
    with_note: bool,
}

/// The handler's own failure.
#[derive(Debug)]
struct Ledger;

impl std::fmt::Display for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the refund ledger is closed")
    }
}

impl std::error::Error for Ledger {}

type Handler = Box<
    dyn Fn(
            Received<RigRefund>,
        )
            -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Filed, Ledger>> + Send>>
        + Send
        + Sync,
>;

/// A tool set with the refund tool in `dialect`, and the count of the handler's calls.
fn tool_set(dialect: Dialect) -> (ToolSet, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let handler: Handler = Box::new(move |request: Received<RigRefund>| {
        seen.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            let request = request.into_inner();
            if request.amount_cents == 0 {
                return Err(Ledger);
            }
            Ok(Filed {
                damaged: matches!(request.category, Category::Damaged),
                with_note: request.note.is_some(),
                order_ref: request.order_ref,
                amount_cents: request.amount_cents,
            })
        })
    });
    let tool = ContractTool::new(dialect, "File a refund request for an order.", handler)
        .expect("the contract exports in every dialect");
    let mut tools = ToolSet::default();
    assert_eq!(tools.add_tool(tool), "rig-refund");
    (tools, calls)
}

fn run(tools: &ToolSet, args: &str) -> ToolResult {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut context = ToolContext::default();
    runtime.block_on(tools.execute("rig-refund", args, &mut context))
}

/// The text the model is sent for a refused call, and the refusal itself.
fn refused(result: &ToolResult) -> (String, &ToolError<Ledger>) {
    assert!(result.is_error(), "{result:?}");
    let error = result.error().unwrap();
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(error.retryable(), Some(true));
    let refusal = error
        .downcast_ref::<ToolError<Ledger>>()
        .expect("the refusal is kept for the host");
    (error.model_feedback().unwrap().to_owned(), refusal)
}

#[test]
fn the_definition_is_the_receiver_view_in_each_dialect() {
    for dialect in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let (tools, _) = tool_set(dialect);
        let definitions = tools.tool_definitions();
        assert_eq!(definitions.len(), 1);
        let definition = &definitions[0];
        assert_eq!(definition.name, "rig-refund");
        assert_eq!(
            definition.description,
            "File a refund request for an order."
        );
        let export = json_schema_dialect::<RigRefund>(dialect).unwrap();
        assert_eq!(definition.parameters, export.schema, "{dialect:?}");
    }
    // OpenAI's strict form: the optional note required, as a string or null.
    let openai = json_schema_dialect::<RigRefund>(Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        openai.schema["required"],
        serde_json::json!(["category", "orderRef", "amountCents", "note"])
    );
    assert_eq!(openai.schema["additionalProperties"], false);
}

#[test]
fn a_contract_the_dialect_cannot_state_is_no_tool() {
    // Anthropic states no numeric bounds: a `u32` would be asked for as any integer.
    let refused = ContractTool::new(
        Dialect::Anthropic,
        "File a refund request for an order.",
        |request: Received<RigRefund>| async move {
            Ok::<_, Infallible>(request.into_inner().amount_cents)
        },
    )
    .unwrap_err();
    assert_eq!(refused.problems.len(), 1);
    assert_eq!(refused.problems[0].pointer, "/properties/amountCents");
    assert_eq!(refused.problems[0].rule.id(), "INT_RANGE_UNSTATABLE");
}

#[test]
fn a_plain_tool_gives_the_receiver_view() {
    let tool = ContractTool::plain(
        "File a refund request for an order.",
        |request: Received<RigRefund>| async move {
            Ok::<_, Infallible>(request.into_inner().amount_cents)
        },
    );
    assert!(tool.warnings().is_empty());
    let mut tools = ToolSet::default();
    tools.add_tool(tool);
    assert_eq!(
        tools.tool_definitions()[0].parameters,
        json_schema::<RigRefund>(View::Receiver)
    );
    let result = run(
        &tools,
        r#"{"category": "damaged", "orderRef": "A-1", "amountCents": 1250}"#,
    );
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.output().as_json(), Some(&serde_json::json!(1250)));
}

#[test]
fn valid_arguments_reach_the_handler() {
    let (tools, calls) = tool_set(Dialect::OpenAiStrict);
    // As OpenAI's strict mode writes them: every member, the optional one as null.
    let result = run(
        &tools,
        r#"{"category": "not-delivered", "orderRef": "A-1", "amountCents": 1250, "note": null}"#,
    );
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        result.output().as_json(),
        Some(&serde_json::json!({
            "orderRef": "A-1",
            "amountCents": 1250,
            "damaged": false,
            "withNote": false
        }))
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn a_missing_field_is_answered_with_the_correction() {
    let (tools, calls) = tool_set(Dialect::OpenAiStrict);
    let args = r#"{"category": "damaged", "amountCents": 1250, "note": null}"#;
    let result = run(&tools, args);
    let (feedback, refusal) = refused(&result);
    let expected = receive::<RigRefund>(args.as_bytes())
        .unwrap_err()
        .correction();
    assert_eq!(feedback, expected.to_string());
    assert_eq!(
        feedback,
        "Your rig-refund/v1 was refused: 1 problem. Send it again, whole, with each one fixed:\n\
         - /orderRef: missing. Expected string: a string; required."
    );
    let ToolError::Refused(refused) = refusal else {
        panic!("not a refusal: {refusal:?}");
    };
    assert_eq!(refused.rejection().problems()[0].pointer, "/orderRef");
    assert_eq!(refused.correction(), &expected);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[test]
fn a_wrong_type_and_an_unknown_value_are_said_without_the_values() {
    let (tools, calls) = tool_set(Dialect::Gemini);
    let args = r#"{"category": "MARKER-broken-screen", "orderRef": "A-1", "amountCents": "MARKER-twelve"}"#;
    let result = run(&tools, args);
    let (feedback, _) = refused(&result);
    assert!(feedback.contains("- /category: not one of the allowed values. Expected Category: one of \"damaged\", \"not-delivered\""), "{feedback}");
    assert!(feedback.contains("- /amountCents: a string is the wrong type here. Expected u32: an integer from 0 to 4294967295"), "{feedback}");
    assert!(!feedback.contains("MARKER"), "{feedback}");
    assert!(!result.error().unwrap().message().contains("MARKER"));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[test]
fn a_key_written_twice_is_refused() {
    // rig hands the tool the raw text, so the second `orderRef` is still there to see.
    let (tools, calls) = tool_set(Dialect::Gemini);
    let args = r#"{"category": "damaged", "orderRef": "A-1", "orderRef": "A-2", "amountCents": 1}"#;
    let result = run(&tools, args);
    let (feedback, refusal) = refused(&result);
    assert!(
        feedback.contains("- /orderRef: the key `orderRef` twice in one object."),
        "{feedback}"
    );
    let ToolError::Refused(refused) = refusal else {
        panic!("not a refusal: {refusal:?}");
    };
    assert_eq!(refused.rejection().problems().len(), 1);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[test]
fn text_that_is_not_json_is_refused_before_the_tool() {
    let (tools, calls) = tool_set(Dialect::OpenAiStrict);
    for args in [
        r#"{"category": "damaged", "orderRef": "MARKER-A"#,
        "MARKER sure, here is the refund",
        "",
    ] {
        let result = run(&tools, args);
        assert!(result.is_error(), "{args}: {result:?}");
        let error = result.error().unwrap();
        assert_eq!(error.kind(), ToolErrorKind::InvalidArgs, "{args}");
        let feedback = error.model_feedback().unwrap();
        assert!(
            feedback.starts_with("failed to parse tool arguments"),
            "{feedback}"
        );
        assert!(!feedback.contains("MARKER"), "{feedback}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[test]
fn a_handler_error_is_the_handlers() {
    let (tools, calls) = tool_set(Dialect::OpenAiStrict);
    let result = run(
        &tools,
        r#"{"category": "damaged", "orderRef": "A-1", "amountCents": 0, "note": null}"#,
    );
    assert!(result.is_error(), "{result:?}");
    let error = result.error().unwrap();
    assert_eq!(error.kind(), ToolErrorKind::Other);
    // rig's safe feedback for an arbitrary error; the error itself kept for the host.
    assert_eq!(error.model_feedback(), Some("the tool failed"));
    assert!(error.downcast_ref::<Ledger>().is_some());
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
