//! The session against in-process servers: laziness, sharing, concurrency, timeouts,
//! reconnects, replay rules, discovery retries, events and closing. Timing-dependent cases run
//! on paused time, and concurrency is counted at the server, never timed.

mod common;

use std::sync::Arc;

use common::scripted_connection;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use toolport_core::{ConnectError, ServerExit, Timeouts};
use toolport_fixtures::LabServer;
use toolport_session::{
    CallOptions, CallReplay, McpSession, RetryPolicy, ServerEvent, SessionError,
};
use toolport_testkit::scripted;
use toolport_testkit::{
    DuplexConnector, MockConnector, bounded, call_params, first_text, join_all,
};

fn lab() -> (Arc<DuplexConnector>, LabServer) {
    let server = LabServer::new();
    let factory = server.clone();
    (
        Arc::new(DuplexConnector::new(move || factory.clone())),
        server,
    )
}

async fn call(
    session: &McpSession,
    tool: &str,
    arguments: Value,
    replay: CallReplay,
) -> Result<CallToolResult, SessionError> {
    let options = CallOptions::default().replay(replay);
    session
        .call_tool(call_params(tool, arguments), options)
        .await
}

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
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
            call(
                &session,
                "echo",
                json!({"text": format!("hi {i}")}),
                CallReplay::Never,
            )
            .await
        }
    });
    for result in join_all(calls).await {
        assert!(first_text(&result.unwrap()).starts_with("hi "));
    }
    assert_eq!(connector.connect_count(), 1);
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn calls_run_concurrently_on_one_session() {
    let (connector, server) = lab();
    let session = McpSession::new(connector.clone());
    session.connect().await.unwrap();

    let calls = (0..32).map(|_| {
        let session = session.clone();
        async move { call(&session, "sleep", json!({"ms": 200}), CallReplay::Never).await }
    });
    let results = join_all(calls).await;

    assert!(results.iter().all(Result::is_ok));
    assert_eq!(
        server.sleeps().peak(),
        32,
        "every call ran at the same time"
    );
    assert_eq!(connector.connect_count(), 1);
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_request_is_cancelled_on_the_transport_before_the_error_returns() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .timeouts(Timeouts::default().with_request(std::time::Duration::from_millis(150)))
        .build();
    let mut connection = scripted_connection(&session, &server).await;

    // Called on this task: nothing else runs between the error and the checks below.
    let error = call(&session, "sleep", json!({"ms": 10_000}), CallReplay::Never)
        .await
        .unwrap_err();

    assert!(
        error.is_timeout() && error.is_outcome_uncertain(),
        "{error}"
    );
    assert!(error.to_string().contains("tools/call sleep"), "{error}");
    let request = connection.try_recv().expect("the call went out");
    assert_eq!(request.method(), Some("tools/call"));
    let cancelled = connection
        .try_recv()
        .expect("notifications/cancelled was written before the error returned");
    assert_eq!(cancelled.method(), Some("notifications/cancelled"));
    assert_eq!(cancelled.params()["requestId"], *request.id().unwrap());

    // The session stays usable.
    let echoing = tokio::spawn({
        let session = session.clone();
        async move {
            call(
                &session,
                "echo",
                json!({"text": "still here"}),
                CallReplay::Never,
            )
            .await
        }
    });
    let echo = connection.expect_request("tools/call").await;
    connection.respond(&echo, text_result("still here"));
    assert_eq!(first_text(&echoing.await.unwrap().unwrap()), "still here");
    session.close().await;
}

#[tokio::test]
async fn closing_sends_the_cancellation_of_a_call_its_caller_gave_up_on() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut connection = scripted_connection(&session, &server).await;

    let abandoned = tokio::spawn({
        let session = session.clone();
        async move { call(&session, "sleep", json!({"ms": 10_000}), CallReplay::Never).await }
    });
    let request = connection.expect_request("tools/call").await;
    abandoned.abort();
    let _ = abandoned.await;
    assert_eq!(session.close().await, ServerExit::Disconnected);

    let cancelled = connection
        .expect_notification("notifications/cancelled")
        .await;
    assert_eq!(cancelled.params()["requestId"], *request.id().unwrap());
    connection.expect_closed().await;
}

#[tokio::test]
async fn a_dead_transport_is_replaced_on_next_use_and_said_to_be_a_reconnect() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut events = session.events();
    let connection = scripted_connection(&session, &server).await;
    let epoch = session.tool_list_epoch();
    assert!(matches!(events.next().await, Some(ServerEvent::Connected)));

    drop(connection);
    let calling = tokio::spawn({
        let session = session.clone();
        async move { call(&session, "echo", json!({"text": "back"}), CallReplay::Never).await }
    });
    let mut replacement = server.accept().await;
    replacement.complete_handshake().await;
    let request = replacement.expect_request("tools/call").await;
    replacement.respond(&request, text_result("back"));

    assert_eq!(first_text(&calling.await.unwrap().unwrap()), "back");
    assert!(matches!(
        events.next().await,
        Some(ServerEvent::Reconnected)
    ));
    assert!(
        session.tool_list_epoch() > epoch,
        "a reconnect invalidates tool lists"
    );
    session.close().await;
}

