//! Judging a sub-task's result against its task: which required fields the evidence settles,
//! whether the claim of `completed` holds, and whether the result answers this revision.
//!
//! Seed `001_…`: `completed` only says the assignee thinks the work is done; the supervisor
//! checks that the required fields are all there, that their sources can be read, and that
//! they answer the current task. A field that was not found is not "none", and a tool's
//! failure is not "all done". When the task changes (a lower budget), the old result's
//! observations remain facts of a lookup; its conclusion no longer applies.

use std::fmt;

use serde_json::Value;

use super::contract::{Evidence, ResultStatus, Subtask, SubtaskResult};
use super::lookup::Lookup;

/// Whether a `sourceRef` names a source the receiver can read (the application
/// maps references to URLs, files or records; an unresolvable `source_1` lets nobody check
/// the value).
///
/// Implemented for every `Fn(&str) -> bool`:
///
/// ```
/// use contract_core::task::SourceResolver;
///
/// let known = ["sources/c-offer", "sources/c-spec"];
/// let resolver = |source: &str| known.contains(&source);
/// assert!(resolver.resolves("sources/c-spec"));
/// assert!(!resolver.resolves("source_1"));
/// ```
pub trait SourceResolver {
    /// Whether `source_ref` can be read by the receiver.
    fn resolves(&self, source_ref: &str) -> bool;
}

impl<F: Fn(&str) -> bool + ?Sized> SourceResolver for F {
    fn resolves(&self, source_ref: &str) -> bool {
        self(source_ref)
    }
}

/// A place in the result, shown as its JSON pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// `/evidence/<index>`.
    Evidence(usize),
    /// `/unresolved/<index>`.
    Unresolved(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Evidence(at) => write!(f, "/evidence/{at}"),
            Place::Unresolved(at) => write!(f, "/unresolved/{at}"),
        }
    }
}

/// How a required field stands in a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Confirmed by the evidence at this index, whose source resolves.
    Confirmed(usize),
    /// Looked for and not found: the `not_found` evidence at this index.
    NotFound(usize),
    /// Listed at this index of `unresolved`.
    Unresolved(usize),
    /// Only assumed (the evidence at this index): an assumption is no confirmation.
    Assumed(usize),
    /// Confirmed by the evidence at this index, but its `sourceRef` does not resolve:
    /// nobody can check it.
    SourceUnresolved(usize),
    /// "Confirmed" as `null` by the evidence at this index: `null` cannot tell a value that
    /// is none from one that was not found.
    ConfirmedNull(usize),
    /// The result contradicts itself: two confirmations with different values, or a
    /// confirmation beside a `not_found` or an `unresolved` entry for the same field.
    Conflicting(Place, Place),
    /// The result says nothing of the field: no evidence, not listed as unresolved.
    Missing,
}

impl FieldState {
    /// Whether the field is confirmed by a source the receiver can read.
    #[must_use]
    pub fn is_confirmed(&self) -> bool {
        matches!(self, FieldState::Confirmed(_))
    }

    /// Whether the field is declared open (not found, unresolved, or only assumed): honest,
    /// but the result may then not claim `completed`.
    #[must_use]
    pub fn is_open(&self) -> bool {
        matches!(
            self,
            FieldState::NotFound(_) | FieldState::Unresolved(_) | FieldState::Assumed(_)
        )
    }

    /// Whether the result is at fault for the field: a source nobody can read, a `null`, a
    /// contradiction, or silence.
    #[must_use]
    pub fn is_fault(&self) -> bool {
        !self.is_confirmed() && !self.is_open()
    }
}

impl fmt::Display for FieldState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldState::Confirmed(at) => {
                write!(
                    f,
                    "confirmed, its source resolves ({})",
                    Place::Evidence(*at)
                )
            }
            FieldState::NotFound(at) => write!(f, "not found ({})", Place::Evidence(*at)),
            FieldState::Unresolved(at) => write!(f, "unresolved ({})", Place::Unresolved(*at)),
            FieldState::Assumed(at) => {
                write!(f, "only assumed, not confirmed ({})", Place::Evidence(*at))
            }
            FieldState::SourceUnresolved(at) => write!(
                f,
                "confirmed by a source that does not resolve: nobody can check it ({}/sourceRef)",
                Place::Evidence(*at)
            ),
            FieldState::ConfirmedNull(at) => write!(
                f,
                "confirmed as null, which cannot tell none from not found ({}/value)",
                Place::Evidence(*at)
            ),
            FieldState::Conflicting(first, second) => {
                write!(f, "contradicted: {first} and {second} disagree")
            }
            FieldState::Missing => {
                f.write_str("missing: no evidence, and not listed as unresolved")
            }
        }
    }
}

