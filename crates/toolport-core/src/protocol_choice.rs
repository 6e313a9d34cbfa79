//! [`ProtocolChoice`]: which MCP protocol version a session speaks, or how it settles on one.

use rmcp::model::ProtocolVersion;

/// Which protocol version a session speaks.
///
/// ```
/// use rmcp::model::ProtocolVersion;
/// use toolport_core::ProtocolChoice;
///
/// assert_eq!(
///     ProtocolChoice::from(ProtocolVersion::V_2026_07_28),
///     ProtocolChoice::Pinned(ProtocolVersion::V_2026_07_28),
/// );
/// assert_eq!(ProtocolChoice::Negotiate.to_string(), "auto");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolChoice {
    /// Prefer 2026-07-28, and fall back to 2025-11-25 for a server that does not speak it,
    /// on the same connection (a stdio server is started once). The session probes with
    /// `server/discover`; an answer, or a modern error (such as an unsupported version when the
    /// server serves a later one), keeps it on 2026-07-28, and any other error (over Streamable
    /// HTTP: a refusal without a modern error in its body), or an unsupported version from a
    /// server that serves only versions with a handshake, makes it send `initialize` instead. Against an older server that
    /// costs one round trip more than pinning 2025-11-25, once: the session's later
    /// connections start at the version settled on, until one fails. A transport that carries
    /// only the older versions (the deprecated HTTP+SSE transport) is not probed.
    Negotiate,
    /// This version only. One with a handshake (2025-11-25 and before) starts with
    /// `initialize`; 2026-07-28 starts with `server/discover` and fails against a server that
    /// does not speak it.
    Pinned(ProtocolVersion),
}

impl ProtocolChoice {
    /// The version a negotiating session prefers.
    pub const PREFERRED: ProtocolVersion = ProtocolVersion::V_2026_07_28;

    /// The version a negotiating session falls back to.
    pub const FALLBACK: ProtocolVersion = ProtocolVersion::V_2025_11_25;

    /// The version an `initialize` handshake asks for: the pinned one, or the fallback.
    pub fn handshake_version(&self) -> ProtocolVersion {
        match self {
            Self::Pinned(version) => version.clone(),
            Self::Negotiate => Self::FALLBACK,
        }
    }
}

impl Default for ProtocolChoice {
    /// [`ProtocolChoice::Negotiate`]: a session speaks the newest version the server does.
    fn default() -> Self {
        Self::Negotiate
    }
}

impl From<ProtocolVersion> for ProtocolChoice {
    fn from(version: ProtocolVersion) -> Self {
        Self::Pinned(version)
    }
}

impl std::fmt::Display for ProtocolChoice {
    /// `auto`, or the pinned version.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Negotiate => f.write_str("auto"),
            Self::Pinned(version) => f.write_str(version.as_str()),
        }
    }
}
