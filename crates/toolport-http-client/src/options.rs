//! [`HttpOptions`]: the header, credential and limit settings every HTTP transport shares.

use std::fmt;
use std::sync::Arc;

use crate::{Authorizer, Credential, Header, HeaderProvider, NetworkOptions};

/// The settings an HTTP-based transport shares: static headers, a credential asked for on
/// every request, a per-request header provider and the response size limit.
///
/// Its builder methods are [`WithHttpOptions`](crate::WithHttpOptions)'s, which a transport's
/// server type that keeps an `HttpOptions` gets too. The transport turns it into
/// [`RequestHeaders`](crate::RequestHeaders) and reads the limit. The bounds on connecting and
/// each request are the session's (see [`ConnectContext`](toolport_core::ConnectContext)), not
/// settings here.
///
/// # Examples
///
/// ```
/// use toolport_core::Secret;
/// use toolport_http_client::{HttpOptions, WithHttpOptions};
///
/// let options = HttpOptions::new()
///     .header("X-Client", "my-agent")
///     .bearer_token(Secret::new("sk-123"))
///     .max_response_bytes(1024 * 1024);
/// assert_eq!(options.max_response_bytes, 1024 * 1024);
/// assert!(!format!("{options:?}").contains("sk-123"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Headers sent with every request, in order; a name may repeat.
    pub headers: Vec<Header>,
    /// Computes headers for every request from the caller's context.
    pub header_provider: Option<Arc<dyn HeaderProvider>>,
    /// The credential, asked for on every request.
    pub credential: Option<Credential>,
    /// Authorizes every request and renews refused credentials, such as an OAuth client.
    pub authorizer: Option<Arc<dyn Authorizer>>,
    /// The largest response accepted, in bytes: a JSON body, or one SSE event.
    pub max_response_bytes: usize,
    /// The proxy, the roots trusted besides the system's, and the client certificate.
    pub network: NetworkOptions,
}

impl HttpOptions {
    /// Default for [`max_response_bytes`](Self::max_response_bytes): 16 MiB.
    pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

    /// No headers, no credential, a 16 MiB response limit.
    pub fn new() -> Self {
        Self {
            headers: Vec::new(),
            header_provider: None,
            credential: None,
            authorizer: None,
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
            network: NetworkOptions::default(),
        }
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HttpOptions")
            .field("header_names", &header_names)
            .field("header_provider", &self.header_provider.is_some())
            .field("credential", &self.credential)
            .field("authorizer", &self.authorizer)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("network", &self.network)
            .finish()
    }
}
