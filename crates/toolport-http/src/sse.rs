//! Server-sent events from a response body, with each event bounded at the byte layer.
//!
//! An event larger than the limit ends the stream. On a POST's response stream it first yields
//! a JSON-RPC error answering the request, so the caller learns the limit instead of seeing a
//! dropped stream (which rmcp would also try to resume, only to hit the same event again).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use futures_util::stream::{BoxStream, StreamExt};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use rmcp::model::{ErrorData, RequestId, ServerJsonRpcMessage};
use sse_stream::{Error as SseError, Sse, SseStream};

use crate::{HttpDiagnostics, HttpError};

/// A response body that fails once one SSE event passes the limit.
struct LimitedEvents {
    inner: Incoming,
    size: EventSize,
    failed: bool,
}

/// The size of the SSE event being read, counted across chunks.
struct EventSize {
    limit: usize,
    /// Bytes of the current event so far (since the last blank line).
    event: usize,
    /// Whether the last byte seen ended a line.
    line_start: bool,
    /// Whether the last byte was a CR (so an LF after it ends no new line).
    after_cr: bool,
}

impl EventSize {
    fn new(limit: usize) -> Self {
        Self {
            limit,
            event: 0,
            line_start: true,
            after_cr: false,
        }
    }

    /// Counts `chunk` into the current event; `Err` when the event grew past the limit. Only
    /// the line endings are looked at one by one; the text between them is counted whole.
    fn observe(&mut self, chunk: &[u8]) -> Result<(), ()> {
        let mut rest = chunk;
        while !rest.is_empty() {
            let text = memchr::memchr2(b'\r', b'\n', rest).unwrap_or(rest.len());
            if text > 0 {
                self.event += text;
                self.line_start = false;
                self.after_cr = false;
                if self.event > self.limit {
                    return Err(());
                }
            }
            let Some(&ending) = rest.get(text) else {
                break;
            };
            rest = &rest[text + 1..];
            if ending == b'\n' && self.after_cr {
                self.after_cr = false; // the LF of a CRLF
            } else {
                if self.line_start {
                    self.event = 0; // a blank line dispatches the event
                }
                self.line_start = true;
                self.after_cr = ending == b'\r';
            }
            self.event += 1;
            if self.event > self.limit {
                return Err(());
            }
        }
        Ok(())
    }
}

impl Body for LimitedEvents {
    type Data = Bytes;
    type Error = HttpError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, HttpError>>> {
        if self.failed {
            return Poll::Ready(None);
        }
        let frame = ready!(Pin::new(&mut self.inner).poll_frame(cx));
        Poll::Ready(match frame {
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref()
                    && self.size.observe(data).is_err()
                {
                    self.failed = true;
                    let limit = self.size.limit;
                    return Poll::Ready(Some(Err(HttpError::TooLarge { limit })));
                }
                Some(Ok(frame))
            }
            Some(Err(error)) => {
                self.failed = true;
                Some(Err(HttpError::Body(error)))
            }
            None => None,
        })
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The events of `body`, each at most `limit` bytes. When `answering` is the id of the request
/// this stream answers, an oversized event becomes a JSON-RPC error for that request.
pub(crate) fn events(
    body: Incoming,
    limit: usize,
    answering: Option<RequestId>,
    diagnostics: Arc<HttpDiagnostics>,
) -> BoxStream<'static, Result<Sse, SseError>> {
    let limited = LimitedEvents {
        inner: body,
        size: EventSize::new(limit),
        failed: false,
    };
    let mut answering = answering;
    let mut done = false;
    SseStream::new(limited)
        .map(move |item| match item {
            Err(SseError::Body(error)) if is_too_large(&*error) => {
                diagnostics.record(error.to_string());
                match answering.take() {
                    Some(id) => Ok(error_event(id, &error.to_string())),
                    None => Err(SseError::Body(error)),
                }
            }
            other => other,
        })
        .take_while(move |item| {
            let keep = !done;
            done = done || item.is_err();
            std::future::ready(keep)
        })
        .boxed()
}

fn is_too_large(error: &(dyn std::error::Error + 'static)) -> bool {
    matches!(
        error.downcast_ref::<HttpError>(),
        Some(HttpError::TooLarge { .. })
    )
}

/// A JSON-RPC error answering the request `id`.
pub(crate) fn error_answer(id: RequestId, message: &str) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::error(
        ErrorData::internal_error(message.to_owned(), None),
        Some(id),
    )
}

/// An SSE event carrying a JSON-RPC error answering the request `id`.
fn error_event(id: RequestId, message: &str) -> Sse {
    Sse {
        event: None,
        data: serde_json::to_string(&error_answer(id, message)).ok(),
        id: None,
        retry: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time rule [`EventSize::observe`] must agree with: every byte counts, a
    /// blank line (a CR, LF or CRLF right after a line ending) starts a new event, and no event
    /// may pass the limit. Returns the index of the chunk that first passes it.
    fn byte_by_byte(chunks: &[&[u8]], limit: usize) -> Option<usize> {
        let (mut event, mut line_start, mut after_cr) = (0, true, false);
        for (index, chunk) in chunks.iter().enumerate() {
            for &byte in *chunk {
                match byte {
                    b'\n' if after_cr => after_cr = false,
                    b'\r' | b'\n' => {
                        if line_start {
                            event = 0;
                        }
                        line_start = true;
                        after_cr = byte == b'\r';
                    }
                    _ => (line_start, after_cr) = (false, false),
                }
                event += 1;
                if event > limit {
                    return Some(index);
                }
            }
        }
        None
    }

    fn counted(chunks: &[&[u8]], limit: usize) -> Option<usize> {
        let mut size = EventSize::new(limit);
        chunks.iter().position(|chunk| size.observe(chunk).is_err())
    }

    #[test]
    fn counts_events_as_the_byte_by_byte_rule_does() {
        let streams: [&[u8]; 4] = [
            b"data: 12345\n\ndata: 1234567890\n\n",
            b"id: 1\r\ndata: abc\r\n\r\ndata: defghijk\r\n\r\n",
            b"data: a\r\rdata: bcdefghij\n\r\n: comment line\n\n",
            b"\n\n\r\n\r\r\ndata: x\n\n",
        ];
        for stream in streams {
            for limit in 1..stream.len() + 2 {
                for size in 1..=stream.len() {
                    let chunks: Vec<&[u8]> = stream.chunks(size).collect();
                    assert_eq!(
                        counted(&chunks, limit),
                        byte_by_byte(&chunks, limit),
                        "stream {:?}, limit {limit}, chunks of {size}",
                        String::from_utf8_lossy(stream)
                    );
                }
            }
        }
    }

    #[test]
    fn an_event_may_fill_the_limit_but_not_pass_it() {
        // The blank line that ends an event is not counted in it.
        let event: &[u8] = b"data: 1234\n\n";
        let size = event.len() - 1;
        assert_eq!(counted(&[event], size), None);
        assert_eq!(counted(&[event], size - 1), Some(0));
        // The next event starts counting afresh, from the blank line before it.
        assert_eq!(counted(&[event, event, event], size + 1), None);
        assert_eq!(counted(&[event, event, event], size), Some(1));
    }
}
