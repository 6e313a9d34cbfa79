//! [`SessionHeaders`]: what the server told us to send back on every request: its session id,
//! and the protocol version the handshake settled on.

use std::sync::Mutex;

use http::HeaderValue;

/// The `Mcp-Session-Id` and `MCP-Protocol-Version` values of one session, once known.
#[derive(Debug, Default)]
pub(crate) struct SessionHeaders {
    values: Mutex<Values>,
}

#[derive(Debug, Default, Clone)]
struct Values {
    session_id: Option<HeaderValue>,
    version: Option<HeaderValue>,
}

impl SessionHeaders {
    /// The session id and the negotiated version, as far as they are known.
    pub(crate) fn get(&self) -> (Option<HeaderValue>, Option<HeaderValue>) {
        let values = self.lock();
        (values.session_id.clone(), values.version.clone())
    }

    /// Whether the server gave us a session id.
    pub(crate) fn has_session(&self) -> bool {
        self.lock().session_id.is_some()
    }

    /// Whether the session's version has the standard headers of 2026-07-28.
    pub(crate) fn has_standard_headers(&self) -> bool {
        self.lock()
            .version
            .as_ref()
            .is_some_and(crate::standard_headers::apply_to)
    }

    /// Keeps `version`, named by a request's `_meta`, as the session's: a 2026-07-28 session
    /// has no handshake that names it, and its notifications carry none.
    pub(crate) fn note_version(&self, version: &HeaderValue) {
        let mut values = self.lock();
        if values.version.as_ref() != Some(version) {
            values.version = Some(version.clone());
        }
    }

    /// Forgets the version a request named, as `initialize` starts a handshake that settles
    /// it anew: a negotiation's `server/discover` probe named 2026-07-28 just before.
    pub(crate) fn forget_version(&self) {
        self.lock().version = None;
    }

    /// Keeps the session id the server assigned (on its answer to `initialize`). An id that is
    /// not a valid header value is ignored with a warning: sending it back is impossible.
    pub(crate) fn set_session_id(&self, id: &HeaderValue) {
        if id.to_str().is_err() {
            tracing::warn!("ignored a session id that is not visible ASCII");
            return;
        }
        self.lock().session_id = Some(id.clone());
    }

    /// Keeps the protocol version the handshake settled on.
    pub(crate) fn set_version(&self, version: &str) {
        match HeaderValue::from_str(version) {
            Ok(value) => self.lock().version = Some(value),
            Err(_) => tracing::warn!(
                version,
                "ignored a protocol version that is no header value"
            ),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Values> {
        self.values.lock().unwrap_or_else(|e| e.into_inner())
    }
}
