//! Enforcing a [`Budget`]: a permit per model or tool call, counted before the call starts.
//!
//! Seed `001_…`: a limit written in a prompt ("at most 8 tool calls") guarantees nothing; the
//! program checks what is left before each call, reserves it for calls running at the same
//! time, and starts nothing new once the time is up. [`BudgetMeter`] does the counting; the
//! caller asks it for a [`Permit`] before every call and makes the call only with one.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::budget::Budget;

/// The kind of call a permit is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// A call to a model (counted against `maxModelCalls`; refused once `maxTokens` is spent).
    Model,
    /// A call to a tool (counted against `maxToolCalls`).
    Tool,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Call::Model => "model call",
            Call::Tool => "tool call",
        })
    }
}

/// A limit of a [`Budget`], by its wire name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `maxModelCalls`.
    MaxModelCalls,
    /// `maxToolCalls`.
    MaxToolCalls,
    /// `maxTokens`.
    MaxTokens,
    /// `timeoutSeconds`.
    TimeoutSeconds,
}

impl Limit {
    /// The limit's key in the budget: `maxModelCalls`, `maxToolCalls`, `maxTokens`,
    /// `timeoutSeconds`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Limit::MaxModelCalls => "maxModelCalls",
            Limit::MaxToolCalls => "maxToolCalls",
            Limit::MaxTokens => "maxTokens",
            Limit::TimeoutSeconds => "timeoutSeconds",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A reservation refused: the call must not be made. Names the limit that refused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BudgetExceeded {
    call: Call,
    limit: Limit,
}

impl BudgetExceeded {
    /// The call refused.
    #[must_use]
    pub fn call(&self) -> Call {
        self.call
    }

    /// The limit that refused it.
    #[must_use]
    pub fn limit(&self) -> Limit {
        self.limit
    }
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::TimeoutSeconds => write!(
                f,
                "{} refused: the budget's timeoutSeconds has passed",
                self.call
            ),
            limit => write!(f, "{} refused: the budget's {limit} is spent", self.call),
        }
    }
}

impl std::error::Error for BudgetExceeded {}

/// What the meters share.
#[derive(Debug)]
struct Shared {
    budget: Budget,
    deadline: Option<Instant>,
    /// Calls reserved (running or done), per kind.
    model_calls: AtomicU64,
    tool_calls: AtomicU64,
    /// Calls holding a permit now, per kind.
    model_running: AtomicU64,
    tool_running: AtomicU64,
    tokens: AtomicU64,
    /// Reservations refused, of either kind.
    refused: AtomicU64,
}

impl Shared {
    fn reserved(&self, call: Call) -> &AtomicU64 {
        match call {
            Call::Model => &self.model_calls,
            Call::Tool => &self.tool_calls,
        }
    }

    fn running(&self, call: Call) -> &AtomicU64 {
        match call {
            Call::Model => &self.model_running,
            Call::Tool => &self.tool_running,
        }
    }

    fn max(&self, call: Call) -> (Option<u32>, Limit) {
        match call {
            Call::Model => (self.budget.max_model_calls, Limit::MaxModelCalls),
            Call::Tool => (self.budget.max_tool_calls, Limit::MaxToolCalls),
        }
    }

    fn add_tokens(&self, tokens: u64) {
        // `fetch_update` with a closure that always returns `Some` cannot fail.
        let _ = self
            .tokens
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                Some(n.saturating_add(tokens))
            });
    }
}

/// Enforces a [`Budget`] across threads and tasks: clones share one count (it is an `Arc`
/// inside; `Send + Sync`).
///
/// Every call is reserved before it starts ([`reserve`](Self::reserve)); a reservation counts
/// the call at once, so calls running side by side never exceed a limit together. Once a
/// limit is spent, or `timeoutSeconds` after the meter started, every new reservation is
/// refused with [`BudgetExceeded`] naming the limit. An absent limit does not limit.
///
/// # What the meter does not do
///
/// It does not stop calls already running. When the deadline passes, calls holding a permit
/// go on until they end: cancelling them is the caller's, with what its clients support (a
/// request timeout set from [`BudgetMeter::remaining_time`], a cancellation token, dropping a
/// future). Tokens are known only after a model call: the meter refuses new model calls once
/// the recorded tokens reach `maxTokens`, and calls already running may go past it; give each
/// call at most [`BudgetMeter::remaining_tokens`] as its own limit.
///
/// ```
/// use contract_core::task::{Budget, BudgetMeter, Call, Limit};
///
/// let budget = Budget { max_tool_calls: Some(2), ..Budget::default() };
/// let meter = BudgetMeter::new(&budget);
/// let first = meter.reserve(Call::Tool)?;
/// let second = meter.clone().reserve(Call::Tool)?;       // a clone counts in the same budget
/// let refused = meter.reserve(Call::Tool).unwrap_err();
/// assert_eq!(refused.limit(), Limit::MaxToolCalls);
/// assert_eq!(refused.to_string(), "tool call refused: the budget's maxToolCalls is spent");
/// drop((first, second));                                  // done calls stay counted
/// assert!(meter.reserve(Call::Tool).is_err());
/// assert!(meter.reserve(Call::Model).is_ok());            // no model-call limit
/// # Ok::<(), contract_core::task::BudgetExceeded>(())
/// ```
#[derive(Debug, Clone)]
pub struct BudgetMeter {
    shared: Arc<Shared>,
}

