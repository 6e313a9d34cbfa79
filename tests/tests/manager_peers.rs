//! The server manager over every transport, against servers nobody here wrote: a Streamable
//! HTTP entry (server-everything) and an SSE entry (the Python SDK) beside stdio entries of
//! both, in one `mcp.json`; and a server's `maxConcurrentCalls` held against server-everything.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolport::{CallOptions, Tool as _};
use toolport_integration_tests::{RemotePeer, peer};
use toolport_manager::{McpConfig, McpServerManager};
use toolport_testkit::call_params;

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

#[tokio::test]
async fn max_concurrent_calls_holds_against_server_everything() {
    let node = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    let file = json!({"mcpServers": {
        "everything": {"command": node, "args": ["stdio"], "maxConcurrentCalls": 1, "timeout": 30}
    }});
    let config = McpConfig::parse(&file.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .config(config)
        .build();
    manager.start_all().await.check_required().unwrap();
    let session = manager.toolset("everything").unwrap().session().clone();

    // Each call's progress reports, as (call, step): a call's reports come only while it runs
    // at the server.
    let seen: Arc<Mutex<Vec<(&str, f64)>>> = Arc::default();
    let work = |call: &'static str| {
        let options = CallOptions::default().on_progress({
            let seen = seen.clone();
            move |report| seen.lock().unwrap().push((call, report.progress))
        });
        let params = call_params(
            "trigger-long-running-operation",
            json!({"duration": 1, "steps": 2}),
        );
        session.call_tool(params, options)
    };
    let echo = call_params("echo", json!({"message": "waits"}));
    let short = CallOptions::default().timeout(Some(Duration::from_millis(300)));
    // Polled in this order: `a` takes the one slot, `b` and the echo wait behind it.
    let (a, b, queued) = tokio::join!(work("a"), work("b"), session.call_tool(echo, short));

    assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
    assert_eq!(
        *seen.lock().unwrap(),
        [("a", 1.0), ("a", 2.0), ("b", 1.0), ("b", 2.0)],
        "b ran at the server only once a was done"
    );
    let error = queued.unwrap_err();
    assert_eq!(error.kind(), "queue_timeout", "{error}");
    assert!(!error.is_outcome_uncertain(), "it was never sent: {error}");
    manager.shutdown().await;
}
