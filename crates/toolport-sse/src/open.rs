//! Opening the event stream: `GET` with the assembled headers, then waiting for the `endpoint`
//! event and checking its origin.

use bytes::Bytes;
use http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderName, HeaderValue, Request};
use http_body_util::Full;
use toolport_core::NotDelivered;
use url::Url;

use crate::SseError;
use crate::events::{EventStream, StreamEnd};
use crate::parser::{Event, Parsed};
use crate::remote::{Remote, refusal};

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
const EVENT_STREAM: HeaderValue = HeaderValue::from_static("text/event-stream");
/// How many `message` events may come before the `endpoint` event; a server that resumes a
/// session may replay some. More than this is not a legacy SSE server.
const MAX_EARLY_MESSAGES: usize = 64;

/// An event stream whose endpoint is known.
#[derive(Debug)]
pub(crate) struct Opened {
    pub(crate) stream: EventStream,
    /// Where to post messages, resolved and checked.
    pub(crate) endpoint: Url,
    /// `message` events that came before the `endpoint` event.
    pub(crate) early: Vec<Event>,
}

/// Opens the event stream and waits for its endpoint. Not bounded here: callers bound it by
/// the connect timeout.
pub(crate) async fn open(
    remote: &Remote,
    last_event_id: Option<&str>,
    retry: Option<std::time::Duration>,
) -> Result<Opened, SseError> {
    let mut request = Request::new(Full::new(Bytes::new()));
    *request.uri_mut() = remote.uri.clone();
    let headers = request.headers_mut();
    remote.headers.apply(None, headers).await?;
    headers.insert(ACCEPT, EVENT_STREAM);
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(id) = last_event_id
        .filter(|id| !id.is_empty())
        .and_then(|id| HeaderValue::from_str(id).ok())
    {
        headers.insert(LAST_EVENT_ID, id);
    }
    let response = remote.http.send(request).await?;
    if !response.status().is_success() {
        return Err(refusal(response).await.into());
    }
    let content_type = response.headers().get(CONTENT_TYPE);
    let essence = content_type
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(str::trim);
    if !essence.is_some_and(|essence| essence.eq_ignore_ascii_case("text/event-stream")) {
        return Err(SseError::NotEventStream {
            content_type: content_type.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
        });
    }
    let last_event_id = last_event_id.map(str::to_owned);
    let mut stream = EventStream::new(response.into_body(), remote.limit, last_event_id, retry);
    let mut early = Vec::new();
    loop {
        let event = match stream.next().await {
            Ok(Parsed::Event(event)) => event,
            Ok(Parsed::Oversized { kind }) => {
                tracing::warn!(target = %remote.target, %kind, "dropped an oversized event before the endpoint event");
                continue;
            }
            Err(StreamEnd::Closed) => return Err(SseError::NoEndpoint),
            Err(end) => {
                return Err(SseError::Ended {
                    reason: end.describe(),
                    not_delivered: NotDelivered,
                });
            }
        };
        match event.kind.as_str() {
            "endpoint" => {
                let endpoint = crate::url::resolve_endpoint(&remote.url, &event.data)?;
                return Ok(Opened {
                    stream,
                    endpoint,
                    early,
                });
            }
            "message" if early.len() < MAX_EARLY_MESSAGES => early.push(event),
            "message" => return Err(SseError::NoEndpoint),
            other => tracing::debug!(target = %remote.target, kind = %other, "ignoring an event"),
        }
    }
}
