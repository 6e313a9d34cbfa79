//! Errors shared by every layer: what can go wrong while opening a transport.

/// A boxed error that can cross threads.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A transport could not be opened.
///
/// The session that asked names the server in its own error, so these messages do not repeat
/// it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The settings can never work (an empty command, a malformed URL). Retrying will not help.
    #[error("invalid server settings: {reason}")]
    InvalidSettings {
        /// What is wrong, in words.
        reason: String,
    },
    /// The program to start does not exist or is not executable.
    #[error("command not found: `{command}`")]
    CommandNotFound {
        /// The program that was asked for.
        command: String,
    },
    /// The program exists but could not be started.
    #[error("failed to start `{command}`: {source}")]
    Spawn {
        /// The program that was asked for.
        command: String,
        /// Why the operating system refused.
        #[source]
        source: std::io::Error,
    },
    /// The server answered in a way we will not follow, such as a legacy SSE `endpoint` on
    /// another origin. Retrying will not help.
    #[error("{reason}")]
    Refused {
        /// What the server did, in words.
        reason: String,
    },
    /// The transport could not reach the server (refused, reset, timed out, or it answered
    /// with something that is not the protocol).
    #[error("{source}")]
    Unreachable {
        /// The underlying failure.
        #[source]
        source: BoxError,
    },
}

impl ConnectError {
    /// [`ConnectError::InvalidSettings`].
    pub fn invalid_settings(reason: impl Into<String>) -> Self {
        Self::InvalidSettings {
            reason: reason.into(),
        }
    }

    /// [`ConnectError::Refused`].
    pub fn refused(reason: impl Into<String>) -> Self {
        Self::Refused {
            reason: reason.into(),
        }
    }

    /// [`ConnectError::Unreachable`], caused by `source`.
    pub fn unreachable(source: impl Into<BoxError>) -> Self {
        Self::Unreachable {
            source: source.into(),
        }
    }

    /// Whether retrying the same settings can never succeed. Such errors end tool loading at
    /// once instead of being retried.
    pub fn is_permanent(&self) -> bool {
        matches!(
            self,
            Self::InvalidSettings { .. } | Self::CommandNotFound { .. } | Self::Refused { .. }
        )
    }
}
