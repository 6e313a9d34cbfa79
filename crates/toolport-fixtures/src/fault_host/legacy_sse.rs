//! [`LegacySseRoutes`]: the legacy HTTP+SSE transport by hand: `GET /sse` opens a session and
//! its event stream (the `endpoint` event first), `POST /messages?session_id=<id>` takes one
//! message with `202`, and every answer goes out on the session's stream.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use http::{Method, Request, Response, StatusCode};
use hyper::body::{Bytes, Incoming};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::body::{HostBody, channel, text, trickle};
use super::connection::ConnectionHandle;
use super::message::read_message;
use super::rpc::{Reply, reply, sse_event};
use super::state::Shared;

/// The path of the event stream.
pub(super) const PATH: &str = "/sse";
/// How long a crashing server takes to die after it accepted the call.
const BEFORE_CRASH: Duration = Duration::from_millis(50);

/// The legacy SSE routes of one generation.
#[derive(Debug)]
pub(super) struct LegacySseRoutes {
    shared: Arc<Shared>,
    dead: CancellationToken,
    sessions: Arc<Sessions>,
}

/// The sessions of one generation, by id.
#[derive(Debug, Default)]
struct Sessions {
    live: Mutex<HashMap<String, Arc<LegacySession>>>,
    /// Sessions whose endpoint answers 404 now, kept so that their streams stay open.
    forgotten: Mutex<Vec<Arc<LegacySession>>>,
    next: AtomicUsize,
}

/// One session: its event stream, written by one writer at a time, and the connection it is on.
#[derive(Debug)]
struct LegacySession {
    stream: tokio::sync::Mutex<mpsc::Sender<Bytes>>,
    connection: ConnectionHandle,
}

impl LegacySession {
    async fn send(&self, message: &Value) {
        let stream = self.stream.lock().await;
        let _ = stream.send(Bytes::from(sse_event(message))).await;
    }
}

impl LegacySseRoutes {
    pub(super) fn new(shared: Arc<Shared>, dead: CancellationToken) -> Self {
        Self {
            shared,
            dead,
            sessions: Arc::default(),
        }
    }

    pub(super) async fn handle(
        &self,
        request: Request<Incoming>,
        connection: ConnectionHandle,
    ) -> Response<HostBody> {
        match (request.method(), request.uri().path()) {
            (&Method::GET, PATH) => self.open(connection),
            (&Method::POST, "/messages") => self.post(request).await,
            _ => text(StatusCode::NOT_FOUND, "Not Found"),
        }
    }

    /// Opens a session and answers with its event stream.
    fn open(&self, connection: ConnectionHandle) -> Response<HostBody> {
        let number = self.sessions.next.fetch_add(1, Ordering::Relaxed) + 1;
        let id = format!("fault-sse-{number}");
        let (response, stream) = channel("text/event-stream");
        let endpoint = format!("event: endpoint\ndata: /messages?session_id={id}\n\n");
        let _ = stream.try_send(Bytes::from(endpoint));
        let session = LegacySession {
            stream: tokio::sync::Mutex::new(stream),
            connection,
        };
        self.sessions.live().insert(id, Arc::new(session));
        response
    }

    /// Takes one message for a live session with `202`, and answers it on the stream.
    async fn post(&self, request: Request<Incoming>) -> Response<HostBody> {
        let id = request.uri().query().and_then(|query| {
            query
                .split('&')
                .find_map(|pair| pair.strip_prefix("session_id="))
                .map(str::to_owned)
        });
        let Some(id) = id else {
            return text(StatusCode::BAD_REQUEST, "session_id is required");
        };
        let Some(session) = self.sessions.live().get(&id).cloned() else {
            return text(StatusCode::NOT_FOUND, "Could not find session");
        };
        let message = match read_message(request).await {
            Ok(message) => message,
            Err(refused) => return refused,
        };
        let shared = Arc::clone(&self.shared);
        let sessions = Arc::clone(&self.sessions);
        let dead = self.dead.clone();
        tokio::spawn(async move {
            let Some(reply) = reply(&shared, &message).await else {
                return;
            };
            answer(reply, &session, &dead, || sessions.forget(&id)).await;
        });
        text(StatusCode::ACCEPTED, "Accepted")
    }
}

/// Carries out `reply` on `session`'s stream; `forget` ends the session for posts.
async fn answer(
    reply: Reply,
    session: &LegacySession,
    dead: &CancellationToken,
    forget: impl FnOnce(),
) {
    match reply {
        Reply::Answer(answer) => session.send(&answer).await,
        Reply::AnswerThenExpire(answer) => {
            session.send(&answer).await;
            forget();
        }
        Reply::Unanswered => {}
        Reply::Crash => {
            tokio::time::sleep(BEFORE_CRASH).await;
            dead.cancel();
        }
        Reply::Trickle { answer, faster } => {
            let stream = session.stream.lock().await;
            trickle(&stream, Bytes::from(sse_event(&answer)), &faster).await;
        }
        Reply::Reset => session.connection.reset(),
        Reply::AfterUnsolicited {
            unsolicited,
            answer,
        } => {
            session.send(&unsolicited).await;
            session.send(&answer).await;
        }
    }
}

impl Sessions {
    fn live(&self) -> MutexGuard<'_, HashMap<String, Arc<LegacySession>>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes the endpoint of session `id` answer 404, and keeps its stream open.
    fn forget(&self, id: &str) {
        let session = self.live().remove(id);
        if let Some(session) = session {
            let mut forgotten = self.forgotten.lock().unwrap_or_else(|e| e.into_inner());
            forgotten.push(session);
        }
    }
}
