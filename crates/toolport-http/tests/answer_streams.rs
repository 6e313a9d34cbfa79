//! Answer streams that break before their answer, against a scripted Streamable HTTP server on
//! 127.0.0.1: on 2025-11-25, resumed from the last event id when the server gave one, and a
//! call of unknown outcome when it gave none; on 2026-07-28, which resumes nothing, the call
//! alone fails (or is sent again with a new id when it is safe to repeat) and the connection
//! carries on.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use toolport_http::HttpServer;
use toolport_session::{CallOptions, CallReplay, McpSession};
use toolport_testkit::{bounded, call_params, first_text};

/// How the scripted server answers `tools/call`.
#[derive(Clone, Copy)]
enum CallAnswer {
    /// An event stream with one event (id `7`) that carries no answer, then the end. The answer
    /// comes on a `GET` that resumes after event `7`.
    Resumable,
    /// An event stream with one event and no id, then the end: nothing to resume.
    CutOff,
    /// As `CutOff` for the first call; later calls are answered.
    CutOffOnce,
}

/// What the scripted server saw: each `GET`'s `Last-Event-ID`, the id of each call, and how
/// many times it was sent `server/discover`.
#[derive(Default)]
struct Seen {
    resumed_after: Vec<Option<String>>,
    call_ids: Vec<Value>,
    discovers: usize,
}

/// Serves one session on 127.0.0.1 until the test ends; returns its URL.
async fn serve(answer: CallAnswer, seen: Arc<Mutex<Seen>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = seen.clone();
            let service = service_fn(move |request| respond(request, answer, seen.clone()));
            tokio::spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
        }
    });
    url
}

async fn respond(
    request: Request<Incoming>,
    answer: CallAnswer,
    seen: Arc<Mutex<Seen>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    if request.method() == Method::GET {
        let last = request.headers().get("last-event-id");
        let last = last.map(|value| value.to_str().unwrap().to_owned());
        let mut seen = seen.lock().unwrap();
        seen.resumed_after.push(last.clone());
        return Ok(match last.as_deref() {
            Some("7") => {
                let call = seen.call_ids.last().cloned().unwrap_or_default();
                events(&format!("id: 8\ndata: {}\n\n", call_answer(&call)))
            }
            // The listening stream: none here.
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        });
    }
    if request.method() == Method::DELETE {
        return Ok(status(StatusCode::OK));
    }
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let message: Value = serde_json::from_slice(&body).unwrap();
    let id = message["id"].clone();
    Ok(match message["method"].as_str().unwrap_or_default() {
        "initialize" => {
            let result = json!({
                "protocolVersion": "2025-11-25",
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "scripted", "version": "1" },
            });
            let mut response = json_answer(&id, result);
            let session = http::HeaderValue::from_static("session-1");
            response.headers_mut().insert("mcp-session-id", session);
            response
        }
        "server/discover" => {
            seen.lock().unwrap().discovers += 1;
            let result = json!({
                "resultType": "complete",
                "supportedVersions": ["2026-07-28"],
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "scripted", "version": "1" },
                "ttlMs": 0,
                "cacheScope": "private",
            });
            json_answer(&id, result)
        }
        "tools/call" => {
            let calls = {
                let mut seen = seen.lock().unwrap();
                seen.call_ids.push(id.clone());
                seen.call_ids.len()
            };
            let progress = json!({
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": { "level": "info", "data": "working" },
            });
            match answer {
                CallAnswer::Resumable => events(&format!("id: 7\nretry: 20\ndata: {progress}\n\n")),
                CallAnswer::CutOffOnce if calls > 1 => {
                    json_answer(&id, call_answer(&id)["result"].clone())
                }
                CallAnswer::CutOff | CallAnswer::CutOffOnce => {
                    events(&format!("data: {progress}\n\n"))
                }
            }
        }
        _ if id.is_null() => status(StatusCode::ACCEPTED),
        other => panic!("the scripted server does not expect {other}"),
    })
}

