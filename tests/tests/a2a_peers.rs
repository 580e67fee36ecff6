//! Feature `a2a`: the A2A mapping of handoff contracts checked by independent clients.
//!
//! - **The official Python SDK**, `a2a-sdk` (protocol 1.0), through `interop/py/a2a_sdk.py`:
//!   every Message and Artifact the SDK builds (`new_data_message`, `new_data_artifact`) and
//!   writes (`json_format.MessageToJson`) is read by [`A2a::receive_message`] /
//!   [`A2a::receive_artifact`] with the payload the SDK was given; everything the library
//!   writes parses in the SDK's strict ProtoJSON reading (`json_format.Parse(...,
//!   ignore_unknown_fields=False)`) with the payload in its `data` Part. The SDK holds `data`
//!   as a protobuf `Value`, every number a double: it writes the integer 1250 as `1250.0`, and
//!   an integer beyond 2^53 rounded, which the library must refuse rather than read rounded.
//! - **The Rust crate `a2a-protocol-types`** (serde types of A2A 1.0): what the library writes
//!   deserializes into its `Message` and `Artifact` with the payload in the `data` Part, and
//!   what it serializes from them is read by the library.
//!
//! The SDK runs from the venv `.ci/run` makes with `interop/py/requirements.txt`
//! (`HANDOFF_INTEROP_PYTHON`, else `interop/py/.venv`). Without it, or with a venv that lacks
//! the SDK, each SDK test passes printing `SKIPPED: …`, unless `CI=true`, where that is a
//! failure. No assertion message of this file holds a value of a payload.

#![cfg(feature = "a2a")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use a2a_protocol_types as types;
use contract_core::a2a::{A2a, A2aSent, ArtifactHead, MessageHead, Role, MEDIA_TYPE};
use contract_core::{HandoffContract, HandoffSchema, ReceiveOptions};
use contract_tests::peers::{python, skip, workspace};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The base of the contracts' URIs; `interop/py/a2a_sdk.py` has the same.
const BASE: &str = "https://example.com/contracts/";
/// The `contextId` and `taskId` of every Message, on both sides.
const CONTEXT: &str = "ctx-peer-1";
const TASK: &str = "task-peer-1";

// The contracts of the payloads, as a Rust agent reads and writes them.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-refund", version = 2)]
#[serde(rename_all = "camelCase")]
struct RefundRequest {
    order_id: String,
    amount_cents: u32,
    reason: Reason,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "lowercase")]
