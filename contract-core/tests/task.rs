//! The task contracts from outside the crate, on seed `001_…`'s JSON written in camelCase.

use contract_core::task::{judge, Conclusion, Lookup, ResultStatus, Subtask, SubtaskResult};
use contract_core::{receive, send, HandoffContract, ProblemKind};
use serde_json::json;

/// Seed `001_…`'s sub-task, in camelCase, its working assumption apart from `input`.
fn seed_task() -> serde_json::Value {
    json!({
        "taskId": "verify-c",
        "taskRevision": 1,
        "assignee": "product_researcher",
        "goal": "verify that C in the given configuration meets the current purchase conditions",
        "input": {
            "productId": "C",
            "variant": "16GB / 512GB",
            "maxTotalPriceCny": 6000,
            "maxWeightKg": 1.5,
            "useCase": "Python development"
        },
        "workingAssumptions": ["daily scripts, an IDE and light web work, not confirmed"],
        "scope": {
            "requiredFields": ["totalPriceCny", "weightKg"],
            "excludedActions": ["buy", "edit other candidates' records"]
        },
        "acceptance": ["every value with a readable source"],
        "budget": {"maxModelCalls": 6, "maxToolCalls": 8, "timeoutSeconds": 120},
        "deliverable": "a structured verification: conclusion, evidence, open items"
    })
}

/// Seed `001_…`'s result, in camelCase, each value a lookup.
fn seed_result() -> serde_json::Value {
    json!({
        "taskId": "verify-c",
        "taskRevision": 1,
        "status": "completed",
        "conclusion": "C in 16GB / 512GB meets the verified budget and weight conditions",
        "evidence": [
            {
                "evidenceId": "c-price-01",
                "field": "totalPriceCny",
                "value": {"state": "confirmed", "value": 5999},
                "sourceRef": "sources/c-offer",
                "locator": "the 16GB / 512GB offer",
                "observedAt": "2026-09-28T10:00:00+08:00"
            },
            {
                "evidenceId": "c-weight-01",
                "field": "weightKg",
                "value": {"state": "confirmed", "value": 1.42},
                "sourceRef": "sources/c-spec",
                "locator": "the spec sheet's total weight",
                "observedAt": "2026-09-28T10:00:00+08:00"
            }
        ],
        "artifacts": ["results/verify-c.json"],
        "unresolved": [],
        "limitations": ["not verified for heavy container work"]
    })
}

fn bytes(value: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("JSON")
}

#[test]
fn the_seed_round_trips_through_receive_and_send() {
    let task = receive::<Subtask>(&bytes(&seed_task())).expect("the seed's task");
    let result = receive::<SubtaskResult>(&bytes(&seed_result())).expect("the seed's result");
    assert_eq!(task.value().budget.and_then(|b| b.max_tool_calls), Some(8));
    assert_eq!(result.value().status, ResultStatus::Completed);
    let verdict = judge(task.value(), result.value(), &|s: &str| {
        s.starts_with("sources/")
    });
    assert_eq!(verdict.conclusion(), Conclusion::Accepted);

    let again: serde_json::Value =
        serde_json::from_slice(send(result.value()).expect("sent").bytes()).expect("JSON");
    assert_eq!(again, seed_result());
}

#[test]
fn the_ids_are_the_librarys_own() {
    assert_eq!(Subtask::CONTRACT.to_string(), "subtask/v1");
    assert_eq!(SubtaskResult::CONTRACT.to_string(), "subtask-result/v1");
}

#[test]
fn working_assumptions_are_marked_as_assumptions() {
    let schema = <Subtask as contract_core::HandoffSchema>::schema();
    let text = contract_core::schema::text::to_text(&schema);
    let field = text
        .split("\n  field ")
        .find(|f| f.starts_with("working_assumptions"))
        .expect("the field");
    assert!(field.contains("\n    assumption"), "{field}");
}

#[test]
fn a_bare_value_or_null_is_no_lookup() {
    // The seed writes `"value": 5999`: it cannot tell confirmed from assumed.
    let mut bare = seed_result();
    bare["evidence"][0]["value"] = json!(5999);
    let rejection = receive::<SubtaskResult>(&bytes(&bare)).expect_err("a bare value");
    assert!(
        rejection
            .problems()
            .iter()
            .all(|p| p.pointer.starts_with("/evidence/0/value")),
        "{rejection}"
    );
    assert!(!rejection.to_string().contains("5999"), "{rejection}");

    let mut null = seed_result();
    null["evidence"][1]["value"] = json!(null);
    let rejection = receive::<SubtaskResult>(&bytes(&null)).expect_err("null");
    assert!(rejection
        .problems()
        .iter()
        .any(|p| p.pointer == "/evidence/1/value"
            && matches!(p.kind, ProblemKind::NullNotAllowed { .. })));
}

#[test]
fn not_found_arrives_as_not_found() {
    let mut result = seed_result();
    result["evidence"][0]["value"] = json!({"state": "not_found", "reason": "no price listed"});
    result["status"] = json!("partial");
    let received = receive::<SubtaskResult>(&bytes(&result)).expect("a result");
    assert!(matches!(
        received.value().evidence[0].value,
        Lookup::NotFound { .. }
    ));
    assert_eq!(
        received
            .presence()
            .count("evidence[].value(not_found).reason"),
        1
    );
    assert_eq!(
        received
            .presence()
            .count("evidence[].value(confirmed).value"),
        1
    );
}
