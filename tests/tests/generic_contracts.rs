//! A generic contract is published once per contract id, whatever its arguments: each type
//! parameter is a hole (`any`) and the root is named without arguments, so that every
//! instantiation writes the same snapshot and the snapshot never flip-flops.

use std::marker::PhantomData;

use contract_core::{check_published, HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// One envelope for every agent's payload.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "agent-envelope", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<T> {
    /// The handoff's id.
    pub handoff_id: String,
    /// What the agent hands on.
    pub payload: T,
    /// Earlier payloads of the same kind.
    pub history: Vec<T>,
    /// A parameter that describes nothing on the wire.
    #[serde(skip)]
    pub marker: PhantomData<T>,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    pub order_ref: String,
    pub amount_cents: u64,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundDecision {
    pub approved: bool,
    pub confidence: f32,
}

#[test]
fn every_instantiation_publishes_the_same_text() {
    let request = contract_core::schema::text::to_text(
        &<Envelope<RefundRequest> as HandoffContract>::published_schema(),
    );
    let decision = contract_core::schema::text::to_text(
        &<Envelope<RefundDecision> as HandoffContract>::published_schema(),
    );
    assert_eq!(request, decision);
    assert!(request.contains("root Envelope\n"), "{request}");
    assert!(request.contains("field payload: any"), "{request}");
    assert!(request.contains("field history: list<any>"), "{request}");
    assert!(!request.contains("RefundRequest"), "{request}");
    assert!(!request.contains("amountCents"), "{request}");
}

#[test]
fn the_runtime_still_checks_the_argument() {
    // The published shape has holes; the schema a call checks against does not.
    let schema = <Envelope<RefundRequest> as HandoffSchema>::schema();
    assert_eq!(schema.root.to_string(), "Envelope<RefundRequest>");
    let bad = br#"{"handoffId":"h-1","payload":{"orderRef":"A-1"},"history":[]}"#;
    let rejection = contract_core::receive::<Envelope<RefundRequest>>(bad).unwrap_err();
    assert_eq!(rejection.problems()[0].pointer, "/payload/amountCents");
}

#[test]
fn both_instantiations_pass_the_one_published_snapshot() {
    assert!(check_published::<Envelope<RefundRequest>>().is_ok());
    assert!(check_published::<Envelope<RefundDecision>>().is_ok());
    contract_core::assert_contract_snapshot!(Envelope<RefundRequest>);
    contract_core::assert_contract_snapshot!(Envelope<RefundDecision>);
}

/// A parameter used through an associated type has no hole: such a contract publishes the
/// instantiation it is called with (documented), and compiles.
pub trait Backend {
    type Id;
}

pub struct Postgres;

impl Backend for Postgres {
    type Id = u64;
}

#[derive(Serialize, HandoffContract)]
#[handoff(
    name = "backend-row",
    version = 1,
    bound = "B: Backend, B::Id: HandoffSchema"
)]
#[serde(bound = "B::Id: Serialize")]
pub struct Row<B: Backend> {
    pub id: B::Id,
}

#[test]
fn an_associated_type_publishes_the_instantiation() {
    assert!(<Row<Postgres> as HandoffContract>::PUBLISHED_SHAPE.is_none());
    let text = contract_core::schema::text::to_text(
        &<Row<Postgres> as HandoffContract>::published_schema(),
    );
    assert!(text.contains("field id: u64"), "{text}");
}
