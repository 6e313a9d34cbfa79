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

/// A response body that fails once one SSE event passes `limit` bytes.
struct LimitedEvents {
    inner: Incoming,
    limit: usize,
    /// Bytes of the current event so far (since the last blank line).
    event: usize,
    /// Whether the last byte seen ended a line.
    line_start: bool,
    /// Whether the last byte was a CR (so an LF after it ends no new line).
    after_cr: bool,
    failed: bool,
}

impl LimitedEvents {
    /// Counts `chunk` into the current event; `Err` when the event grew past the limit.
    fn observe(&mut self, chunk: &[u8]) -> Result<(), ()> {
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false, // the LF of a CRLF
                b'\r' | b'\n' => {
                    if self.line_start {
                        self.event = 0; // a blank line dispatches the event
                    }
                    self.line_start = true;
                    self.after_cr = byte == b'\r';
                }
                _ => {
                    self.line_start = false;
                    self.after_cr = false;
                }
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
                    && self.observe(data).is_err()
                {
                    self.failed = true;
                    return Poll::Ready(Some(Err(HttpError::TooLarge { limit: self.limit })));
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
        limit,
        event: 0,
        line_start: true,
        after_cr: false,
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
