//! [`HttpServer`] as a [`Connector`]: each connect makes a [`StreamableTransport`] on the
//! shared pooled client.

use std::sync::Arc;

use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};
use toolport_http_client::RequestHeaders;

use crate::link::Link;
use crate::remote::Remote;
use crate::transport::StreamableTransport;
use crate::{HttpDiagnostics, HttpServer};

#[async_trait::async_trait]
impl Connector for HttpServer {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        let url = toolport_http_client::toolkit::parse_server_url(&self.url)
            .map_err(ConnectError::invalid_settings)?;
        let uri = url.as_str().parse::<http::Uri>().map_err(|error| {
            ConnectError::invalid_settings(format!("invalid server URL: {error}"))
        })?;
        let http = self.client.get(
            &self.options.network,
            url.scheme() == "https",
            context.timeouts().connect,
        )?;
        let remote = Remote {
            http,
            uri,
            headers: RequestHeaders::new(&self.options)?,
            terminate_on_close: self.terminate_on_close,
            listening_stream: self.listening_stream,
            limit: self.options.max_response_bytes,
            diagnostics: Arc::new(HttpDiagnostics::default()),
            session: Default::default(),
        };
        let (link, messages) = Link::new(remote);
        let unmodeled_fields = Arc::clone(&link.unmodeled_fields);
        let transport = StreamableTransport::new(link, messages);
        let diagnostics = transport.diagnostics();
        Ok(Connection::new(BoxedTransport::new(transport))
            .with_diagnostics(diagnostics)
            .with_unmodeled_fields(unmodeled_fields))
    }

    /// `` `http://host:port/path` over Streamable HTTP ``, or the URL as
    /// [`url_shown_as`](HttpServer::url_shown_as) gave it: no credentials, query or fragment.
    fn target(&self) -> String {
        format!("`{}` over Streamable HTTP", self.shown_url())
    }
}
