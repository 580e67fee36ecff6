//! The conformance suite, generic over a [`Store`]; `conformance!(Fixture)` makes its tests.

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, SystemTime};

use contract_core::envelope::Digest;
use contract_core::inbox::{AcceptError, Acceptance, Ack, MemoryArtifacts, Warning};
use contract_core::{ArtifactRef, Journey, ReceiveOptions, Status};

use super::fixture::{
    accept, accept_failing, accept_holding, bytes, effect_of, inbox, order, unique,
    LastWithReceipt, Order, Receipt, Store, OWNER,
};

/// The tests of the suite for one store fixture, each a `#[test]` in the module it is
/// called in.
macro_rules! conformance {
    ($store:ty) => {
        use $crate::inbox::suite;

        #[test]
        fn applies_once_and_answers_a_retry_with_the_first_ack() {
            suite::run::<$store>("applies-once", suite::applies_once::<$store>);
        }

        #[test]
        fn a_restart_keeps_the_ack_and_the_effect() {
            suite::run::<$store>("restart", suite::restart::<$store>);
        }

        #[test]
        fn another_envelope_under_a_key_taken_is_a_conflict() {
            suite::run::<$store>("conflict", suite::conflict::<$store>);
        }

        #[test]
        fn refusals_write_nothing() {
            suite::run::<$store>("refusals", suite::refusals_write_nothing::<$store>);
        }

        #[test]
        fn a_handler_error_rolls_everything_back() {
            suite::run::<$store>("handler-error", suite::handler_error_rolls_back::<$store>);
        }

        #[test]
        fn owner_conflicts_and_retries_without_retry_of_are_warnings() {
            suite::run::<$store>("warnings", suite::warnings::<$store>);
        }

        #[test]
        fn last_accepted_is_the_rollback_target() {
            suite::run::<$store>("last-accepted", suite::last_accepted::<$store>);
        }

        #[test]
        fn prune_keeps_each_contexts_last_entry() {
            suite::run::<$store>("prune", suite::prune::<$store>);
        }

        #[test]
        fn every_outcome_leaves_a_bounded_step_of_its_session() {
            suite::run::<$store>("journey", suite::journey::<$store>);
        }

        #[test]
        fn a_three_hop_chain_whose_owners_are_its_receivers_warns_of_nothing() {
            suite::run::<$store>("three-hops", suite::three_hops::<$store>);
        }

        #[test]
        fn races_of_two_connections_apply_once() {
            suite::run::<$store>("races", suite::races::<$store>);
        }

        #[cfg(feature = "tokio")]
        #[test]
        fn an_async_inbox_of_eight_tasks_applies_once() {
            suite::run::<$store>("async", suite::async_inbox::<$store>);
        }

        #[cfg(feature = "fail-points")]
        #[test]
        fn injected_failures_then_a_retry_apply_once() {
            suite::run::<$store>("injected", suite::injected_failures::<$store>);
        }

        #[cfg(unix)]
        #[test]
        fn a_process_killed_in_the_handler_applies_once_on_retry() {
            suite::killed::<$store>(
                module_path!(),
                "a_process_killed_in_the_handler_applies_once_on_retry",
                suite::Kill::InHandler,
            );
        }

        #[cfg(all(unix, feature = "fail-points"))]
        #[test]
        fn a_process_killed_after_the_commit_loses_nothing() {
            suite::killed::<$store>(
                module_path!(),
                "a_process_killed_after_the_commit_loses_nothing",
                suite::Kill::AfterCommit,
            );
        }
    };
}
pub(crate) use conformance;

/// Runs one test on a fresh store, or says why it skipped.
pub fn run<S: Store>(test: &str, body: fn(&S)) {
    match S::fresh(test) {
        Some(store) => body(&store),
        None => println!("SKIPPED: {test}: this store is not available here"),
    }
}

fn applied(outcome: Acceptance<Order, Receipt>) -> (Ack<Receipt>, Vec<Warning>) {
    match outcome {
        Acceptance::Applied { ack, warnings, .. } => (ack, warnings),
        Acceptance::Duplicate(ack) => {
            panic!("expected Applied, got a duplicate of seq {}", ack.seq)
        }
    }
}

fn duplicate(outcome: Acceptance<Order, Receipt>) -> Ack<Receipt> {
    match outcome {
        Acceptance::Duplicate(ack) => ack,
        Acceptance::Applied { ack, .. } => {
            panic!("expected Duplicate, got Applied (seq {})", ack.seq)
        }
    }
}