enum Reason {
    Damaged,
    Late,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-quantities", version = 1)]
#[serde(rename_all = "camelCase")]
struct Quantities {
    order_id: String,
    lines: Vec<QuantityLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct QuantityLine {
    sku: String,
    quantity: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-customer", version = 1)]
struct CustomerUpdate {
    customer: Customer,
    tags: Vec<String>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct Customer {
    id: u32,
    address: Address,
    tier: i8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct Address {
    city: String,
    postcode: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-rate", version = 1)]
#[serde(rename_all = "camelCase")]
struct ExchangeRate {
    currency: String,
    rate: f64,
    spread: f64,
    basis_points: u16,
    ceiling: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-refund-result", version = 1)]
#[serde(rename_all = "camelCase")]
struct RefundResult {
    refund_id: String,
    approved_cents: u32,
    status: Status,
    refunded_lines: Vec<RefundedLine>,
    ratio: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Approved,
    Partial,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
struct RefundedLine {
    sku: String,
    quantity: u16,
    cents: i32,
}

/// A ledger entry: its id a `u64`, which a double cannot always hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "a2a-peer-ledger", version = 1)]
#[serde(rename_all = "camelCase")]
struct Ledger {
    entry_id: u64,
    count: u32,
}

// The payloads `a2a_sdk.py write` gives the SDK, as the Rust side expects to read them.

fn refund() -> RefundRequest {
    RefundRequest {
        order_id: "A-1042".into(),
        amount_cents: 1250,
        reason: Reason::Damaged,
    }
}

fn quantities() -> Quantities {
    Quantities {
        order_id: "A-1042".into(),
        lines: [("SKU-1", 3), ("SKU-2", 1000), ("SKU-3", 1)]
            .into_iter()
            .map(|(sku, quantity)| QuantityLine {
                sku: sku.into(),
                quantity,
            })
            .collect(),
    }
}

fn customer() -> CustomerUpdate {
    CustomerUpdate {
        customer: Customer {
            id: u32::MAX,
            address: Address {
                city: "Lyon".into(),
                postcode: "69001".into(),
            },
            tier: -2,
        },
        tags: vec!["vip".into(), "eu".into()],
        note: None,
    }
}

fn rate() -> ExchangeRate {
    ExchangeRate {
        currency: "EUR".into(),
        rate: 0.15,
        spread: 2.0,
        basis_points: 15,
        ceiling: (1 << 53) - 1,
    }
}

fn result() -> RefundResult {
    RefundResult {
        refund_id: "RF-77".into(),
        approved_cents: 1250,
        status: Status::Approved,
        refunded_lines: vec![
            RefundedLine {
                sku: "SKU-1".into(),
                quantity: 3,
                cents: 750,
            },
            RefundedLine {
                sku: "SKU-9".into(),
                quantity: 1,
                cents: -250,
            },
        ],
        ratio: 0.6,
    }
}

fn result_proto_names() -> RefundResult {
    RefundResult {
        refund_id: "RF-78".into(),
        approved_cents: 99,
        status: Status::Partial,
        refunded_lines: Vec::new(),
        ratio: 1.0,
    }
}

fn a2a() -> A2a {
    A2a::new(BASE)
}

fn options() -> ReceiveOptions {
    ReceiveOptions::default()
}

/// A serde_json error without the input's text: its category and place.
fn json_error(e: &serde_json::Error) -> String {
    format!(
        "{:?} at line {} column {}",
        e.classify(),
        e.line(),
        e.column()
    )
}

// The SDK's side.

/// One object `a2a_sdk.py write` printed: its case, `message` or `artifact`, and the text
/// `MessageToJson` wrote.
#[derive(Debug, Deserialize)]
struct SdkWritten {
    case: String,
    object: String,
    json: String,
}

/// The venv's Python, when it has the SDK; else `None` after a loud skip (a failure under
/// `CI=true`).
fn sdk_python() -> Option<PathBuf> {
    static READY: OnceLock<Option<PathBuf>> = OnceLock::new();
    let ready = READY.get_or_init(|| {
        let python = python()?;
        let imports = Command::new(&python)
            .args([
                "-c",
                "import a2a.helpers, a2a.types, google.protobuf.json_format",
            ])
            .output()
            .is_ok_and(|o| o.status.success());
        imports.then_some(python)
    });
    if ready.is_none() {
        skip("the A2A SDK peer: need the Python venv with a2a-sdk (HANDOFF_INTEROP_PYTHON, or interop/py/.venv with interop/py/requirements.txt)");
    }
    ready.clone()
}

/// Runs `a2a_sdk.py` with `args`, `input` on its standard input; its standard output.
fn run_sdk(python: &Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new(python)
        .arg(workspace().join("interop/py/a2a_sdk.py"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("a2a_sdk.py {args:?} could not start: {e}"));
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("a2a_sdk.py reads its input");
    let out = child.wait_with_output().expect("a2a_sdk.py ran");
    assert!(
        out.status.success(),
        "a2a_sdk.py {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("a2a_sdk.py writes UTF-8")
}

/// What the SDK wrote, once for every test: `None` (after a loud skip) without the SDK.
fn sdk_written() -> Option<&'static [SdkWritten]> {
    static WRITTEN: OnceLock<Vec<SdkWritten>> = OnceLock::new();
    let python = sdk_python()?;
    let written = WRITTEN.get_or_init(|| {
        run_sdk(&python, &["write"], "")
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| {
                    panic!(
                        "a2a_sdk.py write printed a line that is not its record: {}",
                        json_error(&e)
                    )
                })
            })
            .collect()
    });
    Some(written)
}

/// The SDK's object of `case`: (its text, the document parsed, for its own members).
fn sdk_case(written: &'static [SdkWritten], case: &str, object: &str) -> (&'static str, Value) {
    let found = written
        .iter()
        .find(|w| w.case == case)
        .unwrap_or_else(|| panic!("a2a_sdk.py wrote no case {case}"));
    assert_eq!(found.object, object, "case {case}: the kind of object");
    let text = found.json.as_str();
    let doc: Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("case {case}: the SDK wrote no JSON: {}", json_error(&e)));
    (text, doc)
}

/// A member of the SDK's document under its lowerCamelCase name or its proto name.
fn member<'a>(doc: &'a Value, camel: &str, proto: &str) -> &'a Value {
    doc.get(camel)
        .or_else(|| doc.get(proto))
        .unwrap_or(&Value::Null)
}

/// The SDK's document lists exactly `T`'s URI: the two sides agree on the extension.
fn lists_the_uri_of<T: HandoffContract + ?Sized>(doc: &Value, case: &str) {
    assert_eq!(
        doc["extensions"],
        serde_json::json!([a2a().uri::<T>()]),
        "case {case}: the SDK's extensions are not the URI of the contract"
    );
}

/// The SDK's Message of `case`, read by the library as a `T`: its payload is `expected`, its
/// head the SDK's, and no sender presence (the SDK writes none).
fn sdk_message_is_read<T>(case: &str, role: Role, expected: &T)
where
    T: DeserializeOwned + HandoffContract + PartialEq + 'static,
{
    let Some(written) = sdk_written() else {
        return;
    };
    let (text, doc) = sdk_case(written, case, "message");
    lists_the_uri_of::<T>(&doc, case);
    let received = a2a()
        .receive_message::<T>(text.as_bytes(), &options())
        .unwrap_or_else(|e| panic!("case {case}: the library refused the SDK's Message:\n{e}"));
    assert!(
        received.payload() == expected,
        "case {case}: the payload read is not the one the SDK was given"
    );
    let id = member(&doc, "messageId", "message_id")
        .as_str()
        .expect("the SDK writes a messageId");
    assert_eq!(
        received.head(),
        &MessageHead::new(id, role).context(CONTEXT).task(TASK),
        "case {case}: the Message's own fields"
    );
    assert!(
        received.sender_presence().is_none(),
        "case {case}: a sender presence, where the SDK wrote none"
    );
}

/// The SDK's Artifact of `case`, read by the library as a `T`.
fn sdk_artifact_is_read<T>(case: &str, artifact_id: &str, expected: &T)
where
    T: DeserializeOwned + HandoffContract + PartialEq + 'static,
{
    let Some(written) = sdk_written() else {
        return;
    };
    let (text, doc) = sdk_case(written, case, "artifact");
    lists_the_uri_of::<T>(&doc, case);
    let received = a2a()
        .receive_artifact::<T>(text.as_bytes(), &options())
        .unwrap_or_else(|e| panic!("case {case}: the library refused the SDK's Artifact:\n{e}"));
    assert!(
        received.payload() == expected,
        "case {case}: the payload read is not the one the SDK was given"
    );
    assert_eq!(
        received.head(),
        &ArtifactHead::new(artifact_id)
            .name("refund result")
            .description("the refund as made"),
        "case {case}: the Artifact's own fields"
    );
}

#[test]
fn an_sdk_message_with_a_whole_number_double_for_a_u32_is_read_as_that_integer() {
    sdk_message_is_read("refund", Role::User, &refund());
}

#[test]
fn an_sdk_message_without_a_media_type_is_read_with_its_list_of_objects() {
    sdk_message_is_read("quantities", Role::Agent, &quantities());
}

#[test]
fn an_sdk_message_with_nested_objects_a_negative_integer_and_a_null_is_read() {
    sdk_message_is_read("customer", Role::Agent, &customer());
}

#[test]
fn an_sdk_message_with_floats_and_the_largest_integer_a_double_holds_exactly_is_read() {
    sdk_message_is_read("rate", Role::Agent, &rate());
}

#[test]
fn an_sdk_artifact_result_is_read_with_its_lines_name_and_description() {
    sdk_artifact_is_read("result", "art-peer-1", &result());
}

/// ProtoJSON's other spelling (`preserving_proto_field_name=True`): `message_id`,
/// `context_id`, `task_id`, `artifact_id`, `media_type`.
#[test]
fn sdk_objects_written_with_proto_field_names_are_read() {
    sdk_message_is_read("refund-proto-names", Role::User, &refund());
    sdk_artifact_is_read("result-proto-names", "art-peer-2", &result_proto_names());
}

/// The SDK writes 2^53 + 1 as the double 2^53 (`9007199254740992.0`): the integer the writer
/// meant cannot be known, so the payload is refused at the field, naming no value, and
/// never read as 2^53.
#[test]
fn an_integer_beyond_2_53_that_the_sdk_rounded_is_refused_at_its_field_without_its_value() {
    let Some(written) = sdk_written() else {
        return;
    };
    let (text, doc) = sdk_case(written, "beyond-2^53", "message");
    lists_the_uri_of::<Ledger>(&doc, "beyond-2^53");
    assert!(
        text.contains("9007199254740992.0"),
        "the SDK no longer writes 2^53 + 1 as the double 2^53: this case tests nothing"
    );
    let Err(err) = a2a().receive_message::<Ledger>(text.as_bytes(), &options()) else {
        panic!("the library read the rounded integer as if the SDK's writer had sent it");
    };
    let pointers: Vec<&str> = err.problems().iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        ["/parts/0/data/entryId"],
        "one problem, at the rounded field:\n{err}"
    );
    for shown in [
        err.to_string(),
        format!("{err:?}"),
        serde_json::to_string(&err).expect("a rejection serializes"),
    ] {
        assert!(
            !shown.contains("900719925474099"),
            "the rejection shows the field's value"
        );
    }
    let presence = err.presence().expect("the payload was read");
    assert!(
        presence.received().iter().any(|f| *f == "entryId"),
        "the refused field is recorded as received"
    );
}

/// What the SDK's strict reading says of each document: `ok`, and what it read.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SdkRead {
    ok: bool,
    #[serde(default)]
    error: String,
    #[serde(default)]
    message_id: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    context_id: String,
    #[serde(default)]
    task_id: String,
    #[serde(default)]
    artifact_id: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    metadata: Value,
    #[serde(default)]
    parts: Vec<SdkPart>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SdkPart {
    content: String,
    #[serde(default)]
    data: Value,
    #[serde(default)]
    media_type: String,
}

/// The SDK's strict reading of each document: Messages on its standard input, one a line;
/// Artifacts from files, one a file.
fn sdk_reads(python: &Path, object: &str, documents: &[Vec<u8>]) -> Vec<SdkRead> {
    let out = if object == "message" {
        let mut lines = String::new();
        for doc in documents {
            lines.push_str(std::str::from_utf8(doc).expect("JSON is UTF-8"));
            lines.push('\n');
        }
        run_sdk(python, &["read", "message"], &lines)
    } else {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("a2a_peers");
        std::fs::create_dir_all(&dir).expect("a folder for the documents");
        let files: Vec<String> = documents
            .iter()
            .enumerate()
            .map(|(i, doc)| {
                let path = dir.join(format!("{object}-{}-{i}.json", std::process::id()));
                std::fs::write(&path, doc).expect("the document written");
                path.to_str().expect("a UTF-8 path").to_owned()
            })
            .collect();
        let mut args = vec!["read", object];
        args.extend(files.iter().map(String::as_str));
        let out = run_sdk(python, &args, "");
        for file in &files {
            let _ = std::fs::remove_file(file);
        }
        out
    };
    let verdicts: Vec<SdkRead> = out
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| {
                panic!(
                    "a2a_sdk.py read printed a line that is not its record: {}",
                    json_error(&e)
                )
            })
        })
        .collect();
    assert_eq!(verdicts.len(), documents.len(), "one verdict per document");
    verdicts
}

