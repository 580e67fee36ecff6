//! The command line, parsed by hand: three subcommands and a few options do not need a
//! parser crate.

use std::ffi::OsString;
use std::path::PathBuf;

use contract_schema::compat::Mode;
use contract_schema::json_schema::View;

/// The usage text, printed by `--help` and after a usage error.
pub const USAGE: &str = "\
usage: handoff diff OLD.snap NEW.snap [--mode backward|forward|full|check] [--format text|json|github]
       handoff diff PRODUCER CONSUMER --mode check [--format text|json|github]
       handoff check OLD_DIR NEW_DIR [--format text|json|github]
       handoff check --against GIT_REF [DIR…] [--format text|json|github]
       handoff json-schema SNAPSHOT [--view sender|receiver] [--no-annotations] [--out FILE]

diff         compares two snapshot files of one contract; the mode defaults to the one the
             new snapshot declares (full when it declares none); `--mode check` compares a
             producer (OLD.snap, say vendored from its repository) with a consumer (NEW.snap);
             in check mode either side may be a peer's JSON Schema (`.json`, 2020-12 or
             draft-07: pydantic, zod), read as what a producer writes or a consumer accepts,
             its warnings printed as `warning: FILE: #POINTER: MESSAGE`
check        compares two `contracts/` folders (say, the last release's and today's): every
             contract major present in both under its declared mode, and every published
             major that disappeared; a file named like a snapshot but not as one
             (`Refund.v1.snap`, `a.v01.snap`) is left out with a warning
             (diff and check: a finding the NEW snapshot accepts on purpose, in an `allow`
             line, is printed as allowed with its reason and does not break)
check --against GIT_REF
             compares each DIR (default `contracts`; several for a crate whose
             `[package.metadata.handoff] snapshots` lists several) in the working tree with
             the same folder at GIT_REF (`origin/main`), read with `git` from the current
             directory; a folder missing at GIT_REF holds new contracts. A shallow clone
             lacks older commits: `actions/checkout` needs `fetch-depth: 0`
--format github
             GitHub Actions annotations: `::error file=…,line=…,title=RULE_ID::why; hint`
             per breaking finding, on the line of the NEW snapshot it is about (the line of
             the struct or enum that held what is gone), `::warning` for an allowed one;
             `file=` is the path as given, or with `--against` from the repository's root
json-schema  prints the JSON Schema (draft 2020-12) of one snapshot file, to stdout or FILE,
             for a peer written in another language: the receiver view (what the consumer's
             Deserialize accepts, the default) or the sender view (what the producer's
             Serialize writes); `--no-annotations` leaves out the `x-handoff-*` keywords,
             for a validator that refuses keywords it does not know (ajv's strict mode)

exit status: 0 compatible, 1 breaking, 2 usage error or unreadable input
             (json-schema: 0 when the schema is written, 2 on a usage error, an unreadable
             snapshot or a FILE that cannot be written)";

/// How a report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Human text, like rustc.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…`), one per finding.
    Github,
}

/// How `diff` compares its two files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffMode {
    /// Two versions of one contract, in a compatibility mode.
    Evolve(Mode),
    /// A producer's snapshot (first) against a consumer's (second).
    Check,
}

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
    /// Compare two snapshot files.
    Diff {
        /// The older snapshot.
        old: PathBuf,
        /// The newer snapshot.
        new: PathBuf,
        /// The mode, when given on the command line.
        mode: Option<DiffMode>,
        /// How to print.
        format: Format,
    },
    /// Compare two snapshot folders.
    Check {
        /// The older folder.
        old: PathBuf,
        /// The newer folder.
        new: PathBuf,
        /// How to print.
        format: Format,
    },
    /// Compare snapshot folders of the working tree with the same folders at a git ref.
    CheckAgainst {
        /// The ref (`origin/main`, a tag, a commit id).
        git_ref: String,
        /// The folders, relative to the current directory (`contracts` unless given).
        dirs: Vec<PathBuf>,
        /// How to print.
        format: Format,
    },
    /// Export the JSON Schema of one snapshot file.
    JsonSchema {
        /// The snapshot file.
        snapshot: PathBuf,
        /// The view to export (receiver unless given).
        view: View,
        /// The file to write, or `None` for stdout.
        out: Option<PathBuf>,
        /// Whether the `x-handoff-*` annotations are written (unless `--no-annotations`).
        annotations: bool,
    },
}

/// The subcommands, as typed.
const SUBCOMMANDS: &str = "`diff`, `check` or `json-schema`";