/// The answer to the `tools/call` with id `id`.
fn call_answer(id: &Value) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": "resumed" }] },
    })
}

fn json_answer(id: &Value, result: Value) -> Response<Full<Bytes>> {
    let body = json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string();
    let mut response = Response::new(Full::new(Bytes::from(body)));
    let json = http::HeaderValue::from_static("application/json");
    response.headers_mut().insert("content-type", json);
    response
}

/// An event stream holding `events`, then its end.
fn events(events: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(events.to_owned())));
    let sse = http::HeaderValue::from_static("text/event-stream");
    response.headers_mut().insert("content-type", sse);
    response
}

fn status(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = status;
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_stream_cut_before_its_answer_resumes_after_the_last_event() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let url = serve(CallAnswer::Resumable, seen.clone()).await;
    let session = McpSession::builder(HttpServer::new(url))
        // Resuming a stream with `Last-Event-ID` is 2025-11-25's; 2026-07-28 has none.
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build();
    let call = session.call_tool(call_params("echo", json!({})), CallOptions::default());
    let result = bounded("tools/call", call).await.expect("resumed");
    assert_eq!(first_text(&result), "resumed");
    let resumed_after = seen.lock().unwrap().resumed_after.clone();
    assert!(
        resumed_after.contains(&Some("7".to_owned())),
        "{resumed_after:?}"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_stream_cut_without_event_ids_leaves_the_call_uncertain() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let url = serve(CallAnswer::CutOff, seen.clone()).await;
    let session = McpSession::builder(HttpServer::new(url))
        // Resuming a stream with `Last-Event-ID` is 2025-11-25's; 2026-07-28 has none.
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build();
    let call = session.call_tool(call_params("echo", json!({})), CallOptions::default());
    let error = bounded("tools/call", call).await.unwrap_err();
    assert!(error.is_outcome_uncertain(), "{error}");
    let message = error.to_string();
    assert!(message.contains("broke off"), "{message}");
    let resumed_after = seen.lock().unwrap().resumed_after.clone();
    assert!(
        !resumed_after.iter().any(Option::is_some),
        "nothing to resume: {resumed_after:?}"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_2026_07_28_a_cut_answer_fails_its_call_alone_and_the_connection_carries_on() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let url = serve(CallAnswer::CutOffOnce, seen.clone()).await;
    let session = McpSession::builder(HttpServer::new(url))
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .build();

    let call = session.call_tool(call_params("echo", json!({})), CallOptions::default());
    let error = bounded("tools/call", call).await.unwrap_err();
    assert!(error.is_outcome_uncertain(), "{error}");
    assert!(error.to_string().contains("broke off"), "{error}");

    let call = session.call_tool(call_params("echo", json!({})), CallOptions::default());
    let result = bounded("tools/call", call).await.unwrap();
    assert_eq!(first_text(&result), "resumed");
    {
        let seen = seen.lock().unwrap();
        assert_eq!(
            seen.discovers, 1,
            "the same connection carried the next call"
        );
        assert_eq!(
            seen.call_ids.len(),
            2,
            "the uncertain call was not sent again"
        );
    }
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_2026_07_28_a_call_safe_to_repeat_is_sent_again_with_a_new_id() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let url = serve(CallAnswer::CutOffOnce, seen.clone()).await;
    let session = McpSession::builder(HttpServer::new(url))
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .build();

    let options = CallOptions::default().replay(CallReplay::OnConnectionLoss);
    let call = session.call_tool(call_params("echo", json!({})), options);
    let result = bounded("tools/call", call).await.unwrap();

    assert_eq!(first_text(&result), "resumed");
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.call_ids.len(), 2);
        assert_ne!(seen.call_ids[0], seen.call_ids[1], "a new id");
        assert_eq!(seen.discovers, 1);
    }
    session.close().await;
}
