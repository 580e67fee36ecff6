//! `#[handoff(allow(RULE_ID, reason = "…"))]`: a break accepted on purpose passes the
//! snapshot test of a published contract, stays in the report with its reason, and only the
//! findings it names are accepted.

mod common;

use common::Ping;
use contract_core::{check_published, HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

#[test]
fn an_unallowed_break_fails() {
    let err = check_published::<Ping<1, 0>>()
        .expect_err("two breaking findings")
        .to_string();
    assert!(err.contains("error[INT_NARROWED]"), "{err}");
    assert!(err.contains("error[FIELD_ADDED_REQUIRED]"), "{err}");
    assert!(!err.contains("allowed on purpose"), "{err}");
}

#[test]
fn every_break_allowed_passes() {
    assert_eq!(check_published::<Ping<1, 2>>(), Ok(()));
}

#[test]
fn an_allowed_finding_stays_in_the_report_with_its_reason() {
    let err = check_published::<Ping<1, 1>>()
        .expect_err("FIELD_ADDED_REQUIRED is not allowed")
        .to_string();
    assert!(err.contains("error[FIELD_ADDED_REQUIRED]"), "{err}");
    assert!(!err.contains("error[INT_NARROWED]"), "{err}");
    assert!(err.contains("allowed[INT_NARROWED]"), "{err}");
    assert!(
        err.contains("allowed on purpose: sequence numbers never exceeded u32"),
        "{err}"
    );
    assert!(err.contains("(1 allowed on purpose)"), "{err}");
}

#[test]
fn an_allowance_covers_only_the_field_it_names() {
    let err = check_published::<Ping<1, 3>>()
        .expect_err("`origin` is not allowed")
        .to_string();
    assert!(err.contains("error[FIELD_ADDED_REQUIRED]"), "{err}");
    assert!(err.contains("error[INT_NARROWED]"), "{err}");
}

#[test]
fn contract_info_turns_its_allows_into_allowances() {
    let allowances = Ping::<1, 2>::CONTRACT.allowances();
    let pairs: Vec<(&str, &str, &str)> = allowances
        .as_slice()
        .iter()
        .map(|a| (a.rule.as_str(), a.field.as_str(), a.reason.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("INT_NARROWED", "seq", "sequence numbers never exceeded u32"),
            (
                "FIELD_ADDED_REQUIRED",
                "origin",
                "every v1 writer was upgraded"
            ),
        ]
    );
    assert_eq!(allowances.unknown_rules().count(), 0);
}

/// A derived contract (generic, so that it emits no snapshot test of its own) carries its
/// field-level and container-level allowances in `CONTRACT.allows`.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "allowing", version = 3)]
#[handoff(allow(FIELD_REMOVED, field = "orderRef", reason = "no reader left"))]
pub struct Allowing<T> {
    #[serde(rename(serialize = "amountCents", deserialize = "amount"))]
    #[handoff(allow(INT_NARROWED, reason = "cents fit in u32"))]
    #[handoff(allow(TYPE_CHANGED, reason = "reviewed with billing"))]
    pub amount: u32,
    pub payload: T,
}

#[test]
fn the_derive_emits_every_allow_with_the_field_wire_names() {
    let allows: Vec<(&str, &str, &str)> = <Allowing<u8> as HandoffContract>::CONTRACT
        .allows
        .iter()
        .map(|a| (a.rule, a.field, a.reason))
        .collect();
    assert_eq!(
        allows,
        [
            ("FIELD_REMOVED", "orderRef", "no reader left"),
            ("INT_NARROWED", "amountCents", "cents fit in u32"),
            ("INT_NARROWED", "amount", "cents fit in u32"),
            ("TYPE_CHANGED", "amountCents", "reviewed with billing"),
            ("TYPE_CHANGED", "amount", "reviewed with billing"),
        ]
    );
}

#[test]
fn the_canonical_text_records_every_allow_after_the_mode() {
    let schema = <Allowing<u8> as HandoffSchema>::schema();
    assert_eq!(
        schema.allowances,
        <Allowing<u8> as HandoffContract>::CONTRACT.allowances()
    );
    let text = schema.to_string();
    let expected = "contract allowing/v3\n\
        mode full\n\
        allow FIELD_REMOVED field \"orderRef\" reason \"no reader left\"\n\
        allow INT_NARROWED field \"amountCents\" reason \"cents fit in u32\"\n\
        allow INT_NARROWED field \"amount\" reason \"cents fit in u32\"\n\
        allow TYPE_CHANGED field \"amountCents\" reason \"reviewed with billing\"\n\
        allow TYPE_CHANGED field \"amount\" reason \"reviewed with billing\"\n\
        root ";
    assert!(text.starts_with(expected), "{text}");
    assert_eq!(contract_core::schema::text::parse(&text), Ok(schema));
}

// A non-generic contract with an allowance: its emitted snapshot test publishes
// `contracts/allowed-note.v1.snap`, whose text holds the `allow` line, so that
// `handoff check` honours it too (a plain comment: a doc comment would be in the text).
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "allowed-note", version = 1)]
#[handoff(allow(
    FIELD_REMOVED,
    field = "author",
    reason = "notes are anonymous since 2.0"
))]
pub struct AllowedNote {
    pub text: String,
}

#[test]
fn a_published_snapshot_holds_the_allow_lines() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/contracts/allowed-note.v1.snap"
    );
    let file = std::fs::read_to_string(path).expect("the published snapshot");
    assert!(
        file.contains(
            "\nmode full\nallow FIELD_REMOVED field \"author\" reason \"notes are anonymous since 2.0\"\nroot AllowedNote\n"
        ),
        "{file}"
    );
    let published = contract_core::schema::snapshot::parse(&file).expect("a snapshot");
    assert_eq!(published, AllowedNote::schema());
}
