//! Secrets stay out of logs: a whole session with a bearer token and a secret header, traced
//! at every level, never prints them, nor the session id of the endpoint.

mod common;

use common::echo;
use http::Method;
use toolport_core::{ConnectContext, Connector, Secret};
use toolport_fixtures::{CapturedLog, LabServer, LegacySseFixtureServer};
use toolport_session::McpSession;
use toolport_sse::{SseServer, WithHttpOptions};
use toolport_testkit::{bounded, first_text};

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn secrets_never_reach_tracing_or_debug() {
    let captured = CapturedLog::default();
    let _guard = tracing::subscriber::set_default(captured.subscriber());

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

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn a_url_shown_as_written_names_the_server_everywhere() {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::{Layer as _, filter::filter_fn};

    let captured = CapturedLog::default();
    let writer = captured.clone();
    // Toolport's own logs: hyper's name the address it connects to.
    let ours = filter_fn(|metadata| {
        metadata.target().starts_with("toolport_")
            && !metadata.target().starts_with("toolport_testkit")
            && !metadata.target().starts_with("toolport_fixtures")
    });
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .with_filter(ours);
    let _guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));

    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let port = format!(":{}", server.port());
    let written = "http://127.0.0.1:${PORT}/sse";
    let connector = SseServer::new(server.url()).url_shown_as(written);
    assert_eq!(connector.target(), format!("`{written}` over legacy SSE"));
    let session = McpSession::new(connector.clone());
    assert_eq!(first_text(&echo(&session, "hi").await.unwrap()), "hi");
    let shown = format!("{connector:?} {session:?}");
    session.close().await;

    server.endpoint_override("http://127.0.0.2:9/messages");
    let error = bounded("connect", connector.connect(&ConnectContext::default()))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server's `endpoint` event points at http://127.0.0.2:9, another origin than the \
         event stream's http://127.0.0.1:${PORT}; refusing to send messages there"
    );

    let logs = captured.text();
    assert!(logs.contains(written), "the test captured the logs: {logs}");
    for text in [logs, shown] {
        assert!(!text.contains(&port), "{port} in {text}");
    }
}