pub fn applies_once<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let (context, handoff) = (unique("ctx"), unique("h"));
    let effect = effect_of(&context, &handoff);
    let first = bytes(order(&context, &handoff));
    let (ack, warnings) = applied(accept::<S, _>(&mut inbox, &first, &effect).expect("applied"));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        (ack.context_id.as_str(), ack.handoff_id.as_str()),
        (&*context, &*handoff)
    );
    assert_eq!(ack.digest, Digest::of_envelope(&first).expect("digest"));
    assert_eq!(ack.receipt, format!("refunded A-{handoff}"));
    assert_eq!(store.effects(&effect), 1);

    // The same bytes again, and a retry: attempt 2, retryOf naming the run retried, the
    // same handoffId. Nothing runs; the first acknowledgement comes back.
    let again = duplicate(accept::<S, _>(&mut inbox, &first, &effect).expect("duplicate"));
    assert_eq!(again, ack);
    let retry = order(&context, &handoff).journey(
        Journey::new("triage", OWNER)
            .session("session-1")
            .retry(2, "run-1"),
    );
    let retried = duplicate(accept::<S, _>(&mut inbox, &bytes(retry), &effect).expect("duplicate"));
    assert_eq!(retried, ack);
    assert_eq!(store.effects(&effect), 1);

    // Another connection sees the same.
    let mut other = super::fixture::inbox(store, &artifacts);
    let from_other = duplicate(accept::<S, _>(&mut other, &first, &effect).expect("duplicate"));
    assert_eq!(from_other, ack);
    assert_eq!(store.effects(&effect), 1);
}

pub fn restart<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let (context, handoff) = (unique("ctx"), unique("h"));
    let effect = effect_of(&context, &handoff);
    let envelope = bytes(order(&context, &handoff));
    let mut first = inbox(store, &artifacts);
    let (ack, _) = applied(accept::<S, _>(&mut first, &envelope, &effect).expect("applied"));
    drop(first);

    let mut reopened = inbox(store, &artifacts);
    let again = duplicate(accept::<S, _>(&mut reopened, &envelope, &effect).expect("duplicate"));
    assert_eq!(again, ack);
    let last = reopened
        .last_with_receipt(&context)
        .expect("read")
        .expect("an entry");
    assert_eq!(last.ack, ack);
    assert_eq!(last.envelope, envelope);
    assert_eq!(store.effects(&effect), 1);
}

pub fn conflict<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let (context, handoff) = (unique("ctx"), unique("h"));
    let effect = effect_of(&context, &handoff);
    let (ack, _) = applied(
        accept::<S, _>(&mut inbox, &bytes(order(&context, &handoff)), &effect).expect("applied"),
    );

    // The same key, another goal: refused, nothing run, the first entry unchanged.
    let changed = bytes(order(&context, &handoff).goal("refund twice"));
    let refused = accept::<S, _>(&mut inbox, &changed, "conflicting");
    let message = refused.as_ref().err().map(ToString::to_string);
    match refused {
        Err(AcceptError::Conflict {
            context_id,
            handoff_id,
            seq,
            accepted,
            received,
        }) => {
            // The key reused, named by its ids (ids, not payload values).
            assert_eq!((context_id, handoff_id), (context.clone(), handoff.clone()));
            assert_eq!(seq, ack.seq);
            assert_eq!(accepted, ack.digest);
            assert_eq!(received, Digest::of_envelope(&changed).expect("digest"));
            let message = message.unwrap_or_default();
            assert!(
                message.contains(&format!("contextId `{context}`"))
                    && message.contains(&format!("handoffId `{handoff}`")),
                "{message}"
            );
        }
        other => panic!("expected Conflict, got {other:?}"),
    }
    // A retry that changed the journey beyond attempt and retryOf is another envelope too.
    let moved = order(&context, &handoff).journey(Journey::new("triage", OWNER).session("other"));
    assert!(matches!(
        accept::<S, _>(&mut inbox, &bytes(moved), "conflicting"),
        Err(AcceptError::Conflict { .. })
    ));
    assert_eq!(store.effects("conflicting"), 0);
    assert_eq!(store.effects(&effect), 1);
    let last = inbox
        .last_with_receipt(&context)
        .expect("read")
        .expect("entry");
    assert_eq!(last.ack, ack);
}

/// Asserts that a refused envelope left nothing: no entry under its key, no effect, the
/// context's last acceptance unchanged.
fn assert_wrote_nothing<S: Store>(
    store: &S,
    inbox: &mut contract_core::inbox::Inbox<S::Ledger, MemoryArtifacts>,
    context: &str,
    handoff: &str,
    last: Option<&Ack<Receipt>>,
) {
    use contract_core::inbox::Ledger as _;
    let entry = inbox.ledger_mut().entry(context, handoff).expect("read");
    assert!(entry.is_none(), "a refusal wrote an entry");
    assert_eq!(store.effects(&effect_of(context, handoff)), 0);
    let now = inbox.last_with_receipt(context).expect("read");
    assert_eq!(now.as_ref().map(|a| &a.ack), last);
}

