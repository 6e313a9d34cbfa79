//! Sending one request: the caller's context rides along in its extensions, the wait is
//! bounded, and a request given up on is cancelled on the server.
//!
//! A request that times out has its `notifications/cancelled` written to the transport before
//! the error is returned (within [`CANCEL_FLUSH`]), so that a process that exits right after
//! still told its server. A request whose caller drops the future cancels from a task the
//! session keeps track of, and [`McpSession::close`](crate::McpSession::close) waits for those.

use std::future::Future;
use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::{
    CancelledNotificationParam, ClientRequest, CustomResult, GetExtensions as _, RequestId,
    ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient};
use tokio::time::Instant;
use tokio_util::task::TaskTracker;
use toolport_core::ReadonlyContext;

use crate::progress::{ProgressRegistration, ProgressWanted};

/// How long a cancellation may take to reach the transport before the timeout it follows is
/// reported, and how long closing a session waits for cancellations still on their way.
pub(crate) const CANCEL_FLUSH: Duration = Duration::from_millis(500);

/// Why a request got no answer.
#[derive(Debug)]
pub(crate) enum RequestFailure {
    /// The bound expired after `waited`; the server was told to cancel, if the transport took
    /// the cancellation within [`CANCEL_FLUSH`] (`cancelled`).
    TimedOut {
        /// How long the request waited.
        waited: Duration,
        /// Whether the cancellation reached the transport.
        cancelled: bool,
    },
    /// rmcp could not take the request: the transport was already down, so it never left.
    NotSent(ServiceError),
    /// rmcp reported an error: a JSON-RPC error, or a transport that failed under the request.
    Failed {
        /// What rmcp reported.
        error: ServiceError,
        /// The request's id, for the connection's diagnostics to tell whether the transport
        /// lost its answer; `None` where the id is rmcp's alone.
        request: Option<RequestId>,
    },
}

/// Sends `request` on behalf of the caller described by `context` and waits up to `timeout`.
///
/// The context is put in the request's extensions, where a transport (an HTTP header provider,
/// say) can read it; it is never serialized. Cancellations of requests dropped midway run on
/// `cancellations`.
///
/// With `progress`, the request's reports go to the call's callback, and, when it asks, each
/// one restarts the bound, up to its total.
pub(crate) async fn send(
    peer: &Peer<RoleClient>,
    mut request: ClientRequest,
    context: Option<&ReadonlyContext>,
    timeout: Duration,
    progress: Option<ProgressWanted<'_>>,
    cancellations: &TaskTracker,
) -> Result<ServerResult, RequestFailure> {
    if let Some(context) = context {
        request.extensions_mut().insert(context.clone());
    }
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(RequestFailure::NotSent)?;
    crate::span::record_request_id(&handle.id);
    let mut pending = CancelOnDrop {
        peer,
        id: Some(handle.id.clone()),
        cancellations,
    };
    let registration = progress.map(|wanted| {
        let callback = wanted.callback.cloned();
        wanted
            .routes
            .register(handle.progress_token.clone(), callback)
    });
    let extended = registration
        .as_ref()
        .zip(progress.and_then(|wanted| wanted.extend_to));
    let started = Instant::now();
    let answer = match extended {
        None => tokio::time::timeout(timeout, handle.await_response())
            .await
            .ok(),
        Some((progress, max_total)) => {
            extending_on_progress(handle.await_response(), timeout, progress, max_total).await
        }
    };
    match answer {
        Some(result) => {
            let request = pending.id.take();
            if let (Ok(answer), Some(registration), Some(route)) = (
                &result,
                registration,
                progress.and_then(|wanted| wanted.task_route),
            ) && creates_task(answer)
            {
                route.keep(registration);
            }
            result.map_err(|error| RequestFailure::Failed { error, request })
        }
        None => {
            let waited = waited(started, timeout, extended.is_some());
            let mut cancelled = false;
            if let Some(id) = pending.id.take() {
                tracing::info!(request_id = %id, waited_ms = waited.as_millis() as u64, "timed out; cancelling on the server");
                let reason = format!("the client gave up after {} ms", waited.as_millis());
                let cancellation_sent = peer.notify_cancelled(cancellation(id, reason));
                match tokio::time::timeout(CANCEL_FLUSH, cancellation_sent).await {
                    Ok(Ok(())) => cancelled = true,
                    Ok(Err(error)) => tracing::debug!(%error, "the cancellation was not sent"),
                    Err(_) => {
                        tracing::debug!("the cancellation did not reach the transport in time")
                    }
                }
            }
            Err(RequestFailure::TimedOut { waited, cancelled })
        }
    }
}

/// Whether `answer` says the server runs the request as a task: the tasks extension's
/// `CreateTaskResult`, or 2025-11-25's result with a `task`.
fn creates_task(answer: &ServerResult) -> bool {
    match answer {
        ServerResult::CreateTaskResult(_) => true,
        ServerResult::CustomResult(CustomResult(answer)) => answer.get("task").is_some(),
        _ => false,
    }
}

/// How long a request that timed out waited: its bound, or, when progress extended the bound,
/// the time since it was sent.
fn waited(started: Instant, timeout: Duration, extended: bool) -> Duration {
    if extended { started.elapsed() } else { timeout }
}

/// Waits for `answer`, up to `timeout` after the start or after the latest report of
/// `progress`, and no longer than `max_total` in all. `None` when a bound expired.
async fn extending_on_progress<T>(
    answer: impl Future<Output = T>,
    timeout: Duration,
    progress: &ProgressRegistration,
    max_total: Duration,
) -> Option<T> {
    let give_up = Instant::now() + max_total;
    tokio::pin!(answer);
    loop {
        let deadline = (Instant::now() + timeout).min(give_up);
        tokio::select! {
            answered = &mut answer => return Some(answered),
            () = tokio::time::sleep_until(deadline) => return None,
            () = progress.progressed() => {}
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
        // Dropped inside the request's span, so the event is in it; the cancellation is sent
        // after.
        tracing::info!(request_id = %id, "the caller stopped waiting; cancelling on the server");
        let peer = self.peer.clone();
        self.cancellations.spawn(async move {
            let reason = "the caller stopped waiting".to_owned();
            // A dead transport has nothing left to cancel.
            let _ = peer.notify_cancelled(cancellation(id, reason)).await;
        });
    }
}
