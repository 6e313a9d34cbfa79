//! [`StreamableError`]: why a message could not be sent, or its answer not read, over Streamable
//! HTTP.

use toolport_core::NotDelivered;
use toolport_http_client::HttpError;

/// A failed exchange with the server. A refusal of our credentials and a connect that never
/// happened keep their markers in the source chain (`AuthorizationRequired`, `NotDelivered`),
/// so the session above classifies them without knowing this crate.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StreamableError {
    /// The HTTP exchange itself failed, or the server answered with a refusing status.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The session is over (the server forgot it, or the transport was closed); nothing more is
    /// sent on it, so this message surely did not arrive.
    #[error("the session has ended: {reason}")]
    Ended {
        reason: String,
        #[source]
        not_delivered: NotDelivered,
    },
    /// A request's answer came in a media type that is neither JSON nor an event stream.
    #[error("the server answered with the unexpected content type {found:?}")]
    UnexpectedContentType { found: Option<String> },
    /// A request's JSON answer is not a JSON-RPC message.
    #[error("the server's JSON is not a JSON-RPC message: {reason}")]
    NotJsonRpc { reason: String },
}

impl StreamableError {
    /// The session ended for `reason` before this message was sent.
    pub(crate) fn ended(reason: impl Into<String>) -> Self {
        Self::Ended {
            reason: reason.into(),
            not_delivered: NotDelivered::new(),
        }
    }
}