/// `a` and `b` the same JSON, numbers compared as the doubles a protobuf `Value` holds.
fn same_as_doubles(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_as_doubles(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_as_doubles(v, w)))
        }
        _ => a == b,
    }
}

/// One object the library wrote: what it is, its URI, its bytes, the payload as JSON.
struct LibraryWrote {
    label: String,
    uri: String,
    sent: A2aSent,
    payload: Value,
}

fn library_message<T>(label: &str, value: &T) -> LibraryWrote
where
    T: Serialize + HandoffContract + 'static,
{
    let head = MessageHead::new(format!("m-{label}"), Role::Agent)
        .context(CONTEXT)
        .task(TASK);
    LibraryWrote {
        label: label.to_owned(),
        uri: a2a().uri::<T>(),
        sent: a2a()
            .message(&head, value)
            .unwrap_or_else(|e| panic!("{label}: the library refused to write it:\n{e}")),
        payload: serde_json::to_value(value).expect("the payload serializes"),
    }
}

fn library_artifact<T>(label: &str, value: &T) -> LibraryWrote
where
    T: Serialize + HandoffContract + 'static,
{
    let head = ArtifactHead::new(format!("a-{label}"))
        .name(label)
        .description("written by the library");
    LibraryWrote {
        label: label.to_owned(),
        uri: a2a().uri::<T>(),
        sent: a2a()
            .artifact(&head, value)
            .unwrap_or_else(|e| panic!("{label}: the library refused to write it:\n{e}")),
        payload: serde_json::to_value(value).expect("the payload serializes"),
    }
}

