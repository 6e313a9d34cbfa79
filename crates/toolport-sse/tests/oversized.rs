//! An answer event larger than `max_response_bytes`, against the fixtures' `FaultHost` on
//! 127.0.0.1: the event is dropped without being buffered past the limit, and its id, read from
//! the two ends the parser keeps, fails the call it answers at once with an error naming the
//! limit, instead of leaving it to wait for its timeout. The stream stays up.

use std::time::{Duration, Instant};

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport_core::Timeouts;
use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_sse::{SseServer, WithHttpOptions};
use toolport_testkit::{bounded, call_params, first_text};

const LIMIT: usize = 4096;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_answer_fails_its_call_at_once_and_the_next_call_works() {
    let behaviour = FaultBehaviour::OversizedResponse { bytes: LIMIT * 16 };
    let start = FaultHost::start(behaviour, HostTransport::LegacySse);
    let host = bounded("start", start).await.unwrap();
    let session = McpSession::builder(SseServer::new(host.url()).max_response_bytes(LIMIT))
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .timeouts(Timeouts::default().with_request(REQUEST_TIMEOUT))
        .build();
    let record = |label: &str| {
        session.call_tool(
            call_params("record", json!({ "label": label })),
            CallOptions::default(),
        )
    };

    let started = Instant::now();
    let error = bounded("the oversized answer", record("big"))
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(&error, SessionError::Rpc { .. }),
        "the call fails as the error put in the answer's place: {error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("limit of 4096 bytes") && message.contains("max_response_bytes"),
        "{message}"
    );
    assert!(
        elapsed < REQUEST_TIMEOUT / 2,
        "failed in {elapsed:?}, not at its timeout"
    );
    assert_eq!(host.executions(), 1);

    let next = bounded("the next call", record("small")).await.unwrap();
    assert_eq!(first_text(&next), "small");
    assert_eq!(host.initializations(), 1, "the same session carries on");
    session.close().await;
    host.stop().await;
}
