//! The session against in-process fixture servers: laziness, sharing, concurrency, timeouts,
//! reconnects, replay rules, discovery retries and notification fan-out.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use toolport_core::{ConnectError, Timeouts};
use toolport_session::{
    CallOptions, CallReplay, McpSession, RetryPolicy, ServerEvent, SessionError,
};
use toolport_testkit::{DuplexConnector, LabServer, MockConnector};

fn lab() -> (Arc<DuplexConnector>, LabServer) {
    let server = LabServer::new();
    let factory = server.clone();
    (
        Arc::new(DuplexConnector::new(move || factory.clone())),
        server,
    )
}

fn params(tool: &str, arguments: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    params.arguments = arguments.as_object().cloned();
    params
}

fn first_text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .find_map(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default()
}

#[tokio::test]
async fn connects_lazily_once_for_all_callers() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    assert_eq!(
        connector.connect_count(),
        0,
        "nothing connects before first use"
    );

    let calls = (0..8).map(|i| {
        let session = session.clone();
        async move {
            session
                .call_tool(
                    params("echo", json!({"text": format!("hi {i}")})),
                    CallOptions::default().replay(CallReplay::Never),
                )
                .await
        }
    });
    for result in futures_join_all(calls).await {
        assert!(first_text(&result.unwrap()).starts_with("hi "));
    }
    assert_eq!(connector.connect_count(), 1);
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_run_concurrently_on_one_session() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.peer().await.unwrap();

    let started = Instant::now();
    let calls = (0..32).map(|_| {
        let session = session.clone();
        async move {
            session
                .call_tool(
                    params("sleep", json!({"ms": 200})),
                    CallOptions::default().replay(CallReplay::Never),
                )
                .await
        }
    });
    let results = futures_join_all(calls).await;
    let elapsed = started.elapsed();

    assert!(results.iter().all(Result::is_ok));
    // Serialized, 32 calls of 200 ms would take 6.4 s.
    assert!(
        elapsed < Duration::from_millis(1_200),
        "32 concurrent 200 ms calls took {elapsed:?}"
    );
    assert_eq!(connector.connect_count(), 1);
    session.close().await;
}

#[tokio::test]
async fn a_request_timeout_cancels_on_the_server() {
    let (connector, server) = lab();
    let session = McpSession::builder(connector)
        .timeouts(Timeouts::default().with_request(Duration::from_millis(150)))
        .build();

    let error = session
        .call_tool(
            params("sleep", json!({"ms": 10_000})),
            CallOptions::default().replay(CallReplay::Never),
        )
        .await
        .unwrap_err();

    assert!(error.is_timeout(), "{error}");
    assert!(error.to_string().contains("tools/call sleep"), "{error}");
    let seen = server
        .cancellations()
        .wait_for(1, Duration::from_secs(5))
        .await;
    assert_eq!(seen, 1, "the server saw notifications/cancelled");
    // The session stays usable.
    let result = session
        .call_tool(
            params("echo", json!({"text": "still here"})),
            CallOptions::default().replay(CallReplay::Never),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&result), "still here");
    session.close().await;
}

#[tokio::test]
async fn a_dead_transport_is_replaced_on_next_use() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.peer().await.unwrap();
    let epoch = session.tool_list_epoch();

    connector.kill_all();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let result = session
        .call_tool(
            params("echo", json!({"text": "back"})),
            CallOptions::default().replay(CallReplay::Never),
        )
        .await
        .unwrap();

    assert_eq!(first_text(&result), "back");
    assert_eq!(connector.connect_count(), 2);
    assert!(
        session.tool_list_epoch() > epoch,
        "a reconnect invalidates tool lists"
    );
    session.close().await;
}

#[tokio::test]
async fn a_call_lost_mid_flight_is_not_replayed_by_default() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.peer().await.unwrap();

    let killer = kill_after(&connector, Duration::from_millis(100));
    let error = session
        .call_tool(
            params("sleep", json!({"ms": 2_000})),
            CallOptions::default().replay(CallReplay::Never),
        )
        .await
        .unwrap_err();
    killer.await.unwrap();

    assert!(
        matches!(error, SessionError::OutcomeUncertain { ref tool, .. } if tool == "sleep"),
        "{error}"
    );
    assert!(
        error.to_string().contains("outcome is uncertain"),
        "{error}"
    );
    assert_eq!(connector.connect_count(), 1, "nothing was resent");
    session.close().await;
}

