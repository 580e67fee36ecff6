//! The findings a contract accepts on purpose: a rule at a field, with a reason. Part of
//! the description, as a published contract's text holds them (`allow` lines); whether one
//! covers a finding is the compatibility engine's question
//! ([`Allowance::covers`], in [`compat`](crate::compat)).

use serde::Serialize;

use crate::rules::Rule;

/// Whether an allowance of rule `allowed_rule` at `field` covers a finding of rule `rule` at
/// `path` whose innermost field is `innermost` (empty for none): the same rule, and `field`
/// is the whole path, the innermost field's wire name, or a path that `path` goes on from
/// (followed by `.`, `[` or `(`: `lines` covers `lines[].qty` and `kind(Refund)`, not
/// `linesTotal`). A `const fn`, so that the compile-time check of a nested type, evaluated
/// in a `const`, matches exactly as [`Allowance`]s do in every report.
#[must_use]
pub const fn covers(
    allowed_rule: &str,
    field: &str,
    rule: &str,
    path: &str,
    innermost: &str,
) -> bool {
    if !same(allowed_rule.as_bytes(), rule.as_bytes()) || field.is_empty() {
        return false;
    }
    let (field, path) = (field.as_bytes(), path.as_bytes());
    if same(path, field) || same(innermost.as_bytes(), field) {
        return true;
    }
    if path.len() <= field.len() {
        return false;
    }
    let mut i = 0;
    while i < field.len() {
        if path[i] != field[i] {
            return false;
        }
        i += 1;
    }
    matches!(path[field.len()], b'.' | b'[' | b'(')
}

/// Byte equality, in a `const fn`.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// One finding accepted on purpose: a rule at a field, with the reason kept in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Allowance {
    /// The rule id (`"FIELD_REMOVED"`).
    pub rule: String,
    /// The finding's whole path (`artifacts[].version`), the wire name of its innermost
    /// field (`version`), or a path the finding's path goes on from (`artifacts`: an
    /// allowance on a field covers what the types it holds find).
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
