//! Opening the event stream: `GET` with the assembled headers, then waiting for the `endpoint`
//! event and checking its origin.

use std::time::Duration;

use bytes::Bytes;
use http::header::{ACCEPT, CACHE_CONTROL};
use http::{HeaderName, HeaderValue, Method, Request};
use http_body_util::Full;
use toolport_core::NotDelivered;
use toolport_http_client::sse::{Parsed, SseEvent, SseEvents, SseParser, StreamEnd};
use toolport_http_client::toolkit::{content_type, is_media_type, refusal};
use url::Url;

use crate::SseError;
use crate::remote::Remote;

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
const EVENT_STREAM: HeaderValue = HeaderValue::from_static("text/event-stream");
/// How many `message` events may come before the `endpoint` event; a server that resumes a
/// session may replay some. More than this is not a legacy SSE server.
const MAX_EARLY_MESSAGES: usize = 64;

/// An event stream whose endpoint is known.
#[derive(Debug)]
pub(crate) struct Opened {
    pub(crate) stream: SseEvents,
    /// Where to post messages, resolved and checked.
    pub(crate) endpoint: Url,
    /// `message` events that came before the `endpoint` event.
    pub(crate) early: Vec<SseEvent>,
}

/// Opens the event stream and waits for its endpoint, resuming from the event id and retry
/// time of an earlier stream. Not bounded here: callers bound it by the connect timeout.
pub(crate) async fn open(
    remote: &Remote,
    last_event_id: Option<&str>,
    retry: Option<Duration>,
) -> Result<Opened, SseError> {
    let mut request = Request::new(Full::new(Bytes::new()));
    *request.uri_mut() = remote.uri.clone();
    let headers = request.headers_mut();
    remote
        .headers
        .apply(None, &Method::GET, &remote.uri, headers)
        .await?;
    headers.insert(ACCEPT, EVENT_STREAM);
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(id) = last_event_id
        .filter(|id| !id.is_empty())
        .and_then(|id| HeaderValue::from_str(id).ok())
    {
        headers.insert(LAST_EVENT_ID, id);
    }
    let response = remote.headers.send(&remote.http, request).await?;
    if !response.status().is_success() {
        return Err(refusal(response).await.into());
    }
    if !is_media_type(response.headers(), "text/event-stream") {
        return Err(SseError::NotEventStream {
            content_type: content_type(response.headers()),
        });
    }
    let parser = SseParser::new(remote.limit).resuming(last_event_id.map(str::to_owned), retry);
    let mut stream = SseEvents::with_parser(response.into_body(), parser);
    let mut early = Vec::new();
    loop {
        let event = match stream.next().await {
            Ok(Parsed::Event(event)) => event,
            Ok(Parsed::Oversized { event, .. }) => {
                tracing::warn!(target = %remote.target, kind = event.as_deref().unwrap_or("message"), "dropped an oversized event before the endpoint event");
                continue;
            }
            Err(StreamEnd::Closed) => return Err(SseError::NoEndpoint),
            Err(end) => {
                return Err(SseError::Ended {
                    reason: end.to_string(),
                    not_delivered: NotDelivered::new(),
                });
            }
        };
        let Some(data) = event.data.as_deref() else {
            continue; // no data: nothing to act on
        };
        match event.kind() {
            "endpoint" => {
                let endpoint = crate::url::resolve_endpoint(&remote.url, data)?;
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
