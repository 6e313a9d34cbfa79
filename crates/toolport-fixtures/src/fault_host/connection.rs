//! [`ConnectionHandle`]: what a route may do to the connection its request came on. The
//! listener makes one per connection; the routes only use it, so neither imports the other.

use tokio_util::sync::CancellationToken;

/// What a route may do to the connection its request came on.
#[derive(Debug, Clone)]
pub(super) struct ConnectionHandle {
    reset: CancellationToken,
}

impl ConnectionHandle {
    /// A handle whose [`reset`](Self::reset) cancels `reset`, which the connection's task
    /// watches.
    pub(super) fn new(reset: CancellationToken) -> Self {
        Self { reset }
    }

    /// Drops the connection at once with a TCP `RST`.
    pub(super) fn reset(&self) {
        self.reset.cancel();
    }
}
