//! [`LiveConnection`]: one initialized connection of a session, from handshake to shutdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ClientCacheConfig;
use rmcp::model::ServerCapabilities;
use rmcp::service::{
    ClientLifecycleMode, Peer, RoleClient, RunningService, serve_client_with_lifecycle,
};
use toolport_core::{
    ConnectContext, ConnectionDiagnostics, Connector, ProtocolChoice, ServerExit, Timeouts,
    UnmodeledFields,
};

use crate::SessionError;
use crate::handler::SessionHandler;
use crate::listen::Listener;
use crate::lock::lock;
use crate::probe::ProbeTransport;

/// One initialized connection. Cheap to share: requests go through [`peer`](Self::peer)
/// without any lock.
#[derive(Debug)]
pub(crate) struct LiveConnection {
    pub(crate) peer: Peer<RoleClient>,
    diagnostics: Arc<dyn ConnectionDiagnostics>,
    service: Mutex<Option<RunningService<RoleClient, SessionHandler>>>,
    /// How a 2026-07-28 connection hears of changes.
    pub(crate) listener: Listener,
    /// What the server says that rmcp's model drops, if the transport keeps it.
    unmodeled_fields: Option<Arc<UnmodeledFields>>,
    /// Whether a listing was asked for since [`take_listed`](Self::take_listed) last looked.
    listed: AtomicBool,
    /// The session id the server assigned in the handshake (Streamable HTTP's
    /// `Mcp-Session-Id`), for spans.
    session_id: Option<Box<str>>,
}