/// Every contract's payloads, with an optional field both absent and present.
fn library_messages() -> Vec<LibraryWrote> {
    let noted = CustomerUpdate {
        note: Some("call before noon".into()),
        ..customer()
    };
    vec![
        library_message("refund", &refund()),
        library_message("quantities", &quantities()),
        library_message("customer", &customer()),
        library_message("customer-noted", &noted),
        library_message("rate", &rate()),
        library_message("result", &result()),
        library_message(
            "ledger",
            &Ledger {
                entry_id: 42,
                count: 2,
            },
        ),
    ]
}

fn library_artifacts() -> Vec<LibraryWrote> {
    vec![
        library_artifact("result", &result()),
        library_artifact("result-empty", &result_proto_names()),
        library_artifact("refund", &refund()),
        library_artifact("quantities", &quantities()),
    ]
}

/// What the SDK read of `wrote` is what the library wrote: its extension, its presence under
/// `metadata[<uri>]`, one `data` Part of `application/json` holding the payload.
fn sdk_read_the_payload(wrote: &LibraryWrote, read: &SdkRead, object: &str) {
    let label = &wrote.label;
    assert!(
        read.ok,
        "{object} {label}: the SDK's strict reading refused it: {}",
        read.error
    );
    assert_eq!(read.extensions, [wrote.uri.as_str()], "{object} {label}");
    let presence = serde_json::to_value(wrote.sent.presence()).expect("a presence serializes");
    assert!(
        same_as_doubles(&read.metadata[&wrote.uri], &presence),
        "{object} {label}: the SDK's metadata[<uri>] is not the presence written"
    );
    assert_eq!(read.parts.len(), 1, "{object} {label}: one Part");
    let part = &read.parts[0];
    assert_eq!(part.content, "data", "{object} {label}: a data Part");
    assert_eq!(part.media_type, MEDIA_TYPE, "{object} {label}");
    assert!(
        same_as_doubles(&part.data, &wrote.payload),
        "{object} {label}: the SDK's data is not the payload written"
    );
}

