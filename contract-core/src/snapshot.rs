//! Snapshot tests of contracts: `assert_contract_snapshot!` and the test each contract emits.
//!
//! A contract's canonical schema text is snapshotted with insta into
//! `<snapshots dir>/<name>.v<N>.snap`, the folder the derive resolved from the contract's
//! `#[handoff(snapshots = "…")]` attribute (default `contracts`, relative to the crate's
//! `Cargo.toml`). The file is the contract's *published* shape: a later change of the struct
//! that no longer matches it fails the snapshot test, and `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test`) accepts a compatible change.

use std::path::Path;

use contract_schema::compat::{self, CompatReport};
use contract_schema::contract::ContractInfo;
use contract_schema::snapshot::{self, PublishedError};
use contract_schema::text::to_text;
use contract_schema::Schema;

use crate::HandoffContract;

/// What a contract snapshot is made of: where it lives and the text it holds.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct ContractSnapshot {
    /// The absolute folder of the snapshot files.
    pub dir: &'static str,
    /// The insta snapshot name, `<name>.v<N>` (the file adds `.snap`).
    pub name: String,
    /// The canonical schema text.
    pub text: String,
    /// The line insta shows in its review.
    pub description: String,
}

/// The snapshot of contract `T`.
#[doc(hidden)]
#[must_use]
pub fn contract_snapshot<T: HandoffContract + ?Sized>() -> ContractSnapshot {
    let info = T::CONTRACT;
    ContractSnapshot {
        dir: info.snapshots_dir,
        name: snapshot::stem(info.name, info.version),
        text: to_text(&T::published_schema()),
        description: format!("handoff contract {}: both views, canonical text", info.id),
    }
}

/// What the snapshot test of `T` says before the texts are compared: see [`verdict`].
#[doc(hidden)]
pub fn snapshot_verdict<T: HandoffContract + ?Sized>(
    snapshot: &ContractSnapshot,
) -> Result<Option<String>, String> {
    verdict(&T::CONTRACT, &T::published_schema(), &snapshot.text)
}

/// The verdict of the compatibility engine on a contract's change, said before its text
/// diff: `Err` with the message to fail with when the change breaks the published snapshot
/// under the contract's mode (the rule ids first, then the text diff, then the report) or
/// when the snapshot cannot be read; `Ok(Some)` with the line to print before insta's diff
/// when the text changed compatibly, or when there is no snapshot yet; `Ok(None)` when the
/// text is the committed one.
pub(crate) fn verdict(
    info: &ContractInfo,
    current: &Schema,
    text: &str,
) -> Result<Option<String>, String> {
    let path = snapshot::path(Path::new(info.snapshots_dir), info.name, info.version);
    let file = path.display();
    let id = info.id;
    let mode = info.mode.as_str();
    let published = match snapshot::read_published(&path) {
        Ok(Some(published)) => published,
        Ok(None) => {
            return Ok(Some(format!(
                "{id} is new: it has no published snapshot {file} yet. Accept its text with \
                 `cargo insta review` (or run the tests once with `INSTA_UPDATE=always`) and \
                 commit the file to publish it."
            )))
        }
        Err(error) => {
            return Err(PublishedError::Unreadable {
                contract: info.contract_id(),
                error,
            }
            .to_string())
        }
    };
    let report = compat::evolve_with(&published, current, info.mode, &info.allowances());
    if !report.is_compatible() {
        let committed = committed_text(&path).unwrap_or_default();
        let (committed, text) = (
            format!("{}\n", committed.trim_end()),
            format!("{}\n", text.trim_end()),
        );
        let diff = similar::TextDiff::from_lines(&committed, &text)
            .unified_diff()
            .context_radius(2)
            .header(&format!("{file} (published)"), "this build")
            .to_string();
        let error = PublishedError::Incompatible {
            contract: info.contract_id(),
            path: path.clone(),
            mode: info.mode,
            report,
        };
        let ids = error.report().map(breaking_ids).unwrap_or_default();
        return Err(format!(
            "{id}: INCOMPATIBLE change under mode {mode}: {ids}\n\n{diff}\n{error}"
        ));
    }
    if committed_text(&path).is_some_and(|committed| committed.trim_end() == text.trim_end()) {
        return Ok(None);
    }
    let allowed = if report.findings().is_empty() {
        String::new()
    } else {
        let ids = rule_ids(report.findings().iter());
        format!(", with findings allowed on purpose: {ids}")
    };
    Ok(Some(format!(
        "{id}: compatible change under mode {mode}{allowed}; only its text differs from \
         {file}. Review the diff below and accept it with `cargo insta review` (or \
         `INSTA_UPDATE=always cargo test`), then commit the file."
    )))
}

