//! What the checker found: findings, the report that holds them, and which allowances
//! accept some of them on purpose.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::direction::Direction;
use super::fix::Fix;
use crate::allowance::{Allowance, Allowances};
use crate::rules::Rule;

/// One incompatibility, located and explained. It never holds a payload value: only field
/// names, type names and rule ids.
///
/// Findings are made by the engine ([`check`](super::check), [`evolve`](super::evolve), …);
/// read their fields, which may grow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// The rule it breaks.
    pub rule: Rule,
    /// Where, in wire names: `artifacts[].version`; `*` stands for any map key, `(Ready)` for
    /// an enum variant, `.0` for a tuple item; empty for the root.
    pub path: String,
    /// The wire name of the innermost field on the path, when there is one.
    pub field: Option<String>,
    /// Which pairing breaks.
    pub direction: Direction,
    /// With a history ([`evolve_history`](super::evolve_history)): the index in the list of
    /// older versions this finding is against.
    pub against: Option<usize>,
    /// Why it breaks, in one line.
    pub why: String,
    /// How to fix it, in words: the text of `fix`, for the contract's mode.
    pub hint: String,
    /// How to fix it, as data (under mode `full`, a fix that holds both ways).
    pub fix: Fix,
    /// The reason it was accepted on purpose, when an [`Allowance`] covers it.
    pub allowed: Option<String>,
}

impl Finding {
    /// A finding at `path` (no innermost field, no history, not allowed), for the tools of
    /// this workspace that report what the engine cannot see (a snapshot file removed from a
    /// `contracts/` folder). Not public API.
    #[doc(hidden)]
    #[must_use]
    pub fn new(
        rule: Rule,
        path: impl Into<String>,
        direction: Direction,
        why: impl Into<String>,
        hint: impl Into<String>,
        fix: Fix,
    ) -> Self {
        Self {
            rule,
            path: path.into(),
            field: None,
            direction,
            against: None,
            why: why.into(),
            hint: hint.into(),
            fix,
            allowed: None,
        }
    }

    /// Whether this finding makes the change incompatible (it is not allowed).
    #[must_use]
    pub fn is_breaking(&self) -> bool {
        self.allowed.is_none()
    }

    /// The path as displayed: `<root>` for the empty path.
    #[must_use]
    pub fn display_path(&self) -> &str {
        if self.path.is_empty() {
            "<root>"
        } else {
            &self.path
        }
    }
}

/// `error[FIELD_REMOVED]: …` followed by its location and its help, like rustc.
impl core::fmt::Display for Finding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let level = if self.is_breaking() {
            "error"
        } else {
            "allowed"
        };
        writeln!(f, "{level}[{}]: {}", self.rule.id(), self.why)?;
        write!(
            f,
            "  --> {} ({}: {}",
            self.display_path(),
            self.direction,
            self.direction.pairing()
        )?;
        if let Some(index) = self.against {
            write!(f, "; against older version #{index}")?;
        }
        writeln!(f, ")")?;
        write!(f, "   = help: {}", self.hint)?;
        if let Some(reason) = &self.allowed {
            write!(f, "\n   = note: allowed on purpose: {reason}")?;
        }
        Ok(())
    }
}

/// The outcome of a compatibility check: every finding, breaking or allowed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompatReport {
    findings: Vec<Finding>,
}

impl CompatReport {
    /// A report holding these findings, for the engine and the tools of this workspace.
    /// Not public API: reports come from [`check`](super::check), [`evolve`](super::evolve)
    /// and the functions beside them.
    #[doc(hidden)]
    #[must_use]
    pub fn new(findings: Vec<Finding>) -> Self {
        Self { findings }
    }

    /// Whether no finding breaks (every finding, if any, is allowed).
    #[must_use]
    pub fn is_compatible(&self) -> bool {
        self.findings.iter().all(|f| !f.is_breaking())
    }

    /// Every finding, in the order found.
    #[must_use]
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The findings that break (not allowed).
    pub fn breaking(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_breaking())
    }

    /// With a history: the indexes of the older versions that have a breaking finding,
    /// ascending and without repeats.
    #[must_use]
    pub fn failing_versions(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.breaking().filter_map(|f| f.against).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether some finding, breaking or allowed, is of this rule.
    #[must_use]
    pub fn has(&self, rule: Rule) -> bool {
        self.findings.iter().any(|f| f.rule == rule)
    }

    /// Merges another report's findings into this one.
    pub fn extend(&mut self, other: CompatReport) {
        self.findings.extend(other.findings);
    }

    /// Marks every finding an allowance covers as allowed, with its reason.
    pub fn apply(&mut self, allowances: &Allowances) {
        for finding in &mut self.findings {
            if let Some(a) = allowances.covering(finding) {
                finding.allowed = Some(a.reason.clone());
            }
        }
    }
}

/// Every finding, then a summary line.
impl core::fmt::Display for CompatReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for finding in &self.findings {
            writeln!(f, "{finding}")?;
            writeln!(f)?;
        }
        let breaking = self.breaking().count();
        let allowed = self.findings.len() - breaking;
        if breaking == 0 {
            write!(f, "compatible")?;
        } else {
            let s = if breaking == 1 { "" } else { "s" };
            write!(f, "incompatible: {breaking} breaking finding{s}")?;
        }
        if allowed > 0 {
            write!(f, " ({allowed} allowed on purpose)")?;
        }
        Ok(())
    }
}

/// `{"compatible": bool, "findings": [...]}`.
impl Serialize for CompatReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("CompatReport", 2)?;
        s.serialize_field("compatible", &self.is_compatible())?;
        s.serialize_field("findings", &self.findings)?;
        s.end()
    }
}

/// Whether an allowance covers a finding: the engine's side of an allowance, beside the
/// findings it is matched with.
impl Allowance {
    /// Whether this allowance covers the finding: the same rule, and `field` is the
    /// finding's whole path, the wire name of its innermost field, or a path the finding's
    /// path goes on from (`lines` covers `lines[].qty`: an allowance on a field holds for
    /// what its type holds). The one matcher is [`covers`](crate::compat::covers), which the
    /// compile-time check of nested types evaluates in a `const`.
    #[must_use]
    pub fn covers(&self, finding: &Finding) -> bool {
        crate::allowance::covers(
            &self.rule,
            &self.field,
            finding.rule.id(),
            &finding.path,
            match &finding.field {
                Some(field) => field,
                None => "",
            },
        )
    }
}

/// The allowances matched with the findings of a report.
impl Allowances {
    /// The allowances that cover no finding of the report: stale ones, left behind after
    /// the change they accepted was published (or typos in a field name).
    pub fn unused<'a>(&'a self, report: &'a CompatReport) -> impl Iterator<Item = &'a Allowance> {
        self.as_slice()
            .iter()
            .filter(move |a| !report.findings().iter().any(|f| a.covers(f)))
    }

    /// The first allowance that covers the finding.
    #[must_use]
    pub fn covering(&self, finding: &Finding) -> Option<&Allowance> {
        self.as_slice().iter().find(|a| a.covers(finding))
    }
}
