//! [`HttpOptions`]: the header, credential and limit settings every HTTP transport shares.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use toolport_core::{HeaderProvider, Secret, Timeouts, TokenSource};

use crate::credential::Credential;

/// The settings an HTTP-based transport shares: static headers, a credential asked for on
/// every request, a per-request header provider, timeouts and the response size limit.
///
/// [`HttpServer`](crate::HttpServer) wraps one and forwards its builder methods; other
/// transport crates (legacy SSE) do the same, then turn it into [`RequestHeaders`] and an
/// [`HttpClient`].
///
/// [`RequestHeaders`]: crate::RequestHeaders
/// [`HttpClient`]: crate::HttpClient
#[derive(Clone)]
pub struct HttpOptions {
    pub(crate) headers: Vec<(String, Secret)>,
    pub(crate) provider: Option<Arc<dyn HeaderProvider>>,
    pub(crate) credential: Option<Credential>,
    pub(crate) timeouts: Timeouts,
    pub(crate) max_response_bytes: usize,
}

impl HttpOptions {
    /// Default for [`max_response_bytes`](Self::max_response_bytes): 16 MiB.
    pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

    /// No headers, no credential, default [`Timeouts`], a 16 MiB response limit.
    pub fn new() -> Self {
        Self {
            headers: Vec::new(),
            provider: None,
            credential: None,
            timeouts: Timeouts::default(),
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
        }
    }

    /// Adds a header sent with every request. The value is treated as a secret: it is marked
    /// sensitive and never appears in `Debug` output. Invalid names or values fail the connect.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Computes headers for every request from the caller's context (`None` for requests no
    /// caller made, such as `initialize` and notifications). Its headers replace static headers
    /// and the credential of the same name.
    pub fn header_provider(mut self, provider: impl HeaderProvider + 'static) -> Self {
        self.provider = Some(Arc::new(provider));
        self
    }

    /// Sends `Authorization: Bearer <token>`, asking `source` for the token on every request, so
    /// a [`RotatingToken`](toolport_core::RotatingToken) rotates without a rebuild.
    pub fn bearer_token(mut self, source: impl TokenSource + 'static) -> Self {
        self.credential = Some(Credential::Bearer(Arc::new(source)));
        self
    }

    /// Sends the key from `source` in the header `header` (such as `X-API-Key`), asked for on
    /// every request. Replaces a bearer token.
    pub fn api_key(
        mut self,
        header: impl Into<String>,
        source: impl TokenSource + 'static,
    ) -> Self {
        self.credential = Some(Credential::ApiKey {
            header: header.into(),
            source: Arc::new(source),
        });
        self
    }

    /// The bounds. This crate applies [`Timeouts::connect`] to each TCP and TLS connect; the
    /// session layer applies `initialize` and `request`. See [`Timeouts`] for the defaults.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// The largest response accepted, in bytes: a JSON body, or one SSE event. A larger answer
    /// to a request fails that request with an error naming the limit. Default 16 MiB.
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// The bound on each TCP and TLS connect.
    pub fn connect_timeout(&self) -> Duration {
        self.timeouts.connect
    }

    /// The bounds set with [`timeouts`](Self::timeouts).
    pub fn timeout_settings(&self) -> Timeouts {
        self.timeouts
    }

    /// The response limit set with [`max_response_bytes`](Self::max_response_bytes).
    pub fn response_limit(&self) -> usize {
        self.max_response_bytes
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
            .field("header_provider", &self.provider.is_some())
            .field("credential", &self.credential)
            .field("timeouts", &self.timeouts)
            .field("max_response_bytes", &self.max_response_bytes)
            .finish()
    }
}
