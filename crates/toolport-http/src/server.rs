//! [`HttpServer`]: the parameters of a server reached over Streamable HTTP, and their builder.

use std::fmt;

use toolport_core::{ConnectError, HeaderProvider, Secret, Timeouts, TokenSource};

use crate::{HttpClient, HttpOptions, LazyHttpClient};

/// An MCP server reached over Streamable HTTP (MCP 2025-11-25) at one URL.
///
/// Holds parameters and one pooled [`HttpClient`], created on the first connect and reused by
/// every later connect and request. Each [`connect`](toolport_core::Connector::connect) starts a
/// new MCP session on it. Headers, the credential and the header provider are applied to every
/// request; the provider sees the context of the caller the request is made for.
///
/// [`Timeouts::connect`] bounds each TCP and TLS connect here; `initialize` and `request` are
/// applied by the session layer (`toolport-session`), which cancels a request on the server
/// when its bound expires. When the transport closes, the session is ended on the server with
/// `DELETE` unless [`terminate_on_close(false)`](Self::terminate_on_close).
///
/// # Examples
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use toolport_core::{Connector, ReadonlyContext, RotatingToken, Secret, Timeouts};
/// use toolport_http::HttpServer;
/// use toolport_session::McpSession;
///
/// let token = RotatingToken::new(Secret::new("first-token"));
/// let server = HttpServer::new("http://127.0.0.1:8080/mcp?key=not-shown")
///     .bearer_token(token.clone())
///     .header("X-Client", "my-agent")
///     .header_provider(|context: Option<&ReadonlyContext>| {
///         let user = context.and_then(|c| c.get("user_id")).and_then(|v| v.as_str());
///         Ok(user.map(|u| vec![("X-User-Id".to_owned(), Secret::new(u))]).unwrap_or_default())
///     })
///     .timeouts(Timeouts::default().with_connect(Duration::from_secs(5)));
/// assert_eq!(server.target(), "`http://127.0.0.1:8080/mcp` over Streamable HTTP");
///
/// let session = McpSession::new(server);
/// let tools = session.list_tools().await?;
/// token.set(Secret::new("rotated")); // the next request sends the new token
/// # drop(tools);
/// session.close().await;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct HttpServer {
    pub(crate) url: String,
    pub(crate) options: HttpOptions,
    pub(crate) terminate_on_close: bool,
    client: LazyHttpClient,
}

impl HttpServer {
    /// Default for [`max_response_bytes`](Self::max_response_bytes): 16 MiB.
    pub const DEFAULT_MAX_RESPONSE_BYTES: usize = HttpOptions::DEFAULT_MAX_RESPONSE_BYTES;

    /// A server at `url` (`http` or `https`). The URL is checked on connect; credentials in it
    /// are refused there (use [`bearer_token`](Self::bearer_token) or [`header`](Self::header)).
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            options: HttpOptions::new(),
            terminate_on_close: true,
            client: LazyHttpClient::default(),
        }
    }

    /// Replaces all header, credential, timeout and limit settings at once.
    pub fn options(mut self, options: HttpOptions) -> Self {
        self.options = options;
        self.client = LazyHttpClient::default();
        self
    }

    /// The header, credential, timeout and limit settings.
    pub fn http_options(&self) -> &HttpOptions {
        &self.options
    }

    /// Adds a header sent with every request; see [`HttpOptions::header`].
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.options = self.options.header(name, value);
        self
    }

    /// Computes headers per request from the caller's context; see
    /// [`HttpOptions::header_provider`].
    pub fn header_provider(mut self, provider: impl HeaderProvider + 'static) -> Self {
        self.options = self.options.header_provider(provider);
        self
    }

    /// Sends `Authorization: Bearer <token>`, asked for per request; see
    /// [`HttpOptions::bearer_token`].
    pub fn bearer_token(mut self, source: impl TokenSource + 'static) -> Self {
        self.options = self.options.bearer_token(source);
        self
    }

    /// Sends an API key in `header`, asked for per request; see [`HttpOptions::api_key`].
    pub fn api_key(
        mut self,
        header: impl Into<String>,
        source: impl TokenSource + 'static,
    ) -> Self {
        self.options = self.options.api_key(header, source);
        self
    }

    /// The bounds; this transport applies [`Timeouts::connect`] to TCP and TLS connects, the
    /// session layer the others. See [`HttpOptions::timeouts`].
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.options = self.options.timeouts(timeouts);
        self.client = LazyHttpClient::default();
        self
    }

    /// The largest JSON answer or SSE event accepted, in bytes. Default 16 MiB. See
    /// [`HttpOptions::max_response_bytes`].
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.options = self.options.max_response_bytes(bytes);
        self
    }

    /// Whether closing the transport ends the session on the server with `DELETE`. Default
    /// true; turn it off for servers that reject `DELETE` or sessions meant to outlive us.
    pub fn terminate_on_close(mut self, terminate: bool) -> Self {
        self.terminate_on_close = terminate;
        self
    }

    /// The shared pooled client, created on first use.
    pub(crate) fn client(&self, https: bool) -> Result<HttpClient, ConnectError> {
        self.client.get(https, self.options.connect_timeout())
    }
}

impl fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpServer")
            .field("url", &crate::target::redacted_raw_url(&self.url))
            .field("options", &self.options)
            .field("terminate_on_close", &self.terminate_on_close)
            .finish()
    }
}
