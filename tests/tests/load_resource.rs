//! The `load_resource` tool against servers nobody here wrote: server-everything over stdio
//! and a library on the official Python SDK over Streamable HTTP. The model reads text, gets
//! binary contents as parts, and reads a refused read as an error.

use std::sync::Arc;

use serde_json::json;
use toolport::http::HttpServer;
use toolport::{Connector, LoadResourceTool, McpToolset, MediaPart, Tool};
use toolport_integration_tests::{RemotePeer, server_everything_stdio};

/// The toolset's `load_resource` tool, which a server with resources gets.
async fn load_resource(connector: impl Connector) -> (McpToolset, Arc<dyn Tool>) {
    let toolset = McpToolset::builder(connector)
        .load_resource_tool(LoadResourceTool::NAME)
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    let tool = tools
        .into_iter()
        .find(|tool| tool.name() == LoadResourceTool::NAME)
        .expect("offered beside the server's tools");
    (toolset, tool)
}

#[tokio::test]
async fn server_everything_over_stdio() {
    let (toolset, tool) = load_resource(server_everything_stdio()).await;
    let architecture = "demo://resource/static/document/architecture.md";
    let document = tool.call(json!({"uri": architecture}), None).await.unwrap();
    assert!(!document.is_error, "{}", document.value);
    let text = document.value["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("# Everything Server"), "{text:.80}");

    let blob = "demo://resource/dynamic/blob/1";
    let read = tool.call(json!({"uri": blob}), None).await.unwrap();
    assert!(
        read.value["contents"][0]["bytes"].as_u64() > Some(0),
        "{}",
        read.value
    );
    assert!(
        matches!(&read.parts[..], [MediaPart::Resource { blob: Some(data), .. }] if !data.is_empty()),
        "{:?}",
        read.parts
    );

    let missing = "demo://resource/static/document/nope.md";
    let refused = tool.call(json!({"uri": missing}), None).await.unwrap();
    assert!(refused.is_error, "{}", refused.value);
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_streamable_http() {
    let peer = RemotePeer::python_library("streamable-http").await;
    let (toolset, tool) = load_resource(HttpServer::new(peer.url("/mcp"))).await;
    let welcome = tool
        .call(json!({"uri": "notes://welcome"}), None)
        .await
        .unwrap();
    assert_eq!(
        welcome.value["contents"][0]["text"], "Welcome to the library.",
        "{}",
        welcome.value
    );
    let book = tool
        .call(json!({"uri": "notes://books/Dune"}), None)
        .await
        .unwrap();
    assert_eq!(book.value["contents"][0]["text"], "Dune, in stock");
    let broken = tool
        .call(json!({"uri": "notes://broken"}), None)
        .await
        .unwrap();
    assert!(broken.is_error, "{}", broken.value);
    let error = broken.value["error"].as_str().unwrap_or_default();
    assert!(
        !error.contains("not found"),
        "a failed read is no missing one: {error}"
    );
    toolset.close().await;
}
