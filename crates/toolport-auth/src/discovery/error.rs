//! [`DiscoveryError`]: which metadata URL failed, and why.

use std::fmt;

use toolport_core::BoxError;

use crate::EndpointRefused;

/// Discovering a server's authorization metadata failed. Each message starts with the URL that
/// failed (without its query, fragment or user info, which may hold a key), then the cause.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoveryError {
    /// A URL to start from (the MCP server's, an issuer, or a `resource_metadata` URL) cannot
    /// be used.
    #[error("{url}: {problem}")]
    InvalidUrl {
        /// The URL, shown without secrets.
        url: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The request could not be sent, its answer not read in time, or the answer was larger
    /// than the limit.
    #[error("{url}: the metadata request failed: {source}")]
    Fetch {
        /// The metadata URL.
        url: String,
        /// Why.
        #[source]
        source: BoxError,
    },
    /// The server answered with a status that is neither success nor a client error (a
    /// redirect, which is not followed, or a server error).
    #[error("{url}: the server answered HTTP {status}")]
    Status {
        /// The metadata URL.
        url: String,
        /// The status code.
        status: u16,
    },
    /// The answer is not a metadata document: not JSON, or a field missing or of the wrong
    /// type.
    #[error("{url}: the answer is not a metadata document: {problem}")]
    Invalid {
        /// The metadata URL.
        url: String,
        /// What is wrong, in words.
        problem: String,
    },
    /// Every candidate URL answered with a client error (such as 404).
    #[error("no metadata found: {}", Tried(.tried))]
    NotFound {
        /// Each URL tried, in order (shown without secrets), with its status.
        tried: Vec<(String, u16)>,
    },
    /// The protected-resource metadata is for another resource than the MCP server (RFC 9728
    /// §3.3): it must not be used.
    #[error(
        "{url}: the metadata is for the resource {resource}, which does not match the server \
         {server}"
    )]
    ResourceMismatch {
        /// The metadata URL.
        url: String,
        /// The metadata's `resource`.
        resource: String,
        /// The MCP server's URL.
        server: String,
    },
    /// The protected-resource metadata lists no authorization server.
    #[error("{url}: the metadata lists no authorization server (authorization_servers)")]
    NoAuthorizationServer {
        /// The metadata URL.
        url: String,
    },
    /// A metadata URL was refused by the [`EndpointPolicy`](crate::EndpointPolicy) before it
    /// was requested (a scheme or an address it does not allow).
    #[error(transparent)]
    Refused(#[from] EndpointRefused),
    /// The authorization-server metadata names another issuer than the one it was fetched for
    /// (RFC 8414 §3.3): it must not be used.
    #[error("{url}: the metadata's issuer is {found}, not {expected}")]
    IssuerMismatch {
        /// The metadata URL.
        url: String,
        /// The issuer the URL was built from.
        expected: String,
        /// The document's `issuer`.
        found: String,
    },
}

impl DiscoveryError {
    /// The URL the error is about (without secrets); `None` for
    /// [`NotFound`](Self::NotFound), which is about several, and for a refused URL that is not
    /// a web URL.
    pub fn url(&self) -> Option<&str> {
        match self {
            Self::InvalidUrl { url, .. }
            | Self::Fetch { url, .. }
            | Self::Status { url, .. }
            | Self::Invalid { url, .. }
            | Self::ResourceMismatch { url, .. }
            | Self::NoAuthorizationServer { url }
            | Self::IssuerMismatch { url, .. } => Some(url),
            Self::Refused(refused) => refused.url(),
            Self::NotFound { .. } => None,
        }
    }
}

/// The URLs of [`DiscoveryError::NotFound`], each with its status.
struct Tried<'a>(&'a [(String, u16)]);

impl fmt::Display for Tried<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, (url, status)) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{url} answered HTTP {status}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_lists_each_url_and_status() {
        let error = DiscoveryError::NotFound {
            tried: vec![
                ("https://h/a".to_owned(), 404),
                ("https://h/b".to_owned(), 410),
            ],
        };
        assert_eq!(
            error.to_string(),
            "no metadata found: https://h/a answered HTTP 404, https://h/b answered HTTP 410"
        );
        assert_eq!(error.url(), None);
    }

    #[test]
    fn an_issuer_mismatch_names_the_url_first() {
        let error = DiscoveryError::IssuerMismatch {
            url: "https://as/.well-known/oauth-authorization-server".to_owned(),
            expected: "https://as".to_owned(),
            found: "https://evil".to_owned(),
        };
        assert_eq!(
            error.to_string(),
            "https://as/.well-known/oauth-authorization-server: the metadata's issuer is \
             https://evil, not https://as"
        );
    }
}
