//! A session's limit on concurrent tool calls: a call past it waits for a slot without reaching
//! the server, calls go out in the order they came, and the wait counts against the call's
//! bound. On paused time, against a scripted server that shows each request as it arrives.

mod common;

use std::num::NonZeroUsize;
use std::time::Duration;

use common::scripted_connection;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use toolport_core::Timeouts;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_testkit::call_params;
use toolport_testkit::scripted::{self, ClientMessage, ScriptedConnection};

fn limit(calls: usize) -> NonZeroUsize {
    NonZeroUsize::new(calls).unwrap()
}

/// A call of `echo` with `text`, on a task of its own, bounded as `options` say.
fn echo(
    session: &McpSession,
    text: &str,
    options: CallOptions,
) -> JoinHandle<Result<CallToolResult, SessionError>> {
    let session = session.clone();
    let params = call_params("echo", json!({"text": text}));
    tokio::spawn(async move { session.call_tool(params, options).await })
}

/// The `text` argument of a `tools/call` request.
fn text_of(request: &ClientMessage) -> &str {
    request.params()["arguments"]["text"].as_str().unwrap()
}

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

/// What the client sends before every task is idle and a second of paused time has passed.
async fn sent_while_idle(connection: &mut ScriptedConnection) -> Option<ClientMessage> {
    tokio::time::timeout(Duration::from_secs(1), connection.recv())
        .await
        .ok()
        .flatten()
}

#[tokio::test(start_paused = true)]
async fn a_call_past_the_limit_waits_for_a_slot_and_calls_go_out_in_the_order_they_came() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .max_concurrent_calls(limit(2))
        .build();
    let mut connection = scripted_connection(&session, &server).await;
    assert_eq!(session.max_concurrent_calls(), Some(limit(2)));

    // Spawned in this order, the calls reach the session in this order.
    let calls: Vec<_> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|text| echo(&session, text, CallOptions::default()))
        .collect();
    let a = connection.expect_request("tools/call").await;
    let b = connection.expect_request("tools/call").await;
    assert_eq!([text_of(&a), text_of(&b)], ["a", "b"]);
    assert!(
        sent_while_idle(&mut connection).await.is_none(),
        "c waits: both slots are taken"
    );

    connection.respond(&a, text_result("a"));
    let c = connection.expect_request("tools/call").await;
    assert_eq!(text_of(&c), "c", "a's slot went to the first call waiting");
    assert!(sent_while_idle(&mut connection).await.is_none());
    connection.respond(&b, text_result("b"));
    let d = connection.expect_request("tools/call").await;
    connection.respond(&c, text_result("c"));
    let e = connection.expect_request("tools/call").await;
    assert_eq!([text_of(&d), text_of(&e)], ["d", "e"]);
    connection.respond(&d, text_result("d"));
    connection.respond(&e, text_result("e"));
    for call in calls {
        call.await.unwrap().unwrap();
    }
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_call_that_waits_its_whole_bound_for_a_slot_fails_unsent_naming_the_limit() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .max_concurrent_calls(limit(1))
        .build();
    let mut connection = scripted_connection(&session, &server).await;
    let held = echo(&session, "held", CallOptions::default());
    let holding = connection.expect_request("tools/call").await;

    let started = Instant::now();
    let own_bound = CallOptions::default().timeout(Some(Duration::from_secs(2)));
    let params = call_params("echo", json!({"text": "queued"}));
    let error = session.call_tool(params, own_bound).await.unwrap_err();

    assert_eq!(started.elapsed(), Duration::from_secs(2), "its own bound");
    assert_eq!(error.kind(), "queue_timeout");
    assert!(error.is_timeout(), "{error}");
    assert!(
        !error.is_outcome_uncertain() && !error.is_connect(),
        "it surely did not run, and the server is reachable: {error}"
    );
    assert_eq!(
        error.to_string(),
        format!(
            "tools/call echo on {} waited 2000 ms for one of the 1 concurrent calls the session \
             allows (max_concurrent_calls; `maxConcurrentCalls` in mcp.json) and was never \
             sent: raise the limit, or give the call a longer timeout",
            session.target()
        )
    );
    assert!(connection.try_recv().is_none(), "nothing was sent for it");

    connection.respond(&holding, text_result("held"));
    held.await.unwrap().unwrap();
    let next = echo(&session, "next", CallOptions::default());
    let request = connection.expect_request("tools/call").await;
    assert_eq!(text_of(&request), "next", "the slot is free again");
    connection.respond(&request, text_result("next"));
    next.await.unwrap().unwrap();
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn the_wait_for_a_slot_counts_against_the_calls_bound() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .timeouts(Timeouts::default().with_request(Duration::from_secs(5)))
        .max_concurrent_calls(limit(1))
        .build();
    let mut connection = scripted_connection(&session, &server).await;
    let held = echo(&session, "held", CallOptions::default());
    let holding = connection.expect_request("tools/call").await;

    let started = Instant::now();
    let queued = echo(&session, "queued", CallOptions::default());
    // Its task runs up to its wait for the slot before the clock moves.
    tokio::task::yield_now().await;
    tokio::time::advance(Duration::from_secs(3)).await;
    connection.respond(&holding, text_result("held"));
    held.await.unwrap().unwrap();
    let request = connection.expect_request("tools/call").await;
    assert_eq!(text_of(&request), "queued");
    let error = queued.await.unwrap().unwrap_err();

    assert_eq!(
        started.elapsed(),
        Duration::from_secs(5),
        "3 s waiting for the slot, then the 2 s left of its bound"
    );
    assert_eq!(error.kind(), "request_timeout", "{error}");
    assert!(
        error.to_string().contains("timed out after 5000 ms"),
        "{error}"
    );
    let cancelled = connection
        .expect_notification("notifications/cancelled")
        .await;
    assert_eq!(cancelled.params()["requestId"], *request.id().unwrap());
    session.close().await;
}
