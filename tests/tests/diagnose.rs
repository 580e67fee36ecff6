//! Why a field is missing: one test per cause of the tracing seed, with and without the
//! producer's presence record.

use contract_core::runtime::{Cause, Certainty};
use contract_core::{receive, send, why_missing, HandoffSchema, Presence, Rejection};

mod v1 {
    use contract_core::HandoffContract;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "diag-refund", version = 1)]
    #[serde(rename_all = "camelCase")]
    pub struct RefundRequest {
        pub category: String,
        pub order_ref: String,
    }
}

mod v2 {
    use contract_core::HandoffContract;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, HandoffContract)]
    #[handoff(name = "diag-refund", version = 2)]
    #[serde(rename_all = "camelCase")]
    pub struct RefundRequest {
        pub category: String,
        #[handoff(renamed_from = "orderRef")]
        pub order_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub amount_cents: Option<u32>,
    }

    /// A producer of v2 whose builder may leave the order id out (a plain schema: its
    /// presence record names no contract).
    #[derive(Debug, Serialize, contract_core::HandoffSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Draft {
        pub category: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub order_id: Option<String>,
    }
}

fn rejected(bytes: &[u8]) -> Rejection {
    receive::<v2::RefundRequest>(bytes).expect_err("orderId is missing")
}

fn only(causes: &[Cause]) -> &Cause {
    assert_eq!(causes.len(), 1, "{causes:?}");
    &causes[0]
}

#[test]
fn not_emitted_the_producer_never_wrote_it() {
    let sent = send(&v2::Draft {
        category: "damaged".into(),
        order_id: None,
    })
    .expect("its own view allows leaving it out");
    let rejection = rejected(sent.bytes());
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    assert_eq!(
        only(diagnosis.causes("orderId")),
        &Cause::NotEmitted {
            certainty: Certainty::Established
        }
    );
    assert_eq!(
        diagnosis.to_string(),
        "diag-refund/v2: why fields are missing\n  orderId: not emitted by the producer"
    );
}

#[test]
fn dropped_on_the_way_written_but_not_arrived() {
    let sent = send(&v2::Draft {
        category: "damaged".into(),
        order_id: Some("A-1".into()),
    })
    .expect("complete");
    // A transport that keeps only the first field.
    let dropped = br#"{"category":"damaged"}"#;
    let rejection = rejected(dropped);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    assert_eq!(
        only(diagnosis.causes("orderId")),
        &Cause::DroppedOnTheWay {
            certainty: Certainty::Established
        }
    );
}

#[test]
fn renamed_by_a_mapper_through_renamed_from() {
    let sent = send(&v2::Draft {
        category: "damaged".into(),
        order_id: Some("A-1".into()),
    })
    .expect("complete");
    let mapped = br#"{"category":"damaged","orderRef":"A-1"}"#;
    let rejection = rejected(mapped);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    assert_eq!(
        only(diagnosis.causes("orderId")),
        &Cause::RenamedByMapper {
            arrived_as: "orderRef".into(),
            because: "the field's renamed_from".into(),
            certainty: Certainty::Established
        }
    );
}

#[test]
fn renamed_by_a_mapper_to_a_close_spelling() {
    let rejection = rejected(br#"{"category":"damaged","order_id":"A-1"}"#);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence()).explain();
    assert_eq!(
        only(diagnosis.causes("orderId")),
        &Cause::RenamedByMapper {
            arrived_as: "order_id".into(),
            because: "a close spelling".into(),
            certainty: Certainty::Established
        }
    );
}

#[test]
fn another_version_named_by_the_producers_record() {
    let sent = send(&v1::RefundRequest {
        category: "damaged".into(),
        order_ref: "A-1".into(),
    })
    .expect("a valid v1");
    let rejection = rejected(sent.bytes());
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .version(v1::RefundRequest::schema())
        .explain();
    let causes = diagnosis.causes("orderId");
    assert_eq!(
        causes[0],
        Cause::AnotherVersion {
            contract: "diag-refund/v1".into(),
            because: "the producer's presence record names it".into(),
            certainty: Certainty::Established
        }
    );
    // The old name arrived too, and v1 calls the field so.
    assert!(causes.contains(&Cause::RenamedByMapper {
        arrived_as: "orderRef".into(),
        because: "the field's renamed_from".into(),
        certainty: Certainty::Established
    }));
}

/// What a v1 producer writes (a plain schema: it names no contract).
#[derive(serde::Serialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct OldWriter {
    category: &'static str,
    order_ref: &'static str,
}

