//! The `lines` mode of the ui cases (`HANDOFF_UI=lines`): each compile-fail case must fail to
//! compile with this crate's own lines of its `.stderr` in the compiler's output, and each
//! compile-pass case must compile.
//!
//! **Which lines of a `.stderr` are this crate's own.** A diagnostic's header is a line that
//! starts at column 0 with `error:`, `error[`, `warning:`, `warning[`, `note:` or `help:`
//! (rustc's subdiagnostics `note:`/`help:` also start there). A header `error: …` (no error
//! code) is one this crate wrote (the derive's `compile_error!`); it is an own line, and so is
//! every line after it that continues its message (the derive's `= note: …` and `= help: …`
//! lines are part of the message, indented under it), up to the first line that is blank,
//! starts (after spaces) with `-->` (the location) or `|` (the source snippet), or is another
//! header. Everything else is rustc's: a header with a code (`error[E0277]: …`), a warning, and
//! whatever rustc renders after the location (snippets, labels, the `= note:`/`= help:` lines
//! it adds below a snippet). One coded error carries this crate's words all the same: a
//! `const` the derive emits that panics (`error[E0080]: evaluation panicked: MESSAGE` on rustc
//! 1.95; older compilers put the message inside another line, `the evaluated program panicked
//! at 'MESSAGE'`), so each line of its MESSAGE (a nested type's check continues it with
//! `= note: …` and `= help: …` lines, up to the location) is an own *fragment*, found when
//! some line of the output contains it. A case with neither (a trait bound the derive states with
//! `#[diagnostic::on_unimplemented]`) is only checked for failing to compile; the mode's
//! summary names these cases.
//!
//! **Matching.** Lines are compared with their leading and trailing spaces trimmed (the indent
//! of a message's continuation lines is rustc's rendering), each to one whole line of the
//! compiler's output for that case, and a line the `.stderr` holds twice must be there twice.
//! Other lines of the output, and their order, are not checked.
//!
//! **The build.** All cases are compiled by one `cargo check --bins --keep-going` of one
//! generated project under `CARGO_TARGET_TMPDIR` (`<target>/tmp/ui-lines/`), so that the
//! dependencies are checked once: a `[[bin]]` per case (`fail-<case>`, `pass-<case>`) and the
//! dependencies trybuild gives its generated project (this crate, and its dependencies and
//! dev-dependencies but trybuild, as `cargo metadata` resolves them), the workspace's
//! `Cargo.lock`, the rustc flags trybuild passes (`--cfg trybuild --verbose -A dead_code
//! --diagnostic-width=140`), and the fixture snapshots in its `contracts/` folder. The
//! derive's errors are all reported by `cargo check` (they are macro expansion and type-check
//! errors, not codegen ones): on rustc 1.95 it reports, case for case, the errors trybuild's
//! `cargo build` reports.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

/// A ui case: its `.rs` file (a compile-fail one has its `.stderr` beside it).
struct Case {
    /// `ui/compile-fail/<name>.rs`, as reports show it.
    shown: String,
    path: PathBuf,
    /// The `[[bin]]` it is compiled as.
    bin: String,
    /// Whether it must fail to compile.
    fail: bool,
}

/// What cargo said about one `[[bin]]`.
#[derive(Default)]
struct Outcome {
    /// `cargo check` produced its metadata: it compiled.
    compiled: bool,
    /// How many of its diagnostics are errors.
    errors: usize,
    /// Its diagnostics, as rustc renders them.
    rendered: String,
}

/// The lines of a `.stderr` this crate wrote (module docs), in order, as they appear there.
pub(crate) fn own_lines(stderr: &str) -> Vec<&str> {
    let mut own = Vec::new();
    let mut in_own_message = false;
    for line in stderr.lines() {
        let is_header = ["error:", "error[", "warning:", "warning[", "note:", "help:"]
            .iter()
            .any(|header| line.starts_with(header));
        if is_header {
            in_own_message = line.starts_with("error: ");
        } else {
            let rest = line.trim_start();
            if rest.is_empty() || rest.starts_with("-->") || rest.starts_with('|') {
                in_own_message = false;
            }
        }
        if in_own_message {
            own.push(line);
        }
    }
    own
}

