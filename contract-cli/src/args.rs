//! The command line, parsed by hand: two subcommands and two options do not need a parser
//! crate.

use std::ffi::OsString;
use std::path::PathBuf;

use contract_schema::compat::Mode;

/// The usage text, printed by `--help` and after a usage error.
pub const USAGE: &str = "\
usage: handoff diff OLD.snap NEW.snap [--mode backward|forward|full|check] [--format text|json]
       handoff check OLD_DIR NEW_DIR [--format text|json]

diff   compares two snapshot files of one contract; the mode defaults to the one the new
       snapshot declares (full when it declares none); `--mode check` compares a producer
       (OLD.snap, say vendored from its repository) with a consumer (NEW.snap)
check  compares two `contracts/` folders (say, the last release's and today's): every
       contract major present in both under its declared mode, and every published major
       that disappeared

exit status: 0 compatible, 1 breaking, 2 usage error or unreadable input";

/// How a report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Human text, like rustc.
    #[default]
    Text,
    /// One JSON document.
    Json,
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
}

/// Parses the arguments after the program name. Paths may be any OS string; the
/// subcommand, the options and their values are UTF-8.
///
/// # Errors
///
/// A message naming the argument that is missing, unknown or invalid.
pub fn parse(args: &[OsString]) -> Result<Command, String> {
    let Some((sub, rest)) = args.split_first() else {
        return Err("missing a subcommand: `diff` or `check`".to_owned());
    };
    let sub = match sub.to_str() {
        Some(sub @ ("diff" | "check")) => sub,
        Some("-h" | "--help" | "help") => return Ok(Command::Help),
        Some("-V" | "--version") => return Ok(Command::Version),
        _ => {
            return Err(format!(
                "unknown subcommand `{}`: expected `diff` or `check`",
                sub.to_string_lossy()
            ))
        }
    };
    let mut positional = Vec::new();
    let mut mode = None;
    let mut format = None;
    let mut i = 0;
    while let Some(arg) = rest.get(i) {
        i += 1;
        // An argument that is not UTF-8 is a path.
        let Some(text) = arg.to_str() else {
            positional.push(PathBuf::from(arg));
            continue;
        };
        let (key, inline) = match text.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_owned())),
            _ => (text, None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = rest
                .get(i)
                .ok_or_else(|| format!("`{name}` needs a value"))?;
            i += 1;
            v.to_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("the value of `{name}` is not UTF-8"))
        };
        match key {
            "-h" | "--help" => return Ok(Command::Help),
            "--mode" if sub == "diff" => {
                if mode.is_some() {
                    return Err("`--mode` is given twice".to_owned());
                }
                let v = value("--mode")?;
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
            "--format" => {
                if format.is_some() {
                    return Err("`--format` is given twice".to_owned());
                }
                let v = value("--format")?;
                format = Some(match v.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    _ => return Err(format!("unknown format `{v}`: expected `text` or `json`")),
                });
            }
            "--mode" => {
                return Err(
                    "`--mode` applies to `diff` only; `check` uses each contract's declared mode"
                        .to_owned(),
                )
            }
            _ if key.starts_with('-') && key.len() > 1 => {
                return Err(format!("unknown option `{key}`"))
            }
            _ => positional.push(PathBuf::from(arg)),
        }
    }
    let what = if sub == "diff" {
        ("OLD.snap", "NEW.snap")
    } else {
        ("OLD_DIR", "NEW_DIR")
    };
    let mut positional = positional.into_iter();
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
        assert!(parse(&[path])
            .unwrap_err()
            .starts_with("unknown subcommand `old-"));
    }
}
