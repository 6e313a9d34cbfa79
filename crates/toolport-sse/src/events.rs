//! [`EventStream`]: the events of a `GET` response body, parsed as they arrive.

use std::time::Duration;

use http_body_util::BodyExt as _;
use hyper::body::Incoming;

use crate::parser::{EventParser, Parsed};

/// Why an event stream ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StreamEnd {
    /// The server ended the response.
    Closed,
    /// Reading the body failed (reset, cut off).
    Broken(String),
}

impl StreamEnd {
    /// The reason, in words.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Closed => "the server closed the event stream".to_owned(),
            Self::Broken(reason) => format!("the event stream broke off: {reason}"),
        }
    }
}

/// An open event stream.
#[derive(Debug)]
pub(crate) struct EventStream {
    body: Incoming,
    parser: EventParser,
}

impl EventStream {
    /// Parses `body`, each event at most `limit` bytes, resuming the `id` and `retry` state.
    pub(crate) fn new(
        body: Incoming,
        limit: usize,
        last_event_id: Option<String>,
        retry: Option<Duration>,
    ) -> Self {
        Self {
            body,
            parser: EventParser::new(limit, last_event_id, retry),
        }
    }

    /// The next event, or why the stream ended. Cancel-safe.
    pub(crate) async fn next(&mut self) -> Result<Parsed, StreamEnd> {
        loop {
            if let Some(parsed) = self.parser.next() {
                return Ok(parsed);
            }
            match self.body.frame().await {
                None => return Err(StreamEnd::Closed),
                Some(Err(error)) => {
                    return Err(StreamEnd::Broken(toolport_http::error_chain(&error)));
                }
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.parser.feed(&data);
                    }
                }
            }
        }
    }

    /// The last event id the server sent, for `Last-Event-ID`.
    pub(crate) fn last_event_id(&self) -> Option<&str> {
        self.parser.last_event_id()
    }

    /// The reconnection time the server asked for.
    pub(crate) fn retry(&self) -> Option<Duration> {
        self.parser.retry()
    }
}
