//! [`SseEvents`]: the events of a response body, parsed as they arrive.

use std::fmt;
use std::time::Duration;

use http_body_util::BodyExt as _;
use hyper::body::Incoming;

use super::{Parsed, SseParser};

/// Why an event stream ended.
#[derive(Debug)]
pub enum StreamEnd {
    /// The server ended the response.
    Closed,
    /// Reading the body failed (reset, cut off).
    Broken(hyper::Error),
}

impl fmt::Display for StreamEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Closed => f.write_str("the server closed the event stream"),
            Self::Broken(error) => write!(
                f,
                "the event stream broke off: {}",
                toolport_core::error_chain(error)
            ),
        }
    }
}

/// An open event stream: a response body and the parser of its events.
#[derive(Debug)]
pub struct SseEvents {
    body: Incoming,
    parser: SseParser,
}

impl SseEvents {
    /// Parses `body`, each event at most `limit` bytes of data.
    pub fn new(body: Incoming, limit: usize) -> Self {
        Self::with_parser(body, SseParser::new(limit))
    }

    /// Parses `body` with `parser` (say, one [resuming](SseParser::resuming) an earlier stream).
    pub fn with_parser(body: Incoming, parser: SseParser) -> Self {
        Self { body, parser }
    }

    /// The next event, or why the stream ended. Cancel-safe.
    pub async fn next(&mut self) -> Result<Parsed, StreamEnd> {
        loop {
            if let Some(parsed) = self.parser.next_event() {
                return Ok(parsed);
            }
            match self.body.frame().await {
                None => return Err(StreamEnd::Closed),
                Some(Err(error)) => return Err(StreamEnd::Broken(error)),
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.parser.feed(&data);
                    }
                }
            }
        }
    }

    /// The last event id the server sent, for `Last-Event-ID`.
    pub fn last_event_id(&self) -> Option<&str> {
        self.parser.last_event_id()
    }

    /// The reconnection time the server asked for.
    pub fn retry(&self) -> Option<Duration> {
        self.parser.retry()
    }

    /// The largest event accepted, in bytes of data.
    pub fn limit(&self) -> usize {
        self.parser.limit()
    }
}