/// Parses the arguments after the program name. Paths (including the value of `--out`) may
/// be any OS string; the subcommand, the other options and their values are UTF-8.
///
/// # Errors
///
/// A message naming the argument that is missing, unknown or invalid.
pub fn parse(args: &[OsString]) -> Result<Command, String> {
    let Some((sub, rest)) = args.split_first() else {
        return Err(format!("missing a subcommand: {SUBCOMMANDS}"));
    };
    let sub = match sub.to_str() {
        Some(sub @ ("diff" | "check" | "json-schema")) => sub,
        Some("-h" | "--help" | "help") => return Ok(Command::Help),
        Some("-V" | "--version") => return Ok(Command::Version),
        _ => {
            return Err(format!(
                "unknown subcommand `{}`: expected {SUBCOMMANDS}",
                sub.to_string_lossy()
            ))
        }
    };
    let exporting = sub == "json-schema";
    let mut positional = Vec::new();
    let mut mode = None;
    let mut format = None;
    let mut view = None;
    let mut out = None;
    let mut annotations = true;
    let mut against = None;
    let mut i = 0;
    while let Some(arg) = rest.get(i) {
        i += 1;
        // An argument that is not UTF-8 is a path.
        let Some(text) = arg.to_str() else {
            positional.push(PathBuf::from(arg));
            continue;
        };
        let (key, inline) = match text.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(OsString::from(v))),
            _ => (text, None),
        };
        // The option's value: after `=`, else the next argument.
        let mut value_os = |name: &str| -> Result<OsString, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = rest
                .get(i)
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))?;
            i += 1;
            Ok(v)
        };
        let utf8 = |name: &str, v: OsString| -> Result<String, String> {
            v.into_string()
                .map_err(|_| format!("the value of `{name}` is not UTF-8"))
        };
        match key {
            "-h" | "--help" => return Ok(Command::Help),
            "--mode" if sub == "diff" => {
                if mode.is_some() {
                    return Err("`--mode` is given twice".to_owned());
                }
                let v = utf8("--mode", value_os("--mode")?)?;
                mode = Some(if v == "check" {
                    DiffMode::Check
                } else {
                    DiffMode::Evolve(Mode::parse(&v).ok_or_else(|| {
                        format!(
                            "unknown mode `{v}`: expected `backward`, `forward`, `full` or `check`"
                        )
                    })?)
                });
            }
            "--format" if !exporting => {
                if format.is_some() {
                    return Err("`--format` is given twice".to_owned());
                }
                let v = utf8("--format", value_os("--format")?)?;
                format = Some(match v.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "github" => Format::Github,
                    _ => {
                        return Err(format!(
                            "unknown format `{v}`: expected `text`, `json` or `github`"
                        ))
                    }
                });
            }
            "--against" if sub == "check" => {
                if against.is_some() {
                    return Err("`--against` is given twice".to_owned());
                }
                let v = utf8("--against", value_os("--against")?)?;
                // A ref is never empty, and one starting with `-` would reach git as an
                // option.
                if v.is_empty() || v.starts_with('-') {
                    return Err(format!(
                        "`--against` needs a git ref (`origin/main`), found `{v}`"
                    ));
                }
                against = Some(v);
            }
            "--against" => return Err("`--against` applies to `check` only".to_owned()),
            "--view" if exporting => {
                if view.is_some() {
                    return Err("`--view` is given twice".to_owned());
                }
                let v = utf8("--view", value_os("--view")?)?;
                view = Some(match v.as_str() {
                    "sender" => View::Sender,
                    "receiver" => View::Receiver,
                    _ => {
                        return Err(format!(
                            "unknown view `{v}`: expected `sender` or `receiver`"
                        ))
                    }
                });
            }
            "--out" if exporting => {
                if out.is_some() {
                    return Err("`--out` is given twice".to_owned());
                }
                let v = value_os("--out")?;
                if v.is_empty() {
                    return Err("`--out` needs a file name".to_owned());
                }
                out = Some(PathBuf::from(v));
            }
            "--no-annotations" if exporting => {
                if inline.is_some() {
                    return Err("`--no-annotations` takes no value".to_owned());
                }
                if !annotations {
                    return Err("`--no-annotations` is given twice".to_owned());
                }
                annotations = false;
            }
            "--mode" if exporting => {
                return Err(
                    "`--mode` applies to `diff` only; `json-schema` exports one snapshot"
                        .to_owned(),
                )
            }
            "--mode" => {
                return Err(
                    "`--mode` applies to `diff` only; `check` uses each contract's declared mode"
                        .to_owned(),
                )
            }
            "--format" => {
                return Err(
                    "`--format` applies to `diff` and `check`; `json-schema` always prints JSON"
                        .to_owned(),
                )
            }
            "--view" | "--out" | "--no-annotations" => {
                return Err(format!("`{key}` applies to `json-schema` only"))
            }
            _ if key.starts_with('-') && key.len() > 1 => {
                return Err(format!("unknown option `{key}`"))
            }
            _ => positional.push(PathBuf::from(arg)),
        }
    }
    let mut positional = positional.into_iter();
    if exporting {
        let snapshot = positional
            .next()
            .ok_or_else(|| "missing SNAPSHOT".to_owned())?;
        if let Some(extra) = positional.next() {
            return Err(format!("unexpected argument `{}`", extra.display()));
        }
        return Ok(Command::JsonSchema {
            snapshot,
            view: view.unwrap_or(View::Receiver),
            out,
            annotations,
        });
    }
    if let Some(git_ref) = against {
        let mut dirs: Vec<PathBuf> = positional.collect();
        if dirs.is_empty() {
            dirs.push(PathBuf::from("contracts"));
        }
        return Ok(Command::CheckAgainst {
            git_ref,
            dirs,
            format: format.unwrap_or_default(),
        });
    }
    let what = if sub == "diff" {
        ("OLD.snap", "NEW.snap")
    } else {
        ("OLD_DIR", "NEW_DIR")
    };
    let old = positional
        .next()
        .ok_or_else(|| format!("missing {} and {}", what.0, what.1))?;
    let new = positional
        .next()
        .ok_or_else(|| format!("missing {}", what.1))?;
    if let Some(extra) = positional.next() {
        return Err(format!("unexpected argument `{}`", extra.display()));
    }
    let format = format.unwrap_or_default();
    if sub == "diff" && mode != Some(DiffMode::Check) {
        if let Some(json) = [&old, &new].into_iter().find(|p| is_json_schema(p)) {
            return Err(format!(
                "`{}` is a JSON Schema: a peer's schema is compared only with `--mode check` (producer first, consumer second)",
                json.display()
            ));
        }
    }
    Ok(if sub == "diff" {
        Command::Diff {
            old,
            new,
            mode,
            format,
        }
    } else {
        Command::Check { old, new, format }
    })
}

