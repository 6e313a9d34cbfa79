//! [`RecordedRequest`] and the log in which a fixture server keeps every HTTP request it received.

use std::time::Duration;

use http::{HeaderMap, Method, Request};
use tokio::sync::watch;

/// One HTTP request as a fixture server received it: enough to check what a client sent
/// (`Authorization`, custom headers, `Mcp-Session-Id`, a `DELETE` on close), without its body.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RecordedRequest {
    /// The request method.
    pub method: Method,
    /// The path and query, such as `/mcp` or `/messages?session_id=sse-1`.
    pub path: String,
    /// Every request header, as sent.
    pub headers: HeaderMap,
}

impl RecordedRequest {
    /// The value of the header `name` (case-insensitive), if present and valid text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The `Mcp-Session-Id` header, if any.
    pub fn session_id(&self) -> Option<&str> {
        self.header("mcp-session-id")
    }
}

/// The requests a server received, oldest first; it outlives restarts.
#[derive(Debug)]
pub(crate) struct RequestLog(watch::Sender<Vec<RecordedRequest>>);

impl RequestLog {
    pub(crate) fn new() -> Self {
        Self(watch::Sender::new(Vec::new()))
    }

    /// Appends `request` and wakes whoever waits for it.
    pub(crate) fn record<B>(&self, request: &Request<B>) {
        let path = request
            .uri()
            .path_and_query()
            .map_or_else(|| request.uri().path().to_owned(), ToString::to_string);
        let recorded = RecordedRequest {
            method: request.method().clone(),
            path,
            headers: request.headers().clone(),
        };
        self.0.send_modify(|requests| requests.push(recorded));
    }

    /// Every request so far.
    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        self.0.borrow().clone()
    }

    /// The first request matching `matches`, waiting up to `timeout` for it to arrive.
    pub(crate) async fn wait_for(
        &self,
        matches: impl Fn(&RecordedRequest) -> bool,
        timeout: Duration,
    ) -> Option<RecordedRequest> {
        let mut receiver = self.0.subscribe();
        let requests = tokio::time::timeout(timeout, receiver.wait_for(|r| r.iter().any(&matches)))
            .await
            .ok()?
            .ok()?;
        requests.iter().find(|r| matches(r)).cloned()
    }
}
