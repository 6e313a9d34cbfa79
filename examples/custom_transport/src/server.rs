//! [`Server`]: the example's MCP server, written by hand: serde_json over a
//! `tokio::net::UnixListener`, one JSON-RPC message per line. How it reads and writes is
//! here; what it answers is in `server/answers.rs`.

mod answers;
mod tasks;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::task::JoinHandle;

use crate::UnixSocket;
use tasks::Tasks;

pub use answers::NOISE;

/// The socket's file name in the server's directory.
const SOCKET_FILE: &str = "mcp.sock";

/// The methods of the requests and notifications the server has read, in order.
type MethodLog = Arc<Mutex<Vec<String>>>;

/// An MCP server on a Unix socket, written by hand, that speaks 2025-11-25 and lists four
/// tools:
///
/// - `echo` answers with its `text` argument;
/// - `huge` answers with a result one KiB past the client's limit on one message
///   ([`StdioServer::MAX_MESSAGE_BYTES`](toolport::stdio::StdioServer::MAX_MESSAGE_BYTES));
/// - `noisy` writes the line [`NOISE`], which is not JSON-RPC, before its answer;
/// - `write_report` runs only as a 2025-11-25 task: its `tools/call` is answered with a task,
///   which `tasks/get` then finds completed and `tasks/result` hands over.
///
/// It serves one connection at a time. Dropping it stops it: its one task is aborted, and
/// its socket and directory are removed.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use custom_transport::Server;
/// use toolport::McpSession;
///
/// let dir = std::env::temp_dir().join(format!("custom-transport-doc-{}", std::process::id()));
/// let server = Server::start(&dir)?;
/// let session = McpSession::new(server.connector());
/// assert_eq!(session.list_tools().await?.len(), 4);
/// session.close().await;
/// drop(server);
/// assert!(!dir.exists());
/// # Ok(())
/// # }
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
/// # runtime.block_on(run()).unwrap();
/// ```
#[derive(Debug)]
pub struct Server {
    dir: PathBuf,
    socket: PathBuf,
    received: MethodLog,
    serving: JoinHandle<()>,
}

impl Server {
    /// Starts the server on a socket in `dir`, which it creates if need be and removes when
    /// dropped (when empty: a file of the caller's there stays). Give each server a directory
    /// of its own, such as one under [`std::env::temp_dir`] named with the process id.
    ///
    /// # Errors
    ///
    /// When the directory cannot be made or the socket cannot be bound (a path longer than
    /// the system allows, about 100 bytes).
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime.
    pub fn start(dir: impl Into<PathBuf>) -> io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        let socket = dir.join(SOCKET_FILE);
        let listener = remove_stale(&socket).and_then(|()| UnixListener::bind(&socket));
        let listener = listener.inspect_err(|_| {
            // Only if this call made it: a directory with files in it stays.
            let _ = std::fs::remove_dir(&dir);
        })?;
        let received = MethodLog::default();
        let serving = tokio::spawn(serve(listener, Arc::clone(&received)));
        Ok(Self {
            dir,
            socket,
            received,
            serving,
        })
    }

    /// The path of the server's socket.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// A connector to this server.
    pub fn connector(&self) -> UnixSocket {
        UnixSocket(self.socket.clone())
    }

    /// The methods of every request and notification the server has read so far, in order
    /// (`initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `tasks/get`, …).
    pub fn methods_received(&self) -> Vec<String> {
        lock(&self.received).clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.serving.abort();
        // Either may be gone already; a directory the caller put files in stays.
        let _ = std::fs::remove_file(&self.socket);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Removes a socket that an earlier run, killed before it could, left at `socket`.
fn remove_stale(socket: &Path) -> io::Result<()> {
    match std::fs::remove_file(socket) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Serves the connections `listener` accepts, one at a time, until an accept fails.
async fn serve(listener: UnixListener, received: MethodLog) {
    while let Ok((stream, _)) = listener.accept().await {
        // A client that goes away mid-answer ends its connection, not the server.
        let _ = serve_connection(stream, &received).await;
    }
}

/// Answers each request on `stream`, in order, until the client closes it. The connection's
/// tasks end with it.
async fn serve_connection(stream: UnixStream, received: &MethodLog) -> io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let mut tasks = Tasks::default();
    while let Some(line) = lines.next_line().await? {
        // This server reads what its own client sends: a line that is not JSON, or is an
        // answer (it asks nothing), is passed over.
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(method) = message["method"].as_str() else {
            continue;
        };
        lock(received).push(method.to_owned());
        // A notification (`notifications/initialized`, a cancellation) is not answered.
        let Some(id) = message.get("id") else {
            continue;
        };
        let answer = answers::answer(method, &message["params"], &mut tasks);
        if answer.noisy {
            write_line(&mut write, NOISE.as_bytes()).await?;
        }
        // `id` first: a client that drops an answer too long to keep still finds its id.
        let reply = match answer.outcome {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
        };
        write_line(&mut write, &serde_json::to_vec(&reply)?).await?;
    }
    Ok(())
}

/// Writes `line` and its newline.
async fn write_line(write: &mut (impl AsyncWrite + Unpin), line: &[u8]) -> io::Result<()> {
    write.write_all(line).await?;
    write.write_all(b"\n").await?;
    write.flush().await
}

/// The log, even if a thread panicked holding it.
fn lock(log: &MethodLog) -> std::sync::MutexGuard<'_, Vec<String>> {
    log.lock().unwrap_or_else(PoisonError::into_inner)
}
