//! Real peers in other languages against a Rust contract: pydantic 2 models
//! (`interop/py/peers.py`) and zod schemas (`interop/js/peers.mjs`: zod 4, and zod 3 through
//! zod-to-json-schema) of a refund request with an optional field, an alias, a string enum, a
//! tagged union and a nested list.
//!
//! Each case takes the peer's JSON Schema for its role, imports it
//! (`json_schema::import`, a producer's in the sender view, a consumer's in the receiver view),
//! judges it against the Rust contract with `compat::check`, and compares the breaking rule ids
//! with the expected ones. The verdict is then tested against the peer's own code:
//!
//! - **compatible**: every instance the peer writes (built, validated and written by the peer)
//!   passes `receive`, or every instance serde writes passes the peer's `model_validate_json` /
//!   `parse`;
//! - **breaking**: the case names a witness per finding, an instance one side writes and the
//!   other refuses (`receive` the peer's, or the peer the Rust producer's).
//!
//! A breaking case's fix hint, said in the peer's terms (`compat::check_peer`), is then applied
//! by the peer's own code as written (`MODEL?KEY=CODE`): the peer's schema exported again has
//! no finding, and the peer's code agrees (a pydantic and a zod producer of a plain integer,
//! a pydantic and a zod consumer that requires a field the Rust producer may leave out).
//!
//! The peers run from the packages `.ci/run` installs (`npm ci --prefix interop/js`; a venv
//! with `interop/py/requirements.txt`, whose `python` `HANDOFF_INTEROP_PYTHON` names, else
//! `interop/py/.venv`). Without them each test passes printing `SKIPPED: …`, unless `CI=true`,
//! where that is a failure.

use std::io::Write;
use std::process::{Command, Stdio};

use contract_core::compat::{Peer as HintTerms, PeerSides};
use contract_core::schema::json_schema::import;
use contract_core::schema::shape::{ConstraintShape, IntKind, IntRange, IntValue, Kind};
use contract_core::{compat, receive, send, HandoffSchema, Schema, Shape, View};
use contract_tests::peers::{node_ready, python, skip, workspace};
use serde::{Deserialize, Serialize};

/// The Rust side of every case: what a Rust agent writes and reads.
#[derive(Debug, Clone, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Refund {
    order_id: String,
    amount_cents: u32,
    reason: Reason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    lines: Vec<Line>,
    method: Method,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "lowercase")]
enum Reason {
    Damaged,
    Late,
    Other,
}

#[derive(Debug, Clone, Serialize, Deserialize, HandoffSchema)]
struct Line {
    sku: String,
    quantity: Quantity,
}

/// A quantity of 1 to 1,000, as the peers declare it: a validated newtype whose schema says
/// its range (serde reads a `u16`, then refuses what is out of range).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Method {
    Card { last4: String },
    Voucher { code: String },
}

