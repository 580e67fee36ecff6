//! The loop around a model that writes a handoff: ask the model, check what it wrote against
//! the contract, and on a refusal send the [`Correction`] back and ask again, every attempt a
//! model call counted by a [`BudgetMeter`], until one is accepted or the budget is spent.
//!
//! [`Retry::receive`] reads each attempt with [`receive_with`] (a tool's arguments, a
//! structured output); [`Retry::accept`] puts each attempt in an envelope and hands it to an
//! [`Inbox`], whose ledger records every attempt's step with its journey's `attempt` and
//! `retryOf`, so that the session view shows the attempts as an explicit retry;
//! [`Retry::run`] takes any check. The model is a closure given the [`Attempt`]: its number
//! and, from the second on, the correction of the one before.
//!
//! ```
//! use contract_core::retry::Retry;
//! use contract_core::task::{Budget, BudgetMeter, Call};
//! use contract_core::HandoffContract;
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 1)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     order_ref: String,
//!     amount_cents: u32,
//! }
//!
//! let meter = BudgetMeter::new(&Budget { max_model_calls: Some(3), ..Budget::default() });
//! // A stand-in for a model: it forgets orderRef until it is told.
//! let model = |attempt: &contract_core::retry::Attempt<'_>| -> Result<Vec<u8>, std::convert::Infallible> {
//!     Ok(match attempt.correction() {
//!         None => br#"{"amountCents": 1250}"#.to_vec(),
//!         Some(correction) => {
//!             assert!(correction.to_string().contains("/orderRef: missing"));
//!             br#"{"orderRef": "A-1", "amountCents": 1250}"#.to_vec()
//!         }
//!     })
//! };
//! let retried = Retry::new(&meter).receive::<RefundRequest, _, _>(model)?;
//! assert_eq!(retried.attempts(), 2);
//! assert_eq!(retried.value().value().order_ref, "A-1");
//! assert_eq!(meter.spent(Call::Model), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::convert::Infallible;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::correction::{Correction, CorrectionOptions};
use crate::envelope::{Delivery, Handoff};
use crate::inbox::{AcceptError, Acceptance, ArtifactStore, Inbox, Ledger};
use crate::runtime::options::{Journey, ReceiveOptions};
use crate::runtime::problem::{ProblemClass, Rejection};
use crate::runtime::{receive_with, Received};
use crate::task::{BudgetExceeded, BudgetMeter, Call, Permit};
use crate::traits::HandoffContract;

/// The retry loop's settings: the meter every attempt is counted by (one model call each),
/// how corrections are bounded, and how each attempt is read.
#[derive(Debug, Clone)]
pub struct Retry {
    meter: BudgetMeter,
    corrections: CorrectionOptions,
    receive: ReceiveOptions,
}

/// One attempt, as the model closure sees it.
#[derive(Debug)]
pub struct Attempt<'a> {
    number: u32,
    correction: Option<&'a Correction>,
    permit: &'a Permit,
    journey: Option<&'a Journey>,
}

impl Attempt<'_> {
    /// Its number, from 1.
    #[must_use]
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Whether it retries an attempt refused before.
    #[must_use]
    pub fn is_retry(&self) -> bool {
        self.number > 1
    }

    /// The correction of the attempt before, to give the model (`None` for the first).
    #[must_use]
    pub fn correction(&self) -> Option<&Correction> {
        self.correction
    }

    /// The journey its envelope carries, with `attempt` and `retryOf` (for
    /// [`Retry::accept`]; `None` for the other loops).
    #[must_use]
    pub fn journey(&self) -> Option<&Journey> {
        self.journey
    }

    /// Records the tokens the model call used, against the budget's `maxTokens`.
    pub fn record_tokens(&self, tokens: u64) {
        self.permit.record_tokens(tokens);
    }
}

