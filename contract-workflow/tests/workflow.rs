//! can-i-deploy and the graph on git repositories made by each test: a workflow whose
//! triage agent hands refunds to a refund specialist, a Python escalation peer (its JSON
//! Schema) hands escalations to triage, and billing, in another repository, reads receipts.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use contract_schema::contract::{ContractId, Mode};
use contract_schema::model::{Body, FieldDef, StructDef, Type, TypeDef, Unknown};
use contract_schema::shape::{IntKind, StringFormat};
use contract_schema::text::to_text;
use contract_schema::Schema;
use contract_workflow::deploy::{can_i_deploy, verdicts, Verdict};
use contract_workflow::{graph, Deployments, Error, Project, SqliteStore};

/// A folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("handoff-workflow-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn string() -> Type {
    Type::String(StringFormat::Plain)
}

/// The snapshot text of `name/vN` whose root struct has these fields.
fn snapshot(name: &str, version: u32, fields: Vec<FieldDef>) -> String {
    let schema = Schema {
        contract: Some(ContractId {
            name: name.to_owned(),
            version,
        }),
        mode: Mode::Full,
        allowances: Default::default(),
        root: Type::Named("Payload".to_owned()),
        types: [(
            "Payload".to_owned(),
            TypeDef {
                rust_path: "app::Payload".to_owned(),
                doc: String::new(),
                body: Body::Struct(StructDef {
                    fields,
                    unknown: Unknown::Ignore,
                    extra: None,
                    flattened: Vec::new(),
                }),
            },
        )]
        .into_iter()
        .collect(),
    };
    to_text(&schema)
}

fn refund(extra: Option<FieldDef>, with_amount: bool) -> String {
    let mut fields = vec![FieldDef::plain("orderRef", string())];
    if with_amount {
        fields.push(FieldDef::plain("amount", Type::Int(IntKind::U64)));
    }
    fields.extend(extra);
    snapshot("refund-request", 1, fields)
}

