//! The whole stack (`McpSession` on `HttpServer`) against the fixtures' Streamable HTTP fixture
//! server (rmcp's `StreamableHttpService` serving a `LabServer`) on 127.0.0.1.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http::{Method, StatusCode};
use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;
use toolport_core::{
    AuthorizationRequired, ConnectContext, Connector, ProtocolChoice, ReadonlyContext, Secret,
    Timeouts,
};
use toolport_fixtures::{HttpFixtureServer, LabServer, RecordedRequest};
use toolport_http::{HttpServer, WithHttpOptions};
use toolport_http_client::RotatingToken;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_testkit::{WAIT, bounded, call_params, first_text};

/// A fixture serving one shared `LabServer`, so a test can read its cancellation count.
async fn start() -> (HttpFixtureServer, LabServer) {
    let lab = LabServer::new();
    let served = lab.clone();
    let server = bounded("start", HttpFixtureServer::start(move || served.clone()))
        .await
        .unwrap();
    (server, lab)
}

async fn echo(session: &McpSession, text: &str) -> Result<CallToolResult, SessionError> {
    let call = session.call_tool(
        call_params("echo", json!({ "text": text })),
        CallOptions::default(),
    );
    bounded("tools/call echo", call).await
}

/// A session pinned to 2025-11-25, for the tests of what only that version has: the session
/// id, the listening `GET` stream, `DELETE` on close, and cancellation by notification.
fn session_2025(server: HttpServer) -> McpSession {
    McpSession::builder(server)
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build()
}

fn posts(server: &HttpFixtureServer) -> Vec<RecordedRequest> {
    let requests = server.requests().into_iter();
    requests.filter(|r| r.method == Method::POST).collect()
}

