//! [`SseServer`] as a [`Connector`]: each connect opens a fresh event stream and waits for its
//! endpoint.

use std::sync::Arc;

use http::Uri;
use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};
use toolport_http_client::RequestHeaders;

use crate::open::open;
use crate::remote::Remote;
use crate::transport::SseTransport;
use crate::{SseDiagnostics, SseError, SseServer};

impl SseServer {
    /// Opens the event stream, waits for the `endpoint` event (within the context's
    /// [`Timeouts::connect`](toolport_core::Timeouts::connect)) and checks that it is on the
    /// stream's origin.
    ///
    /// A refusal of the stream (401, 403) puts
    /// [`AuthorizationRequired`](toolport_core::AuthorizationRequired) in the error's source
    /// chain. An endpoint on another origin is refused with both origins named.
    pub(crate) async fn open(
        &self,
        context: &ConnectContext,
    ) -> Result<SseTransport, ConnectError> {
        let url = toolport_http_client::toolkit::parse_server_url(&self.url)
            .map_err(ConnectError::invalid_settings)?;
        let uri = url.as_str().parse::<Uri>().map_err(|error| {
            ConnectError::invalid_settings(format!("invalid server URL: {error}"))
        })?;
        let connect_timeout = context.timeouts().connect;
        let target: Arc<str> = Arc::from(self.target());
        let remote = Arc::new(Remote {
            http: self.client.get(
                &self.options.network,
                url.scheme() == "https",
                connect_timeout,
            )?,
            headers: RequestHeaders::new(&self.options)?,
            url,
            uri,
            limit: self.options.max_response_bytes,
            connect_timeout,
            target: target.clone(),
            diagnostics: Arc::new(SseDiagnostics::default()),
        });
        let failed = |error: SseError| match error {
            // A server that points our messages elsewhere will do so again: not worth a retry.
            SseError::ForeignEndpoint {
                stream_origin,
                endpoint_origin,
            } => {
                let stream_origin = match &self.url_shown_as {
                    Some(shown) => crate::url::written_origin(shown),
                    None => stream_origin,
                };
                let error = SseError::ForeignEndpoint {
                    stream_origin,
                    endpoint_origin,
                };
                ConnectError::refused(error.to_string())
            }
            other => ConnectError::unreachable(other),
        };
        let opened = tokio::time::timeout(connect_timeout, open(&remote, None, None))
            .await
            .map_err(|_| {
                failed(SseError::EndpointTimeout {
                    timeout: connect_timeout,
                })
            })?
            .map_err(failed)?;
        // The endpoint's path alone: its origin is the stream's, which the target names.
        tracing::debug!(target = %target, endpoint = %opened.endpoint.path(), "legacy SSE stream open");
        SseTransport::start(remote, opened).map_err(failed)
    }
}

#[async_trait::async_trait]
impl Connector for SseServer {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        let transport = self.open(context).await?;
        let diagnostics = transport.diagnostics();
        let unmodeled_fields = transport.unmodeled_fields();
        Ok(Connection::new(BoxedTransport::new(transport))
            .with_diagnostics(diagnostics)
            .with_unmodeled_fields(unmodeled_fields))
    }

    /// `` `http://host:port/path` over legacy SSE ``, or the URL as
    /// [`url_shown_as`](SseServer::url_shown_as) gave it: no credentials, query or fragment.
    fn target(&self) -> String {
        format!("`{}` over legacy SSE", self.shown_url())
    }

    /// `true`: HTTP+SSE ended with the versions that have an `initialize` handshake, so a
    /// negotiating session never probes over it.
    fn handshake_only(&self) -> bool {
        true
    }
}
