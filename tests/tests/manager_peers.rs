//! The server manager over every transport, against servers nobody here wrote: a Streamable
//! HTTP entry (server-everything) and an SSE entry (the Python SDK) beside stdio entries of
//! both, in one `mcp.json`.

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use toolport::Tool as _;
use toolport_integration_tests::{RemotePeer, peer};
use toolport_manager::{McpConfig, McpServerManager};

#[tokio::test]
async fn http_sse_and_stdio_entries_serve_side_by_side() {
    let everything = RemotePeer::server_everything("streamableHttp").await;
    let python_sse = RemotePeer::python_task_tracker("sse").await;
    let node = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    let python = peer("TOOLPORT_PYTHON", "venv/bin/python");
    let tracker = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_tasks_server.py");
    let file = json!({"mcpServers": {
        "everything": {"type": "http", "url": everything.url("/mcp")},
        "tasks-sse": {"type": "sse", "url": python_sse.url("/sse")},
        "tasks-stdio": {"command": python, "args": [tracker, "stdio"]},
        "everything-stdio": {"command": node, "args": ["stdio"]}
    }});
    let config = McpConfig::parse(&file.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .config(config)
        .build();
    let report = manager.start_all().await;
    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert!(failures.is_empty(), "{failures:?}");

    let tools = manager.managed_tools(None).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    for expected in [
        "everything__echo",
        "everything-stdio__echo",
        "tasks-sse__list_tasks",
        "tasks-stdio__list_tasks",
    ] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }

    let echo = manager.tool("everything__echo", None).await.unwrap();
    assert_eq!(echo.server_id(), "everything");
    let echoed = echo
        .call(json!({"message": "over http"}), None)
        .await
        .unwrap();
    assert_eq!(echoed.value, json!("Echo: over http"));
    let add = manager.tool("tasks-sse__add_task", None).await.unwrap();
    add.call(json!({"title": "Only over SSE"}), None)
        .await
        .unwrap();
    let over_sse = manager.tool("tasks-sse__list_tasks", None).await.unwrap();
    let over_stdio = manager.tool("tasks-stdio__list_tasks", None).await.unwrap();
    assert_eq!(
        over_sse.call(json!({}), None).await.unwrap().value["count"],
        4
    );
    assert_eq!(
        over_stdio.call(json!({}), None).await.unwrap().value["count"],
        3,
        "each server its own state"
    );
    manager.shutdown().await;
}