#[test]
fn every_message_and_artifact_the_library_writes_parses_in_the_sdks_strict_reading() {
    let Some(python) = sdk_python() else {
        return;
    };
    let messages = library_messages();
    let bytes: Vec<Vec<u8>> = messages.iter().map(|w| w.sent.bytes().to_vec()).collect();
    for (wrote, read) in messages.iter().zip(sdk_reads(&python, "message", &bytes)) {
        sdk_read_the_payload(wrote, &read, "Message");
        let label = &wrote.label;
        assert_eq!(read.message_id, format!("m-{label}"), "Message {label}");
        assert_eq!(read.role, "ROLE_AGENT", "Message {label}");
        assert_eq!(read.context_id, CONTEXT, "Message {label}");
        assert_eq!(read.task_id, TASK, "Message {label}");
    }
    let artifacts = library_artifacts();
    let bytes: Vec<Vec<u8>> = artifacts.iter().map(|w| w.sent.bytes().to_vec()).collect();
    for (wrote, read) in artifacts.iter().zip(sdk_reads(&python, "artifact", &bytes)) {
        sdk_read_the_payload(wrote, &read, "Artifact");
        let label = &wrote.label;
        assert_eq!(read.artifact_id, format!("a-{label}"), "Artifact {label}");
        assert_eq!(read.name, *label, "Artifact {label}");
        assert_eq!(
            read.description, "written by the library",
            "Artifact {label}"
        );
    }
}

