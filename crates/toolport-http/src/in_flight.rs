//! [`InFlight`]: the requests whose answers are still awaited, each with a token that stops
//! its exchange when the client cancels it or the transport closes.

use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::model::RequestId;
use tokio_util::sync::CancellationToken;

/// The exchanges under way. Empty, it holds no allocation.
#[derive(Debug, Default)]
pub(crate) struct InFlight {
    /// Cancelled by close or drop: every exchange and stream stops.
    all: CancellationToken,
    requests: Mutex<HashMap<RequestId, CancellationToken>>,
}

impl InFlight {
    /// A token for the exchange of request `id`, stopped by [`cancel`](Self::cancel) of that
    /// id or by [`stop_all`](Self::stop_all).
    pub(crate) fn start(&self, id: &RequestId) -> CancellationToken {
        let token = self.all.child_token();
        self.lock().insert(id.clone(), token.clone());
        token
    }

    /// A token for work tied to no request (a notification's post, the listening stream).
    pub(crate) fn untracked(&self) -> CancellationToken {
        self.all.child_token()
    }

    /// Request `id` has its answer (or gave up on it): forget it.
    pub(crate) fn finish(&self, id: &RequestId) {
        self.lock().remove(id);
    }

    /// Whether request `id` still awaits its answer.
    pub(crate) fn awaits(&self, id: &RequestId) -> bool {
        self.lock().contains_key(id)
    }

    /// The client cancelled request `id`: stop reading for its answer.
    pub(crate) fn cancel(&self, id: &RequestId) {
        if let Some(token) = self.lock().remove(id) {
            token.cancel();
        }
    }

    /// Stops every exchange and stream.
    pub(crate) fn stop_all(&self) {
        self.all.cancel();
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, CancellationToken>> {
        self.requests.lock().unwrap_or_else(|e| e.into_inner())
    }
}
