//! [`SessionError`]: everything that can go wrong while keeping a session and making requests,
//! and the questions an agent asks of it (`is_timeout`, `is_connect`, ...).

mod classify;

use std::time::Duration;

use rmcp::model::{ErrorCode, ErrorData};
use toolport_core::{AuthorizationRequired, BoxError, ConnectError};

/// Something went wrong while keeping a session or making a request.
///
/// Each message names the server, the operation and the cause in one line. When the transport
/// knows why it died (a child's exit status and the tail of its stderr), that is appended. The
/// cause stays reachable as [`source`](std::error::Error::source).
///
/// Branch on the predicates rather than on the variants, as with `hyper::Error`:
/// [`is_timeout`](Self::is_timeout), [`is_connect`](Self::is_connect),
/// [`is_unauthorized`](Self::is_unauthorized), [`is_permanent`](Self::is_permanent) and
/// [`is_outcome_uncertain`](Self::is_outcome_uncertain).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The transport could not be opened.
    #[error("cannot connect to {target}: {source}")]
    #[non_exhaustive]
    Connect {
        /// The server, as its connector describes it.
        target: String,
        /// Why the transport could not be opened.
        #[source]
        source: ConnectError,
    },
    /// Opening the transport took longer than the connect timeout.
    #[error("cannot connect to {target}: no connection within {}", millis(*.timeout))]
    #[non_exhaustive]
    ConnectTimeout {
        /// The server.
        target: String,
        /// The bound that expired.
        timeout: Duration,
    },
    /// The `initialize` handshake failed.
    #[error("{target} failed to initialize: {reason}{}", suffix(.details))]
    #[non_exhaustive]
    Initialize {
        /// The server.
        target: String,
        /// What went wrong.
        reason: String,
        /// What the transport knows about the failure.
        details: Option<String>,
        /// Whether retrying can never help (the server refused our protocol or parameters).
        permanent: bool,
        /// rmcp's error.
        #[source]
        source: Option<BoxError>,
    },
    /// The server did not finish `initialize` within the bound.
    #[error("{target} did not answer initialize within {}{}", millis(*.timeout), suffix(.details))]
    #[non_exhaustive]
    InitializeTimeout {
        /// The server.
        target: String,
        /// The bound that expired.
        timeout: Duration,
        /// What the transport knows (a server that printed garbage, say).
        details: Option<String>,
    },
    /// A request took longer than the request timeout. The server was sent
    /// `notifications/cancelled` before this error was returned, unless the transport could
    /// not take it in time (`cancelled` is false).
    #[error("{method} on {target} timed out after {}; {}", millis(*.timeout), cancel_note(*.cancelled))]
    #[non_exhaustive]
    RequestTimeout {
        /// The server.
        target: String,
        /// The request, such as `tools/call search`.
        method: String,
        /// The bound that expired.
        timeout: Duration,
        /// Whether the cancellation reached the transport: false when it could not be written
        /// in time (a child that stopped reading its stdin, say).
        cancelled: bool,
    },
    /// A tool call waited its whole bound for a free slot among the session's
    /// [`max_concurrent_calls`](crate::SessionBuilder::max_concurrent_calls), every slot
    /// being taken by calls still in flight. It was never sent, so it surely did not run.
    #[error(
        "{method} on {target} waited {} for one of the {limit} concurrent calls the session allows (max_concurrent_calls; `maxConcurrentCalls` in mcp.json) and was never sent: raise the limit, or give the call a longer timeout",
        millis(*.timeout)
    )]
    #[non_exhaustive]
    QueueTimeout {
        /// The server.
        target: String,
        /// The call, such as `tools/call search`.
        method: String,
        /// How many calls the session lets be in flight at once.
        limit: usize,
        /// The call's bound, which ran out while it waited.
        timeout: Duration,
    },
    /// The request failed with a JSON-RPC error, from the server or from the transport (a
    /// response over the size limit, say).
    #[error("{method} on {target} failed: {} (JSON-RPC error {})", .error.message, .error.code.0)]
    #[non_exhaustive]
    Rpc {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// The error the server sent.
        #[source]
        error: ErrorData,
    },
    /// The connection died while a request was in flight, and the request was safe to repeat
    /// or was never known to have arrived. The next use reconnects.
    #[error("connection to {target} lost during {method}{}", suffix(.details))]
    #[non_exhaustive]
    ConnectionLost {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// What the transport knows about the failure.
        details: Option<String>,
        /// The transport's error, when it reported one.
        #[source]
        source: Option<BoxError>,
    },
    /// The request could not be sent: the transport was down or could not reach the server.
    /// It surely did not run. The next use reconnects.
    #[error("could not send {method} to {target}; it never reached the server{}", because(.details, .source))]
    #[non_exhaustive]
    NotSent {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// What the transport knows about the failure.
        details: Option<String>,
        /// The transport's error.
        #[source]
        source: Option<BoxError>,
    },
    /// The connection died while a tool call was in flight, and the call was not replayed
    /// because the tool is not marked read-only or idempotent. It may or may not have run.
    #[error(
        "connection to {target} lost during tools/call {tool}; the outcome is uncertain (the tool may have run) and the call was not repeated because the tool is not marked read-only or idempotent{}",
        suffix(.details)
    )]
    #[non_exhaustive]
    OutcomeUncertain {
        /// The server.
        target: String,
        /// The tool that was called.
        tool: String,
        /// What the transport knows about the failure.
        details: Option<String>,
        /// The transport's error, when it reported one.
        #[source]
        source: Option<BoxError>,
    },
    /// The server refused our credentials (HTTP 401 or 403).
    #[error("{target} refused {method}: {refusal}")]
    #[non_exhaustive]
    Unauthorized {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// The status and the server's challenge.
        #[source]
        refusal: AuthorizationRequired,
    },
    /// The server's answer did not fit the request (a protocol violation).
    #[error("{target} sent an unexpected answer to {method}")]
    #[non_exhaustive]
    UnexpectedResponse {
        /// The server.
        target: String,
        /// The request.
        method: String,
    },
    /// The server does not offer what was asked of it, such as a subscription to a resource.
    #[error("{target} does not offer {feature}")]
    #[non_exhaustive]
    Unsupported {
        /// The server.
        target: String,
        /// What it does not offer.
        feature: String,
    },
    /// The server cancelled the task that ran a tool call (2026-07-28's tasks extension), so
    /// the call has no result.
    #[error("{target} cancelled the task running {method}{}", suffix(.details))]
    #[non_exhaustive]
    TaskCancelled {
        /// The server.
        target: String,
        /// The call, such as `tools/call research`.
        method: String,
        /// The task's last status message, if it gave one.
        details: Option<String>,
    },
    /// The answer to the request was lost while the connection stayed up (on 2026-07-28, an
    /// answer stream that broke off, which that version cannot resume): the request may or
    /// may not have run. A tool call comes back as [`SessionError::OutcomeUncertain`] unless
    /// its replay rules let it be sent again.
    #[error("the answer to {method} from {target} was lost{}", suffix(.details))]
    #[non_exhaustive]
    AnswerLost {
        /// The server.
        target: String,
        /// The request.
        method: String,
        /// Why, as the transport said.
        details: Option<String>,
    },
    /// The session was closed with [`McpSession::close`](crate::McpSession::close).
    #[error("the session to {target} is closed")]
    #[non_exhaustive]
    Closed {
        /// The server.
        target: String,
    },
}