/// What a check made of one attempt (the check of [`Retry::run`]).
#[derive(Debug)]
pub enum Checked<R, S = Infallible> {
    /// Accepted: the loop ends with this.
    Accepted(R),
    /// Refused: the correction goes to the model's next attempt.
    Refused(Correction),
    /// A failure that is not the model's to correct (a store that failed): the loop ends.
    Stopped(S),
}

/// The attempt accepted, with how many it took and the corrections sent on the way.
#[derive(Debug, Clone)]
pub struct Retried<R> {
    value: R,
    attempts: u32,
    corrections: Vec<Correction>,
}

impl<R> Retried<R> {
    /// What the accepted attempt gave.
    #[must_use]
    pub fn value(&self) -> &R {
        &self.value
    }

    /// What the accepted attempt gave, owned.
    #[must_use]
    pub fn into_inner(self) -> R {
        self.value
    }

    /// How many attempts it took, the accepted one included.
    #[must_use]
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The corrections sent back, one per refused attempt, in order.
    #[must_use]
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }
}

/// What [`Retry::accept`] returns: the acceptance of the attempt accepted, or why none was
/// (the model's error `M`, or the inbox's refusal, its handler's error `E` inside).
pub type RetryAccepted<T, R, M, E> =
    Result<Retried<Acceptance<T, R>>, RetryError<M, AcceptError<E>>>;

/// Why the loop ended without an accepted attempt.
#[derive(Debug)]
pub enum RetryError<M, S = Infallible> {
    /// The budget refused the next model call: `attempts` were made and refused.
    BudgetSpent {
        /// The limit that refused it.
        exceeded: BudgetExceeded,
        /// The attempts made, every one refused.
        attempts: u32,
        /// The correction of the last one, if one was made.
        last: Option<Box<Correction>>,
    },
    /// The model call failed.
    Model {
        /// The attempt whose call failed.
        attempt: u32,
        /// Its error.
        error: M,
    },
    /// The check failed for a reason the model cannot correct.
    Stopped {
        /// The attempt.
        attempt: u32,
        /// The check's error.
        error: S,
    },
}

impl<M: fmt::Display, S: fmt::Display> fmt::Display for RetryError<M, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::BudgetSpent {
                exceeded,
                attempts,
                last,
            } => {
                write!(f, "no attempt {}: {exceeded}", attempts + 1)?;
                if *attempts > 0 {
                    write!(
                        f,
                        "; {attempts} attempt{} refused",
                        if *attempts == 1 { "" } else { "s" }
                    )?;
                }
                if let Some(last) = last {
                    let n = last.total();
                    write!(
                        f,
                        ", the last with {n} problem{}",
                        if n == 1 { "" } else { "s" }
                    )?;
                }
                Ok(())
            }
            RetryError::Model { attempt, error } => {
                write!(f, "the model call of attempt {attempt} failed: {error}")
            }
            RetryError::Stopped { attempt, error } => {
                write!(f, "attempt {attempt} stopped: {error}")
            }
        }
    }
}

impl<M, S> std::error::Error for RetryError<M, S>
where
    M: std::error::Error + 'static,
    S: std::error::Error + 'static,
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RetryError::BudgetSpent { exceeded, .. } => Some(exceeded),
            RetryError::Model { error, .. } => Some(error),
            RetryError::Stopped { error, .. } => Some(error),
        }
    }
}

impl Retry {
    /// A loop whose attempts are counted by `meter` (a clone: it shares the count), with
    /// corrections of at most 2,000 characters and the default [`ReceiveOptions`].
    #[must_use]
    pub fn new(meter: &BudgetMeter) -> Self {
        Retry {
            meter: meter.clone(),
            corrections: CorrectionOptions::default(),
            receive: ReceiveOptions::default(),
        }
    }

    /// With corrections bounded by `options`.
    #[must_use]
    pub fn corrections(mut self, options: CorrectionOptions) -> Self {
        self.corrections = options;
        self
    }