/// One required field of the task, judged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldVerdict {
    field: String,
    state: FieldState,
}

impl FieldVerdict {
    /// The field, as `scope.requiredFields` names it.
    #[must_use]
    pub fn field(&self) -> &str {
        &self.field
    }

    /// How it stands.
    #[must_use]
    pub fn state(&self) -> FieldState {
        self.state
    }
}

/// What becomes of a result's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Conclusion {
    /// It answers the current revision, claims `completed`, and every required field is
    /// confirmed by a source that resolves.
    Accepted,
    /// It does not claim `completed` (`partial`, `failed`); the fields say what is settled.
    Incomplete,
    /// It claims `completed`, but a required field is not confirmed or `unresolved` is not
    /// empty: the claim is refused.
    Overclaimed,
    /// It answers an older revision of the task: the conclusion no longer applies; the
    /// observations are kept.
    Outdated {
        /// The revision the result answers.
        answered: u32,
        /// The task's revision.
        current: u32,
    },
    /// It names a revision the task does not have yet: nothing of it applies.
    UnknownRevision {
        /// The revision the result answers.
        answered: u32,
        /// The task's revision.
        current: u32,
    },
    /// It answers another task: nothing of it applies.
    OtherTask,
}

impl fmt::Display for Conclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Conclusion::Accepted => "accepted: completed, every required field confirmed",
            Conclusion::Incomplete => "incomplete: the result does not claim completed",
            Conclusion::Overclaimed => {
                "refused: the result claims completed, but not every required field is confirmed"
            }
            Conclusion::Outdated { .. } => "void: the result answers an older revision of the task",
            Conclusion::UnknownRevision { .. } => {
                "void: the result answers a revision the task does not have"
            }
            Conclusion::OtherTask => "void: the result answers another task",
        })
    }
}

/// The judgment of a [`SubtaskResult`] against its [`Subtask`]: the conclusion's fate, each
/// required field's state, and the observations kept. Its text names fields, states and JSON
/// pointers into the result, never a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    conclusion: Conclusion,
    fields: Vec<FieldVerdict>,
    observations: Vec<usize>,
}

impl Verdict {
    /// What becomes of the result's conclusion.
    #[must_use]
    pub fn conclusion(&self) -> Conclusion {
        self.conclusion
    }

    /// Whether the conclusion stands ([`Conclusion::Accepted`]).
    #[must_use]
    pub fn is_accepted(&self) -> bool {
        self.conclusion == Conclusion::Accepted
    }

    /// The task's required fields, in the task's order, each judged.
    #[must_use]
    pub fn fields(&self) -> &[FieldVerdict] {
        &self.fields
    }

    /// The verdict on one required field, by name.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&FieldVerdict> {
        self.fields.iter().find(|f| f.field == name)
    }

    /// The indexes in `evidence` of the observations kept: confirmed, not `null`, from a
    /// source that resolves, of any field. Kept when the conclusion is void because the task
    /// changed since; none when the result answers another task or an unknown revision.
    #[must_use]
    pub fn observations(&self) -> &[usize] {
        &self.observations
    }

    /// The observations kept, read from the result judged.
    pub fn kept<'a, 'r: 'a>(
        &'a self,
        result: &'r SubtaskResult,
    ) -> impl Iterator<Item = &'r Evidence> + 'a {
        self.observations
            .iter()
            .filter_map(move |&at| result.evidence.get(at))
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "subtask result: conclusion {}", self.conclusion)?;
        write!(f, "; observations kept: {}", self.observations.len())?;
        for field in &self.fields {
            write!(f, "\n  {}: {}", field.field, field.state)?;
        }
        Ok(())
    }
}

