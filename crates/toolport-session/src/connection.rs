//! [`LiveConnection`]: one initialized connection of a session, from handshake to shutdown.

use std::sync::{Arc, Mutex};

use rmcp::ClientCacheConfig;
use rmcp::model::ServerCapabilities;
use rmcp::service::{Peer, RoleClient, RunningService, serve_client};
use toolport_core::{ConnectContext, ConnectionDiagnostics, Connector, ServerExit, Timeouts};

use crate::SessionError;
use crate::handler::SessionHandler;

/// One initialized connection. Cheap to share: requests go through [`peer`](Self::peer)
/// without any lock.
#[derive(Debug)]
pub(crate) struct LiveConnection {
    pub(crate) peer: Peer<RoleClient>,
    diagnostics: Arc<dyn ConnectionDiagnostics>,
    service: Mutex<Option<RunningService<RoleClient, SessionHandler>>>,
}

impl LiveConnection {
    /// Opens the transport and runs the `initialize` handshake, each within its bound.
    pub(crate) async fn open(
        connector: &dyn Connector,
        target: &str,
        timeouts: &Timeouts,
        handler: SessionHandler,
    ) -> Result<Self, SessionError> {
        let context = ConnectContext::new(*timeouts);
        let connection = tokio::time::timeout(timeouts.connect, connector.connect(&context))
            .await
            .map_err(|_| SessionError::ConnectTimeout {
                target: target.to_owned(),
                timeout: timeouts.connect,
            })?
            .map_err(|source| SessionError::from_connect(target, source))?;
        let diagnostics = connection.diagnostics;
        let handshake = serve_client(handler, connection.transport);
        let service = match tokio::time::timeout(timeouts.initialize, handshake).await {
            Ok(Ok(service)) => service,
            Ok(Err(error)) => {
                return Err(SessionError::from_initialize(
                    target,
                    error,
                    diagnostics.as_ref(),
                ));
            }
            Err(_) => {
                return Err(SessionError::InitializeTimeout {
                    target: target.to_owned(),
                    timeout: timeouts.initialize,
                    details: diagnostics.failure_details(),
                });
            }
        };
        let peer = service.peer().clone();
        // Toolport caches what it needs itself, and invalidates on list_changed.
        peer.set_response_cache_config(ClientCacheConfig::disabled())
            .await;
        Ok(Self {
            peer,
            diagnostics,
            service: Mutex::new(Some(service)),
        })
    }

    /// Whether the transport is still up. A dead child or a dropped stream shows here.
    pub(crate) fn is_alive(&self) -> bool {
        !self.peer.is_transport_closed()
    }

    /// Whether the server's capabilities satisfy `says`; true when it sent none to judge by.
    pub(crate) fn publishes(&self, says: impl Fn(&ServerCapabilities) -> bool) -> bool {
        self.peer
            .peer_info()
            .is_none_or(|info| says(&info.capabilities))
    }

    /// What the transport knows about its connection's failures.
    pub(crate) fn diagnostics(&self) -> &dyn ConnectionDiagnostics {
        self.diagnostics.as_ref()
    }

    /// Ends the connection and waits until the transport has closed (for a child process: it
    /// has exited and been reaped), then says how the server ended. Safe to call more than
    /// once.
    pub(crate) async fn shut_down(&self) -> ServerExit {
        let service = self
            .service
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(service) = service
            && let Err(error) = service.cancel().await
        {
            tracing::warn!(%error, "session task failed while closing");
        }
        self.diagnostics
            .server_exit()
            .unwrap_or(ServerExit::Disconnected)
    }
}