impl SessionError {
    /// The server answered `method` with a JSON-RPC error: for a fake session (see
    /// `toolport_tools::ToolSession`) or a layer that answers as the server would.
    pub fn rpc(target: impl Into<String>, method: impl Into<String>, error: ErrorData) -> Self {
        Self::Rpc {
            target: target.into(),
            method: method.into(),
            error,
        }
    }

    /// `method` took longer than `timeout`, and was cancelled: for a fake session, as
    /// [`rpc`](Self::rpc).
    pub fn request_timeout(
        target: impl Into<String>,
        method: impl Into<String>,
        timeout: Duration,
    ) -> Self {
        Self::RequestTimeout {
            target: target.into(),
            method: method.into(),
            timeout,
            cancelled: true,
        }
    }

    /// What kind of failure this is, as a short stable name for metrics and traces (the
    /// `error.type` of a request's span): `connect`, `connect_timeout`, `initialize`,
    /// `initialize_timeout`, `request_timeout`, `queue_timeout`, `rpc`, `connection_lost`, `not_sent`,
    /// `outcome_uncertain`, `unauthorized`, `unexpected_response`, `unsupported`,
    /// `task_cancelled`, `answer_lost` or `closed`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Connect { .. } => "connect",
            Self::ConnectTimeout { .. } => "connect_timeout",
            Self::Initialize { .. } => "initialize",
            Self::InitializeTimeout { .. } => "initialize_timeout",
            Self::RequestTimeout { .. } => "request_timeout",
            Self::QueueTimeout { .. } => "queue_timeout",
            Self::Rpc { .. } => "rpc",
            Self::ConnectionLost { .. } => "connection_lost",
            Self::NotSent { .. } => "not_sent",
            Self::OutcomeUncertain { .. } => "outcome_uncertain",
            Self::Unauthorized { .. } => "unauthorized",
            Self::UnexpectedResponse { .. } => "unexpected_response",
            Self::Unsupported { .. } => "unsupported",
            Self::TaskCancelled { .. } => "task_cancelled",
            Self::AnswerLost { .. } => "answer_lost",
            Self::Closed { .. } => "closed",
        }
    }

    /// Whether the server answered that it has no such method: an optional method it does
    /// not serve, which the catalog reads as empty.
    pub(crate) fn is_method_not_found(&self) -> bool {
        matches!(self, Self::Rpc { error, .. } if error.code == ErrorCode::METHOD_NOT_FOUND)
    }

    /// Whether a bound expired: connecting, `initialize`, the request itself, or a tool call's
    /// wait for a free slot.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            Self::ConnectTimeout { .. }
                | Self::InitializeTimeout { .. }
                | Self::RequestTimeout { .. }
                | Self::QueueTimeout { .. }
        )
    }

    /// Whether the session could not be established or the request could not be delivered: the
    /// transport did not open (or not in time), `initialize` did not complete, or the request
    /// never reached the server. Nothing ran on the server.
    pub fn is_connect(&self) -> bool {
        matches!(
            self,
            Self::Connect { .. }
                | Self::ConnectTimeout { .. }
                | Self::Initialize { .. }
                | Self::InitializeTimeout { .. }
                | Self::NotSent { .. }
        )
    }

    /// Whether the server refused our credentials (HTTP 401 or 403). The refusal, with the
    /// server's challenge, is the error's source.
    pub fn is_unauthorized(&self) -> bool {
        matches!(self, Self::Unauthorized { .. })
    }

    /// Whether retrying can never succeed: bad settings, a missing command, refused
    /// credentials, a closed session, a server that rejects our parameters or protocol
    /// version, or one that does not offer what was asked. Tool loading stops at once on
    /// these.
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Connect { source, .. } => source.is_permanent(),
            Self::Initialize { permanent, .. } => *permanent,
            Self::Rpc { error, .. } => is_invalid_argument(error),
            Self::Closed { .. } | Self::Unauthorized { .. } | Self::Unsupported { .. } => true,
            _ => false,
        }
    }

    /// Whether a tool call may have run on the server although no answer says so: its
    /// connection was lost and it was not replayed, it timed out (the server was told to
    /// cancel it, but may have done part of the work), or the server cancelled the task that
    /// ran it. Do not repeat such a call blindly.
    pub fn is_outcome_uncertain(&self) -> bool {
        match self {
            Self::OutcomeUncertain { .. } | Self::TaskCancelled { .. } => true,
            Self::RequestTimeout { method, .. } | Self::AnswerLost { method, .. } => {
                method.starts_with("tools/call")
            }
            _ => false,
        }
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

/// What a timed-out request's message says of its cancellation.
fn cancel_note(cancelled: bool) -> &'static str {
    if cancelled {
        "the server was told to cancel it"
    } else {
        "its cancellation could not be written to the server in time"
    }
}

fn suffix(details: &Option<String>) -> String {
    match details {
        Some(details) => format!(" ({details})"),
        None => String::new(),
    }
}

/// The details, or else the cause's own words.
fn because(details: &Option<String>, source: &Option<BoxError>) -> String {
    match (details, source) {
        (Some(_), _) => suffix(details),
        (None, Some(source)) => format!(" ({})", toolport_core::error_chain(source.as_ref())),
        (None, None) => String::new(),
    }
}
