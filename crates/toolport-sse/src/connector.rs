//! [`SseServer`] as a [`Connector`], and [`SseServer::open`]: each connect opens a fresh event
//! stream and waits for its endpoint.

use std::sync::Arc;

use http::Uri;
use toolport_core::{BoxedTransport, ConnectError, Connection, Connector};
use toolport_http::RequestHeaders;

use crate::open::open;
use crate::remote::Remote;
use crate::{SseDiagnostics, SseError, SseServer, SseTransport};

impl SseServer {
    /// Opens the event stream, waits for the `endpoint` event (within [`Timeouts::connect`])
    /// and checks that it is on the stream's origin.
    ///
    /// A refusal of the stream (401, 403) puts [`AuthorizationRequired`] in the error's source
    /// chain. An endpoint on another origin is refused with both origins named.
    ///
    /// [`Timeouts::connect`]: toolport_core::Timeouts::connect
    /// [`AuthorizationRequired`]: toolport_core::AuthorizationRequired
    pub async fn open(&self) -> Result<SseTransport, ConnectError> {
        let url = toolport_http::parse_server_url(&self.url)
            .map_err(|reason| ConnectError::InvalidSettings { reason })?;
        let uri = url
            .as_str()
            .parse::<Uri>()
            .map_err(|error| ConnectError::InvalidSettings {
                reason: format!("invalid server URL: {error}"),
            })?;
        let target: Arc<str> = Arc::from(self.target());
        let remote = Arc::new(Remote {
            http: self.client(url.scheme() == "https")?,
            headers: RequestHeaders::new(&self.options)?,
            url,
            uri,
            limit: self.options.response_limit(),
            connect_timeout: self.options.connect_timeout(),
            target: target.clone(),
            diagnostics: Arc::new(SseDiagnostics::default()),
        });
        let unreachable = |error: SseError| match error {
            // A server that points our messages elsewhere will do so again: not worth a retry.
            SseError::ForeignEndpoint { .. } => ConnectError::Refused {
                target: target.to_string(),
                reason: error.to_string(),
            },
            other => ConnectError::Unreachable {
                target: target.to_string(),
                source: Box::new(other),
            },
        };
        let timeout = remote.connect_timeout;
        let opened = tokio::time::timeout(timeout, open(&remote, None, None))
            .await
            .map_err(|_| {
                unreachable(SseError::EndpointTimeout {
                    millis: timeout.as_millis(),
                })
            })?
            .map_err(unreachable)?;
        tracing::debug!(target = %target, endpoint = %toolport_http::redacted_url(&opened.endpoint), "legacy SSE stream open");
        SseTransport::start(remote, opened).map_err(unreachable)
    }
}

#[async_trait::async_trait]
impl Connector for SseServer {
    async fn connect(&self) -> Result<Connection, ConnectError> {
        let transport = self.open().await?;
        let diagnostics = transport.diagnostics();
        Ok(Connection::new(BoxedTransport::new(transport)).with_diagnostics(diagnostics))
    }

    /// `` `http://host:port/path` over legacy SSE ``: no credentials, query or fragment.
    fn target(&self) -> String {
        format!(
            "`{}` over legacy SSE",
            toolport_http::redacted_raw_url(&self.url)
        )
    }
}