/// `git ARGS` in `dir`, isolated from any repository or configuration around the test; its
/// stdout.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn init(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "handoff test"]);
    git(dir, &["config", "user.email", "handoff@example.invalid"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
}

/// Writes `files` and commits them: the new commit's id.
fn commit(dir: &Path, files: &[(&str, &str)], message: &str) -> String {
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"]).trim().to_owned()
}

/// The escalation peer's JSON Schema, as pydantic writes a producer's (`reason` always).
fn escalation_schema(required: &[&str]) -> String {
    serde_json::json!({
        "title": "Escalation",
        "type": "object",
        "properties": {
            "ticket": {"type": "string"},
            "reason": {"type": "string"}
        },
        "required": required
    })
    .to_string()
}

const MANIFEST: &str = r#"[agents.triage-agent]
contracts = "triage/contracts"

[agents.refund-specialist]
contracts = "refund/contracts"

[agents.escalation-agent]
schema = "peers/escalation.json"

[[edges]]
from = "triage-agent"
to = "refund-specialist"
contract = "refund-request"

[[edges]]
from = "escalation-agent"
to = "triage-agent"
contract = "escalation"
"#;

/// The workflow's repository, first commit tagged `v1`, every agent recorded in
/// `production` at `v1`.
struct Workflow {
    _tmp: TempDir,
    root: PathBuf,
    store: SqliteStore,
}

impl Workflow {
    fn new() -> Workflow {
        let tmp = TempDir::new();
        let root = tmp.0.join("repo");
        init(&root);
        let escalation = snapshot(
            "escalation",
            1,
            vec![
                FieldDef::plain("ticket", string()),
                FieldDef::plain("reason", string()),
            ],
        );
        commit(
            &root,
            &[
                ("handoff.toml", MANIFEST),
                (
                    "triage/contracts/refund-request.v1.snap",
                    &refund(None, true),
                ),
                ("triage/contracts/escalation.v1.snap", &escalation),
                (
                    "refund/contracts/refund-request.v1.snap",
                    &refund(None, true),
                ),
                (
                    "peers/escalation.json",
                    &escalation_schema(&["ticket", "reason"]),
                ),
            ],
            "v1",
        );
        git(&root, &["tag", "v1"]);
        let store = SqliteStore::in_memory().unwrap();
        let project = Project::open(&root.join("handoff.toml")).unwrap();
        for agent in ["triage-agent", "refund-specialist", "escalation-agent"] {
            let commit = project.resolve(agent, "v1").unwrap();
            store.record("production", agent, "v1", &commit).unwrap();
        }
        Workflow {
            _tmp: tmp,
            root,
            store,
        }
    }

    fn project(&self) -> Project {
        Project::open(&self.root.join("handoff.toml")).unwrap()
    }

    fn production(&self) -> Deployments {
        self.store.deployed("production").unwrap()
    }
}

#[test]
fn a_compatible_version_deploys_and_a_breaking_one_names_the_edge_and_the_rule() {
    let w = Workflow::new();
    // Second commit: triage also sends an optional note. Compatible.
    let note = FieldDef::plain("note", Type::Option(Box::new(string())));
    let compatible = commit(
        &w.root,
        &[(
            "triage/contracts/refund-request.v1.snap",
            &refund(Some(note), true),
        )],
        "note",
    );
    let report = can_i_deploy(&w.project(), "triage-agent", &compatible, &w.production()).unwrap();
    assert!(report.deployable, "{}", report.to_text());
    assert_eq!(report.edges.len(), 2);
    assert!(report.edges.iter().all(|e| e.verdict == Verdict::Ok));
    // Each side's version: triage's as asked, the others' as deployed.
    assert_eq!(report.edges[0].versions["triage-agent"], compatible);
    assert_eq!(report.edges[0].versions["refund-specialist"], "v1");
    assert_eq!(report.edges[1].versions["escalation-agent"], "v1");

    // Third commit: triage no longer sends `amount`, which the deployed specialist requires.
    let breaking = commit(
        &w.root,
        &[(
            "triage/contracts/refund-request.v1.snap",
            &refund(None, false),
        )],
        "drop amount",
    );
    let report = can_i_deploy(&w.project(), "triage-agent", "HEAD", &w.production()).unwrap();
    assert!(!report.deployable);
    let edge = &report.edges[0];
    assert_eq!(
        (edge.from.as_str(), edge.to.as_str(), edge.contract.as_str()),
        ("triage-agent", "refund-specialist", "refund-request")
    );
    assert_eq!(edge.verdict, Verdict::Breaks);
    assert_eq!(edge.findings.len(), 1);
    assert_eq!(edge.findings[0].rule, "REQUIRED_FIELD_NOT_SENT");
    assert_eq!(edge.findings[0].path, "amount");
    assert_eq!(report.edges[1].verdict, Verdict::Ok);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["deployable"], false);
    assert_eq!(json["edges"][0]["verdict"], "breaks");
    assert_eq!(json["edges"][0]["versions"]["triage-agent"], "HEAD");
    assert_eq!(
        json["edges"][0]["findings"][0]["rule"],
        "REQUIRED_FIELD_NOT_SENT"
    );
    let text = report.to_text();
    assert!(
        text.starts_with(
            "can-i-deploy triage-agent at HEAD to production: no (2 edges, 1 breaking)"
        ),
        "{text}"
    );
    assert!(
        text.contains("triage-agent -> refund-specialist (refund-request): breaks"),
        "{text}"
    );
    assert!(text.contains("error[REQUIRED_FIELD_NOT_SENT]"), "{text}");

    // Once the specialist that no longer needs `amount` runs, the same triage deploys.
    let specialist = commit(
        &w.root,
        &[(
            "refund/contracts/refund-request.v1.snap",
            &refund(None, false),
        )],
        "specialist reads without amount",
    );
    w.store
        .record("production", "refund-specialist", &specialist, &specialist)
        .unwrap();
    let report = can_i_deploy(&w.project(), "triage-agent", &breaking, &w.production()).unwrap();
    assert!(report.deployable, "{}", report.to_text());
}

#[test]
fn an_environment_with_nothing_recorded_is_unknown_and_not_deployable() {
    let w = Workflow::new();
    let staging = w.store.deployed("staging").unwrap();
    let report = can_i_deploy(&w.project(), "triage-agent", "v1", &staging).unwrap();
    assert!(!report.deployable);
    assert!(report.edges.iter().all(|e| e.verdict == Verdict::Unknown));
    assert!(report.edges.iter().all(|e| e.findings.is_empty()));
    assert_eq!(report.edges[0].undeployed, ["refund-specialist"]);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["edges"][0]["verdict"], "unknown");
    assert_eq!(
        json["edges"][0]["versions"],
        serde_json::json!({"triage-agent": "v1"})
    );
    assert!(report
        .to_text()
        .contains("triage-agent -> refund-specialist (refund-request): unknown: refund-specialist has no deployment in staging"));
}

