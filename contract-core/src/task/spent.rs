//! What a task spent, as the handoff that ends it reports it: counts of calls, tokens and
//! refusals, read off the task's [`BudgetMeter`] and [`ActionGuard`], never a call's content
//! or an action's name.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::guard::ActionGuard;
use super::meter::{BudgetMeter, Call};

/// What a task spent of its [`Budget`](super::Budget) and what its limits refused, as a
/// handoff carries it (`Handoff::spent`, the envelope's `spent`) and the receiving ledger
/// records it with the handoff's step, so that the session view shows, at each hop, what the
/// work before it cost and what it was stopped from doing.
///
/// Counts only: no call's content and no action's name (a name of an excluded action is the
/// scope's, and the scope is in the sub-task the receiver already has).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, crate::HandoffSchema,
)]
#[handoff(crate = "crate")]
#[serde(rename_all = "camelCase")]
pub struct Spent {
    /// Model calls made (each reserved call counts, finished or not).
    #[serde(default)]
    pub model_calls: u64,
    /// Tool calls made.
    #[serde(default)]
    pub tool_calls: u64,
    /// Tokens recorded, prompt and completion together.
    #[serde(default)]
    pub tokens: u64,
    /// Calls the budget refused (a limit spent, or past the deadline).
    #[serde(default)]
    pub calls_refused: u64,
    /// Actions the task's scope refused before they ran (its `excludedActions`).
    #[serde(default)]
    pub actions_refused: u64,
}

impl Spent {
    /// What `meter` counted so far: calls of each kind, tokens, and the calls it refused.
    ///
    /// ```
    /// use contract_core::task::{ActionGuard, Budget, BudgetMeter, Call, Scope, Spent};
    ///
    /// let meter = BudgetMeter::new(&Budget { max_tool_calls: Some(1), ..Budget::default() });
    /// let guard = ActionGuard::new(&Scope {
    ///     required_fields: vec![],
    ///     excluded_actions: vec!["buy".into()],
    /// });
    /// let permit = meter.reserve(Call::Tool)?;
    /// permit.record_tokens(0);
    /// drop(permit);
    /// assert!(meter.reserve(Call::Tool).is_err()); // over the budget: refused, counted
    /// assert!(guard.permit("buy").is_err()); // excluded: refused, counted
    ///
    /// let spent = Spent::of(&meter).actions(&guard);
    /// assert_eq!((spent.tool_calls, spent.calls_refused, spent.actions_refused), (1, 1, 1));
    /// assert_eq!(
    ///     serde_json::to_string(&spent)?,
    ///     r#"{"modelCalls":0,"toolCalls":1,"tokens":0,"callsRefused":1,"actionsRefused":1}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn of(meter: &BudgetMeter) -> Spent {
        Spent {
            model_calls: meter.spent(Call::Model),
            tool_calls: meter.spent(Call::Tool),
            tokens: meter.tokens(),
            calls_refused: meter.refused(),
            actions_refused: 0,
        }
    }

    /// With the actions `guard` refused so far.
    #[must_use]
    pub fn actions(mut self, guard: &ActionGuard) -> Spent {
        self.actions_refused = guard.refused();
        self
    }

    /// Whether anything was refused: a call over the budget or an excluded action.
    #[must_use]
    pub fn any_refused(&self) -> bool {
        self.calls_refused > 0 || self.actions_refused > 0
    }
}

/// `3 model calls, 5 tool calls, 1200 tokens; refused: 1 call over the budget, 1 excluded
/// action` (the refusals only when there were some).
impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n =
            |n: u64, one: &'static str, many: &'static str| (n, if n == 1 { one } else { many });
        let (m, model) = n(self.model_calls, "model call", "model calls");
        let (t, tool) = n(self.tool_calls, "tool call", "tool calls");
        let (k, tokens) = n(self.tokens, "token", "tokens");
        write!(f, "{m} {model}, {t} {tool}, {k} {tokens}")?;
        if self.any_refused() {
            let mut refused = Vec::with_capacity(2);
            if self.calls_refused > 0 {
                let (c, calls) = n(self.calls_refused, "call", "calls");
                refused.push(format!("{c} {calls} over the budget"));
            }
            if self.actions_refused > 0 {
                let (a, actions) = n(self.actions_refused, "excluded action", "excluded actions");
                refused.push(format!("{a} {actions}"));
            }
            write!(f, "; refused: {}", refused.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_the_counts_and_only_the_refusals_there_were() {
        let spent = Spent {
            model_calls: 1,
            tool_calls: 5,
            tokens: 1200,
            ..Spent::default()
        };
        assert_eq!(spent.to_string(), "1 model call, 5 tool calls, 1200 tokens");
        let refused = Spent {
            calls_refused: 2,
            actions_refused: 1,
            ..spent
        };
        assert_eq!(
            refused.to_string(),
            "1 model call, 5 tool calls, 1200 tokens; refused: 2 calls over the budget, \
             1 excluded action"
        );
    }

    #[test]
    fn an_old_or_partial_report_reads_with_zeros() {
        let spent: Spent = serde_json::from_str(r#"{"toolCalls":2}"#).unwrap();
        assert_eq!(
            spent,
            Spent {
                tool_calls: 2,
                ..Spent::default()
            }
        );
    }
}
