//! 2025-11-25 tasks against `@modelcontextprotocol/server-everything`'s
//! `simulate-research-query`, which must run as a task: over stdio, Streamable HTTP and legacy
//! SSE the call is followed to its report (about four seconds), its status messages reach the
//! call's progress callback, and an ambiguous topic's question reaches the elicitation handler
//! while `tasks/result` waits; a caller who stops waiting cancels the task. Its tool says it
//! runs as a task (`Tool::runs_as_task`), which agent frameworks read; `echo` does not.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, json};
use toolport::http::HttpServer;
use toolport::model::{ClientRequest, CustomRequest, CustomResult, ServerResult};
use toolport::sse::SseServer;
use toolport::{
    BoxError, CallOptions, Connector, ElicitationHandler, ElicitationRequest, ElicitationResponse,
    McpSession,
};
use toolport_integration_tests::{RemotePeer, server_everything_stdio};
use toolport_testkit::{bounded, call_params, first_text};

const TOOL: &str = "simulate-research-query";

/// Picks the first reading it is offered, and keeps each question's message.
#[derive(Debug, Clone, Default)]
struct FirstReading {
    asked: Arc<Mutex<Vec<String>>>,
}

#[toolport::async_trait]
impl ElicitationHandler for FirstReading {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        let ElicitationRequest::Form { message, schema } = request else {
            return Ok(ElicitationResponse::Decline);
        };
        self.asked.lock().unwrap().push(message);
        let first = &schema["properties"]["interpretation"]["oneOf"][0]["const"];
        let mut answer = Map::new();
        answer.insert("interpretation".into(), first.clone());
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

/// Runs the research tool on `connector`, plainly and then ambiguously, and checks both
/// reports.
async fn research(connector: impl Connector) {
    let reader = FirstReading::default();
    let session = McpSession::builder(connector)
        .elicitation_handler(reader.clone())
        .build();

    let params = call_params(TOOL, json!({"topic": "tides"}));
    let statuses = Arc::new(Mutex::new(Vec::new()));
    let options = CallOptions::default().on_progress({
        let statuses = statuses.clone();
        move |report| statuses.lock().unwrap().extend(report.message)
    });
    let result = bounded("research", session.call_tool(params, options))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert!(
        first_text(&result).starts_with("# Research Report: tides"),
        "{result:?}"
    );
    // The task's status messages, as its polls found them.
    let statuses = statuses.lock().unwrap().clone();
    assert!(
        statuses
            .iter()
            .any(|status| status == "Gathering sources..."),
        "{statuses:?}"
    );

    let params = call_params(TOOL, json!({"topic": "python", "ambiguous": true}));
    let result = bounded(
        "research",
        session.call_tool(params, CallOptions::default()),
    )
    .await
    .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let asked = reader.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let report = first_text(&result);
    assert!(report.contains("**Clarification**"), "{report}");
    assert!(!report.contains("unavailable"), "{report}");
    session.close().await;
}

#[tokio::test]
async fn a_task_tool_over_stdio() {
    research(server_everything_stdio()).await;
}

#[tokio::test]
async fn a_task_tool_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    research(HttpServer::new(peer.url("/mcp"))).await;
}

#[tokio::test]
async fn a_task_tool_over_legacy_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    research(SseServer::new(peer.url("/sse"))).await;
}

#[tokio::test]
async fn a_caller_who_stops_waiting_cancels_the_task() {
    let session = McpSession::new(server_everything_stdio());
    let params = call_params(TOOL, json!({"topic": "tides"}));
    let call = session.call_tool(params, CallOptions::default());
    let gave_up = tokio::time::timeout(Duration::from_millis(1500), call).await;
    assert!(gave_up.is_err(), "the task takes about four seconds");

    let peer = session.unbounded_peer().await.unwrap();
    bounded("the task cancelled", async {
        loop {
            let list =
                ClientRequest::CustomRequest(CustomRequest::new("tasks/list", Some(json!({}))));
            let listed = peer.send_request(list).await.unwrap();
            let ServerResult::CustomResult(CustomResult(listed)) = listed else {
                panic!("not a task list: {listed:?}");
            };
            let statuses: Vec<&str> = listed["tasks"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|task| task["status"].as_str())
                .collect();
            if statuses == ["cancelled"] {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    session.close().await;
}

#[tokio::test]
async fn a_tool_that_must_run_as_a_task_says_so_and_the_others_do_not() {
    let toolset = toolport::McpToolset::builder(server_everything_stdio())
        .session(|session| session.protocol_version(toolport::model::ProtocolVersion::V_2025_11_25))
        .build()
        .await
        .unwrap();
    let tools = toolport::Toolset::tools(&toolset, None).await.unwrap();
    let runs_as_task = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name() == name);
        tool.unwrap_or_else(|| panic!("{name} is listed"))
            .runs_as_task()
    };
    assert!(runs_as_task(TOOL));
    assert!(!runs_as_task("echo"));
    toolset.close().await;
}
