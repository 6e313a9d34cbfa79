//! Tool calls run as tasks over Streamable HTTP, on both protocol versions, against the
//! fixtures' research desk served by rmcp's `StreamableHttpService`: the session follows the
//! task to its result, each 2026-07-28 poll names the task in `Mcp-Name`, and a caller who
//! stops waiting cancels the task.

use std::time::Duration;

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport_fixtures::{HttpFixtureServer, ResearchDesk};
use toolport_http::HttpServer;
use toolport_session::{CallOptions, McpSession};
use toolport_testkit::{bounded, call_params, first_text};

const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

async fn serve(desk: &ResearchDesk) -> HttpFixtureServer {
    let served = desk.clone();
    bounded("start", HttpFixtureServer::start(move || served.clone()))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_call_run_as_a_task_returns_the_tasks_result() {
    for version in VERSIONS {
        let desk = ResearchDesk::new();
        let server = serve(&desk).await;
        let session = McpSession::builder(HttpServer::new(server.url()))
            .protocol_version(version.clone())
            .build();

        let params = call_params(ResearchDesk::TOOL, json!({"topic": "tides"}));
        let result = bounded(
            "research",
            session.call_tool(params, CallOptions::default()),
        )
        .await
        .unwrap();

        assert_eq!(first_text(&result), "A report on tides, in the usual one");
        assert_eq!(desk.tasks_started(), 1, "on {version}");
        if version == ProtocolVersion::V_2026_07_28 {
            let polls: Vec<_> = server
                .requests()
                .into_iter()
                .filter(|request| request.header("mcp-method") == Some("tasks/get"))
                .collect();
            assert!(!polls.is_empty());
            assert!(polls.iter().all(|poll| poll.header("mcp-name").is_some()));
        }
        session.close().await;
    }
}

#[tokio::test]
async fn a_caller_who_stops_waiting_cancels_the_task() {
    let desk = ResearchDesk::new().with_stage(Duration::from_secs(30));
    let server = serve(&desk).await;
    let session = McpSession::builder(HttpServer::new(server.url()))
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .build();
    let params = call_params(ResearchDesk::TOOL, json!({"topic": "tides"}));

    let call = session.call_tool(params, CallOptions::default());
    let gave_up = tokio::time::timeout(Duration::from_millis(300), call).await;

    assert!(gave_up.is_err(), "the call was still running");
    bounded("the cancellation", async {
        while desk.tasks_cancelled() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    session.close().await;
}
