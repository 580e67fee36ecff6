//! The `accept` span (feature `tracing`, on in this crate): its outcome, its warnings, no
//! value of the envelope.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use contract_core::inbox::{Inbox, MemoryLedger};
use contract_core::{Journey, Status};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use super::fixture::{accept, bytes, order, OWNER};
use super::memory::MemoryStore;

/// A span's (or an event's) name and its fields.
type Recorded = (String, BTreeMap<String, String>);

/// Every span by id, and every event.
#[derive(Clone, Default)]
struct Captured {
    spans: Arc<Mutex<BTreeMap<u64, Recorded>>>,
    events: Arc<Mutex<Vec<Recorded>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Captured {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let name = attrs.metadata().name().to_owned();
        self.spans
            .lock()
            .expect("not poisoned")
            .insert(id.into_u64(), (name, fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.spans.lock().expect("not poisoned");
        if let Some((_, fields)) = spans.get_mut(&id.into_u64()) {
            values.record(&mut Fields(fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let level = event.metadata().level().to_string();
        self.events
            .lock()
            .expect("not poisoned")
            .push((level, fields));
    }
}

/// The `handoff.accept` spans and all events of `f`.
fn capture(f: impl FnOnce()) -> (Vec<BTreeMap<String, String>>, Vec<Recorded>) {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    tracing::subscriber::with_default(subscriber, f);
    let spans = captured.spans.lock().expect("not poisoned");
    let accepts = spans
        .values()
        .filter(|(name, _)| name == "handoff.accept")
        .map(|(_, fields)| fields.clone())
        .collect();
    let events = captured.events.lock().expect("not poisoned").clone();
    (accepts, events)
}

#[test]
fn each_acceptance_is_a_span_with_its_outcome_and_warnings_and_no_value() {
    let context = "ctx-secret-4711";
    let mut inbox = Inbox::new(MemoryLedger::new());
    let first = bytes(order(context, "h-secret-1"));
    // From someone other than the last owner, and a second attempt without retryOf.
    let second =
        bytes(order(context, "h-secret-2").journey(Journey::new("intruder", OWNER).attempt(2)));
    let draft = bytes(order(context, "h-secret-3").status(Status::Draft));
    let (spans, events) = capture(|| {
        accept::<MemoryStore, _>(&mut inbox, &first, "e1").expect("applied");
        accept::<MemoryStore, _>(&mut inbox, &first, "e1").expect("duplicate");
        accept::<MemoryStore, _>(&mut inbox, &second, "e2").expect("applied");
        assert!(accept::<MemoryStore, _>(&mut inbox, &draft, "e3").is_err());
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

    // No value of the envelopes anywhere.
    let everything = format!("{spans:?}{events:?}");
    for value in ["secret", "4711", "A-h", "intruder"] {
        assert!(!everything.contains(value), "{value} in {everything}");
    }
}
