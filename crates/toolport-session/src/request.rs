//! Sending one request: the caller's context rides along in its extensions, the wait is
//! bounded, and a request given up on is cancelled on the server.
//!
//! A request that times out has its `notifications/cancelled` written to the transport before
//! the error is returned (within [`CANCEL_FLUSH`]), so that a process that exits right after
//! still told its server. A request whose caller drops the future cancels from a task the
//! session keeps track of, and [`McpSession::close`](crate::McpSession::close) waits for those.

use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::{
    CancelledNotificationParam, ClientRequest, GetExtensions as _, RequestId, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient};
use tokio_util::task::TaskTracker;
use toolport_core::ReadonlyContext;

/// How long a cancellation may take to reach the transport before the timeout it follows is
/// reported, and how long closing a session waits for cancellations still on their way.
pub(crate) const CANCEL_FLUSH: Duration = Duration::from_millis(500);

/// Why a request got no answer.
#[derive(Debug)]
pub(crate) enum RequestFailure {
    /// The bound expired; the server was told to cancel.
    TimedOut,
    /// rmcp could not take the request: the transport was already down, so it never left.
    NotSent(ServiceError),
    /// rmcp reported an error: a JSON-RPC error, or a transport that failed under the request.
    Failed(ServiceError),
}

/// Sends `request` on behalf of the caller described by `context` and waits up to `timeout`.
///
/// The context is put in the request's extensions, where a transport (an HTTP header provider,
/// say) can read it; it is never serialized. Cancellations of requests dropped midway run on
/// `cancellations`.
pub(crate) async fn send(
    peer: &Peer<RoleClient>,
    mut request: ClientRequest,
    context: Option<&ReadonlyContext>,
    timeout: Duration,
    cancellations: &TaskTracker,
) -> Result<ServerResult, RequestFailure> {
    if let Some(context) = context {
        request.extensions_mut().insert(context.clone());
    }
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(RequestFailure::NotSent)?;
    let mut pending = CancelOnDrop {
        peer,
        id: Some(handle.id.clone()),
        cancellations,
    };
    match tokio::time::timeout(timeout, handle.await_response()).await {
        Ok(result) => {
            pending.id = None;
            result.map_err(RequestFailure::Failed)
        }
        Err(_) => {
            if let Some(id) = pending.id.take() {
                let reason = format!("the client gave up after {} ms", timeout.as_millis());
                let cancelled = peer.notify_cancelled(cancellation(id, reason));
                if tokio::time::timeout(CANCEL_FLUSH, cancelled).await.is_err() {
                    tracing::debug!("the cancellation did not reach the transport in time");
                }
            }
            Err(RequestFailure::TimedOut)
        }
    }
}

fn cancellation(id: RequestId, reason: String) -> CancelledNotificationParam {
    CancelledNotificationParam::new(Some(id), Some(reason))
}

/// Sends `notifications/cancelled` for a request that is dropped before its answer arrived.
struct CancelOnDrop<'a> {
    peer: &'a Peer<RoleClient>,
    id: Option<RequestId>,
    cancellations: &'a TaskTracker,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let peer = self.peer.clone();
        self.cancellations.spawn(async move {
            let reason = "the caller stopped waiting".to_owned();
            // A dead transport has nothing left to cancel.
            let _ = peer.notify_cancelled(cancellation(id, reason)).await;
        });
    }
}
