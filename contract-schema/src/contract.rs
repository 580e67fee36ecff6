//! A contract's identity and policy: its id `name/vN`, the compatibility [`Mode`] between
//! versions of one major, and the findings it accepts on purpose.
//!
//! [`ContractInfo`] is what `#[derive(HandoffContract)]` emits beside the type's
//! [`Shape`](crate::Shape), as plain `'static` data; [`ContractId`] is its owned identity,
//! carried by a [`Schema`](crate::Schema) and written in the canonical text's `contract`
//! line. The static description of the type itself lives in [`shape`](crate::shape), which
//! knows nothing of contracts.

use crate::allowance::{Allowance, Allowances};

/// A contract's identity: `name/vN`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContractId {
    /// The kebab-case name.
    pub name: String,
    /// The major version, at least 1.
    pub version: u32,
}

impl core::fmt::Display for ContractId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/v{}", self.name, self.version)
    }
}

/// Whether `name` may name a contract: kebab-case, that is lowercase ASCII letters and
/// digits in words joined by single hyphens, starting with a letter (`refund-request`,
/// `task2-result`; not `2fa`, `Refund`, `refund_request`, `refund--request`).
///
/// The one rule for contract names: the derive checks `#[handoff(name = "…")]` with it, the
/// canonical text's parser checks the `contract` line with it, and snapshot file names
/// (`contracts/<name>.v<N>.snap`) are read with it.
#[must_use]
pub fn is_contract_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.split('-').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The static identity and policy of a contract, as the derive emits it.
#[derive(Debug, Clone, Copy)]
pub struct ContractInfo {
    /// The kebab-case name.
    pub name: &'static str,
    /// The major version.
    pub version: u32,
    /// The compatibility mode between versions of this major.
    pub mode: Mode,
    /// `name/vN`, precomputed.
    pub id: &'static str,
    /// The absolute folder of the contract's snapshot files, resolved by the derive.
    pub snapshots_dir: &'static str,
    /// The findings accepted on purpose between versions of this major
    /// (`#[handoff(allow(RULE_ID, reason = "…"))]`).
    pub allows: &'static [AllowInfo],
}

/// One finding accepted on purpose, as the derive emits it from
/// `#[handoff(allow(RULE_ID, reason = "…"))]` on a field (`field` is then that field's wire
/// name) or `#[handoff(allow(RULE_ID, field = "wireName", reason = "…"))]` on the container
/// (for a field that no longer exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AllowInfo {
    /// The rule id (`"FIELD_REMOVED"`), one of [`Rule::id`](crate::compat::Rule::id).
    pub rule: &'static str,
    /// The wire name of the field (or the whole path of the finding) it applies to.
    pub field: &'static str,
    /// Why the finding is accepted; kept in the compatibility report.
    pub reason: &'static str,
}

impl ContractInfo {
    /// The owned id.
    #[must_use]
    pub fn contract_id(&self) -> ContractId {
        ContractId {
            name: self.name.to_owned(),
            version: self.version,
        }
    }

    /// The findings this contract accepts on purpose, for
    /// [`compat::evolve_with`](crate::compat::evolve_with).
    #[must_use]
    pub fn allowances(&self) -> Allowances {
        self.allows
            .iter()
            .map(|a| Allowance {
                rule: a.rule.to_owned(),
                field: a.field.to_owned(),
                reason: a.reason.to_owned(),
            })
            .collect()
    }
}

impl core::fmt::Display for ContractInfo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.id)
    }
}

/// How two versions of one contract must relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// New readers read data from old writers.
    Backward,
    /// Old readers read data from new writers.
    Forward,
    /// Both (the default).
    #[default]
    Full,
    /// Backward against every older version.
    BackwardTransitive,
    /// Forward against every older version.
    ForwardTransitive,
    /// Full against every older version.
    FullTransitive,
}

impl Mode {
    /// Every mode, in the order the canonical text's errors list them.
    pub const ALL: [Mode; 6] = [
        Mode::Backward,
        Mode::Forward,
        Mode::Full,
        Mode::BackwardTransitive,
        Mode::ForwardTransitive,
        Mode::FullTransitive,
    ];

    /// The canonical spelling (`"full"`, `"backward-transitive"`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Backward => "backward",
            Mode::Forward => "forward",
            Mode::Full => "full",
            Mode::BackwardTransitive => "backward-transitive",
            Mode::ForwardTransitive => "forward-transitive",
            Mode::FullTransitive => "full-transitive",
        }
    }

    /// Parses the canonical spelling.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Mode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::{is_contract_name, Mode};

    #[test]
    fn contract_names_are_lowercase_words_joined_by_single_hyphens_starting_with_a_letter() {
        for good in ["refund-request", "a", "task2-result", "a-2fa", "v2"] {
            assert!(is_contract_name(good), "{good}");
        }
        for bad in [
            "",
            "Refund",
            "refund_request",
            "refund--request",
            "-a",
            "a-",
            "a.b",
            "x y",
            // A name starts with a letter.
            "2fa",
            "2-fa",
            "-",
        ] {
            assert!(!is_contract_name(bad), "{bad}");
        }
    }

    #[test]
    fn every_mode_is_listed_once_and_parses_back() {
        for (i, mode) in Mode::ALL.into_iter().enumerate() {
            // Six variants (a new one fails to compile here), six distinct entries: all.
            match mode {
                Mode::Backward
                | Mode::Forward
                | Mode::Full
                | Mode::BackwardTransitive
                | Mode::ForwardTransitive
                | Mode::FullTransitive => {}
            }
            assert_eq!(Mode::parse(mode.as_str()), Some(mode));
            assert!(!Mode::ALL.iter().take(i).any(|m| *m == mode));
        }
        assert_eq!(Mode::parse("Full"), None);
        assert_eq!(Mode::parse(""), None);
    }
}