/// Judges `result` against `task`, reading sources through `sources`.
///
/// Each of the task's `scope.requiredFields` must be confirmed by evidence whose `sourceRef`
/// resolves, or be declared open: `not_found` evidence, or listed in `unresolved` (an
/// `assumed` value counts as open too). With a field open, the result may not claim
/// `completed` ([`Conclusion::Overclaimed`]). A result answering an older `taskRevision`
/// has its conclusion voided ([`Conclusion::Outdated`]), its fields judged and its
/// observations kept.
///
/// ```
/// use contract_core::task::{judge, Conclusion, Evidence, Lookup, ResultStatus, Scope, Subtask, SubtaskResult};
///
/// let task = Subtask {
///     task_id: "verify-c".into(),
///     task_revision: 1,
///     assignee: "product_researcher".into(),
///     goal: "check C against the purchase limits".into(),
///     input: Default::default(),
///     working_assumptions: vec![],
///     scope: Scope { required_fields: vec!["weightKg".into()], excluded_actions: vec![] },
///     acceptance: vec![],
///     budget: None,
///     deliverable: "a structured result".into(),
/// };
/// let result = SubtaskResult {
///     task_id: "verify-c".into(),
///     task_revision: 1,
///     status: ResultStatus::Completed,
///     conclusion: "C is light enough".into(),
///     evidence: vec![Evidence {
///         evidence_id: "c-weight-01".into(),
///         field: "weightKg".into(),
///         value: Lookup::Confirmed { value: 1.42.into() },
///         source_ref: "sources/c-spec".into(),
///         locator: None,
///         observed_at: "2026-09-28T10:00:00+08:00".into(),
///     }],
///     artifacts: vec![],
///     unresolved: vec![],
///     limitations: vec![],
/// };
/// let verdict = judge(&task, &result, &|source: &str| source.starts_with("sources/"));
/// assert_eq!(verdict.conclusion(), Conclusion::Accepted);
///
/// let unreadable = judge(&task, &result, &|_: &str| false);
/// assert_eq!(unreadable.conclusion(), Conclusion::Overclaimed);
/// ```
#[must_use]
pub fn judge(
    task: &Subtask,
    result: &SubtaskResult,
    sources: &(impl SourceResolver + ?Sized),
) -> Verdict {
    let resolves: Vec<bool> = result
        .evidence
        .iter()
        .map(|e| sources.resolves(&e.source_ref))
        .collect();
    let fields: Vec<FieldVerdict> = task
        .scope
        .required_fields
        .iter()
        .map(|name| FieldVerdict {
            field: name.clone(),
            state: field_state(name, result, &resolves),
        })
        .collect();

    let same_task = result.task_id == task.task_id;
    let conclusion = if !same_task {
        Conclusion::OtherTask
    } else if result.task_revision < task.task_revision {
        Conclusion::Outdated {
            answered: result.task_revision,
            current: task.task_revision,
        }
    } else if result.task_revision > task.task_revision {
        Conclusion::UnknownRevision {
            answered: result.task_revision,
            current: task.task_revision,
        }
    } else if result.status != ResultStatus::Completed {
        Conclusion::Incomplete
    } else if fields.iter().all(|f| f.state.is_confirmed()) && result.unresolved.is_empty() {
        Conclusion::Accepted
    } else {
        Conclusion::Overclaimed
    };

    let observations = match conclusion {
        Conclusion::OtherTask | Conclusion::UnknownRevision { .. } => Vec::new(),
        _ => result
            .evidence
            .iter()
            .zip(&resolves)
            .enumerate()
            .filter(|(_, (e, &resolves))| resolves && confirmed_value(e).is_some())
            .map(|(at, _)| at)
            .collect(),
    };

    Verdict {
        conclusion,
        fields,
        observations,
    }
}

/// The confirmed value of an observation, when it is not `null`.
fn confirmed_value(evidence: &Evidence) -> Option<&Value> {
    evidence.value.confirmed().filter(|v| !v.is_null())
}

