//! Seed `001_…`'s sub-task `verify-c`: a supervisor asks a researcher to verify laptop C
//! against the purchase conditions (at most 6000 CNY, at most 1.5 kg), and judges what
//! comes back. Each catch is checked: the program exits non-zero when one fails.
//!
//! 1. The price is not found: the result says `not_found`, so it cannot pass for "none", and
//!    may not claim `completed`.
//! 2. `null` where the price's lookup goes is refused where the result arrives.
//! 3. A source nobody can resolve confirms nothing.
//! 4. The user lowers the budget to 5500: revision 2 of the task voids the old conclusion
//!    ("C meets the budget") and keeps the old observation (5999 CNY, looked up then).
//! 5. The task's budget is enforced: the ninth tool call is refused.
//!
//! Run with `cargo run -p examples --bin task-contract`.

use std::error::Error;

use contract_core::task::{
    judge, Budget, BudgetMeter, Call, Conclusion, Evidence, FieldState, Limit, Lookup,
    ResultStatus, Scope, Subtask, SubtaskResult,
};
use contract_core::{receive, send, HandoffContract, ProblemKind};
use serde_json::{json, Value};

/// The sources the supervisor can read: the application maps these references to pages and
/// records; anything else (`source_1`) it cannot resolve.
fn readable(source: &str) -> bool {
    matches!(source, "sources/c-offer" | "sources/c-spec")
}

/// A catch that must hold: its failure ends the program with an error.
fn expect(holds: bool, what: &str) -> Result<(), Box<dyn Error>> {
    if holds {
        println!("  caught: {what}");
        Ok(())
    } else {
        Err(format!("not caught: {what}").into())
    }
}

