//! Each request is a `tracing` span named and with fields after OpenTelemetry's semantic
//! conventions for MCP and GenAI tool calls, checked with an in-process subscriber: the
//! method, the tool, the protocol version, the session id, the JSON-RPC id, the server, and on
//! failure the error's type and code; and what happens to a request (a reconnect, a
//! cancellation) is an event in its span.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport_core::Timeouts;
use toolport_http::HttpServer;
use toolport_session::{CallOptions, McpSession};
use toolport_testkit::{
    DuplexConnector, HttpFixtureServer, LabServer, LibraryServer, bounded, call_params,
};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

/// One span's fields, as text, and under `events` the messages of the events inside it, one
/// per line.
type SpanFields = HashMap<String, String>;

/// The fields of every `mcp.request` span, by span, in the order the spans were made.
#[derive(Clone, Default)]
struct RequestSpans(Arc<Mutex<Vec<(Id, SpanFields)>>>);

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
        self.0.lock().unwrap().push((id.clone(), fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.0.lock().unwrap();
        if let Some((_, fields)) = spans.iter_mut().find(|(span, _)| span == id) {
            values.record(&mut Fields(fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, context: Context<'_, S>) {
        let Some(span) = context.event_span(event) else {
            return;
        };
        let mut message = HashMap::new();
        event.record(&mut Fields(&mut message));
        let mut spans = self.0.lock().unwrap();
        if let Some((_, fields)) = spans.iter_mut().find(|(id, _)| *id == span.id()) {
            let events = fields.entry("events".to_owned()).or_default();
            events.push_str(message.get("message").map_or("", String::as_str));
            events.push('\n');
        }
    }
}

impl RequestSpans {
    /// The fields of the spans whose `otel.name` is `name`.
    fn named(&self, name: &str) -> Vec<SpanFields> {
        let spans = self.0.lock().unwrap();
        let named = spans.iter().map(|(_, fields)| fields);
        named
            .filter(|fields| fields.get("otel.name").map(String::as_str) == Some(name))
            .cloned()
            .collect()
    }

    /// The fields of the one span whose `otel.name` is `name`.
    fn one(&self, name: &str) -> SpanFields {
        let [span] = self
            .named(name)
            .try_into()
            .unwrap_or_else(|found: Vec<_>| panic!("one {name} span expected, found {found:?}"));
        span
    }
}

/// The events inside a span, one message per line.
fn events(span: &SpanFields) -> &str {
    span.get("events").map_or("", String::as_str)
}

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn each_request_is_a_span_with_the_semantic_conventions_fields() {
    let spans = RequestSpans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let session = McpSession::new(DuplexConnector::new(LabServer::new));
    bounded("tools/list", session.list_tools()).await.unwrap();
    let echo = call_params("echo", json!({"text": "hi"}));
    bounded("echo", session.call_tool(echo, CallOptions::default()))
        .await
        .unwrap();
    let missing = call_params("no-such-tool", json!({}));
    bounded(
        "no-such-tool",
        session.call_tool(missing, CallOptions::default()),
    )
    .await
    .unwrap_err();
    session.close().await;

    let list = spans.one("tools/list");
    assert_eq!(list["mcp.method.name"], "tools/list");
    assert_eq!(list["otel.kind"], "client");
    assert!(!list.contains_key("gen_ai.tool.name"));

    let call = spans.one("tools/call echo");
    assert_eq!(call["mcp.method.name"], "tools/call");
    assert_eq!(call["gen_ai.operation.name"], "execute_tool");
    assert_eq!(call["gen_ai.tool.name"], "echo");
    assert!(call["mcp.protocol.version"].starts_with("20"), "{call:?}");
    assert!(!call["jsonrpc.request.id"].is_empty(), "{call:?}");
    assert_ne!(call["jsonrpc.request.id"], list["jsonrpc.request.id"]);
    assert_eq!(call["toolport.server"], session.target());
    assert!(!call.contains_key("error.type"), "{call:?}");
    assert!(
        events(&list).contains("connected"),
        "the first operation waits for the connect: {list:?}"
    );

    let failed = spans.one("tools/call no-such-tool");
    assert_eq!(failed["error.type"], "rpc", "{failed:?}");
    assert_eq!(failed["otel.status_code"], "ERROR");
    assert!(
        failed["rpc.response.status_code"].starts_with('-'),
        "{failed:?}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_reconnect_and_a_cancellation_are_events_in_the_span_of_the_call_they_delay() {
    let spans = RequestSpans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let connector = Arc::new(DuplexConnector::new(LabServer::new));
    let session = McpSession::builder_shared(connector.clone())
        .timeouts(Timeouts::default().with_request(Duration::from_millis(150)))
        .build();
    bounded("connect", session.connect()).await.unwrap();
    connector.kill_all();
    bounded("the transport closes", async {
        while session.is_connected() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    let echo = call_params("echo", json!({"text": "again"}));
    bounded("echo", session.call_tool(echo, CallOptions::default()))
        .await
        .unwrap();
    let sleep = call_params("sleep", json!({"ms": 10_000}));
    let error = bounded("sleep", session.call_tool(sleep, CallOptions::default()))
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    session.close().await;

    let echo = spans.one("tools/call echo");
    assert!(events(&echo).contains("reconnected"), "{echo:?}");
    let sleep = spans.one("tools/call sleep");
    assert!(
        events(&sleep).contains("timed out; cancelling on the server"),
        "{sleep:?}"
    );
    assert_eq!(sleep["error.type"], "request_timeout");
}

#[tokio::test(flavor = "current_thread")]
async fn a_listing_of_two_pages_is_one_span() {
    let spans = RequestSpans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let session = McpSession::new(DuplexConnector::new(LibraryServer::new));
    let resources = bounded("resources/list", session.list_resources())
        .await
        .unwrap();
    assert_eq!(resources.len(), 2, "two pages of one resource each");
    session.close().await;

    let listing = spans.one("resources/list");
    assert!(!listing["jsonrpc.request.id"].is_empty(), "{listing:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_streamable_http_span_names_the_session_the_server_assigned() {
    let spans = RequestSpans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let session = McpSession::builder(HttpServer::new(server.url()))
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build();
    let echo = call_params("echo", json!({"text": "hi"}));
    bounded("echo", session.call_tool(echo, CallOptions::default()))
        .await
        .unwrap();
    session.close().await;
    server.stop().await;

    let call = spans.one("tools/call echo");
    let assigned = server
        .requests()
        .iter()
        .find_map(|request| request.session_id().map(str::to_owned))
        .expect("the client sent the session id back");
    assert_eq!(call["mcp.session.id"], assigned, "{call:?}");
}