pub fn refusals_write_nothing<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let context = unique("ctx");
    let uri = "store://answer/104";
    artifacts.put(uri, 2, b"draft two");
    artifacts.put(uri, 3, b"draft three");

    // Not ready.
    let handoff = unique("draft");
    let draft = order(&context, &handoff).status(Status::Draft);
    let refused = accept::<S, _>(&mut inbox, &bytes(draft), &effect_of(&context, &handoff));
    assert!(matches!(refused, Err(AcceptError::NotReady)), "{refused:?}");
    assert_wrote_nothing(store, &mut inbox, &context, &handoff, None);

    // A version the store does not have.
    let handoff = unique("missing");
    let missing = order(&context, &handoff)
        .artifact(ArtifactRef::new("draft", uri, 3))
        .artifact(ArtifactRef::new("draft", uri, 9));
    let refused = accept::<S, _>(&mut inbox, &bytes(missing), &effect_of(&context, &handoff));
    assert!(
        matches!(refused, Err(AcceptError::ArtifactUnavailable { index: 1 })),
        "{refused:?}"
    );
    assert_wrote_nothing(store, &mut inbox, &context, &handoff, None);

    // A content hash that is not the stored content's.
    let handoff = unique("changed");
    let changed = order(&context, &handoff)
        .artifact(ArtifactRef::new("draft", uri, 3).digest(Digest::of_bytes(b"draft two")));
    let refused = accept::<S, _>(&mut inbox, &bytes(changed), &effect_of(&context, &handoff));
    assert!(
        matches!(refused, Err(AcceptError::ArtifactChanged { index: 0 })),
        "{refused:?}"
    );
    assert_wrote_nothing(store, &mut inbox, &context, &handoff, None);

    // Accepted at version 3 (its hash right), then version 2 of the same uri is a
    // regression; 3 again is not.
    let handoff = unique("v3");
    let v3 = order(&context, &handoff)
        .artifact(ArtifactRef::new("draft", uri, 3).digest(Digest::of_bytes(b"draft three")));
    let (ack, _) = applied(
        accept::<S, _>(&mut inbox, &bytes(v3), &effect_of(&context, &handoff)).expect("applied"),
    );
    let handoff = unique("v2");
    let v2 = order(&context, &handoff).artifact(ArtifactRef::new("draft", uri, 2));
    let refused = accept::<S, _>(&mut inbox, &bytes(v2), &effect_of(&context, &handoff));
    assert!(
        matches!(refused, Err(AcceptError::ArtifactRegressed { index: 0 })),
        "{refused:?}"
    );
    assert_wrote_nothing(store, &mut inbox, &context, &handoff, Some(&ack));
    // Another context has its own versions.
    let other = unique("ctx");
    let handoff = unique("v2");
    let elsewhere = order(&other, &handoff).artifact(ArtifactRef::new("draft", uri, 2));
    accept::<S, _>(&mut inbox, &bytes(elsewhere), &effect_of(&other, &handoff)).expect("applied");
    let handoff = unique("v3-again");
    let again = order(&context, &handoff).artifact(ArtifactRef::new("draft", uri, 3));
    accept::<S, _>(&mut inbox, &bytes(again), &effect_of(&context, &handoff)).expect("applied");

    // Not an envelope of this contract, or not JSON: rejected before anything.
    let refused = accept::<S, _>(&mut inbox, b"{\"schemaVersion\":", "none");
    assert!(
        matches!(refused, Err(AcceptError::Rejected(_))),
        "{refused:?}"
    );
    assert_eq!(store.effects("none"), 0);
    // No refusal's message holds a value of the envelope.
    let handoff = unique("secret-handoff");
    let secret = order(&context, &handoff).artifact(ArtifactRef::new("draft", "store://secret", 1));
    let message = accept::<S, _>(&mut inbox, &bytes(secret), "none")
        .expect_err("refused")
        .to_string();
    assert!(
        !message.contains("secret") && !message.contains(&context),
        "{message}"
    );
}

pub fn handler_error_rolls_back<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let (context, handoff) = (unique("ctx"), unique("h"));
    let effect = effect_of(&context, &handoff);
    let envelope = bytes(order(&context, &handoff));
    let refused = accept_failing::<S, _>(&mut inbox, &envelope, &effect);
    assert!(
        matches!(refused, Err(AcceptError::Handler(_))),
        "{refused:?}"
    );
    assert_wrote_nothing(store, &mut inbox, &context, &handoff, None);
    // The key was not taken: a retry applies.
    applied(accept::<S, _>(&mut inbox, &envelope, &effect).expect("applied"));
    assert_eq!(store.effects(&effect), 1);
}

