//! [`UnixSocket`]: a transport of your own, MCP over a Unix socket, in the few lines a user
//! writes: connect, split the stream, and let `StreamTransport` read it as stdio is read.

use std::path::PathBuf;

use tokio::net::UnixStream;
use toolport::stdio::StreamTransport;
use toolport::{ConnectContext, ConnectError, Connection, Connector};

/// An MCP server listening on the Unix socket at this path, one JSON-RPC message per line.
#[derive(Debug, Clone)]
pub struct UnixSocket(pub PathBuf);

#[toolport::async_trait]
impl Connector for UnixSocket {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        let connecting = UnixStream::connect(&self.0);
        let stream = tokio::time::timeout(context.timeouts().connect, connecting)
            .await
            .map_err(ConnectError::unreachable)?
            .map_err(ConnectError::unreachable)?;
        let (read, write) = stream.into_split();
        // The message limit, the skipped lines the diagnostics quote, and 2025-11-25 tasks
        // all come with the transport.
        Ok(StreamTransport::new(read, write).into_connection())
    }

    fn target(&self) -> String {
        format!("`{}` over a Unix socket", self.0.display())
    }
}
