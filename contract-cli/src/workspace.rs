//! The snapshot folders of the crates of the current directory's `Cargo.toml`, for
//! `check --against` without folders: for a workspace, each member's (`[workspace] members`,
//! simple globs included, less `exclude`), and the root package's when it is one; each
//! crate's `[package.metadata.handoff] snapshots = [...]` (the list contract-core's derive
//! reads), else its `contracts` folder.

use std::path::{Path, PathBuf};

/// The folder a crate lists when its `Cargo.toml` lists none.
pub const DEFAULT_FOLDER: &str = "contracts";

/// A snapshot folder of a crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    /// The folder, from the current directory.
    pub dir: PathBuf,
    /// Whether the crate's `Cargo.toml` lists it (a listed folder found nowhere is a
    /// mistake worth an error; a crate's default `contracts` may simply not be there).
    pub listed: bool,
}

/// The snapshot folders of the crates of `root/Cargo.toml`, in the order the workspace
/// lists its members (the root package first); none without a `Cargo.toml`.
///
/// # Errors
///
/// `PATH: MESSAGE` for a `Cargo.toml` that cannot be read or parsed, a member without one,
/// or a `members`, `exclude` or `snapshots` that is not a list of strings.
pub fn snapshot_folders(root: &Path) -> Result<Vec<Folder>, String> {
    let manifest_path = root.join("Cargo.toml");
    if !manifest_path.is_file() {
        return Ok(Vec::new());
    }
    let manifest = read_manifest(&manifest_path)?;
    let mut crates: Vec<(PathBuf, toml::Table)> = Vec::new();
    if manifest.contains_key("package") {
        crates.push((PathBuf::new(), manifest.clone()));
    }
    if let Some(workspace) = manifest.get("workspace").and_then(toml::Value::as_table) {
        let members = strings(workspace, "members", &manifest_path, "[workspace] members")?;
        let exclude = strings(workspace, "exclude", &manifest_path, "[workspace] exclude")?;
        let excluded: Vec<PathBuf> = exclude.iter().map(|e| normal(Path::new(e))).collect();
        for pattern in &members {
            let globbed = is_glob(pattern);
            for member in expand(root, pattern) {
                let relative = normal(&member);
                if relative.as_os_str().is_empty() || excluded.contains(&relative) {
                    continue;
                }
                if crates.iter().any(|(dir, _)| *dir == relative) {
                    continue;
                }
                let member_manifest = root.join(&relative).join("Cargo.toml");
                if !member_manifest.is_file() {
                    // A glob also matches folders that are no crate, which cargo leaves out.
                    if globbed {
                        continue;
                    }
                    return Err(format!(
                        "{}: the workspace member `{pattern}` has no Cargo.toml",
                        manifest_path.display()
                    ));
                }
                let table = read_manifest(&member_manifest)?;
                crates.push((relative, table));
            }
        }
    }
    let mut folders = Vec::new();
    for (dir, table) in &crates {
        let manifest = if dir.as_os_str().is_empty() {
            manifest_path.clone()
        } else {
            root.join(dir).join("Cargo.toml")
        };
        let listed = table
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("handoff"))
            .and_then(toml::Value::as_table)
            .map(|handoff| {
                strings(
                    handoff,
                    "snapshots",
                    &manifest,
                    "[package.metadata.handoff] snapshots",
                )
            })
            .transpose()?
            .filter(|list| !list.is_empty());
        let (names, is_listed) = match listed {
            Some(names) => (names, true),
            None => (vec![DEFAULT_FOLDER.to_owned()], false),
        };
        for name in names {
            let folder = Folder {
                dir: normal(&dir.join(name)),
                listed: is_listed,
            };
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    Ok(folders)
}

fn read_manifest(path: &Path) -> Result<toml::Table, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    text.parse::<toml::Table>().map_err(|e| {
        let at = e.span().map_or(0, |span| span.start);
        let before = &text[..at.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "{}:{line}:{column}: {}",
            path.display(),
            e.message().trim_end()
        )
    })
}

/// The list of strings under `key`, empty when absent.
fn strings(
    table: &toml::Table,
    key: &str,
    manifest: &Path,
    what: &str,
) -> Result<Vec<String>, String> {
    let Some(value) = table.get(key) else {
        return Ok(Vec::new());
    };
    let not_strings = || format!("{}: `{what}` must be a list of strings", manifest.display());
    value
        .as_array()
        .ok_or_else(not_strings)?
        .iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or_else(not_strings))
        .collect()
}

