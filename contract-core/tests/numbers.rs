//! `Numbers::FromDoubles`: whole-number doubles (`1250.0`, `1.25e3`) read where the contract
//! has an integer, exactly and only then; everything else refused as under `Numbers::Exact`.

use std::collections::BTreeMap;

use contract_core::schema::shape::{ConstraintShape, IntKind, IntRange, IntValue, Kind};
use contract_core::Shape;
use contract_core::{
    receive_with, HandoffContract, HandoffSchema, Numbers, ProblemKind, ReceiveOptions,
};
use serde::{Deserialize, Serialize};

/// A quantity of 1 to 1,000: a validated newtype whose schema says its range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
struct Quantity(u16);

impl TryFrom<u16> for Quantity {
    type Error = &'static str;

    fn try_from(value: u16) -> Result<Self, Self::Error> {
        if (1..=1000).contains(&value) {
            Ok(Quantity(value))
        } else {
            Err("a quantity is 1 to 1000")
        }
    }
}

impl From<Quantity> for u16 {
    fn from(quantity: Quantity) -> u16 {
        quantity.0
    }
}

impl HandoffSchema for Quantity {
    const SHAPE: &'static Shape = &Shape::builtin(Kind::Constrained(&ConstraintShape::Int {
        kind: IntKind::U16,
        ranges: &[IntRange::new(
            IntValue::from_u128(1),
            IntValue::from_u128(1000),
        )],
    }));
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    sku: String,
    quantity: Quantity,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Purpose {
    Refund { cents: u64 },
    Credit { points: i32, rate: f64 },
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum Amount {
    Cents(u32),
    Text(String),
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
enum Loose {
    Cents(u32),
    Anything(serde_json::Value),
}

#[derive(Debug, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "numbers-order", version = 1, snapshots = "tests/contracts")]
#[serde(rename_all = "camelCase")]
struct Order {
    amount_cents: u32,
    delta: i8,
    rate: f64,
    lines: Vec<Line>,
    totals: BTreeMap<String, u64>,
    kind: Purpose,
    #[serde(default)]
    note: Option<u32>,
    extra: serde_json::Value,
    amount: Amount,
    loose: Loose,
}

fn doubles() -> ReceiveOptions {
    ReceiveOptions::default().numbers(Numbers::FromDoubles)
}

const WRITTEN: &str = r#"{"amountCents": 1250.0, "delta": -3e0, "rate": 0.5,
    "lines": [{"sku": "S-1", "quantity": 2.0}, {"sku": "S-2", "quantity": 1.5e1}],
    "totals": {"eur": 1.0e3, "usd": 7},
    "kind": {"type": "refund", "cents": 125000e-2},
    "note": 4.0, "extra": {"n": 1.0}, "amount": 9.0, "loose": 2.0}"#;

#[test]
fn whole_doubles_read_as_the_integers_they_equal() {
    let refused =
        receive_with::<Order>(WRITTEN.as_bytes(), &ReceiveOptions::default()).unwrap_err();
    assert!(refused.problems().len() >= 7, "{refused}");
    let order = receive_with::<Order>(WRITTEN.as_bytes(), &doubles())
        .unwrap()
        .into_inner();
    assert_eq!(order.amount_cents, 1250);
    assert_eq!(order.delta, -3);
    assert_eq!(order.lines[0].quantity, Quantity(2));
    assert_eq!(order.lines[1].quantity, Quantity(15));
    assert_eq!(order.totals["eur"], 1000);
    assert_eq!(order.kind, Purpose::Refund { cents: 1250 });
    assert_eq!(order.note, Some(4));
    // `Any` keeps the literal's form: a double stays a double.
    assert!(order.extra["n"].is_f64());
    // An untagged variant of an integer reads it; one that holds any value keeps it a double.
    assert_eq!(order.amount, Amount::Cents(9));
    assert!(matches!(order.loose, Loose::Anything(ref v) if v.is_f64()));
}

#[test]
fn presence_is_that_of_an_exact_payload() {
    let exact = WRITTEN
        .replace("1250.0", "1250")
        .replace("-3e0", "-3")
        .replace("2.0", "2")
        .replace("1.5e1", "15")
        .replace("1.0e3", "1000")
        .replace("125000e-2", "1250")
        .replace("4.0", "4")
        .replace("9.0", "9");
    let a = receive_with::<Order>(exact.as_bytes(), &ReceiveOptions::default()).unwrap();
    let b = receive_with::<Order>(WRITTEN.as_bytes(), &doubles()).unwrap();
    assert_eq!(a.presence().received(), b.presence().received());
}

fn problems_of(text: &str) -> Vec<(String, ProblemKind)> {
    receive_with::<Order>(text.as_bytes(), &doubles())
        .unwrap_err()
        .problems()
        .iter()
        .map(|p| (p.pointer.clone(), p.kind.clone()))
        .collect()
}

#[test]
fn fractions_beyond_2_53_and_out_of_range_stay_refused() {
    for (from, to, pointer) in [
        ("1250.0", "1250.5", "/amountCents"),
        ("1250.0", "9007199254740994.0", "/amountCents"),
        ("1250.0", "5e9", "/amountCents"),
        ("1250.0", "-1.0", "/amountCents"),
        ("-3e0", "-129.0", "/delta"),
        ("125000e-2", "9007199254740994.0", "/kind/cents"),
    ] {
        let text = WRITTEN.replacen(from, to, 1);
        let problems = problems_of(&text);
        assert_eq!(problems.len(), 1, "{to}: {problems:?}");
        assert_eq!(problems[0].0, pointer, "{to}");
        assert!(
            matches!(problems[0].1, ProblemKind::WrongType { .. }),
            "{to}: {problems:?}"
        );
    }
}

#[test]
fn a_converted_value_outside_its_constraint_is_out_of_range() {
    let text = WRITTEN.replacen("2.0", "2000.0", 1);
    let problems = problems_of(&text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "/lines/0/quantity");
    assert!(matches!(problems[0].1, ProblemKind::OutOfRange { .. }));
}

#[test]
fn other_problems_are_kept_beside_the_conversions() {
    let text = WRITTEN.replacen(r#""sku": "S-1""#, r#""sku": 5"#, 1);
    let problems = problems_of(&text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "/lines/0/sku");
}

#[test]
fn a_problem_of_the_bytes_is_not_read_again() {
    let text = format!("{WRITTEN} trailing");
    let problems = problems_of(&text);
    assert!(problems
        .iter()
        .any(|(_, k)| matches!(k, ProblemKind::TrailingData { .. })));
}

#[test]
fn exact_is_the_default() {
    assert_eq!(ReceiveOptions::default().numbers, Numbers::Exact);
    let problems =
        receive_with::<Order>(WRITTEN.as_bytes(), &ReceiveOptions::default()).unwrap_err();
    assert!(problems
        .problems()
        .iter()
        .any(|p| p.pointer == "/amountCents"));
}
