//! The cost of can-i-deploy on a generated workflow: 50 agents, 200 edges (each edge its own
//! contract, both ends' snapshots committed in one git repository, every agent recorded in
//! `production` at that commit), each call on a fresh [`Project`] so that every git read is
//! paid:
//!
//! - `can_i_deploy/agent-00`: one agent's edges (8 here) against what runs;
//! - `verdicts/200 edges`: every edge of the manifest, as `handoff graph --env` judges them
//!   (target ≤ 2 s);
//! - `git_show_per_side/200 edges`: what a script would do instead, the same 200 edges each
//!   side read with its own `git show COMMIT:PATH`, parsed and checked; the ratio of its time
//!   to `verdicts`' is the figure to quote beside the absolute one.
//!
//! Run: `cargo bench -p contract-workflow --bench can_i_deploy` (the repository lives in
//! `std::env::temp_dir()`). Measured on the project's 2-core machine: `can_i_deploy` 16 ms,
//! `verdicts` 139 ms, `git_show_per_side` 855 ms (6.2× `verdicts`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use contract_schema::compat;
use contract_schema::contract::{ContractId, Mode};
use contract_schema::model::{Body, FieldDef, StructDef, Type, TypeDef, Unknown};
use contract_schema::shape::{IntKind, StringFormat};
use contract_schema::text::to_text;
use contract_schema::{snapshot, Schema};
use contract_workflow::{deploy, Project, SqliteStore};
use criterion::{criterion_group, criterion_main, Criterion};

const AGENTS: usize = 50;
const EDGES: usize = 200;

fn agent(i: usize) -> String {
    format!("agent-{i:02}")
}

/// The ends of edge `k`: a producer and a consumer, never the same agent.
fn ends(k: usize) -> (usize, usize) {
    let from = k % AGENTS;
    let mut to = (k * 7 + 3) % AGENTS;
    if to == from {
        to = (to + 1) % AGENTS;
    }
    (from, to)
}

/// A contract with a dozen fields, the consumer's reading one fewer (compatible).
fn snapshot_text(name: &str, consumer: bool) -> String {
    let mut fields: Vec<FieldDef> = (0..12)
        .map(|i| {
            let ty = if i % 3 == 0 {
                Type::Int(IntKind::U64)
            } else {
                Type::String(StringFormat::Plain)
            };
            FieldDef::plain(format!("field{i}"), ty)
        })
        .collect();
    if consumer {
        fields.pop();
    }
    let schema = Schema {
        contract: Some(ContractId {
            name: name.to_owned(),
            version: 1,
        }),
        mode: Mode::Full,
        allowances: Default::default(),
        root: Type::Named("Payload".to_owned()),
        types: [(
            "Payload".to_owned(),
            TypeDef {
                rust_path: "bench::Payload".to_owned(),
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

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
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

/// The repository: the manifest and every agent's snapshots, one commit; its id.
fn repository(root: &Path) -> String {
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root).unwrap();
    let mut manifest = String::new();
    for i in 0..AGENTS {
        manifest.push_str(&format!(
            "[agents.{}]\ncontracts = \"agents/{}/contracts\"\n\n",
            agent(i),
            agent(i)
        ));
        std::fs::create_dir_all(root.join(format!("agents/{}/contracts", agent(i)))).unwrap();
    }
    for k in 0..EDGES {
        let (from, to) = ends(k);
        let contract = format!("edge-{k}");
        manifest.push_str(&format!(
            "[[edges]]\nfrom = \"{}\"\nto = \"{}\"\ncontract = \"{contract}\"\n\n",
            agent(from),
            agent(to)
        ));
        for (end, consumer) in [(from, false), (to, true)] {
            let file = root.join(format!(
                "agents/{}/contracts/{contract}.v1.snap",
                agent(end)
            ));
            std::fs::write(file, snapshot_text(&contract, consumer)).unwrap();
        }
    }
    std::fs::write(root.join("handoff.toml"), manifest).unwrap();
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["config", "user.name", "bench"]);
    git(root, &["config", "user.email", "bench@example.invalid"]);
    git(root, &["config", "commit.gpgsign", "false"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "workflow"]);
    git(root, &["rev-parse", "HEAD"]).trim().to_owned()
}

/// What a script would do: each side of each edge read with `git show`, parsed, checked.
fn git_show_per_side(root: &Path, commit: &str) -> usize {
    let mut breaking = 0;
    for k in 0..EDGES {
        let (from, to) = ends(k);
        let read = |end: usize| {
            let path = format!("agents/{}/contracts/edge-{k}.v1.snap", agent(end));
            let text = git(root, &["show", &format!("{commit}:{path}")]);
            snapshot::parse(&text).unwrap()
        };
        let (producer, consumer) = (read(from), read(to));
        if !compat::check_with(&producer, &consumer, &consumer.allowances).is_compatible() {
            breaking += 1;
        }
    }
    breaking
}

fn bench(c: &mut Criterion) {
    let root: PathBuf =
        std::env::temp_dir().join(format!("handoff-bench-workflow-{}", std::process::id()));
    let commit = repository(&root);
    let manifest = root.join("handoff.toml");
    let store = SqliteStore::in_memory().unwrap();
    for i in 0..AGENTS {
        store
            .record("production", &agent(i), &commit, &commit)
            .unwrap();
    }
    let deployed = store.deployed("production").unwrap();
    let edges_of_0 = (0..EDGES)
        .filter(|&k| {
            let (a, b) = ends(k);
            a == 0 || b == 0
        })
        .count();

    // Once, to check that every way agrees before timing them.
    let project = Project::open(&manifest).unwrap();
    let all = deploy::verdicts(&project, &deployed).unwrap();
    assert_eq!(all.len(), EDGES);
    assert!(all.iter().all(|e| e.verdict == deploy::Verdict::Ok));
    assert_eq!(git_show_per_side(&root, &commit), 0);
    let report = deploy::can_i_deploy(&project, &agent(0), "main", &deployed).unwrap();
    assert!(report.deployable);
    assert_eq!(report.edges.len(), edges_of_0);

    let mut group = c.benchmark_group("workflow");
    group.sample_size(10);
    group.bench_function(format!("can_i_deploy/agent-00 ({edges_of_0} edges)"), |b| {
        b.iter(|| {
            let project = Project::open(&manifest).unwrap();
            black_box(deploy::can_i_deploy(&project, &agent(0), "main", &deployed).unwrap())
        });
    });
    group.bench_function(format!("verdicts/{EDGES} edges"), |b| {
        b.iter(|| {
            let project = Project::open(&manifest).unwrap();
            black_box(deploy::verdicts(&project, &deployed).unwrap())
        });
    });
    group.bench_function(format!("git_show_per_side/{EDGES} edges"), |b| {
        b.iter(|| black_box(git_show_per_side(&root, &commit)));
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&root);
}

criterion_group!(benches, bench);
criterion_main!(benches);