/// How the result stands on the required field `name`.
fn field_state(name: &str, result: &SubtaskResult, resolves: &[bool]) -> FieldState {
    let mut confirmed: Option<(usize, &Value)> = None;
    let mut disagreeing: Option<usize> = None;
    let mut not_found = None;
    let mut assumed = None;
    let mut unsourced = None;
    let mut null = None;
    for (at, evidence) in result.evidence.iter().enumerate() {
        if evidence.field != name {
            continue;
        }
        let readable = resolves.get(at).copied().unwrap_or(false);
        match &evidence.value {
            Lookup::Confirmed { value } if value.is_null() => {
                null.get_or_insert(at);
            }
            Lookup::Confirmed { value } if readable => match confirmed {
                None => confirmed = Some((at, value)),
                Some((_, first)) if first != value => {
                    disagreeing.get_or_insert(at);
                }
                Some(_) => {}
            },
            Lookup::Confirmed { .. } => {
                unsourced.get_or_insert(at);
            }
            Lookup::Assumed { .. } => {
                assumed.get_or_insert(at);
            }
            Lookup::NotFound { .. } => {
                not_found.get_or_insert(at);
            }
        }
    }
    let unresolved = result.unresolved.iter().position(|f| f == name);

    if let Some((at, _)) = confirmed {
        let first = Place::Evidence(at);
        return match (disagreeing, not_found, unresolved) {
            (Some(other), _, _) | (None, Some(other), _) => {
                FieldState::Conflicting(first, Place::Evidence(other))
            }
            (None, None, Some(listed)) => FieldState::Conflicting(first, Place::Unresolved(listed)),
            (None, None, None) => FieldState::Confirmed(at),
        };
    }
    if let Some(at) = not_found {
        return FieldState::NotFound(at);
    }
    if let Some(at) = unresolved {
        return FieldState::Unresolved(at);
    }
    if let Some(at) = unsourced {
        return FieldState::SourceUnresolved(at);
    }
    if let Some(at) = null {
        return FieldState::ConfirmedNull(at);
    }
    if let Some(at) = assumed {
        return FieldState::Assumed(at);
    }
    FieldState::Missing
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::task::{Budget, Scope};

    /// Seed `001_…`'s `verify-c`, with its required fields named as the evidence names them
    /// (the source and time of each value are every observation's `sourceRef` and
    /// `observedAt`).
    fn task(revision: u32) -> Subtask {
        Subtask {
            task_id: "verify-c".into(),
            task_revision: revision,
            assignee: "product_researcher".into(),
            goal: "verify C's configuration against the purchase conditions".into(),
            input: [("productId".to_owned(), json!("C"))].into_iter().collect(),
            working_assumptions: vec!["daily scripts, an IDE, light web work".into()],
            scope: Scope {
                required_fields: vec!["totalPriceCny".into(), "weightKg".into()],
                excluded_actions: vec!["buy".into()],
            },
            acceptance: vec!["every value from a readable source".into()],
            budget: Some(Budget {
                max_model_calls: Some(6),
                max_tool_calls: Some(8),
                max_tokens: None,
                timeout_seconds: Some(120),
            }),
            deliverable: "a structured verification".into(),
        }
    }

    fn evidence(id: &str, field: &str, value: Lookup<Value>, source: &str) -> Evidence {
        Evidence {
            evidence_id: id.into(),
            field: field.into(),
            value,
            source_ref: source.into(),
            locator: None,
            observed_at: "2026-09-28T10:00:00+08:00".into(),
        }
    }

    fn confirmed(value: Value) -> Lookup<Value> {
        Lookup::Confirmed { value }
    }

    /// A result: price and weight confirmed, `completed`.
    fn result() -> SubtaskResult {
        SubtaskResult {
            task_id: "verify-c".into(),
            task_revision: 1,
            status: ResultStatus::Completed,
            conclusion: "C meets the verified budget and weight conditions".into(),
            evidence: vec![
                evidence(
                    "c-price-01",
                    "totalPriceCny",
                    confirmed(json!(5999)),
                    "sources/c-offer",
                ),
                evidence(
                    "c-weight-01",
                    "weightKg",
                    confirmed(json!(1.42)),
                    "sources/c-spec",
                ),
            ],
            artifacts: vec!["results/verify-c.json".into()],
            unresolved: vec![],
            limitations: vec!["heavy container work not verified".into()],
        }
    }

    fn sources(source: &str) -> bool {
        source.starts_with("sources/")
    }

    fn state(verdict: &Verdict, field: &str) -> FieldState {
        verdict.field(field).expect("a required field").state()
    }

    #[test]
    fn every_field_confirmed_by_a_readable_source_is_accepted() {
        let verdict = judge(&task(1), &result(), &sources);
        assert_eq!(verdict.conclusion(), Conclusion::Accepted);
        assert!(verdict.is_accepted());
        assert_eq!(state(&verdict, "totalPriceCny"), FieldState::Confirmed(0));
        assert_eq!(state(&verdict, "weightKg"), FieldState::Confirmed(1));
        assert_eq!(verdict.observations(), [0, 1]);
    }

    #[test]
    fn a_field_not_found_may_not_be_completed() {
        let mut result = result();
        result.evidence[0].value = Lookup::NotFound {
            reason: "the offer page lists no price for this configuration".into(),
        };
        let verdict = judge(&task(1), &result, &sources);
        assert_eq!(state(&verdict, "totalPriceCny"), FieldState::NotFound(0));
        assert!(state(&verdict, "totalPriceCny").is_open());
        assert_eq!(verdict.conclusion(), Conclusion::Overclaimed);
        assert_eq!(
            verdict.observations(),
            [1],
            "the weight stays an observation"
        );

        result.status = ResultStatus::Partial;
        let verdict = judge(&task(1), &result, &sources);
        assert_eq!(verdict.conclusion(), Conclusion::Incomplete);
        assert!(verdict.fields().iter().all(|f| !f.state().is_fault()));
    }

    #[test]
    fn a_field_listed_unresolved_may_not_be_completed() {
        let mut result = result();
        result.evidence.remove(0);
        result.unresolved = vec!["totalPriceCny".into()];
        let verdict = judge(&task(1), &result, &sources);
        assert_eq!(state(&verdict, "totalPriceCny"), FieldState::Unresolved(0));
        assert_eq!(verdict.conclusion(), Conclusion::Overclaimed);

        // Anything left unresolved, required or not, denies `completed`.
        let mut result = self::result();
        result.unresolved = vec!["warrantyYears".into()];
        let verdict = judge(&task(1), &result, &sources);
        assert!(verdict.fields().iter().all(|f| f.state().is_confirmed()));
        assert_eq!(verdict.conclusion(), Conclusion::Overclaimed);
    }

    #[test]
    fn a_source_nobody_can_resolve_confirms_nothing() {
        let mut result = result();
        result.evidence[0].source_ref = "source_1".into();
        let verdict = judge(&task(1), &result, &sources);
        assert_eq!(
            state(&verdict, "totalPriceCny"),
            FieldState::SourceUnresolved(0)
        );
        assert!(state(&verdict, "totalPriceCny").is_fault());
        assert_eq!(verdict.conclusion(), Conclusion::Overclaimed);
        assert_eq!(verdict.observations(), [1]);
    }

    #[test]
    fn an_older_revision_voids_the_conclusion_and_keeps_the_observations() {
        let mut task = task(2);
        task.input.insert("maxTotalPriceCny".into(), json!(5500));
        let result = result();
        let verdict = judge(&task, &result, &sources);
        assert_eq!(
            verdict.conclusion(),
            Conclusion::Outdated {
                answered: 1,
                current: 2
            }
        );
        assert!(!verdict.is_accepted());
        assert_eq!(state(&verdict, "totalPriceCny"), FieldState::Confirmed(0));
        let kept: Vec<_> = verdict.kept(&result).map(|e| &e.evidence_id).collect();
        assert_eq!(kept, ["c-price-01", "c-weight-01"]);
        assert_eq!(
            verdict
                .kept(&result)
                .next()
                .and_then(|e| e.value.confirmed()),
            Some(&json!(5999))
        );
    }

    #[test]
    fn another_task_or_an_unknown_revision_keeps_nothing() {
        let mut other = result();
        other.task_id = "verify-b".into();
        let verdict = judge(&task(1), &other, &sources);
        assert_eq!(verdict.conclusion(), Conclusion::OtherTask);
        assert!(verdict.observations().is_empty());

        let mut ahead = result();
        ahead.task_revision = 3;
        let verdict = judge(&task(2), &ahead, &sources);
        assert_eq!(
            verdict.conclusion(),
            Conclusion::UnknownRevision {
                answered: 3,
                current: 2
            }
        );
        assert!(verdict.observations().is_empty());
    }

    #[test]
    fn contradictions_are_faults() {
        let mut two_prices = result();
        two_prices.evidence.push(evidence(
            "c-price-02",
            "totalPriceCny",
            confirmed(json!(6299)),
            "sources/c-offer-8gb",
        ));
        let verdict = judge(&task(1), &two_prices, &sources);
        assert_eq!(
            state(&verdict, "totalPriceCny"),
            FieldState::Conflicting(Place::Evidence(0), Place::Evidence(2))
        );
        assert_eq!(verdict.conclusion(), Conclusion::Overclaimed);

        // The same value from a second source is no contradiction.
        let mut twice = result();
        twice.evidence.push(evidence(
            "c-price-02",
            "totalPriceCny",
            confirmed(json!(5999)),
            "sources/c-shop",
        ));
        assert!(judge(&task(1), &twice, &sources).is_accepted());

        let mut found_and_not = result();
        found_and_not.evidence.push(evidence(
            "c-price-02",
            "totalPriceCny",
            Lookup::NotFound {
                reason: "no price".into(),
            },
            "sources/c-shop",
        ));
        assert_eq!(
            state(&judge(&task(1), &found_and_not, &sources), "totalPriceCny"),
            FieldState::Conflicting(Place::Evidence(0), Place::Evidence(2))
        );

        let mut found_and_open = result();
        found_and_open.unresolved = vec!["weightKg".into()];
        let verdict = judge(&task(1), &found_and_open, &sources);
        assert_eq!(
            state(&verdict, "weightKg"),
            FieldState::Conflicting(Place::Evidence(1), Place::Unresolved(0))
        );
        assert!(state(&verdict, "weightKg").is_fault());
    }

    #[test]
    fn silence_null_and_assumptions_are_not_confirmations() {
        let mut result = result();
        result.evidence[0].value = Lookup::Assumed {
            value: json!(5999),
            basis: "last week's offer".into(),
        };
        result.evidence[1].value = confirmed(Value::Null);
        result.status = ResultStatus::Partial;
        let mut task = task(1);
        task.scope.required_fields.push("batteryWh".into());
        let verdict = judge(&task, &result, &sources);
        assert_eq!(state(&verdict, "totalPriceCny"), FieldState::Assumed(0));
        assert!(state(&verdict, "totalPriceCny").is_open());
        assert_eq!(state(&verdict, "weightKg"), FieldState::ConfirmedNull(1));
        assert_eq!(state(&verdict, "batteryWh"), FieldState::Missing);
        assert!(state(&verdict, "batteryWh").is_fault());
        assert_eq!(verdict.conclusion(), Conclusion::Incomplete);
        assert!(verdict.observations().is_empty());
    }

    #[test]
    fn the_verdict_names_fields_and_pointers_never_values() {
        let mut result = result();
        result.evidence[0].source_ref = "source_1".into();
        result.evidence[1].value = Lookup::NotFound {
            reason: "spec sheet unavailable".into(),
        };
        let text = judge(&task(2), &result, &sources).to_string();
        assert_eq!(
            text,
            "subtask result: conclusion void: the result answers an older revision of the task; \
             observations kept: 0
  totalPriceCny: confirmed by a source that does not resolve: nobody can check it (/evidence/0/sourceRef)
  weightKg: not found (/evidence/1)"
        );
        for value in [
            "5999",
            "1.42",
            "source_1",
            "c-price-01",
            "spec sheet",
            "verify-c",
        ] {
            assert!(!text.contains(value), "{value} in {text}");
        }
    }

    #[test]
    fn any_resolver_type() {
        struct Known(Vec<&'static str>);
        impl SourceResolver for Known {
            fn resolves(&self, source_ref: &str) -> bool {
                self.0.contains(&source_ref)
            }
        }
        let known = Known(vec!["sources/c-offer"]);
        let verdict = judge(&task(1), &result(), &known);
        assert_eq!(state(&verdict, "weightKg"), FieldState::SourceUnresolved(1));
        let dynamic: &dyn SourceResolver = &known;
        assert_eq!(judge(&task(1), &result(), dynamic), verdict);
    }
}
