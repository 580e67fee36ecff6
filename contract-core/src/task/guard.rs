//! Enforcing a [`Scope`]'s `excludedActions`: an action is asked for before it runs, and an
//! excluded one is refused, as [`BudgetMeter`](super::BudgetMeter) refuses a call over
//! budget.
//!
//! A list of forbidden actions in a prompt ("do not buy anything") guarantees nothing; the
//! program asks the [`ActionGuard`] before each action with an effect and takes it only when
//! allowed. Refusals are counted, and (feature `tracing`) each is a `WARN` event inside the
//! span current when it is refused (an acceptance's, a receive's), with the count so far,
//! never the action's name (the scope's list is the task's data).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::contract::Scope;

/// An action refused: the scope excludes it. Its `Display` does not repeat the action's name
/// (the caller has it: [`ActionExcluded::action`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionExcluded {
    action: String,
    index: usize,
}

impl ActionExcluded {
    /// The action refused, as it was asked for.
    #[must_use]
    pub fn action(&self) -> &str {
        &self.action
    }

    /// Where the scope lists it: its index in `excludedActions`.
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }
}

impl fmt::Display for ActionExcluded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action refused: the sub-task's scope excludes it (scope.excludedActions[{}])",
            self.index
        )
    }
}

impl std::error::Error for ActionExcluded {}

/// The actions a sub-task's assignee may take, from its [`Scope`]: every action but the
/// excluded ones. Clones share their count of refusals, so that one guard serves the calls of
/// one sub-task across threads.
///
/// Actions are compared as written, but for ASCII case and surrounding whitespace (`Buy`,
/// ` buy` are `buy`): a scope written by people or models spells them loosely, and a refusal
/// that a capital letter escapes would be none.
///
/// ```
/// use contract_core::task::{ActionGuard, Scope};
///
/// let scope = Scope { required_fields: vec![], excluded_actions: vec!["buy".into()] };
/// let guard = ActionGuard::new(&scope);
/// assert!(guard.permit("search").is_ok());
/// let refused = guard.permit("Buy").unwrap_err();
/// assert_eq!(refused.index(), 0);
/// assert_eq!(guard.refused(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct ActionGuard {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    /// The excluded actions, normalised, in the scope's order.
    excluded: Vec<String>,
    refused: AtomicU64,
}

/// An action's name as compared: trimmed, ASCII lowercase.
fn normalised(action: &str) -> String {
    action.trim().to_ascii_lowercase()
}

impl ActionGuard {
    /// The guard of `scope`.
    #[must_use]
    pub fn new(scope: &Scope) -> Self {
        ActionGuard {
            shared: Arc::new(Shared {
                excluded: scope
                    .excluded_actions
                    .iter()
                    .map(|a| normalised(a))
                    .collect(),
                refused: AtomicU64::new(0),
            }),
        }
    }

    /// Asks for `action` before it runs: `Ok` when the scope allows it; refused, and counted,
    /// when the scope excludes it.
    ///
    /// # Errors
    /// [`ActionExcluded`], naming where the scope excludes the action.
    pub fn permit(&self, action: &str) -> Result<(), ActionExcluded> {
        let asked = normalised(action);
        let Some(index) = self.shared.excluded.iter().position(|a| *a == asked) else {
            return Ok(());
        };
        let refused = self.shared.refused.fetch_add(1, Ordering::AcqRel) + 1;
        #[cfg(feature = "tracing")]
        tracing::warn!(
            handoff.actions_refused = i64::try_from(refused).unwrap_or(i64::MAX),
            handoff.excluded_index = i64::try_from(index).unwrap_or(i64::MAX),
            "action refused: the sub-task's scope excludes it"
        );
        #[cfg(not(feature = "tracing"))]
        let _ = refused;
        Err(ActionExcluded {
            action: action.to_owned(),
            index,
        })
    }

    /// Whether the scope allows `action`, without asking for it (nothing counted).
    #[must_use]
    pub fn allows(&self, action: &str) -> bool {
        let asked = normalised(action);
        !self.shared.excluded.contains(&asked)
    }

    /// How many actions were refused so far.
    #[must_use]
    pub fn refused(&self) -> u64 {
        self.shared.refused.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(excluded: &[&str]) -> Scope {
        Scope {
            required_fields: vec![],
            excluded_actions: excluded.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn excluded_actions_are_refused_before_they_run_and_counted_across_clones() {
        let guard = ActionGuard::new(&scope(&["buy", "send_email"]));
        let other = guard.clone();
        assert!(guard.permit("search").is_ok());
        assert!(guard.allows("compare"));
        assert_eq!(guard.permit(" SEND_EMAIL ").unwrap_err().index(), 1);
        assert_eq!(other.permit("buy").unwrap_err().action(), "buy");
        assert!(!other.allows("Buy"));
        assert_eq!(guard.refused(), 2);
    }

    #[test]
    fn a_refusal_does_not_repeat_the_action() {
        let guard = ActionGuard::new(&scope(&["wire-SECRET-funds"]));
        let refused = guard.permit("wire-secret-funds").unwrap_err();
        assert!(!refused.to_string().to_lowercase().contains("secret"));
    }

    #[test]
    fn an_empty_scope_allows_everything() {
        let guard = ActionGuard::new(&scope(&[]));
        assert!(guard.permit("buy").is_ok());
        assert_eq!(guard.refused(), 0);
    }
}
