//! [`Reader`]: the task that owns the event stream. It hands `message` events to the transport
//! and, when the stream drops, reconnects a bounded number of times, continuing only if the
//! server still names the same endpoint (the same session).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use toolport_codec::{dropped_answer_error, oversized_answer_id};
use toolport_http_client::HttpError;
use toolport_http_client::sse::{Parsed, SseEvent, SseEvents};
use url::Url;

use crate::open::{Opened, open};
use crate::remote::Remote;
use crate::{SseError, SseServer};

/// A stream that lived this long, or delivered a message, earns a fresh reconnect budget.
const STABLE: Duration = Duration::from_secs(10);
/// The longest `retry:` honoured, so that a server cannot stall us for long.
const MAX_RETRY: Duration = Duration::from_secs(5);

/// Whether the event stream is up; posts wait while it reconnects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamState {
    Up,
    Reconnecting,
    Ended,
}

/// What handling one event led to.
enum Flow {
    Continue,
    /// The transport was dropped; nobody reads any more.
    Gone,
    /// The session is over, for this reason.
    End(String),
}

/// Owns the stream; runs until the session ends or the transport is dropped.
pub(crate) struct Reader {
    remote: Arc<Remote>,
    endpoint: Url,
    stream: SseEvents,
    /// The data of each `message` event, for the transport to decode.
    messages: mpsc::Sender<String>,
    state: Arc<watch::Sender<StreamState>>,
    /// Reconnect attempts spent since the last stable stream.
    attempts: u32,
}

impl Reader {
    pub(crate) fn new(
        remote: Arc<Remote>,
        opened: Opened,
        messages: mpsc::Sender<String>,
        state: Arc<watch::Sender<StreamState>>,
    ) -> (Self, Vec<SseEvent>) {
        let reader = Self {
            remote,
            endpoint: opened.endpoint,
            stream: opened.stream,
            messages,
            state,
            attempts: 0,
        };
        (reader, opened.early)
    }

    /// Delivers `early`, then the stream's messages, reconnecting as needed. Records why it
    /// ended in the diagnostics.
    pub(crate) async fn run(mut self, early: Vec<SseEvent>) {
        let ended = self.deliver_all(early).await;
        let reason = match ended {
            Some(flow) => flow,
            None => self.serve().await,
        };
        if let Flow::End(reason) = reason {
            tracing::info!(target = %self.remote.target, %reason, "the legacy SSE session ended");
            self.remote.diagnostics.record_end(reason);
        }
        self.state.send_replace(StreamState::Ended);
    }

    async fn deliver_all(&mut self, events: Vec<SseEvent>) -> Option<Flow> {
        for event in events {
            match self.handle(event).await {
                Flow::Continue => {}
                other => return Some(other),
            }
        }
        None
    }

    async fn serve(&mut self) -> Flow {
        loop {
            let started = Instant::now();
            let mut delivered = false;
            let end = loop {
                let event = match self.stream.next().await {
                    Ok(Parsed::Event(event)) => event,
                    Ok(Parsed::Oversized { event, head, tail }) => {
                        match self.oversized(event.as_deref(), &head, &tail).await {
                            Flow::Continue => continue,
                            other => return other,
                        }
                    }
                    Err(end) => break end,
                };
                delivered |= event.kind() == "message" && event.data.is_some();
                match self.handle(event).await {
                    Flow::Continue => {}
                    other => return other,
                }
            };
            if delivered || started.elapsed() >= STABLE {
                self.attempts = 0;
            }
            let why = end.to_string();
            tracing::info!(target = %self.remote.target, reason = %why, "the event stream dropped; reconnecting");
            self.remote.diagnostics.record_failure(why.clone());
            self.set_state(StreamState::Reconnecting);
            match self.reconnect(&why).await {
                Ok(flow @ (Flow::Gone | Flow::End(_))) => return flow,
                Ok(Flow::Continue) => self.set_state(StreamState::Up),
                Err(reason) => return Flow::End(reason),
            }
        }
    }

    /// Moves the stream to `state`, unless the session has ended meanwhile (a post found the
    /// session gone): nothing brings it back.
    fn set_state(&self, state: StreamState) {
        self.state.send_if_modified(|current| {
            let changes = *current != StreamState::Ended && *current != state;
            if changes {
                *current = state;
            }
            changes
        });
    }

