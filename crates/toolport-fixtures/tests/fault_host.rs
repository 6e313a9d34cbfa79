//! The `FaultHost` on 127.0.0.1: it serves a session over both transports, and each fault is
//! what it says on the wire (a reset is a TCP `RST`, a slow answer a byte a second, a crash a
//! dead port until the restart), checked with a raw HTTP client and a raw socket.

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use toolport::http::HttpServer;
use toolport::sse::SseServer;
use toolport::{CallOptions, McpSession};
use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
use toolport_testkit::{bounded, call_params, first_text};

type HttpClient = Client<HttpConnector, Full<Bytes>>;

async fn start(behaviour: FaultBehaviour, transport: HostTransport) -> FaultHost {
    bounded("start", FaultHost::start(behaviour, transport))
        .await
        .unwrap()
}

/// One `POST` of `message` to a Streamable HTTP host, with `session` as its session id.
async fn post(
    client: &HttpClient,
    host: &FaultHost,
    session: Option<&str>,
    message: Value,
) -> Response<Incoming> {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(host.url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let request = request
        .body(Full::new(Bytes::from(message.to_string())))
        .unwrap();
    bounded("POST", client.request(request)).await.unwrap()
}

/// Initializes a Streamable HTTP session; its id.
async fn initialize(client: &HttpClient, host: &FaultHost) -> String {
    let message = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": { "name": "test", "version": "1" } },
    });
    let response = post(client, host, None, message).await;
    assert_eq!(response.status(), StatusCode::OK);
    let id = response.headers()["mcp-session-id"].to_str().unwrap();
    id.to_owned()
}

fn call(id: u64, label: &str) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "record", "arguments": { "label": label } },
    })
}

fn client() -> HttpClient {
    Client::builder(TokioExecutor::new()).build_http()
}

#[tokio::test]
async fn a_healthy_host_serves_a_session_over_either_transport() {
    for transport in [HostTransport::StreamableHttp, HostTransport::LegacySse] {
        let host = start(FaultBehaviour::Healthy, transport).await;
        let session = match transport {
            HostTransport::StreamableHttp => McpSession::new(HttpServer::new(host.url())),
            HostTransport::LegacySse => McpSession::new(SseServer::new(host.url())),
        };
        let tools = bounded("tools/list", session.list_tools()).await.unwrap();
        assert_eq!(tools.len(), 1, "{tools:?}");
        assert_eq!(tools[0].name, "record");
        for label in ["one", "two"] {
            let params = call_params("record", json!({ "label": label }));
            let call = session.call_tool(params, CallOptions::default());
            let result = bounded("tools/call", call).await.unwrap();
            assert_eq!(first_text(&result), label);
        }
        assert_eq!(host.executions(), 2);
        assert_eq!(host.initializations(), 1);
        session.close().await;
        host.stop().await;
    }
}

#[tokio::test]
async fn a_restart_keeps_the_port_and_the_counts_and_forgets_the_sessions() {
    let host = start(FaultBehaviour::Healthy, HostTransport::StreamableHttp).await;
    let client = client();
    let session = initialize(&client, &host).await;
    let answer = post(&client, &host, Some(&session), call(1, "before")).await;
    assert_eq!(answer.status(), StatusCode::OK);
    let url = host.url();
    bounded("restart", host.restart()).await.unwrap();
    assert_eq!(host.url(), url);
    let refused = post(&client, &host, Some(&session), call(2, "after")).await;
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    assert_eq!(host.executions(), 1, "the refused call did not run");
    assert_eq!(host.initializations(), 1);
    host.stop().await;
}

#[tokio::test]
async fn a_crash_drops_the_call_and_the_port_until_the_restart() {
    let host = start(FaultBehaviour::CrashMidCall, HostTransport::StreamableHttp).await;
    let client = client();
    let session = initialize(&client, &host).await;
    let request = Request::post(host.url())
        .header("content-type", "application/json")
        .header("mcp-session-id", &session)
        .body(Full::new(Bytes::from(call(1, "crash").to_string())))
        .unwrap();
    let broken = bounded("the crashing call", client.request(request)).await;
    assert!(broken.is_err(), "the call got an answer: {broken:?}");
    assert_eq!(host.executions(), 1);
    let refused = TcpStream::connect(("127.0.0.1", host.port())).await;
    assert_eq!(refused.unwrap_err().kind(), ErrorKind::ConnectionRefused);
    bounded("restart", host.restart()).await.unwrap();
    let session = initialize(&client, &host).await;
    let answer = post(&client, &host, Some(&session), call(2, "back")).await;
    assert_eq!(answer.status(), StatusCode::OK);
    host.stop().await;
}

#[tokio::test]
async fn a_reset_mid_stream_is_a_tcp_reset_after_the_first_event() {
    let host = start(
        FaultBehaviour::ResetMidStream,
        HostTransport::StreamableHttp,
    )
    .await;
    let session = initialize(&client(), &host).await;
    let body = call(1, "reset").to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", host.port()))
        .await
        .unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-session-id: {session}\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut received = Vec::new();
    let error = bounded("the reset", async {
        loop {
            let mut buffer = [0; 1024];
            match stream.read(&mut buffer).await {
                Ok(0) => panic!("closed with a FIN, after {received:?}"),
                Ok(read) => received.extend_from_slice(&buffer[..read]),
                Err(error) => break error,
            }
        }
    })
    .await;
    assert_eq!(error.kind(), ErrorKind::ConnectionReset, "{error}");
    let received = String::from_utf8_lossy(&received);
    assert!(received.contains("text/event-stream"), "{received}");
    assert!(received.contains("notifications/message"), "{received}");
    assert_eq!(host.executions(), 1);
    host.stop().await;
}

#[tokio::test]
async fn a_slow_answer_comes_a_byte_a_second_until_the_call_is_cancelled() {
    let host = start(FaultBehaviour::SlowLoris, HostTransport::StreamableHttp).await;
    let client = client();
    let session = initialize(&client, &host).await;
    let mut body = post(&client, &host, Some(&session), call(1, "slow"))
        .await
        .into_body();
    let mut frame = async || {
        let frame = bounded("a frame", body.frame()).await.unwrap().unwrap();
        frame.into_data().unwrap()
    };
    assert_eq!(frame().await.len(), 1);
    let started = Instant::now();
    assert_eq!(frame().await.len(), 1);
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    let cancel = json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 1, "reason": "too slow" },
    });
    let accepted = post(&client, &host, Some(&session), cancel).await;
    assert_eq!(accepted.status(), StatusCode::ACCEPTED);
    let rest = frame().await;
    assert!(rest.len() > 1, "the rest comes at once: {rest:?}");
    assert_eq!(host.cancellations(), 1);
    host.stop().await;
}

#[tokio::test]
async fn swapped_ids_answer_each_call_under_the_others_id() {
    let host = start(FaultBehaviour::SwappedIds, HostTransport::StreamableHttp).await;
    let client = client();
    let session = initialize(&client, &host).await;
    let answer = async |id, label| {
        let response = post(&client, &host, Some(&session), call(id, label)).await;
        let body = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice::<Value>(&body).unwrap()
    };
    let (first, second) = tokio::join!(answer(1, "first"), answer(2, "second"));
    assert_eq!(first["id"], 2, "{first}");
    assert_eq!(first["result"]["content"][0]["text"], "first");
    assert_eq!(second["id"], 1, "{second}");
    assert_eq!(second["result"]["content"][0]["text"], "second");
    host.stop().await;
}
