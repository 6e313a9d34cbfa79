//! [`CallOptions`] and [`CallReplay`]: how one `tools/call` is made.

use std::time::Duration;

use toolport_core::ReadonlyContext;

use crate::{Progress, ProgressCallback};

/// Whether a `tools/call` may be sent again when the connection dies under it.
///
/// A call that failed midway may or may not have run on the server. Replaying a refund or a
/// message send is worse than an error that says the outcome is unknown, so the default is
/// [`CallReplay::Never`]. `McpToolset` picks [`CallReplay::OnConnectionLoss`] for tools
/// annotated `readOnlyHint` or `idempotentHint`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CallReplay {
    /// Never resend; a lost connection gives
    /// [`SessionError::OutcomeUncertain`](crate::SessionError::OutcomeUncertain).
    #[default]
    Never,
    /// Reconnect and resend once when the connection is lost mid-call.
    OnConnectionLoss,
}

/// How one `tools/call` is made: whether it may be replayed, on whose behalf, and within what
/// bound.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct CallOptions {
    /// Whether a call lost with its connection is sent again. Default [`CallReplay::Never`].
    pub replay: CallReplay,
    /// The call's own bound, shorter or longer than the session's request timeout, which it
    /// replaces for this call: on its wait for a free slot (with
    /// [`max_concurrent_calls`](crate::SessionBuilder::max_concurrent_calls)) and its request
    /// together. Default none: the session's request timeout.
    pub timeout: Option<Duration>,
    /// The caller, for the transport to see (an HTTP header provider, say). Default none.
    pub context: Option<ReadonlyContext>,
    /// Runs on each progress report of the call: the session sends a progress token with it,
    /// and routes the server's `notifications/progress` for that token here.
    pub progress: Option<ProgressCallback>,
    /// When set, each progress report restarts the request bound, and the call is given up
    /// only after this long in all (or after a whole bound with no report).
    pub progress_extends_timeout: Option<Duration>,
}

impl CallOptions {
    /// Sets [`CallOptions::replay`].
    #[must_use]
    pub fn replay(mut self, replay: CallReplay) -> Self {
        self.replay = replay;
        self
    }

    /// Sets [`CallOptions::timeout`]; `None` for the session's request timeout.
    #[must_use]
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`CallOptions::context`].
    #[must_use]
    pub fn context(mut self, context: Option<ReadonlyContext>) -> Self {
        self.context = context;
        self
    }

    /// Runs `callback` on each progress report of the call.
    #[must_use]
    pub fn on_progress(mut self, callback: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(ProgressCallback::new(callback));
        self
    }

    /// Restarts the request bound on each progress report, up to `max_total` in all: a long
    /// call that keeps reporting is not cut off, and one that falls silent for a whole bound
    /// still is.
    #[must_use]
    pub fn extend_timeout_on_progress(mut self, max_total: Duration) -> Self {
        self.progress_extends_timeout = Some(max_total);
        self
    }

    /// Whether the call needs a progress token.
    pub(crate) fn wants_progress(&self) -> bool {
        self.progress.is_some() || self.progress_extends_timeout.is_some()
    }
}
