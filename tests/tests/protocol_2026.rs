//! MCP 2026-07-28 (`server/discover`, the version in every request's `_meta`, the standard
//! HTTP headers) against a server nobody here wrote: a task tracker on the official Python SDK
//! 2.3.0, which speaks it, over stdio and Streamable HTTP.
//!
//! The version has no session, so the tracker keeps no tasks from one call to the next: each
//! call sees the seed tasks. Its tool list carries cache hints (public, fresh for a minute),
//! which the toolset honours.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::{Connector, McpToolset, ReadonlyContext};
use toolport_integration_tests::{RemotePeer, call, python_task_tracker_stdio};

/// A toolset on 2026-07-28, connected: the server agreed to that version.
async fn toolset_on_2026(connector: impl Connector) -> McpToolset {
    let toolset = McpToolset::builder(connector)
        .session(|session| session.protocol_version(ProtocolVersion::V_2026_07_28))
        .allow(["list_tasks", "add_task", "complete_task"])
        .strict(true)
        .build()
        .await
        .unwrap();
    toolset.connect().await.unwrap();
    let version = toolset.session().protocol_version();
    assert_eq!(version, Some(ProtocolVersion::V_2026_07_28));
    toolset
}

/// Lists, calls with structured results, and gets the tool error for an unknown id.
async fn exercise(toolset: &McpToolset) {
    let listing = call(toolset, "list_tasks", json!({})).await;
    assert_eq!(listing.value["count"], 3, "{}", listing.value);
    let added = call(toolset, "add_task", json!({"title": "Tag v1.2"})).await;
    assert_eq!(added.value["title"], "Tag v1.2", "{}", added.value);
    let missing = call(toolset, "complete_task", json!({"task_id": "T-9"})).await;
    assert!(missing.is_error, "{}", missing.value);
    let error = missing.value["error"].as_str().unwrap_or_default();
    assert!(error.contains("No task with ID T-9"), "{}", missing.value);
}

#[tokio::test]
async fn python_sdk_over_stdio_on_2026_07_28() {
    let toolset = toolset_on_2026(python_task_tracker_stdio()).await;
    exercise(&toolset).await;
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_over_streamable_http_on_2026_07_28() {
    let peer = RemotePeer::python_task_tracker("streamable-http").await;
    let toolset = toolset_on_2026(HttpServer::new(peer.url("/mcp"))).await;
    exercise(&toolset).await;
    toolset.close().await;
}

#[tokio::test]
async fn python_sdk_cache_hints_let_every_caller_share_one_list() {
    let toolset = toolset_on_2026(python_task_tracker_stdio()).await;
    let listing = toolset.session().tool_listing(None).await.unwrap();
    assert!(listing.hints.public, "{:?}", listing.hints);
    assert_eq!(listing.hints.ttl, Some(Duration::from_secs(60)));

    let alice = ReadonlyContext::from_json(json!({"user_id": "alice"}));
    let bob = ReadonlyContext::from_json(json!({"user_id": "bob"}));
    let for_alice = toolset.mcp_tools(Some(&alice)).await.unwrap();
    let for_bob = toolset.mcp_tools(Some(&bob)).await.unwrap();
    assert!(
        Arc::ptr_eq(&for_alice[0], &for_bob[0]),
        "bob is served the list fetched for alice, not one of his own"
    );
    toolset.close().await;
}
