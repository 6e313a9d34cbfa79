//! Each request is a `tracing` span named and with fields after OpenTelemetry's semantic
//! conventions for MCP and GenAI tool calls, checked with an in-process subscriber: the
//! method, the tool, the protocol version, the JSON-RPC id, the server, and on failure the
//! error's type and code.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use serde_json::json;
use toolport_session::{CallOptions, McpSession};
use toolport_testkit::{DuplexConnector, LabServer, bounded, call_params};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};

/// One span's fields, as text.
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

impl<S: tracing::Subscriber> Layer<S> for RequestSpans {
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

    let [list] = spans
        .named("tools/list")
        .try_into()
        .unwrap_or_else(|found: Vec<_>| panic!("one tools/list span expected, found {found:?}"));
    assert_eq!(list["mcp.method.name"], "tools/list");
    assert_eq!(list["otel.kind"], "client");
    assert!(!list.contains_key("gen_ai.tool.name"));

    let [call] = spans
        .named("tools/call echo")
        .try_into()
        .unwrap_or_else(|found: Vec<_>| {
            panic!("one tools/call echo span expected, found {found:?}")
        });
    assert_eq!(call["mcp.method.name"], "tools/call");
    assert_eq!(call["gen_ai.operation.name"], "execute_tool");
    assert_eq!(call["gen_ai.tool.name"], "echo");
    assert!(call["mcp.protocol.version"].starts_with("20"), "{call:?}");
    assert!(!call["jsonrpc.request.id"].is_empty(), "{call:?}");
    assert_ne!(call["jsonrpc.request.id"], list["jsonrpc.request.id"]);
    assert_eq!(call["toolport.server"], session.target());
    assert!(!call.contains_key("error.type"), "{call:?}");

    let [failed] = spans
        .named("tools/call no-such-tool")
        .try_into()
        .unwrap_or_else(|found: Vec<_>| panic!("one failed call span expected, found {found:?}"));
    assert_eq!(failed["error.type"], "rpc", "{failed:?}");
    assert_eq!(failed["otel.status_code"], "ERROR");
    assert!(
        failed["rpc.response.status_code"].starts_with('-'),
        "{failed:?}"
    );
}
