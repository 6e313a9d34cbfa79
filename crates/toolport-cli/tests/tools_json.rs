//! `tools --json` prints each tool as the server sent it, every member kept: against the
//! reference `server-everything`, whose tools carry `execution` (`taskSupport`), a member
//! rmcp's model drops, over stdio and over Streamable HTTP.

mod common;

use common::{failure_line, toolport_async};
use serde_json::Value;
use toolport_integration_tests::{RemotePeer, peer};

/// The tools `toolport tools --json <server>` printed.
async fn listed(server: &[&str]) -> Vec<Value> {
    let mut args = vec!["tools", "--json"];
    args.extend(server);
    let output = toolport_async(&args, &[]).await;
    assert!(output.status.success(), "{}", failure_line(&output));
    serde_json::from_slice(&output.stdout).expect("stdout is a JSON array")
}

/// Every tool has `execution`, and `simulate-research-query` must run as a task.
fn assert_execution_kept(tools: &[Value]) {
    assert!(!tools.is_empty());
    for tool in tools {
        assert!(tool["execution"]["taskSupport"].is_string(), "{tool}");
    }
    let research = tools
        .iter()
        .find(|tool| tool["name"] == "simulate-research-query")
        .expect("simulate-research-query is listed");
    assert_eq!(research["execution"]["taskSupport"], "required");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execution_is_kept_over_stdio() {
    let server = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    let tools = listed(&["--", server.to_str().unwrap(), "stdio"]).await;
    assert_execution_kept(&tools);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execution_is_kept_over_streamable_http() {
    let server = RemotePeer::server_everything("streamableHttp").await;
    let tools = listed(&["--url", &server.url("/mcp")]).await;
    assert_execution_kept(&tools);
}
