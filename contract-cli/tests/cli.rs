//! The `handoff` binary on temporary folders: exit statuses and output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use contract_schema::contract::{ContractId, Mode};
use contract_schema::model::{Body, FieldDef, StructDef, Type, TypeDef, Unknown};
use contract_schema::shape::{IntKind, StringFormat};
use contract_schema::text::to_text;
use contract_schema::Schema;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// A folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("handoff-cli-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn sub(&self, name: &str) -> PathBuf {
        let dir = self.0.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The snapshot text of contract `name/vN` whose root struct has these fields.
fn snapshot(name: &str, version: u32, mode: Mode, fields: Vec<FieldDef>) -> String {
    let schema = Schema {
        contract: Some(ContractId {
            name: name.to_owned(),
            version,
        }),
        mode,
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
    // As insta writes it: a header, then the text.
    format!(
        "---\nsource: src/lib.rs\nexpression: snapshot\n---\n{}",
        to_text(&schema)
    )
}

fn string() -> Type {
    Type::String(StringFormat::Plain)
}

fn v1() -> Vec<FieldDef> {
    vec![
        FieldDef::plain("orderRef", string()),
        FieldDef::plain("amount", Type::Int(IntKind::U64)),
    ]
}

fn write(dir: &Path, file: &str, contents: &str) -> PathBuf {
    let path = dir.join(file);
    std::fs::write(&path, contents).unwrap();
    path
}

fn handoff(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_handoff"));
    for a in args {
        cmd.arg(a);
    }
    cmd.output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn diff_of_equal_snapshots_exits_0() {
    let tmp = TempDir::new();
    let a = write(
        &tmp.0,
        "a.snap",
        &snapshot("refund-request", 1, Mode::Full, v1()),
    );
    let b = write(
        &tmp.0,
        "b.snap",
        &snapshot("refund-request", 1, Mode::Full, v1()),
    );
    let out = handoff(&[&"diff", &a, &b]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("compatible\n"), "{}", stdout(&out));
}

#[test]
fn diff_of_a_breaking_change_exits_1_with_the_rule_and_the_hint() {
    let tmp = TempDir::new();
    let old = write(
        &tmp.0,
        "old.snap",
        &snapshot("refund-request", 1, Mode::Full, v1()),
    );
    let new_fields = vec![FieldDef::plain("amount", Type::Int(IntKind::U64))];
    let new = write(
        &tmp.0,
        "new.snap",
        &snapshot("refund-request", 1, Mode::Full, new_fields),
    );
    let out = handoff(&[&"diff", &old, &new]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("(mode full)"), "{text}");
    assert!(
        text.contains("error[FIELD_REMOVED]: `orderRef` is required by old readers"),
        "{text}"
    );
    assert!(text.contains("= help: restore the field"), "{text}");
    // Backward only: new readers read old data fine.
    let out = handoff(&[&"diff", &old, &new, &"--mode", &"backward"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn diff_uses_the_mode_the_new_snapshot_declares() {
    let tmp = TempDir::new();
    let old = write(&tmp.0, "old.snap", &snapshot("x", 1, Mode::Full, v1()));
    let new = write(
        &tmp.0,
        "new.snap",
        &snapshot(
            "x",
            1,
            Mode::Backward,
            vec![FieldDef::plain("amount", Type::Int(IntKind::U64))],
        ),
    );
    let out = handoff(&[&"diff", &old, &new]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("(mode backward)"));
}

#[test]
fn diff_json_is_one_document_with_rule_ids() {
    let tmp = TempDir::new();
    let old = write(&tmp.0, "old.snap", &snapshot("x", 1, Mode::Full, v1()));
    let mut narrowed = v1();
    narrowed[1] = FieldDef::plain("amount", Type::Int(IntKind::U32));
    let new = write(&tmp.0, "new.snap", &snapshot("x", 1, Mode::Full, narrowed));
    let out = handoff(&[&"diff", &old, &new, &"--format=json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compatible"], false);
    assert_eq!(json["mode"], "full");
    assert_eq!(json["findings"][0]["rule"], "INT_NARROWED");
    assert_eq!(json["findings"][0]["path"], "amount");
    assert_eq!(json["findings"][0]["direction"], "backward");
    assert_eq!(json["findings"].as_array().unwrap().len(), 1);
}

#[test]
fn unreadable_input_exits_2_naming_the_file_and_line() {
    let tmp = TempDir::new();
    let good = write(&tmp.0, "good.snap", &snapshot("x", 1, Mode::Full, v1()));
    let missing = tmp.0.join("missing.snap");
    let out = handoff(&[&"diff", &missing, &good]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("missing.snap: cannot read the snapshot"),
        "{}",
        stderr(&out)
    );

    let bad = write(
        &tmp.0,
        "bad.snap",
        "---\nsource: src/lib.rs\n---\nroot Payload\n\nstruct Payload\n  rust \"app::Payload\"\n  unknwon ignore\n",
    );
    let out = handoff(&[&"diff", &good, &bad]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(&format!("{}:8:", bad.display())), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn usage_errors_exit_2_with_the_usage() {
    for args in [
        vec!["diff", "only-one.snap"],
        vec!["frobnicate"],
        vec!["diff", "a", "b", "--format", "yaml"],
        vec![],
    ] {
        let argv: Vec<&dyn AsRef<std::ffi::OsStr>> = args
            .iter()
            .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
            .collect();
        let out = handoff(&argv);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        // clap's form: the error, then where to read more.
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            err.contains("For more information, try '--help'."),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let help = handoff(&[&"--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("exit status: 0 compatible, 1 breaking, 2"));
    // Each subcommand has its own help, with the exit statuses.
    for sub in [
        "diff",
        "check",
        "json-schema",
        "completions",
        "record-deployment",
        "can-i-deploy",
        "graph",
    ] {
        let help = handoff(&[&sub, &"--help"]);
        assert_eq!(help.status.code(), Some(0), "{sub}");
        let text = stdout(&help);
        assert!(
            text.contains(&format!("Usage: handoff {sub} ")),
            "{sub}: {text}"
        );
        assert!(
            text.contains("exit status: 0 compatible, 1 breaking, 2"),
            "{sub}: {text}"
        );
    }
}

#[test]
fn completions_are_written_for_each_shell_and_say_how_to_install() {
    for (shell, marker) in [
        ("bash", "_handoff()"),
        ("zsh", "#compdef handoff"),
        ("fish", "complete -c handoff"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[handoff]"),
    ] {
        let out = handoff(&[&"completions", &shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell}: {script}");
        // Every subcommand and the options of one are completed.
        for word in ["json-schema", "against", "no-annotations"] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    let out = handoff(&[&"completions", &"tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 'tcsh'"),
        "{}",
        stderr(&out)
    );
    // How to install the binary, in the long help.
    let help = stdout(&handoff(&[&"--help"]));
    assert!(
        help.contains("cargo install --locked --path contract-cli"),
        "{help}"
    );
}

/// A release's folder and today's: `a` unchanged, `b` broken, `c` removed, `d` new.
fn folders(tmp: &TempDir) -> (PathBuf, PathBuf) {
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    let s = |name: &str, fields| snapshot(name, 1, Mode::Full, fields);
    write(&old, "a.v1.snap", &s("a", v1()));
    write(&new, "a.v1.snap", &s("a", v1()));
    write(&old, "b.v1.snap", &s("b", v1()));
    let mut b2 = v1();
    b2.push(FieldDef::plain("reason", string()));
    write(&new, "b.v1.snap", &s("b", b2));
    write(&old, "c.v1.snap", &s("c", v1()));
    write(&new, "d.v1.snap", &s("d", v1()));
    // Not snapshots of a published contract: left out.
    write(&new, "e.v1.snap.new", "not read");
    write(&new, "README.md", "not read");
    (old, new)
}

#[test]
fn check_reports_every_contract_and_exits_1_on_a_break() {
    let tmp = TempDir::new();
    let (old, new) = folders(&tmp);
    let out = handoff(&[&"check", &old, &new]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\na/v1 (mode full): compatible\n"), "{text}");
    assert!(text.contains("\nb/v1 (mode full): breaking\n"), "{text}");
    assert!(
        text.contains("error[FIELD_ADDED_REQUIRED]: `reason` is required by new readers"),
        "{text}"
    );
    assert!(text.contains("\nc/v1: removed\n"), "{text}");
    assert!(text.contains("error[PUBLISHED_VERSION_REMOVED]"), "{text}");
    assert!(text.contains("\nd/v1: new\n"), "{text}");
    assert!(!text.contains("e/v1"), "{text}");
    assert!(
        text.ends_with("4 contract versions checked: 2 breaking\n"),
        "{text}"
    );
}

#[test]
fn check_json_lists_each_contract_with_its_status() {
    let tmp = TempDir::new();
    let (old, new) = folders(&tmp);
    let out = handoff(&[&"check", &old, &new, &"--format", &"json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compatible"], false);
    let statuses: Vec<(String, String)> = json["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["contract"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("a/v1", "compatible"),
        ("b/v1", "breaking"),
        ("c/v1", "removed"),
        ("d/v1", "new"),
    ];
    assert_eq!(
        statuses,
        expected.map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    assert_eq!(
        json["contracts"][1]["report"]["findings"][0]["rule"],
        "FIELD_ADDED_REQUIRED"
    );
}

#[test]
fn check_of_compatible_folders_exits_0() {
    let tmp = TempDir::new();
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    write(&old, "a.v1.snap", &snapshot("a", 1, Mode::Full, v1()));
    let mut more = v1();
    more.push(FieldDef::plain("note", Type::Option(Box::new(string()))));
    write(&new, "a.v1.snap", &snapshot("a", 1, Mode::Full, more));
    write(&new, "a.v2.snap", &snapshot("a", 2, Mode::Full, vec![]));
    let out = handoff(&[&"check", &old, &new]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// A file named like a snapshot but not as one (`Refund.v1.snap`, `a.v01.snap`) is left out
/// with a warning naming it: a published version nobody checks must not pass in silence.
#[test]
fn check_warns_of_a_misnamed_snapshot_and_leaves_it_out() {
    let tmp = TempDir::new();
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    write(&old, "a.v1.snap", &snapshot("a", 1, Mode::Full, v1()));
    write(&new, "a.v1.snap", &snapshot("a", 1, Mode::Full, v1()));
    write(&old, "a.v01.snap", "not read\n");
    write(&new, "Refund.v1.snap", "not read\n");
    write(&new, "module__test.snap", "not read\n");
    let out = handoff(&[&"check", &old, &new]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{}{err}", stdout(&out));
    assert!(
        err.contains("a.v01.snap: left out: a contract snapshot is named `<name>.v<N>.snap`"),
        "{err}"
    );
    assert!(err.contains("Refund.v1.snap: left out"), "{err}");
    assert!(!err.contains("module__test"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
}

/// The allow line a contract writes for `#[handoff(allow(FIELD_REMOVED, reason = "…"))]`
/// on its removed `orderRef`.
const ALLOW_ORDER_REF: &str =
    "allow FIELD_REMOVED field \"orderRef\" reason \"v1 writers retired in \\\"March\\\"\"\n";

/// v1 without `orderRef` (which old readers require), with `allow` lines after its mode.
fn without_order_ref(name: &str, allow: &str) -> String {
    let fields = vec![FieldDef::plain("amount", Type::Int(IntKind::U64))];
    let text = snapshot(name, 1, Mode::Full, fields);
    assert!(text.contains("\nmode full\n"), "{text}");
    text.replacen("\nmode full\n", &format!("\nmode full\n{allow}"), 1)
}

#[test]
fn check_honours_the_allowances_of_todays_snapshot() {
    let tmp = TempDir::new();
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    write(
        &old,
        "refund.v1.snap",
        &snapshot("refund", 1, Mode::Full, v1()),
    );
    write(
        &new,
        "refund.v1.snap",
        &without_order_ref("refund", ALLOW_ORDER_REF),
    );
    let out = handoff(&[&"check", &old, &new]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("\nrefund/v1 (mode full): compatible\n"),
        "{text}"
    );
    assert!(text.contains("allowed[FIELD_REMOVED]"), "{text}");
    assert!(
        text.contains("= note: allowed on purpose: v1 writers retired in \"March\""),
        "{text}"
    );
    assert!(text.contains("compatible (1 allowed on purpose)"), "{text}");

    let out = handoff(&[&"check", &old, &new, &"--format", &"json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compatible"], true);
    let finding = &json["contracts"][0]["report"]["findings"][0];
    assert_eq!(finding["rule"], "FIELD_REMOVED");
    assert_eq!(finding["allowed"], "v1 writers retired in \"March\"");

    // Without the allow line, the same change breaks.
    write(&new, "refund.v1.snap", &without_order_ref("refund", ""));
    let out = handoff(&[&"check", &old, &new]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[FIELD_REMOVED]"), "{text}");
    assert!(!text.contains("allowed"), "{text}");

    // An allowance of another field, or of another rule, allows nothing here.
    for other in [
        "allow FIELD_REMOVED field \"amount\" reason \"r\"\n",
        "allow TYPE_CHANGED field \"orderRef\" reason \"r\"\n",
    ] {
        write(&new, "refund.v1.snap", &without_order_ref("refund", other));
        let out = handoff(&[&"check", &old, &new]);
        assert_eq!(out.status.code(), Some(1), "{other}: {}", stdout(&out));
    }
}

#[test]
fn only_the_new_sides_allowances_count() {
    let tmp = TempDir::new();
    // The old snapshot accepted the removal; the new one no longer says so.
    let old = write(
        &tmp.0,
        "old.snap",
        &snapshot("x", 1, Mode::Full, v1()).replacen(
            "\nmode full\n",
            &format!("\nmode full\n{ALLOW_ORDER_REF}"),
            1,
        ),
    );
    let new = write(&tmp.0, "new.snap", &without_order_ref("x", ""));
    let out = handoff(&[&"diff", &old, &new]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}

#[test]
fn diff_honours_the_allowances_of_the_new_snapshot() {
    let tmp = TempDir::new();
    let old = write(&tmp.0, "old.snap", &snapshot("x", 1, Mode::Full, v1()));
    let new = write(&tmp.0, "new.snap", &without_order_ref("x", ALLOW_ORDER_REF));
    let out = handoff(&[&"diff", &old, &new]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("allowed[FIELD_REMOVED]: `orderRef` is required by old readers"),
        "{text}"
    );
    assert!(
        text.contains("= note: allowed on purpose: v1 writers retired in \"March\""),
        "{text}"
    );
    let out = handoff(&[&"diff", &old, &new, &"--format=json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compatible"], true);
    assert_eq!(json["findings"][0]["rule"], "FIELD_REMOVED");
    assert_eq!(
        json["findings"][0]["allowed"],
        "v1 writers retired in \"March\""
    );
    // A producer against a consumer: the consumer's (NEW's) allowances count too.
    let out = handoff(&[&"diff", &new, &old, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let consumer = write(
        &tmp.0,
        "consumer.snap",
        &snapshot("x", 1, Mode::Full, v1()).replacen(
            "\nmode full\n",
            &format!(
                "\nmode full\n{}",
                ALLOW_ORDER_REF.replace("FIELD_REMOVED", "REQUIRED_FIELD_NOT_SENT")
            ),
            1,
        ),
    );
    let out = handoff(&[&"diff", &new, &consumer, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("allowed[REQUIRED_FIELD_NOT_SENT]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_unknown_rule_in_an_allow_line_exits_2_naming_the_file_and_line() {
    let tmp = TempDir::new();
    let old = write(&tmp.0, "old.snap", &snapshot("x", 1, Mode::Full, v1()));
    let new = write(
        &tmp.0,
        "new.snap",
        &without_order_ref("x", "allow FIELD_REMOVD field \"orderRef\" reason \"r\"\n"),
    );
    let out = handoff(&[&"diff", &old, &new]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    // After insta's four header lines, the contract and mode lines.
    assert!(err.contains("new.snap:7:7: unknown rule `FIELD_REMOVD` after `allow`; did you mean `FIELD_REMOVED`?"), "{err}");
}

#[test]
fn check_of_a_missing_folder_or_a_bad_snapshot_exits_2() {
    let tmp = TempDir::new();
    let old = tmp.sub("release");
    let out = handoff(&[&"check", &old, &tmp.0.join("nowhere")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nowhere: cannot list the snapshot folder"));

    let new = tmp.sub("today");
    write(&old, "a.v1.snap", &snapshot("a", 1, Mode::Full, v1()));
    write(&new, "a.v1.snap", "root Missing\n");
    let out = handoff(&[&"check", &old, &new]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a.v1.snap:1:6: "), "{}", stderr(&out));
}

#[test]
fn diff_in_check_mode_compares_a_producer_with_a_consumer() {
    let tmp = TempDir::new();
    // The producer sends a u64 amount; the consumer reads a u32 and needs `urgent`.
    let producer = write(&tmp.0, "producer.snap", &snapshot("x", 1, Mode::Full, v1()));
    let consumer = write(
        &tmp.0,
        "consumer.snap",
        &snapshot(
            "x",
            1,
            Mode::Full,
            vec![
                FieldDef::plain("amount", Type::Int(IntKind::U32)),
                FieldDef::plain("urgent", Type::Bool),
            ],
        ),
    );
    let out = handoff(&[&"diff", &producer, &consumer, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("(mode check)"), "{text}");
    assert!(text.contains("error[INT_OUT_OF_RANGE]"), "{text}");
    assert!(text.contains("error[REQUIRED_FIELD_NOT_SENT]"), "{text}");
    assert!(text.contains("(check: writer -> reader)"), "{text}");
    // The other way round the consumer's output is read by the producer's reader.
    let out = handoff(&[&"diff", &consumer, &producer, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[REQUIRED_FIELD_NOT_SENT]: `orderRef`"));
}

/// Garbage of every kind: random bytes, a valid snapshot with bytes overwritten, and a valid
/// snapshot cut short.
fn garbage(valid: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    let len = valid.len();
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        proptest::collection::vec((0..len, any::<u8>()), 1..5).prop_map(move |edits| {
            let mut bytes = valid.to_vec();
            for (at, byte) in edits {
                bytes[at] = byte;
            }
            bytes
        }),
        (0..len).prop_map(move |end| valid[..end].to_vec()),
    ]
}

#[test]
fn garbage_files_exit_2_naming_the_file_and_line_never_a_panic() {
    let tmp = TempDir::new();
    let valid: &'static str = Box::leak(snapshot("x", 1, Mode::Full, v1()).into_boxed_str());
    let good = write(&tmp.0, "good.snap", valid);
    let bad = tmp.0.join("bad.snap");
    let unusable = std::cell::Cell::new(0);
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&garbage(valid.as_bytes()), |bytes| {
            std::fs::write(&bad, &bytes).unwrap();
            let out = handoff(&[&"diff", &good, &bad]);
            let err = String::from_utf8_lossy(&out.stderr);
            prop_assert!(!err.contains("panicked"), "{}", err);
            match out.status.code() {
                // A cut or an edit may leave a valid snapshot.
                Some(0 | 1) => prop_assert!(err.is_empty(), "{}", err),
                Some(2) => {
                    unusable.set(unusable.get() + 1);
                    let located = err
                        .strip_prefix(&format!("error: {}:", bad.display()))
                        .and_then(|rest| rest.split_once(':'))
                        .is_some_and(|(line, _)| line.parse::<usize>().is_ok_and(|l| l >= 1));
                    prop_assert!(located, "no file and line in {}", err);
                    prop_assert!(out.stdout.is_empty());
                }
                other => prop_assert!(false, "exit status {:?}: {}", other, err),
            }
            Ok(())
        })
        .unwrap();
    let unusable = unusable.get();
    assert!(
        unusable >= 32,
        "only {unusable} of 64 garbage files were rejected"
    );

    // The same in a folder, through `handoff check`.
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    write(&old, "x.v1.snap", valid);
    std::fs::write(new.join("x.v1.snap"), b"\xff\xfe\x00\x01 binary").unwrap();
    let out = handoff(&[&"check", &old, &new]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:1:1: not UTF-8 text",
            new.join("x.v1.snap").display()
        )),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_path_never_a_panic() {
    use std::os::unix::ffi::OsStringExt;
    let tmp = TempDir::new();
    let good = write(&tmp.0, "good.snap", &snapshot("x", 1, Mode::Full, v1()));
    let missing = tmp
        .0
        .join(std::ffi::OsString::from_vec(b"missing-\xff.snap".to_vec()));
    let out = handoff(&[&"diff", &good, &missing]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("missing-\u{fffd}.snap: cannot read the snapshot"),
        "{err}"
    );
}

/// A snapshot this repository publishes: `refund-request/v2`, whose `orderId` the receiver
/// also reads under its alias `orderRef`.
fn repository_snapshot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/contracts/refund-request.v2.snap")
}

/// The exported document, checked against the 2020-12 meta-schema and compiled.
fn exported(out: &Output) -> (serde_json::Value, jsonschema::Validator) {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    assert!(out.stderr.is_empty(), "{}", stderr(out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    jsonschema::draft202012::meta::validate(&json).unwrap();
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&json)
        .unwrap();
    (json, validator)
}

#[test]
fn json_schema_prints_either_view_of_a_snapshot() {
    use contract_schema::json_schema::{to_json_schema, View, DRAFT_2020_12};

    let path = repository_snapshot();
    let schema = contract_schema::snapshot::read(&path).unwrap();
    let sent = serde_json::json!({
        "category": "damaged",
        "orderId": "A-1",
        "amountCents": 1250
    });
    let by_old_name = serde_json::json!({
        "category": "damaged",
        "orderRef": "A-1",
        "amountCents": 1250
    });

    let receiver = handoff(&[&"json-schema", &path]);
    let (json, validator) = exported(&receiver);
    assert_eq!(json["$schema"], DRAFT_2020_12);
    assert_eq!(json["x-handoff-contract"], "refund-request/v2");
    assert_eq!(json["x-handoff-view"], "receiver");
    assert_eq!(json, to_json_schema(&schema, View::Receiver));
    assert!(validator.is_valid(&sent));
    // The receiver reads the alias; a missing required field is refused.
    assert!(validator.is_valid(&by_old_name));
    assert!(!validator.is_valid(&serde_json::json!({"category": "damaged", "orderId": "A-1"})));
    // Pretty, one line per key, ending in a newline.
    let text = stdout(&receiver);
    assert!(text.starts_with("{\n  \""), "{text}");
    assert!(text.ends_with("}\n"), "{text}");

    let explicit = handoff(&[&"json-schema", &"--view", &"receiver", &path]);
    assert_eq!(explicit.stdout, receiver.stdout);

    let sender = handoff(&[&"json-schema", &path, &"--view=sender"]);
    let (json, validator) = exported(&sender);
    assert_eq!(json["x-handoff-contract"], "refund-request/v2");
    assert_eq!(json["x-handoff-view"], "sender");
    assert_eq!(json, to_json_schema(&schema, View::Sender));
    assert!(validator.is_valid(&sent));
    // The sender writes only the current name.
    assert!(!validator.is_valid(&by_old_name));
}

#[test]
fn json_schema_of_a_temporary_snapshot_to_a_file() {
    let tmp = TempDir::new();
    let snap = write(&tmp.0, "x.v1.snap", &snapshot("x", 1, Mode::Full, v1()));
    let file = tmp.0.join("x.schema.json");
    let out = handoff(&[&"json-schema", &snap, &"--out", &file, &"--view", &"sender"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let written = std::fs::read(&file).unwrap();
    // The file holds exactly what stdout would.
    assert_eq!(
        written,
        handoff(&[&"json-schema", &snap, &"--view", &"sender"]).stdout
    );
    let json: serde_json::Value = serde_json::from_slice(&written).unwrap();
    assert_eq!(json["x-handoff-contract"], "x/v1");
    assert_eq!(json["x-handoff-mode"], "full");
    assert_eq!(json["x-handoff-view"], "sender");
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&json)
        .unwrap();
    assert!(validator.is_valid(&serde_json::json!({"orderRef": "A-1", "amount": 3})));
    assert!(!validator.is_valid(&serde_json::json!({"orderRef": "A-1", "amount": -3})));
    assert!(!validator.is_valid(&serde_json::json!({"orderRef": "A-1"})));

    // An existing file is replaced, in the other view.
    let out = handoff(&[&"json-schema", &snap, &format!("--out={}", file.display())]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(json["x-handoff-view"], "receiver");
}

#[test]
fn json_schema_without_annotations_validates_as_the_annotated_export() {
    use contract_schema::json_schema::{without_annotations, ANNOTATIONS};

    let path = repository_snapshot();
    for view in ["receiver", "sender"] {
        let annotated = handoff(&[&"json-schema", &path, &"--view", &view]);
        let plain = handoff(&[&"json-schema", &path, &"--view", &view, &"--no-annotations"]);
        let (annotated, _) = exported(&annotated);
        let (json, validator) = exported(&plain);
        assert_eq!(json, without_annotations(annotated.clone()));
        // No annotation anywhere in the text, and the annotated export had some.
        let text = stdout(&plain);
        assert!(ANNOTATIONS.iter().all(|key| !text.contains(key)), "{text}");
        assert_ne!(json, annotated);
        let sent =
            serde_json::json!({"category": "damaged", "orderId": "A-1", "amountCents": 1250});
        assert!(validator.is_valid(&sent));
        assert!(!validator.is_valid(&serde_json::json!({"category": "damaged", "orderId": "A-1"})));
    }
}

#[test]
fn json_schema_usage_errors_and_unreadable_input_exit_2() {
    let tmp = TempDir::new();
    let good = write(&tmp.0, "good.snap", &snapshot("x", 1, Mode::Full, v1()));

    let out = handoff(&[&"json-schema", &good, &"--view", &"both"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: invalid value 'both' for '--view <VIEW>'"),
        "{err}"
    );
    assert!(err.contains("[possible values: sender, receiver]"), "{err}");
    assert!(out.stdout.is_empty());

    for args in [
        vec!["json-schema"],
        vec!["json-schema", "a.snap", "b.snap"],
        vec!["json-schema", "a.snap", "--format", "json"],
        vec!["json-schema", "a.snap", "--out"],
        vec!["diff", "a.snap", "b.snap", "--view", "sender"],
    ] {
        let argv: Vec<&dyn AsRef<std::ffi::OsStr>> = args
            .iter()
            .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
            .collect();
        let out = handoff(&argv);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("error: "), "{args:?}");
        assert!(stderr(&out).contains("try '--help'"), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }

    let missing = tmp.0.join("missing.snap");
    let out = handoff(&[&"json-schema", &missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: {}: cannot read the snapshot",
            missing.display()
        )),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());

    let bad = write(
        &tmp.0,
        "bad.snap",
        "---\nsource: src/lib.rs\n---\nroot Payload\n\nstruct Payload\n  rust \"app::Payload\"\n  unknwon ignore\n",
    );
    let file = tmp.0.join("bad.json");
    let out = handoff(&[&"json-schema", &bad, &"--out", &file]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("error: {}:8:", bad.display())),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(
        !file.exists(),
        "nothing is written for an unreadable snapshot"
    );

    // An output file in a folder that does not exist: named, exit 2.
    let nowhere = tmp.0.join("nowhere").join("x.json");
    let out = handoff(&[&"json-schema", &good, &"--out", &nowhere]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: {}: cannot write the JSON Schema",
            nowhere.display()
        )),
        "{}",
        stderr(&out)
    );
}

// ----- `diff --mode check` with a peer's JSON Schema on either side ------------------------------
// (contract_schema::json_schema::import: a producer's schema read as a sender view, a
// consumer's as a receiver view)

/// A pydantic producer of `Payload` (`orderRef: str`, `amount: int >= 0`), as
/// `model_json_schema(mode="serialization")` writes it: no `$schema`, a `title` per property,
/// and `note`, whose `default` is written but not listed as required.
fn pydantic_producer(required: &[&str]) -> String {
    serde_json::json!({
        "title": "Payload",
        "type": "object",
        "properties": {
            "orderRef": {"title": "Orderref", "type": "string"},
            "amount": {"title": "Amount", "type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Note"}
        },
        "required": required,
        "additionalProperties": false
    })
    .to_string()
}

#[test]
fn diff_check_reads_a_producers_json_schema_and_prints_its_warnings() {
    let tmp = TempDir::new();
    let producer = write(
        &tmp.0,
        "producer.json",
        &pydantic_producer(&["orderRef", "amount"]),
    );
    let consumer = write(&tmp.0, "consumer.snap", &snapshot("p", 1, Mode::Full, v1()));
    let out = handoff(&[&"diff", &producer, &consumer, &"--mode", &"check"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {}: #/properties/note/default: `note` has a `default` but is not required: read as written only when present; a producer that always writes it (pydantic's serialization schema with `json_schema_serialization_defaults_required=True`) lists it as required\n",
            producer.display()
        )
    );
    assert!(stdout(&out).contains("(mode check)"), "{}", stdout(&out));

    // The producer may omit `orderRef`, which the consumer requires: a break, exit 1.
    let omits = write(&tmp.0, "omits.json", &pydantic_producer(&["amount"]));
    let out = handoff(&[&"diff", &omits, &consumer, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("error[REQUIRED_FIELD_MAY_BE_OMITTED]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn diff_check_reads_a_consumers_json_schema_and_its_json_output_lists_the_warnings() {
    let tmp = TempDir::new();
    let producer = write(&tmp.0, "producer.snap", &snapshot("p", 1, Mode::Full, v1()));
    // A zod consumer that also requires `reason`, which the producer never sends, and
    // carries a keyword the import does not know.
    let consumer = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "orderRef": {"type": "string"},
            "amount": {"type": "integer", "minimum": 0},
            "reason": {"type": "string", "x-zod-brand": "Reason", "frobnicate": true}
        },
        "required": ["orderRef", "amount", "reason"]
    });
    let consumer = write(&tmp.0, "consumer.json", &consumer.to_string());
    let out = handoff(&[
        &"diff",
        &producer,
        &consumer,
        &"--mode",
        &"check",
        &"--format",
        &"json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "JSON output keeps stderr quiet: {}",
        stderr(&out)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["mode"], "check");
    assert_eq!(doc["compatible"], false);
    let rules: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["REQUIRED_FIELD_NOT_SENT"]);
    assert_eq!(
        doc["warnings"],
        serde_json::json!([{
            "file": consumer.display().to_string(),
            "pointer": "/properties/reason/frobnicate",
            "message": "unknown keyword `frobnicate` ignored"
        }])
    );
    // A snapshot pair has no `warnings` key at all.
    let out = handoff(&[
        &"diff",
        &producer,
        &producer,
        &"--mode",
        &"check",
        &"--format",
        &"json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc.get("warnings").is_none(), "{doc}");
}

#[test]
fn diff_check_of_a_json_schema_against_the_snapshot_it_was_exported_from_is_compatible() {
    let tmp = TempDir::new();
    let snap = repository_snapshot();
    for (view, producer_first) in [("sender", true), ("receiver", false)] {
        let json = tmp.0.join(format!("{view}.json"));
        let out = handoff(&[&"json-schema", &snap, &"--view", &view, &"--out", &json]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out = if producer_first {
            handoff(&[&"diff", &json, &snap, &"--mode", &"check"])
        } else {
            handoff(&[&"diff", &snap, &json, &"--mode", &"check"])
        };
        assert_eq!(
            out.status.code(),
            Some(0),
            "{view}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert!(out.stderr.is_empty(), "{view}: {}", stderr(&out));
    }
}

#[test]
fn diff_with_a_json_schema_outside_check_mode_or_refused_exits_2() {
    let tmp = TempDir::new();
    let json = write(&tmp.0, "peer.json", &pydantic_producer(&["orderRef"]));
    let snap = write(&tmp.0, "peer.snap", &snapshot("p", 1, Mode::Full, v1()));
    for mode in [None, Some("full"), Some("backward")] {
        let out = match mode {
            None => handoff(&[&"diff", &json, &snap]),
            Some(m) => handoff(&[&"diff", &snap, &json, &"--mode", &m]),
        };
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        let err = stderr(&out);
        assert!(err.contains("only with `--mode check`"), "{err}");
        assert!(err.contains("Usage: handoff diff"), "{err}");
    }
    // A consumer's bound on a number cannot be dropped: refused, with its pointer.
    let bounded = write(
        &tmp.0,
        "bounded.json",
        r#"{"type": "object", "properties": {"amount": {"type": "number", "minimum": 0}}}"#,
    );
    let out = handoff(&[&"diff", &snap, &bounded, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: {}: #/properties/amount/minimum: ",
            bounded.display()
        )),
        "{}",
        stderr(&out)
    );
    // Not JSON: the file, line and column, not its contents.
    let broken = write(&tmp.0, "broken.json", "{\n  \"type\": secret\n}");
    let out = handoff(&[&"diff", &broken, &snap, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("error: {}:2:", broken.display())),
        "{err}"
    );
    assert!(!err.contains("secret"), "{err}");
    // Missing: named.
    let missing = tmp.0.join("missing.json");
    let out = handoff(&[&"diff", &missing, &snap, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(&format!("error: {}: cannot read", missing.display())));
}

// ----- CI against a git ref: `check --against`, `--format github` ------------------------
//
// Each test makes a temporary git repository (user set locally, no signing), commits a
// `contracts/` folder, then changes it in a second commit or in the working tree.

/// `git ARGS` in `dir`, isolated from any repository or configuration around the test.
fn git_in(dir: &Path, args: &[&str]) {
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
}

/// A repository in `dir` whose first commit holds `files` (path from the root, contents).
fn repository(dir: &Path, files: &[(&str, &str)]) {
    git_in(dir, &["init", "-q", "-b", "main"]);
    git_in(dir, &["config", "user.name", "handoff test"]);
    git_in(dir, &["config", "user.email", "handoff@example.invalid"]);
    git_in(dir, &["config", "commit.gpgsign", "false"]);
    commit(dir, files, "first");
}

/// Writes `files` and commits them.
fn commit(dir: &Path, files: &[(&str, &str)], message: &str) {
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    git_in(dir, &["add", "-A"]);
    git_in(dir, &["commit", "-q", "-m", message]);
}

/// `handoff ARGS` run from `dir`, isolated as `git_in` is.
fn handoff_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_handoff"))
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap()
}

#[test]
fn check_against_a_ref_of_a_compatible_change_exits_0() {
    let tmp = TempDir::new();
    let repo = tmp.sub("repo");
    let v1_text = snapshot("order", 1, Mode::Full, v1());
    repository(&repo, &[("contracts/order.v1.snap", &v1_text)]);
    // In the working tree, uncommitted: an optional field added, and a new folder.
    let mut fields = v1();
    fields.push(FieldDef::plain("note", Type::Option(Box::new(string()))));
    write(
        &repo.join("contracts"),
        "order.v1.snap",
        &snapshot("order", 1, Mode::Full, fields),
    );
    let more = tmp.sub("repo/more");
    write(
        &more,
        "ping.v1.snap",
        &snapshot("ping", 1, Mode::Full, v1()),
    );

    let out = handoff_in(&repo, &["check", "--against", "HEAD", "contracts", "more"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("handoff check HEAD:contracts -> contracts"),
        "{text}"
    );
    assert!(text.contains("order/v1 (mode full): compatible"), "{text}");
    // `more` is missing at HEAD: its contracts are new, nothing to break.
    assert!(text.contains("ping/v1: new"), "{text}");

    // The same with the default folder, in JSON.
    let out = handoff_in(&repo, &["check", "--against=HEAD", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["against"], "HEAD");
    assert_eq!(json["compatible"], true);
    assert_eq!(json["folders"][0]["new"], "contracts");
    assert_eq!(json["folders"][0]["contracts"][0]["status"], "compatible");
}

#[test]
fn check_against_a_ref_annotates_a_removed_required_field_on_its_structs_line() {
    let tmp = TempDir::new();
    let repo = tmp.sub("repo");
    // The contracts of a crate in a subfolder of the repository, run from that crate.
    let v1_text = snapshot("order", 1, Mode::Full, v1());
    repository(&repo, &[("app/contracts/order.v1.snap", &v1_text)]);
    // Second commit: `amount`, which old readers require, removed.
    let removed = snapshot(
        "order",
        1,
        Mode::Full,
        vec![FieldDef::plain("orderRef", string())],
    );
    commit(
        &repo,
        &[("app/contracts/order.v1.snap", &removed)],
        "second",
    );
    // The struct's line in the new snapshot, as the file has it.
    let struct_line = removed.lines().position(|l| l == "struct Payload").unwrap() + 1;
    assert_eq!(
        struct_line, 9,
        "insta's 4 header lines, contract, mode, root, blank"
    );

    let out = handoff_in(
        &repo.join("app"),
        &["check", "--against", "HEAD~1", "--format", "github"],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    let error = text
        .lines()
        .find(|l| l.starts_with("::error "))
        .unwrap_or_else(|| panic!("no annotation in {text}"));
    // The file from the repository's root, for GitHub to place it; the struct's line.
    assert!(
        error.starts_with("::error file=app/contracts/order.v1.snap,line=9,title=FIELD_REMOVED::"),
        "{error}"
    );
    assert!(error.contains("`amount`"), "{error}");
    assert!(error.contains("; "), "why; hint: {error}");
    assert!(
        text.ends_with("handoff check HEAD~1:app/contracts -> contracts: 1 contract version checked: 1 breaking\n"),
        "{text}"
    );

    // `diff` of the two files, the old one from the first commit: the file as given.
    let old = write(&tmp.0, "old.snap", &v1_text);
    let out = handoff_in(
        &repo.join("app"),
        &[
            "diff",
            old.to_str().unwrap(),
            "contracts/order.v1.snap",
            "--format",
            "github",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .starts_with("::error file=contracts/order.v1.snap,line=9,title=FIELD_REMOVED::"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_allowed_finding_is_a_warning_and_a_removed_snapshot_an_error_on_its_old_file() {
    let tmp = TempDir::new();
    let repo = tmp.sub("repo");
    let v1_text = snapshot("order", 1, Mode::Full, v1());
    let gone = snapshot("gone", 1, Mode::Full, v1());
    repository(
        &repo,
        &[
            ("contracts/order.v1.snap", &v1_text),
            ("contracts/gone.v1.snap", &gone),
        ],
    );
    std::fs::remove_file(repo.join("contracts/gone.v1.snap")).unwrap();
    write(
        &repo.join("contracts"),
        "order.v1.snap",
        &without_order_ref("order", ALLOW_ORDER_REF),
    );
    let out = handoff_in(&repo, &["check", "--against", "main", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    // GitHub files an annotation only with a file: the removed snapshot's, as it was.
    assert!(
        text.lines().any(|l| l.starts_with(
            "::error file=contracts/gone.v1.snap,title=PUBLISHED_VERSION_REMOVED::`gone/v1`"
        )),
        "{text}"
    );
    // The allow line pushes the struct one line down: line 10; the message starts with the
    // finding's path.
    assert!(
        text.lines().any(|l| l.starts_with(
            "::warning file=contracts/order.v1.snap,line=10,title=FIELD_REMOVED::`orderRef`: "
        ) && l.contains("allowed on purpose")),
        "{text}"
    );
}

/// `orderRef` renamed `orderId` with no alias: one field removed and one added, the same
/// rule in both directions on one line, one annotation naming both.
#[test]
fn a_rename_is_one_annotation_naming_both_fields() {
    let tmp = TempDir::new();
    let old = tmp.sub("release");
    let new = tmp.sub("today");
    write(
        &old,
        "order.v1.snap",
        &snapshot("order", 1, Mode::Full, v1()),
    );
    let mut renamed = v1();
    renamed[0] = FieldDef::plain("orderId", string());
    let renamed = snapshot("order", 1, Mode::Full, renamed);
    let new_file = write(&new, "order.v1.snap", &renamed);
    let out = handoff(&[&"check", &old, &new, &"--format", &"github"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    let field_line = renamed
        .lines()
        .position(|l| l.trim_start().starts_with("field orderId"))
        .unwrap()
        + 1;
    assert!(
        errors[0].starts_with(&format!(
            "::error file={},line={field_line},title=FIELD_LIKELY_RENAMED::`orderId`: ",
            new_file.display()
        )),
        "{text}"
    );
    for part in ["(backward)", "(forward)", "`orderRef`", "likely a rename"] {
        assert!(errors[0].contains(part), "{part}: {text}");
    }
    // The text report keeps both findings.
    let out = handoff(&[&"check", &old, &new]);
    assert_eq!(
        stdout(&out).matches("error[FIELD_LIKELY_RENAMED]").count(),
        2
    );
}

/// A consumer's JSON Schema has no lines: its findings still name its file, and in a
/// removed snapshot of `check OLD_DIR NEW_DIR`, the old file.
#[test]
fn annotations_without_a_line_still_name_a_file() {
    let tmp = TempDir::new();
    let producer = write(&tmp.0, "producer.snap", &snapshot("p", 1, Mode::Full, v1()));
    let consumer = serde_json::json!({
        "type": "object",
        "properties": {"orderRef": {"type": "string"}, "reason": {"type": "string"}},
        "required": ["orderRef", "reason"]
    });
    let consumer = write(&tmp.0, "consumer.json", &consumer.to_string());
    let out = handoff(&[
        &"diff",
        &producer,
        &consumer,
        &"--mode",
        &"check",
        &"--format",
        &"github",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).lines().any(|l| l.starts_with(&format!(
            "::error file={},title=REQUIRED_FIELD_NOT_SENT::`reason`: ",
            consumer.display()
        ))),
        "{}",
        stdout(&out)
    );

    let old = tmp.sub("release");
    let new = tmp.sub("today");
    let gone = write(&old, "gone.v1.snap", &snapshot("gone", 1, Mode::Full, v1()));
    let out = handoff(&[&"check", &old, &new, &"--format", &"github"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!(
            "::error file={},title=PUBLISHED_VERSION_REMOVED::",
            gone.display()
        )),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_against_an_unknown_ref_exits_2_saying_what_a_shallow_clone_needs() {
    let tmp = TempDir::new();
    let repo = tmp.sub("repo");
    let v1_text = snapshot("order", 1, Mode::Full, v1());
    repository(&repo, &[("contracts/order.v1.snap", &v1_text)]);
    let out = handoff_in(&repo, &["check", "--against", "origin/main"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("unknown git ref `origin/main`"), "{err}");
    assert!(err.contains("fetch-depth: 0"), "{err}");
    assert!(stdout(&out).is_empty());
}

/// The guide's CI recipe (`contract-core/src/guide/ci.md`), `handoff check --against BASE
/// --format github`, as its workflow runs it: `BASE` the pull request's base commit.
fn guide_ci_command(base: &str) -> Vec<String> {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../contract-core/src/guide/ci.md"),
    )
    .unwrap();
    let line = page
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("- run: handoff check --against"))
        .expect("the guide's workflow runs `handoff check --against`");
    let command = line
        .strip_prefix("- run: handoff ")
        .unwrap()
        .replace("${{ github.event.pull_request.base.sha }}", base);
    assert!(!command.contains("${{"), "{command}");
    command.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn the_guide_ci_recipe_checks_every_crate_of_a_workspace_against_the_base() {
    let tmp = TempDir::new();
    let repo = tmp.sub("repo");
    let order = snapshot("order", 1, Mode::Full, v1());
    let ping = snapshot("ping", 1, Mode::Full, v1());
    let invoice = snapshot("invoice", 1, Mode::Full, v1());
    repository(
        &repo,
        &[
            (
                "Cargo.toml",
                "[workspace]\nresolver = \"2\"\nmembers = [\"crates/*\"]\n",
            ),
            (
                "crates/orders/Cargo.toml",
                "[package]\nname = \"orders\"\nversion = \"0.1.0\"\n\n[package.metadata.handoff]\nsnapshots = [\"contracts\", \"published\"]\n",
            ),
            ("crates/orders/contracts/order.v1.snap", &order),
            ("crates/orders/published/ping.v1.snap", &ping),
            (
                "crates/billing/Cargo.toml",
                "[package]\nname = \"billing\"\nversion = \"0.1.0\"\n",
            ),
            ("crates/billing/contracts/invoice.v1.snap", &invoice),
            // A crate with no snapshots at all: nothing to check, no error.
            ("crates/docs/Cargo.toml", "[package]\nname = \"docs\"\n"),
        ],
    );
    let base = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let base = String::from_utf8(base.stdout).unwrap().trim().to_owned();
    // The pull request: `amount` gone from billing's invoice, an optional field added to
    // the order.
    let mut more = v1();
    more.push(FieldDef::plain("note", Type::Option(Box::new(string()))));
    let broken = snapshot(
        "invoice",
        1,
        Mode::Full,
        vec![FieldDef::plain("orderRef", string())],
    );
    commit(
        &repo,
        &[
            (
                "crates/orders/contracts/order.v1.snap",
                &snapshot("order", 1, Mode::Full, more),
            ),
            ("crates/billing/contracts/invoice.v1.snap", &broken),
        ],
        "pull request",
    );

    let args = guide_ci_command(&base);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = handoff_in(&repo, &args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.lines().any(|l| l.starts_with(
            "::error file=crates/billing/contracts/invoice.v1.snap,line=9,title=FIELD_REMOVED::"
        )),
        "{text}"
    );
    for summary in [
        format!("handoff check {base}:crates/billing/contracts -> crates/billing/contracts: 1 contract version checked: 1 breaking"),
        format!("handoff check {base}:crates/orders/contracts -> crates/orders/contracts: 1 contract version checked: compatible"),
        format!("handoff check {base}:crates/orders/published -> crates/orders/published: 1 contract version checked: compatible"),
    ] {
        assert!(text.contains(&summary), "{summary}\n{text}");
    }
    assert!(!text.contains("crates/docs"), "{text}");
    assert_eq!(text.matches("handoff check ").count(), 3, "{text}");

    // Fixed in the working tree: every folder compatible, exit 0.
    write(
        &repo.join("crates/billing/contracts"),
        "invoice.v1.snap",
        &invoice,
    );
    let out = handoff_in(&repo, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));

    // A folder the metadata lists that is nowhere is a mistake, named.
    write(
        &repo.join("crates/orders"),
        "Cargo.toml",
        "[package]\nname = \"orders\"\n[package.metadata.handoff]\nsnapshots = [\"contracts\", \"publshed\"]\n",
    );
    let out = handoff_in(&repo, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("crates/orders/publshed: cannot list the snapshot folder"),
        "{}",
        stderr(&out)
    );
}

// ----- The workflow: record-deployment, can-i-deploy, graph ---------------------------------
// (a `handoff.toml` at the root of a repository the test makes; the store in `.handoff/`,
// which the repository ignores)

const WORKFLOW: &str = r#"[agents.triage-agent]
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

/// A pydantic-like producer schema of the escalation peer.
fn escalation_peer(required: &[&str]) -> String {
    serde_json::json!({
        "type": "object",
        "properties": {"ticket": {"type": "string"}, "reason": {"type": "string"}},
        "required": required
    })
    .to_string()
}

/// The workflow's repository at its first commit, tagged `v1`, every agent recorded in
/// `production` at `v1` through the command line.
fn workflow_repository(tmp: &TempDir) -> PathBuf {
    let repo = tmp.sub("repo");
    let escalation = snapshot(
        "escalation",
        1,
        Mode::Full,
        vec![
            FieldDef::plain("ticket", string()),
            FieldDef::plain("reason", string()),
        ],
    );
    let refund = snapshot("refund-request", 1, Mode::Full, v1());
    repository(
        &repo,
        &[
            (".gitignore", ".handoff/\n"),
            ("handoff.toml", WORKFLOW),
            ("triage/contracts/refund-request.v1.snap", &refund),
            ("triage/contracts/escalation.v1.snap", &escalation),
            ("refund/contracts/refund-request.v1.snap", &refund),
            (
                "peers/escalation.json",
                &escalation_peer(&["ticket", "reason"]),
            ),
        ],
    );
    git_in(&repo, &["tag", "v1"]);
    for agent in ["triage-agent", "refund-specialist", "escalation-agent"] {
        let out = handoff_in(
            &repo,
            &[
                "record-deployment",
                agent,
                "--version",
                "v1",
                "--env",
                "production",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with(&format!("recorded: {agent} at v1 (")),
            "{}",
            stdout(&out)
        );
    }
    assert!(repo.join(".handoff/deployments.sqlite").is_file());
    repo
}

#[test]
fn can_i_deploy_a_compatible_version_exits_0_and_a_breaking_one_1_naming_the_edge_and_rule() {
    let tmp = TempDir::new();
    let repo = workflow_repository(&tmp);
    // Second commit: an optional field more. Compatible with what runs.
    let mut more = v1();
    more.push(FieldDef::plain("note", Type::Option(Box::new(string()))));
    commit(
        &repo,
        &[(
            "triage/contracts/refund-request.v1.snap",
            &snapshot("refund-request", 1, Mode::Full, more),
        )],
        "note",
    );
    let ask = |format: &str| {
        handoff_in(
            &repo,
            &[
                "can-i-deploy",
                "triage-agent",
                "--version",
                "HEAD",
                "--to",
                "production",
                "--format",
                format,
            ],
        )
    };
    let out = ask("text");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.starts_with("can-i-deploy triage-agent at HEAD to production: yes (2 edges)"),
        "{text}"
    );
    // The matrix: one row per edge, each side's version and the contract major read there.
    assert!(text.contains("FROM"), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("triage-agent "))
        .unwrap_or_else(|| panic!("no row in {text}"));
    let cells: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells,
        [
            "triage-agent",
            "refund-specialist",
            "refund-request",
            "HEAD (v1)",
            "v1 (v1)",
            "ok"
        ],
        "{text}"
    );
    assert!(text.contains("v1 (JSON Schema)"), "{text}");

    // Third commit: `amount`, which the deployed specialist requires, no longer sent.
    commit(
        &repo,
        &[(
            "triage/contracts/refund-request.v1.snap",
            &snapshot(
                "refund-request",
                1,
                Mode::Full,
                vec![FieldDef::plain("orderRef", string())],
            ),
        )],
        "drop amount",
    );
    let out = ask("text");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("triage-agent -> refund-specialist (refund-request): breaks"),
        "{text}"
    );
    assert!(
        text.contains("error[REQUIRED_FIELD_NOT_SENT]: `amount`"),
        "{text}"
    );

    let out = ask("json");
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["deployable"], false);
    let edge = &json["edges"][0];
    let mut keys: Vec<&str> = edge
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["contract", "findings", "from", "to", "verdict", "versions"]
    );
    assert_eq!(edge["from"], "triage-agent");
    assert_eq!(edge["to"], "refund-specialist");
    assert_eq!(edge["contract"], "refund-request");
    assert_eq!(
        edge["versions"],
        serde_json::json!({"triage-agent": "HEAD", "refund-specialist": "v1"})
    );
    assert_eq!(edge["verdict"], "breaks");
    assert_eq!(
        edge["findings"],
        serde_json::json!([{
            "rule": "REQUIRED_FIELD_NOT_SENT",
            "path": "amount",
            "why": edge["findings"][0]["why"].clone()
        }])
    );
    assert_eq!(json["edges"][1]["verdict"], "ok");

    // GitHub: the error on the edge's line of the manifest (its `[[edges]]`, line 10).
    let out = ask("github");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.lines().any(|l| l.starts_with(
            "::error file=handoff.toml,line=10,title=REQUIRED_FIELD_NOT_SENT::triage-agent -> refund-specialist (refund-request): `amount`: "
        )),
        "{text}"
    );
    assert!(
        text.ends_with("to production: no (2 edges, 1 breaking)\n"),
        "{text}"
    );
}

#[test]
fn can_i_deploy_to_an_environment_with_nothing_recorded_is_unknown_and_exits_1() {
    let tmp = TempDir::new();
    let repo = workflow_repository(&tmp);
    let out = handoff_in(
        &repo,
        &[
            "can-i-deploy",
            "escalation-agent",
            "--version",
            "v1",
            "--to",
            "staging",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["deployable"], false);
    assert_eq!(json["edges"].as_array().unwrap().len(), 1);
    assert_eq!(json["edges"][0]["verdict"], "unknown");
    assert_eq!(json["edges"][0]["findings"], serde_json::json!([]));
    // A store never written: everything is unknown, nothing is made.
    let out = handoff_in(
        &repo,
        &[
            "can-i-deploy",
            "triage-agent",
            "--version",
            "v1",
            "--to",
            "production",
            "--store",
            "elsewhere.sqlite",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("unknown: refund-specialist has no deployment in production"),
        "{}",
        stdout(&out)
    );
    assert!(!repo.join("elsewhere.sqlite").exists());
}

#[test]
fn a_peers_json_schema_decides_its_edges_from_the_command_line() {
    let tmp = TempDir::new();
    let repo = workflow_repository(&tmp);
    // The peer's next version may omit `reason`, which triage requires.
    commit(
        &repo,
        &[("peers/escalation.json", &escalation_peer(&["ticket"]))],
        "reason optional",
    );
    let out = handoff_in(
        &repo,
        &[
            "can-i-deploy",
            "escalation-agent",
            "--version",
            "main",
            "--to",
            "production",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("escalation-agent -> triage-agent (escalation): breaks"),
        "{text}"
    );
    assert!(
        text.contains("error[REQUIRED_FIELD_MAY_BE_OMITTED]"),
        "{text}"
    );
}

#[test]
fn the_workflow_commands_exit_2_on_bad_input_with_a_located_line() {
    let tmp = TempDir::new();
    let repo = workflow_repository(&tmp);
    let run = |args: &[&str]| {
        let out = handoff_in(&repo, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
        stderr(&out)
    };
    let deploy = |agent: &'static str, version: &'static str| {
        [
            "can-i-deploy",
            agent,
            "--version",
            version,
            "--to",
            "production",
        ]
    };
    let err = run(&deploy("triage-agent", "v9"));
    assert!(
        err.starts_with("error: agent `triage-agent`: unknown git ref `v9`"),
        "{err}"
    );
    let err = run(&deploy("nobody", "v1"));
    assert!(
        err.starts_with("error: handoff.toml: no agent `nobody`"),
        "{err}"
    );
    // An edge naming an agent the manifest does not have.
    write(
        &repo,
        "handoff.toml",
        &WORKFLOW.replace("to = \"refund-specialist\"", "to = \"refund-specalist\""),
    );
    let err = run(&deploy("triage-agent", "v1"));
    assert!(
        err.starts_with("error: handoff.toml:12: the edge's `to` names `refund-specalist`, which is no agent of [agents]"),
        "{err}"
    );
    // A contract the agent has no snapshot of.
    write(
        &repo,
        "handoff.toml",
        &WORKFLOW.replace(
            "contract = \"refund-request\"",
            "contract = \"refund-order\"",
        ),
    );
    let err = run(&deploy("triage-agent", "v1"));
    assert!(
        err.starts_with("error: handoff.toml:13: `triage-agent` has no snapshot of `refund-order`"),
        "{err}"
    );
    let err = run(&["graph", "--env", "production"]);
    assert!(err.starts_with("error: handoff.toml:13: "), "{err}");
    // A file that is not there.
    write(
        &repo,
        "handoff.toml",
        &WORKFLOW.replace("peers/escalation.json", "peers/escalate.json"),
    );
    let err = run(&deploy("escalation-agent", "v1"));
    assert!(
        err.starts_with("error: handoff.toml:8: `peers/escalate.json`, the JSON Schema of `escalation-agent`, is not in the repository at `v1`"),
        "{err}"
    );
    let err = run(&[
        "record-deployment",
        "triage-agent",
        "--version",
        "v9",
        "--env",
        "production",
    ]);
    assert!(err.contains("unknown git ref `v9`"), "{err}");
    let err = run(&[
        "record-deployment",
        "triage-agent",
        "--version",
        "v1",
        "--env",
        "production",
        "--store",
        "postgres://app:s3cret@127.0.0.1:1/handoff",
    ]);
    // A PostgreSQL store that cannot be reached: named, without its password.
    assert!(
        err.contains("postgres://app@127.0.0.1:1/handoff (schema handoff): the deployment store"),
        "{err}"
    );
    assert!(!err.contains("s3cret"), "{err}");
    // No manifest at all.
    std::fs::remove_file(repo.join("handoff.toml")).unwrap();
    let err = run(&["graph"]);
    assert!(
        err.starts_with("error: handoff.toml: cannot read the workflow manifest"),
        "{err}"
    );
}

#[test]
fn the_graph_is_mermaid_or_one_html_page_with_every_name_escaped() {
    let tmp = TempDir::new();
    let repo = workflow_repository(&tmp);
    let out = handoff_in(&repo, &["graph"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("flowchart LR\n"), "{text}");
    assert_eq!(text.matches("-->").count(), 2, "{text}");
    assert!(!text.contains("linkStyle"), "{text}");
    let out = handoff_in(&repo, &["graph", "--env", "production"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(text.contains("-->|\"refund-request: ok\"|"), "{text}");
    assert_eq!(text.matches("stroke:#1a7f37").count(), 2, "{text}");

    // An agent named like markup.
    let manifest = format!(
        "{WORKFLOW}\n[agents.\"<script>x</script>\"]\ncontracts = \"refund/contracts\"\n\n[[edges]]\nfrom = \"triage-agent\"\nto = \"<script>x</script>\"\ncontract = \"refund-request\"\n"
    );
    write(&repo, "handoff.toml", &manifest);
    let out = handoff_in(&repo, &["graph", "--format", "html", "--env", "production"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = stdout(&out);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;x&lt;/script&gt;"), "{html}");
    // Self-contained: inline SVG and CSS, nothing fetched.
    assert!(html.contains("<svg") && html.contains("<style>"), "{html}");
    for fetch in ["<link", "src=", "@import", "url(http"] {
        assert!(!html.contains(fetch), "{fetch}: {html}");
    }
    // The new edge's other side was never deployed: grey, unknown.
    assert!(
        html.contains("<td class=\"unknown\">unknown</td>"),
        "{html}"
    );
    let out = handoff_in(&repo, &["graph"]);
    assert!(
        stdout(&out).contains("#lt;script#gt;x#lt;/script#gt;"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn json_schema_in_a_providers_dialect_says_its_narrowings_and_refusals() {
    use contract_schema::json_schema::dialect::{to_dialect, Dialect};

    let path = repository_snapshot();
    let schema = contract_schema::snapshot::read(&path).unwrap();
    // OpenAI strict: every property required, closed objects; what the library writes.
    let out = handoff(&[&"json-schema", &path, &"--dialect", &"openai-strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = to_dialect(&schema, Dialect::OpenAiStrict).expect("exports");
    assert_eq!(json, expected.schema);
    assert_eq!(json["additionalProperties"], false);
    // Each narrowing is a line of stderr with its pointer; none is printed when none is made.
    assert_eq!(
        stderr(&out).lines().count(),
        expected.warnings.len(),
        "{}",
        stderr(&out)
    );
    for warning in &expected.warnings {
        assert!(stderr(&out).contains(&warning.pointer), "{}", stderr(&out));
    }
    // A contract the dialect cannot state: exit 2, one line naming the dialect.
    let tmp = TempDir::new();
    let snap = write(&tmp.0, "x.v1.snap", &snapshot("x", 1, Mode::Full, v1()));
    let refused = handoff(&[&"json-schema", &snap, &"--dialect", &"anthropic"]);
    let direct = to_dialect(
        &contract_schema::snapshot::read(&snap).unwrap(),
        Dialect::Anthropic,
    );
    match direct {
        Ok(_) => assert_eq!(refused.status.code(), Some(0), "{}", stderr(&refused)),
        Err(error) => {
            assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
            assert!(refused.stdout.is_empty());
            let line = stderr(&refused);
            assert_eq!(line.trim_end().lines().count(), 1, "{line}");
            assert!(line.contains("anthropic"), "{line}");
            assert!(line.contains(&error.problems[0].pointer), "{line}");
        }
    }
    // The dialect and a view cannot be asked for together.
    let both = handoff(&[
        &"json-schema",
        &path,
        &"--dialect",
        &"gemini",
        &"--view",
        &"sender",
    ]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}

/// A pydantic producer's plain `int` (`amount`), against a consumer's `u64`.
fn pydantic_plain_int() -> String {
    serde_json::json!({
        "title": "Payload",
        "type": "object",
        "properties": {
            "orderRef": {"title": "Orderref", "type": "string"},
            "amount": {"title": "Amount", "type": "integer"}
        },
        "required": ["orderRef", "amount"],
        "additionalProperties": false
    })
    .to_string()
}

#[test]
fn diff_check_says_a_peers_fix_in_its_terms() {
    let tmp = TempDir::new();
    let producer = write(&tmp.0, "producer.json", &pydantic_plain_int());
    let consumer = write(&tmp.0, "consumer.snap", &snapshot("p", 1, Mode::Full, v1()));
    // `auto` (the default) tells pydantic by its titles.
    let out = handoff(&[&"diff", &producer, &consumer, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("error[INT_OUT_OF_RANGE]"), "{text}");
    assert!(
        text.contains("   = help: keep `amount` within what the consumer reads: `Field(ge=0, le=18446744073709551615)`\n"),
        "{text}"
    );
    // Named on the command line: zod's terms, then the JSON Schema keywords with both.
    let out = handoff(&[
        &"diff", &producer, &consumer, &"--mode", &"check", &"--peer", &"zod",
    ]);
    assert!(
        stdout(&out).contains(
            "= help: keep `amount` within what the consumer reads: `z.number().int().min(0)`\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = handoff(&[
        &"diff",
        &producer,
        &consumer,
        &"--mode",
        &"check",
        &"--peer",
        &"json-schema",
        &"--format",
        &"json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = &doc["findings"][0];
    assert_eq!(finding["rule"], "INT_OUT_OF_RANGE");
    assert_eq!(
        finding["hint"],
        "keep `amount` within what the consumer reads: `\"minimum\": 0, \"maximum\": 18446744073709551615` (pydantic: `Field(ge=0, le=18446744073709551615)`; zod: `z.number().int().min(0)`)"
    );
    assert_eq!(finding["fix"], serde_json::json!({"kind": "described"}));

    // A consumer's side: a zod `.strict()` object without `note`, told to drop `.strict()`.
    let producer = write(
        &tmp.0,
        "producer.snap",
        &snapshot(
            "p",
            1,
            Mode::Full,
            vec![
                FieldDef::plain("orderRef", string()),
                FieldDef::plain("note", string()),
            ],
        ),
    );
    let strict = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"orderRef": {"type": "string"}},
        "required": ["orderRef"],
        "additionalProperties": false
    });
    let strict = write(&tmp.0, "strict.json", &strict.to_string());
    let out = handoff(&[
        &"diff", &producer, &strict, &"--mode", &"check", &"--peer", &"zod",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("= help: accept the keys the producer writes beside the declared fields at `note`: drop `.strict()` (a plain `z.object` strips unknown keys), or declare `note`\n"),
        "{}",
        stdout(&out)
    );
    // An unknown peer name is a usage error that lists the names.
    let out = handoff(&[
        &"diff", &producer, &strict, &"--mode", &"check", &"--peer", &"msgspec",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pydantic"), "{}", stderr(&out));
}

#[test]
fn diff_check_of_this_tools_own_export_keeps_rusts_hints() {
    let tmp = TempDir::new();
    let wide = write(
        &tmp.0,
        "wide.snap",
        &snapshot(
            "p",
            1,
            Mode::Full,
            vec![FieldDef::plain("amount", Type::Int(IntKind::U64))],
        ),
    );
    let narrow = write(
        &tmp.0,
        "narrow.snap",
        &snapshot(
            "p",
            1,
            Mode::Full,
            vec![FieldDef::plain("amount", Type::Int(IntKind::U32))],
        ),
    );
    let export = tmp.0.join("wide.sender.json");
    let out = handoff(&[
        &"json-schema",
        &wide,
        &"--view",
        &"sender",
        &"--out",
        &export,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = handoff(&[&"diff", &export, &narrow, &"--mode", &"check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // The export carries `x-handoff-view`: a Rust producer, told Rust's fix.
    assert!(
        stdout(&out).contains("use one contract version"),
        "{}",
        stdout(&out)
    );
}
