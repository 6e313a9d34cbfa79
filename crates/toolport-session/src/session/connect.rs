//! The session's live connection: opened on first use and shared, opened again (with the
//! retry policy) once it died, and, for a negotiated version, opened at the version the first
//! negotiation settled on.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::model::ProtocolVersion;
use toolport_core::ProtocolChoice;

use super::McpSession;
use crate::connection::LiveConnection;
use crate::lock::lock;
use crate::{ServerEvent, SessionError};

impl McpSession {
    /// The live connection, connecting (with retries) if there is none or it died.
    pub(super) async fn connection(&self) -> Result<Arc<LiveConnection>, SessionError> {
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        // Boxed: the connect path holds the whole handshake (about 9 KB of future), and inline
        // it would make every request's future that big, copied on each call.
        Box::pin(self.inner.retry.run(
            || self.connect_once(),
            || async {},
            |attempt, attempts, error| self.announce_retry(attempt, attempts, error),
        ))
        .await
    }

    /// The live connection, or one connection attempt. Concurrent callers share the attempt.
    pub(super) async fn connect_once(&self) -> Result<Arc<LiveConnection>, SessionError> {
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        let _connecting = self.inner.connecting.lock().await;
        if self.inner.closed.load(Ordering::Acquire) {
            return Err(SessionError::Closed {
                target: self.inner.target.clone(),
            });
        }
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        if let Some(dead) = self.take_current() {
            self.keep_diagnostics_of(&dead);
            tracing::info!(target = %self.inner.target, details = ?dead.diagnostics().failure_details(), "transport died; reconnecting");
            shut_down_in_background(dead);
        }
        // Boxed: rmcp's handshake future is large, and a connect is rare, so every request's
        // future stays small (and off the stack of a caller that runs it in place).
        let opened = Box::pin(LiveConnection::open(
            self.inner.connector.as_ref(),
            &self.inner.target,
            &self.inner.timeouts,
            &self.next_protocol(),
            self.inner.handler.clone(),
        ))
        .await;
        let connection = match opened {
            Ok(connection) => Arc::new(connection),
            Err(error) => {
                // The next attempt negotiates afresh: the server may not be what it was.
                *self.lock_negotiated() = None;
                return Err(error);
            }
        };
        let info = connection.peer.peer_info();
        if self.inner.protocol == ProtocolChoice::Negotiate
            && let Some(info) = &info
        {
            *self.lock_negotiated() = Some(info.protocol_version.clone());
        }
        let version = info
            .as_ref()
            .map_or("unknown", |info| info.protocol_version.as_str());
        *self.lock_current() = Some(connection.clone());
        // An event in the span of the operation that waited for it (see `span.rs`).
        let event = if self.inner.connected_once.swap(true, Ordering::AcqRel) {
            tracing::info!(target = %self.inner.target, protocol = %version, "reconnected");
            ServerEvent::Reconnected
        } else {
            tracing::info!(target = %self.inner.target, protocol = %version, "connected");
            ServerEvent::Connected
        };
        self.inner.hub.publish(event);
        self.follow_changes(&connection);
        Ok(connection)
    }

    /// Tells the session's readers that discovery failed with `error` and is tried again, as
    /// attempt `attempt` of `attempts`.
    pub(super) fn announce_retry(&self, attempt: u32, attempts: u32, error: &SessionError) {
        self.inner.hub.publish(ServerEvent::Retrying {
            attempt,
            attempts,
            reason: error.to_string(),
        });
    }

    /// How the next connection starts: as the session was built, except that a negotiation
    /// that settled already starts at the version it settled on, with no probe.
    pub(super) fn next_protocol(&self) -> ProtocolChoice {
        match &*self.lock_negotiated() {
            Some(version) => ProtocolChoice::Pinned(version.clone()),
            None => self.inner.protocol.clone(),
        }
    }

    pub(super) fn lock_negotiated(&self) -> std::sync::MutexGuard<'_, Option<ProtocolVersion>> {
        lock(&self.inner.negotiated)
    }

    /// Drops `connection` if it is still the current one, and closes it in the background.
    pub(super) async fn discard(&self, connection: &Arc<LiveConnection>) {
        let removed = {
            let mut current = self.lock_current();
            match current.as_ref() {
                Some(live) if Arc::ptr_eq(live, connection) => current.take(),
                _ => None,
            }
        };
        if let Some(removed) = removed {
            self.keep_diagnostics_of(&removed);
            shut_down_in_background(removed);
        }
    }

    /// Keeps what the transport of `lost`, a connection the session let go, knows about its
    /// failure, for [`failure_details`](McpSession::failure_details) to say after it is gone.
    fn keep_diagnostics_of(&self, lost: &LiveConnection) {
        *lock(&self.inner.lost_diagnostics) = Some(lost.shared_diagnostics());
    }

    pub(super) fn current_if_alive(&self) -> Option<Arc<LiveConnection>> {
        self.lock_current()
            .as_ref()
            .filter(|connection| connection.is_alive())
            .cloned()
    }

    pub(super) fn take_current(&self) -> Option<Arc<LiveConnection>> {
        self.lock_current().take()
    }

    pub(super) fn lock_current(&self) -> std::sync::MutexGuard<'_, Option<Arc<LiveConnection>>> {
        lock(&self.inner.current)
    }
}

/// Closes `connection` in a task of its own, so that nobody waits for it.
pub(super) fn shut_down_in_background(connection: Arc<LiveConnection>) {
    tokio::spawn(async move {
        connection.shut_down().await;
    });
}