#[tokio::test]
async fn a_call_lost_mid_flight_is_not_replayed_by_default() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut connection = scripted_connection(&session, &server).await;

    let calling = tokio::spawn({
        let session = session.clone();
        async move { call(&session, "refund", json!({}), CallReplay::Never).await }
    });
    connection.expect_request("tools/call").await;
    drop(connection);
    let error = bounded("the lost call", calling)
        .await
        .unwrap()
        .unwrap_err();

    assert!(
        matches!(error, SessionError::OutcomeUncertain { ref tool, .. } if tool == "refund"),
        "{error}"
    );
    assert!(
        error.is_outcome_uncertain() && !error.is_connect(),
        "{error}"
    );
    assert!(
        error.to_string().contains("outcome is uncertain"),
        "{error}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_server_cannot_forge_a_lost_answer_to_have_a_call_sent_again() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut connection = scripted_connection(&session, &server).await;

    let calling = tokio::spawn({
        let session = session.clone();
        async move { call(&session, "lookup", json!({}), CallReplay::OnConnectionLoss).await }
    });
    let request = connection.expect_request("tools/call").await;
    // The shape a lost answer's marker once had, sent by the server itself.
    let forged = json!({"code": -32603, "message": "lost", "data": {"toolportAnswerLost": true}});
    connection.send(json!({"jsonrpc": "2.0", "id": request.id(), "error": forged}));

    // Sent again, the call would wait for a second answer that never comes.
    let error = bounded("the call", calling).await.unwrap().unwrap_err();
    assert!(matches!(error, SessionError::Rpc { .. }), "{error}");
    assert!(!error.is_outcome_uncertain(), "{error}");
    session.close().await;
    connection.expect_closed().await;
}

#[tokio::test]
async fn a_call_safe_to_repeat_is_replayed_once_on_a_new_connection() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut connection = scripted_connection(&session, &server).await;

    let calling = tokio::spawn({
        let session = session.clone();
        async move { call(&session, "lookup", json!({}), CallReplay::OnConnectionLoss).await }
    });
    connection.expect_request("tools/call").await;
    drop(connection);
    let mut replacement = server.accept().await;
    replacement.complete_handshake().await;
    let again = replacement.expect_request("tools/call").await;
    assert_eq!(again.params()["name"], "lookup");
    replacement.respond(&again, text_result("found"));

    assert_eq!(first_text(&calling.await.unwrap().unwrap()), "found");
    session.close().await;
}

#[tokio::test(start_paused = true)]
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
    assert!(error.is_connect() && !error.is_permanent(), "{error}");
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
async fn server_notifications_fan_out_to_every_reader() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut first = session.events();
    let mut second = session.events();
    let connection = scripted_connection(&session, &server).await;
    let epoch = session.tool_list_epoch();

    connection.notify("notifications/tools/list_changed", json!({}));

    for events in [&mut first, &mut second] {
        assert!(matches!(events.next().await, Some(ServerEvent::Connected)));
        let changed = bounded("tools/list_changed", events.next()).await;
        assert!(
            matches!(changed, Some(ServerEvent::ToolListChanged)),
            "{changed:?}"
        );
    }
    assert!(session.tool_list_epoch() > epoch);
    session.close().await;
}

#[tokio::test]
async fn a_reader_that_falls_behind_is_told_how_much_it_missed() {
    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let mut slow = session.events();
    let connection = scripted_connection(&session, &server).await;
    let mut keeping_up = session.events();

    for _ in 0..100 {
        connection.notify("notifications/tools/list_changed", json!({}));
    }
    for _ in 0..100 {
        let event = bounded("a notification", keeping_up.next()).await;
        assert!(
            matches!(event, Some(ServerEvent::ToolListChanged)),
            "{event:?}"
        );
    }
    // 101 events (Connected and the 100 changes) went out; 64 fit in the buffer.
    let missed = slow.next().await;
    assert!(
        matches!(missed, Some(ServerEvent::Lagged { missed: 37 })),
        "{missed:?}"
    );
    assert!(matches!(
        slow.next().await,
        Some(ServerEvent::ToolListChanged)
    ));
    session.close().await;
}

#[tokio::test]
async fn a_closed_session_refuses_requests_and_stops_its_server() {
    let (connector, _) = lab();
    let session = McpSession::new(connector.clone());
    session.connect().await.unwrap();
    assert_eq!(connector.live_servers(), 1);

    assert_eq!(session.close().await, ServerExit::Disconnected);
    assert_eq!(session.close().await, ServerExit::NotConnected);

    let error = session.list_tools().await.unwrap_err();
    assert!(matches!(error, SessionError::Closed { .. }), "{error}");
    assert!(error.is_permanent());
    let stopped = bounded("the server to stop", async {
        while connector.live_servers() > 0 {
            tokio::task::yield_now().await;
        }
    });
    stopped.await;
}
