//! Progress against `@modelcontextprotocol/server-everything`'s
//! `trigger-long-running-operation`: the reports reach the call's callback (over stdio,
//! Streamable HTTP and legacy SSE), and keep a call alive past its bound only when asked to.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolport::http::HttpServer;
use toolport::sse::SseServer;
use toolport::{CallOptions, McpSession, Progress, Timeouts};
use toolport_integration_tests::{RemotePeer, server_everything_stdio};
use toolport_testkit::call_params;

/// A session whose requests are bounded by `request` milliseconds.
fn session(request: u64) -> McpSession {
    McpSession::builder(server_everything_stdio())
        .timeouts(Timeouts::default().with_request(Duration::from_millis(request)))
        .build()
}

#[tokio::test]
async fn each_step_reaches_the_callback() {
    each_step_reaches_the_callback_of(session(10_000)).await;
}

#[tokio::test]
async fn each_step_reaches_the_callback_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    each_step_reaches_the_callback_of(McpSession::new(HttpServer::new(peer.url("/mcp")))).await;
}

#[tokio::test]
async fn each_step_reaches_the_callback_over_legacy_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    each_step_reaches_the_callback_of(McpSession::new(SseServer::new(peer.url("/sse")))).await;
}

/// Three steps of work on `session`, each report reaching the call's callback in order.
async fn each_step_reaches_the_callback_of(session: McpSession) {
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let options = CallOptions::default().on_progress({
        let seen = seen.clone();
        move |report| seen.lock().unwrap().push(report)
    });
    let params = call_params(
        "trigger-long-running-operation",
        json!({"duration": 0.3, "steps": 3}),
    );
    let result = session.call_tool(params, options).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let steps: Vec<(f64, Option<f64>)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|report| (report.progress, report.total))
        .collect();
    assert_eq!(
        steps,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    session.close().await;
}

#[tokio::test]
async fn reports_extend_the_bound_of_a_call_that_asks() {
    // Two seconds of work in five steps, 400 ms apart, against a 1 s bound.
    let work = || {
        call_params(
            "trigger-long-running-operation",
            json!({"duration": 2, "steps": 5}),
        )
    };
    let session = session(1_000);
    let extended = CallOptions::default().extend_timeout_on_progress(Duration::from_secs(20));
    let result = session.call_tool(work(), extended).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");

    let error = session
        .call_tool(work(), CallOptions::default())
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    session.close().await;
}