/// The reading above is strict: a member A2A 1.0 does not define (0.3's `kind`), or 0.3's
/// `role: "agent"`, added to what the library writes, is refused by the SDK.
#[test]
fn the_sdks_strict_reading_refuses_an_unknown_member_and_an_a2a_0_3_role() {
    let Some(python) = sdk_python() else {
        return;
    };
    let wrote = library_message("refund", &refund());
    let doc: Value = serde_json::from_slice(wrote.sent.bytes()).expect("the library writes JSON");
    let mut with_kind = doc.clone();
    with_kind["kind"] = "message".into();
    let mut old_role = doc.clone();
    old_role["role"] = "agent".into();
    let documents: Vec<Vec<u8>> = [&doc, &with_kind, &old_role]
        .iter()
        .map(|d| serde_json::to_vec(d).expect("JSON"))
        .collect();
    let read = sdk_reads(&python, "message", &documents);
    assert!(
        read[0].ok,
        "the SDK refused the library's Message: {}",
        read[0].error
    );
    assert!(!read[1].ok, "the SDK read a Message with an unknown member");
    assert!(
        read[1].error.contains("kind"),
        "the SDK's refusal names another member: {}",
        read[1].error
    );
    assert!(!read[2].ok, "the SDK read a Message with A2A 0.3's role");
}

/// The library's warning holds for a real peer: an integer it lists in `inexact_integers`
/// (a `u64`), written as 2^53 + 1, is read by the SDK as the double 2^53.
#[test]
fn an_integer_the_library_warns_of_is_read_rounded_by_the_sdk() {
    let Some(python) = sdk_python() else {
        return;
    };
    const BEYOND: u64 = (1 << 53) + 1;
    let wrote = library_message(
        "ledger-beyond",
        &Ledger {
            entry_id: BEYOND,
            count: 2,
        },
    );
    assert_eq!(
        wrote.sent.inexact_integers(),
        ["entryId"],
        "the library's warning names the u64 field"
    );
    let read = sdk_reads(&python, "message", &[wrote.sent.bytes().to_vec()]);
    assert!(read[0].ok, "the SDK refused the Message: {}", read[0].error);
    let entry = &read[0].parts[0].data["entryId"];
    assert!(
        entry.as_u64() != Some(BEYOND) && entry.as_f64() == Some((1u64 << 53) as f64),
        "the SDK no longer reads a u64 beyond 2^53 as the nearest double"
    );
}

// a2a-protocol-types.

/// The library's Message and Artifact of `value`, deserialized into `a2a-protocol-types`:
/// their own fields, the extension, the presence key, and one `data` Part holding the
/// payload exactly (integers as integers).
fn read_by_the_rust_types<T>(label: &str, value: &T)
where
    T: Serialize + HandoffContract + 'static,
{
    let wrote = library_message(label, value);
    let message: types::Message = serde_json::from_slice(wrote.sent.bytes()).unwrap_or_else(|e| {
        panic!(
            "{label}: a2a-protocol-types refused the library's Message: {}",
            json_error(&e)
        )
    });
    assert_eq!(message.id.0, format!("m-{label}"), "{label}");
    assert_eq!(message.role, types::MessageRole::Agent, "{label}");
    assert_eq!(
        message.context_id.map(|c| c.0).as_deref(),
        Some(CONTEXT),
        "{label}"
    );
    assert_eq!(
        message.task_id.map(|t| t.0).as_deref(),
        Some(TASK),
        "{label}"
    );
    assert_eq!(message.extensions, Some(vec![wrote.uri.clone()]), "{label}");
    holds_the_payload(label, &wrote, message.metadata.as_ref(), &message.parts);

    let wrote = library_artifact(label, value);
    let artifact: types::Artifact =
        serde_json::from_slice(wrote.sent.bytes()).unwrap_or_else(|e| {
            panic!(
                "{label}: a2a-protocol-types refused the library's Artifact: {}",
                json_error(&e)
            )
        });
    assert_eq!(artifact.id.0, format!("a-{label}"), "{label}");
    assert_eq!(artifact.name.as_deref(), Some(label), "{label}");
    assert_eq!(
        artifact.description.as_deref(),
        Some("written by the library"),
        "{label}"
    );
    assert_eq!(
        artifact.extensions,
        Some(vec![wrote.uri.clone()]),
        "{label}"
    );
    holds_the_payload(label, &wrote, artifact.metadata.as_ref(), &artifact.parts);
}

