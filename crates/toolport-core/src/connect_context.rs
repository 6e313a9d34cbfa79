//! [`ConnectContext`]: what a session tells its connector about the connection it wants.

use crate::Timeouts;

/// What the session hands [`Connector::connect`](crate::Connector::connect) for each connect
/// and reconnect: the bounds it applies, so a transport needs no copy of them.
///
/// A transport applies [`Timeouts::connect`] to whatever it opens itself (a TCP and TLS
/// connect, an event stream that must name its endpoint); the session applies the others.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_core::{ConnectContext, Timeouts};
///
/// let context = ConnectContext::new(Timeouts::default().with_connect(Duration::from_secs(2)));
/// assert_eq!(context.timeouts().connect, Duration::from_secs(2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConnectContext {
    timeouts: Timeouts,
}

impl ConnectContext {
    /// A context with the session's bounds.
    pub fn new(timeouts: Timeouts) -> Self {
        Self { timeouts }
    }

    /// The session's bounds.
    pub fn timeouts(&self) -> Timeouts {
        self.timeouts
    }
}
