//! [`DemoConnector`]: a [`Connector`] that starts a fresh demo server in process on every
//! connect.

use toolport_core::{ConnectContext, ConnectError, Connection, Connector};
use toolport_stdio::StreamTransport;

use crate::{SERVER_NAME, serve};

/// The pipe's buffer in each direction; a longer message just waits for the reader.
const BUFFER: usize = 64 * 1024;

/// A [`Connector`] to the demo task tracker: each [`connect`](Connector::connect) serves a
/// fresh session (the seed tasks again) on a tokio task over `tokio::io::duplex`, so its state
/// lasts as long as one session. Its [`target`](Connector::target) is
/// `the in-process toolport-task-tracker`.
///
/// `connect` spawns a task, so it must run inside a tokio runtime.
///
/// # Examples
///
/// ```
/// use toolport_core::{ConnectContext, Connector};
/// use toolport_demo::DemoConnector;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), toolport_core::ConnectError> {
/// let connection = DemoConnector.connect(&ConnectContext::default()).await?;
/// // Hand `connection.transport` to an MCP client; here it is simply closed.
/// drop(connection);
/// assert_eq!(DemoConnector.target(), "the in-process toolport-task-tracker");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct DemoConnector;

#[async_trait::async_trait]
impl Connector for DemoConnector {
    async fn connect(&self, _context: &ConnectContext) -> Result<Connection, ConnectError> {
        let (client_side, server_side) = tokio::io::duplex(BUFFER);
        tokio::spawn(serve(server_side));
        let (read, write) = tokio::io::split(client_side);
        Ok(StreamTransport::new(read, write).into_connection())
    }

    fn target(&self) -> String {
        format!("the in-process {SERVER_NAME}")
    }
}
