//! [`LiveConnection`]: one initialized connection of a session, from handshake to shutdown.

use std::sync::{Arc, Mutex};

use rmcp::ClientCacheConfig;
use rmcp::service::{ClientInitializeError, Peer, RoleClient, RunningService, serve_client};
use toolport_core::{
    AuthorizationRequired, ConnectContext, ConnectionDiagnostics, Connector, Timeouts,
};

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
            .map_err(|source| match AuthorizationRequired::find(&source) {
                Some(refusal) => SessionError::Unauthorized {
                    target: target.to_owned(),
                    method: "connect".to_owned(),
                    refusal: refusal.clone(),
                },
                None => SessionError::Connect {
                    target: target.to_owned(),
                    source,
                },
            })?;
        let diagnostics = connection.diagnostics;
        let handshake = serve_client(handler, connection.transport);
        let service = match tokio::time::timeout(timeouts.initialize, handshake).await {
            Ok(Ok(service)) => service,
            Ok(Err(error)) => {
                return Err(initialize_error(target, error, diagnostics.as_ref()));
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

    /// Why the transport died, if it knows.
    pub(crate) fn failure_details(&self) -> Option<String> {
        self.diagnostics.failure_details()
    }

    /// Ends the connection and waits until the transport has closed (for a child process: it
    /// has exited and been reaped). Safe to call more than once.
    pub(crate) async fn shut_down(&self) {
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
    }
}

fn initialize_error(
    target: &str,
    error: ClientInitializeError,
    diagnostics: &dyn ConnectionDiagnostics,
) -> SessionError {
    // rmcp keeps a send failure's transport error out of the source chain; look inside it.
    let refusal = match &error {
        ClientInitializeError::TransportError { error, .. } => AuthorizationRequired::find(error),
        other => AuthorizationRequired::find(other),
    };
    if let Some(refusal) = refusal {
        return SessionError::Unauthorized {
            target: target.to_owned(),
            method: "initialize".to_owned(),
            refusal: refusal.clone(),
        };
    }
    let details = diagnostics.failure_details();
    let permanent = matches!(
        error,
        ClientInitializeError::NoCompatibleProtocolVersion { .. }
            | ClientInitializeError::JsonRpcError(_)
    );
    let reason = match &error {
        ClientInitializeError::ConnectionClosed(_) => "the server closed the connection".to_owned(),
        // The transport's own words are in the details; rmcp's wrapper adds only noise.
        ClientInitializeError::TransportError { .. } if details.is_some() => {
            "could not send the request".to_owned()
        }
        ClientInitializeError::JsonRpcError(data) => {
            format!(
                "the server refused: {} (code {})",
                data.message, data.code.0
            )
        }
        other => other.to_string(),
    };
    SessionError::Initialize {
        target: target.to_owned(),
        reason,
        details,
        permanent,
    }
}