    /// Up to [`SseServer::MAX_RECONNECTS`] attempts (less what earlier drops spent), each after
    /// the server's `retry:` or [`SseServer::RECONNECT_DELAY`], times the attempt number.
    async fn reconnect(&mut self, why: &str) -> Result<Flow, String> {
        let base = self
            .stream
            .retry()
            .map_or(SseServer::RECONNECT_DELAY, |retry| retry.min(MAX_RETRY));
        let last_event_id = self.stream.last_event_id().map(str::to_owned);
        let retry = self.stream.retry();
        let mut last_failure = None;
        while self.attempts < SseServer::MAX_RECONNECTS {
            self.attempts += 1;
            tokio::time::sleep(base * self.attempts).await;
            let opening = open(&self.remote, last_event_id.as_deref(), retry);
            let timeout = self.remote.connect_timeout;
            let result = match tokio::time::timeout(timeout, opening).await {
                Ok(result) => result,
                Err(_) => Err(SseError::EndpointTimeout { timeout }),
            };
            match result {
                Ok(opened) if opened.endpoint == self.endpoint => {
                    tracing::info!(target = %self.remote.target, attempt = self.attempts, "the event stream reconnected to the same session");
                    self.stream = opened.stream;
                    return Ok(self
                        .deliver_all(opened.early)
                        .await
                        .unwrap_or(Flow::Continue));
                }
                Ok(_) | Err(SseError::ForeignEndpoint { .. }) => {
                    return Err(format!(
                        "{why}; on reconnecting, the server named a new endpoint, so the session is gone"
                    ));
                }
                Err(error @ SseError::Http(HttpError::Unauthorized { .. })) => {
                    return Err(format!("{why}; the server refused to reopen it: {error}"));
                }
                Err(error) => {
                    tracing::debug!(target = %self.remote.target, attempt = self.attempts, %error, "reconnect failed");
                    last_failure = Some(error.to_string());
                }
            }
        }
        Err(match last_failure {
            Some(failure) => format!(
                "{why}; gave up after {} reconnect attempts, the last failed: {failure}",
                SseServer::MAX_RECONNECTS
            ),
            None => format!("{why}; no reconnect attempts left"),
        })
    }

    async fn handle(&mut self, event: SseEvent) -> Flow {
        let Some(data) = event.data else {
            return Flow::Continue; // no data: nothing to act on
        };
        match event.event.as_deref().unwrap_or("message") {
            "message" => match self.messages.send(data).await {
                Ok(()) => Flow::Continue,
                Err(_) => Flow::Gone,
            },
            "endpoint" => match crate::url::resolve_endpoint(&self.remote.url, &data) {
                Ok(endpoint) if endpoint == self.endpoint => Flow::Continue,
                _ => Flow::End("the server named a new endpoint mid-stream".to_owned()),
            },
            other => {
                tracing::debug!(target = %self.remote.target, kind = %other, "ignoring an event");
                Flow::Continue
            }
        }
    }

    /// Records an event dropped for its size, of type `kind`, whose data began with `head` and
    /// ended with `tail`. If it was an answer whose id either end shows, the request it answers
    /// gets an error naming the limit in its place, instead of waiting for its timeout.
    async fn oversized(&mut self, kind: Option<&str>, head: &[u8], tail: &[u8]) -> Flow {
        let kind = kind.unwrap_or("message");
        let limit = self.remote.limit;
        let failure = format!(
            "dropped a `{kind}` event larger than the limit of {limit} bytes (max_response_bytes)"
        );
        let answers = (kind == "message")
            .then(|| oversized_answer_id(head, tail))
            .flatten();
        tracing::warn!(target = %self.remote.target, answers = ?answers, "{failure}");
        self.remote.diagnostics.record_failure(failure.clone());
        let Some(id) = answers else {
            return Flow::Continue;
        };
        let error = dropped_answer_error(&id, &format!("the server's answer: {failure}"));
        match self
            .messages
            .send(String::from_utf8_lossy(&error).into_owned())
            .await
        {
            Ok(()) => Flow::Continue,
            Err(_) => Flow::Gone,
        }
    }
}
