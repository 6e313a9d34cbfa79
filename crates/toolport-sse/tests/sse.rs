//! The whole stack (`McpSession` on `SseServer`) against the legacy SSE fixture server on
//! 127.0.0.1: list and call, the endpoint origin check, headers and credentials, a dropped
//! stream, a stopped and restarted server, and secrets kept out of `Debug`.

mod common;

use common::{echo, echo_with};
use http::Method;
use serde_json::json;
use toolport_core::{Connector, ReadonlyContext, Secret};
use toolport_fixtures::{BEARER_CHALLENGE, LabServer, LegacySseFixtureServer};
use toolport_http_client::RotatingToken;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_sse::{SseServer, WithHttpOptions};
use toolport_testkit::{WAIT, bounded, first_text};

async fn start() -> LegacySseFixtureServer {
    bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_calls_tools() {
    let server = start().await;
    let session = McpSession::new(SseServer::new(server.url()));
    let tools = bounded("tools/list", session.list_tools()).await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "echo"), "{tools:?}");
    assert_eq!(first_text(&echo(&session, "hello").await.unwrap()), "hello");

    let requests = server.requests();
    let gets: Vec<_> = requests
        .iter()
        .filter(|r| r.method == Method::GET)
        .collect();
    assert_eq!(gets.len(), 1, "one stream for the whole session");
    assert_eq!(gets[0].header("accept"), Some("text/event-stream"));
    let posts: Vec<_> = requests
        .iter()
        .filter(|r| r.method == Method::POST)
        .collect();
    assert!(posts.len() >= 4, "initialize, initialized, list, call");
    assert!(posts.iter().all(|p| p.path == posts[0].path));
    assert!(posts[0].path.starts_with("/messages?session_id="));
    assert_eq!(posts[0].header("content-type"), Some("application/json"));
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refuses_an_endpoint_on_another_origin() {
    let server = start().await;
    server.endpoint_override("http://127.0.0.2:9/messages");
    let session = McpSession::new(SseServer::new(server.url()));
    let error = bounded("tools/list", session.list_tools())
        .await
        .unwrap_err();
    let port = server.port();
    assert!(
        matches!(error, SessionError::Connect { ref source, .. } if source.is_permanent()),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        format!(
            "cannot connect to `http://127.0.0.1:{port}/sse` over legacy SSE: the server's `endpoint` event points at http://127.0.0.2:9, another origin than the event stream's http://127.0.0.1:{port}; refusing to send messages there"
        )
    );
    assert!(
        server.requests().iter().all(|r| r.method == Method::GET),
        "nothing was posted anywhere"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_provider_sees_the_callers_context() {
    let server = start().await;
    let connector = SseServer::new(server.url())
        .header("X-Static", "static-value")
        .header_provider(|context: Option<&ReadonlyContext>| {
            let user = context
                .and_then(|c| c.get("user_id"))
                .and_then(|v| v.as_str());
            Ok(user
                .map(|u| vec![("X-User-Id".to_owned(), Secret::new(u))])
                .unwrap_or_default())
        });
    let session = McpSession::new(connector);
    let context = ReadonlyContext::from_json(json!({"user_id": "alice"}));
    let options = CallOptions::default().context(Some(context));
    assert_eq!(
        first_text(&echo_with(&session, "hi", options).await.unwrap()),
        "hi"
    );
    let call = server
        .wait_for_request(|r| r.header("x-user-id") == Some("alice"), WAIT)
        .await
        .expect("the call carries the caller's header");
    assert_eq!(call.method, Method::POST);
    assert_eq!(call.header("x-static"), Some("static-value"));
    let stream = &server.requests()[0];
    assert_eq!(stream.method, Method::GET);
    assert_eq!(stream.header("x-static"), Some("static-value"));
    assert_eq!(
        stream.header("x-user-id"),
        None,
        "no caller opens the stream"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sends_the_bearer_token_and_types_a_refusal() {
    let server = start().await;
    server.require_bearer("right");
    let token = RotatingToken::new(Secret::new("right"));
    let session = McpSession::new(SseServer::new(server.url()).bearer_token(token.clone()));
    bounded("tools/list", session.list_tools()).await.unwrap();
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.header("authorization") == Some("Bearer right"))
    );

    // A token that goes bad mid-session: the post is refused.
    token.set(Secret::new("wrong"));
    match echo(&session, "x").await.unwrap_err() {
        SessionError::Unauthorized { refusal, .. } => {
            assert_eq!(refusal.status, 401);
            assert_eq!(refusal.challenge.as_deref(), Some(BEARER_CHALLENGE));
        }
        other => panic!("expected Unauthorized, got {other:?}"),
    }
    session.close().await;

    // A wrong token from the start: the stream itself is refused, once, without retries.
    let session = McpSession::new(SseServer::new(server.url()).bearer_token(Secret::new("bad")));
    let gets_before = server.requests().len();
    let error = bounded("tools/list", session.list_tools())
        .await
        .unwrap_err();
    let SessionError::Unauthorized {
        refusal, method, ..
    } = &error
    else {
        panic!("expected Unauthorized, got {error:?}");
    };
    assert_eq!((refusal.status, method.as_str()), (401, "connect"));
    assert!(error.is_permanent());
    assert_eq!(server.requests().len(), gets_before + 1, "not retried");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_ends_the_session_and_the_next_call_works() {
    let server = start().await;
    // The endpoint event, the initialize answer and one more answer; then the stream (and with
    // it the fixture's session) ends, and a reconnect finds a new endpoint.
    server.drop_stream_after(3);
    let session = McpSession::new(SseServer::new(server.url()));
    bounded("tools/list", session.list_tools()).await.unwrap();
    let peer = bounded("peer", session.unbounded_peer()).await.unwrap();
    bounded("the transport to end", async {
        while !peer.is_transport_closed() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await;
    assert_eq!(first_text(&echo(&session, "again").await.unwrap()), "again");
    let gets = server
        .requests()
        .iter()
        .filter(|r| r.method == Method::GET)
        .count();
    assert_eq!(gets, 3, "the first stream, one reconnect, the new session");
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_gives_a_clear_error_and_a_restart_recovers() {
    let server = start().await;
    let session = McpSession::new(SseServer::new(server.url()));
    assert_eq!(first_text(&echo(&session, "one").await.unwrap()), "one");
    let peer = bounded("peer", session.unbounded_peer()).await.unwrap();
    server.stop().await;
    // Once the transport has given up reconnecting, no pooled connection to the old server is
    // left to race with, and the call meets a refused connect.
    bounded("the transport to end", async {
        while !peer.is_transport_closed() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await;
    let error = echo(&session, "two").await.unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains(&server.url()) && message.contains("Connection refused"),
        "{message}"
    );
    bounded("restart", server.restart()).await.unwrap();
    assert_eq!(first_text(&echo(&session, "three").await.unwrap()), "three");
    session.close().await;
}

#[test]
fn debug_and_target_show_no_secrets() {
    let server = SseServer::new("http://user:pw-secret@127.0.0.1:8080/sse?key=query-secret")
        .bearer_token(Secret::new("token-secret"))
        .header("X-Api-Key", "header-secret");
    let shown = format!("{server:?} {}", server.target());
    for secret in ["token-secret", "header-secret", "pw-secret", "query-secret"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    assert_eq!(
        server.target(),
        "`http://127.0.0.1:8080/sse` over legacy SSE"
    );
    assert!(shown.contains("X-Api-Key"), "{shown}");
}
