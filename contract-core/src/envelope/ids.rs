//! The contract ids an envelope names (`schemaVersion`, `contract`), checked before its
//! payload is read: the same name and major is read; another major only when the reader's
//! contract embeds a published snapshot of it that, as a writer, the reader reads
//! (`compat::check`); anything else is refused, naming both.

use std::any::TypeId;
use std::borrow::Cow;
use std::sync::{OnceLock, PoisonError, RwLock};

use rustc_hash::FxHashMap;

use contract_schema::compat;
use contract_schema::contract::is_contract_name;

use crate::runtime::problem::ProblemKind;
use crate::runtime::{other_versions, schema_for};
use crate::traits::HandoffContract;

/// The longest contract name an envelope may name and have repeated in a problem.
const MAX_NAME: usize = 128;

/// `name/vN` read from `text`: a contract name and a major version from 1, without sign or
/// leading zero.
pub(crate) fn parse(text: &str) -> Option<(&str, u32)> {
    let (name, version) = text.rsplit_once("/v")?;
    if name.len() > MAX_NAME || !is_contract_name(name) {
        return None;
    }
    if version.is_empty()
        || version.starts_with('0')
        || !version.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((name, version.parse().ok()?))
}

/// Whether the reader `T` reads what an envelope naming `found` holds: `Ok` for its own id,
/// or another major whose published snapshot it reads; else the problem, naming both.
pub(crate) fn check<T: HandoffContract + 'static>(found: &str) -> Result<(), ProblemKind> {
    let info = T::CONTRACT;
    if found == info.id {
        return Ok(());
    }
    let expected = Cow::Borrowed(info.id);
    let Some((name, version)) = parse(found) else {
        return Err(ProblemKind::UnreadableVersion { expected });
    };
    let found = || Cow::Owned(format!("{name}/v{version}"));
    if name != info.name {
        return Err(ProblemKind::OtherContract {
            expected,
            found: found(),
        });
    }
    if version == info.version {
        // `found` names this very contract (it would be `info.id`; kept for safety).
        return Ok(());
    }
    match verdict::<T>(version) {
        Verdict::Reads => Ok(()),
        Verdict::Unknown => Err(ProblemKind::OtherVersion {
            expected,
            found: found(),
            rule: None,
            path: None,
        }),
        Verdict::Breaks { rule, path } => Err(ProblemKind::OtherVersion {
            expected,
            found: found(),
            rule: Some(rule),
            path: Some(Cow::Borrowed(path)),
        }),
    }
}

/// What the reader `T` makes of another major of its contract.
#[derive(Debug, Clone, Copy)]
enum Verdict {
    /// Its embedded snapshot of that major passes `compat::check(that, T)`.
    Reads,
    /// No snapshot of that major is embedded.
    Unknown,
    /// Its snapshot breaks `T`: the first breaking rule and where.
    Breaks {
        rule: &'static str,
        path: &'static str,
    },
}

/// The verdict for `T` and `version`, checked once per pair and kept for the life of the
/// process (the versions an envelope may name that have a snapshot are few: the embedded
/// ones; an unknown one is not kept, so that senders cannot grow the cache).
fn verdict<T: HandoffContract + 'static>(version: u32) -> Verdict {
    static CACHE: OnceLock<RwLock<FxHashMap<(TypeId, u32), Verdict>>> = OnceLock::new();
    let key = (TypeId::of::<T>(), version);
    let cache = CACHE.get_or_init(RwLock::default);
    if let Some(verdict) = cache
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return *verdict;
    }
    let Some(that) = other_versions::<T>().iter().find(|schema| {
        schema
            .contract
            .as_ref()
            .is_some_and(|id| id.version == version)
    }) else {
        return Verdict::Unknown;
    };
    let report = compat::check(that, schema_for::<T>());
    let verdict = match report.breaking().next() {
        None => Verdict::Reads,
        Some(finding) => Verdict::Breaks {
            rule: finding.rule.id(),
            path: Box::leak(finding.path.clone().into_boxed_str()),
        },
    };
    *cache
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key)
        .or_insert(verdict)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn an_id_is_a_contract_name_and_a_major_from_one() {
        assert_eq!(parse("refund-request/v2"), Some(("refund-request", 2)));
        assert_eq!(parse("a/v10"), Some(("a", 10)));
        for bad in [
            "",
            "refund-request",
            "refund-request/v",
            "refund-request/v0",
            "refund-request/v01",
            "refund-request/v+1",
            "refund-request/v1 ",
            "Refund/v1",
            "refund_request/v1",
            "/v1",
            "refund-request/v99999999999",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(parse(&format!("{}/v1", "a".repeat(129))), None);
    }
}
