//! Sending one request: the caller's context rides along in its extensions, the wait is
//! bounded, and a request given up on (timed out, or its future dropped) is cancelled on the
//! server.

use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::{
    CancelledNotificationParam, ClientRequest, GetExtensions as _, RequestId, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient};
use toolport_core::ReadonlyContext;

/// Why a request got no answer.
#[derive(Debug)]
pub(crate) enum RequestFailure {
    /// The bound expired; the server was told to cancel.
    TimedOut,
    /// rmcp reported an error: a JSON-RPC error, or a dead transport.
    Service(ServiceError),
}

/// Sends `request` on behalf of the caller described by `context` and waits up to `timeout`.
///
/// The context is put in the request's extensions, where a transport (an HTTP header provider,
/// say) can read it; it is never serialized.
pub(crate) async fn send(
    peer: &Peer<RoleClient>,
    mut request: ClientRequest,
    context: Option<&ReadonlyContext>,
    timeout: Duration,
) -> Result<ServerResult, RequestFailure> {
    if let Some(context) = context {
        request.extensions_mut().insert(context.clone());
    }
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(RequestFailure::Service)?;
    let mut pending = CancelOnDrop {
        peer,
        id: Some(handle.id.clone()),
    };
    let answer = tokio::time::timeout(timeout, handle.await_response()).await;
    match answer {
        Ok(result) => {
            pending.id = None;
            result.map_err(RequestFailure::Service)
        }
        // `pending` drops here and sends the cancellation.
        Err(_) => Err(RequestFailure::TimedOut),
    }
}

/// Sends `notifications/cancelled` for a request that is dropped before its answer arrived.
struct CancelOnDrop<'a> {
    peer: &'a Peer<RoleClient>,
    id: Option<RequestId>,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let reason = "the client gave up waiting".to_owned();
            let params = CancelledNotificationParam::new(Some(id), Some(reason));
            // A dead transport has nothing left to cancel.
            let _ = peer.notify_cancelled(params).await;
        });
    }
}
