//! [`StdioTransport`]: rmcp's `Transport<RoleClient>` over a child process's stdin and stdout.

use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::process::ChildStdout;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use toolport_core::UnmodeledFields;

use crate::message_reader::MessageReader;
use crate::process::ChildProcess;
use crate::writer::{MessageWriter, SharedWriter};
use crate::{StdioDiagnostics, StdioError};

/// At stdout EOF, how long `receive` waits for the exit status and the last stderr lines, so
/// that diagnostics are complete when the session asks for them.
const SETTLE: Duration = Duration::from_millis(500);

/// A connection to a server running as a child process: newline-delimited JSON-RPC over its
/// stdin and stdout.
///
/// Made by [`StdioServer::spawn`](crate::StdioServer::spawn) (or, boxed, by
/// [`Connector::connect`](toolport_core::Connector::connect)). A stdout line that is not
/// JSON-RPC is skipped, logged and remembered in [`StdioDiagnostics`]; a line longer than
/// [`StdioServer::MAX_MESSAGE_BYTES`](crate::StdioServer::MAX_MESSAGE_BYTES) is dropped, and
/// when it is an answer whose id shows at either end of the line, its request gets a JSON-RPC
/// error (code -32603) naming the limit in its place.
///
/// [`close`](Transport::close) closes stdin, then escalates to `SIGTERM` and `SIGKILL` of the
/// child's process group. Dropping the transport without closing it kills the group at once.
/// On Linux, the descendants that left the group (`setsid`, a double fork) get the same
/// signals: those seen in `/proc` when closing begins, before each signal, or on drop.
///
/// # Examples
///
/// `cat` echoes a `ping` back, which the client side reads as the server pinging it:
///
/// ```
/// use rmcp::transport::Transport;
/// use toolport_stdio::StdioServer;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut transport = StdioServer::new("cat").spawn()?;
/// let ping = serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?;
/// transport.send(ping).await?;
/// let echoed = transport.receive().await.expect("cat echoes");
/// assert_eq!(serde_json::to_value(&echoed)?["method"], "ping");
/// transport.close().await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct StdioTransport {
    /// First, so that it is dropped first: the child's descendants are found and killed while
    /// it still runs, before its stdin closes and it perhaps exits, handing them to init.
    process: ChildProcess,
    reader: MessageReader<ChildStdout>,
    writer: SharedWriter,
    diagnostics: Arc<StdioDiagnostics>,
    stderr_drain: Option<JoinHandle<()>>,
    server: Arc<str>,
    eof: bool,
}

/// The parts [`StdioTransport::new`] is assembled from.
#[derive(Debug)]
pub(crate) struct Parts {
    pub(crate) stdout: ChildStdout,
    pub(crate) writer: MessageWriter,
    pub(crate) process: ChildProcess,
    pub(crate) diagnostics: Arc<StdioDiagnostics>,
    pub(crate) stderr_drain: JoinHandle<()>,
    pub(crate) server: Arc<str>,
    pub(crate) max_message: usize,
}

impl StdioTransport {
    pub(crate) fn new(parts: Parts) -> Self {
        let server = Arc::clone(&parts.server);
        Self {
            reader: MessageReader::new(parts.stdout, parts.max_message, server, "stdio"),
            writer: Arc::new(Mutex::new(Some(parts.writer))),
            process: parts.process,
            diagnostics: parts.diagnostics,
            stderr_drain: Some(parts.stderr_drain),
            server: parts.server,
            eof: false,
        }
    }

    /// The child's process id (also its process group id), unless it was already reaped when
    /// spawned.
    pub fn pid(&self) -> Option<u32> {
        self.process.pid()
    }

    /// The diagnostics this transport fills: exit status, stderr tail, non-JSON stdout.
    pub fn diagnostics(&self) -> Arc<StdioDiagnostics> {
        Arc::clone(&self.diagnostics)
    }

    /// What the server said that rmcp's model drops, as the transport decoded it.
    pub fn unmodeled_fields(&self) -> Arc<UnmodeledFields> {
        self.reader.unmodeled_fields()
    }

    /// Gives the reaper and the stderr drain a moment to finish, once stdout hit EOF.
    async fn settle(&mut self) {
        let deadline = Instant::now() + SETTLE;
        self.process.wait_exit(SETTLE).await;
        if let Some(drain) = self.stderr_drain.take() {
            let _ = tokio::time::timeout_at(deadline, drain).await;
        }
    }
}

impl Transport<RoleClient> for StdioTransport {
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
        if self.eof {
            return None;
        }
        let diagnostics = &self.diagnostics;
        let message = (self.reader)
            .next_message(|line| diagnostics.record_garbage(line))
            .await;
        if message.is_some() {
            return message;
        }
        // Set only once settled: `receive` may be cancelled while settling, and the next call
        // then settles again (stdout keeps reporting EOF).
        self.settle().await;
        self.eof = true;
        None
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let started = Instant::now();
        // Before stdin closes: a server that then exits at once leaves its orphans to init.
        self.process.record_descendants();
        // A send blocked on a full pipe holds the lock; give up on a clean EOF after the grace
        // period and let the signals unblock it.
        match tokio::time::timeout(self.process.close_grace(), self.writer.lock()).await {
            Ok(mut writer) => drop(writer.take()),
            Err(_) => tracing::debug!(server = %self.server, "stdin is busy; skipping to signals"),
        }
        let exit = self.process.shutdown(started.elapsed()).await;
        tracing::debug!(server = %self.server, %exit, "stdio server closed");
        self.diagnostics.record_close(exit);
        Ok(())
    }
}