#[tokio::test]
async fn a_call_safe_to_repeat_is_replayed_once_on_a_new_connection() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.peer().await.unwrap();

    let killer = kill_after(&connector, Duration::from_millis(100));
    let result = session
        .call_tool(
            params("sleep", json!({"ms": 300})),
            CallOptions::default().replay(CallReplay::OnConnectionLoss),
        )
        .await
        .unwrap();
    killer.await.unwrap();

    assert_eq!(first_text(&result), "slept 300 ms");
    assert_eq!(connector.connect_count(), 2);
    session.close().await;
}

#[tokio::test]
async fn discovery_is_retried_three_times_then_surfaces() {
    let (inner, _) = lab();
    let connector = Arc::new(MockConnector::new(inner));
    let unreachable = || ConnectError::unreachable("connection refused");
    let session = McpSession::new(connector.clone());

    connector.fail_next(3, unreachable);
    let tools = session.list_tools().await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "sleep"));
    assert_eq!(connector.attempts(), 4, "three retries, then success");
    session.close().await;

    let session = McpSession::new(connector.clone());
    connector.fail_next(10, unreachable);
    let error = session.list_tools().await.unwrap_err();
    assert!(matches!(error, SessionError::Connect { .. }), "{error}");
    assert!(error.to_string().contains("connection refused"), "{error}");
    assert_eq!(connector.attempts(), 4 + 4, "one attempt and three retries");
}

#[tokio::test]
async fn an_invalid_argument_error_is_fatal_at_once() {
    let (inner, _) = lab();
    let connector = Arc::new(MockConnector::new(inner));
    connector.fail_next(1, || ConnectError::invalid_settings("empty command"));
    let session = McpSession::new(connector.clone());

    let error = session.list_tools().await.unwrap_err();

    assert!(error.is_permanent(), "{error}");
    assert_eq!(connector.attempts(), 1, "no retry");
}

#[tokio::test]
async fn the_retry_policy_can_be_turned_off() {
    let (inner, _) = lab();
    let connector = Arc::new(MockConnector::new(inner));
    connector.fail_next(1, || ConnectError::unreachable("reset"));
    let session = McpSession::builder(connector.clone())
        .retry_policy(RetryPolicy::NONE)
        .build();

    assert!(session.list_tools().await.is_err());
    assert_eq!(connector.attempts(), 1);
}

#[tokio::test]
async fn server_notifications_fan_out_to_every_subscriber() {
    let (connector, _) = lab();
    let session = McpSession::new(connector);
    let mut first = session.subscribe();
    let mut second = session.subscribe();
    session.peer().await.unwrap();
    let epoch = session.tool_list_epoch();

    session
        .call_tool(
            params("notify_tools_changed", json!({})),
            CallOptions::default().replay(CallReplay::Never),
        )
        .await
        .unwrap();

    for receiver in [&mut first, &mut second] {
        let event = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match receiver.recv().await.unwrap() {
                    ServerEvent::ToolListChanged => return,
                    _ => continue,
                }
            }
        })
        .await;
        assert!(event.is_ok(), "tools/list_changed reached the subscriber");
    }
    assert!(session.tool_list_epoch() > epoch);
    session.close().await;
}

#[tokio::test]
async fn a_closed_session_refuses_requests_and_stops_its_server() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.peer().await.unwrap();
    assert_eq!(connector.live_servers(), 1);

    session.close().await;
    session.close().await;

    let error = session.list_tools().await.unwrap_err();
    assert!(matches!(error, SessionError::Closed { .. }), "{error}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while connector.live_servers() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(connector.live_servers(), 0);
}

/// Kills every server of `connector` after `delay`, as a crash would.
fn kill_after(connector: &Arc<DuplexConnector>, delay: Duration) -> tokio::task::JoinHandle<()> {
    let connector = connector.clone();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        connector.kill_all();
    })
}

/// Runs the futures concurrently and collects their outputs in order.
async fn futures_join_all<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.unwrap());
    }
    outputs
}
