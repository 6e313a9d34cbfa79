//! [`Timeouts`]: how long each phase of talking to a server may take.

use std::time::Duration;

/// How long each phase of talking to a server may take. Every wait in Toolport is bounded by
/// one of these.
///
/// The defaults suit an agent that calls tools on a person's behalf: long enough for a cold
/// `npx` start or a slow query, short enough that a hung server surfaces as an error within a
/// minute instead of stalling a turn for five.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timeouts {
    /// Opening the transport (spawning the child, the TCP and TLS handshakes). Default 10 s.
    pub connect: Duration,
    /// The `initialize` handshake, once the transport is open. Default 30 s.
    pub initialize: Duration,
    /// One request (`tools/list`, `tools/call`, ...). On expiry the server is sent
    /// `notifications/cancelled`. Default 60 s.
    pub request: Duration,
}

impl Timeouts {
    /// Default for [`Timeouts::connect`].
    pub const DEFAULT_CONNECT: Duration = Duration::from_secs(10);
    /// Default for [`Timeouts::initialize`].
    pub const DEFAULT_INITIALIZE: Duration = Duration::from_secs(30);
    /// Default for [`Timeouts::request`].
    pub const DEFAULT_REQUEST: Duration = Duration::from_secs(60);

    /// The same bound for every phase, as the CLI's `--timeout-ms` sets it.
    pub fn uniform(timeout: Duration) -> Self {
        Self {
            connect: timeout,
            initialize: timeout,
            request: timeout,
        }
    }

    /// Sets [`Timeouts::connect`].
    #[must_use]
    pub fn with_connect(mut self, timeout: Duration) -> Self {
        self.connect = timeout;
        self
    }

    /// Sets [`Timeouts::initialize`].
    #[must_use]
    pub fn with_initialize(mut self, timeout: Duration) -> Self {
        self.initialize = timeout;
        self
    }

    /// Sets [`Timeouts::request`].
    #[must_use]
    pub fn with_request(mut self, timeout: Duration) -> Self {
        self.request = timeout;
        self
    }
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Self::DEFAULT_CONNECT,
            initialize: Self::DEFAULT_INITIALIZE,
            request: Self::DEFAULT_REQUEST,
        }
    }
}