pub fn warnings<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let context = unique("ctx");
    let mut accept_warnings = |handoff: contract_core::Handoff<Order>| {
        let h = handoff.handoff_id.clone();
        let outcome = accept::<S, _>(&mut inbox, &bytes(handoff), &effect_of(&context, &h));
        applied(outcome.expect("applied")).1
    };
    // The first handoff of a context: nobody owned it before.
    assert_eq!(accept_warnings(order(&context, &unique("h"))), []);
    // From someone other than the last owner: two owners in one context.
    assert_eq!(
        accept_warnings(order(&context, &unique("h"))),
        [Warning::OwnerConflict]
    );
    // From the last owner on to another agent: the chain as it should be.
    let mut onward =
        order(&context, &unique("h")).journey(Journey::new(OWNER, "escalation").attempt(1));
    onward.owner = "escalation".into();
    assert_eq!(accept_warnings(onward), []);
    // A second attempt that does not say which run it retries.
    let retry = order(&context, &unique("h")).journey(Journey::new("escalation", OWNER).attempt(2));
    assert_eq!(accept_warnings(retry), [Warning::RetryWithoutRetryOf]);
}

pub fn last_accepted<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let context = unique("ctx");
    assert!(inbox.last_with_receipt(&context).expect("read").is_none());
    let mut acks = Vec::new();
    for _ in 0..3 {
        let handoff = unique("h");
        let envelope = bytes(order(&context, &handoff));
        let (ack, _) = applied(
            accept::<S, _>(&mut inbox, &envelope, &effect_of(&context, &handoff)).expect("applied"),
        );
        acks.push((ack, envelope));
    }
    // Messages after it that were not accepted do not move it.
    let handoff = unique("draft");
    let draft = order(&context, &handoff).status(Status::Draft);
    assert!(accept::<S, _>(&mut inbox, &bytes(draft), "none").is_err());
    let conflicting = bytes(order(&context, &acks[0].0.handoff_id).goal("another"));
    assert!(accept::<S, _>(&mut inbox, &conflicting, "none").is_err());
    // A duplicate of an earlier one does not either.
    accept::<S, _>(&mut inbox, &acks[0].1, "none").expect("duplicate");

    let (ack, envelope) = acks.last().expect("three");
    assert!(acks.windows(2).all(|w| w[0].0.seq < w[1].0.seq));
    let last = inbox
        .last_with_receipt(&context)
        .expect("read")
        .expect("an entry");
    assert_eq!(&last.ack, ack);
    assert_eq!(last.owner, OWNER);
    assert_eq!(&last.envelope, envelope);
    // Its envelope reads again, payload and all.
    let delivery = last
        .delivery::<Order>(&ReceiveOptions::default())
        .expect("reads");
    assert_eq!(delivery.envelope().handoff_id, ack.handoff_id);
    assert_eq!(
        delivery.payload().order_ref,
        format!("A-{}", ack.handoff_id)
    );
    // Another context's is its own.
    assert!(inbox
        .last_with_receipt(&unique("ctx"))
        .expect("read")
        .is_none());
}

pub fn prune<S: Store>(store: &S) {
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let (one, two) = (unique("ctx"), unique("ctx"));
    let mut accept_one = |context: &str, handoff: &str| {
        let envelope = bytes(order(context, handoff));
        let outcome = accept::<S, _>(&mut inbox, &envelope, &effect_of(context, handoff));
        (outcome.expect("accepted").into_ack(), envelope)
    };
    let (old, old_envelope) = accept_one(&one, "h1");
    thread::sleep(Duration::from_millis(5));
    let (last_of_one, _) = accept_one(&one, "h2");
    let (last_of_two, last_of_two_envelope) = accept_one(&two, "h1");
    assert!(old.accepted_at < last_of_one.accepted_at);

    // Nothing was accepted before the first.
    assert_eq!(inbox.prune(old.accepted_at).expect("pruned"), 0);
    // Before the second: the first goes (it is not its context's last).
    assert_eq!(inbox.prune(last_of_one.accepted_at).expect("pruned"), 1);
    // Everything is old now, but each context keeps its last.
    let later = SystemTime::now() + Duration::from_secs(60);
    assert_eq!(inbox.prune(later).expect("pruned"), 0);
    let kept = |inbox: &mut contract_core::inbox::Inbox<S::Ledger, MemoryArtifacts>, c: &str| {
        inbox.last_with_receipt(c).expect("read").map(|a| a.ack)
    };
    assert_eq!(kept(&mut inbox, &one), Some(last_of_one.clone()));
    assert_eq!(kept(&mut inbox, &two), Some(last_of_two.clone()));
    // A retry of the context's last is still a duplicate.
    let again = duplicate(
        accept::<S, _>(&mut inbox, &last_of_two_envelope, &effect_of(&two, "h1")).expect("dup"),
    );
    assert_eq!(again, last_of_two);

    // A retry after its key was pruned is not known any more: it applies again (documented
    // on `Inbox::prune`).
    let (reapplied, _) = applied(
        accept::<S, _>(&mut inbox, &old_envelope, &effect_of(&one, "h1")).expect("applied"),
    );
    assert!(reapplied.seq > last_of_two.seq);
    assert_eq!(store.effects(&effect_of(&one, "h1")), 2);
}

