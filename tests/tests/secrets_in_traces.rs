//! No secret reaches a log line: a full run traced at TRACE level, every crate's and rmcp's
//! events and spans included, over stdio (a secret in the child's environment), Streamable
//! HTTP (a bearer token) and the manager (secrets in an `mcp.json`'s `env` and `headers`,
//! expanded from `${VAR}`), is searched line by line for each secret.

use serde_json::json;
use std::time::Duration;
use toolport::http::{HttpServer, WithHttpOptions};
use toolport::stdio::StdioServer;
use toolport::{CallOptions, McpSession, Secret, Tool as _};
use toolport_fixtures::{CapturedLog, HttpFixtureServer, LabServer, fixture_binary};
use toolport_manager::{McpConfig, McpServerManager};
use toolport_testkit::{bounded, call_params, first_text};

/// The secrets of the run, each one distinct and found nowhere else.
const STDIO_SECRET: &str = "stdio-env-secret-5e1f";
const BEARER_SECRET: &str = "bearer-token-secret-93ab";
const MANAGER_ENV_SECRET: &str = "manager-env-secret-c4d2";
const MANAGER_HEADER_SECRET: &str = "manager-header-secret-7a60";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_run_traced_at_trace_level_logs_no_secret() {
    let captured = CapturedLog::default();
    // The whole process, spawned tasks and threads included; this file holds one test.
    tracing::subscriber::set_global_default(captured.subscriber()).unwrap();

    // stdio, with a secret in the child's environment.
    let stdio = McpSession::new(
        StdioServer::new(fixture_binary())
            .arg("lab")
            .env("LAB_API_KEY", STDIO_SECRET),
    );
    let echo = call_params("echo", json!({"text": "over stdio"}));
    let echoed = bounded("stdio echo", stdio.call_tool(echo, CallOptions::default()))
        .await
        .unwrap();
    assert_eq!(first_text(&echoed), "over stdio");
    stdio.close().await;

    // Streamable HTTP, with a bearer token the server checks.
    let http_server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    http_server.require_bearer(BEARER_SECRET);
    let http = McpSession::new(
        HttpServer::new(http_server.url()).bearer_token(Secret::new(BEARER_SECRET)),
    );
    let echo = call_params("echo", json!({"text": "over http"}));
    let echoed = bounded("http echo", http.call_tool(echo, CallOptions::default()))
        .await
        .unwrap();
    assert_eq!(first_text(&echoed), "over http");
    http.close().await;

    // The manager: the same two kinds of server, their secrets expanded from `${VAR}`.
    let file = json!({"mcpServers": {
        "lab-stdio": {
            "command": fixture_binary(),
            "args": ["lab"],
            "env": {"LAB_API_KEY": "${LAB_KEY}"}
        },
        "lab-http": {
            "type": "http",
            "url": http_server.url(),
            "headers": {"Authorization": "Bearer ${LAB_TOKEN}"}
        }
    }});
    http_server.require_bearer(MANAGER_HEADER_SECRET);
    let config = McpConfig::parse(&file.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .config(config)
        .env_lookup(|name| match name {
            "LAB_KEY" => Some(MANAGER_ENV_SECRET.to_owned()),
            "LAB_TOKEN" => Some(MANAGER_HEADER_SECRET.to_owned()),
            _ => None,
        })
        .build();
    let report = bounded("start all", manager.start_all()).await;
    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert!(failures.is_empty(), "{failures:?}");
    for tool in ["lab-stdio__echo", "lab-http__echo"] {
        let echo = bounded(tool, manager.tool(tool, None)).await.unwrap();
        let echoed = bounded(tool, echo.call(json!({"text": tool}), None))
            .await
            .unwrap();
        assert_eq!(echoed.value["text"], tool, "{:?}", echoed.value);
    }
    bounded("shutdown", manager.shutdown()).await;
    http_server.stop().await;

    let log = captured.text();
    // The capture saw the run: requests, their spans and rmcp's own trace lines.
    for seen in [
        "mcp.request",
        "tools/call echo",
        "over stdio",
        "lab-http__echo",
    ] {
        assert!(log.contains(seen), "{seen} was not traced:\n{log}");
    }
    assert!(log.lines().count() > 100, "{log}");
    for secret in [
        STDIO_SECRET,
        BEARER_SECRET,
        MANAGER_ENV_SECRET,
        MANAGER_HEADER_SECRET,
    ] {
        let hits: Vec<&str> = log.lines().filter(|line| line.contains(secret)).collect();
        assert!(hits.is_empty(), "{secret} was logged:\n{}", hits.join("\n"));
    }
}