impl LiveConnection {
    /// Opens the transport and starts the session, each within its bound: the `initialize`
    /// handshake for a version that has one (2025-11-25 and before), `server/discover` for one
    /// that has not (2026-07-28), and for a negotiation the probe, then `initialize` if it
    /// finds an older server (on the same transport).
    pub(crate) async fn open(
        connector: &dyn Connector,
        target: &str,
        timeouts: &Timeouts,
        protocol: &ProtocolChoice,
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
        let unmodeled_fields = connection.unmodeled_fields;
        let lifecycle = lifecycle(protocol, connector.handshake_only());
        let negotiating = matches!(lifecycle, ClientLifecycleMode::Auto { .. });
        let transport = ProbeTransport::new(connection.transport, negotiating);
        let refusal = transport.refusal();
        let handshake = serve_client_with_lifecycle(handler, transport, lifecycle);
        let service = match tokio::time::timeout(timeouts.initialize, handshake).await {
            Ok(Ok(service)) => service,
            Ok(Err(error)) => {
                return Err(SessionError::from_initialize(
                    target,
                    protocol,
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
        if let Some(refusal) = lock(&refusal).take()
            && let Some(info) = peer.peer_info()
        {
            tracing::info!(
                target,
                protocol = %info.protocol_version,
                "the server refused `server/discover` at {}: {refusal}; connected with `initialize` instead",
                ProtocolChoice::PREFERRED,
            );
        }
        // Toolport caches what it needs itself, and invalidates on list_changed.
        peer.set_response_cache_config(ClientCacheConfig::disabled())
            .await;
        let session_id = diagnostics.session_id().map(String::into_boxed_str);
        Ok(Self {
            peer,
            session_id,
            diagnostics,
            service: Mutex::new(Some(service)),
            listener: Listener::default(),
            unmodeled_fields,
            listed: AtomicBool::new(false),
        })
    }

    /// Notes that a listing (of tools, prompts, resources or templates) is asked for.
    pub(crate) fn note_listing(&self) {
        self.listed.store(true, Ordering::Relaxed);
    }

    /// Whether a listing was asked for since the last look; the next look starts afresh.
    pub(crate) fn take_listed(&self) -> bool {
        self.listed.swap(false, Ordering::Relaxed)
    }

    /// Whether the transport is still up. A dead child or a dropped stream shows here.
    pub(crate) fn is_alive(&self) -> bool {
        !self.peer.is_transport_closed()
    }

    /// What the server said of 2025-11-25 tasks, when the connection speaks that version and
    /// the server runs tool calls as tasks; `None` otherwise, and its calls are plain calls.
    pub(crate) fn legacy_tasks(&self) -> Option<&UnmodeledFields> {
        let known = self.unmodeled_fields.as_deref()?;
        (!self.is_modern() && known.runs_tool_calls()).then_some(known)
    }

    /// The fields of `tool` the server's latest listing gave that rmcp's `Tool` drops, if the
    /// transport keeps them.
    pub(crate) fn tool_fields(
        &self,
        tool: &str,
    ) -> Option<serde_json::Map<String, serde_json::Value>> {
        self.unmodeled_fields.as_deref()?.tool_fields(tool)
    }

    /// Whether the server's capabilities satisfy `says`; true when it sent none to judge by.
    pub(crate) fn publishes(&self, says: impl Fn(&ServerCapabilities) -> bool) -> bool {
        self.peer
            .peer_info()
            .is_none_or(|info| says(&info.capabilities))
    }

    /// Whether the connection speaks a version without `initialize` (2026-07-28 on): a server
    /// tells of changes only on a `subscriptions/listen` request, and asks for input with
    /// `input_required` results.
    pub(crate) fn is_modern(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| !info.protocol_version.has_initialize())
    }

    /// The server's capabilities, or none declared when it sent none.
    pub(crate) fn capabilities(&self) -> ServerCapabilities {
        self.peer
            .peer_info()
            .map(|info| info.capabilities.clone())
            .unwrap_or_default()
    }

    /// The session id the server assigned in the handshake, if its transport has one.
    pub(crate) fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// What the transport knows about its connection's failures.
    pub(crate) fn diagnostics(&self) -> &dyn ConnectionDiagnostics {
        self.diagnostics.as_ref()
    }

    /// The same, to keep after the connection is gone.
    pub(crate) fn shared_diagnostics(&self) -> Arc<dyn ConnectionDiagnostics> {
        self.diagnostics.clone()
    }

    /// Ends the connection and waits until the transport has closed (for a child process: it
    /// has exited and been reaped), then says how the server ended. Safe to call more than
    /// once.
    pub(crate) async fn shut_down(&self) -> ServerExit {
        self.listener.stop_starting();
        let service = lock(&self.service).take();
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

/// How a session starts: with the `initialize` handshake for a pinned version that has one
/// (or a negotiation over a transport that carries nothing newer); with `server/discover` and
/// the version in every request's `_meta` for a pinned version from 2026-07-28 on; and for a
/// negotiation, with rmcp's probe: `server/discover` at the preferred version, then
/// `initialize` at the fallback if the server answers with an error that is not a modern one.
fn lifecycle(protocol: &ProtocolChoice, handshake_only: bool) -> ClientLifecycleMode {
    match protocol {
        ProtocolChoice::Pinned(version) if !version.has_initialize() => {
            ClientLifecycleMode::Discover {
                preferred_versions: vec![version.clone()],
            }
        }
        ProtocolChoice::Negotiate if !handshake_only => ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolChoice::PREFERRED],
            legacy_version: Some(ProtocolChoice::FALLBACK),
        },
        // The handler asks for the pinned version, or the negotiation's fallback.
        _ => ClientLifecycleMode::Initialize,
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ProtocolVersion;

    use super::*;

    #[test]
    fn each_choice_starts_its_own_way() {
        let pinned = |version| lifecycle(&ProtocolChoice::Pinned(version), false);
        assert_eq!(
            pinned(ProtocolVersion::V_2025_11_25),
            ClientLifecycleMode::Initialize
        );
        assert_eq!(
            pinned(ProtocolVersion::V_2026_07_28),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28]
            }
        );
        assert_eq!(
            lifecycle(&ProtocolChoice::Negotiate, false),
            ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            }
        );
        assert_eq!(
            lifecycle(&ProtocolChoice::Negotiate, true),
            ClientLifecycleMode::Initialize,
            "a transport of the handshake era alone is not probed"
        );
    }
}