/// The messages of the derive's `const` panics in `stderr` (module docs), in order, one
/// fragment per line of each message: its first line, and the lines that continue it (the
/// nested check's `= note: …` and `= help: …`) up to the location.
pub(crate) fn own_fragments(stderr: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_message = false;
    for line in stderr.lines() {
        if let Some(first) = line.strip_prefix("error[E0080]: evaluation panicked: ") {
            in_message = true;
            out.push(first.trim());
            continue;
        }
        let rest = line.trim_start();
        let is_header = ["error:", "error[", "warning:", "warning[", "note:", "help:"]
            .iter()
            .any(|header| line.starts_with(header));
        if is_header || rest.is_empty() || rest.starts_with("-->") || rest.starts_with('|') {
            in_message = false;
        }
        if in_message {
            out.push(line.trim());
        }
    }
    out.retain(|message| !message.is_empty());
    out
}

/// The expected fragments no line of the output contains.
pub(crate) fn missing_fragments<'a>(expected: &[&'a str], output: &str) -> Vec<&'a str> {
    expected
        .iter()
        .copied()
        .filter(|fragment| !output.lines().any(|line| line.contains(fragment)))
        .collect()
}

/// The expected lines that are not in the output (module docs: trimmed, whole lines, each
/// occurrence of an expected line matched by one of the output).
pub(crate) fn missing_lines<'a>(expected: &[&'a str], output: &str) -> Vec<&'a str> {
    let mut available: HashMap<&str, usize> = HashMap::new();
    for line in output.lines() {
        *available.entry(line.trim()).or_default() += 1;
    }
    let mut missing = Vec::new();
    for &line in expected {
        match available.get_mut(line.trim()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing.push(line),
        }
    }
    missing
}

/// The cases of `ui/<folder>/*.rs`, in file name order.
fn cases(folder: &str, fail: bool) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("ui")
        .join(folder);
    let mut cases: Vec<Case> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .map(|path| {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("a UTF-8 file name");
            Case {
                shown: format!("ui/{folder}/{stem}.rs"),
                bin: format!("{}-{stem}", if fail { "fail" } else { "pass" }),
                path: path.clone(),
                fail,
            }
        })
        .collect();
    cases.sort_by(|a, b| a.path.cmp(&b.path));
    cases
}

/// A TOML basic string (a JSON string is one, for the characters a path or a name holds).
fn toml_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// The `[dependencies]` lines of the generated project: this crate, and its dependencies and
/// dev-dependencies but trybuild, as `cargo metadata` resolves them (workspace inheritance
/// included), as trybuild gives its own generated project.
/// Also returns the edition of this crate, which the cases are written in, and the workspace's
/// root.
fn dependencies(cargo: &Path) -> (String, String, PathBuf) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version=1", "--offline"])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .expect("run cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
    let workspace_root = PathBuf::from(metadata["workspace_root"].as_str().expect("a root"));
    let package = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == env!("CARGO_PKG_NAME"))
        .expect("this package in cargo metadata");

    let edition = package["edition"].as_str().expect("an edition").to_owned();
    let mut lines = format!(
        "{} = {{ path = {}, default-features = false }}\n",
        env!("CARGO_PKG_NAME"),
        toml_str(env!("CARGO_MANIFEST_DIR"))
    );
    for dep in package["dependencies"].as_array().expect("dependencies") {
        let name = dep["name"].as_str().expect("a dependency's name");
        let kind = dep["kind"].as_str();
        if kind == Some("build") || name == "trybuild" || dep["optional"] == true {
            continue;
        }
        assert!(
            dep["target"].is_null(),
            "{name}: a platform-specific dependency; the ui lines mode does not copy those"
        );
        let mut spec = vec![format!(
            "version = {}",
            toml_str(dep["req"].as_str().expect("req"))
        )];
        if let Some(path) = dep["path"].as_str() {
            spec.push(format!("path = {}", toml_str(path)));
        } else {
            let source = dep["source"].as_str().unwrap_or_default();
            assert!(
                source == "registry+https://github.com/rust-lang/crates.io-index",
                "{name} comes from {source}: the ui lines mode copies only crates.io and path \
                 dependencies"
            );
        }
        if dep["rename"].is_string() {
            spec.push(format!("package = {}", toml_str(name)));
        }
        if dep["uses_default_features"] == false {
            spec.push("default-features = false".to_owned());
        }
        let features: Vec<String> = dep["features"]
            .as_array()
            .expect("features")
            .iter()
            .map(|f| toml_str(f.as_str().expect("a feature")))
            .collect();
        if !features.is_empty() {
            spec.push(format!("features = [{}]", features.join(", ")));
        }
        let key = dep["rename"].as_str().unwrap_or(name);
        writeln!(lines, "{key} = {{ {} }}", spec.join(", ")).expect("write to a String");
    }
    (lines, edition, workspace_root)
}

