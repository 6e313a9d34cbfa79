//! A negotiating session ([`ProtocolChoice::Negotiate`]) against servers nobody here wrote:
//! server-everything (on the TypeScript SDK 1.x, so 2025-11-25 only) gets the fallback over
//! stdio, Streamable HTTP and SSE, each on one connection; the Python SDK 2.3.0 answers the
//! probe and stays on 2026-07-28; and a server on rmcp's own server SDK that serves only the
//! versions up to 2025-11-25 refuses the probe with -32022 and gets the fallback too.

use std::sync::Arc;

use serde_json::json;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::sse::SseServer;
use toolport::stdio::StdioServer;
use toolport::{Connector, McpToolset, ProtocolChoice};
use toolport_fixtures::{HttpFixtureServer, LabServer, fixture_binary};
use toolport_integration_tests::{
    RemotePeer, call, python_task_tracker_stdio, server_everything_stdio,
};
use toolport_testkit::MockConnector;

/// A negotiating toolset over `connector`, connected, and how many connections it opened.
async fn negotiated<C: Connector>(connector: C) -> (McpToolset, Arc<MockConnector<C>>) {
    let counted = Arc::new(MockConnector::new(connector));
    let toolset = McpToolset::builder(counted.clone())
        .session(|session| session.protocol(ProtocolChoice::Negotiate))
        .build()
        .await
        .unwrap();
    toolset.connect().await.unwrap();
    (toolset, counted)
}

/// Checks that server-everything settled on 2025-11-25, on one connection, and answers.
async fn fell_back<C: Connector>(toolset: &McpToolset, counted: &MockConnector<C>) {
    let version = toolset.session().protocol_version();
    assert_eq!(version, Some(ProtocolVersion::V_2025_11_25));
    let echo = call(toolset, "echo", json!({"message": "negotiated"})).await;
    assert_eq!(echo.value, json!("Echo: negotiated"));
    assert_eq!(counted.attempts(), 1, "the server was reached once");
}

#[tokio::test]
async fn server_everything_over_stdio_is_started_once_and_falls_back() {
    let (toolset, counted) = negotiated(server_everything_stdio()).await;
    fell_back(&toolset, &counted).await;
    toolset.close().await;
}

#[tokio::test]
async fn server_everything_over_streamable_http_falls_back_after_its_400() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    let (toolset, counted) = negotiated(HttpServer::new(peer.url("/mcp"))).await;
    fell_back(&toolset, &counted).await;
    toolset.close().await;
}

// That no probe goes over HTTP+SSE (`Connector::handshake_only`) is told by the session's
// `a_handshake_only_transport_gets_initialize_without_a_probe`: here a probe would be refused
// and fall back to the same end.
#[tokio::test]
async fn server_everything_over_legacy_sse_connects_on_2025_11_25() {
    let peer = RemotePeer::server_everything("sse").await;
    let (toolset, counted) = negotiated(SseServer::new(peer.url("/sse"))).await;
    fell_back(&toolset, &counted).await;
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_stdio_stays_on_2026_07_28() {
    let (toolset, counted) = negotiated(python_task_tracker_stdio()).await;
    let version = toolset.session().protocol_version();
    assert_eq!(version, Some(ProtocolVersion::V_2026_07_28));
    let listing = call(&toolset, "list_tasks", json!({})).await;
    assert_eq!(listing.value["count"], 3, "{}", listing.value);
    assert_eq!(counted.attempts(), 1);
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_streamable_http_stays_on_2026_07_28() {
    let peer = RemotePeer::python_task_tracker("streamable-http").await;
    let (toolset, _) = negotiated(HttpServer::new(peer.url("/mcp"))).await;
    let version = toolset.session().protocol_version();
    assert_eq!(version, Some(ProtocolVersion::V_2026_07_28));
    let listing = call(&toolset, "list_tasks", json!({})).await;
    assert_eq!(listing.value["count"], 3, "{}", listing.value);
    toolset.close().await;
}

/// Checks that an rmcp server capped at 2025-11-25 settled there, on one connection, and
/// answers.
async fn capped_fell_back<C: Connector>(toolset: &McpToolset, counted: &MockConnector<C>) {
    let version = toolset.session().protocol_version();
    assert_eq!(version, Some(ProtocolVersion::V_2025_11_25));
    let echo = call(toolset, "echo", json!({"text": "negotiated"})).await;
    assert_eq!(echo.value["text"], "negotiated", "{}", echo.value);
    assert_eq!(counted.attempts(), 1, "the server was reached once");
}

#[tokio::test]
async fn an_rmcp_server_serving_older_versions_over_stdio_is_started_once_and_falls_back() {
    let server = StdioServer::new(fixture_binary()).arg("lab-2025");
    let (toolset, counted) = negotiated(server).await;
    capped_fell_back(&toolset, &counted).await;
    toolset.close().await;
}

#[tokio::test]
async fn an_rmcp_server_serving_older_versions_over_streamable_http_falls_back() {
    let server =
        HttpFixtureServer::start(|| LabServer::new().serving_up_to(&ProtocolVersion::V_2025_11_25))
            .await
            .unwrap();
    let (toolset, counted) = negotiated(HttpServer::new(server.url())).await;
    capped_fell_back(&toolset, &counted).await;
    toolset.close().await;
    server.stop().await;
}
