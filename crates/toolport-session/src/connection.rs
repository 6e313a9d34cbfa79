//! [`LiveConnection`]: one initialized connection of a session, from handshake to shutdown.

use std::sync::{Arc, Mutex};

use rmcp::ClientCacheConfig;
use rmcp::model::ServerCapabilities;
use rmcp::service::{
    ClientLifecycleMode, Peer, RoleClient, RunningService, serve_client_with_lifecycle,
};
use rmcp::{ClientHandler as _, model::ProtocolVersion};
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
    /// Opens the transport and starts the session, each within its bound: the `initialize`
    /// handshake for a version that has one (2025-11-25 and before), `server/discover` for one
    /// that has not (2026-07-28).
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
        let lifecycle = lifecycle(handler.get_info().protocol_version);
        let handshake = serve_client_with_lifecycle(handler, connection.transport, lifecycle);
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

/// How a session asking for `version` starts: with the `initialize` handshake, or, from
/// 2026-07-28 on, with `server/discover` and the version in every request's `_meta`.
fn lifecycle(version: ProtocolVersion) -> ClientLifecycleMode {
    if version.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        }
    }
}