pub fn races<S: Store>(store: &S) {
    const ROUNDS: usize = 200;
    let artifacts = MemoryArtifacts::new();
    let context = unique("ctx");
    let envelopes: Vec<(String, Vec<u8>)> = (0..ROUNDS)
        .map(|_| {
            let handoff = unique("race");
            let envelope = bytes(order(&context, &handoff));
            (handoff, envelope)
        })
        .collect();
    let envelopes = Arc::new(envelopes);
    let barrier = Arc::new(Barrier::new(2));
    let racers: Vec<_> = (0..2)
        .map(|_| {
            // Each thread its own connection.
            let mut inbox = inbox(store, &artifacts);
            let (envelopes, barrier, context) = (
                Arc::clone(&envelopes),
                Arc::clone(&barrier),
                context.clone(),
            );
            thread::spawn(move || {
                let mut outcomes = Vec::with_capacity(ROUNDS);
                for (handoff, envelope) in envelopes.iter() {
                    barrier.wait();
                    // The transaction held open a moment, so that the other connection
                    // arrives while it is.
                    let effect = effect_of(&context, handoff);
                    let hold = Duration::from_micros(500);
                    let outcome = accept_holding::<S, _>(&mut inbox, envelope, &effect, hold);
                    let outcome = outcome.unwrap_or_else(|e| panic!("refused: {e}"));
                    outcomes.push((outcome.is_applied(), outcome.into_ack()));
                }
                outcomes
            })
        })
        .collect();
    let results: Vec<Vec<(bool, Ack<Receipt>)>> = racers
        .into_iter()
        .map(|racer| racer.join().expect("no panic"))
        .collect();
    let mut double_applied = 0;
    let mut lost = 0;
    for (round, (handoff, _)) in envelopes.iter().enumerate() {
        let (a, b) = (&results[0][round], &results[1][round]);
        assert_eq!(a.1, b.1, "round {round}: two acknowledgements");
        assert!(a.0 != b.0, "round {round}: applied {} and {}", a.0, b.0);
        match store.effects(&effect_of(&context, handoff)) {
            0 => lost += 1,
            1 => {}
            _ => double_applied += 1,
        }
    }
    assert_eq!((double_applied, lost), (0, 0));
}

#[cfg(feature = "tokio")]
pub fn async_inbox<S: Store>(store: &S) {
    use contract_core::inbox::AsyncInbox;
    use contract_core::inbox::Ledger;
    use contract_core::Delivery;

    const ROUNDS: usize = 25;
    const TASKS: usize = 8;
    let artifacts = MemoryArtifacts::new();
    let pool = AsyncInbox::new((0..4).map(|_| inbox(store, &artifacts)));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let context = unique("ctx");
    runtime.block_on(async {
        for _ in 0..ROUNDS {
            let handoff = unique("async");
            let envelope = bytes(order(&context, &handoff));
            let tasks: Vec<_> = (0..TASKS)
                .map(|_| {
                    let (pool, envelope) = (pool.clone(), envelope.clone());
                    let effect = effect_of(&context, &handoff);
                    tokio::spawn(async move {
                        let handler =
                            move |tx: &mut <S::Ledger as Ledger>::Tx<'_>,
                                  delivery: &Delivery<Order>| {
                                S::apply(tx, &effect)?;
                                Ok::<_, super::fixture::HandlerError>(format!(
                                    "refunded {}",
                                    delivery.payload().order_ref
                                ))
                            };
                        let outcome = pool.accept(envelope, handler).await;
                        let outcome = outcome.unwrap_or_else(|e| panic!("refused: {e}"));
                        (outcome.is_applied(), outcome.into_ack())
                    })
                })
                .collect();
            let mut applied = 0;
            let mut acks = Vec::new();
            for task in tasks {
                let (was_applied, ack) = task.await.expect("no panic");
                applied += usize::from(was_applied);
                acks.push(ack);
            }
            assert_eq!(applied, 1);
            assert!(acks.windows(2).all(|w| w[0] == w[1]));
            assert_eq!(store.effects(&effect_of(&context, &handoff)), 1);
        }
        let last = pool
            .last_accepted(&context)
            .await
            .expect("read")
            .expect("an entry");
        assert_eq!(last.ack.context_id, context);
    });
}

