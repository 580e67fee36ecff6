//! The `accept` span (feature `tracing`, on in this crate): its outcome, its warnings, no
//! value of the envelope.
//!
//! The subscriber is the process's global one, installed once, and records only what the
//! threads of a `capture` do: `tracing` caches whether a callsite is wanted when it is
//! first hit, and with a scoped subscriber (`with_default`) that races with the suite's
//! threads hitting the same callsites with none.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Once;

use contract_core::inbox::{Inbox, MemoryLedger, MemoryTx};
use contract_core::{Delivery, Journey, Status};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use super::fixture::{bytes, order, HandlerError, Order, Receipt, OWNER};

/// A span's (or an event's) name and its fields.
type Recorded = (String, BTreeMap<String, String>);

/// What the spans and events of the current thread are recorded in, while it captures.
#[derive(Default)]
struct Captured {
    spans: BTreeMap<u64, Recorded>,
    events: Vec<Recorded>,
}

thread_local! {
    /// `Some` while the thread captures.
    static CAPTURED: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// The global subscriber's layer: it records into the current thread's [`CAPTURED`].
struct ThreadCapture;

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

fn with_captured(f: impl FnOnce(&mut Captured)) {
    CAPTURED.with(|captured| {
        if let Some(captured) = captured.borrow_mut().as_mut() {
            f(captured);
        }
    });
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for ThreadCapture {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        with_captured(|captured| {
            let mut fields = BTreeMap::new();
            attrs.record(&mut Fields(&mut fields));
            let name = attrs.metadata().name().to_owned();
            captured.spans.insert(id.into_u64(), (name, fields));
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        with_captured(|captured| {
            if let Some((_, fields)) = captured.spans.get_mut(&id.into_u64()) {
                values.record(&mut Fields(fields));
            }
        });
    }

    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        with_captured(|captured| {
            let mut fields = BTreeMap::new();
            event.record(&mut Fields(&mut fields));
            let level = event.metadata().level().to_string();
            captured.events.push((level, fields));
        });
    }
}

/// The `handoff.accept` spans and all events of `f`, run on this thread.
fn capture(f: impl FnOnce()) -> (Vec<BTreeMap<String, String>>, Vec<Recorded>) {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let subscriber = tracing_subscriber::registry().with(ThreadCapture);
        tracing::subscriber::set_global_default(subscriber).expect("the only global subscriber");
    });
    CAPTURED.with(|captured| *captured.borrow_mut() = Some(Captured::default()));
    f();
    let captured = CAPTURED
        .with(|captured| captured.borrow_mut().take())
        .unwrap_or_default();
    let accepts = captured
        .spans
        .into_values()
        .filter(|(name, _)| name == "handoff.accept")
        .map(|(_, fields)| fields)
        .collect();
    (accepts, captured.events)
}

#[test]
fn each_acceptance_is_a_span_with_its_outcome_and_warnings_and_no_value() {
    // The context's id is the conversation's when the journey names no session (semantic
    // conventions for GenAI: `gen_ai.conversation.id`): an identifier, not a value.
    let context = "ctx-7";
    let mut inbox = Inbox::new(MemoryLedger::new());
    let first = bytes(order(context, "h-secret-1"));
    // From someone other than the last owner, and a second attempt without retryOf.
    let second =
        bytes(order(context, "h-secret-2").journey(Journey::new("intruder", OWNER).attempt(2)));
    let draft = bytes(order(context, "h-secret-3").status(Status::Draft));
    let handler = |tx: &mut MemoryTx<'_>, delivery: &Delivery<Order>| {
        tx.put(delivery.envelope().handoff_id.clone(), "applied");
        Ok::<Receipt, HandlerError>("refunded".into())
    };
    let (spans, events) = capture(|| {
        inbox.accept(&first, handler).expect("applied");
        inbox.accept(&first, handler).expect("duplicate");
        inbox.accept(&second, handler).expect("applied");
        assert!(inbox.accept(&draft, handler).is_err());
    });
    let field = |i: usize, name: &str| spans[i].get(name).map(String::as_str);
    assert_eq!(spans.len(), 4);
    for i in 0..4 {
        assert_eq!(field(i, "otel.name"), Some("accept inbox-order/v1"));
        assert_eq!(field(i, "handoff.contract"), Some("inbox-order/v1"));
    }
    assert_eq!(field(0, "handoff.acceptance"), Some("applied"));
    assert_eq!(field(0, "handoff.seq"), Some("1"));
    assert_eq!(field(0, "handoff.warnings"), None);
    assert_eq!(field(0, "handoff.attempt"), Some("1"));
    assert_eq!(field(1, "handoff.acceptance"), Some("duplicate"));
    assert_eq!(field(1, "handoff.seq"), Some("1"));
    assert_eq!(field(2, "handoff.acceptance"), Some("applied"));
    assert_eq!(
        field(2, "handoff.warnings"),
        Some(r#"["retry_without_retry_of","owner_conflict"]"#)
    );
    assert_eq!(field(2, "handoff.attempt"), Some("2"));
    assert_eq!(field(3, "handoff.acceptance"), Some("not_ready"));
    assert_eq!(field(0, "gen_ai.conversation.id"), Some("session-1"));
    assert_eq!(field(1, "gen_ai.conversation.id"), Some("session-1"));
    assert_eq!(field(2, "gen_ai.conversation.id"), Some(context));
    // Every acceptance names its handoff and its agents, the duplicate and the refusal too.
    for (i, id) in ["h-secret-1", "h-secret-1", "h-secret-2", "h-secret-3"]
        .into_iter()
        .enumerate()
    {
        assert_eq!(field(i, "handoff.id"), Some(id));
        assert_eq!(field(i, "handoff.context_id"), Some(context));
        assert_eq!(field(i, "gen_ai.operation.name"), Some("invoke_agent"));
        assert_eq!(field(i, "gen_ai.agent.name"), Some(OWNER));
        assert_eq!(field(i, "handoff.to"), Some(OWNER));
    }
    assert_eq!(field(0, "handoff.from"), Some("triage"));
    assert_eq!(field(2, "handoff.from"), Some("intruder"));
    assert_eq!(field(2, "gen_ai.caller.name"), Some("intruder"));
    assert_eq!(field(3, "error.type"), Some("not_ready"));
    assert_eq!(field(0, "error.type"), None);

    // A WARN event per warning, and one for the refusal.
    let warned: Vec<&str> = events
        .iter()
        .filter(|(level, _)| level == "WARN")
        .filter_map(|(_, fields)| {
            fields
                .get("handoff.warning")
                .or_else(|| fields.get("handoff.acceptance"))
                .map(String::as_str)
        })
        .collect();
    assert_eq!(
        warned,
        ["retry_without_retry_of", "owner_conflict", "not_ready"]
    );

    // No value of the envelopes anywhere (their ids and agents are identifiers, on the span).
    let everything = format!("{spans:?}{events:?}");
    for value in ["A-h", "refund the damaged order"] {
        assert!(!everything.contains(value), "{value} in {everything}");
    }
}
