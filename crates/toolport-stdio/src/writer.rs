//! [`MessageWriter`]: frames outgoing messages as one JSON line each, on the child's stdin or
//! any byte stream.

use std::sync::Arc;

use rmcp::service::{RoleClient, TxJsonRpcMessage};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;

use crate::StdioError;

/// Above this, the encode buffer is released after use instead of kept for the next message.
const KEEP_BUFFER: usize = 1024 * 1024;

/// The writer, shared by every in-flight `send`; `None` once the transport closed stdin.
pub(crate) type SharedWriter = Arc<Mutex<Option<MessageWriter>>>;

/// Writes newline-delimited JSON-RPC to the child's stdin, or any byte stream.
pub(crate) struct MessageWriter {
    stream: Box<dyn AsyncWrite + Send + Unpin>,
    /// Reused for every message, so sending allocates only while a message outgrows it.
    buf: Vec<u8>,
}

impl std::fmt::Debug for MessageWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageWriter").finish_non_exhaustive()
    }
}

impl MessageWriter {
    pub(crate) fn new(stream: impl AsyncWrite + Send + Unpin + 'static) -> Self {
        Self {
            stream: Box::new(stream),
            buf: Vec::with_capacity(8 * 1024),
        }
    }

    /// Serializes `message`, then writes it and its `\n` in one buffered write and flushes.
    pub(crate) async fn write(
        &mut self,
        message: &TxJsonRpcMessage<RoleClient>,
    ) -> Result<(), StdioError> {
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, message)
            .map_err(|source| StdioError::Encode { source })?;
        self.buf.push(b'\n');
        let written = async {
            self.stream.write_all(&self.buf).await?;
            self.stream.flush().await
        }
        .await;
        if self.buf.capacity() > KEEP_BUFFER {
            self.buf = Vec::with_capacity(8 * 1024);
        }
        written.map_err(|source| StdioError::Write { source })
    }
}
