//! [`HttpServer`] as a [`Connector`]: each connect starts rmcp's Streamable HTTP worker on the
//! shared pooled client.

use std::sync::Arc;

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};
use toolport_http_client::RequestHeaders;

use crate::streamable::{Shared, StreamableClient};
use crate::{HttpDiagnostics, HttpServer};

#[async_trait::async_trait]
impl Connector for HttpServer {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        let url = toolport_http_client::parse_server_url(&self.url)
            .map_err(ConnectError::invalid_settings)?;
        let uri = url.as_str().parse::<http::Uri>().map_err(|error| {
            ConnectError::invalid_settings(format!("invalid server URL: {error}"))
        })?;
        let http = self
            .client
            .get(url.scheme() == "https", context.timeouts().connect)?;
        let headers = RequestHeaders::new(&self.options)?;
        let uri_text: Arc<str> = Arc::from(url.as_str());
        let limit = self.options.max_response_bytes;
        let diagnostics = Arc::new(HttpDiagnostics::default());
        let client = StreamableClient::new(Shared {
            http,
            uri_text: uri_text.clone(),
            uri,
            headers,
            terminate_on_close: self.terminate_on_close,
            diagnostics: diagnostics.clone(),
        });
        let config = StreamableHttpClientTransportConfig::with_uri(uri_text)
            .reinit_on_expired_session(true)
            .max_json_response_size(limit)
            .max_sse_event_size(limit);
        let transport = StreamableHttpClientTransport::with_client(client, config);
        Ok(Connection::new(BoxedTransport::new(transport)).with_diagnostics(diagnostics))
    }

    /// `` `http://host:port/path` over Streamable HTTP ``: no credentials, query or fragment.
    fn target(&self) -> String {
        format!(
            "`{}` over Streamable HTTP",
            toolport_http_client::describe_raw_url(&self.url)
        )
    }
}
