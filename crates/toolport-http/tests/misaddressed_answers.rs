//! Answers under the wrong id, against the fixtures' `FaultHost` on 127.0.0.1: each `POST`
//! carries one request, so an answer on its exchange under another id must never reach that
//! other request (which would take it for its own result). The request it came for fails at
//! once, its outcome uncertain; a response to an id nobody awaits is skipped.

use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;
use toolport_core::Timeouts;
use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
use toolport_http::HttpServer;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_testkit::{bounded, call_params, first_text};

/// Long enough that an answer that is waited for, rather than failed at once, shows.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

async fn host(behaviour: FaultBehaviour) -> FaultHost {
    let start = FaultHost::start(behaviour, HostTransport::StreamableHttp);
    bounded("start", start).await.unwrap()
}

fn session(host: &FaultHost) -> McpSession {
    McpSession::builder(HttpServer::new(host.url()))
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .timeouts(Timeouts::default().with_request(REQUEST_TIMEOUT))
        .build()
}

async fn record(
    session: &McpSession,
    label: &str,
) -> (Result<CallToolResult, SessionError>, Duration) {
    let started = Instant::now();
    let call = session.call_tool(
        call_params("record", json!({ "label": label })),
        CallOptions::default(),
    );
    let outcome = bounded("tools/call record", call).await;
    (outcome, started.elapsed())
}

/// Two calls in flight, answered each under the other's id: neither gets the other's result,
/// and neither waits for its bound.
async fn swapped_answers_reach_neither_call(host: FaultHost) {
    let session = session(&host);
    let ((first, first_took), (second, second_took)) =
        tokio::join!(record(&session, "first"), record(&session, "second"));
    for (label, outcome, took) in [
        ("first", first, first_took),
        ("second", second, second_took),
    ] {
        match outcome {
            Ok(result) => assert_eq!(first_text(&result), label, "another call's result"),
            Err(error) => assert!(error.is_outcome_uncertain(), "{label}: {error}"),
        }
        assert!(took < REQUEST_TIMEOUT / 2, "{label} waited {took:?}");
    }
    assert_eq!(host.executions(), 2);
    let (next, _) = record(&session, "next").await;
    assert_eq!(first_text(&next.unwrap()), "next");
    session.close().await;
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swapped_ids_in_json_answers_reach_neither_call() {
    swapped_answers_reach_neither_call(host(FaultBehaviour::SwappedIds).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swapped_ids_in_answer_streams_reach_neither_call() {
    let host = host(FaultBehaviour::SwappedIds).await;
    host.answer_in_streams();
    swapped_answers_reach_neither_call(host).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_under_a_stale_id_fails_its_call_at_once_as_uncertain() {
    let host = host(FaultBehaviour::StaleId).await;
    let session = session(&host);
    let (outcome, took) = record(&session, "stale").await;
    let error = outcome.unwrap_err();
    assert_eq!(error.kind(), "outcome_uncertain", "{error}");
    assert!(error.to_string().contains("under the id"), "{error}");
    assert!(took < REQUEST_TIMEOUT / 2, "waited {took:?}");
    assert_eq!(host.executions(), 1, "not replayed");
    let (next, _) = record(&session, "next").await;
    assert_eq!(first_text(&next.unwrap()), "next");
    session.close().await;
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_nobody_awaits_on_an_answer_stream_is_skipped() {
    let host = host(FaultBehaviour::UnsolicitedId).await;
    let session = session(&host);
    let (outcome, _) = record(&session, "asked").await;
    assert_eq!(first_text(&outcome.unwrap()), "asked");
    let details = session.failure_details().unwrap_or_default();
    assert!(
        details.contains(&FaultHost::UNSOLICITED_ID.to_string()),
        "{details}"
    );
    session.close().await;
    host.stop().await;
}
