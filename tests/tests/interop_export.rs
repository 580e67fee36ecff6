//! The JSON Schema export as peers in other languages use it.
//!
//! - [`json_schema::ANNOTATIONS`] is every `x-handoff-*` keyword the export writes: checked
//!   against the exports (both views) of every catalogue type (`src/types.rs`), of every
//!   snapshot of `examples/contracts/` and `tests/contracts/` (and of an integer bounded past
//!   64 bits, which none of them has), and against the list the
//!   guide's page on peers gives (`contract-core/src/guide/peers.md`).
//! - Agreement: for each catalogue type, this test writes its two exported schemas (with
//!   annotations), instances and the Rust verdicts to `<target>/interop/` (`<target>` is
//!   `CARGO_TARGET_DIR` when set, relative to the workspace when relative, else the
//!   workspace's `target/`), then runs `interop/js/agree.mjs` (ajv) and
//!   `interop/py/agree.py` (Python's `jsonschema`) on them: each must judge every instance as
//!   the Rust verdict does, apart from the points its script lists (each with its reason and
//!   a check that it still holds).
//!
//! The instances of a type: generated from its receiver view (`strategies::generate`), what
//! serde writes of each value read back (`serde_json::to_value`, which `send` accepts), and
//! mutations of each generated instance (`mutations::site_mutations`: a key removed,
//! renamed, retyped, duplicated under an alias, an unknown key; `strategies::wrong_values`: a
//! wrong value of the same JSON type). Each case records:
//!
//! - `valid`: the verdict of the export, by the Rust `jsonschema` crate with formats checked,
//!   the verdict the peers must reproduce. On generated instances it is `receive`'s (both
//!   accept, asserted here); on what serde writes it is `send`'s (both accept, asserted here);
//!   on mutations it is `receive`'s except at the points where the export is stricter or
//!   looser than serde on purpose (module docs of `contract_schema::json_schema`, each pinned
//!   in `strictness.rs`, counted in `fidelity.rs`).
//! - `serde`: `receive`'s verdict (receiver view), `send`'s (sender view, what serde writes),
//!   `null` for a mutation judged against the sender view.
//! - `wide_integer`: whether the instance holds an integer beyond ±2^53, which JavaScript
//!   reads rounded; `valid_as_doubles`, for such an instance, the export's verdict when every
//!   such integer of the schema and of the instance is the nearest double (what ajv sees):
//!   `agree.mjs` lets ajv differ from `valid` only where it gives that verdict.
//!
//! `points.json` holds the instances that pin the listed points (an integer one past `i64`'s
//! maximum; a uuid with a `urn:uuid:` prefix, which serde reads and the export refuses).
//!
//! Without Node and `interop/js/node_modules`, or without the Python of
//! `HANDOFF_INTEROP_PYTHON` (else `interop/py/.venv`), the agreement test prints
//! `SKIPPED: … need node/npm deps` (or `… need the Python venv`) and passes, unless `CI=true`,
//! where it fails: `.ci/run` installs both first.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use contract_core::schema::json_schema::ANNOTATIONS;
use contract_core::schema::snapshot;
use contract_core::{json_schema, receive, send, HandoffSchema, ProblemKind, Schema, View};
use contract_tests::mutations::{site_mutations, site_object, value_mut};
use contract_tests::peers::{node_ready, python, skip, workspace};
use contract_tests::strategies::{generate, wrong_values, Instance, SplitMix};
use contract_tests::types::*;
use jsonschema::Validator;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Generated instances per type.
const INSTANCES: u64 = 12;
/// Struct objects mutated per instance, at most.
const SITES: usize = 3;
/// Slots given wrong values per instance, at most.
const SLOTS: usize = 4;

/// `<target>/interop`, emptied: see the module docs.
fn interop_dir() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        Some(dir) => workspace().join(dir),
        None => workspace().join("target"),
    };
    let dir = target.join("interop");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("the old interop folder is removed");
    }
    std::fs::create_dir_all(&dir).expect("the interop folder is created");
    dir
}

