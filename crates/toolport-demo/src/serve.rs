//! [`serve`]: the demo server over any byte stream, newline-delimited JSON-RPC.

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};

use crate::respond::Responder;

/// Serves one session of the task tracker over `stream` until the client closes it: a fresh
/// [`TaskBook`](crate::TaskBook), one JSON-RPC message per line each way, requests answered
/// in the order they arrive.
///
/// # Examples
///
/// ```
/// use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let (client, server) = tokio::io::duplex(64 * 1024);
/// tokio::spawn(toolport_demo::serve(server));
/// let (read, mut write) = tokio::io::split(client);
/// write.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n").await?;
/// let answer = BufReader::new(read).lines().next_line().await?.unwrap();
/// assert_eq!(answer, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
/// # Ok(())
/// # }
/// ```
pub async fn serve<S>(stream: S)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (read, mut write) = tokio::io::split(stream);
    let mut lines = BufReader::new(read).lines();
    let mut responder = Responder::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        let Some(answer) = responder.answer(&line) else {
            continue;
        };
        let mut text = answer.to_string();
        text.push('\n');
        if write.write_all(text.as_bytes()).await.is_err() || write.flush().await.is_err() {
            break;
        }
    }
}
