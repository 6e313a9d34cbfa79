//! [`ChannelTransport`]: an rmcp server transport over two tokio channels, so that a server can
//! read the messages POSTed to its session and write to its SSE stream.

use std::io;

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::RoleServer;
use rmcp::transport::Transport;
use tokio::sync::mpsc;

/// The server's end of one legacy SSE session.
pub(super) struct ChannelTransport {
    outgoing: mpsc::Sender<ServerJsonRpcMessage>,
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
}

impl ChannelTransport {
    pub(super) fn new(
        outgoing: mpsc::Sender<ServerJsonRpcMessage>,
        incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    ) -> Self {
        Self { outgoing, incoming }
    }
}

impl Transport<RoleServer> for ChannelTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let outgoing = self.outgoing.clone();
        async move {
            outgoing
                .send(item)
                .await
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the SSE stream is closed"))
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        Ok(())
    }
}
