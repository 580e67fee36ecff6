//! A field skipped when `None` (`skip_serializing_if = "Option::is_none"` on an `Option`,
//! `send "KEY" if-some` in the canonical text) is, in the sender view, absent or what the
//! `Option` holds, never `null`: in the text format (and a snapshot written before `if-some`
//! existed still reads), the JSON Schema export and import, and the compatibility engine.

use contract_schema::compat::{check, evolve, Mode};
use contract_schema::json_schema::{import, to_json_schema, View};
use contract_schema::model::Emit;
use contract_schema::text::{parse, to_text};
use contract_schema::Schema;
use serde_json::json;

/// A struct `T` with one field `reason` of `ty`, written as `send` says and read as
/// `receive` says.
fn one_field(ty: &str, send: &str, receive: &str) -> Schema {
    parse(&format!(
        "root T\n\nstruct T\n  rust \"app::T\"\n  unknown ignore\n  field reason: {ty}\n    send {send}\n    receive {receive}\n"
    ))
    .unwrap_or_else(|e| panic!("parses: {e}"))
}

fn skipped_when_none() -> Schema {
    one_field(
        "option<string>",
        "\"reason\" if-some",
        "\"reason\" optional",
    )
}

fn rules(report: &contract_schema::compat::CompatReport) -> Vec<&'static str> {
    report.findings().iter().map(|f| f.rule.id()).collect()
}

#[test]
fn if_some_is_read_and_written_back_and_an_older_snapshot_still_reads() {
    let schema = skipped_when_none();
    let field = match &schema.types["T"].body {
        contract_schema::Body::Struct(s) => &s.fields[0],
        _ => panic!("a struct"),
    };
    assert_eq!(field.sender.as_ref().map(|s| s.emit), Some(Emit::IfSome));
    assert!(to_text(&schema).contains("send \"reason\" if-some\n"));
    assert_eq!(parse(&to_text(&schema)).expect("reads back"), schema);
    // A snapshot written before `if-some` existed: the field says `if-present`, as the
    // snapshot said then, and reads as it did (it may be `null`).
    let older = one_field(
        "option<string>",
        "\"reason\" if-present",
        "\"reason\" optional",
    );
    let field = match &older.types["T"].body {
        contract_schema::Body::Struct(s) => &s.fields[0],
        _ => panic!("a struct"),
    };
    assert_eq!(field.sender.as_ref().map(|s| s.emit), Some(Emit::IfPresent));
    assert_eq!(field.sent_type().to_string(), "option<string>");
    // An unknown word names the three.
    let err = parse(
        "root T\n\nstruct T\n  rust \"app::T\"\n  unknown ignore\n  field reason: option<string>\n    send \"reason\" if-null\n    receive \"reason\" optional\n",
    )
    .expect_err("not a word of the format");
    let message = err.to_string();
    assert!(message.contains("if-some"), "{message}");
}

#[test]
fn a_consumer_that_refuses_null_but_allows_absence_is_compatible_one_that_requires_it_is_not() {
    let producer = skipped_when_none();
    // `reason: String` with `#[serde(default)]`: absent allowed, `null` refused.
    let refuses_null = one_field("string", "\"reason\" always", "\"reason\" optional");
    let report = check(&producer, &refuses_null);
    assert!(report.is_compatible(), "{report}");
    assert_eq!(rules(&report), Vec::<&str>::new());
    // `reason: String`: required.
    let requires = one_field("string", "\"reason\" always", "\"reason\" required");
    assert_eq!(
        rules(&check(&producer, &requires)),
        ["REQUIRED_FIELD_MAY_BE_OMITTED"]
    );
    // The same producer as older snapshots described it (`if-present`) may write `null`.
    let older = one_field(
        "option<string>",
        "\"reason\" if-present",
        "\"reason\" optional",
    );
    assert_eq!(rules(&check(&older, &refuses_null)), ["NULL_NOT_ACCEPTED"]);
}

#[test]
fn an_option_skipped_when_none_made_a_string_is_one_finding_not_two() {
    // `reason: Option<String>` skipped when `None`, changed to `reason: String`.
    let old = skipped_when_none();
    let new = one_field("string", "\"reason\" always", "\"reason\" required");
    let report = evolve(&old, &new, Mode::Full);
    assert_eq!(rules(&report), ["FIELD_BECAME_REQUIRED"], "{report}");
}

#[test]
fn the_sender_views_export_is_optional_and_never_null_and_reads_back() {
    let schema = skipped_when_none();
    let sender = to_json_schema(&schema, View::Sender);
    let t = &sender["$defs"]["T"];
    assert_eq!(t["properties"]["reason"]["type"], json!("string"));
    assert!(t
        .get("required")
        .and_then(|r| r.as_array())
        .is_none_or(|r| !r.contains(&json!("reason"))));
    // The receiver view still reads `null`.
    let receiver = to_json_schema(&schema, View::Receiver);
    assert_eq!(
        receiver["$defs"]["T"]["properties"]["reason"]["type"],
        json!(["string", "null"])
    );
    // Read back as a producer's schema, it writes nothing the snapshot or a consumer that
    // refuses `null` refuses.
    let producer = import(&sender, View::Sender).expect("reads").schema;
    assert!(check(&producer, &schema).is_compatible());
    let refuses_null = one_field("string", "\"reason\" always", "\"reason\" optional");
    assert!(check(&producer, &refuses_null).is_compatible());
}
