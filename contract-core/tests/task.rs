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

/// A sub-agent's result handed back with what its task spent: the supervisor's inbox records
/// the counts with the handoff's step, and the session view shows them; no action's name and
/// no value of the payload reach either.
#[test]
fn what_a_task_spent_is_recorded_with_its_step_and_shown_in_the_session() {
    use contract_core::inbox::{Inbox, Ledger as _, MemoryLedger, MemoryTx};
    use contract_core::session::{self, SessionView};
    use contract_core::task::{ActionGuard, Budget, BudgetMeter, Call, Scope, Spent};
    use contract_core::{send_handoff, Delivery, Handoff, Journey};

    let task: Subtask = serde_json::from_value(seed_task()).expect("the task reads");
    let meter = BudgetMeter::new(&Budget {
        max_tool_calls: Some(2),
        ..Budget::default()
    });
    let guard = ActionGuard::new(&Scope {
        required_fields: vec![],
        excluded_actions: vec!["purchase-the-item".into()],
    });
    for _ in 0..2 {
        let permit = meter.reserve(Call::Tool).expect("within the budget");
        drop(permit);
    }
    let model = meter.reserve(Call::Model).expect("no model limit");
    model.record_tokens(1_250);
    drop(model);
    assert!(
        meter.reserve(Call::Tool).is_err(),
        "the third tool call is refused"
    );
    assert!(guard.permit("Purchase-The-Item").is_err());
    let spent = Spent::of(&meter).actions(&guard);

    let result: SubtaskResult = serde_json::from_value(seed_result()).expect("the result reads");
    assert_eq!(result.task_id, task.task_id);
    let mut handoff = Handoff::new("ctx-spent", "result-1", "supervisor", result)
        .journey(
            Journey::new("researcher", "supervisor")
                .session("sess-spent")
                .workflow("price-research"),
        )
        .spent(spent)
        .ready();
    let bytes = send_handoff(&mut handoff).expect("sends").into_bytes();

    let mut inbox = Inbox::new(MemoryLedger::new());
    inbox
        .accept(
            &bytes,
            |_: &mut MemoryTx<'_>, _: &Delivery<SubtaskResult>| {
                Ok::<_, std::convert::Infallible>(())
            },
        )
        .expect("accepted");
    let steps = inbox.ledger_mut().session("sess-spent").expect("reads");
    assert_eq!(steps.len(), 1);
    assert_eq!(
        steps[0].spent,
        Some(Spent {
            model_calls: 1,
            tool_calls: 2,
            tokens: 1_250,
            calls_refused: 1,
            actions_refused: 1,
        })
    );

    let view = SessionView::from_ledgers("sess-spent", [("supervisor", steps)]);
    let text = session::text(&view);
    assert!(
        text.contains(
            "spent before: 1 model call, 2 tool calls, 1250 tokens; \
             refused: 1 call over the budget, 1 excluded action"
        ),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&session::json(&view)).expect("json");
    assert_eq!(json["steps"][0]["spent"]["callsRefused"], 1);
    assert_eq!(json["steps"][0]["spent"]["actionsRefused"], 1);
    for shown in [text, session::json(&view), session::html(&view)] {
        assert!(!shown.to_ascii_lowercase().contains("purchase-the-item"));
    }
}
