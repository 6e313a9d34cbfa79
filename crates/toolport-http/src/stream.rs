//! The readers of event streams: the stream answering one POST, resumed with `Last-Event-ID`
//! when it breaks before its answer (on 2026-07-28, which resumes nothing, its request alone
//! fails), and the session's listening `GET` stream, reopened when the server closes it.

use std::sync::Arc;
use std::time::Duration;

use http::header::ACCEPT;
use http::{HeaderName, HeaderValue, Method, StatusCode};
use hyper::body::Incoming;
use rmcp::model::{
    ClientJsonRpcMessage, GetExtensions as _, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::service::InboundStreamOrigin;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use toolport_codec::ServerMessageDecoder;
use toolport_http_client::HttpError;
use toolport_http_client::sse::{Parsed, SseEvents, SseParser, StreamEnd};
use toolport_http_client::toolkit::{content_type, is_media_type, refusal};

use crate::addressing::{Addressed, address, lost_under};
use crate::error_answer::error_answer;
use crate::link::Link;

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
const ACCEPT_SSE: HeaderValue = HeaderValue::from_static("text/event-stream");
/// Attempts to resume or reopen a stream in a row, without a message between them.
const MAX_ATTEMPTS: u32 = 5;
/// The wait before reopening a stream when the server named none with `retry:`.
const DEFAULT_RETRY: Duration = Duration::from_millis(500);
/// The longest `retry:` honoured, so that a server cannot stall us for long.
const MAX_RETRY: Duration = Duration::from_secs(5);
/// A listening stream that lived this long (or delivered a message) earns fresh attempts.
const STABLE: Duration = Duration::from_secs(10);
/// How long a stream may stay open after it delivered its answer (the server should close
/// it), so that its connection can go back to the pool.
const DRAIN: Duration = Duration::from_millis(100);

/// Reads the stream answering `message` in a task of its own, until the answer is in.
pub(crate) fn spawn_answer_stream(
    link: Arc<Link>,
    body: Incoming,
    message: &ClientJsonRpcMessage,
    answering: Option<RequestId>,
    token: CancellationToken,
) {
    let mut decoder = link.decoder();
    decoder.note_sent(message);
    let reader = Reader {
        events: SseEvents::new(body, link.remote.limit),
        decoder,
        answering,
        delivered: false,
        link,
    };
    tokio::spawn(async move {
        tokio::select! {
            biased;
            () = token.cancelled() => {}
            () = reader.answer() => {}
        }
    });
}

/// Opens the session's listening stream in a task of its own, for the messages the server
/// sends outside any answer. It ends with the transport.
pub(crate) fn spawn_listening_stream(link: Arc<Link>) {
    let token = link.in_flight.untracked();
    tokio::spawn(async move {
        tokio::select! {
            biased;
            () = token.cancelled() => {}
            () = listen(link) => {}
        }
    });
}

/// One open stream and what its messages answer.
struct Reader {
    events: SseEvents,
    decoder: ServerMessageDecoder,
    /// The request this stream answers.
    answering: Option<RequestId>,
    /// Whether a message was delivered since the last look: progress that earns a stream
    /// fresh attempts.
    delivered: bool,
    link: Arc<Link>,
}

/// How reading a stream ended.
enum Read {
    /// The awaited answer arrived.
    Answered,
    /// The stream ended (or broke) first.
    Ended(StreamEnd),
}

impl Reader {
    /// Reads until the answer is in, resuming the stream when it ends first and the server
    /// gave its events ids. On 2025-11-25 a stream that cannot be resumed ends the session;
    /// on 2026-07-28, which resumes nothing, it fails its request alone, as a lost answer
    /// (`HttpDiagnostics::lose_answer`). Either way the request's outcome is unknown, and the session
    /// above decides whether to send it again.
    async fn answer(mut self) {
        let mut attempts = 0;
        loop {
            let end = match self.read().await {
                Read::Answered => break,
                Read::Ended(end) => end,
            };
            let Some(id) = self.answering.clone() else {
                break;
            };
            if self.link.remote.session.has_standard_headers() {
                // 2026-07-28 streams cannot be resumed: this request alone has lost its
                // answer, and the session decides whether to send it again.
                let reason = format!("the answer to request {id} broke off: {end}");
                let lost = self.link.remote.diagnostics.lose_answer(id, reason);
                self.link.deliver(lost).await;
                break;
            }
            let Some(last_event_id) = self.events.last_event_id().map(str::to_owned) else {
                let reason = format!("the answer to request {id} broke off: {end}");
                self.link.end(reason).await;
                return;
            };
            if std::mem::take(&mut self.delivered) {
                attempts = 0;
            }
            attempts += 1;
            if attempts > MAX_ATTEMPTS {
                let reason = format!(
                    "the answer to request {id} broke off, and resuming it failed {MAX_ATTEMPTS} times: {end}"
                );
                self.link.end(reason).await;
                return;
            }
            tokio::time::sleep(retry_delay(self.events.retry())).await;
            tracing::debug!(%id, %last_event_id, attempts, "resuming an answer's event stream");
            match open(&self.link, Some(&last_event_id)).await {
                Ok(Opened::Stream(body)) => {
                    let parser = SseParser::new(self.link.remote.limit)
                        .resuming(Some(last_event_id), self.events.retry());
                    self.events = SseEvents::with_parser(body, parser);
                }
                Ok(Opened::Unsupported) => {
                    let reason = format!(
                        "the answer to request {id} broke off, and the server does not resume streams: {end}"
                    );
                    self.link.end(reason).await;
                    return;
                }
                Err(OpenError::SessionGone) => {
                    let reason = format!(
                        "the server forgot the session (HTTP 404) while the answer to request {id} was resumed"
                    );
                    self.link.end(reason).await;
                    return;
                }
                Err(OpenError::Failed(error)) => {
                    tracing::debug!(%id, %error, "resuming an answer's event stream failed");
                }
            }
        }
        if let Some(id) = &self.answering {
            self.link.in_flight.finish(id);
        }
        // The server should close the stream now; a little patience keeps its connection.
        let _ =
            tokio::time::timeout(DRAIN, async { while self.events.next().await.is_ok() {} }).await;
    }

    /// Delivers the stream's messages until it ends or carries the awaited answer.
    async fn read(&mut self) -> Read {
        loop {
            let event = match self.events.next().await {
                Ok(Parsed::Event(event)) => event,
                Ok(Parsed::Oversized { .. }) => {
                    let error = HttpError::TooLarge {
                        limit: self.events.limit(),
                    };
                    self.link.remote.diagnostics.record(error.to_string());
                    if let Some(id) = self.answering.clone() {
                        self.link
                            .deliver(error_answer(id, &error.to_string()))
                            .await;
                        return Read::Answered;
                    }
                    return Read::Ended(StreamEnd::Closed);
                }
                Err(end) => return Read::Ended(end),
            };
            if event.kind() != "message" {
                continue;
            }
            let Some(data) = event.data else {
                continue;
            };
            let Some(mut message) = decode(&mut self.decoder, &self.link, &data) else {
                continue;
            };
            let mut answered = false;
            if let Some(expected) = &self.answering {
                message = match address(message, expected) {
                    Addressed::NotAnAnswer(message) => message,
                    Addressed::Ours(answer) => {
                        answered = true;
                        answer
                    }
                    // Another request's answer came here: that request must not take it,
                    // and this one's answer is lost.
                    Addressed::Other(other) if self.link.in_flight.awaits(&other) => {
                        answered = true;
                        lost_under(&self.link, expected, &other)
                    }
                    Addressed::Other(other) => {
                        skip_stray(&self.link, &other);
                        continue;
                    }
                };
            }
            if let JsonRpcMessage::Request(request) = &mut message {
                let origin = match &self.answering {
                    Some(id) => InboundStreamOrigin::OutboundRequest(id.clone()),
                    None => InboundStreamOrigin::Unassociated,
                };
                request.request.extensions_mut().insert(origin);
            }
            self.link.deliver(message).await;
            self.delivered = true;
            if answered {
                return Read::Answered;
            }
        }
    }
}

/// The listening stream: opened after the handshake, reopened (resuming where it left off)
/// whenever the server closes it, until attempts run out without a stable stream. `405` means
/// the server has none; `404` means it forgot the session, which ends it.
async fn listen(link: Arc<Link>) {
    let mut last_event_id: Option<String> = None;
    let mut retry = None;
    let mut attempts = 0;
    loop {
        let opened_at = Instant::now();
        match open(&link, last_event_id.as_deref()).await {
            Ok(Opened::Stream(body)) => {
                let parser =
                    SseParser::new(link.remote.limit).resuming(last_event_id.take(), retry);
                let mut reader = Reader {
                    events: SseEvents::with_parser(body, parser),
                    decoder: link.decoder(),
                    answering: None,
                    delivered: false,
                    link: link.clone(),
                };
                if let Read::Ended(end) = reader.read().await {
                    tracing::debug!(%end, "the listening stream ended");
                }
                last_event_id = reader.events.last_event_id().map(str::to_owned);
                retry = reader.events.retry();
                if reader.delivered || opened_at.elapsed() >= STABLE {
                    attempts = 0;
                }
            }
            Ok(Opened::Unsupported) => {
                tracing::debug!("the server offers no listening stream");
                return;
            }
            Err(OpenError::SessionGone) => {
                link.stop_sending("the server forgot the session (HTTP 404)");
                return;
            }
            Err(OpenError::Failed(error)) => {
                tracing::debug!(%error, "opening the listening stream failed");
                if matches!(error, HttpError::Unauthorized { .. }) {
                    return;
                }
            }
        }
        attempts += 1;
        if attempts > MAX_ATTEMPTS {
            tracing::warn!(
                "gave up reopening the listening stream; server notifications outside answers are lost"
            );
            return;
        }
        tokio::time::sleep(retry_delay(retry)).await;
    }
}

/// What a `GET` for a stream found.
enum Opened {
    Stream(Incoming),
    /// `405`: the server offers no stream here.
    Unsupported,
}

/// Why a stream could not be opened.
#[derive(Debug, thiserror::Error)]
enum OpenError {
    #[error("the server forgot the session")]
    SessionGone,
    #[error(transparent)]
    Failed(#[from] HttpError),
}

/// Opens an event stream with `GET`, resuming after `last_event_id` when given.
async fn open(link: &Link, last_event_id: Option<&str>) -> Result<Opened, OpenError> {
    let remote = &link.remote;
    let mut request = remote
        .request(Method::GET, bytes::Bytes::new(), None, None)
        .await?;
    let headers = request.headers_mut();
    headers.insert(ACCEPT, ACCEPT_SSE);
    if let Some(id) = last_event_id.and_then(|id| HeaderValue::from_str(id).ok()) {
        headers.insert(LAST_EVENT_ID, id);
    }
    let response = remote.send(request).await?;
    match response.status() {
        StatusCode::METHOD_NOT_ALLOWED => return Ok(Opened::Unsupported),
        StatusCode::NOT_FOUND if remote.session.has_session() => {
            return Err(OpenError::SessionGone);
        }
        status if !status.is_success() => {
            let error = refusal(response).await;
            remote.diagnostics.record(error.to_string());
            return Err(error.into());
        }
        _ => {}
    }
    if !is_media_type(response.headers(), "text/event-stream") {
        let found = content_type(response.headers());
        let error = HttpError::Status {
            status: response.status().as_u16(),
            body: format!("a stream was asked for, and the content type is {found:?}"),
        };
        return Err(error.into());
    }
    Ok(Opened::Stream(response.into_body()))
}

/// A stream's message, decoded; one that is not JSON-RPC is skipped with a warning.
fn decode(
    decoder: &mut ServerMessageDecoder,
    link: &Link,
    data: &str,
) -> Option<ServerJsonRpcMessage> {
    match decoder.decode(data.as_bytes()) {
        Ok(message) => message,
        Err(error) => {
            let start: String = data.chars().take(200).collect();
            tracing::warn!(%error, data = %start, "skipped an event that is not JSON-RPC");
            link.remote
                .diagnostics
                .record(format!("skipped an event that is not JSON-RPC: {error}"));
            None
        }
    }
}

/// A response on an answer stream to an id no request awaits (none we sent, or one given up
/// on): skipped, as nobody could take it.
fn skip_stray(link: &Link, id: &RequestId) {
    tracing::warn!(%id, "skipped a response to an id no request awaits");
    link.remote.diagnostics.record(format!(
        "skipped a response to the id {id}, which no request awaits"
    ));
}

/// The wait before reopening: the server's `retry:`, within bounds.
fn retry_delay(retry: Option<Duration>) -> Duration {
    retry.unwrap_or(DEFAULT_RETRY).min(MAX_RETRY)
}
