//! Listing and calling over Streamable HTTP and legacy SSE against servers nobody here wrote:
//! `@modelcontextprotocol/server-everything` and a task tracker on the official Python SDK.

use serde_json::json;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::sse::SseServer;
use toolport::{Connector, McpToolset, MediaPart};
use toolport_integration_tests::{RemotePeer, call, exercise_task_tracker};

async fn toolset(connector: impl Connector) -> McpToolset {
    McpToolset::builder(connector).build().await.unwrap()
}

#[tokio::test]
async fn server_everything_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    let toolset = toolset(HttpServer::new(peer.url("/mcp"))).await;

    let echo = call(&toolset, "echo", json!({"message": "over http"})).await;
    assert_eq!(echo.value, json!("Echo: over http"));
    let image = call(&toolset, "get-tiny-image", json!({})).await;
    assert!(
        matches!(&image.parts[..], [MediaPart::Image { mime_type, .. }] if mime_type == "image/png")
    );
    let weather = call(
        &toolset,
        "get-structured-content",
        json!({"location": "Chicago"}),
    )
    .await;
    assert!(
        weather.value["temperature"].is_number(),
        "{}",
        weather.value
    );
    toolset.close().await;
}

#[tokio::test]
async fn server_everything_over_legacy_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    let toolset = toolset(SseServer::new(peer.url("/sse"))).await;

    let echo = call(&toolset, "echo", json!({"message": "over sse"})).await;
    assert_eq!(echo.value, json!("Echo: over sse"));
    let sum = call(&toolset, "get-sum", json!({"a": 2, "b": 3})).await;
    assert!(sum.value.to_string().contains('5'), "{}", sum.value);
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_streamable_http() {
    let peer = RemotePeer::python_task_tracker("streamable-http").await;
    // The tracker keeps a book per MCP session, which 2026-07-28 no longer has.
    let toolset = McpToolset::builder(HttpServer::new(peer.url("/mcp")))
        .session(|session| session.protocol_version(ProtocolVersion::V_2025_11_25))
        .build()
        .await
        .unwrap();
    exercise_task_tracker(&toolset).await;
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_legacy_sse() {
    let peer = RemotePeer::python_task_tracker("sse").await;
    let toolset = toolset(SseServer::new(peer.url("/sse"))).await;
    exercise_task_tracker(&toolset).await;
    toolset.close().await;
}