#[test]
fn a_peer_is_judged_by_its_json_schema_in_its_roles_view() {
    let w = Workflow::new();
    // The peer's next version may leave out `reason`, which triage's snapshot requires.
    commit(
        &w.root,
        &[("peers/escalation.json", &escalation_schema(&["ticket"]))],
        "reason optional",
    );
    let report = can_i_deploy(&w.project(), "escalation-agent", "main", &w.production()).unwrap();
    assert!(!report.deployable);
    let edge = &report.edges[0];
    assert_eq!(edge.verdict, Verdict::Breaks);
    assert_eq!(edge.findings[0].rule, "REQUIRED_FIELD_MAY_BE_OMITTED");
    assert_eq!(edge.findings[0].path, "reason");
    assert!(
        report.to_text().contains("main (JSON Schema)"),
        "{}",
        report.to_text()
    );
    // The peer's v1 is what runs: triage's new version is judged against it.
    let report = can_i_deploy(&w.project(), "triage-agent", "main", &w.production()).unwrap();
    assert_eq!(report.edges[1].verdict, Verdict::Ok);

    // A peer's schema that is not JSON: its file and line, none of its contents.
    commit(
        &w.root,
        &[("peers/escalation.json", "{\n \"type\": secret\n}")],
        "broken",
    );
    let err = can_i_deploy(&w.project(), "escalation-agent", "main", &w.production()).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("main:peers/escalation.json:2:"), "{text}");
    assert!(!text.contains("secret"), "{text}");
}

#[test]
fn an_agent_in_another_repository_is_read_at_its_ref() {
    let tmp = TempDir::new();
    let billing = tmp.0.join("billing");
    init(&billing);
    let receipt = |fields| snapshot("receipt", 1, fields);
    let first = commit(
        &billing,
        &[(
            "contracts/receipt.v1.snap",
            &receipt(vec![FieldDef::plain("orderRef", string())]),
        )],
        "receipt v1",
    );
    git(&billing, &["tag", "b1"]);
    let root = tmp.0.join("repo");
    init(&root);
    let manifest = format!(
        "[agents.refund-specialist]\ncontracts = \"refund/contracts\"\n\n[agents.billing]\ncontracts = {{ git = \"{}\", path = \"contracts\" }}\n\n[[edges]]\nfrom = \"refund-specialist\"\nto = \"billing\"\ncontract = \"receipt\"\n",
        billing.display()
    );
    commit(
        &root,
        &[
            ("handoff.toml", &manifest),
            (
                "refund/contracts/receipt.v1.snap",
                &receipt(vec![FieldDef::plain("orderRef", string())]),
            ),
        ],
        "workflow",
    );
    let project = Project::open(&root.join("handoff.toml")).unwrap();
    // A tag, a full commit id and a branch of the other repository all resolve there.
    assert_eq!(project.resolve("billing", "b1").unwrap(), first);
    assert_eq!(project.resolve("billing", &first).unwrap(), first);
    let store = SqliteStore::in_memory().unwrap();
    store.record("production", "billing", "b1", &first).unwrap();
    let report = can_i_deploy(
        &project,
        "refund-specialist",
        "HEAD",
        &store.deployed("production").unwrap(),
    )
    .unwrap();
    assert!(report.deployable, "{}", report.to_text());

    // Billing's next version requires `amount`, which the deployed specialist never sends.
    let second = commit(
        &billing,
        &[(
            "contracts/receipt.v1.snap",
            &receipt(vec![
                FieldDef::plain("orderRef", string()),
                FieldDef::plain("amount", Type::Int(IntKind::U64)),
            ]),
        )],
        "receipt needs amount",
    );
    store
        .record(
            "production",
            "refund-specialist",
            "HEAD",
            &project.resolve("refund-specialist", "HEAD").unwrap(),
        )
        .unwrap();
    let project = Project::open(&root.join("handoff.toml")).unwrap();
    // An abbreviated id is found after fetching every branch.
    assert_eq!(project.resolve("billing", &second[..10]).unwrap(), second);
    let report = can_i_deploy(
        &project,
        "billing",
        "main",
        &store.deployed("production").unwrap(),
    )
    .unwrap();
    assert!(!report.deployable);
    assert_eq!(report.edges[0].findings[0].rule, "REQUIRED_FIELD_NOT_SENT");
    let err = project
        .resolve("billing", "no-such-ref")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("agent `billing`: unknown git ref `no-such-ref`: no commit of "),
        "{err}"
    );
}