fn old_payload() -> Vec<u8> {
    serde_json::to_vec(&OldWriter {
        category: "damaged",
        order_ref: "A-1",
    })
    .expect("serializes")
}

#[test]
fn another_version_that_the_payload_fits() {
    // No producer record: the payload itself fits v1's receiver view.
    let bytes = old_payload();
    let rejection = rejected(&bytes);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .payload(&bytes)
        .version(v1::RefundRequest::schema())
        .explain();
    assert_eq!(
        diagnosis.causes("orderId")[0],
        Cause::AnotherVersion {
            contract: "diag-refund/v1".into(),
            because: "the payload fits its receiver view".into(),
            certainty: Certainty::Established
        }
    );
}

/// A version passed by hand without a contract id cannot be "the version the producer
/// follows": the diagnosis says it used it for renames only, rather than dropping it silently.
#[test]
fn a_version_without_a_contract_id_is_named_in_a_note() {
    let bytes = old_payload();
    let rejection = rejected(&bytes);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .payload(&bytes)
        .version(OldWriter::schema())
        .explain();
    assert_eq!(diagnosis.notes().len(), 1, "{diagnosis}");
    let text = diagnosis.to_string();
    assert!(
        text.ends_with(
            "note: 1 version passed with .version() has no contract id: used to explain renames \
             only, never as another version the producer may follow (pass a contract's schema, \
             or a snapshot, to have it considered)"
        ),
        "{text}"
    );
    let json = serde_json::to_value(&diagnosis).expect("serializes");
    assert_eq!(json["notes"].as_array().map(Vec::len), Some(1));

    // With a contract's schema, no note.
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .payload(&bytes)
        .version(v1::RefundRequest::schema())
        .explain();
    assert!(diagnosis.notes().is_empty());
    assert!(!diagnosis.to_string().contains("note:"));
}

#[test]
fn the_derive_embeds_every_published_version() {
    use contract_core::HandoffContract;
    let versions: Vec<u32> = v2::RefundRequest::PUBLISHED
        .iter()
        .map(|p| p.version)
        .collect();
    assert_eq!(versions, [1, 2]);
    assert_eq!(v1::RefundRequest::PUBLISHED.len(), 2);
    // So the published v1 is tried without being passed in.
    let bytes = br#"{"category":"damaged","orderRef":"A-1"}"#;
    let rejection = rejected(bytes);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence())
        .payload(bytes)
        .explain();
    assert!(diagnosis
        .causes("orderId")
        .contains(&Cause::AnotherVersion {
            contract: "diag-refund/v1".into(),
            because: "the payload fits its receiver view".into(),
            certainty: Certainty::Established
        }));
}

