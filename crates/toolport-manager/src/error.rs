//! [`ManagerError`]: why a registry operation failed.

use std::time::Duration;

use toolport_tools::ToolsetError;

use crate::{ConfigError, ServerStatus};

/// Why an operation of the [`McpServerManager`](crate::McpServerManager) failed. Each names the
/// server it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManagerError {
    /// No server has this id.
    #[error("no server `{0}` is configured")]
    UnknownServer(String),
    /// A server with this id exists already.
    #[error("a server `{0}` is configured already")]
    AlreadyExists(String),
    /// The server is disabled; enable it to start it.
    #[error("server `{0}` is disabled")]
    Disabled(String),
    /// The server's configuration is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The server did not start: its process or connection failed, or its handshake did.
    #[error("server `{server}` did not start: {source}")]
    StartFailed {
        /// The server's id.
        server: String,
        /// Why, with what its transport knows (exit status, stderr tail).
        #[source]
        source: Box<ToolsetError>,
    },
    /// The server did not complete its start within its startup timeout.
    #[error("server `{server}` did not start within {} ms{}", after.as_millis(), details.as_ref().map(|d| format!(": {d}")).unwrap_or_default())]
    StartTimeout {
        /// The server's id.
        server: String,
        /// The bound that expired.
        after: Duration,
        /// What its transport knows, if anything.
        details: Option<String>,
    },
    /// The start was called off: the server was stopped, disabled, removed or restarted while
    /// it started, or the manager shut down.
    #[error("server `{0}` was stopped while it started")]
    Interrupted(String),
    /// The new configuration did not start, and the old one was put back and started again.
    /// If the old one fails to start too, the server's status is
    /// [`Failed`](crate::ServerStatus::Failed) with why, and the log says so.
    #[error("server `{server}`: the new configuration was rolled back: {source}")]
    RolledBack {
        /// The server's id.
        server: String,
        /// Why the new configuration failed.
        #[source]
        source: Box<ManagerError>,
    },
    /// A server whose entry says `required` did not start
    /// ([`StartReport::check_required`](crate::StartReport::check_required)).
    #[error("a required server did not start: {error}")]
    RequiredFailed {
        /// The server's id.
        server: String,
        /// Why, as its start reported it.
        error: String,
    },
    /// The server is not running, and not starting either: its start failed, or it is stopped
    /// or disabled ([`started`](crate::McpServerManager::started)).
    #[error("server `{server}` is not running: {status}")]
    NotRunning {
        /// The server's id.
        server: String,
        /// Where it is instead (for a failed start, with why).
        status: ServerStatus,
    },
    /// [`save`](crate::McpServerManager::save) was called on a manager that was not loaded
    /// from a file.
    #[error("the manager was not loaded from a file; use save_to(path)")]
    NoConfigFile,
    /// The manager was shut down.
    #[error("the server manager is shut down")]
    ShutDown,
}
