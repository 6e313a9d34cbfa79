//! [`HttpFixtureServer`] over raw HTTP: sessions, restart, stop, the request log and bearer auth.

mod common;

use std::time::Duration;

use http::{Method, StatusCode};
use toolport_fixtures::{BEARER_CHALLENGE, HttpFixtureServer, LabServer};
use toolport_testkit::TaskTracker;

use common::raw_http::{
    HttpClient, SseReader, client, header, initialize, initialized, list_tools, post, send,
    sse_messages, status_and_text,
};
use toolport_testkit::bounded;

/// Initializes a session with 2025-11-25 and returns its id, checking the answer.
async fn open_session(client: &HttpClient, url: &str) -> String {
    let response = post(client, url, &[], &initialize("2025-11-25")).await;
    let session = header(&response, "mcp-session-id")
        .expect("a session id")
        .to_owned();
    let (status, text) = status_and_text(response).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let messages = sse_messages(&text);
    assert_eq!(messages.len(), 1, "{text}");
    assert_eq!(messages[0]["result"]["protocolVersion"], "2025-11-25");
    let with_session = [("mcp-session-id", session.as_str())];
    let response = post(client, url, &with_session, &initialized()).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    session
}

#[tokio::test]
async fn restart_forgets_sessions_on_the_same_port() {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let (client, url) = (client(), server.url());
    let session = open_session(&client, &url).await;

    let with_session = [("mcp-session-id", session.as_str())];
    let (status, text) =
        status_and_text(post(&client, &url, &with_session, &list_tools(2)).await).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("\"echo\""), "{text}");

    let port = server.port();
    bounded("restart", server.restart()).await.unwrap();
    assert_eq!(server.port(), port);
    let response = post(&client, &url, &with_session, &list_tools(3)).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    // A new session works after the restart.
    open_session(&client, &url).await;
}

#[tokio::test]
async fn logs_every_request_with_its_headers() {
    let server = bounded("start", HttpFixtureServer::start(TaskTracker::new))
        .await
        .unwrap();
    let (client, url) = (client(), server.url());
    let session = open_session(&client, &url).await;
    let headers = [("mcp-session-id", session.as_str()), ("x-user-id", "alice")];
    let response = send(&client, Method::DELETE, &url, &headers, None).await;
    assert!(response.status().is_success(), "{}", response.status());

    let delete = server
        .wait_for_request(|r| r.method == Method::DELETE, Duration::from_secs(1))
        .await
        .expect("the DELETE is logged");
    assert_eq!(delete.path, "/mcp");
    assert_eq!(delete.session_id(), Some(session.as_str()));
    assert_eq!(delete.header("X-User-Id"), Some("alice"));
    let methods: Vec<_> = server.requests().into_iter().map(|r| r.method).collect();
    assert_eq!(methods, [Method::POST, Method::POST, Method::DELETE]);

    let (status, _) = status_and_text(
        post(
            &client,
            &format!("http://127.0.0.1:{}/other", server.port()),
            &[],
            &initialize("2025-11-25"),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn requires_the_bearer_token_when_told() {
    let server = bounded("start", HttpFixtureServer::start(TaskTracker::new))
        .await
        .unwrap();
    server.require_bearer("s3cret");
    let (client, url) = (client(), server.url());
    for wrong in [&[][..], &[("authorization", "Bearer other")][..]] {
        let response = post(&client, &url, wrong, &initialize("2025-11-25")).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            header(&response, "www-authenticate"),
            Some(BEARER_CHALLENGE)
        );
    }
    let authorized = [("authorization", "Bearer s3cret")];
    let response = post(&client, &url, &authorized, &initialize("2025-11-25")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let logged = server.requests();
    assert_eq!(logged.len(), 3);
    assert_eq!(logged[2].header("authorization"), Some("Bearer s3cret"));
}

#[tokio::test]
async fn stop_breaks_open_streams_and_closes_the_port() {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let (client, url) = (client(), server.url());
    let session = open_session(&client, &url).await;
    let with_session = [("mcp-session-id", session.as_str())];
    let stream = send(&client, Method::GET, &url, &with_session, None).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut events = SseReader::new(stream);

    bounded("stop", server.stop()).await;
    while let Some(event) = events.next().await {
        // Only the priming event may come before the break.
        assert!(event.data.is_empty(), "{event:?}");
    }
    let refused = tokio::net::TcpStream::connect(("127.0.0.1", server.port())).await;
    assert!(refused.is_err(), "the port still accepts connections");
    bounded("a second stop", server.stop()).await;
}

#[tokio::test]
async fn dropping_frees_the_port_for_start_on() {
    let server = bounded("start", HttpFixtureServer::start(TaskTracker::new))
        .await
        .unwrap();
    let port = server.port();
    drop(server);
    bounded("the port to close", async {
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    let server = bounded(
        "start_on",
        HttpFixtureServer::start_on(port, TaskTracker::new),
    )
    .await
    .unwrap();
    assert_eq!(server.url(), format!("http://127.0.0.1:{port}/mcp"));
    open_session(&client(), &server.url()).await;
}
