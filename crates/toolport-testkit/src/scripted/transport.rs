//! [`ScriptedTransport`]: the client's end of one scripted connection, an rmcp
//! `Transport<RoleClient>` over two channels, which decodes what the test sends as the real
//! transports decode what a server sends.

use std::sync::Arc;

use rmcp::model::GetExtensions as _;
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::sync::mpsc;
use toolport_codec::ServerMessageDecoder;
use toolport_core::{ReadonlyContext, UnmodeledFields};

use super::connection::{ClientMessage, ScriptedConnection};

/// The transport was closed by the client, or the test dropped the connection.
#[derive(Debug, thiserror::Error)]
#[error("the scripted connection is closed")]
pub(crate) struct Closed;

/// The client's end: what it sends goes to the test as JSON (with the caller's context);
/// what the test sends arrives as messages, decoded by a [`ServerMessageDecoder`] that keeps
/// what a 2025-11-25 server says about tasks.
#[derive(Debug)]
pub(crate) struct ScriptedTransport {
    to_test: Option<mpsc::UnboundedSender<ClientMessage>>,
    from_test: mpsc::UnboundedReceiver<Value>,
    decoder: ServerMessageDecoder,
}

impl ScriptedTransport {
    /// A transport that keeps in `unmodeled_fields` what the test's server says that rmcp's model drops, and
    /// the test's handle on the other end.
    pub(crate) fn pair(unmodeled_fields: Arc<UnmodeledFields>) -> (Self, ScriptedConnection) {
        let (to_test, sent) = mpsc::unbounded_channel();
        let (to_client, from_test) = mpsc::unbounded_channel();
        let transport = Self {
            to_test: Some(to_test),
            from_test,
            decoder: ServerMessageDecoder::new().with_unmodeled_fields(unmodeled_fields),
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
        self.decoder.note_sent(&item);
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
        loop {
            let json = self.from_test.recv().await?;
            // The connection checked every message it was given to send.
            let bytes = serde_json::to_vec(&json).ok()?;
            if let Some(message) = self.decoder.decode(&bytes).ok()? {
                return Some(message);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.to_test = None;
        self.from_test.close();
        Ok(())
    }
}
