//! [`ScriptedTransport`]: the client's end of one scripted connection, an rmcp
//! `Transport<RoleClient>` over two channels.

use rmcp::model::GetExtensions as _;
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::sync::mpsc;
use toolport_core::ReadonlyContext;

use super::connection::{ClientMessage, ScriptedConnection};

/// The transport was closed by the client, or the test dropped the connection.
#[derive(Debug, thiserror::Error)]
#[error("the scripted connection is closed")]
pub(crate) struct Closed;

/// The client's end: what it sends goes to the test as JSON (with the caller's context);
/// what the test sends arrives as messages.
#[derive(Debug)]
pub(crate) struct ScriptedTransport {
    to_test: Option<mpsc::UnboundedSender<ClientMessage>>,
    from_test: mpsc::UnboundedReceiver<Value>,
}

impl ScriptedTransport {
    /// A transport and the test's handle on the other end.
    pub(crate) fn pair() -> (Self, ScriptedConnection) {
        let (to_test, sent) = mpsc::unbounded_channel();
        let (to_client, from_test) = mpsc::unbounded_channel();
        let transport = Self {
            to_test: Some(to_test),
            from_test,
        };
        (transport, ScriptedConnection::new(sent, to_client))
    }
}

impl Transport<RoleClient> for ScriptedTransport {
    type Error = Closed;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let context = match &item {
            rmcp::model::JsonRpcMessage::Request(request) => request
                .request
                .extensions()
                .get::<ReadonlyContext>()
                .cloned(),
            _ => None,
        };
        let sent = match (&self.to_test, serde_json::to_value(&item)) {
            (Some(to_test), Ok(json)) => to_test
                .send(ClientMessage { json, context })
                .map_err(|_| Closed),
            _ => Err(Closed),
        };
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let json = self.from_test.recv().await?;
        // The connection checked every message it was given to send.
        serde_json::from_value(json).ok()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.to_test = None;
        self.from_test.close();
        Ok(())
    }
}