#[test]
fn what_is_not_there_is_named_at_its_line_of_the_manifest() {
    let w = Workflow::new();
    // An unknown ref.
    let err = can_i_deploy(&w.project(), "triage-agent", "v9", &w.production()).unwrap_err();
    assert!(matches!(err, Error::Git(_)));
    let text = err.to_string();
    assert!(
        text.starts_with("agent `triage-agent`: unknown git ref `v9`"),
        "{text}"
    );
    assert!(text.contains("fetch-depth: 0"), "{text}");
    // An agent the manifest does not have.
    let err = can_i_deploy(&w.project(), "nobody", "v1", &w.production()).unwrap_err();
    assert!(err.to_string().contains("no agent `nobody`; the agents are `escalation-agent`, `refund-specialist`, `triage-agent`"), "{err}");
    // An edge whose contract triage has no snapshot of (line 13 of the manifest).
    let renamed = MANIFEST.replace(
        "contract = \"refund-request\"",
        "contract = \"refund-order\"",
    );
    commit(&w.root, &[("handoff.toml", &renamed)], "typo");
    let err = can_i_deploy(&w.project(), "triage-agent", "v1", &w.production()).unwrap_err();
    let text = err.to_string();
    assert!(text.ends_with("handoff.toml:13: `triage-agent` has no snapshot of `refund-order` in `triage/contracts` at `v1` (no `refund-order.v<N>.snap`)"), "{text}");
    // A snapshot folder that is not there (line 5).
    let moved = MANIFEST.replace("\"refund/contracts\"", "\"refunds/contracts\"");
    commit(&w.root, &[("handoff.toml", &moved)], "moved");
    let err = can_i_deploy(&w.project(), "triage-agent", "v1", &w.production()).unwrap_err();
    assert!(err.to_string().ends_with("handoff.toml:5: `refunds/contracts`, the snapshot folder of `refund-specialist`, is not in the repository at `v1`"), "{err}");
    // A peer's file that is not there (line 8).
    let gone = MANIFEST.replace("peers/escalation.json", "peers/escalate.json");
    commit(&w.root, &[("handoff.toml", &gone)], "gone");
    let err = can_i_deploy(&w.project(), "escalation-agent", "v1", &w.production()).unwrap_err();
    assert!(err.to_string().ends_with("handoff.toml:8: `peers/escalate.json`, the JSON Schema of `escalation-agent`, is not in the repository at `v1`"), "{err}");
}

#[test]
fn the_graph_colours_each_edge_by_its_verdict_in_an_environment() {
    let w = Workflow::new();
    let breaking = commit(
        &w.root,
        &[(
            "triage/contracts/refund-request.v1.snap",
            &refund(None, false),
        )],
        "drop amount",
    );
    w.store
        .record("production", "triage-agent", "next", &breaking)
        .unwrap();
    let project = w.project();
    let judged = verdicts(&project, &w.production()).unwrap();
    assert_eq!(
        judged.iter().map(|e| e.verdict).collect::<Vec<_>>(),
        [Verdict::Breaks, Verdict::Ok]
    );
    let mermaid = graph::mermaid(project.manifest(), Some(&judged));
    assert!(mermaid.starts_with("flowchart LR\n"), "{mermaid}");
    assert!(
        mermaid.contains("-->|\"refund-request: breaks\"|"),
        "{mermaid}"
    );
    assert!(mermaid.contains("linkStyle 0 stroke:#cf222e"), "{mermaid}");
    assert!(mermaid.contains("linkStyle 1 stroke:#1a7f37"), "{mermaid}");
    let staging = verdicts(&project, &Deployments::none("staging")).unwrap();
    let grey = graph::mermaid(project.manifest(), Some(&staging));
    assert_eq!(grey.matches("stroke:#8c959f").count(), 2, "{grey}");
    let html = graph::html(project.manifest(), Some(&judged), "production");
    assert!(html.contains("<td class=\"breaks\">breaks</td>"), "{html}");
    assert!(html.contains("marker-end=\"url(#arrow-breaks)\""), "{html}");
    // Kept for a look in a browser: `<target>/graph-view/production.html`.
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        std::path::PathBuf::from,
    );
    let dir = target.join("graph-view");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("production.html"), &html).unwrap();
}