/// The sub-task at `revision`, with the user's price limit of that revision.
fn verify_c(revision: u32, max_total_price_cny: u32) -> Subtask {
    Subtask {
        task_id: "verify-c".into(),
        task_revision: revision,
        assignee: "product_researcher".into(),
        goal: "verify that C in the given configuration meets the current purchase conditions"
            .into(),
        input: [
            ("productId", json!("C")),
            ("variant", json!("16GB / 512GB")),
            ("maxTotalPriceCny", json!(max_total_price_cny)),
            ("maxWeightKg", json!(1.5)),
            ("useCase", json!("Python development")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect(),
        working_assumptions: vec![
            "daily scripts, an IDE and light web work; the load is not confirmed with the user"
                .into(),
        ],
        scope: Scope {
            // The source and time of each value are every observation's own.
            required_fields: vec!["totalPriceCny".into(), "weightKg".into()],
            excluded_actions: vec!["buy".into(), "edit other candidates' records".into()],
        },
        acceptance: vec![
            "every value is for the same model and configuration, with a readable source".into(),
            "a field that cannot be verified is marked unknown".into(),
            "the user's hard conditions are kept apart from the assignee's advice".into(),
        ],
        budget: Some(Budget {
            max_model_calls: Some(6),
            max_tool_calls: Some(8),
            max_tokens: None,
            timeout_seconds: Some(120),
        }),
        deliverable: "a structured verification: conclusion, evidence, open items".into(),
    }
}

fn observation(id: &str, field: &str, value: Lookup<Value>, source: &str) -> Evidence {
    Evidence {
        evidence_id: id.into(),
        field: field.into(),
        value,
        source_ref: source.into(),
        locator: Some(match field {
            "totalPriceCny" => "the 16GB / 512GB offer".into(),
            _ => "the spec sheet's total weight".into(),
        }),
        observed_at: "2026-09-28T10:00:00+08:00".into(),
    }
}

/// The result of revision 1: price and weight confirmed, `completed`.
fn seed_result() -> SubtaskResult {
    SubtaskResult {
        task_id: "verify-c".into(),
        task_revision: 1,
        status: ResultStatus::Completed,
        conclusion: "C in 16GB / 512GB meets the verified budget and weight conditions".into(),
        evidence: vec![
            observation(
                "c-price-01",
                "totalPriceCny",
                Lookup::Confirmed { value: json!(5999) },
                "sources/c-offer",
            ),
            observation(
                "c-weight-01",
                "weightKg",
                Lookup::Confirmed { value: json!(1.42) },
                "sources/c-spec",
            ),
        ],
        artifacts: vec!["results/verify-c.json".into()],
        unresolved: vec![],
        limitations: vec!["not verified for heavy container work or local model training".into()],
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let task = verify_c(1, 6000);
    let sent = send(&task)?;
    println!(
        "== {} {} revision {}: required {:?} ==",
        Subtask::CONTRACT,
        task.task_id,
        task.task_revision,
        task.scope.required_fields
    );
    println!("  sent {} bytes", sent.bytes().len());

    println!();
    println!("== 1. the price is not found ==");
    let mut result = seed_result();
    result.evidence[0].value = Lookup::NotFound {
        reason: "the offer page lists no price for 16GB / 512GB".into(),
    };
    result.evidence[0].locator = None;
    result.status = ResultStatus::Partial;
    result.conclusion = "C's weight is within the limit; its price is unknown".into();
    let received = receive::<SubtaskResult>(send(&result)?.bytes())?;
    let presence = received.presence();
    println!("  received: {presence}");
    expect(
        presence.count("evidence[].value(not_found).reason") == 1,
        "the presence record says a lookup was not found (evidence[].value(not_found).reason)",
    )?;
    let verdict = judge(&task, received.value(), &readable);
    println!("  {}", verdict.to_string().replace('\n', "\n  "));
    expect(
        verdict.field("totalPriceCny").map(|f| f.state()) == Some(FieldState::NotFound(0)),
        "totalPriceCny is not found, not none",
    )?;
    expect(
        verdict.conclusion() == Conclusion::Incomplete,
        "a partial result is not taken as complete",
    )?;
    result.status = ResultStatus::Completed;
    let verdict = judge(&task, &result, &readable);
    println!(
        "  the same claiming completed: conclusion {}",
        verdict.conclusion()
    );
    expect(
        verdict.conclusion() == Conclusion::Overclaimed,
        "completed with a field not found is refused",
    )?;

    println!();
    println!("== 2. null where the price's lookup goes ==");
    let mut bytes: Value = serde_json::from_slice(send(&seed_result())?.bytes())?;
    bytes["evidence"][0]["value"] = Value::Null;
    match receive::<SubtaskResult>(&serde_json::to_vec(&bytes)?) {
        Ok(_) => return Err("not caught: null read as a lookup".into()),
        Err(rejection) => {
            println!("  {}", rejection.to_string().replace('\n', "\n  "));
            expect(
                rejection.problems().iter().any(|p| {
                    p.pointer == "/evidence/0/value"
                        && matches!(p.kind, ProblemKind::NullNotAllowed { .. })
                }),
                "null is no lookup: refused at /evidence/0/value",
            )?;
        }
    }

    println!();
    println!("== 3. a source nobody can resolve ==");
    let mut result = seed_result();
    result.evidence[0].source_ref = "source_1".into();
    let verdict = judge(&task, &result, &readable);
    println!("  {}", verdict.to_string().replace('\n', "\n  "));
    expect(
        verdict.field("totalPriceCny").map(|f| f.state()) == Some(FieldState::SourceUnresolved(0))
            && !verdict.is_accepted(),
        "a price from source_1 confirms nothing",
    )?;

    println!();
    println!("== 4. the user lowers the budget to 5500: revision 2 ==");
    let revised = verify_c(2, 5500);
    let result = seed_result();
    let accepted_before = judge(&task, &result, &readable);
    println!(
        "  against revision 1: conclusion {}",
        accepted_before.conclusion()
    );
    expect(
        accepted_before.is_accepted(),
        "revision 1's result stood for revision 1",
    )?;
    let verdict = judge(&revised, &result, &readable);
    println!("  {}", verdict.to_string().replace('\n', "\n  "));
    expect(
        verdict.conclusion()
            == Conclusion::Outdated {
                answered: 1,
                current: 2,
            },
        "revision 1's conclusion is void for revision 2",
    )?;
    let price = verdict
        .kept(&result)
        .find(|e| e.field == "totalPriceCny")
        .and_then(|e| Some((e, e.value.confirmed()?.as_u64()?)));
    let Some((evidence, price)) = price else {
        return Err("not caught: the price observation was not kept".into());
    };
    println!(
        "  kept {}: totalPriceCny {price}, from {} at {}",
        evidence.evidence_id, evidence.source_ref, evidence.observed_at
    );
    expect(price == 5999, "the 5999 observation is kept")?;
    let limit = revised.input["maxTotalPriceCny"].as_u64().unwrap_or(0);
    println!(
        "  the supervisor decides again: {price} {} {limit}, C {} the new budget",
        if price <= limit { "<=" } else { ">" },
        if price <= limit { "meets" } else { "exceeds" }
    );

    println!();
    println!("== 5. the budget is enforced, not only written in the prompt ==");
    let meter = BudgetMeter::new(&revised.budget.unwrap_or_default());
    let calls: Vec<_> = (0..8).map(|_| meter.reserve(Call::Tool)).collect();
    println!(
        "  {} tool calls granted; {} running",
        calls.iter().filter(|c| c.is_ok()).count(),
        meter.running(Call::Tool)
    );
    match meter.reserve(Call::Tool) {
        Ok(_) => return Err("not caught: a ninth tool call was granted".into()),
        Err(refused) => {
            println!("  {refused}");
            expect(
                refused.limit() == Limit::MaxToolCalls && calls.iter().all(Result::is_ok),
                "the ninth tool call is refused (maxToolCalls)",
            )?;
        }
    }
    Ok(())
}