/// Writes the generated project (module docs) and returns its directory.
fn write_project(cargo: &Path, cases: &[Case]) -> PathBuf {
    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-lines");
    std::fs::create_dir_all(&project).expect("create the ui lines project");
    let (dependencies, edition, workspace_root) = dependencies(cargo);
    let mut manifest = format!(
        "# Generated by tests/tests/ui/own_lines.rs (HANDOFF_UI=lines); rewritten on each run.\n\
         [package]\n\
         name = \"{}-ui-lines\"\n\
         version = \"0.0.0\"\n\
         edition = \"{edition}\"\n\
         publish = false\n\
         \n\
         # Not a member of the workspace this folder is in.\n\
         [workspace]\n\
         \n\
         [dependencies]\n\
         {dependencies}",
        env!("CARGO_PKG_NAME"),
    );
    for case in cases {
        let path = case.path.to_str().expect("a UTF-8 path");
        write!(
            manifest,
            "\n[[bin]]\nname = {}\npath = {}\ntest = false\nbench = false\n",
            toml_str(&case.bin),
            toml_str(path)
        )
        .expect("write to a String");
    }
    write_if_changed(&project.join("Cargo.toml"), manifest.as_bytes());
    // The versions the workspace is tested with; cargo adds the generated package to it.
    let lock =
        std::fs::read(workspace_root.join("Cargo.lock")).expect("the workspace's Cargo.lock");
    write_if_changed(&project.join("Cargo.lock"), &lock);
    assert!(
        super::publish_fixtures(&project) > 0,
        "no fixture snapshot in ui/contracts"
    );
    project
}

