//! [`FaultBehaviour`] (how a [`FaultHost`](super::FaultHost) misbehaves) and [`HostTransport`]
//! (which HTTP transport it speaks).

/// Which MCP transport a [`FaultHost`](super::FaultHost) speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HostTransport {
    /// Streamable HTTP (2025-11-25): `POST /mcp` answered with JSON or an event stream, an
    /// `Mcp-Session-Id` assigned by `initialize`, `DELETE` to end the session, and no listening
    /// stream (`GET` gets 405).
    StreamableHttp,
    /// The legacy HTTP+SSE transport (2024-11-05): `GET /sse` opens a session's event stream,
    /// whose first event names the endpoint, `POST /messages?session_id=<id>`; every answer
    /// goes out on the stream.
    LegacySse,
}

/// How a [`FaultHost`](super::FaultHost) misbehaves. Each fault strikes once, at the first
/// request it concerns (the first `tools/call`, or the first `initialize`); from then on the
/// host serves well, so that a test can check that the next call works.
///
/// The host's one tool, `record`, has a side effect: every call that reaches it is counted
/// ([`executions`](super::FaultHost::executions)), a fault or not, so a test can tell a call
/// that ran from one that did not, and a replay from none. It answers with the text of its
/// `label` argument, so a test can tell whose result a call got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultBehaviour {
    /// No fault.
    Healthy,
    /// The first call runs, then the server dies without answering: it stops listening and
    /// drops every connection. It stays down until [`restart`](super::FaultHost::restart).
    CrashMidCall,
    /// The first call runs and is never answered.
    HangInCall,
    /// The first `initialize` is never answered.
    HangInInitialize,
    /// The first call is answered with a text of `bytes` bytes.
    OversizedResponse {
        /// The size of the answer's text.
        bytes: usize,
    },
    /// The answer to the first call goes out one byte a second, until the client cancels the
    /// call (its `notifications/cancelled` arrives); then the rest goes at once, as from a
    /// server back to speed.
    SlowLoris,
    /// The first call runs; then the connection carrying its answer (Streamable HTTP: the
    /// call's answer stream, after a first event; legacy SSE: the session's event stream) is
    /// reset with a TCP `RST`, and no answer comes.
    ResetMidStream,
    /// The first call is answered, and then the session is forgotten: every later request on
    /// it gets a 404 (Streamable HTTP: with its `Mcp-Session-Id`; legacy SSE: on its message
    /// endpoint, while its event stream stays open).
    SessionExpiry,
    /// The first two calls in flight together are each answered with the other's id (the
    /// first waits up to two seconds for the second, and is answered normally if none comes).
    SwappedIds,
    /// The first call is answered with the id of the request answered before it, one that is
    /// no longer awaited.
    StaleId,
    /// Before its answer to the first call, the host sends a response to an id the client
    /// never sent ([`FaultHost::UNSOLICITED_ID`](super::FaultHost::UNSOLICITED_ID)).
    UnsolicitedId,
}