    /// With these options for reading each attempt (its limits; its journey for the trace).
    #[must_use]
    pub fn receive_options(mut self, options: ReceiveOptions) -> Self {
        self.receive = options;
        self
    }

    /// The loop with any check: for each attempt a model call is reserved on the meter (none
    /// left: [`RetryError::BudgetSpent`]), `ask` writes the output, and `check` judges it.
    ///
    /// ```
    /// use contract_core::retry::{Checked, Retry, RetryError};
    /// use contract_core::task::{Budget, BudgetMeter, Limit};
    /// use contract_core::{receive, HandoffContract};
    /// use serde::Deserialize;
    ///
    /// #[derive(Debug, Deserialize, HandoffContract)]
    /// #[handoff(name = "answer", version = 1)]
    /// struct Answer {
    ///     text: String,
    /// }
    ///
    /// let meter = BudgetMeter::new(&Budget { max_model_calls: Some(2), ..Budget::default() });
    /// // A model that never gets it right.
    /// let ask = |_: &contract_core::retry::Attempt<'_>| Ok::<_, std::convert::Infallible>(b"{}".to_vec());
    /// let check = |_: &contract_core::retry::Attempt<'_>, output: &[u8]| {
    ///     match receive::<Answer>(output) {
    ///         Ok(answer) => Checked::<_, std::convert::Infallible>::Accepted(answer.into_inner()),
    ///         Err(rejection) => Checked::Refused(rejection.correction()),
    ///     }
    /// };
    /// let Err(RetryError::BudgetSpent { exceeded, attempts, last }) = Retry::new(&meter).run(ask, check)
    /// else {
    ///     panic!("the budget allows two attempts");
    /// };
    /// assert_eq!((exceeded.limit(), attempts), (Limit::MaxModelCalls, 2));
    /// assert!(last.unwrap().to_string().contains("/text: missing"));
    /// ```
    ///
    /// # Errors
    /// [`RetryError`]: the budget spent before an attempt was accepted, the model's error, or
    /// the check's.
    pub fn run<R, S, M, O>(
        &self,
        mut ask: impl FnMut(&Attempt<'_>) -> Result<O, M>,
        mut check: impl FnMut(&Attempt<'_>, &[u8]) -> Checked<R, S>,
    ) -> Result<Retried<R>, RetryError<M, S>>
    where
        O: AsRef<[u8]>,
    {
        self.looped(
            |_| None,
            |attempt| ask(attempt),
            |attempt, output| check(attempt, output),
        )
    }

    /// The loop over a payload read by [`receive_with::<T>`](receive_with) (with this
    /// loop's [`ReceiveOptions`]): accepted when it is received, else its rejection's
    /// correction goes to the next attempt.
    ///
    /// # Errors
    /// [`RetryError::BudgetSpent`] or the model's error ([`RetryError::Model`]).
    pub fn receive<T, O, M>(
        &self,
        mut ask: impl FnMut(&Attempt<'_>) -> Result<O, M>,
    ) -> Result<Retried<Received<T>>, RetryError<M>>
    where
        T: DeserializeOwned + HandoffContract + 'static,
        O: AsRef<[u8]>,
    {
        self.looped(
            |_| None,
            |attempt| ask(attempt),
            |_, output| match receive_with::<T>(output, &self.receive) {
                Ok(received) => Checked::Accepted(received),
                Err(rejection) => Checked::Refused(rejection.correction_with(&self.corrections)),
            },
        )
    }

    /// The loop through an inbox: each attempt's output is the payload of a copy of
    /// `envelope` (its `contract` set to `T`'s, its `journey` given `attempt` and, from the
    /// second on, `retryOf` naming the envelope's `handoffId`, which a retry keeps), accepted
    /// by `inbox`, which records every attempt's step in its ledger.
    ///
    /// The output is first read as [`receive_with::<T>`](receive_with) reads it (this loop's
    /// [`ReceiveOptions`]): a refused output's correction is that rejection's, whatever the
    /// output (not JSON, cut off, too large), and the envelope is still handed to the inbox,
    /// so that the refused attempt is on the journey (output that is not one JSON document
    /// within the limits goes as an envelope without a payload, which the inbox refuses). A refusal of the inbox that is not the
    /// payload's (the envelope not `ready`, a conflict, an artifact, the handler, the store)
    /// ends the loop ([`RetryError::Stopped`]).
    ///
    /// ```
    /// use contract_core::inbox::{Inbox, Ledger, MemoryLedger, MemoryTx};
    /// use contract_core::retry::{Attempt, Retry};
    /// use contract_core::task::{Budget, BudgetMeter};
    /// use contract_core::{Delivery, Handoff, HandoffContract, Journey};
    /// use serde::Deserialize;
    ///
    /// #[derive(Debug, Deserialize, HandoffContract)]
    /// #[handoff(name = "refund-request", version = 1)]
    /// #[serde(rename_all = "camelCase")]
    /// struct RefundRequest {
    ///     order_ref: String,
    /// }
    ///
    /// let mut inbox = Inbox::new(MemoryLedger::new());
    /// let envelope = Handoff::new("ctx-1", "h-1", "billing", ())
    ///     .journey(Journey::new("triage", "billing").session("sess-1"))
    ///     .ready();
    /// let meter = BudgetMeter::new(&Budget { max_model_calls: Some(2), ..Budget::default() });
    /// let model = |attempt: &Attempt<'_>| {
    ///     Ok::<_, std::convert::Infallible>(if attempt.is_retry() {
    ///         br#"{"orderRef": "A-1"}"#.to_vec()
    ///     } else {
    ///         b"{}".to_vec()
    ///     })
    /// };
    /// let handler = |_: &mut MemoryTx, _: &Delivery<RefundRequest>| Ok::<_, std::convert::Infallible>(());
    /// let retried = Retry::new(&meter).accept(&mut inbox, &envelope, model, handler)?;
    /// assert!(retried.value().is_applied());
    ///
    /// let journey = inbox.ledger_mut().session("sess-1")?;
    /// let attempts: Vec<_> = journey.iter().map(|s| (s.attempt, s.retry_of.as_deref())).collect();
    /// assert_eq!(attempts, [(Some(1), None), (Some(2), Some("h-1"))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`RetryError::BudgetSpent`], the model's error ([`RetryError::Model`]), or the inbox's
    /// refusal that is not the payload's ([`RetryError::Stopped`]).
    pub fn accept<T, L, A, R, E, M, O, F, H>(
        &self,
        inbox: &mut Inbox<L, A>,
        envelope: &Handoff<()>,
        mut ask: F,
        mut handler: H,
    ) -> RetryAccepted<T, R, M, E>
    where
        T: DeserializeOwned + HandoffContract + 'static,
        L: Ledger,
        A: ArtifactStore,
        R: Serialize + DeserializeOwned,
        O: AsRef<[u8]>,
        F: FnMut(&Attempt<'_>) -> Result<O, M>,
        H: FnMut(&mut L::Tx<'_>, &Delivery<T>) -> Result<R, E>,
    {
        let journey_of = |number: u32| {
            let journey = envelope.journey.clone().attempt(number);
            if number > 1 {
                journey.retry_of(envelope.handoff_id.clone())
            } else {
                journey
            }
        };
        self.looped(
            |number| Some(journey_of(number)),
            |attempt| ask(attempt),
            |attempt, output| {
                let journey = attempt.journey.cloned().unwrap_or_default();
                let options = ReceiveOptions {
                    journey: journey.clone(),
                    ..self.receive.clone()
                };
                let read = receive_with::<T>(output, &options).err();
                // Output that is not one JSON document within the limits cannot be carried:
                // its envelope goes without a payload, which the inbox refuses and records.
                let carried = match &read {
                    Some(rejection) if !is_json_within_limits(rejection) => None,
                    _ => Some(output),
                };
                let bytes = enveloped(envelope, T::CONTRACT.id, journey, carried);
                match inbox.accept(&bytes, |tx, delivery| handler(tx, delivery)) {
                    Ok(acceptance) => Checked::Accepted(acceptance),
                    Err(AcceptError::Rejected(refused)) => match read {
                        Some(rejection) => {
                            Checked::Refused(rejection.correction_with(&self.corrections))
                        }
                        None => match refused.payload_correction(&self.corrections) {
                            Some(correction) => Checked::Refused(correction),
                            None => Checked::Stopped(AcceptError::Rejected(refused)),
                        },
                    },
                    Err(error) => Checked::Stopped(error),
                }
            },
        )
    }

    fn looped<R, S, M, O>(
        &self,
        journey: impl Fn(u32) -> Option<Journey>,
        mut ask: impl FnMut(&Attempt<'_>) -> Result<O, M>,
        mut check: impl FnMut(&Attempt<'_>, &[u8]) -> Checked<R, S>,
    ) -> Result<Retried<R>, RetryError<M, S>>
    where
        O: AsRef<[u8]>,
    {
        let mut corrections: Vec<Correction> = Vec::new();
        let mut number: u32 = 0;
        loop {
            let permit = match self.meter.reserve(Call::Model) {
                Ok(permit) => permit,
                Err(exceeded) => {
                    return Err(RetryError::BudgetSpent {
                        exceeded,
                        attempts: number,
                        last: corrections.pop().map(Box::new),
                    })
                }
            };
            number = number.saturating_add(1);
            let journey = journey(number);
            let attempt = Attempt {
                number,
                correction: corrections.last(),
                permit: &permit,
                journey: journey.as_ref(),
            };
            let output = match ask(&attempt) {
                Ok(output) => output,
                Err(error) => {
                    return Err(RetryError::Model {
                        attempt: number,
                        error,
                    })
                }
            };
            let verdict = check(&attempt, output.as_ref());
            drop(permit);
            match verdict {
                Checked::Accepted(value) => {
                    return Ok(Retried {
                        value,
                        attempts: number,
                        corrections,
                    })
                }
                Checked::Refused(correction) => corrections.push(correction),
                Checked::Stopped(error) => {
                    return Err(RetryError::Stopped {
                        attempt: number,
                        error,
                    })
                }
            }
        }
    }
}

/// Whether a refused output was one JSON document within the limits (its problems are the
/// contract's, not of its bytes).
fn is_json_within_limits(rejection: &Rejection) -> bool {
    rejection
        .problems()
        .iter()
        .all(|p| !matches!(p.kind.class(), ProblemClass::NotJson | ProblemClass::Limit))
}

/// The envelope `template` around `payload`, the bytes a model wrote, as they are (the
/// template written by serde with a `null` payload, its last member, that `null` replaced),
/// or without a payload member.
fn enveloped(
    template: &Handoff<()>,
    contract: &str,
    journey: Journey,
    payload: Option<&[u8]>,
) -> Vec<u8> {
    let mut handoff = template.clone();
    handoff.contract = contract.to_owned();
    handoff.journey = journey;
    handoff.sender_presence = None;
    // Writing strings, lists and plain structs into a `Vec` cannot fail.
    let mut bytes = serde_json::to_vec(&handoff).unwrap_or_default();
    // `payload` is the envelope's last field: serde writes `,"payload":null}` last.
    const END: &[u8] = b",\"payload\":null}";
    if bytes.ends_with(END) {
        bytes.truncate(bytes.len() - END.len());
        if let Some(payload) = payload {
            bytes.extend_from_slice(b",\"payload\":");
            bytes.extend_from_slice(payload);
        }
        bytes.push(b'}');
    }
    bytes
}