/// The validator of an export, formats checked, as the fidelity tests build it.
fn validator(schema: &Value) -> Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the export compiles")
}

/// Whether `value` holds an integer beyond ±2^53.
fn wide_integer(value: &Value) -> bool {
    const SAFE: u64 = 1 << 53;
    match value {
        Value::Number(n) => {
            n.as_u64().is_some_and(|u| u > SAFE)
                || n.as_i64().is_some_and(|i| i.unsigned_abs() > SAFE)
        }
        Value::Array(items) => items.iter().any(wide_integer),
        Value::Object(map) => map.values().any(wide_integer),
        _ => false,
    }
}

/// `value` with every integer beyond ±2^53 replaced by the double nearest to it, as
/// JavaScript's `JSON.parse` reads it (in a schema and in an instance alike).
fn as_doubles(value: &Value) -> Value {
    match value {
        Value::Number(n) if wide_integer(value) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(as_doubles).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), as_doubles(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The verdicts of one view's export: as written, and read as JavaScript reads numbers.
struct Judge {
    view: View,
    exact: Validator,
    doubles: Validator,
}

impl Judge {
    fn new(view: View, document: &Value) -> Self {
        Judge {
            view,
            exact: validator(document),
            doubles: validator(&as_doubles(document)),
        }
    }

    /// The export's verdict on `instance`.
    fn valid(&self, instance: &Value) -> bool {
        self.exact.is_valid(instance)
    }

    /// One instance and its verdicts: `valid` (the export's), `serde` (`receive`'s or
    /// `send`'s), and for an instance holding an integer beyond ±2^53, `valid_as_doubles`:
    /// the export's verdict when every such integer, in the schema and in the instance, is
    /// read as the nearest double, which is what a JavaScript validator sees.
    fn case(&self, origin: &str, instance: &Value, serde: Option<bool>) -> Value {
        let wide = wide_integer(instance);
        let doubles = wide.then(|| self.doubles.is_valid(&as_doubles(instance)));
        json!({
            "view": self.view.as_str(),
            "origin": origin,
            "instance": instance,
            "valid": self.valid(instance),
            "serde": serde,
            "wide_integer": wide,
            "valid_as_doubles": doubles,
        })
    }
}

/// `receive`'s verdict on the bytes of `value`.
fn receives<T: HandoffSchema + DeserializeOwned + 'static>(value: &Value) -> bool {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    receive::<T>(&bytes).is_ok()
}

/// A type's exports and cases, and how many cases.
struct Written {
    document: Value,
    cases: usize,
}

/// The file of one catalogue type: both exports and every case.
fn cases_of<T>(name: &str, instances: u64) -> Written
where
    T: Serialize + DeserializeOwned + HandoffSchema + 'static,
{
    let schema: Schema = T::schema();
    let sender_doc = json_schema::<T>(View::Sender);
    let receiver_doc = json_schema::<T>(View::Receiver);
    let sender = Judge::new(View::Sender, &sender_doc);
    let receiver = Judge::new(View::Receiver, &receiver_doc);
    let mut cases = Vec::new();
    // The seeds differ per type, and are the same on every run.
    let base = name.bytes().fold(0xCBF2_9CE4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    for n in 0..instances {
        let instance: Instance = generate(&schema, base ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let value = &instance.value;
        let received = receives::<T>(value);
        assert!(
            receiver.valid(value) && received,
            "{name}: a generated instance is refused (schema: {}, receive: {received}): {value}",
            receiver.valid(value)
        );
        cases.push(receiver.case("generated", value, Some(true)));
        written::<T>(name, value, &sender, &mut cases);
        let mut rng = SplitMix(base ^ n);
        let judge = |mutated: &Value, cases: &mut Vec<Value>| {
            let serde = receives::<T>(mutated);
            cases.push(receiver.case("mutated", mutated, Some(serde)));
            cases.push(sender.case("mutated", mutated, None));
        };
        for site in instance.sites.iter().take(SITES) {
            for mutation in site_mutations(value, site, &mut rng) {
                if let Some(mutated) = mutation.apply(value, &site.path) {
                    judge(&mutated, &mut cases);
                }
            }
        }
        for slot in instance.slots.iter().take(SLOTS) {
            let Some(current) = site_object(value, &slot.path) else {
                continue;
            };
            for wrong in wrong_values(&schema, &slot.ty, current, &mut rng) {
                let mut mutated = value.clone();
                if let Some(node) = value_mut(&mut mutated, &slot.path) {
                    *node = wrong.value;
                    judge(&mutated, &mut cases);
                }
            }
        }
    }

    /// What serde writes of the value read from `value`: the sender view and `send` accept
    /// it (serde writes a key twice when two fields share it, which `send` refuses and no
    /// receiver reads back: such an instance is left out).
    fn written<T: Serialize + DeserializeOwned + HandoffSchema + 'static>(
        name: &str,
        value: &Value,
        sender: &Judge,
        cases: &mut Vec<Value>,
    ) {
        let Ok(decoded) = serde_json::from_value::<T>(value.clone()) else {
            panic!("{name}: serde refuses a generated instance: {value}");
        };
        // A variant read but never written: serde refuses to write it.
        let Ok(sent) = serde_json::to_value(&decoded) else {
            return;
        };
        if let Err(rejection) = send(&decoded) {
            let duplicates = rejection
                .problems()
                .iter()
                .all(|p| matches!(p.kind, ProblemKind::DuplicateKey { .. }));
            assert!(
                duplicates,
                "{name}: send refuses what serde writes, {sent}: {rejection}"
            );
            return;
        }
        assert!(
            sender.valid(&sent),
            "{name}: the sender view refuses what serde writes: {sent}"
        );
        cases.push(sender.case("written", &sent, Some(true)));
    }

    let count = cases.len();
    Written {
        document: json!({
            "type": name,
            "schemas": { "sender": sender_doc, "receiver": receiver_doc },
            "cases": cases,
        }),
        cases: count,
    }
}

/// A catalogue type's name and its file, of so many generated instances.
type Entry = (&'static str, fn(u64) -> Written);

/// The catalogue's files, by type.
macro_rules! catalogue {
    ($($ty:ty),* $(,)?) => {
        {
            let entries: Vec<Entry> = vec![$(
                (stringify!($ty), |n| cases_of::<$ty>(stringify!($ty), n))
            ),*];
            entries
        }
    };
}

/// Every type of `src/types.rs` (a test checks that none is missing), and the envelope at two
/// of its contracts.
fn catalogue() -> Vec<Entry> {
    let mut all = contract_tests::with_catalogue!(catalogue);
    all.extend(catalogue![Handoff<RefundRequest>, Handoff<TaskResult>]);
    all
}

/// A uuid and an `i64`: the two points where a peer's validator differs.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
pub struct Points {
    /// ajv-formats' `uuid` also takes a `urn:uuid:` prefix.
    pub id: uuid::Uuid,
    /// JavaScript reads an integer beyond 2^53 rounded.
    pub count: i64,
}

/// The cases that pin the listed points: a `urn:uuid:` prefix, and `i64::MAX + 1`.
fn points() -> Value {
    let receiver_doc = json_schema::<Points>(View::Receiver);
    let receiver = Judge::new(View::Receiver, &receiver_doc);
    let id = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    let instances = [
        json!({ "id": id, "count": i64::MAX }),
        json!({ "id": format!("urn:uuid:{id}"), "count": 1 }),
        json!({ "id": id, "count": i64::MAX.unsigned_abs() + 1 }),
    ];
    let cases: Vec<Value> = instances
        .iter()
        .map(|instance| {
            let serde = receives::<Points>(instance);
            receiver.case("point", instance, Some(serde))
        })
        .collect();
    // The export refuses both (serde reads the prefixed uuid: the export is stricter there).
    let verdicts: Vec<bool> = cases.iter().map(|c| c["valid"] == true).collect();
    assert_eq!(verdicts, [true, false, false]);
    // Read as doubles, `i64::MAX + 1` is the rounded maximum: it passes.
    assert_eq!(cases[2]["valid_as_doubles"], true);
    json!({
        "type": "Points",
        "schemas": { "sender": json_schema::<Points>(View::Sender), "receiver": receiver_doc },
        "cases": cases,
    })
}

/// A file name for a type name (`Handoff<RefundRequest>` is `Handoff-RefundRequest`).
fn file_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    format!("{}.json", out.trim_end_matches('-'))
}

/// Writes every file the peers read; returns the folder and how many cases.
fn write_all() -> (PathBuf, usize) {
    let dir = interop_dir();
    let mut files = Vec::new();
    let mut total = 0;
    for (name, cases) in catalogue() {
        let written = cases(INSTANCES);
        total += written.cases;
        let file = file_name(name);
        std::fs::write(dir.join(&file), written.document.to_string())
            .expect("a case file is written");
        files.push(file);
    }
    std::fs::write(dir.join("points.json"), points().to_string()).expect("points.json is written");
    files.push("points.json".to_owned());
    let manifest = json!({ "annotations": ANNOTATIONS, "files": files });
    std::fs::write(dir.join("manifest.json"), manifest.to_string())
        .expect("the manifest is written");
    (dir, total)
}

/// Runs one peer's script; its summary line (`summary: {json}`) is returned.
fn run_peer(program: &Path, script: &Path, dir: &Path) -> Map<String, Value> {
    let output = Process::new(program)
        .arg(script)
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("{} cannot start: {e}", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!(
        "{} {}:\n{stdout}{stderr}",
        program.display(),
        script.display()
    );
    assert!(
        output.status.success(),
        "{} disagrees with the Rust verdicts (exit status {})",
        script.display(),
        output.status
    );
    let summary = stdout
        .lines()
        .find_map(|l| l.strip_prefix("summary: "))
        .unwrap_or_else(|| panic!("{} printed no summary line", script.display()));
    match serde_json::from_str(summary) {
        Ok(Value::Object(map)) => map,
        _ => panic!(
            "{}: the summary is not a JSON object: {summary}",
            script.display()
        ),
    }
}

/// Checks that every listed point explained at least one case (`points.json` holds one of
/// each), and that the peer judged every case.
fn assert_summary(peer: &str, summary: &Map<String, Value>, total: usize, listed: &[&str]) {
    let judged = summary
        .get("instances")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    assert!(
        judged >= total as u64,
        "{peer} judged {judged} instances, fewer than the {total} written"
    );
    let unlisted = summary.get("unlisted").and_then(Value::as_u64);
    assert_eq!(unlisted, Some(0), "{peer}: unlisted disagreements");
    for point in listed {
        let n = summary
            .get("listed")
            .and_then(|l| l.get(*point))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        assert!(
            n > 0,
            "{peer}: the listed point `{point}` explained no case"
        );
    }
}

#[test]
fn ajv_and_python_jsonschema_agree_with_the_rust_verdicts() {
    let (dir, total) = write_all();
    // points.json's three cases, besides the catalogue's.
    let total = total + 3;
    eprintln!("{total} cases written to {}", dir.display());
    let root = workspace();
    if node_ready() && root.join("interop/js/node_modules/ajv").exists() {
        let summary = run_peer(Path::new("node"), &root.join("interop/js/agree.mjs"), &dir);
        assert_summary(
            "agree.mjs",
            &summary,
            total,
            &["integer beyond 2^53", "uuid with a urn:uuid: prefix"],
        );
    } else {
        skip("agreement of ajv with the Rust verdicts: need node/npm deps (npm ci --prefix interop/js)");
    }
    match python() {
        Some(python) => {
            let summary = run_peer(&python, &root.join("interop/py/agree.py"), &dir);
            assert_summary("agree.py", &summary, total, &[]);
        }
        None => skip(
            "agreement of Python's jsonschema with the Rust verdicts: need the Python venv \
             (HANDOFF_INTEROP_PYTHON, or interop/py/.venv with interop/py/requirements.txt)",
        ),
    }
}

/// Every `x-handoff-*` key of a document, wherever it sits (as a keyword or a key of data).
fn x_handoff_keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                if key.starts_with("x-handoff-") {
                    out.insert(key.clone());
                }
                x_handoff_keys(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| x_handoff_keys(v, out)),
        _ => {}
    }
}

/// The guide's page on peers in other languages, which lists the annotations.
const GUIDE_PEERS: &str = "contract-core/src/guide/peers.md";

#[test]
fn annotations_are_every_x_handoff_key_of_the_exports_and_the_guide_list() {
    let listed: BTreeSet<String> = ANNOTATIONS.iter().map(|k| (*k).to_owned()).collect();
    let mut found = BTreeSet::new();
    let mut documents = 0;
    for (_, cases) in catalogue() {
        // The exports alone: no instance.
        let written = cases(0);
        for view in ["sender", "receiver"] {
            x_handoff_keys(&written.document["schemas"][view], &mut found);
            documents += 1;
        }
    }
    for folder in ["examples/contracts", "tests/contracts"] {
        let entries = std::fs::read_dir(workspace().join(folder)).expect("the folder is read");
        for entry in entries {
            let path = entry.expect("an entry is read").path();
            if path.extension().is_none_or(|e| e != "snap") {
                continue;
            }
            let schema = snapshot::read(&path).unwrap_or_else(|e| panic!("{e}"));
            for view in [View::Sender, View::Receiver] {
                let document = contract_core::schema::to_json_schema(&schema, view);
                x_handoff_keys(&document, &mut found);
                documents += 1;
            }
        }
    }
    // A bound past 64 bits, which no type of the catalogue has and a type whose schema is
    // written by hand (its own `Shape`) may: the values said by `x-handoff-integers`.
    let wide = contract_core::schema::text::parse("root u128(18446744073709551616..)\n")
        .expect("the text parses");
    for view in [View::Sender, View::Receiver] {
        x_handoff_keys(
            &contract_core::schema::to_json_schema(&wide, view),
            &mut found,
        );
        documents += 1;
    }
    eprintln!("{documents} exports: {found:?}");
    assert_eq!(
        found, listed,
        "the keys the exports write, against ANNOTATIONS"
    );

    // The guide's section on the annotations names each, and no other.
    let page = std::fs::read_to_string(workspace().join(GUIDE_PEERS)).expect(GUIDE_PEERS);
    let section = page
        .split("\n## The annotations\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the guide's peers page has a section on the annotations");
    let mut named = BTreeSet::new();
    for (at, _) in section.match_indices("x-handoff-") {
        let key: String = section[at..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        let key = key.trim_end_matches('-');
        // `x-handoff-*`, the family, is not a key.
        if key != "x-handoff" {
            named.insert(key.to_owned());
        }
    }
    assert_eq!(named, listed, "{GUIDE_PEERS}'s list against ANNOTATIONS");
}

#[test]
fn the_catalogue_lists_every_type_of_src_types_rs() {
    let source = include_str!("../src/types.rs");
    let declared: BTreeSet<&str> = source
        .lines()
        .filter_map(|l| {
            l.strip_prefix("pub struct ")
                .or_else(|| l.strip_prefix("pub enum "))
        })
        .filter_map(|rest| {
            rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next()
        })
        .collect();
    let listed: BTreeSet<&str> = catalogue()
        .iter()
        .map(|(name, _)| name.split('<').next().unwrap_or(name))
        .collect();
    assert_eq!(declared, listed);
}
