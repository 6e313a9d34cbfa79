//! The bodies a fault host answers with: a whole JSON message or text, or a channel that a
//! task writes (an event stream, or an answer one byte a second).

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Bytes, Frame};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Any body the host answers with.
pub(super) type HostBody = BoxBody<Bytes, Infallible>;

/// How many chunks a channel body holds before its writer waits.
const CHANNEL: usize = 64;

/// A response with `status`, `content_type` and the whole `body`.
pub(super) fn whole(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> Response<HostBody> {
    let mut response = Response::new(Full::new(body.into()).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A `text/plain` response.
pub(super) fn text(status: StatusCode, text: &'static str) -> Response<HostBody> {
    whole(status, "text/plain; charset=utf-8", text)
}

/// A `200` response of `content_type` whose body is what is sent on the returned channel; it
/// ends when every sender is gone.
pub(super) fn channel(content_type: &'static str) -> (Response<HostBody>, mpsc::Sender<Bytes>) {
    let (sender, receiver) = mpsc::channel(CHANNEL);
    let mut response = Response::new(ChannelBody(receiver).boxed());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    (response, sender)
}

/// Sends `bytes` one a second, the rest at once when `faster` fires; stops when the body is
/// dropped (the client left).
pub(super) async fn trickle(
    sender: &mpsc::Sender<Bytes>,
    bytes: Bytes,
    faster: &CancellationToken,
) {
    for at in 0..bytes.len() {
        if faster.is_cancelled() {
            let _ = sender.send(bytes.slice(at..)).await;
            return;
        }
        if sender.send(bytes.slice(at..=at)).await.is_err() {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            () = faster.cancelled() => {}
            () = sender.closed() => return,
        }
    }
}

/// A body of the chunks sent on a channel.
struct ChannelBody(mpsc::Receiver<Bytes>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|bytes| Ok(Frame::data(bytes))))
    }
}