/// The committed snapshot's text, without insta's header.
fn committed_text(path: &Path) -> Option<String> {
    let contents = std::fs::read_to_string(path).ok()?;
    let (body, _) = snapshot::strip_header(&contents).ok()?;
    Some(body.to_owned())
}

/// The rule ids of a report's breaking findings, each once, in the report's order.
fn breaking_ids(report: &CompatReport) -> String {
    rule_ids(report.breaking())
}

/// Rule ids, each once, in order, comma separated.
fn rule_ids<'r>(findings: impl Iterator<Item = &'r compat::Finding>) -> String {
    let mut ids: Vec<&str> = Vec::new();
    for finding in findings {
        let id = finding.rule.id();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.join(", ")
}

/// Asserts that the canonical schema text of a contract matches its committed snapshot,
/// `<snapshots dir>/<name>.v<N>.snap`.
///
/// The contract derive already emits this test for every non-generic contract when the
/// `snapshots` feature of `contract-core` is on (put it in your `[dev-dependencies]`), so
/// `cargo test` checks every contract of the crate; call the macro yourself for a generic
/// contract, at any concrete type: a generic contract publishes one snapshot per contract id,
/// with each type parameter as a hole (`any`), so every instantiation writes the same file.
///
/// Before comparing texts it checks the contract against the published snapshot with the
/// compatibility engine under the contract's mode ([`check_published`](crate::check_published))
/// and says its verdict first. A change that breaks a peer fails with the rule ids broken,
/// then the text diff, then the report; the published file is left as it is. A compatible
/// change says it is compatible (naming the findings allowed on purpose, if any), then fails
/// with insta's text diff, to be reviewed and accepted.
///
/// A new contract version has no snapshot yet: the first run writes
/// `<name>.v<N>.snap.new` and fails; accept it with `cargo insta review` (or run the tests
/// once with `INSTA_UPDATE=always`) and commit the file: the version is then *published*.
///
/// ```no_run
/// use contract_core::HandoffContract;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "ping", version = 1)]
/// struct Ping {
///     seq: u64,
/// }
///
/// contract_core::assert_contract_snapshot!(Ping);
/// ```
#[macro_export]
macro_rules! assert_contract_snapshot {
    ($ty:ty $(,)?) => {{
        let __snapshot = $crate::__private::contract_snapshot::<$ty>();
        match $crate::__private::snapshot_verdict::<$ty>(&__snapshot) {
            ::core::result::Result::Err(__message) => ::core::panic!("{}", __message),
            ::core::result::Result::Ok(::core::option::Option::Some(__verdict)) => {
                ::std::eprintln!("{}", __verdict);
            }
            ::core::result::Result::Ok(::core::option::Option::None) => {}
        }
        let mut __settings = $crate::__private::insta::Settings::clone_current();
        __settings.set_snapshot_path(__snapshot.dir);
        __settings.set_prepend_module_to_snapshot(false);
        __settings.set_omit_expression(true);
        __settings.set_description(__snapshot.description.clone());
        __settings.bind(|| {
            $crate::__private::insta::assert_snapshot!(__snapshot.name.as_str(), __snapshot.text);
        });
    }};
}

/// The snapshot test the contract derive emits beside each non-generic contract.
#[doc(hidden)]
#[macro_export]
macro_rules! __snapshot_test {
    ($krate:path; $ty:ident; $test:ident) => {
        #[cfg(test)]
        #[test]
        #[allow(non_snake_case)]
        fn $test() {
            $crate::assert_contract_snapshot!($ty);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::verdict;
    use contract_schema::contract::{AllowInfo, ContractInfo, Mode};
    use contract_schema::snapshot;
    use contract_schema::text::to_text;
    use contract_schema::Schema;

    const PUBLISHED: &str = "contract verdict-order/v1\nmode full\nroot Order\n\nstruct Order\n  \
        rust \"Order\"\n  unknown ignore\n  field qty: u32\n    send \"qty\" always\n    \
        receive \"qty\" required\n";

    /// `PUBLISHED` with `edit` applied, as the derive would describe it, and its text.
    fn current(edit: impl FnOnce(&str) -> String) -> (Schema, String) {
        let schema = snapshot::parse(&edit(PUBLISHED)).expect("a snapshot text");
        let text = to_text(&schema);
        (schema, text)
    }

    /// A contract `verdict-order/v1` published in a folder of its own, under `mode`.
    fn published(test: &str, allows: &'static [AllowInfo]) -> ContractInfo {
        let dir =
            std::env::temp_dir().join(format!("handoff-verdict-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let (_, text) = current(str::to_owned);
        std::fs::write(
            dir.join("verdict-order.v1.snap"),
            format!("---\nsource: tests\n---\n{text}"),
        )
        .expect("the snapshot written");
        ContractInfo {
            name: "verdict-order",
            version: 1,
            mode: Mode::Full,
            id: "verdict-order/v1",
            snapshots_dir: Box::leak(dir.display().to_string().into_boxed_str()),
            allows,
        }
    }

    #[test]
    fn the_published_text_says_nothing() {
        let info = published("same", &[]);
        let (schema, text) = current(str::to_owned);
        assert_eq!(verdict(&info, &schema, &text), Ok(None));
    }

    #[test]
    fn a_compatible_change_says_so_before_insta_s_diff() {
        let info = published("compatible", &[]);
        let (schema, text) = current(|t| {
            t.replace(
                "  field qty: u32\n",
                "  field qty: u32\n    doc \"How many.\"\n",
            )
        });
        let said = verdict(&info, &schema, &text)
            .expect("compatible")
            .expect("said");
        assert!(
            said.starts_with(
                "verdict-order/v1: compatible change under mode full; only its text differs from "
            ),
            "{said}"
        );
        assert!(said.contains("cargo insta review"), "{said}");
    }

    #[test]
    fn an_allowed_finding_is_named_in_the_verdict() {
        static ALLOWS: [AllowInfo; 1] = [AllowInfo {
            rule: "TYPE_CHANGED",
            field: "qty",
            reason: "every peer moved to strings",
        }];
        let info = published("allowed", &ALLOWS);
        let (schema, text) = current(|t| t.replace("qty: u32", "qty: string"));
        let said = verdict(&info, &schema, &text)
            .expect("compatible")
            .expect("said");
        assert!(
            said.starts_with(
                "verdict-order/v1: compatible change under mode full, with findings allowed on \
                 purpose: TYPE_CHANGED;"
            ),
            "{said}"
        );
    }

    #[test]
    fn a_breaking_change_names_its_rules_then_the_diff_then_the_report() {
        let info = published("breaking", &[]);
        let (schema, text) = current(|t| t.replace("qty: u32", "qty: string"));
        let message = verdict(&info, &schema, &text).expect_err("incompatible");
        let first = message.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            "verdict-order/v1: INCOMPATIBLE change under mode full: TYPE_CHANGED"
        );
        let diff = message
            .find("-  field qty: u32\n+  field qty: string")
            .expect("the diff");
        let report = message.find("error[TYPE_CHANGED]").expect("the report");
        assert!(diff < report, "{message}");
        assert!(message.contains("+++ this build"), "{message}");
    }

    #[test]
    fn a_new_version_says_it_is_unpublished() {
        let mut info = published("new", &[]);
        info.version = 2;
        info.id = "verdict-order/v2";
        let (schema, text) = current(|t| t.replace("/v1", "/v2"));
        let said = verdict(&info, &schema, &text).expect("new").expect("said");
        assert!(
            said.starts_with("verdict-order/v2 is new: it has no published snapshot "),
            "{said}"
        );
    }
}
