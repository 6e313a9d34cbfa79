//! [`SessionError`]: everything that can go wrong while keeping a session and making requests.

use std::time::Duration;

use rmcp::model::{ErrorCode, ErrorData};
use toolport_core::{AuthorizationRequired, ConnectError};

/// Something went wrong while keeping a session or making a request.
///
/// Each message names the server, the operation and the cause in one line. When the transport
/// knows why it died (a child's exit status and the tail of its stderr), that is appended.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The transport could not be opened.
    #[error("cannot connect to {target}: {source}")]
    Connect {
        /// The server, as its connector describes it.
        target: String,
        /// Why the transport could not be opened.
        #[source]
        source: ConnectError,
    },
    /// Opening the transport took longer than the connect timeout.
    #[error("cannot connect to {target}: no connection within {}", millis(*.timeout))]
    ConnectTimeout {
        /// The server.
        target: String,
        /// The bound that expired.
        timeout: Duration,
    },
    /// The `initialize` handshake failed.
    #[error("{target} failed to initialize: {reason}{}", suffix(.details))]
    Initialize {
        /// The server.
        target: String,
        /// What went wrong.
        reason: String,
        /// What the transport knows about the failure.
        details: Option<String>,
        /// Whether retrying can never help (the server refused our protocol or parameters).
        permanent: bool,
    },
    /// The server did not finish `initialize` within the bound.
    #[error("{target} did not answer initialize within {}{}", millis(*.timeout), suffix(.details))]
    InitializeTimeout {
        /// The server.
        target: String,
        /// The bound that expired.
        timeout: Duration,
        /// What the transport knows (a server that printed garbage, say).
        details: Option<String>,
    },
    /// A request took longer than the request timeout. The server was sent
    /// `notifications/cancelled`.
    #[error("{method} on {target} timed out after {}; the server was told to cancel it", millis(*.timeout))]
    RequestTimeout {
        /// The server.
        target: String,
        /// The request, such as `tools/call search`.
        method: String,
        /// The bound that expired.
        timeout: Duration,
    },
    /// The request failed with a JSON-RPC error, from the server or from the transport (a
    /// response over the size limit, say).
    #[error("{method} on {target} failed: {} (JSON-RPC error {})", .error.message, .error.code.0)]
    Rpc {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// The error the server sent.
        error: ErrorData,
    },
    /// The connection died while a request was in flight, and the request was safe to repeat
    /// or was never known to have arrived. The next use reconnects.
    #[error("connection to {target} lost during {method}{}", suffix(.details))]
    ConnectionLost {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// What the transport knows about the failure.
        details: Option<String>,
    },
    /// The request could not be sent: the transport was down or could not reach the server.
    /// It surely did not run. The next use reconnects.
    #[error("could not send {method} to {target}; it never reached the server{}", suffix(.details))]
    NotSent {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// Why, as the transport tells it.
        details: Option<String>,
    },
    /// The connection died while a tool call was in flight, and the call was not replayed
    /// because the tool is not marked read-only or idempotent. It may or may not have run.
    #[error(
        "connection to {target} lost during tools/call {tool}; the outcome is uncertain (the tool may have run) and the call was not repeated because the tool is not marked read-only or idempotent{}",
        suffix(.details)
    )]
    OutcomeUncertain {
        /// The server.
        target: String,
        /// The tool that was called.
        tool: String,
        /// What the transport knows about the failure.
        details: Option<String>,
    },
    /// The server refused our credentials (HTTP 401 or 403).
    #[error("{target} refused {method}: {refusal}")]
    Unauthorized {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// The status and the server's challenge.
        refusal: AuthorizationRequired,
    },
    /// The server's answer did not fit the request (a protocol violation).
    #[error("{target} sent an unexpected answer to {method}")]
    UnexpectedResponse {
        /// The server.
        target: String,
        /// The request.
        method: String,
    },
    /// The session was closed with [`McpSession::close`](crate::McpSession::close).
    #[error("the session to {target} is closed")]
    Closed {
        /// The server.
        target: String,
    },
}

impl SessionError {
    /// Whether retrying can never succeed: bad settings, a missing command, or a server that
    /// rejects our parameters or protocol version. Tool loading stops at once on these.
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Connect { source, .. } => source.is_permanent(),
            Self::Initialize { permanent, .. } => *permanent,
            Self::Rpc { error, .. } => is_invalid_argument(error),
            Self::Closed { .. } | Self::Unauthorized { .. } => true,
            _ => false,
        }
    }

    /// Whether a bound expired.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            Self::ConnectTimeout { .. }
                | Self::InitializeTimeout { .. }
                | Self::RequestTimeout { .. }
        )
    }

    /// Whether a discovery request that failed this way is worth another attempt on a fresh
    /// session. Timeouts are not: a hung server would multiply the wait.
    pub(crate) fn is_retryable(&self) -> bool {
        !self.is_permanent() && !self.is_timeout()
    }
}

/// JSON-RPC errors that say the request itself is wrong.
fn is_invalid_argument(error: &ErrorData) -> bool {
    matches!(
        error.code,
        ErrorCode::INVALID_PARAMS | ErrorCode::INVALID_REQUEST | ErrorCode::METHOD_NOT_FOUND
    )
}

fn millis(duration: Duration) -> String {
    format!("{} ms", duration.as_millis())
}

fn suffix(details: &Option<String>) -> String {
    match details {
        Some(details) => format!(" ({details})"),
        None => String::new(),
    }
}
