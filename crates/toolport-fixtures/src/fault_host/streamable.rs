//! [`StreamableRoutes`]: Streamable HTTP by hand on `/mcp`: `POST` answered with JSON (or an
//! event stream when the fault needs one), sessions by `Mcp-Session-Id`, `DELETE`, and `405`
//! for the listening stream.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use http::{HeaderValue, Method, Request, Response, StatusCode};
use hyper::body::{Bytes, Incoming};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::body::{HostBody, channel, text, trickle, whole};
use super::connection::ConnectionHandle;
use super::message::read_message;
use super::rpc::{Reply, log_notification, reply, sse_event};
use super::state::Shared;

/// The path of the MCP endpoint.
pub(super) const PATH: &str = "/mcp";
const SESSION_ID: &str = "mcp-session-id";
/// How long a stream that is to be reset stays up after its first event.
const BEFORE_RESET: Duration = Duration::from_millis(100);

/// The Streamable HTTP routes of one generation.
#[derive(Debug)]
pub(super) struct StreamableRoutes {
    shared: Arc<Shared>,
    dead: CancellationToken,
    sessions: Mutex<HashSet<String>>,
    next_session: AtomicUsize,
}

impl StreamableRoutes {
    pub(super) fn new(shared: Arc<Shared>, dead: CancellationToken) -> Self {
        Self {
            shared,
            dead,
            sessions: Mutex::new(HashSet::new()),
            next_session: AtomicUsize::new(1),
        }
    }

    pub(super) async fn handle(
        &self,
        request: Request<Incoming>,
        connection: ConnectionHandle,
    ) -> Response<HostBody> {
        if request.uri().path() != PATH {
            return text(StatusCode::NOT_FOUND, "Not Found");
        }
        let session = request
            .headers()
            .get(SESSION_ID)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        match *request.method() {
            Method::POST => self.post(request, session, connection).await,
            Method::DELETE => {
                if let Some(session) = session {
                    self.sessions().remove(&session);
                }
                text(StatusCode::OK, "")
            }
            Method::GET => text(StatusCode::METHOD_NOT_ALLOWED, "no listening stream"),
            _ => text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed"),
        }
    }

    /// One message: `initialize` opens a session, anything else needs a live one.
    async fn post(
        &self,
        request: Request<Incoming>,
        session: Option<String>,
        connection: ConnectionHandle,
    ) -> Response<HostBody> {
        let message = match read_message(request).await {
            Ok(message) => message,
            Err(refused) => return refused,
        };
        let assigned = if message.get("method").and_then(Value::as_str) == Some("initialize") {
            let number = self.next_session.fetch_add(1, Ordering::Relaxed);
            let id = format!("fault-session-{number}");
            self.sessions().insert(id.clone());
            Some(id)
        } else {
            match &session {
                None => return text(StatusCode::BAD_REQUEST, "Mcp-Session-Id is required"),
                Some(id) if !self.sessions().contains(id) => {
                    return text(StatusCode::NOT_FOUND, "session not found");
                }
                Some(_) => None,
            }
        };
        let Some(reply) = reply(&self.shared, &message).await else {
            return text(StatusCode::ACCEPTED, "");
        };
        let mut response = match reply {
            Reply::Answer(answer) => self.answer(&answer),
            Reply::AnswerThenExpire(answer) => {
                if let Some(session) = &session {
                    self.sessions().remove(session);
                }
                self.answer(&answer)
            }
            Reply::Unanswered => std::future::pending().await,
            Reply::Crash => {
                self.dead.cancel();
                std::future::pending().await
            }
            Reply::Trickle { answer, faster } => {
                let (response, sender) = channel("application/json");
                let bytes = Bytes::from(answer.to_string());
                tokio::spawn(async move { trickle(&sender, bytes, &faster).await });
                response
            }
            Reply::Reset => {
                let (response, sender) = channel("text/event-stream");
                let first = sse_event(&log_notification("the answer follows"));
                let _ = sender.try_send(Bytes::from(first));
                tokio::spawn(async move {
                    tokio::time::sleep(BEFORE_RESET).await;
                    connection.reset();
                    drop(sender);
                });
                response
            }
            Reply::AfterUnsolicited {
                unsolicited,
                answer,
            } => {
                let (response, sender) = channel("text/event-stream");
                let events = format!("{}{}", sse_event(&unsolicited), sse_event(&answer));
                let _ = sender.try_send(Bytes::from(events));
                response
            }
        };
        if let Some(id) = assigned.and_then(|id| HeaderValue::from_str(&id).ok()) {
            response.headers_mut().insert(SESSION_ID, id);
        }
        response
    }

    /// `answer` as a JSON body, or as an event stream of one event.
    fn answer(&self, answer: &Value) -> Response<HostBody> {
        if !self.shared.answers_in_streams() {
            return json(answer);
        }
        let (response, sender) = channel("text/event-stream");
        let _ = sender.try_send(Bytes::from(sse_event(answer)));
        response
    }

    fn sessions(&self) -> MutexGuard<'_, HashSet<String>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn json(message: &Value) -> Response<HostBody> {
    whole(StatusCode::OK, "application/json", message.to_string())
}