/// Stops `server` and waits until the client has closed every pooled connection the server
/// hung up on, so the next request goes out on a new connection: a request racing the close on
/// a reused connection fails with its outcome unknown, which is another test's business.
async fn stop(server: &HttpFixtureServer) {
    server.stop().await;
    bounded(
        "the client to close its connections",
        server.clients_closed(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_calls_tools_and_reuses_the_session_id() {
    let (server, _) = start().await;
    let session = session_2025(HttpServer::new(server.url()));
    let tools = bounded("tools/list", session.list_tools()).await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "echo"), "{tools:?}");
    let result = echo(&session, "hello").await.unwrap();
    assert_eq!(first_text(&result), "hello");

    let posts = posts(&server);
    assert!(
        posts.len() >= 3,
        "initialize, initialized, tools/list, tools/call: {posts:?}"
    );
    assert!(
        posts[0].session_id().is_none(),
        "initialize has no session yet"
    );
    let ids: Vec<_> = posts[1..].iter().map(RecordedRequest::session_id).collect();
    assert!(
        ids.iter().all(|id| id.is_some() && *id == ids[0]),
        "{ids:?}"
    );
    assert!(posts[1].header("mcp-protocol-version").is_some());
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_provider_sees_the_callers_context_on_every_request() {
    let (server, _) = start().await;
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let connector = HttpServer::new(server.url())
        .header("X-Static", "fixed")
        .header_provider(move |context: Option<&ReadonlyContext>| {
            counted.fetch_add(1, Ordering::SeqCst);
            let user = context
                .and_then(|c| c.get("user_id"))
                .and_then(|v| v.as_str());
            Ok(user
                .map(|user| vec![("X-User-Id".to_owned(), Secret::new(user))])
                .unwrap_or_default())
        });
    let session = McpSession::new(connector);
    let alice = ReadonlyContext::from_json(json!({ "user_id": "alice" }));
    let options = CallOptions::default().context(Some(alice));
    let call = session.call_tool(call_params("echo", json!({ "text": "hi" })), options);
    bounded("tools/call echo", call).await.unwrap();

    // The session negotiated 2026-07-28, whose posts name their method; the listening
    // request may go out after the call, for no caller.
    let posts = posts(&server);
    let call = posts
        .iter()
        .find(|post| post.header("mcp-method") == Some("tools/call"))
        .expect("the call names its method");
    assert_eq!(
        call.header("x-user-id"),
        Some("alice"),
        "the call carries the caller"
    );
    assert!(
        posts[0].header("x-user-id").is_none(),
        "connecting is done for no caller"
    );
    assert!(posts.iter().all(|s| s.header("x-static") == Some("fixed")));
    assert!(
        calls.load(Ordering::SeqCst) >= posts.len(),
        "asked once per request"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_static_header_sends_every_value() {
    let (server, _) = start().await;
    let connector = HttpServer::new(server.url())
        .header("X-A", "1")
        .header("X-A", "2");
    let session = McpSession::new(connector);
    echo(&session, "hi").await.unwrap();
    for post in posts(&server) {
        let values: Vec<_> = post.headers.get_all("x-a").iter().collect();
        assert_eq!(values, ["1", "2"], "{post:?}");
    }
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_bearer_token_is_sent_on_the_next_request() {
    let (server, _) = start().await;
    let token = RotatingToken::new(Secret::new("first"));
    let session = McpSession::new(HttpServer::new(server.url()).bearer_token(token.clone()));
    echo(&session, "one").await.unwrap();
    token.set(Secret::new("second"));
    echo(&session, "two").await.unwrap();
    let auth: Vec<_> = posts(&server)
        .iter()
        .map(|s| s.header("authorization").unwrap().to_owned())
        .collect();
    assert_eq!(auth.first().unwrap(), "Bearer first");
    assert_eq!(auth.last().unwrap(), "Bearer second");
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_gets_a_new_session_transparently() {
    let (server, _) = start().await;
    let session = session_2025(HttpServer::new(server.url()));
    echo(&session, "before").await.unwrap();
    let seen_before = server.requests().len();
    stop(&server).await;
    server.restart().await.unwrap();
    let result = echo(&session, "after")
        .await
        .expect("404 → re-initialize → retried");
    assert_eq!(first_text(&result), "after");
    let first = &server.requests()[seen_before];
    assert!(
        first.session_id().is_some(),
        "the old session was tried first"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_server_is_a_clear_error_and_its_return_is_noticed() {
    let (server, _) = start().await;
    let session = McpSession::new(HttpServer::new(server.url()));
    echo(&session, "before").await.unwrap();
    stop(&server).await;
    let error = echo(&session, "while down").await.unwrap_err();
    let message = error.to_string();
    assert!(message.contains(&server.port().to_string()), "{message}");
    assert!(message.contains("Connection refused"), "{message}");
    server.restart().await.unwrap();
    let result = echo(&session, "after").await.expect("reconnects");
    assert_eq!(first_text(&result), "after");
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_tool_times_out_and_is_cancelled_on_the_server() {
    let (server, lab) = start().await;
    let session = McpSession::builder(HttpServer::new(server.url()))
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .timeouts(Timeouts::default().with_request(Duration::from_millis(200)))
        .build();
    let call = session.call_tool(
        call_params("sleep", json!({ "ms": 5_000 })),
        CallOptions::default(),
    );
    let error = bounded("tools/call sleep", call).await.unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert_eq!(lab.cancellations().wait_for(1, WAIT).await, 1);
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_response_fails_the_call_and_names_the_limit() {
    let (server, _) = start().await;
    let session = McpSession::new(HttpServer::new(server.url()).max_response_bytes(4096));
    echo(&session, "small").await.unwrap();
    let error = echo(&session, &"x".repeat(10_000)).await.unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("4096 bytes") && message.contains("max_response_bytes"),
        "{message}"
    );
    echo(&session, "still usable").await.unwrap();
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_mid_session_is_a_typed_error_with_the_challenge() {
    let (server, _) = start().await;
    let session = McpSession::new(HttpServer::new(server.url()));
    echo(&session, "allowed").await.unwrap();
    let challenge = r#"Bearer error="insufficient_scope", scope="tools:call""#;
    server.refuse_all(StatusCode::FORBIDDEN, challenge);
    match echo(&session, "refused").await.unwrap_err() {
        SessionError::Unauthorized {
            refusal, method, ..
        } => {
            assert_eq!(refusal.status, 403);
            assert_eq!(refusal.challenge.as_deref(), Some(challenge));
            assert_eq!(method, "tools/call echo");
        }
        other => panic!("expected Unauthorized, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthorized_at_initialize_is_in_the_transport_errors_source_chain() {
    let (server, _) = start().await;
    let challenge = r#"Bearer realm="mcp""#;
    server.refuse_all(StatusCode::UNAUTHORIZED, challenge);
    let connector = HttpServer::new(server.url());
    let connection = connector.connect(&ConnectContext::default()).await.unwrap();
    let handshake = rmcp::serve_client((), connection.transport);
    let error = bounded("initialize", handshake).await.unwrap_err();
    let rmcp::service::ClientInitializeError::TransportError { error, .. } = &error else {
        panic!("expected a transport error, got {error:?}");
    };
    let refusal = AuthorizationRequired::find(error).expect("in the source chain");
    assert_eq!(
        (refusal.status, refusal.challenge.as_deref()),
        (401, Some(challenge))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthorized_at_initialize_is_a_typed_error_with_the_challenge() {
    let (server, _) = start().await;
    let challenge =
        r#"Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource""#;
    server.refuse_all(StatusCode::UNAUTHORIZED, challenge);
    let session = McpSession::new(HttpServer::new(server.url()));
    let error = bounded("tools/list", session.list_tools())
        .await
        .unwrap_err();
    match &error {
        SessionError::Unauthorized {
            refusal, method, ..
        } => {
            assert_eq!(refusal.status, 401);
            assert_eq!(refusal.challenge.as_deref(), Some(challenge));
            assert_eq!(method, "initialize");
        }
        other => panic!("expected Unauthorized, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_deletes_the_session_unless_told_not_to() {
    for (terminate, deletes) in [(true, 1), (false, 0)] {
        let (server, _) = start().await;
        let session = session_2025(HttpServer::new(server.url()).terminate_on_close(terminate));
        echo(&session, "hi").await.unwrap();
        bounded("close", session.close()).await;
        let deleted = server
            .requests()
            .iter()
            .filter(|r| r.method == Method::DELETE)
            .count();
        assert_eq!(deleted, deletes, "terminate_on_close({terminate})");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listening_stream_opens_after_the_handshake_unless_turned_off() {
    for listen in [true, false] {
        let (server, _) = start().await;
        let session = session_2025(HttpServer::new(server.url()).listening_stream(listen));
        echo(&session, "hi").await.unwrap();
        let get = server
            .wait_for_request(
                |r| r.method == Method::GET && r.session_id().is_some(),
                Duration::from_millis(if listen { 5_000 } else { 300 }),
            )
            .await;
        assert_eq!(get.is_some(), listen, "listening_stream({listen})");
        session.close().await;
    }
}

#[test]
fn secrets_stay_out_of_debug_and_target() {
    let server = HttpServer::new("https://user:pw@example.com:8443/mcp?api_key=query-secret")
        .bearer_token(Secret::new("token-secret"))
        .header("X-Api-Key", "header-secret")
        .api_key("X-Other", RotatingToken::new(Secret::new("key-secret")));
    let shown = format!("{server:?} {}", server.target());
    for secret in [
        "token-secret",
        "header-secret",
        "key-secret",
        "query-secret",
        "pw",
    ] {
        assert!(!shown.contains(secret), "{secret} leaked: {shown}");
    }
    assert_eq!(
        server.target(),
        "`https://example.com:8443/mcp` over Streamable HTTP"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_shown_as_written_is_what_debug_target_and_errors_show() {
    let (server, _) = start().await;
    let port = server.port();
    let connector =
        HttpServer::new(server.url()).url_shown_as("http://user:pw@${MCP_HOST}/mcp?key=${KEY}");
    assert_eq!(
        connector.target(),
        "`http://${MCP_HOST}/mcp` over Streamable HTTP"
    );
    let shown = format!("{connector:?}");
    assert!(shown.contains("http://${MCP_HOST}/mcp"), "{shown}");
    assert!(!shown.contains(&format!(":{port}")), "{shown}");

    // It still connects where the URL says.
    let session = McpSession::new(connector);
    bounded("connect", session.connect()).await.unwrap();
    let shown = format!("{session:?}");
    assert!(!shown.contains(&format!(":{port}")), "{shown}");
    session.close().await;

    // Nothing listens on port 9 (discard). The key is in the path: hyper's own errors name
    // the address they could not reach, but no path.
    let nowhere = HttpServer::new("http://127.0.0.1:9/sk-live-4f9a0c/mcp")
        .url_shown_as("http://127.0.0.1:9/${KEY}/mcp");
    let error = McpSession::new(nowhere).list_tools().await.unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(
        shown.contains("`http://127.0.0.1:9/${KEY}/mcp` over Streamable HTTP"),
        "{shown}"
    );
    assert!(!shown.contains("sk-live-4f9a0c"), "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_negotiation_falls_back_when_the_probe_is_refused_without_a_modern_error() {
    let (server, _) = start().await;
    let negotiating = || {
        McpSession::builder(HttpServer::new(server.url()))
            .protocol(ProtocolChoice::Negotiate)
            .build()
    };
    let modern = negotiating();
    bounded("connect", modern.connect()).await.unwrap();
    assert_eq!(
        modern.protocol_version(),
        Some(ProtocolVersion::V_2026_07_28),
        "the fixture answers server/discover"
    );
    modern.close().await;

    // As a server of 2025-11-25 refuses a request that comes before its handshake.
    let refusal = "Bad Request: No valid session ID provided";
    server.refuse_method("server/discover", StatusCode::BAD_REQUEST, refusal);
    let before = posts(&server).len();
    let session = negotiating();
    let result = echo(&session, "after the fallback").await.unwrap();
    assert_eq!(first_text(&result), "after the fallback");
    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2025_11_25)
    );
    let posts = &posts(&server)[before..];
    assert_eq!(posts[0].header("mcp-method"), Some("server/discover"));
    let initialize = &posts[1];
    assert!(
        initialize.header("mcp-method").is_none()
            && initialize.header("mcp-protocol-version").is_none(),
        "initialize goes out as 2025-11-25 sends it: {initialize:?}"
    );
    session.close().await;
}