/// Whether `diff` reads this file as a peer's JSON Schema (a `.json` file) rather than a
/// snapshot.
#[must_use]
pub fn is_json_schema(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn diff_with_options_in_any_place() {
        let cmd = parse(&args("diff --format json a.snap --mode=backward b.snap")).unwrap();
        assert_eq!(
            cmd,
            Command::Diff {
                old: "a.snap".into(),
                new: "b.snap".into(),
                mode: Some(DiffMode::Evolve(Mode::Backward)),
                format: Format::Json,
            }
        );
    }

    #[test]
    fn usage_errors_name_the_argument() {
        assert_eq!(parse(&args("diff a")).unwrap_err(), "missing NEW.snap");
        assert_eq!(
            parse(&args("check a b c")).unwrap_err(),
            "unexpected argument `c`"
        );
        assert_eq!(
            parse(&args("diff a b --mode sideways")).unwrap_err(),
            "unknown mode `sideways`: expected `backward`, `forward`, `full` or `check`"
        );
        assert_eq!(
            parse(&args("diff a b --mode")).unwrap_err(),
            "`--mode` needs a value"
        );
        assert_eq!(
            parse(&args("check a b --colour")).unwrap_err(),
            "unknown option `--colour`"
        );
        assert!(parse(&args("check a b --mode full")).is_err());
        assert!(matches!(
            parse(&args("diff a b --mode check")),
            Ok(Command::Diff {
                mode: Some(DiffMode::Check),
                ..
            })
        ));
        assert!(parse(&args("merge a b")).is_err());
        assert!(parse(&[]).is_err());
        assert_eq!(parse(&args("check -h")).unwrap(), Command::Help);
    }

    #[test]
    fn a_json_schema_side_needs_check_mode() {
        assert!(matches!(
            parse(&args("diff producer.json consumer.snap --mode check")),
            Ok(Command::Diff {
                mode: Some(DiffMode::Check),
                ..
            })
        ));
        for line in [
            "diff producer.json consumer.snap",
            "diff a.snap b.JSON --mode full",
            "diff a.json b.json --mode backward",
        ] {
            let err = parse(&args(line)).unwrap_err();
            assert!(err.contains("only with `--mode check`"), "{line}: {err}");
        }
    }

    #[test]
    fn check_against_a_ref_takes_any_number_of_folders() {
        assert_eq!(
            parse(&args("check --against origin/main --format github")).unwrap(),
            Command::CheckAgainst {
                git_ref: "origin/main".into(),
                dirs: vec!["contracts".into()],
                format: Format::Github,
            }
        );
        assert_eq!(
            parse(&args("check a --against=v1.4.0 b c")).unwrap(),
            Command::CheckAgainst {
                git_ref: "v1.4.0".into(),
                dirs: vec!["a".into(), "b".into(), "c".into()],
                format: Format::Text,
            }
        );
        assert_eq!(
            parse(&args("check --against")).unwrap_err(),
            "`--against` needs a value"
        );
        assert_eq!(
            parse(&args("check --against=--output=x")).unwrap_err(),
            "`--against` needs a git ref (`origin/main`), found `--output=x`"
        );
        assert_eq!(
            parse(&args("check --against a --against b")).unwrap_err(),
            "`--against` is given twice"
        );
        assert_eq!(
            parse(&args("diff a b --against main")).unwrap_err(),
            "`--against` applies to `check` only"
        );
        assert_eq!(
            parse(&args("diff a b --format yaml")).unwrap_err(),
            "unknown format `yaml`: expected `text`, `json` or `github`"
        );
    }

    #[test]
    fn json_schema_defaults_to_the_receiver_view_on_stdout() {
        assert_eq!(
            parse(&args("json-schema a.snap")).unwrap(),
            Command::JsonSchema {
                snapshot: "a.snap".into(),
                view: View::Receiver,
                out: None,
                annotations: true,
            }
        );
        assert_eq!(
            parse(&args("json-schema --out=a.json a.snap --view sender")).unwrap(),
            Command::JsonSchema {
                snapshot: "a.snap".into(),
                view: View::Sender,
                out: Some("a.json".into()),
                annotations: true,
            }
        );
    }

    #[test]
    fn json_schema_without_annotations_is_a_flag_of_json_schema_alone() {
        assert_eq!(
            parse(&args("json-schema a.snap --no-annotations --view sender")).unwrap(),
            Command::JsonSchema {
                snapshot: "a.snap".into(),
                view: View::Sender,
                out: None,
                annotations: false,
            }
        );
        assert_eq!(
            parse(&args(
                "json-schema a.snap --no-annotations --no-annotations"
            ))
            .unwrap_err(),
            "`--no-annotations` is given twice"
        );
        assert_eq!(
            parse(&args("json-schema a.snap --no-annotations=yes")).unwrap_err(),
            "`--no-annotations` takes no value"
        );
        assert_eq!(
            parse(&args("diff a b --no-annotations")).unwrap_err(),
            "`--no-annotations` applies to `json-schema` only"
        );
    }

    #[test]
    fn json_schema_usage_errors_name_the_argument() {
        assert_eq!(parse(&args("json-schema")).unwrap_err(), "missing SNAPSHOT");
        assert_eq!(
            parse(&args("json-schema a.snap b.snap")).unwrap_err(),
            "unexpected argument `b.snap`"
        );
        assert_eq!(
            parse(&args("json-schema a.snap --view both")).unwrap_err(),
            "unknown view `both`: expected `sender` or `receiver`"
        );
        assert_eq!(
            parse(&args("json-schema a.snap --view sender --view=receiver")).unwrap_err(),
            "`--view` is given twice"
        );
        assert_eq!(
            parse(&args("json-schema a.snap --out")).unwrap_err(),
            "`--out` needs a value"
        );
        assert_eq!(
            parse(&args("json-schema a.snap --out=")).unwrap_err(),
            "`--out` needs a file name"
        );
        assert!(parse(&args("json-schema a.snap --format json"))
            .unwrap_err()
            .starts_with("`--format` applies to `diff` and `check`"));
        assert!(parse(&args("json-schema a.snap --mode full"))
            .unwrap_err()
            .starts_with("`--mode` applies to `diff` only"));
        assert_eq!(
            parse(&args("diff a b --view sender")).unwrap_err(),
            "`--view` applies to `json-schema` only"
        );
        assert_eq!(
            parse(&args("check a b --out x.json")).unwrap_err(),
            "`--out` applies to `json-schema` only"
        );
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_utf8_but_option_values_must() {
        use std::os::unix::ffi::OsStringExt;
        let path = OsString::from_vec(b"old-\xff.snap".to_vec());
        let mut argv = args("diff");
        argv.push(path.clone());
        argv.push("new.snap".into());
        assert_eq!(
            parse(&argv).unwrap(),
            Command::Diff {
                old: PathBuf::from(path.clone()),
                new: "new.snap".into(),
                mode: None,
                format: Format::Text,
            }
        );
        argv.push("--format".into());
        argv.push(path.clone());
        assert_eq!(
            parse(&argv).unwrap_err(),
            "the value of `--format` is not UTF-8"
        );
        assert!(parse(std::slice::from_ref(&path))
            .unwrap_err()
            .starts_with("unknown subcommand `old-"));
        // `--out` names a path: any OS string will do.
        let argv = vec![
            "json-schema".into(),
            "a.snap".into(),
            "--out".into(),
            path.clone(),
        ];
        assert_eq!(
            parse(&argv).unwrap(),
            Command::JsonSchema {
                snapshot: "a.snap".into(),
                view: View::Receiver,
                out: Some(PathBuf::from(path)),
                annotations: true,
            }
        );
    }
}