impl BudgetMeter {
    /// A meter of `budget` whose time starts now.
    #[must_use]
    pub fn new(budget: &Budget) -> Self {
        Self::started_at(budget, Instant::now())
    }

    /// A meter of `budget` whose time started at `start` (the work began before the meter was
    /// made). A `timeoutSeconds` past what an `Instant` can hold sets no deadline.
    #[must_use]
    pub fn started_at(budget: &Budget, start: Instant) -> Self {
        let deadline = budget
            .timeout_seconds
            .and_then(|seconds| start.checked_add(Duration::from_secs(seconds)));
        BudgetMeter {
            shared: Arc::new(Shared {
                budget: *budget,
                deadline,
                model_calls: AtomicU64::new(0),
                tool_calls: AtomicU64::new(0),
                model_running: AtomicU64::new(0),
                tool_running: AtomicU64::new(0),
                tokens: AtomicU64::new(0),
                refused: AtomicU64::new(0),
            }),
        }
    }

    /// Reserves one call of kind `call`: a permit when the budget allows it, counted at once;
    /// else the limit that refuses it. Past the deadline every reservation is refused
    /// ([`Limit::TimeoutSeconds`]); a model call is refused too once the recorded tokens
    /// reach `maxTokens`.
    ///
    /// # Errors
    /// [`BudgetExceeded`] naming the limit spent.
    pub fn reserve(&self, call: Call) -> Result<Permit, BudgetExceeded> {
        let shared = &*self.shared;
        let refuse = |limit| {
            shared.refused.fetch_add(1, Ordering::AcqRel);
            Err(BudgetExceeded { call, limit })
        };
        if shared
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            return refuse(Limit::TimeoutSeconds);
        }
        if call == Call::Model {
            if let Some(max) = shared.budget.max_tokens {
                if shared.tokens.load(Ordering::Acquire) >= max {
                    return refuse(Limit::MaxTokens);
                }
            }
        }
        let (max, limit) = shared.max(call);
        let counted = shared.reserved(call).fetch_update(
            Ordering::AcqRel,
            Ordering::Acquire,
            |n| match max {
                Some(max) if n >= u64::from(max) => None,
                _ => Some(n.saturating_add(1)),
            },
        );
        if counted.is_err() {
            return refuse(limit);
        }
        shared.running(call).fetch_add(1, Ordering::AcqRel);
        Ok(Permit {
            shared: Arc::clone(&self.shared),
            call,
            running: true,
        })
    }

    /// Records tokens a model call used (prompt and completion together), when the call that
    /// used them no longer holds its permit; [`Permit::record_tokens`] otherwise.
    pub fn record_tokens(&self, tokens: u64) {
        self.shared.add_tokens(tokens);
    }

    /// The budget enforced.
    #[must_use]
    pub fn budget(&self) -> &Budget {
        &self.shared.budget
    }

    /// How many calls of kind `call` were reserved: running, or done.
    #[must_use]
    pub fn spent(&self, call: Call) -> u64 {
        self.shared.reserved(call).load(Ordering::Acquire)
    }

    /// How many calls of kind `call` hold a permit now.
    #[must_use]
    pub fn running(&self, call: Call) -> u64 {
        self.shared.running(call).load(Ordering::Acquire)
    }

    /// How many more calls of kind `call` may be reserved; `None` when they are not limited
    /// (the deadline aside).
    #[must_use]
    pub fn remaining(&self, call: Call) -> Option<u64> {
        let (max, _) = self.shared.max(call);
        max.map(|max| u64::from(max).saturating_sub(self.spent(call)))
    }

    /// How many reservations were refused so far (over a limit or past the deadline), of
    /// either kind.
    #[must_use]
    pub fn refused(&self) -> u64 {
        self.shared.refused.load(Ordering::Acquire)
    }

    /// The tokens recorded so far.
    #[must_use]
    pub fn tokens(&self) -> u64 {
        self.shared.tokens.load(Ordering::Acquire)
    }

    /// The tokens left under `maxTokens`; `None` when tokens are not limited.
    #[must_use]
    pub fn remaining_tokens(&self) -> Option<u64> {
        self.shared
            .budget
            .max_tokens
            .map(|max| max.saturating_sub(self.tokens()))
    }

    /// When new reservations stop; `None` without `timeoutSeconds`.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.shared.deadline
    }

    /// The time left before the deadline (zero once it passed); `None` without
    /// `timeoutSeconds`. A running call's own timeout should not exceed it.
    #[must_use]
    pub fn remaining_time(&self) -> Option<Duration> {
        self.shared
            .deadline
            .map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }
}

