//! [`ConnectorFactory`]: how the manager makes each server's connector from its entry.

use std::fmt;
use std::sync::Arc;

use toolport_core::Connector;

use crate::{ConfigError, ServerToConnect};

/// Makes the [`Connector`] of each server the manager starts, from its entry in `mcp.json`.
///
/// The manager's default is [`StandardConnectors`](crate::StandardConnectors): stdio,
/// Streamable HTTP and SSE, each behind the crate feature of the same name. A factory of your
/// own, given to [`ManagerBuilder::connectors`](crate::ManagerBuilder::connectors), can add a
/// transport (an entry whose `"type"` Toolport does not know is a
/// [`TransportConfig::Custom`](crate::TransportConfig::Custom), its fields in
/// [`ServerConfig::other_fields`](crate::ServerConfig::other_fields)), or change a standard
/// connector for one server (an `Authorizer` for its
/// HTTP requests, say), and leave every other entry to the standard connectors.
///
/// The manager calls it each time a server starts (and restarts, and when
/// [`update`](crate::McpServerManager::update) checks a new entry), so `${...}` references
/// are read afresh each time. An error fails that server alone.
///
/// # Examples
///
/// Servers of `"type": "unix"` over a Unix socket, and the others as usual:
///
/// ```
/// use std::sync::Arc;
/// use toolport_core::{ConnectContext, ConnectError, Connection, Connector};
/// use toolport_manager::{
///     ConfigError, ConnectorFactory, McpConfig, McpServerManager, ServerToConnect,
///     StandardConnectors, TransportConfig,
/// };
///
/// #[derive(Debug)]
/// struct UnixSocket(String);
///
/// #[async_trait::async_trait]
/// impl Connector for UnixSocket {
///     async fn connect(&self, _: &ConnectContext) -> Result<Connection, ConnectError> {
///         let stream = tokio::net::UnixStream::connect(&self.0).await.map_err(ConnectError::unreachable)?;
///         let (read, write) = stream.into_split();
///         Ok(toolport_stdio::StreamTransport::new(read, write).into_connection())
///     }
///
///     fn target(&self) -> String {
///         format!("`{}` over a Unix socket", self.0)
///     }
/// }
///
/// #[derive(Debug)]
/// struct WithUnixSockets;
///
/// impl ConnectorFactory for WithUnixSockets {
///     fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
///         if !matches!(&server.config().transport, TransportConfig::Custom { kind } if kind == "unix") {
///             return StandardConnectors.connector(server);
///         }
///         let path = server.config().other_fields().get("path").and_then(|path| path.as_str());
///         let path = path.ok_or_else(|| server.error("`path` is missing; give the socket's path"))?;
///         Ok(Arc::new(UnixSocket(server.expand("path", path)?)))
///     }
/// }
///
/// let config = McpConfig::parse(
///     r#"{"mcpServers": {"notes": {"type": "unix", "path": "${XDG_RUNTIME_DIR:-/run}/notes.sock"}}}"#,
///     "mcp.json",
/// )?;
/// let manager = McpServerManager::builder().config(config).connectors(WithUnixSockets).build();
/// assert_eq!(manager.ids(), ["notes"]);
/// # Ok::<(), ConfigError>(())
/// ```
pub trait ConnectorFactory: Send + Sync + fmt::Debug + 'static {
    /// The connector for `server`, or what is wrong with its entry
    /// ([`ServerToConnect::error`] names the server).
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError>;
}

impl<F: ConnectorFactory + ?Sized> ConnectorFactory for Arc<F> {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        (**self).connector(server)
    }
}
