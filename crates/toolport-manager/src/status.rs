//! [`ServerStatus`]: where one managed server is in its life.

use std::fmt;

/// Where one managed server is in its life.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerStatus {
    /// Known, enabled, and not running: never started, or stopped.
    Stopped,
    /// Known and disabled: it starts only once enabled.
    Disabled,
    /// Starting: its process or connection is being opened, or its handshake is under way.
    Starting,
    /// Running: its handshake completed and its connection is up.
    Running,
    /// It crashed, and restart number `attempt` is waiting for its delay or under way.
    Restarting {
        /// Which restart in a row this is, from 1.
        attempt: u32,
    },
    /// It could not start, or it crashed more often in a row than its restart policy allows.
    /// It stays down until started again.
    Failed {
        /// Why, with what the server's transport knows (for a child process: its exit status
        /// and the last lines of its stderr).
        error: String,
    },
}

impl ServerStatus {
    /// Whether the server is running now.
    pub fn is_running(&self) -> bool {
        matches!(self, Self::Running)
    }
}

impl fmt::Display for ServerStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stopped => f.write_str("stopped"),
            Self::Disabled => f.write_str("disabled"),
            Self::Starting => f.write_str("starting"),
            Self::Running => f.write_str("running"),
            Self::Restarting { attempt } => write!(f, "restarting (attempt {attempt})"),
            Self::Failed { error } => write!(f, "failed: {error}"),
        }
    }
}
