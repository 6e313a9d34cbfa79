//! Raw HTTP for the fixture server tests: a hyper-util client, JSON-RPC bodies, and a reader
//! for server-sent events.

use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

use toolport_testkit::bounded;

/// A plain HTTP/1 client.
pub type HttpClient = Client<HttpConnector, Full<Bytes>>;

/// A new client with its own connection pool.
pub fn client() -> HttpClient {
    Client::builder(TokioExecutor::new()).build_http()
}

/// An `initialize` request asking for `protocol_version`.
pub fn initialize(protocol_version: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": protocol_version,
            "capabilities": {},
            "clientInfo": { "name": "toolport-fixtures-tests", "version": "0.0.0" }
        }
    })
}

/// The `notifications/initialized` notification.
pub fn initialized() -> Value {
    json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })
}

/// A `tools/list` request.
pub fn list_tools(id: u64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list" })
}

/// Sends `method` to `url` with `headers` and, if given, a JSON body, as an MCP client would.
pub async fn send(
    client: &HttpClient,
    method: Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Response<Incoming> {
    let mut request = Request::builder()
        .method(method)
        .uri(url)
        .header("accept", "application/json, text/event-stream");
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = body.map_or_else(Bytes::new, |body| Bytes::from(body.to_string()));
    bounded(
        "an HTTP request",
        client.request(request.body(Full::new(body)).unwrap()),
    )
    .await
    .expect("the request is answered")
}

/// POSTs `body` to `url`.
pub async fn post(
    client: &HttpClient,
    url: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Response<Incoming> {
    send(client, Method::POST, url, headers, Some(body)).await
}

/// The response's status, and its whole body as text.
pub async fn status_and_text(response: Response<Incoming>) -> (StatusCode, String) {
    let status = response.status();
    let body = bounded("a response body", response.into_body().collect())
        .await
        .expect("the body arrives")
        .to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

/// The header `name` of `response`, as text.
pub fn header<'a>(response: &'a Response<Incoming>, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// The JSON-RPC messages in an SSE body's `data` lines, skipping empty (priming) events.
pub fn sse_messages(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| !data.is_empty())
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, `message` if absent.
    pub event: String,
    /// The `data:` lines, joined with newlines.
    pub data: String,
}

/// Reads events off an open `text/event-stream` response, one at a time.
pub struct SseReader {
    body: Incoming,
    buffer: String,
}

impl SseReader {
    /// Reads `response`'s body as events.
    pub fn new(response: Response<Incoming>) -> Self {
        Self {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event, or `None` once the stream ends or breaks.
    pub async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = SseEvent {
                    event: "message".to_owned(),
                    data: String::new(),
                };
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(name) = line.strip_prefix("event:") {
                        event.event = name.trim().to_owned();
                    } else if let Some(line) = line.strip_prefix("data:") {
                        data.push(line.trim_start());
                    }
                }
                event.data = data.join("\n");
                return Some(event);
            }
            let frame = bounded("an SSE frame", self.body.frame()).await?.ok()?;
            if let Ok(chunk) = frame.into_data() {
                self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            }
        }
    }
}
