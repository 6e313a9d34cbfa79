//! [`SseServer`]: the parameters of a server reached over the legacy HTTP+SSE transport, and
//! their builder.

use std::fmt;
use std::time::Duration;

use toolport_http_client::{HttpOptions, LazyHttpClient, WithHttpOptions};

/// An MCP server reached over the legacy HTTP+SSE transport (MCP 2024-11-05): an event stream
/// at one URL, and an endpoint the server names on it for the client's messages.
///
/// Holds parameters and one pooled HTTP client, created on the first connect and reused by
/// every later connect and post. Each [`connect`](toolport_core::Connector::connect) opens the
/// event stream, waits for the `endpoint` event (within the session's
/// [`Timeouts::connect`](toolport_core::Timeouts::connect), which also bounds each reconnect and
/// a post waiting for one) and refuses an endpoint on another origin than the stream's. Headers, the credential and the header
/// provider are applied to every request; the provider sees the context of the caller a post is
/// made for (`None` for the stream itself and for notifications).
///
/// A dropped stream is reopened up to [`MAX_RECONNECTS`](Self::MAX_RECONNECTS) times; if the
/// server then names a different endpoint, its session is gone and the transport ends, so the
/// session layer (`toolport-session`) starts a new one.
///
/// # Examples
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use toolport_core::{Connector, ReadonlyContext, Secret};
/// use toolport_http_client::RotatingToken;
/// use toolport_session::McpSession;
/// use toolport_sse::{SseServer, WithHttpOptions};
///
/// let token = RotatingToken::new(Secret::new("first-token"));
/// let server = SseServer::new("http://127.0.0.1:8080/sse?key=not-shown")
///     .bearer_token(token.clone())
///     .header_provider(|context: Option<&ReadonlyContext>| {
///         let user = context.and_then(|c| c.get("user_id")).and_then(|v| v.as_str());
///         Ok(user.map(|u| vec![("X-User-Id".to_owned(), Secret::new(u))]).unwrap_or_default())
///     });
/// assert_eq!(server.target(), "`http://127.0.0.1:8080/sse` over legacy SSE");
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
#[must_use]
pub struct SseServer {
    pub(crate) url: String,
    /// What targets, errors and `Debug` output show for the URL, if not the URL itself.
    pub(crate) url_shown_as: Option<String>,
    pub(crate) options: HttpOptions,
    pub(crate) client: LazyHttpClient,
}

impl SseServer {
    /// How many times a dropped event stream is reopened before the transport ends.
    pub const MAX_RECONNECTS: u32 = 3;
    /// The wait before reconnect attempt `n` is `n` times this, unless the server sent a
    /// `retry:` field (honoured up to 5 s).
    pub const RECONNECT_DELAY: Duration = Duration::from_millis(250);

    /// A server whose event stream is at `sse_url` (`http` or `https`). The URL is checked on
    /// connect; credentials in it are refused there (use [`bearer_token`](WithHttpOptions::bearer_token)
    /// or [`header`](WithHttpOptions::header)).
    pub fn new(sse_url: impl Into<String>) -> Self {
        Self {
            url: sse_url.into(),
            url_shown_as: None,
            options: HttpOptions::new(),
            client: LazyHttpClient::default(),
        }
    }

    /// Shows the URL as `shown` wherever the server is named ([`target`](toolport_core::Connector::target),
    /// log lines, errors, `Debug`), in place of the URL given to [`new`](Self::new): for a URL
    /// with a secret in its host or path, such as one expanded from
    /// `https://${HOST}/${TENANT}/sse`, give it as written. Userinfo, query and fragment are
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
}

impl fmt::Debug for SseServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseServer")
            .field("url", &self.shown_url())
            .field("options", &self.options)
            .finish()
    }
}

impl WithHttpOptions for SseServer {
    fn http_options_mut(&mut self) -> &mut HttpOptions {
        &mut self.options
    }
}
