//! The span of a request over Streamable HTTP names the session id the server assigned
//! (`mcp.session.id`): the session and the HTTP transport together, so the test lives here
//! rather than in either crate.

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport::http::HttpServer;
use toolport::{CallOptions, McpSession};
use toolport_fixtures::{HttpFixtureServer, LabServer, RequestSpans};
use toolport_testkit::{bounded, call_params};
use tracing_subscriber::layer::SubscriberExt as _;

// One thread, so that the thread-local subscriber sees every task.
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
