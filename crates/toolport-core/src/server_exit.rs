//! [`ServerExit`]: how a server ended when its session was closed.

use std::fmt;
use std::process::ExitStatus;
use std::time::Duration;

/// How the server ended when its session was closed, as
/// [`McpSession::close`](https://docs.rs/toolport-session) reports it.
///
/// A child process is asked to exit by closing its stdin; one that does not within its grace
/// period is sent `SIGTERM`, then `SIGKILL`. A remote server's connection is simply closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerExit {
    /// No connection was open: the session never connected, or was closed already.
    NotConnected,
    /// The connection was closed; the server is not ours to stop (a remote server).
    Disconnected,
    /// The server process exited by itself, with this status: after its stdin closed, or
    /// earlier.
    Exited(ExitStatus),
    /// The server process did not exit within `grace` of its stdin closing, and `SIGTERM`
    /// stopped it.
    Terminated {
        /// How long it was given to exit by itself.
        grace: Duration,
    },
    /// The server process ignored `SIGTERM` for `grace`, and `SIGKILL` stopped it.
    Killed {
        /// How long it was given after `SIGTERM`.
        grace: Duration,
    },
}

impl ServerExit {
    /// Whether the server ended as asked: it exited by itself with success, or there was no
    /// process of ours to stop.
    pub fn is_clean(&self) -> bool {
        match self {
            Self::NotConnected | Self::Disconnected => true,
            Self::Exited(status) => status.success(),
            Self::Terminated { .. } | Self::Killed { .. } => false,
        }
    }
}

impl fmt::Display for ServerExit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotConnected => f.write_str("no connection was open"),
            Self::Disconnected => f.write_str("the connection was closed"),
            Self::Exited(status) => write!(f, "the server exited by itself ({status})"),
            Self::Terminated { grace } => write!(
                f,
                "the server did not exit within {} ms of its stdin closing and was stopped with SIGTERM",
                grace.as_millis()
            ),
            Self::Killed { grace } => write!(
                f,
                "the server ignored SIGTERM for {} ms and was killed with SIGKILL",
                grace.as_millis()
            ),
        }
    }
}