/// A path without `.` components and without a trailing separator.
fn normal(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

/// The folders under `root` that `pattern` names: itself when it has no wildcard, else
/// every folder whose path matches it segment by segment (`*` any run of characters within
/// a segment, `?` one character), sorted.
fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    if !is_glob(pattern) {
        return vec![PathBuf::from(pattern)];
    }
    let mut found = vec![PathBuf::new()];
    for segment in pattern.split('/').filter(|s| !s.is_empty() && *s != ".") {
        let mut next = Vec::new();
        for prefix in &found {
            if !is_glob(segment) {
                next.push(prefix.join(segment));
                continue;
            }
            let Ok(entries) = std::fs::read_dir(root.join(prefix)) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| !name.starts_with('.') && wildcard(segment, name))
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|name| prefix.join(name)));
        }
        found = next;
    }
    found
}

/// Whether `name` matches `pattern`, whose `*` matches any run of characters and `?` one.
fn wildcard(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // The classic two-pointer match with backtracking to the last `*`.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_within_a_segment() {
        assert!(wildcard("*", "app"));
        assert!(wildcard("agent-*", "agent-triage"));
        assert!(wildcard("a?c", "abc"));
        assert!(wildcard("*-agent*", "refund-agent-2"));
        assert!(!wildcard("agent-*", "triage"));
        assert!(!wildcard("a?c", "ac"));
        assert!(wildcard("", ""));
        assert!(!wildcard("", "a"));
    }

    #[test]
    fn a_path_is_normalised_for_comparison() {
        assert_eq!(normal(Path::new("./crates/a/")), PathBuf::from("crates/a"));
        assert_eq!(normal(Path::new(".")), PathBuf::new());
    }

    fn tree(files: &[(&str, &str)]) -> PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "handoff-workspace-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    #[test]
    fn members_globs_excludes_and_metadata_give_the_folders() {
        let root = tree(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"agents/*\", \"tools/cli\"]\nexclude = [\"agents/old\"]\n",
            ),
            (
                "agents/triage/Cargo.toml",
                "[package]\nname = \"triage\"\n\n[package.metadata.handoff]\nsnapshots = [\"contracts\", \"more/contracts\"]\n",
            ),
            ("agents/refund/Cargo.toml", "[package]\nname = \"refund\"\n"),
            ("agents/old/Cargo.toml", "[package]\nname = \"old\"\n"),
            ("agents/notes/README.md", "not a crate"),
            ("tools/cli/Cargo.toml", "[package]\nname = \"cli\"\n[package.metadata.handoff]\nsnapshots = []\n"),
        ]);
        let folders = snapshot_folders(&root).unwrap();
        let dirs: Vec<(String, bool)> = folders
            .iter()
            .map(|f| (f.dir.display().to_string(), f.listed))
            .collect();
        assert_eq!(
            dirs,
            [
                ("agents/refund/contracts".to_owned(), false),
                ("agents/triage/contracts".to_owned(), true),
                ("agents/triage/more/contracts".to_owned(), true),
                ("tools/cli/contracts".to_owned(), false),
            ]
        );
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_package_lists_its_own_folders_and_no_manifest_lists_none() {
        let root = tree(&[(
            "Cargo.toml",
            "[package]\nname = \"app\"\n[package.metadata.handoff]\nsnapshots = [\"./snaps/\"]\n",
        )]);
        assert_eq!(
            snapshot_folders(&root).unwrap(),
            [Folder {
                dir: "snaps".into(),
                listed: true
            }]
        );
        assert_eq!(snapshot_folders(&root.join("nowhere")).unwrap(), []);
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_bad_manifest_is_named() {
        let root = tree(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"a\", \"b\"]\n"),
            (
                "a/Cargo.toml",
                "[package]\nname = \"a\"\n[package.metadata.handoff]\nsnapshots = \"contracts\"\n",
            ),
        ]);
        let err = snapshot_folders(&root).unwrap_err();
        assert!(err.ends_with("b` has no Cargo.toml"), "{err}");
        std::fs::create_dir_all(root.join("b")).unwrap();
        std::fs::write(root.join("b/Cargo.toml"), "[package]\nname = \"b\"\n").unwrap();
        let err = snapshot_folders(&root).unwrap_err();
        assert!(
            err.contains("a/Cargo.toml: `[package.metadata.handoff] snapshots` must be a list"),
            "{err}"
        );
        std::fs::write(root.join("b/Cargo.toml"), "[package\n").unwrap();
        let err = snapshot_folders(&root).unwrap_err();
        assert!(
            err.starts_with(&format!("{}:1:9: ", root.join("b/Cargo.toml").display())),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        let _ = std::fs::remove_dir_all(root);
    }
}
