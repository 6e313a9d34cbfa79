//! [`ManagerError`]: why a registry operation failed.

use std::time::Duration;

use toolport_session::SessionError;
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
    #[error("a required server did not start: {source}")]
    RequiredFailed {
        /// The server's id.
        server: String,
        /// Why, as its start reported it.
        #[source]
        source: Box<ManagerError>,
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

impl ManagerError {
    /// The session's error underneath, when a server's session is what failed (through a
    /// rollback or a required server's failure too).
    pub fn session(&self) -> Option<&SessionError> {
        match self {
            Self::StartFailed { source, .. } => source.session(),
            Self::RolledBack { source, .. } | Self::RequiredFailed { source, .. } => {
                source.session()
            }
            _ => None,
        }
    }

    /// Whether retrying can never help: an unknown or taken id, a disabled server, a wrong
    /// configuration, no file to save to, a manager shut down, or a start that failed for good
    /// ([`ToolsetError::is_permanent`]: a missing command, refused credentials).
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::UnknownServer(_)
            | Self::AlreadyExists(_)
            | Self::Disabled(_)
            | Self::Config(_)
            | Self::NoConfigFile
            | Self::ShutDown => true,
            Self::StartFailed { source, .. } => source.is_permanent(),
            Self::RolledBack { source, .. } | Self::RequiredFailed { source, .. } => {
                source.is_permanent()
            }
            Self::StartTimeout { .. } | Self::Interrupted(_) | Self::NotRunning { .. } => false,
        }
    }

    /// Whether a bound expired: a start past its startup timeout, or a session's bound
    /// ([`SessionError::is_timeout`]).
    pub fn is_timeout(&self) -> bool {
        match self {
            Self::StartTimeout { .. } => true,
            Self::RolledBack { source, .. } | Self::RequiredFailed { source, .. } => {
                source.is_timeout()
            }
            _ => self.session().is_some_and(SessionError::is_timeout),
        }
    }

    /// Whether the server could not be reached, so nothing ran; see
    /// [`SessionError::is_connect`].
    pub fn is_connect(&self) -> bool {
        self.session().is_some_and(SessionError::is_connect)
    }

    /// Whether the server refused our credentials; see [`SessionError::is_unauthorized`].
    pub fn is_unauthorized(&self) -> bool {
        self.session().is_some_and(SessionError::is_unauthorized)
    }

    /// Whether a call may have run although no answer says so; see
    /// [`SessionError::is_outcome_uncertain`].
    pub fn is_outcome_uncertain(&self) -> bool {
        self.session()
            .is_some_and(SessionError::is_outcome_uncertain)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn a_required_servers_failure_keeps_its_cause_and_answers_for_it() {
        let timed_out = ManagerError::StartTimeout {
            server: "slow".into(),
            after: Duration::from_secs(30),
            details: None,
        };
        let required = ManagerError::RequiredFailed {
            server: "slow".into(),
            source: Box::new(timed_out),
        };
        assert_eq!(
            required.to_string(),
            "a required server did not start: server `slow` did not start within 30000 ms"
        );
        let cause = required.source().expect("the cause is kept");
        assert!(matches!(
            cause
                .downcast_ref::<Box<ManagerError>>()
                .map(|cause| &**cause),
            Some(ManagerError::StartTimeout { .. })
        ));
        assert!(required.is_timeout() && !required.is_permanent() && !required.is_connect());

        let disabled = ManagerError::RequiredFailed {
            server: "off".into(),
            source: Box::new(ManagerError::Disabled("off".into())),
        };
        assert!(disabled.is_permanent() && !disabled.is_timeout());
        assert!(disabled.session().is_none());
    }
}
