//! The events of a response body as rmcp's worker reads them: a stream of `sse_stream::Sse`,
//! parsed by the shared [`SseEvents`], each event bounded in size.
//!
//! An event larger than the limit ends the stream. On a POST's response stream it first yields
//! a JSON-RPC error answering the request, so the caller learns the limit instead of seeing a
//! dropped stream (which rmcp would also try to resume, only to hit the same event again).

use std::sync::Arc;

use futures_util::stream::{self, BoxStream, StreamExt as _};
use hyper::body::Incoming;
use rmcp::model::{ErrorData, RequestId, ServerJsonRpcMessage};
use sse_stream::{Error as SseError, Sse};
use toolport_http_client::HttpError;
use toolport_http_client::sse::{Parsed, SseEvent, SseEvents, StreamEnd};

use crate::HttpDiagnostics;

/// What the stream still has to do.
struct Reading {
    events: SseEvents,
    /// The request this stream answers, until an error answer has been made for it.
    answering: Option<RequestId>,
    diagnostics: Arc<HttpDiagnostics>,
}

/// The events of `body`, each at most `limit` bytes. When `answering` is the id of the request
/// this stream answers, an oversized event becomes a JSON-RPC error for that request.
pub(crate) fn events(
    body: Incoming,
    limit: usize,
    answering: Option<RequestId>,
    diagnostics: Arc<HttpDiagnostics>,
) -> BoxStream<'static, Result<Sse, SseError>> {
    let reading = Reading {
        events: SseEvents::new(body, limit),
        answering,
        diagnostics,
    };
    stream::unfold(Some(reading), |reading| async move {
        let mut reading = reading?;
        match reading.events.next().await {
            Ok(Parsed::Event(event)) => Some((Ok(to_rmcp(event)), Some(reading))),
            Ok(Parsed::Oversized { .. }) => {
                let limit = reading.events.limit();
                let error = HttpError::TooLarge { limit };
                reading.diagnostics.record(error.to_string());
                let item = match reading.answering.take() {
                    Some(id) => Ok(error_event(id, &error.to_string())),
                    None => Err(SseError::Body(Box::new(error))),
                };
                Some((item, None))
            }
            Err(StreamEnd::Closed) => None,
            Err(StreamEnd::Broken(error)) => {
                Some((Err(SseError::Body(Box::new(HttpError::Body(error)))), None))
            }
        }
    })
    // rmcp's worker may poll a stream again after its end.
    .fuse()
    .boxed()
}

/// Our event as rmcp's worker takes it.
fn to_rmcp(event: SseEvent) -> Sse {
    Sse {
        event: event.event,
        data: event.data,
        id: event.id,
        retry: event.retry,
    }
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
