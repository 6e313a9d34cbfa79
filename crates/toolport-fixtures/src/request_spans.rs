//! [`RequestSpans`]: a `tracing` layer that keeps the fields and events of every `mcp.request`
//! span, for tests of what a trace of the client shows.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex, MutexGuard};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// One span's fields, as text; under `events`, the events inside it, one per line (read them
/// with [`span_events`]).
pub type SpanFields = HashMap<String, String>;

/// Keeps the fields of every `mcp.request` span, and the events inside it, in the order the
/// spans were made. Clones share what they keep: one goes to the subscriber, the
/// test reads another.
///
/// Set the subscriber on the test's own thread (`tracing::subscriber::set_default`, in a
/// `current_thread` test), and give every other test of the same binary one too, or keep the
/// test alone in its binary. With a single such subscriber alive, `tracing` settles whether a
/// callsite is on, for every thread, as the first thread to reach it finds it: a test thread
/// without a subscriber that reaches the request span first turns it off for this one as well.
///
/// # Examples
///
/// ```
/// use toolport_fixtures::RequestSpans;
/// use tracing_subscriber::layer::SubscriberExt as _;
///
/// let spans = RequestSpans::default();
/// let subscriber = tracing_subscriber::registry().with(spans.clone());
/// tracing::subscriber::with_default(subscriber, || {
///     let span = tracing::info_span!("mcp.request", otel.name = "tools/list");
///     span.in_scope(|| tracing::info!(protocol = "2026-07-28", "connected"));
/// });
/// let listing = spans.one("tools/list");
/// let events = toolport_fixtures::span_events(&listing);
/// assert_eq!(events, "connected protocol=2026-07-28\n");
/// ```
#[derive(Debug, Clone, Default)]
pub struct RequestSpans(Arc<Mutex<Vec<(Id, SpanFields)>>>);

impl RequestSpans {
    /// The fields of the spans whose `otel.name` is `name`.
    pub fn named(&self, name: &str) -> Vec<SpanFields> {
        let spans = self.lock();
        let named = spans.iter().map(|(_, fields)| fields);
        named
            .filter(|fields| fields.get("otel.name").map(String::as_str) == Some(name))
            .cloned()
            .collect()
    }

    /// The fields of the one span whose `otel.name` is `name`.
    ///
    /// # Panics
    ///
    /// If there is no such span, or more than one.
    pub fn one(&self, name: &str) -> SpanFields {
        let [span] = self
            .named(name)
            .try_into()
            .unwrap_or_else(|found: Vec<_>| panic!("one {name} span expected, found {found:?}"));
        span
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(Id, SpanFields)>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The events inside a span, one per line: each event's message, then its other fields as
/// `name=value` in the order of their names.
pub fn span_events(span: &SpanFields) -> &str {
    span.get("events").map_or("", String::as_str)
}

/// Writes each field as text.
struct Fields<'a>(&'a mut SpanFields);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for RequestSpans {
    fn on_new_span(&self, attributes: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        if attributes.metadata().name() != "mcp.request" {
            return;
        }
        let mut fields = HashMap::new();
        attributes.record(&mut Fields(&mut fields));
        self.lock().push((id.clone(), fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.lock();
        if let Some((_, fields)) = spans.iter_mut().find(|(span, _)| span == id) {
            values.record(&mut Fields(fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, context: Context<'_, S>) {
        let Some(span) = context.event_span(event) else {
            return;
        };
        let mut recorded = HashMap::new();
        event.record(&mut Fields(&mut recorded));
        let mut line = recorded.remove("message").unwrap_or_default();
        let mut others: Vec<_> = recorded.into_iter().collect();
        others.sort();
        for (name, value) in others {
            line.push_str(&format!(" {name}={value}"));
        }
        let mut spans = self.lock();
        if let Some((_, fields)) = spans.iter_mut().find(|(id, _)| *id == span.id()) {
            let events = fields.entry("events".to_owned()).or_default();
            events.push_str(&line);
            events.push('\n');
        }
    }
}