#[cfg(feature = "fail-points")]
pub fn injected_failures<S: Store>(store: &S) {
    use contract_core::inbox::{FailAction, FailPoint, StoreErrorKind};

    let artifacts = MemoryArtifacts::new();
    for point in [
        FailPoint::AfterClaim,
        FailPoint::InHandler,
        FailPoint::AfterCommit,
    ] {
        let mut inbox = inbox(store, &artifacts);
        let (context, handoff) = (unique("ctx"), unique("h"));
        let effect = effect_of(&context, &handoff);
        let envelope = bytes(order(&context, &handoff));
        inbox.arm_fail_point(point, FailAction::Error);
        match accept::<S, _>(&mut inbox, &envelope, &effect) {
            Err(AcceptError::Store(e)) => assert_eq!(e.kind(), StoreErrorKind::Injected),
            other => panic!("{point:?}: expected the injected failure, got {other:?}"),
        }
        // Then a retry, on a new connection as a restarted process would.
        drop(inbox);
        let mut retry = super::fixture::inbox(store, &artifacts);
        let outcome = accept::<S, _>(&mut retry, &envelope, &effect).expect("accepted");
        match point {
            // Nothing committed: the retry applies.
            FailPoint::AfterClaim | FailPoint::InHandler => assert!(outcome.is_applied()),
            // Committed, the ack not returned: the retry gets it.
            FailPoint::AfterCommit => assert!(!outcome.is_applied()),
        }
        assert_eq!(store.effects(&effect), 1, "{point:?}");
        let last = retry
            .last_with_receipt(&context)
            .expect("read")
            .expect("entry");
        assert_eq!(&last.ack, outcome.ack());
    }
}

/// Where the child process is killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kill {
    /// In the handler, after it wrote its effect, before the commit.
    InHandler,
    /// After the commit, before the acknowledgement is returned (a failure point: feature
    /// `fail-points`).
    #[cfg_attr(not(feature = "fail-points"), allow(dead_code))]
    AfterCommit,
}

/// The environment variable that makes a test the child of a killed-process test: the
/// store's locator and the envelope, separated by a newline.
const CHILD: &str = "HANDOFF_INBOX_KILLED_CHILD";
/// What the child prints when it reached the point where it waits to be killed.
const READY: &str = "HANDOFF_INBOX_CHILD_WAITS_FOR_SIGKILL";

/// The killed-process test: the parent runs this test again in a child process, which
/// accepts an envelope and stops where `kill` says; the parent SIGKILLs it there, reopens
/// the store and retries.
#[cfg(unix)]
pub fn killed<S: Store>(module: &str, test: &str, kill: Kill) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;

    if let Ok(spec) = std::env::var(CHILD) {
        // The child: accept, and wait to be killed at the point.
        let (locator, envelope) = spec.split_once('\n').expect("locator and envelope");
        let store = S::reopen(locator);
        let artifacts = MemoryArtifacts::new();
        let mut inbox = super::fixture::inbox(&store, &artifacts);
        fn wait_for_the_kill() -> ! {
            println!("{READY}");
            let _ = std::io::stdout().flush();
            loop {
                thread::sleep(Duration::from_secs(60));
            }
        }
        #[cfg(feature = "fail-points")]
        if kill == Kill::AfterCommit {
            use contract_core::inbox::{FailAction, FailPoint};
            inbox.arm_fail_point(
                FailPoint::AfterCommit,
                FailAction::Call(Box::new(|| wait_for_the_kill())),
            );
        }
        let _ = inbox.accept(
            envelope.as_bytes(),
            move |tx: &mut <S::Ledger as contract_core::inbox::Ledger>::Tx<'_>,
                  delivery: &contract_core::Delivery<Order>| {
                let e = delivery.envelope();
                S::apply(tx, &effect_of(&e.context_id, &e.handoff_id))?;
                if kill == Kill::InHandler {
                    wait_for_the_kill();
                }
                Ok::<Receipt, super::fixture::HandlerError>("refunded".into())
            },
        );
        panic!("the child was not killed");
    }
    if !S::DURABLE {
        println!("SKIPPED: {test}: the store does not outlive its process");
        return;
    }
    let Some(store) = S::fresh(test) else {
        println!("SKIPPED: {test}: this store is not available here");
        return;
    };
    let (context, handoff) = (unique("ctx"), unique("h"));
    let effect = effect_of(&context, &handoff);
    let envelope = bytes(order(&context, &handoff));
    let envelope_text = String::from_utf8(envelope.clone()).expect("JSON is UTF-8");
    // The test's name as the harness knows it: the module path without the crate's name.
    let module = module.split_once("::").map_or("", |(_, rest)| rest);
    let name = format!("{module}::{test}");
    let mut child = Command::new(std::env::current_exe().expect("this test binary"))
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, format!("{}\n{envelope_text}", store.locator()))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the child runs");
    let stdout = child.stdout.take().expect("piped");
    let (ready, waiting) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(line) if line.contains(READY) => {
                    let _ = ready.send(());
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    let reached = waiting.recv_timeout(Duration::from_secs(120));
    // SIGKILL, whether it got there or not.
    child.kill().expect("killed");
    let status = child.wait().expect("reaped");
    assert!(
        reached.is_ok(),
        "the child did not reach {kill:?} (it exited: {status})"
    );
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL");

    // The parent reopens and retries.
    let artifacts = MemoryArtifacts::new();
    let mut reopened = inbox(&store, &artifacts);
    let before = reopened.last_with_receipt(&context).expect("read");
    let outcome = accept::<S, _>(&mut reopened, &envelope, &effect).expect("accepted");
    match kill {
        Kill::InHandler => {
            assert!(before.is_none(), "the killed transaction left an entry");
            assert!(outcome.is_applied());
        }
        Kill::AfterCommit => {
            let committed = before.expect("the commit survived the kill");
            assert_eq!(&committed.ack, outcome.ack());
            assert!(!outcome.is_applied());
        }
    }
    assert_eq!(store.effects(&effect), 1, "0 double-applied, 0 lost");
}

