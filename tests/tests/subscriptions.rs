//! Resource subscriptions and list changes against software nobody here wrote:
//! `@modelcontextprotocol/server-everything` (2025-11-25: `resources/subscribe`, and its
//! `toggle-subscriber-updates` tool) over stdio, Streamable HTTP and SSE; and the Python SDK
//! 2.3.0 library on 2026-07-28 (`subscriptions/listen`) over stdio and Streamable HTTP, which
//! on 2025-11-25 offers no subscriptions.

use serde_json::json;
use tokio::sync::mpsc;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::sse::SseServer;
use toolport::{CallOptions, Connector, McpSession, ServerEvent, SessionError};
use toolport_integration_tests::{RemotePeer, python_library_stdio, server_everything_stdio};
use toolport_testkit::{bounded, call_params};

const ARCHITECTURE: &str = "demo://resource/static/document/architecture.md";

/// A session over `connector` at `version`, and the URIs its update callback hears of.
fn watching(
    connector: impl Connector,
    version: ProtocolVersion,
) -> (McpSession, mpsc::UnboundedReceiver<String>) {
    let (updates, heard) = mpsc::unbounded_channel();
    let session = McpSession::builder(connector)
        .protocol_version(version)
        .on_resource_updated(move |uri| {
            let _ = updates.send(uri.to_owned());
        })
        .build();
    (session, heard)
}

async fn call(session: &McpSession, tool: &str, arguments: serde_json::Value) {
    let call = session.call_tool(call_params(tool, arguments), CallOptions::default());
    let result = bounded(tool, call).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
}

/// Subscribes to a static document, has server-everything send its simulated updates, and
/// sees one.
async fn server_everything_updates(connector: impl Connector) {
    let (session, mut heard) = watching(connector, ProtocolVersion::V_2025_11_25);
    bounded("subscribe", session.subscribe_resource(ARCHITECTURE))
        .await
        .unwrap();
    call(&session, "toggle-subscriber-updates", json!({})).await;
    let uri = bounded("the update", heard.recv()).await.unwrap();
    assert_eq!(uri, ARCHITECTURE);
    call(&session, "toggle-subscriber-updates", json!({})).await;
    bounded("unsubscribe", session.unsubscribe_resource(ARCHITECTURE))
        .await
        .unwrap();
    session.close().await;
}

#[tokio::test]
async fn server_everything_sends_updates_over_stdio() {
    server_everything_updates(server_everything_stdio()).await;
}

#[tokio::test]
async fn server_everything_sends_updates_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    server_everything_updates(HttpServer::new(peer.url("/mcp"))).await;
}

#[tokio::test]
async fn server_everything_sends_updates_over_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    server_everything_updates(SseServer::new(peer.url("/sse"))).await;
}

/// Listens on 2026-07-28, has the library's `restock` announce a changed note and a changed
/// tool list, and hears both.
async fn python_listens(connector: impl Connector) {
    let (session, mut heard) = watching(connector, ProtocolVersion::V_2026_07_28);
    let mut events = session.events();
    bounded("subscribe", session.subscribe_resource("notes://welcome"))
        .await
        .unwrap();
    call(&session, "restock", json!({"title": "Dune"})).await;
    let uri = bounded("the update", heard.recv()).await.unwrap();
    assert_eq!(uri, "notes://welcome");
    bounded("the tool-list change", async {
        while !matches!(events.next().await, Some(ServerEvent::ToolListChanged)) {}
    })
    .await;
    session.close().await;
}

#[tokio::test]
async fn the_python_sdk_announces_changes_on_listen_over_stdio() {
    python_listens(python_library_stdio()).await;
}

#[tokio::test]
async fn the_python_sdk_announces_changes_on_listen_over_streamable_http() {
    let peer = RemotePeer::python_library("streamable-http").await;
    python_listens(HttpServer::new(peer.url("/mcp"))).await;
}

#[tokio::test]
async fn the_python_sdk_on_2025_offers_no_subscriptions() {
    let (session, _heard) = watching(python_library_stdio(), ProtocolVersion::V_2025_11_25);
    let error = bounded("subscribe", session.subscribe_resource("notes://welcome"))
        .await
        .unwrap_err();
    assert!(matches!(error, SessionError::Unsupported { .. }), "{error}");
    session.close().await;
}
