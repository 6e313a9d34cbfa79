//! [`StreamableTransport`]: rmcp's `Transport<RoleClient>` over Streamable HTTP: each message is
//! posted, and what answers it (a JSON body, or an event stream read by a task) is queued for
//! `receive`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, StatusCode};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::mpsc;

use crate::error::StreamableError;
use crate::link::{Inbound, Link};
use crate::{HttpDiagnostics, post};

/// The longest a closing transport waits for the server to end the session.
const DELETE_TIMEOUT: Duration = Duration::from_secs(5);

/// One Streamable HTTP session. On 2025-11-25: a session id kept from the answer to
/// `initialize` and sent back on every request with the negotiated protocol version, and a
/// listening `GET` stream for the server's own messages. On 2026-07-28 (no handshake, no
/// session id): each request's version from its `_meta`, and the standard `Mcp-Method`,
/// `Mcp-Name` and `Mcp-Param-*` headers. On both, answer streams resumed with `Last-Event-ID`
/// when they break before their answer.
///
/// Idle, it holds no task but the listening stream's and no buffer but a small queue: many
/// tenants' sessions fit in little memory. A `404` on the session ends it: that message and
/// every later one fail as not delivered, so the session above initializes a new one and sends
/// them there. An answer stream that breaks and cannot be resumed closes `receive`, failing the
/// requests still waiting (their outcome unknown). Cancelling a request stops reading for its answer.
/// [`close`](Transport::close) stops every reader and ends the session on the server with
/// `DELETE` (unless told not to); dropping the transport stops the readers.
pub(crate) struct StreamableTransport {
    link: Arc<Link>,
    messages: mpsc::Receiver<Inbound>,
    ended: bool,
}

impl StreamableTransport {
    pub(crate) fn new(link: Link, messages: mpsc::Receiver<Inbound>) -> Self {
        Self {
            link: Arc::new(link),
            messages,
            ended: false,
        }
    }

    /// The diagnostics this transport fills.
    pub(crate) fn diagnostics(&self) -> Arc<HttpDiagnostics> {
        self.link.remote.diagnostics.clone()
    }

    /// Ends the session on the server, within [`DELETE_TIMEOUT`]. A server that does not
    /// allow it (`405`) or has already forgotten it (`404`) is fine.
    async fn delete_session(&self) -> Result<(), StreamableError> {
        let remote = &self.link.remote;
        if !remote.terminate_on_close || !remote.session.has_session() {
            return Ok(());
        }
        let deleting = async {
            let request = remote
                .request(Method::DELETE, Bytes::new(), None, None)
                .await?;
            let response = remote.send(request).await?;
            let status = response.status();
            if status.is_success()
                || status == StatusCode::METHOD_NOT_ALLOWED
                || status == StatusCode::NOT_FOUND
            {
                return Ok(());
            }
            Err(toolport_http_client::toolkit::refusal(response)
                .await
                .into())
        };
        match tokio::time::timeout(DELETE_TIMEOUT, deleting).await {
            Ok(result) => result,
            Err(_) => {
                tracing::debug!("the server did not answer the session's DELETE in time");
                Ok(())
            }
        }
    }
}

impl Transport<RoleClient> for StreamableTransport {
    type Error = StreamableError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        post::send(self.link.clone(), item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        if self.ended {
            return None;
        }
        match self.messages.recv().await? {
            Inbound::Message(message) => Some(*message),
            Inbound::End => {
                self.ended = true;
                None
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.link.in_flight.stop_all();
        let deleted = self.delete_session().await;
        self.link.stop_sending("the client closed the transport");
        self.ended = true;
        self.messages.close();
        deleted
    }
}

impl Drop for StreamableTransport {
    fn drop(&mut self) {
        self.link.in_flight.stop_all();
    }
}

impl fmt::Debug for StreamableTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamableTransport")
            .field("has_session", &self.link.remote.session.has_session())
            .field("ended", &self.link.ended())
            .finish_non_exhaustive()
    }
}
