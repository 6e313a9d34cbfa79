//! Each request is a `tracing` span named and with fields after OpenTelemetry's semantic
//! conventions for MCP and GenAI tool calls, checked with an in-process subscriber: the
//! method, the tool, the protocol version, the JSON-RPC id, the server, and on
//! failure the error's type and code; and what happens to a request (a reconnect, a
//! cancellation) is an event in its span.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolport_core::Timeouts;
use toolport_fixtures::{LabServer, LibraryServer, RequestSpans, span_events as events};
use toolport_session::{CallOptions, McpSession};
use toolport_testkit::{DuplexConnector, bounded, call_params};
use tracing_subscriber::layer::SubscriberExt as _;

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
async fn a_restart_noted_by_a_supervisor_opens_the_span_of_the_next_operation_only() {
    let spans = RequestSpans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let session = McpSession::new(DuplexConnector::new(LabServer::new));
    bounded("connect", session.connect()).await.unwrap();
    session.note_restart(1, "exit status: 1");
    session.note_restart(2, "it did not start within 100 ms");
    for text in ["first", "second"] {
        let echo = call_params("echo", json!({ "text": text }));
        bounded(text, session.call_tool(echo, CallOptions::default()))
            .await
            .unwrap();
    }
    session.close().await;

    let [first, second]: [_; 2] = spans.named("tools/call echo").try_into().unwrap();
    assert!(
        events(&first).contains(
            "the server was restarted since the last request attempt=2 \
             cause=it did not start within 100 ms restarts=2"
        ),
        "{first:?}"
    );
    assert!(!events(&second).contains("restarted"), "{second:?}");
}