fn write_if_changed(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).ok().as_deref() != Some(bytes) {
        std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Compiles every case with one `cargo check` and returns what cargo said of each `[[bin]]`,
/// and cargo's own output (stderr), for a report.
fn check(cargo: &Path, project: &Path) -> (HashMap<String, Outcome>, String) {
    // trybuild's flags, for the same diagnostics.
    let rustflags = [
        "--cfg",
        "trybuild",
        "--verbose",
        "-A",
        "dead_code",
        "--diagnostic-width=140",
    ];
    let output = Command::new(cargo)
        .current_dir(project)
        .args(["check", "--bins", "--keep-going", "--offline", "--quiet"])
        .args(["--color=never", "--message-format=json"])
        .env("CARGO_TARGET_DIR", project.join("target"))
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_ENCODED_RUSTFLAGS", rustflags.join("\x1f"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo check");
    let mut outcomes: HashMap<String, Outcome> = HashMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let is_bin = message["target"]["kind"]
            .as_array()
            .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
        let Some(bin) = message["target"]["name"].as_str().filter(|_| is_bin) else {
            continue;
        };
        let outcome = outcomes.entry(bin.to_owned()).or_default();
        match message["reason"].as_str() {
            Some("compiler-artifact") => outcome.compiled = true,
            Some("compiler-message") => {
                let diagnostic = &message["message"];
                if diagnostic["level"]
                    .as_str()
                    .is_some_and(|l| l.starts_with("error"))
                {
                    outcome.errors += 1;
                }
                outcome
                    .rendered
                    .push_str(diagnostic["rendered"].as_str().unwrap_or_default());
            }
            _ => {}
        }
    }
    (
        outcomes,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Indents every line of `text` by four spaces, for a report.
fn indented(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// The `lines` mode (module docs).
pub(crate) fn run() {
    let start = Instant::now();
    let cargo = PathBuf::from(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    let mut all = cases("compile-fail", true);
    all.extend(cases("compile-pass", false));
    let project = write_project(&cargo, &all);
    let (outcomes, cargo_stderr) = check(&cargo, &project);

    let mut failures = Vec::new();
    let mut own_total = 0;
    let mut fragments_total = 0;
    let mut without_own = Vec::new();
    let mut counts = BTreeMap::new();
    for case in &all {
        *counts.entry(case.fail).or_insert(0) += 1;
        let outcome = outcomes.get(&case.bin);
        let compiled = outcome.is_some_and(|o| o.compiled);
        let errors = outcome.map_or(0, |o| o.errors);
        let rendered = outcome.map_or("", |o| o.rendered.as_str());
        if !case.fail {
            if !compiled {
                failures.push(format!(
                    "{}: must compile, and did not:\n{}",
                    case.shown,
                    indented(if rendered.is_empty() {
                        &cargo_stderr
                    } else {
                        rendered
                    })
                ));
            }
            continue;
        }
        let stderr_path = case.path.with_extension("stderr");
        let Ok(stderr) = std::fs::read_to_string(&stderr_path) else {
            failures.push(format!(
                "{}: no {} (bless it with `TRYBUILD=overwrite` on rustc 1.95)",
                case.shown,
                stderr_path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            ));
            continue;
        };
        if compiled {
            failures.push(format!(
                "{}: must fail to compile, and compiled",
                case.shown
            ));
            continue;
        }
        if errors == 0 {
            failures.push(format!(
                "{}: was not compiled, and has no error of its own (did a dependency fail?); \
                 cargo said:\n{}",
                case.shown,
                indented(&cargo_stderr)
            ));
            continue;
        }
        let own = own_lines(&stderr);
        let fragments = own_fragments(&stderr);
        own_total += own.len();
        fragments_total += fragments.len();
        if own.is_empty() && fragments.is_empty() {
            without_own.push(case.shown.as_str());
        }
        let mut missing = missing_lines(&own, rendered);
        missing.extend(missing_fragments(&fragments, rendered));
        if !missing.is_empty() {
            failures.push(format!(
                "{}: these lines (or panic messages) of its .stderr are not in the \
                 compiler's output:\n{}\
                 the compiler's output:\n{}",
                case.shown,
                indented(
                    &missing
                        .iter()
                        .map(|l| l.trim())
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
                indented(rendered)
            ));
        }
    }
    let fail_cases = counts.get(&true).copied().unwrap_or(0);
    let pass_cases = counts.get(&false).copied().unwrap_or(0);
    println!(
        "{fail_cases} compile-fail cases ({own_total} own lines and {fragments_total} panic \
         messages checked; checked only for failing, with neither: {}), {pass_cases} \
         compile-pass cases, in {:.1} s",
        if without_own.is_empty() {
            "none".to_owned()
        } else {
            without_own.join(", ")
        },
        start.elapsed().as_secs_f64()
    );
    assert!(fail_cases > 0 && pass_cases > 0, "no ui case found");
    assert!(
        failures.is_empty(),
        "{} of {} ui cases failed (HANDOFF_UI=lines; the rule of own lines is in \
         tests/tests/ui/own_lines.rs):\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::{missing_fragments, missing_lines, own_fragments, own_lines};

    /// A `.stderr` with one of each kind of line.
    const SAMPLE: &str = "\
error: unknown handoff attribute `verison`: did you mean `version`?
 --> ui/compile-fail/sample.rs:4:36
  |
4 | #[handoff(name = \"refund-request\", verison = 1)]
  |                                    ^^^^^^^

error: `orderId` breaks the published contract `sample/v1` [FIELD_REMOVED]: gone
       = note: published in `contracts/sample.v1.snap`, checked under mode `full`
       = help: or publish the change as a new major version: `version = 2`
  --> ui/compile-fail/sample.rs:10:15
   |
10 |     pub order_id: String,
   |         ^^^^^^^^
   = note: this error originates in the derive macro `HandoffContract`

error[E0277]: `Money` has no handoff description: it does not implement `HandoffSchema`
  --> ui/compile-fail/sample.rs:11:17
   |
11 |     pub amount: Money,
   |                 ^^^^^ no `HandoffSchema` for `Money`
   |
help: the trait `HandoffSchema` is not implemented for `Money`
   = note: derive it with `#[derive(HandoffSchema)]`
warning: unused import: `std::fmt`
error: `version = 0`: contract versions start at 1
";

    #[test]
    fn own_lines_are_uncoded_errors_and_their_message() {
        assert_eq!(
            own_lines(SAMPLE),
            [
                "error: unknown handoff attribute `verison`: did you mean `version`?",
                "error: `orderId` breaks the published contract `sample/v1` [FIELD_REMOVED]: gone",
                "       = note: published in `contracts/sample.v1.snap`, checked under mode `full`",
                "       = help: or publish the change as a new major version: `version = 2`",
                "error: `version = 0`: contract versions start at 1",
            ]
        );
        // Only rustc's: a coded error, its notes, a warning.
        assert!(own_lines("error[E0080]: evaluation panicked: no\n = note: x\n").is_empty());
        assert!(
            own_lines("warning: unused\n = note: `#[warn(unused)]` on by default\n").is_empty()
        );
    }

    #[test]
    fn own_lines_must_all_be_in_the_output_trimmed_and_counted() {
        let own = own_lines(SAMPLE);
        // Another compiler: other rustc wording, other indents, a reordered output.
        let output = "\
error: `version = 0`: contract versions start at 1
error: `orderId` breaks the published contract `sample/v1` [FIELD_REMOVED]: gone
    = note: published in `contracts/sample.v1.snap`, checked under mode `full`
    = help: or publish the change as a new major version: `version = 2`
   --> src/main.rs:10:15
error[E0277]: the trait bound `Money: HandoffSchema` is not satisfied
error: unknown handoff attribute `verison`: did you mean `version`?
";
        assert_eq!(missing_lines(&own, output), Vec::<&str>::new());

        // A changed word, a line missing, a line expected twice and present once.
        let changed = output.replace("start at 1", "start at one");
        assert_eq!(
            missing_lines(&own, &changed),
            ["error: `version = 0`: contract versions start at 1"]
        );
        let without_help = output.replace("    = help: or publish", "");
        assert_eq!(
            missing_lines(&own, &without_help),
            ["       = help: or publish the change as a new major version: `version = 2`"]
        );
        let twice = ["error: x", "error: x"];
        assert_eq!(missing_lines(&twice, "error: x\n"), ["error: x"]);
        // A line is matched whole, not as a part of one.
        assert_eq!(missing_lines(&["error: x"], "error: x y\n"), ["error: x"]);
    }

    #[test]
    fn a_const_panic_message_is_found_inside_any_line() {
        let stderr = "\
error[E0080]: evaluation panicked: `#[serde(flatten)]` needs a struct
  --> ui/compile-fail/sample.rs:8:15
error[E0277]: `Money` has no handoff description
";
        let fragments = own_fragments(stderr);
        assert_eq!(fragments, ["`#[serde(flatten)]` needs a struct"]);
        // rustc 1.95's wording, and an older compiler's.
        assert!(missing_fragments(&fragments, stderr).is_empty());
        let older = "error[E0080]: evaluation of constant value failed\n  \
                     = note: the evaluated program panicked at '`#[serde(flatten)]` needs a \
                     struct', src/main.rs:8:15\n";
        assert!(missing_fragments(&fragments, older).is_empty());
        // A message of several lines: each is a fragment (on older compilers the message is
        // quoted inside the `panicked at '…'` line, its next lines as they are).
        let stderr = "\
error[E0080]: evaluation panicked: `lines[].qty` breaks the published contract `order/v1`
       = note: published in `contracts/order.v1.snap`
 --> ui/compile-fail/sample.rs:8:15
";
        let multi = own_fragments(stderr);
        assert_eq!(
            multi,
            [
                "`lines[].qty` breaks the published contract `order/v1`",
                "= note: published in `contracts/order.v1.snap`"
            ]
        );
        let older = "  = note: the evaluated program panicked at '`lines[].qty` breaks the \
                     published contract `order/v1`\n= note: published in \
                     `contracts/order.v1.snap`', src/main.rs:8:15\n";
        assert!(missing_fragments(&multi, older).is_empty());
        // Another message is no match.
        assert_eq!(
            missing_fragments(&fragments, "error[E0080]: evaluation panicked: other\n"),
            ["`#[serde(flatten)]` needs a struct"]
        );
    }
}
