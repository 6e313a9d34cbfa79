//! Secrets stay out of logs: a whole session with a bearer token and a secret header, traced
//! at every level, never prints them, nor the session id of the endpoint.

mod common;

use common::echo;
use http::Method;
use toolport_core::{ConnectContext, Connector, Secret};
use toolport_session::McpSession;
use toolport_sse::SseServer;
use toolport_testkit::{CapturedLog, LabServer, LegacySseFixtureServer};
use toolport_testkit::{bounded, first_text};

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn secrets_never_reach_tracing_or_debug() {
    let captured = CapturedLog::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.require_bearer("token-secret");
    let connector = SseServer::new(server.url())
        .bearer_token(Secret::new("token-secret"))
        .header("X-Api-Key", "header-secret");
    let connection = bounded("open", connector.connect(&ConnectContext::default()))
        .await
        .unwrap();
    let shown = format!("{connection:?} {connector:?}");
    drop(connection);

    let session = McpSession::new(connector);
    assert_eq!(first_text(&echo(&session, "hi").await.unwrap()), "hi");
    session.close().await;
    let posted = server
        .requests()
        .into_iter()
        .find(|r| r.method == Method::POST);
    let session_id = posted.unwrap().path.split_once('?').unwrap().1.to_owned();

    let logs = captured.text();
    assert!(logs.contains("legacy SSE"), "the test captured the logs");
    for secret in ["token-secret", "header-secret", session_id.as_str()] {
        assert!(!logs.contains(secret), "{secret} logged");
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}
