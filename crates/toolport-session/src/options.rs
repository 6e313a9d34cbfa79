//! [`CallOptions`] and [`CallReplay`]: how one `tools/call` is made.

use toolport_core::ReadonlyContext;

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

/// How one `tools/call` is made: whether it may be replayed, and on whose behalf.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct CallOptions {
    /// Whether a call lost with its connection is sent again. Default [`CallReplay::Never`].
    pub replay: CallReplay,
    /// The caller, for the transport to see (an HTTP header provider, say). Default none.
    pub context: Option<ReadonlyContext>,
}

impl CallOptions {
    /// Sets [`CallOptions::replay`].
    #[must_use]
    pub fn replay(mut self, replay: CallReplay) -> Self {
        self.replay = replay;
        self
    }

    /// Sets [`CallOptions::context`].
    #[must_use]
    pub fn context(mut self, context: Option<ReadonlyContext>) -> Self {
        self.context = context;
        self
    }
}
