//! [`SseStream`]: the body of a legacy `GET /sse` response: the `endpoint` event, then each
//! server message as a `message` event, ending early when told to.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use hyper::body::{Body, Bytes, Frame};
use rmcp::model::ServerJsonRpcMessage;
use tokio::sync::mpsc;

use super::session::SessionGuard;

/// An SSE event stream for one session; dropping it ends the session.
pub(super) struct SseStream {
    endpoint: Option<String>,
    messages: mpsc::Receiver<ServerJsonRpcMessage>,
    remaining: Option<usize>,
    _session: SessionGuard,
}

impl SseStream {
    /// A stream that sends `endpoint` first, then `messages`, and ends after `limit` events
    /// (the endpoint event counts) if a limit is set.
    pub(super) fn new(
        endpoint: String,
        messages: mpsc::Receiver<ServerJsonRpcMessage>,
        limit: Option<usize>,
        session: SessionGuard,
    ) -> Self {
        Self {
            endpoint: Some(endpoint),
            messages,
            remaining: limit,
            _session: session,
        }
    }
}

impl Body for SseStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.remaining == Some(0) {
            return Poll::Ready(None);
        }
        let event = match this.endpoint.take() {
            Some(endpoint) => format!("event: endpoint\ndata: {endpoint}\n\n"),
            None => match ready!(this.messages.poll_recv(cx)) {
                Some(message) => {
                    let json = serde_json::to_string(&message).expect("messages serialize");
                    format!("event: message\ndata: {json}\n\n")
                }
                None => return Poll::Ready(None),
            },
        };
        if let Some(remaining) = &mut this.remaining {
            *remaining -= 1;
        }
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(event)))))
    }
}
