//! [`HttpServer`]: the parameters of a server reached over Streamable HTTP, and their builder.

use std::fmt;

use toolport_http_client::{HttpOptions, LazyHttpClient, WithHttpOptions};

/// An MCP server reached over Streamable HTTP (MCP 2025-11-25, or 2026-07-28 when the session
/// asks for it) at one URL.
///
/// Holds parameters and one pooled HTTP client, created on the first connect and reused by
/// every later connect and request. Each [`connect`](toolport_core::Connector::connect) starts a
/// new MCP session on it. Headers, the credential and the header provider are applied to every
/// request; the provider sees the context of the caller the request is made for.
///
/// The bounds are the session's: its [`Timeouts::connect`](toolport_core::Timeouts::connect)
/// bounds each TCP and TLS connect here, and it applies the others itself, cancelling a request
/// on the server when its bound expires. When the transport closes, the session is ended on
/// the server with `DELETE` unless [`terminate_on_close(false)`](Self::terminate_on_close).
///
/// After the handshake the session opens the listening stream (a `GET`), on which the server
/// sends what answers no request: a changed tool list, say. It holds one connection for the
/// session's life, about 18 KiB of the client's memory; see
/// [`listening_stream`](Self::listening_stream) for fleets of idle sessions.
///
/// # Examples
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use toolport_core::{Connector, ReadonlyContext, Secret, Timeouts};
/// use toolport_http::{HttpServer, WithHttpOptions};
/// use toolport_http_client::RotatingToken;
/// use toolport_session::McpSession;
///
/// let token = RotatingToken::new(Secret::new("first-token"));
/// let server = HttpServer::new("http://127.0.0.1:8080/mcp?key=not-shown")
///     .bearer_token(token.clone())
///     .header("X-Client", "my-agent")
///     .header_provider(|context: Option<&ReadonlyContext>| {
///         let user = context.and_then(|c| c.get("user_id")).and_then(|v| v.as_str());
///         Ok(user.map(|u| vec![("X-User-Id".to_owned(), Secret::new(u))]).unwrap_or_default())
///     });
/// assert_eq!(server.target(), "`http://127.0.0.1:8080/mcp` over Streamable HTTP");
///
/// let session = McpSession::builder(server)
///     .timeouts(Timeouts::default().with_connect(Duration::from_secs(5)))
///     .build();
/// let tools = session.list_tools().await?;
/// token.set(Secret::new("rotated")); // the next request sends the new token
/// # drop(tools);
/// session.close().await;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
#[must_use]
pub struct HttpServer {
    pub(crate) url: String,
    /// What targets, errors and `Debug` output show for the URL, if not the URL itself.
    pub(crate) url_shown_as: Option<String>,
    pub(crate) options: HttpOptions,
    pub(crate) terminate_on_close: bool,
    pub(crate) listening_stream: bool,
    pub(crate) client: LazyHttpClient,
}

impl HttpServer {
    /// A server at `url` (`http` or `https`). The URL is checked on connect; credentials in it
    /// are refused there (use [`bearer_token`](WithHttpOptions::bearer_token) or [`header`](WithHttpOptions::header)).
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            url_shown_as: None,
            options: HttpOptions::new(),
            terminate_on_close: true,
            listening_stream: true,
            client: LazyHttpClient::default(),
        }
    }

    /// Shows the URL as `shown` wherever the server is named ([`target`](toolport_core::Connector::target),
    /// log lines, errors, `Debug`), in place of the URL given to [`new`](Self::new): for a URL
    /// with a secret in its host or path, such as one expanded from
    /// `https://${HOST}/${TENANT}/mcp`, give it as written. Userinfo, query and fragment are
    /// left out of `shown` too.
    pub fn url_shown_as(mut self, shown: impl Into<String>) -> Self {
        self.url_shown_as = Some(shown.into());
        self
    }

    /// The URL as targets, errors and `Debug` output show it: without userinfo, query or
    /// fragment, and as [`url_shown_as`](Self::url_shown_as) says if it was called.
    pub(crate) fn shown_url(&self) -> String {
        match &self.url_shown_as {
            Some(shown) => toolport_http_client::toolkit::redacted_url_text(shown.trim()),
            None => toolport_http_client::toolkit::describe_raw_url(&self.url),
        }
    }

    /// Whether closing the transport ends the session on the server with `DELETE`. Default
    /// true; turn it off for servers that reject `DELETE` or sessions meant to outlive us.
    pub fn terminate_on_close(mut self, terminate: bool) -> Self {
        self.terminate_on_close = terminate;
        self
    }

    /// Whether the session opens the listening stream, a `GET` on which the server sends
    /// notifications and requests that answer no request of ours. Default true.
    ///
    /// Off, each idle session costs about a third less memory (it holds no connection), which
    /// counts for thousands of tenants' sessions; the server's messages that come with an
    /// answer still arrive, but a changed tool list outside a call goes unnoticed until the
    /// toolset lists again.
    pub fn listening_stream(mut self, listen: bool) -> Self {
        self.listening_stream = listen;
        self
    }
}

impl fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpServer")
            .field("url", &self.shown_url())
            .field("options", &self.options)
            .field("terminate_on_close", &self.terminate_on_close)
            .field("listening_stream", &self.listening_stream)
            .finish()
    }
}

impl WithHttpOptions for HttpServer {
    fn http_options_mut(&mut self) -> &mut HttpOptions {
        &mut self.options
    }
}