/// The right to make one call, from [`BudgetMeter::reserve`]. The call is counted from the
/// reservation on: dropping the permit when the call ends keeps it counted (a call made is
/// spent) and only ends its count as running. A call that never started can give its
/// reservation back with [`release_unused`](Self::release_unused).
#[derive(Debug)]
#[must_use = "a permit counts a call from its reservation on: make the call, or release it unused"]
pub struct Permit {
    shared: Arc<Shared>,
    call: Call,
    running: bool,
}

impl Permit {
    /// The kind of call this permit is for.
    #[must_use]
    pub fn call(&self) -> Call {
        self.call
    }

    /// Records the tokens the call used (prompt and completion together).
    pub fn record_tokens(&self, tokens: u64) {
        self.shared.add_tokens(tokens);
    }

    /// The call was not made: its reservation is given back to the budget.
    pub fn release_unused(mut self) {
        self.end();
        // Always `Some`: the permit's reservation is counted in `reserved`.
        let _ = self.shared.reserved(self.call).fetch_update(
            Ordering::AcqRel,
            Ordering::Acquire,
            |n| Some(n.saturating_sub(1)),
        );
    }

    fn end(&mut self) {
        if std::mem::take(&mut self.running) {
            self.shared
                .running(self.call)
                .fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.end();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;
    use std::sync::{Barrier, Mutex};
    use std::thread;

    use super::*;

    fn budget(model: Option<u32>, tool: Option<u32>, tokens: Option<u64>) -> Budget {
        Budget {
            max_model_calls: model,
            max_tool_calls: tool,
            max_tokens: tokens,
            timeout_seconds: None,
        }
    }

    #[test]
    fn shared_across_threads() {
        fn send_sync<T: Send + Sync + Clone + 'static>() {}
        send_sync::<BudgetMeter>();
        fn send_sync_permit<T: Send + Sync>() {}
        send_sync_permit::<Permit>();
    }

    #[test]
    fn each_limit_refuses_by_its_name_once_spent() {
        let meter = BudgetMeter::new(&budget(Some(6), Some(8), None));
        let tools: Vec<Permit> = (0..8).map(|_| meter.reserve(Call::Tool).unwrap()).collect();
        assert_eq!(meter.running(Call::Tool), 8);
        let refused = meter.reserve(Call::Tool).unwrap_err();
        assert_eq!(
            (refused.call(), refused.limit()),
            (Call::Tool, Limit::MaxToolCalls)
        );
        drop(tools);
        assert_eq!(meter.running(Call::Tool), 0);
        assert_eq!(meter.spent(Call::Tool), 8);
        assert_eq!(meter.remaining(Call::Tool), Some(0));
        assert!(meter.reserve(Call::Tool).is_err(), "done calls stay spent");

        for _ in 0..6 {
            drop(meter.reserve(Call::Model).unwrap());
        }
        let refused = meter.reserve(Call::Model).unwrap_err();
        assert_eq!(refused.limit(), Limit::MaxModelCalls);
        assert_eq!(
            refused.to_string(),
            "model call refused: the budget's maxModelCalls is spent"
        );
    }

    #[test]
    fn an_absent_limit_does_not_limit() {
        let meter = BudgetMeter::new(&Budget::default());
        for _ in 0..10_000 {
            drop(meter.reserve(Call::Tool).unwrap());
        }
        assert_eq!(meter.spent(Call::Tool), 10_000);
        assert_eq!(meter.remaining(Call::Tool), None);
        assert_eq!(meter.deadline(), None);
    }

    #[test]
    fn tokens_stop_model_calls_not_tool_calls() {
        let meter = BudgetMeter::new(&budget(None, None, Some(100)));
        let permit = meter.reserve(Call::Model).unwrap();
        permit.record_tokens(60);
        drop(permit);
        assert_eq!(meter.remaining_tokens(), Some(40));
        let permit = meter.reserve(Call::Model).unwrap();
        drop(permit);
        meter.record_tokens(40);
        let refused = meter.reserve(Call::Model).unwrap_err();
        assert_eq!(refused.limit(), Limit::MaxTokens);
        assert_eq!(meter.remaining_tokens(), Some(0));
        assert!(meter.reserve(Call::Tool).is_ok());
    }

    #[test]
    fn an_unused_reservation_is_given_back() {
        let meter = BudgetMeter::new(&budget(None, Some(1), None));
        let permit = meter.reserve(Call::Tool).unwrap();
        assert!(meter.reserve(Call::Tool).is_err());
        permit.release_unused();
        assert_eq!((meter.spent(Call::Tool), meter.running(Call::Tool)), (0, 0));
        drop(meter.reserve(Call::Tool).unwrap());
        assert_eq!(meter.spent(Call::Tool), 1);
    }

    /// 1,000 rounds of threads racing for a few permits, holding them (calls in flight) and
    /// trying again: the permits granted, and those held at once, never exceed the limit,
    /// and the limit is reached.
    #[test]
    fn concurrent_reservations_never_exceed_a_limit() {
        const THREADS: usize = 4;
        const TRIES: usize = 5;
        for round in 0..1_000_u32 {
            let limit = 1 + round % 7; // 1..=7, fewer than THREADS * TRIES tries
            let meter = BudgetMeter::new(&budget(Some(limit), Some(limit), None));
            let barrier = Barrier::new(THREADS);
            let granted = AtomicU64::new(0);
            let held_most = Mutex::new(0_u64);
            thread::scope(|scope| {
                for thread in 0..THREADS {
                    let (meter, barrier, granted, held_most) =
                        (meter.clone(), &barrier, &granted, &held_most);
                    scope.spawn(move || {
                        let call = if thread % 2 == 0 {
                            Call::Tool
                        } else {
                            Call::Model
                        };
                        let mut held = Vec::new();
                        barrier.wait();
                        for _ in 0..TRIES {
                            match meter.reserve(call) {
                                Ok(permit) => {
                                    granted.fetch_add(1, Ordering::SeqCst);
                                    held.push(permit);
                                    let running = meter.running(call);
                                    let mut most = held_most.lock().unwrap();
                                    *most = (*most).max(running);
                                }
                                Err(refused) => assert_eq!(
                                    refused.limit(),
                                    match call {
                                        Call::Tool => Limit::MaxToolCalls,
                                        Call::Model => Limit::MaxModelCalls,
                                    }
                                ),
                            }
                        }
                    });
                }
            });
            let limit = u64::from(limit);
            // Two threads per kind, TRIES each: at least `limit` tries per kind.
            assert_eq!(granted.load(Ordering::SeqCst), 2 * limit, "round {round}");
            assert!(*held_most.lock().unwrap() <= limit, "round {round}");
            assert_eq!(meter.spent(Call::Tool), limit);
            assert_eq!(meter.spent(Call::Model), limit);
            assert_eq!(meter.running(Call::Tool), 0);
        }
    }

    #[test]
    fn past_the_deadline_every_reservation_is_refused() {
        let budget = Budget {
            timeout_seconds: Some(120),
            ..Budget::default()
        };
        let Some(start) = Instant::now().checked_sub(Duration::from_secs(121)) else {
            return; // the clock started less than two minutes ago: nothing to go back to
        };
        let meter = BudgetMeter::started_at(&budget, start);
        for call in [Call::Model, Call::Tool] {
            let refused = meter.reserve(call).unwrap_err();
            assert_eq!(refused.limit(), Limit::TimeoutSeconds);
        }
        assert_eq!(meter.remaining_time(), Some(Duration::ZERO));
        assert_eq!(
            meter.reserve(Call::Tool).unwrap_err().to_string(),
            "tool call refused: the budget's timeoutSeconds has passed"
        );
    }

    /// Threads reserve in a loop for a one-second budget: no reservation asked for at or
    /// after the deadline is granted, and every thread is refused once it passed.
    #[test]
    fn the_deadline_holds_under_concurrent_reservations() {
        let budget = Budget {
            timeout_seconds: Some(1),
            ..Budget::default()
        };
        let meter = BudgetMeter::new(&budget);
        let deadline = meter.deadline().expect("a deadline");
        let granted = AtomicU64::new(0);
        thread::scope(|scope| {
            for thread in 0..4 {
                let (meter, granted) = (meter.clone(), &granted);
                scope.spawn(move || {
                    let call = if thread % 2 == 0 {
                        Call::Tool
                    } else {
                        Call::Model
                    };
                    loop {
                        let asked = Instant::now();
                        match meter.reserve(call) {
                            Ok(permit) => {
                                assert!(asked < deadline, "granted after the deadline");
                                granted.fetch_add(1, Ordering::Relaxed);
                                drop(permit);
                                thread::sleep(Duration::from_millis(1));
                            }
                            Err(refused) => {
                                assert_eq!(refused.limit(), Limit::TimeoutSeconds);
                                assert!(Instant::now() >= deadline);
                                break;
                            }
                        }
                    }
                    // Once refused, refused for good.
                    for _ in 0..100 {
                        assert!(meter.reserve(call).is_err());
                    }
                });
            }
        });
        assert!(granted.load(Ordering::Relaxed) > 0);
        assert!(Instant::now() >= deadline);
    }
}
