//! [`LegacySseFixtureServer`] over raw HTTP: the endpoint event, messages on the stream, the
//! endpoint override, dropped streams, bearer auth and restart.

mod common;

use http::{Method, StatusCode};
use serde_json::Value;
use toolport_fixtures::{BEARER_CHALLENGE, LabServer, LegacySseFixtureServer};
use toolport_testkit::TaskTracker;

use common::raw_http::{
    HttpClient, SseReader, client, header, initialize, post, send, status_and_text,
};
use toolport_testkit::bounded;

/// Opens `GET /sse`, checking the response head.
async fn open_stream(client: &HttpClient, server: &LegacySseFixtureServer) -> SseReader {
    let response = send(client, Method::GET, &server.url(), &[], None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-type"), Some("text/event-stream"));
    SseReader::new(response)
}

/// The endpoint named by the stream's first event.
async fn endpoint(events: &mut SseReader) -> String {
    let first = events.next().await.expect("an endpoint event");
    assert_eq!(first.event, "endpoint");
    first.data
}

#[tokio::test]
async fn answers_posts_on_the_stream() {
    let server = bounded("start", LegacySseFixtureServer::start(TaskTracker::new))
        .await
        .unwrap();
    let client = client();
    let mut events = open_stream(&client, &server).await;
    let endpoint = endpoint(&mut events).await;
    assert!(endpoint.starts_with("/messages?session_id="), "{endpoint}");

    let messages_url = format!("http://127.0.0.1:{}{endpoint}", server.port());
    let (status, text) =
        status_and_text(post(&client, &messages_url, &[], &initialize("2024-11-05")).await).await;
    assert_eq!((status, text.as_str()), (StatusCode::ACCEPTED, "Accepted"));
    let answer = events.next().await.expect("the initialize answer");
    assert_eq!(answer.event, "message");
    let answer: Value = serde_json::from_str(&answer.data).unwrap();
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["protocolVersion"], "2024-11-05");
    assert_eq!(answer["result"]["serverInfo"]["name"], TaskTracker::NAME);

    let logged = server.requests();
    assert_eq!(logged.len(), 2);
    assert_eq!(
        (&logged[0].method, logged[0].path.as_str()),
        (&Method::GET, "/sse")
    );
    assert_eq!(
        (&logged[1].method, logged[1].path.as_str()),
        (&Method::POST, endpoint.as_str())
    );

    let base = format!("http://127.0.0.1:{}", server.port());
    for (url, expected) in [
        (
            format!("{base}/messages?session_id=nope"),
            StatusCode::NOT_FOUND,
        ),
        (format!("{base}/messages"), StatusCode::BAD_REQUEST),
        (format!("{base}/elsewhere"), StatusCode::NOT_FOUND),
    ] {
        let response = post(&client, &url, &[], &initialize("2024-11-05")).await;
        assert_eq!(response.status(), expected, "{url}");
    }
}

#[tokio::test]
async fn endpoint_override_points_elsewhere() {
    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.endpoint_override("http://127.0.0.2:9/messages");
    let mut events = open_stream(&client(), &server).await;
    let endpoint = endpoint(&mut events).await;
    assert!(
        endpoint.starts_with("http://127.0.0.2:9/messages?session_id="),
        "{endpoint}"
    );
}

#[tokio::test]
async fn dropped_streams_end_their_sessions() {
    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.drop_stream_after(2);
    let client = client();
    let mut events = open_stream(&client, &server).await;
    let messages_url = format!(
        "http://127.0.0.1:{}{}",
        server.port(),
        endpoint(&mut events).await
    );
    let response = post(&client, &messages_url, &[], &initialize("2024-11-05")).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert_eq!(events.next().await.expect("the answer").event, "message");
    assert_eq!(events.next().await, None);

    let response = post(&client, &messages_url, &[], &initialize("2024-11-05")).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn requires_the_bearer_token_and_restarts() {
    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.require_bearer("s3cret");
    let client = client();
    let response = send(&client, Method::GET, &server.url(), &[], None).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        header(&response, "www-authenticate"),
        Some(BEARER_CHALLENGE)
    );

    let authorized = [("authorization", "Bearer s3cret")];
    let response = send(&client, Method::GET, &server.url(), &authorized, None).await;
    let mut events = SseReader::new(response);
    let messages_url = format!(
        "http://127.0.0.1:{}{}",
        server.port(),
        endpoint(&mut events).await
    );

    bounded("restart", server.restart()).await.unwrap();
    assert_eq!(events.next().await, None, "the stream outlived the restart");
    let response = post(
        &client,
        &messages_url,
        &authorized,
        &initialize("2024-11-05"),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}
