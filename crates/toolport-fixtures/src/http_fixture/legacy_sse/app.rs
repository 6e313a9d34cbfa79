//! [`LegacySseApp`]: the routes of one legacy SSE server generation: `GET /sse` opens a session
//! and its event stream, `POST /messages?session_id=<id>` feeds one message to its server.

use std::sync::{Arc, Mutex};

use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use rmcp::ServerHandler;
use rmcp::model::ClientJsonRpcMessage;

use super::session::Sessions;
use super::stream::SseStream;
use crate::http_fixture::body::{FixtureBody, text_response};
use crate::http_fixture::host::{App, ResponseFuture};

/// The largest POST body accepted.
const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// How streams opened from now on behave; shared by every generation of a server.
#[derive(Debug, Clone, Default)]
pub(super) struct StreamOptions {
    /// Where the endpoint event points instead of `/messages` (the session id is appended).
    pub(super) endpoint: Option<String>,
    /// End each stream after this many events, the endpoint event included.
    pub(super) drop_after: Option<usize>,
}

/// One generation: its sessions, and the factory for their servers.
pub(super) struct LegacySseApp<F> {
    factory: Arc<F>,
    options: Arc<Mutex<StreamOptions>>,
    sessions: Arc<Sessions>,
}

impl<S, F> LegacySseApp<F>
where
    S: ServerHandler,
    F: Fn() -> S + Send + Sync + 'static,
{
    pub(super) fn new(factory: Arc<F>, options: Arc<Mutex<StreamOptions>>) -> Self {
        Self {
            factory,
            options,
            sessions: Sessions::new(),
        }
    }

    /// Opens a session and answers with its event stream.
    fn open_stream(&self) -> Response<FixtureBody> {
        let options = self
            .options
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let (id, messages, guard) = self.sessions.open((self.factory)());
        let base = options.endpoint.as_deref().unwrap_or("/messages");
        let separator = if base.contains('?') { '&' } else { '?' };
        let endpoint = format!("{base}{separator}session_id={id}");
        let mut response =
            Response::new(SseStream::new(endpoint, messages, options.drop_after, guard).boxed());
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }
}

impl<S, F> App for LegacySseApp<F>
where
    S: ServerHandler,
    F: Fn() -> S + Send + Sync + 'static,
{
    fn handle(&self, request: Request<Incoming>) -> ResponseFuture {
        match (request.method(), request.uri().path()) {
            (&Method::GET, "/sse") => {
                let response = self.open_stream();
                Box::pin(async { response })
            }
            (&Method::POST, "/messages") => {
                Box::pin(post_message(Arc::clone(&self.sessions), request))
            }
            _ => Box::pin(async { text_response(StatusCode::NOT_FOUND, "Not Found") }),
        }
    }

    fn shutdown(&self) {
        self.sessions.close_all();
    }
}

/// Hands one POSTed JSON-RPC message to its session's server and answers 202 Accepted.
async fn post_message(
    sessions: Arc<Sessions>,
    request: Request<Incoming>,
) -> Response<FixtureBody> {
    let Some(id) = session_id(request.uri().query()) else {
        return text_response(StatusCode::BAD_REQUEST, "session_id is required");
    };
    let Some(inbox) = sessions.inbox(id) else {
        return text_response(StatusCode::NOT_FOUND, "Could not find session");
    };
    let Ok(body) = Limited::new(request.into_body(), MAX_MESSAGE_BYTES)
        .collect()
        .await
    else {
        return text_response(StatusCode::BAD_REQUEST, "Could not read the body");
    };
    let Ok(message) = serde_json::from_slice::<ClientJsonRpcMessage>(&body.to_bytes()) else {
        return text_response(StatusCode::BAD_REQUEST, "Could not parse the message");
    };
    if inbox.send(message).await.is_err() {
        return text_response(StatusCode::NOT_FOUND, "Could not find session");
    }
    text_response(StatusCode::ACCEPTED, "Accepted")
}

/// The `session_id` parameter of a query string.
fn session_id(query: Option<&str>) -> Option<&str> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("session_id="))
        .filter(|id| !id.is_empty())
}
