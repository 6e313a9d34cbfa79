//! [`HttpError`]: what can go wrong on one HTTP exchange with an MCP server.

use toolport_core::{AuthorizationRequired, BoxError, NotDelivered};

/// One HTTP exchange failed. Messages never contain header values or tokens.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The server refused our credentials (HTTP 401 or 403). The refusal is this error's
    /// source, so [`AuthorizationRequired::find`] finds it.
    #[error("{source}")]
    Unauthorized {
        /// The status and the server's `WWW-Authenticate` challenge.
        #[source]
        source: AuthorizationRequired,
    },
    /// The request could not be sent or its answer not received (refused, reset, TLS failure,
    /// connect timeout).
    #[error("could not reach the server: {reason}")]
    Unreachable {
        /// The cause, with its whole source chain.
        reason: String,
        /// Set when the connection was never made, so the request surely did not arrive.
        #[source]
        not_delivered: Option<NotDelivered>,
    },
    /// Reading the response body failed midway.
    #[error("the response body broke off: {0}")]
    Body(#[source] hyper::Error),
    /// The response body is larger than the configured limit.
    #[error("the server's response is larger than the limit of {limit} bytes (max_response_bytes)")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The server answered with an unexpected HTTP status.
    #[error("the server answered HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The start of the response body, for diagnosis.
        body: String,
    },
    /// A header name or value is not valid HTTP. The value is never shown.
    #[error("invalid HTTP header `{name}`")]
    InvalidHeader {
        /// The header's name.
        name: String,
    },
    /// The header provider failed.
    #[error("the header provider failed: {0}")]
    HeaderProvider(#[source] BoxError),
    /// The token source failed.
    #[error("the token source failed: {0}")]
    Token(#[source] BoxError),
    /// The message could not be encoded as JSON.
    #[error("could not encode the message: {0}")]
    Encode(#[source] serde_json::Error),
}

impl HttpError {
    /// A 401 or 403 refusal, with the server's challenge.
    pub fn unauthorized(status: u16, challenge: Option<String>) -> Self {
        Self::Unauthorized {
            source: AuthorizationRequired { status, challenge },
        }
    }

    /// An error from hyper's client, with its source chain flattened into the message.
    pub(crate) fn unreachable(error: hyper_util::client::legacy::Error) -> Self {
        Self::Unreachable {
            reason: error_chain(&error),
            not_delivered: error.is_connect().then_some(NotDelivered),
        }
    }
}

/// `error: source: source...`, skipping a source whose text its parent already shows: one
/// line for an error message. For transport authors.
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut current = error.source();
    while let Some(source) = current {
        let part = source.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        current = source.source();
    }
    text
}