/// What the Rust producer writes in the consumer cases: every reason and method, with and
/// without a note, empty and full lists, the largest amount and quantity.
fn rust_samples() -> Vec<Refund> {
    let reasons = [Reason::Damaged, Reason::Late, Reason::Other];
    reasons
        .iter()
        .enumerate()
        .map(|(i, &reason)| Refund {
            order_id: format!("R-{i}"),
            amount_cents: if i == 2 { u32::MAX } else { 150 * i as u32 },
            reason,
            note: (i % 2 == 1).then(|| "handed to billing".to_owned()),
            lines: (0..i)
                .map(|n| Line {
                    sku: format!("SKU-{n}"),
                    quantity: Quantity(if n == 1 { 1000 } else { 1 }),
                })
                .collect(),
            method: if i % 2 == 0 {
                Method::Card {
                    last4: "0005".into(),
                }
            } else {
                Method::Voucher { code: "V-9".into() }
            },
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Peer {
    Pydantic,
    Zod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The peer writes, the Rust contract reads: `check(peer, rust)`.
    Producer,
    /// The Rust contract writes, the peer reads: `check(rust, peer)`.
    Consumer,
}

impl Role {
    fn arg(self) -> &'static str {
        match self {
            Role::Producer => "producer",
            Role::Consumer => "consumer",
        }
    }

    fn view(self) -> View {
        match self {
            Role::Producer => View::Sender,
            Role::Consumer => View::Receiver,
        }
    }
}

/// The command that runs a peer's script, or `None` (after a loud skip) when the peer's
/// packages are not installed here; under `CI=true` a missing peer fails the test.
fn peer_command(peer: Peer) -> Option<Command> {
    match peer {
        Peer::Pydantic => {
            let Some(python) = python() else {
                skip("the pydantic peer: need the Python venv (HANDOFF_INTEROP_PYTHON, or interop/py/.venv with interop/py/requirements.txt)");
                return None;
            };
            let mut cmd = Command::new(python);
            cmd.arg(workspace().join("interop/py/peers.py"));
            Some(cmd)
        }
        Peer::Zod => {
            if !node_ready() {
                skip("the zod peer: need node/npm deps (npm ci --prefix interop/js)");
                return None;
            }
            let mut cmd = Command::new("node");
            cmd.arg(workspace().join("interop/js/peers.mjs"));
            Some(cmd)
        }
    }
}

/// Runs the peer's script with `args`, `input` on its standard input; its standard output.
fn run(peer: Peer, args: &[&str], input: &str) -> Option<String> {
    let mut cmd = peer_command(peer)?;
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{peer:?} peer {args:?} could not start: {e}"));
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("the peer reads its input");
    let out = child.wait_with_output().expect("the peer ran");
    assert!(
        out.status.success(),
        "{peer:?} peer {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("the peer writes UTF-8"))
}

/// The peer's JSON Schema document for `role`.
fn peer_doc(peer: Peer, model: &str, role: Role) -> Option<serde_json::Value> {
    let text = run(peer, &["schema", model, role.arg()], "")?;
    Some(serde_json::from_str(&text).expect("the peer writes JSON"))
}

/// The peer's schema for `role`, imported in that role's view.
fn peer_schema(peer: Peer, model: &str, role: Role) -> Option<Schema> {
    let doc = peer_doc(peer, model, role)?;
    let imported = import(&doc, role.view())
        .unwrap_or_else(|e| panic!("{peer:?} {model} {role:?}: the import refused it: {e}"));
    for warning in &imported.warnings {
        eprintln!("{peer:?} {model} {role:?}: warning: {warning}");
    }
    Some(imported.schema)
}

/// The breaking rule ids of the peer's schema against the Rust contract, in the case's
/// direction, with the findings for the failure message.
fn verdict(peer_schema: &Schema, role: Role) -> (Vec<&'static str>, String) {
    let rust = Refund::schema();
    let report = match role {
        Role::Producer => compat::check(peer_schema, &rust),
        Role::Consumer => compat::check(&rust, peer_schema),
    };
    let mut rules: Vec<&'static str> = report.breaking().map(|f| f.rule.id()).collect();
    rules.sort_unstable();
    rules.dedup();
    let text = report
        .findings()
        .iter()
        .map(|f| format!("{} {}: {}", f.rule.id(), f.display_path(), f.why))
        .collect::<Vec<_>>()
        .join("\n");
    (rules, text)
}

/// The instances the peer writes, each checked by `receive`: (the JSON line, accepted).
fn peer_writes_received(peer: Peer, model: &str) -> Option<Vec<(String, Result<(), String>)>> {
    let written = run(peer, &["write", model], "")?;
    Some(
        written
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let verdict = receive::<Refund>(line.as_bytes())
                    .map(|_| ())
                    .map_err(|r| r.to_string());
                (line.to_owned(), verdict)
            })
            .collect(),
    )
}

/// What the Rust producer writes, each judged by the peer: (the JSON line, the peer's "ok").
fn rust_writes_read_by(peer: Peer, model: &str) -> Option<Vec<(String, bool)>> {
    let lines: Vec<String> = rust_samples()
        .iter()
        .map(|v| {
            let sent = send(v).expect("the sample is valid");
            String::from_utf8(sent.bytes().to_vec()).expect("JSON is UTF-8")
        })
        .collect();
    let verdicts = run(peer, &["read", model], &(lines.join("\n") + "\n"))?;
    let verdicts: Vec<bool> = verdicts.lines().map(|l| l == "ok").collect();
    assert_eq!(verdicts.len(), lines.len(), "one verdict per instance");
    Some(lines.into_iter().zip(verdicts).collect())
}

/// A compatible case: the import and check find nothing breaking, and the peer's code agrees.
fn compatible(peer: Peer, model: &str, role: Role) {
    let Some(schema) = peer_schema(peer, model, role) else {
        return;
    };
    let (rules, findings) = verdict(&schema, role);
    assert!(
        rules.is_empty(),
        "{peer:?} {model} as {role:?}: expected compatible, found {rules:?}\n{findings}"
    );
    match role {
        Role::Producer => {
            let received = peer_writes_received(peer, model).expect("the peer ran above");
            assert!(!received.is_empty(), "the peer wrote instances");
            for (line, verdict) in received {
                assert!(
                    verdict.is_ok(),
                    "compatible, yet receive refused what the {peer:?} peer wrote: {line}\n{verdict:?}"
                );
            }
        }
        Role::Consumer => {
            for (line, ok) in rust_writes_read_by(peer, model).expect("the peer ran above") {
                assert!(
                    ok,
                    "compatible, yet the {peer:?} peer refused what serde wrote: {line}"
                );
            }
        }
    }
}

/// A witness of a finding: what it is, and which written instances show it (by their JSON
/// line).
struct Witness {
    what: &'static str,
    shows: fn(&str) -> bool,
}

/// A breaking case: exactly `expected` rule ids, and a witness: the reading side refuses every
/// written instance that shows it (at least one does), and reads every other one, so the
/// finding is the only break.
fn breaking(peer: Peer, model: &str, role: Role, expected: &[&str], witness: &Witness) {
    let Witness { what, shows } = witness;
    let Some(schema) = peer_schema(peer, model, role) else {
        return;
    };
    let (rules, findings) = verdict(&schema, role);
    assert_eq!(
        rules, expected,
        "{peer:?} {model} as {role:?}: the breaking rule ids\n{findings}"
    );
    match role {
        Role::Producer => {
            let received = peer_writes_received(peer, model).expect("the peer ran above");
            assert!(
                received.iter().any(|(line, _)| shows(line)),
                "the {peer:?} peer wrote no instance {what}"
            );
            for (line, verdict) in &received {
                if shows(line) {
                    assert!(
                        verdict.is_err(),
                        "breaking ({expected:?}), yet receive accepted the witness ({what}) {line}"
                    );
                } else {
                    assert!(verdict.is_ok(), "receive refused {line}: {verdict:?}");
                }
            }
        }
        Role::Consumer => {
            let read = rust_writes_read_by(peer, model).expect("the peer ran above");
            assert!(
                read.iter().any(|(line, _)| shows(line)),
                "serde wrote no instance {what}"
            );
            for (line, ok) in &read {
                if shows(line) {
                    assert!(
                        !ok,
                        "breaking ({expected:?}), yet the {peer:?} peer accepted the witness ({what}) {line}"
                    );
                } else {
                    assert!(ok, "the {peer:?} peer refused {line}");
                }
            }
        }
    }
}

#[test]
fn pydantic_producer_agreed() {
    compatible(Peer::Pydantic, "refund", Role::Producer);
}

/// pydantic's `note: Optional[str] = None`: absent, `null` or a string, read from a Rust
/// producer that skips `note` when `None`.
#[test]
fn pydantic_consumer_agreed() {
    compatible(Peer::Pydantic, "refund", Role::Consumer);
}

/// pydantic's `note: Optional[str]` without a default is required (it may be null); the Rust
/// producer leaves `note` out when it is `None`. Witness: a sample without a note.
#[test]
fn pydantic_consumer_requiring_note_breaks() {
    breaking(
        Peer::Pydantic,
        "refund-note-required",
        Role::Consumer,
        &["REQUIRED_FIELD_MAY_BE_OMITTED"],
        &Witness {
            what: "without `note`",
            shows: |line| !line.contains("\"note\":"),
        },
    );
}

/// A pydantic producer with a reason `lost` the Rust enum does not have. Witness: the
/// instance the peer writes with it.
#[test]
fn pydantic_producer_with_unknown_reason_breaks() {
    breaking(
        Peer::Pydantic,
        "refund-lost",
        Role::Producer,
        &["ENUM_VALUE_UNKNOWN"],
        &Witness {
            what: "with the reason `lost`",
            shows: |line| line.contains("\"reason\":\"lost\""),
        },
    );
}

#[test]
fn zod4_producer_agreed() {
    compatible(Peer::Zod, "refund", Role::Producer);
}

#[test]
fn zod4_consumer_agreed() {
    compatible(Peer::Zod, "refund", Role::Consumer);
}

/// A `.strict()` zod object without `note`: the Rust producer writes `note` when it has one.
/// Witness: a sample with a note.
#[test]
fn zod4_strict_consumer_without_note_breaks() {
    breaking(
        Peer::Zod,
        "refund-strict",
        Role::Consumer,
        &["UNKNOWN_FIELD_DENIED"],
        &Witness {
            what: "with `note`",
            shows: |line| line.contains("\"note\":"),
        },
    );
}

/// A zod consumer whose `note` is `.optional()`: absent or a string, never `null`. The Rust
/// field is an `Option` skipped when `None` (`skip_serializing_if = "Option::is_none"`), which
/// serde never writes as `null` (`if-some`): compatible, and the peer reads every instance
/// serde writes.
#[test]
fn zod4_optional_consumer_agreed() {
    compatible(Peer::Zod, "refund-optional", Role::Consumer);
}

/// zod 3 through zod-to-json-schema (draft-07, `removeAdditionalStrategy: "strict"`).
#[test]
fn zod3_draft07_consumer_agreed() {
    compatible(Peer::Zod, "refund-v3", Role::Consumer);
}

#[path = "../../contract-schema/benches/shared/pydantic_shaped.rs"]
mod pydantic_shaped;

/// The import bench's generated schema is what pydantic writes for the same model (at 20
/// fields), and its contract reads it.
#[test]
fn import_bench_schema_is_pydantics_own() {
    let Some(text) = run(Peer::Pydantic, &["wide", "20"], "") else {
        return;
    };
    let theirs: serde_json::Value = serde_json::from_str(&text).expect("the peer writes JSON");
    assert_eq!(theirs, pydantic_shaped::pydantic_producer(20));
    let writer = import(&theirs, View::Sender).expect("imports").schema;
    let reader = contract_core::schema::snapshot::parse(&pydantic_shaped::rust_contract(20))
        .expect("the generated contract parses");
    let report = compat::check(&writer, &reader);
    assert!(report.findings().is_empty(), "{:?}", report.findings());
}

/// A hinted fix applied by the peer's own code. The peer's `model` breaks with one finding
/// of `rule` at `key`; its hint, said in `terms` (`compat::check_peer`), ends with the code
/// `code` (its last `…` span). That code, as written, is applied to the peer's model
/// (`MODEL?KEY=CODE`: pydantic's `Field(...)` or a redeclared field, zod's expression), whose
/// schema, exported by the peer again, imported and checked, then has no finding at all; and
/// the peer's own code agrees with that verdict (`compatible`: every instance one side writes,
/// the other reads).
fn hinted_fix_holds(
    peer: Peer,
    model: &str,
    role: Role,
    terms: HintTerms,
    expected: (&str, &str, &str),
) {
    let (rule, key, code) = expected;
    let Some(doc) = peer_doc(peer, model, role) else {
        return;
    };
    let schema = import(&doc, role.view()).expect("imports").schema;
    let rust = Refund::schema();
    let report = match role {
        Role::Producer => compat::check_peer(&schema, &rust, PeerSides::producer(terms)),
        Role::Consumer => compat::check_peer(&rust, &schema, PeerSides::consumer(terms)),
    };
    let [finding] = report.findings() else {
        panic!("{peer:?} {model} as {role:?}: one finding expected\n{report}");
    };
    assert_eq!(
        (finding.rule.id(), finding.path.as_str()),
        (rule, key),
        "{report}"
    );
    let hinted = finding.hint.rsplit('`').nth(1).unwrap_or_default();
    assert_eq!(hinted, code, "the hint's code: {}", finding.hint);
    let fixed = format!("{model}?{key}={hinted}");
    let Some(after) = peer_schema(peer, &fixed, role) else {
        return;
    };
    let report = match role {
        Role::Producer => compat::check(&after, &rust),
        Role::Consumer => compat::check(&rust, &after),
    };
    assert!(
        report.findings().is_empty(),
        "{peer:?} {fixed} as {role:?}: the hinted fix leaves findings\n{report}"
    );
    compatible(peer, &fixed, role);
}

/// pydantic's plain `int` read as a `u32`: told `Field(ge=0, le=4294967295)`, which pydantic
/// then writes as `minimum`/`maximum`. The hint's terms are told from pydantic's document.
#[test]
fn pydantic_producer_of_a_plain_int_takes_the_hinted_field_bounds() {
    let Some(doc) = peer_doc(Peer::Pydantic, "refund-plain-int", Role::Producer) else {
        return;
    };
    let terms = HintTerms::of_document(&doc).expect("a peer's document");
    assert_eq!(terms, HintTerms::Pydantic);
    hinted_fix_holds(
        Peer::Pydantic,
        "refund-plain-int",
        Role::Producer,
        terms,
        (
            "INT_OUT_OF_RANGE",
            "amountCents",
            "Field(ge=0, le=4294967295)",
        ),
    );
}

/// pydantic's `note: Optional[str]` without a default, reading a producer that leaves `note`
/// out: told `note: Optional[str] = None`.
#[test]
fn pydantic_consumer_requiring_note_takes_the_hinted_default() {
    hinted_fix_holds(
        Peer::Pydantic,
        "refund-note-required",
        Role::Consumer,
        HintTerms::Pydantic,
        (
            "REQUIRED_FIELD_MAY_BE_OMITTED",
            "note",
            "note: Optional[str] = None",
        ),
    );
}

/// zod's plain `.int()` (negative integers too) read as a `u32`: told
/// `z.number().int().min(0).max(4294967295)`. zod's document is told by the bounds `.int()`
/// writes.
#[test]
fn zod_producer_of_a_plain_int_takes_the_hinted_bounds() {
    let Some(doc) = peer_doc(Peer::Zod, "refund-int", Role::Producer) else {
        return;
    };
    let terms = HintTerms::of_document(&doc).expect("a peer's document");
    assert_eq!(terms, HintTerms::Zod);
    hinted_fix_holds(
        Peer::Zod,
        "refund-int",
        Role::Producer,
        terms,
        (
            "INT_OUT_OF_RANGE",
            "amountCents",
            "z.number().int().min(0).max(4294967295)",
        ),
    );
}

/// zod's `note: z.string()` (required), reading a producer that leaves `note` out: told
/// `note: z.string().optional()` (absent allowed, never `null`, which serde never writes
/// there).
#[test]
fn zod_consumer_requiring_note_takes_the_hinted_optional() {
    hinted_fix_holds(
        Peer::Zod,
        "refund-note-required",
        Role::Consumer,
        HintTerms::Zod,
        (
            "REQUIRED_FIELD_MAY_BE_OMITTED",
            "note",
            "note: z.string().optional()",
        ),
    );
}