#[test]
fn without_evidence_the_possible_causes_remain() {
    let rejection = rejected(br#"{"category":"damaged"}"#);
    let diagnosis = why_missing::<v2::RefundRequest>(rejection.presence()).explain();
    assert_eq!(
        diagnosis.causes("orderId"),
        [
            Cause::NotEmitted {
                certainty: Certainty::Possible
            },
            Cause::DroppedOnTheWay {
                certainty: Certainty::Possible
            }
        ]
    );
    assert_eq!(
        diagnosis.to_string(),
        "diag-refund/v2: why fields are missing\n  orderId: possibly not emitted by the producer; or possibly dropped on the way: the producer wrote it, it did not arrive"
    );
    let json = serde_json::to_value(&diagnosis).expect("serializes");
    assert_eq!(json["fields"][0]["causes"][0]["cause"], "not_emitted");
    assert_eq!(json["fields"][0]["causes"][0]["certainty"], "possible");
}

#[test]
fn a_complete_payload_has_nothing_to_explain() {
    let received =
        receive::<v2::RefundRequest>(br#"{"category":"damaged","orderId":"A-1"}"#).expect("ok");
    let diagnosis = why_missing::<v2::RefundRequest>(received.presence()).explain();
    assert!(diagnosis.fields().is_empty());
    assert_eq!(diagnosis.to_string(), "diag-refund/v2: no field is missing");
    let _ = Presence::default();
}

/// A v1 producer's payload that a mapper on the way turned into v2's names, read by a v1
/// receiver (seed `003_…`: "mapper renamed it").
fn mapped_to_v2() -> (contract_core::Sent, Rejection, &'static [u8]) {
    let sent = send(&v1::RefundRequest {
        category: "damaged".into(),
        order_ref: "A-1".into(),
    })
    .expect("a valid v1");
    let mapped: &'static [u8] = br#"{"category":"damaged","orderId":"A-1"}"#;
    let rejection = receive::<v1::RefundRequest>(mapped).expect_err("orderRef is missing");
    (sent, rejection, mapped)
}

fn renamed_to_v2() -> Cause {
    Cause::RenamedByMapper {
        arrived_as: "orderId".into(),
        because: "its name in diag-refund/v2".into(),
        certainty: Certainty::Established,
    }
}

/// Another version's field that declares this field's name in `renamed_from` is the same
/// field, though its Rust name differs: the name it arrived under is that version's.
#[test]
fn renamed_to_another_versions_name_found_through_its_renamed_from() {
    let (sent, rejection, _) = mapped_to_v2();
    let diagnosis = why_missing::<v1::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .explain();
    assert_eq!(only(diagnosis.causes("orderRef")), &renamed_to_v2());
    assert_eq!(
        diagnosis.to_string(),
        "diag-refund/v1: why fields are missing\n  \
         orderRef: renamed on the way: it arrived as `orderId` (its name in diag-refund/v2)"
    );
}

/// The payload fits v2's receiver view, but the producer's record names v1, the receiver's
/// own contract: that outweighs the fit.
#[test]
fn a_record_naming_this_contract_outweighs_a_fitting_version() {
    let (sent, rejection, mapped) = mapped_to_v2();
    let diagnosis = why_missing::<v1::RefundRequest>(rejection.presence())
        .sender(sent.presence())
        .payload(mapped)
        .explain();
    assert_eq!(only(diagnosis.causes("orderRef")), &renamed_to_v2());

    // Without the record, the fit stays one of the causes.
    let diagnosis = why_missing::<v1::RefundRequest>(rejection.presence())
        .payload(mapped)
        .explain();
    assert_eq!(
        diagnosis.causes("orderRef"),
        [
            Cause::AnotherVersion {
                contract: "diag-refund/v2".into(),
                because: "the payload fits its receiver view".into(),
                certainty: Certainty::Established
            },
            renamed_to_v2()
        ]
    );
}

/// A producer whose record names v2 wrote v2's name: that is the other version, not a mapper's
/// rename, so the name is not offered as one.
#[test]
fn a_producer_on_the_version_whose_name_arrived_is_not_a_rename() {
    let sent = send(&v2::RefundRequest {
        category: "damaged".into(),
        order_id: "A-1".into(),
        amount_cents: None,
    })
    .expect("a valid v2");
    let rejection = receive::<v1::RefundRequest>(sent.bytes()).expect_err("orderRef is missing");
    for diagnosis in [
        why_missing::<v1::RefundRequest>(rejection.presence())
            .sender(sent.presence())
            .explain(),
        why_missing::<v1::RefundRequest>(rejection.presence())
            .sender(sent.presence())
            .payload(sent.bytes())
            .explain(),
    ] {
        assert_eq!(
            only(diagnosis.causes("orderRef")),
            &Cause::AnotherVersion {
                contract: "diag-refund/v2".into(),
                because: "the producer's presence record names it".into(),
                certainty: Certainty::Established
            }
        );
    }
}
