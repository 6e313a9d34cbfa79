//! [`serve`]: runs a fixture server over any byte stream (a socket, a pipe), for transports of
//! your own.

use rmcp::{ServerHandler, ServiceExt};
use tokio::io::{AsyncRead, AsyncWrite};

/// Serves `server` over `stream`, newline-delimited JSON-RPC, until the client leaves. A client
/// that leaves during `initialize` ends it quietly.
///
/// # Examples
///
/// A task tracker on every connection a TCP listener accepts:
///
/// ```
/// use tokio::net::TcpListener;
/// use toolport_testkit::{TaskTracker, serve};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let listener = TcpListener::bind("127.0.0.1:0").await?;
/// tokio::spawn(async move {
///     while let Ok((socket, _)) = listener.accept().await {
///         tokio::spawn(serve(TaskTracker::new(), socket));
///     }
/// });
/// # Ok(())
/// # }
/// ```
pub async fn serve<S, T>(server: S, stream: T)
where
    S: ServerHandler,
    T: AsyncRead + AsyncWrite + Send + 'static,
{
    if let Ok(running) = server.serve(stream).await {
        let _ = running.waiting().await;
    }
}