fn holds_the_payload(
    label: &str,
    wrote: &LibraryWrote,
    metadata: Option<&Value>,
    parts: &[types::Part],
) {
    let presence = serde_json::to_value(wrote.sent.presence()).expect("a presence serializes");
    assert!(
        metadata.and_then(|m| m.get(&wrote.uri)) == Some(&presence),
        "{label}: metadata[<uri>] is not the presence written"
    );
    assert_eq!(parts.len(), 1, "{label}: one Part");
    assert_eq!(parts[0].media_type.as_deref(), Some(MEDIA_TYPE), "{label}");
    match &parts[0].content {
        types::PartContent::Data(data) => assert!(
            *data == wrote.payload,
            "{label}: the data Part is not the payload written"
        ),
        _ => panic!("{label}: the Part is not a data Part"),
    }
}

#[test]
fn what_the_library_writes_deserializes_into_a2a_protocol_types_with_the_payload_as_data() {
    read_by_the_rust_types("refund", &refund());
    read_by_the_rust_types("quantities", &quantities());
    read_by_the_rust_types("customer", &customer());
    read_by_the_rust_types("rate", &rate());
    read_by_the_rust_types("result", &result());
    read_by_the_rust_types(
        "ledger-beyond",
        &Ledger {
            entry_id: u64::MAX,
            count: 2,
        },
    );
}

/// A Message and an Artifact built with `a2a-protocol-types` (a data Part, with and without
/// its media type; the contract's URI in `extensions`), serialized by serde, read by the
/// library.
fn built_with_the_rust_types_is_read<T>(label: &str, value: &T)
where
    T: Serialize + DeserializeOwned + HandoffContract + PartialEq + 'static,
{
    let data = serde_json::to_value(value).expect("the payload serializes");
    for part in [
        types::Part::data(data.clone()).with_media_type(MEDIA_TYPE),
        types::Part::data(data),
    ] {
        let typed = part.media_type.is_some();
        let message = types::Message::user(format!("m-{label}"), vec![part.clone()])
            .with_context_id(CONTEXT)
            .with_task_id(TASK)
            .with_extensions([a2a().uri::<T>()]);
        let bytes = serde_json::to_vec(&message).expect("a Message serializes");
        let received = a2a()
            .receive_message::<T>(&bytes, &options())
            .unwrap_or_else(|e| panic!("{label} (media type {typed}): Message refused:\n{e}"));
        assert!(
            received.payload() == value,
            "{label}: the payload read is not the one a2a-protocol-types wrote"
        );
        assert_eq!(
            received.head(),
            &MessageHead::new(format!("m-{label}"), Role::User)
                .context(CONTEXT)
                .task(TASK),
            "{label}"
        );

        let mut artifact = types::Artifact::new(format!("a-{label}"), vec![part]);
        artifact.name = Some(label.to_owned());
        artifact.extensions = Some(vec![a2a().uri::<T>()]);
        let bytes = serde_json::to_vec(&artifact).expect("an Artifact serializes");
        let received = a2a()
            .receive_artifact::<T>(&bytes, &options())
            .unwrap_or_else(|e| panic!("{label} (media type {typed}): Artifact refused:\n{e}"));
        assert!(
            received.payload() == value,
            "{label}: the payload read is not the one a2a-protocol-types wrote"
        );
        assert_eq!(
            received.head(),
            &ArtifactHead::new(format!("a-{label}")).name(label),
            "{label}"
        );
    }
}

#[test]
fn a_message_and_an_artifact_built_with_a2a_protocol_types_are_read_by_the_library() {
    built_with_the_rust_types_is_read("refund", &refund());
    built_with_the_rust_types_is_read("quantities", &quantities());
    built_with_the_rust_types_is_read("customer", &customer());
    built_with_the_rust_types_is_read("rate", &rate());
    built_with_the_rust_types_is_read("result", &result());
    built_with_the_rust_types_is_read(
        "ledger",
        &Ledger {
            entry_id: u64::MAX,
            count: 2,
        },
    );
}
