//! [`StreamTransport`]: MCP's stdio framing, newline-delimited JSON-RPC, over any byte stream,
//! with Toolport's decoder: the transport a user's connector is written with.

use std::sync::Arc;

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::Mutex;
use toolport_core::{BoxedTransport, Connection};

use crate::last_garbage::LastGarbage;
use crate::message_reader::MessageReader;
use crate::writer::{MessageWriter, SharedWriter};
use crate::{StdioError, StdioServer};

/// A connection to a server over any byte stream (a Unix socket's halves, a TCP stream, a
/// pipe) in MCP's stdio framing: one JSON-RPC message per line.
///
/// It reads as a child's stdout is read, so a transport of your own gets what stdio has: a
/// message longer than [`StdioServer::MAX_MESSAGE_BYTES`] is dropped, and when it is an
/// answer its request fails at once with a JSON-RPC error naming the limit (not at its
/// timeout); `tools/call` and `tools/list` answers decode straight into their result types;
/// what rmcp's model drops is kept, so calls run as 2025-11-25 tasks where the server asks;
/// and a line that is not JSON-RPC is skipped, logged, and quoted when the connection then
/// fails. [`into_connection`](Self::into_connection) hands all of it to the session.
///
/// [`close`](Transport::close) drops the write half, so the server sees the stream end.
///
/// # Examples
///
/// A [`Connector`](toolport_core::Connector) for MCP over a Unix socket:
///
/// ```
/// use toolport_core::{ConnectContext, ConnectError, Connection, Connector};
/// use toolport_stdio::StreamTransport;
///
/// #[derive(Debug)]
/// struct UnixSocket(std::path::PathBuf);
///
/// #[async_trait::async_trait]
/// impl Connector for UnixSocket {
///     async fn connect(&self, _: &ConnectContext) -> Result<Connection, ConnectError> {
///         let stream = tokio::net::UnixStream::connect(&self.0)
///             .await
///             .map_err(ConnectError::unreachable)?;
///         let (read, write) = stream.into_split();
///         Ok(StreamTransport::new(read, write).into_connection())
///     }
///
///     fn target(&self) -> String {
///         format!("`{}` over a Unix socket", self.0.display())
///     }
/// }
/// ```
#[derive(Debug)]
pub struct StreamTransport {
    reader: MessageReader<Box<dyn AsyncRead + Send + Unpin>>,
    writer: SharedWriter,
    garbage: Arc<LastGarbage>,
}

impl StreamTransport {
    /// Reads the server's messages from `read` and writes the client's to `write`.
    pub fn new(
        read: impl AsyncRead + Send + Unpin + 'static,
        write: impl AsyncWrite + Send + Unpin + 'static,
    ) -> Self {
        Self {
            reader: MessageReader::new(
                Box::new(read),
                StdioServer::MAX_MESSAGE_BYTES,
                Arc::from("a byte stream"),
                "stream",
            ),
            writer: Arc::new(Mutex::new(Some(MessageWriter::new(write)))),
            garbage: Arc::default(),
        }
    }

    /// The transport as a [`Connection`] for the session, with what its decoder keeps of what
    /// rmcp's model drops, and diagnostics that quote the last line that was not JSON-RPC.
    pub fn into_connection(self) -> Connection {
        let unmodeled_fields = self.reader.unmodeled_fields();
        let garbage = Arc::clone(&self.garbage);
        Connection::new(BoxedTransport::new(self))
            .with_unmodeled_fields(unmodeled_fields)
            .with_diagnostics(garbage)
    }
}

impl Transport<RoleClient> for StreamTransport {
    type Error = StdioError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.reader.note_sent(&item);
        let writer = Arc::clone(&self.writer);
        async move {
            let mut writer = writer.lock().await;
            let writer = writer.as_mut().ok_or(StdioError::Closed)?;
            writer.write(&item).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let garbage = &self.garbage;
        self.reader.next_message(|line| garbage.record(line)).await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.writer.lock().await.take());
        Ok(())
    }
}