/// The marker of the journey test's payload: no step may hold it.
const JOURNEY_SECRET: &str = "SECRET-REF-7731";

pub fn journey<S: Store>(store: &S) {
    use contract_core::inbox::{Ledger as _, Outcome, SessionFilter};

    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let session = unique("journey-session");
    let other_session = unique("journey-other");
    let context = unique("ctx");
    let envelope = |handoff: &str, session: &str, attempt: u32| {
        let mut handoff = order(&context, handoff).journey(
            Journey::new("triage", OWNER)
                .session(session)
                .workflow("support-refund")
                .attempt(attempt),
        );
        handoff.payload.order_ref = JOURNEY_SECRET.to_owned();
        handoff
    };

    // Applied, then redelivered three times: one step each, the duplicate counted.
    let first = bytes(envelope("h1", &session, 1));
    applied(accept::<S, _>(&mut inbox, &first, &effect_of(&context, "h1")).expect("applied"));
    for _ in 0..3 {
        duplicate(accept::<S, _>(&mut inbox, &first, &effect_of(&context, "h1")).expect("dup"));
    }
    // The payload lost `orderRef` on the way: refused, twice (one step, counted twice).
    let mut dropped: serde_json::Value =
        serde_json::from_slice(&bytes(envelope("h2", &session, 1))).expect("json");
    dropped["payload"]
        .as_object_mut()
        .expect("payload")
        .remove("orderRef");
    let dropped = serde_json::to_vec(&dropped).expect("json");
    for _ in 0..2 {
        let refused = accept::<S, _>(&mut inbox, &dropped, "none");
        assert!(
            matches!(refused, Err(AcceptError::Rejected(_))),
            "{refused:?}"
        );
    }
    // Not ready; a handler that fails; a conflict under h1's key.
    let draft = bytes(envelope("h3", &session, 1).status(Status::Draft));
    assert!(matches!(
        accept::<S, _>(&mut inbox, &draft, "none"),
        Err(AcceptError::NotReady)
    ));
    let failing = bytes(envelope("h4", &session, 1));
    assert!(matches!(
        accept_failing::<S, _>(&mut inbox, &failing, "none"),
        Err(AcceptError::Handler(_))
    ));
    let mut changed = envelope("h1", &session, 1);
    changed.payload.amount_cents += 1;
    assert!(matches!(
        accept::<S, _>(&mut inbox, &bytes(changed), "none"),
        Err(AcceptError::Conflict { .. })
    ));
    // The failed handoff retried as attempt 2: applied.
    let retry = bytes(envelope("h4", &session, 2));
    applied(accept::<S, _>(&mut inbox, &retry, &effect_of(&context, "h4")).expect("applied"));
    // A parallel session in the same context.
    let parallel = bytes(envelope("p1", &other_session, 1));
    applied(accept::<S, _>(&mut inbox, &parallel, &effect_of(&context, "p1")).expect("applied"));

    let ledger = inbox.ledger_mut();
    let steps = ledger.session(&session).expect("read");
    let seen: Vec<(&str, Option<u32>, Outcome, u64)> = steps
        .iter()
        .map(|s| {
            (
                s.handoff_id.as_deref().unwrap_or(""),
                s.attempt,
                s.outcome,
                s.count,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("h1", Some(1), Outcome::Applied, 1),
            ("h1", Some(1), Outcome::Duplicate, 3),
            ("h2", Some(1), Outcome::Refused, 2),
            ("h3", Some(1), Outcome::NotReady, 1),
            ("h4", Some(1), Outcome::HandlerFailed, 1),
            ("h1", Some(1), Outcome::Conflict, 1),
            ("h4", Some(2), Outcome::Applied, 1),
        ]
    );
    // In the ledger's own order, and each step its journey.
    assert!(steps.windows(2).all(|w| w[0].seq < w[1].seq));
    for step in &steps {
        assert_eq!(step.session.as_deref(), Some(session.as_str()));
        assert_eq!(step.workflow.as_deref(), Some("support-refund"));
        assert_eq!(step.from.as_deref(), Some("triage"));
        assert_eq!(step.to.as_deref(), Some(OWNER));
        assert_eq!(step.context_id.as_deref(), Some(context.as_str()));
        assert_eq!(step.contract, "inbox-order/v1");
        assert!(step.first_seen <= step.last_seen);
    }
    let applied_step = &steps[0];
    assert_eq!(applied_step.received_fields, ["orderRef", "amountCents"]);
    assert!(applied_step.missing_fields.is_empty());
    let refused = &steps[2];
    assert_eq!(refused.received_fields, ["amountCents"]);
    assert_eq!(refused.missing_fields, ["orderRef"]);
    assert_eq!(
        refused.sender_fields.as_deref(),
        Some(&["orderRef".to_owned(), "amountCents".to_owned()][..])
    );
    assert_eq!(
        refused.causes.get("orderRef").map(String::as_str),
        Some("dropped-on-the-way")
    );
    assert_eq!(refused.problems.len(), 1);
    assert_eq!(refused.problems[0].pointer, "/payload/orderRef");
    assert_eq!(refused.problems[0].kind, "missing_field");
    assert_eq!(refused.reason.as_deref(), Some("rejected"));
    // Never a value of the payload.
    let text = serde_json::to_string(&steps).expect("json");
    assert!(!text.contains(JOURNEY_SECRET), "{text}");
    assert!(!text.contains("4250"), "{text}");

    // The two sessions apart; the listing counts outcomes.
    let other = ledger.session(&other_session).expect("read");
    assert_eq!(other.len(), 1);
    assert_eq!(other[0].handoff_id.as_deref(), Some("p1"));
    let listed = ledger
        .sessions(&SessionFilter::default().workflow("support-refund"))
        .expect("read");
    let mine = listed
        .iter()
        .find(|s| s.session == session)
        .expect("listed");
    assert_eq!(mine.steps, 7);
    assert_eq!(mine.outcomes.get(&Outcome::Applied), Some(&2));
    assert_eq!(mine.workflow.as_deref(), Some("support-refund"));
    assert!(listed.iter().any(|s| s.session == other_session));
    let since = ledger
        .sessions(&SessionFilter::default().since(SystemTime::now() + Duration::from_secs(60)))
        .expect("read");
    assert!(since.iter().all(|s| s.session != session));

    // Pruned with the entries.
    inbox
        .prune(SystemTime::now() + Duration::from_secs(60))
        .expect("pruned");
    assert!(inbox
        .ledger_mut()
        .session(&session)
        .expect("read")
        .is_empty());
}

pub fn three_hops<S: Store>(store: &S) {
    // One shared ledger, one context: triage hands to the specialist, who hands to the
    // escalation agent. Each envelope's `owner` is its receiver, the agent taking over.
    let artifacts = MemoryArtifacts::new();
    let mut inbox = inbox(store, &artifacts);
    let context = unique("ctx");
    let hop = |handoff: &str, from: &str, to: &str| {
        let mut envelope = order(&context, handoff);
        envelope.owner = to.to_owned();
        envelope.journey(Journey::new(from, to).session("three-hops").attempt(1))
    };
    for (handoff, from, to) in [
        ("h1", "triage-agent", "refund-specialist"),
        ("h2", "refund-specialist", "escalation-agent"),
        ("h3", "escalation-agent", "refund-specialist"),
    ] {
        let outcome = accept::<S, _>(&mut inbox, &bytes(hop(handoff, from, to)), "none");
        let (_, warnings) = applied(outcome.expect("applied"));
        assert!(warnings.is_empty(), "{handoff}: {warnings:?}");
    }
    // A hop from an agent that no longer holds the context: the specialist holds it now.
    let stale = hop("h4", "triage-agent", "escalation-agent");
    let (_, warnings) =
        applied(accept::<S, _>(&mut inbox, &bytes(stale), "none").expect("applied"));
    assert_eq!(warnings, [Warning::OwnerConflict]);
}
