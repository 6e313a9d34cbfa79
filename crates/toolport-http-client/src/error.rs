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
    /// connect timeout). The source is hyper's error; when the connection was never made, it is
    /// wrapped in [`NotDelivered`], since the request then surely did not arrive.
    ///
    /// The message is the cause alone, such as `tcp connect error: Connection refused (os
    /// error 111)`: the errors around it already say that the server could not be reached
    /// (`cannot connect to ...`, `could not send ...`).
    #[error("{}", cause_text(.source.as_ref()))]
    Unreachable {
        /// hyper's error, or [`NotDelivered`] around it.
        #[source]
        source: BoxError,
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
    /// The authorizer could not authorize a request, or could not renew refused credentials
    /// (discovery, registration or the user's consent failed).
    #[error("authorization failed: {0}")]
    Authorization(#[source] BoxError),
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
            source: AuthorizationRequired::new(status, challenge),
        }
    }

    /// An error from hyper's client on a request to `host`. A failed connect is marked
    /// [`NotDelivered`]; a refused certificate is said in words.
    pub(crate) fn unreachable(error: hyper_util::client::legacy::Error, host: &str) -> Self {
        let connect = error.is_connect();
        #[cfg(feature = "tls")]
        let cause: BoxError = match crate::tls_refused::find(host, &error) {
            Some(refused) => Box::new(refused),
            None => Box::new(error),
        };
        #[cfg(not(feature = "tls"))]
        let cause: BoxError = {
            let _ = host;
            Box::new(error)
        };
        let source: BoxError = if connect {
            Box::new(NotDelivered::because(cause))
        } else {
            cause
        };
        Self::Unreachable { source }
    }

    /// Whether the request surely never reached the server (its connection was never made).
    pub fn is_not_delivered(&self) -> bool {
        NotDelivered::find(self)
    }
}

/// The cause of an unreachable server, in words: hyper's chain, without the marker's text and
/// without hyper-util's `client error (Connect)`, whose source says the same more precisely.
fn cause_text(source: &(dyn std::error::Error + 'static)) -> String {
    use std::error::Error as _;

    let mut cause = source;
    #[cfg(feature = "tls")]
    if let Some(refused) = cause
        .downcast_ref::<NotDelivered>()
        .and_then(|marker| marker.source())
        .unwrap_or(cause)
        .downcast_ref::<crate::tls_refused::TlsRefused>()
    {
        // It says it all: rustls' own words would only repeat it.
        return refused.to_string();
    }
    if let Some(inner) = cause
        .downcast_ref::<NotDelivered>()
        .and_then(|marker| marker.source())
    {
        cause = inner;
    }
    if let Some(inner) = cause
        .downcast_ref::<hyper_util::client::legacy::Error>()
        .and_then(|error| error.source())
    {
        cause = inner;
    }
    toolport_core::error_chain(cause)
}
