//! The findings a contract accepts on purpose: a rule at a field, with a reason. Part of
//! the description, as a published contract's text holds them (`allow` lines); whether one
//! covers a finding is the compatibility engine's question
//! ([`Allowance::covers`], in [`compat`](crate::compat)).

use serde::Serialize;

use crate::rules::Rule;

/// One finding accepted on purpose: a rule at a field, with the reason kept in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Allowance {
    /// The rule id (`"FIELD_REMOVED"`).
    pub rule: String,
    /// The finding's whole path (`artifacts[].version`) or the wire name of its innermost
    /// field (`version`).
    pub field: String,
    /// Why it is accepted.
    pub reason: String,
}

/// The findings accepted on purpose (the derive fills this from
/// `#[handoff(allow(RULE_ID, reason = "…"))]`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Allowances {
    list: Vec<Allowance>,
}

impl Allowances {
    /// No allowance.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an allowance of `rule` (its id) at `field` (a path or a wire name), for `reason`.
    #[must_use]
    pub fn allow(
        mut self,
        rule: impl Into<String>,
        field: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.push(Allowance {
            rule: rule.into(),
            field: field.into(),
            reason: reason.into(),
        });
        self
    }

    /// Adds an allowance.
    pub fn push(&mut self, allowance: Allowance) {
        self.list.push(allowance);
    }

    /// The allowances, in the order added.
    #[must_use]
    pub fn as_slice(&self) -> &[Allowance] {
        &self.list
    }

    /// The allowances whose rule id is not in the catalogue (a typo would silently allow
    /// nothing).
    pub fn unknown_rules(&self) -> impl Iterator<Item = &Allowance> {
        self.list
            .iter()
            .filter(|a| Rule::from_id(&a.rule).is_none())
    }
}

impl FromIterator<Allowance> for Allowances {
    fn from_iter<I: IntoIterator<Item = Allowance>>(iter: I) -> Self {
        Self {
            list: iter.into_iter().collect(),
        }
    }
}
