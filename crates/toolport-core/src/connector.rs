//! The [`Connector`] trait: the one boundary between a transport crate and the session layer.

use std::fmt;
use std::sync::Arc;

use rmcp::model::RequestId;

use crate::{BoxedTransport, ConnectContext, ConnectError, ServerExit, UnmodeledFields};

/// Makes a fresh client transport for each connect or reconnect.
///
/// A session calls [`connect`](Connector::connect) lazily on first use and again whenever the
/// previous transport died or the server forgot the session. Implementations hold only the
/// parameters (a command line, a URL, headers); each call starts from scratch. The session's
/// bounds come in the [`ConnectContext`], so a transport keeps no copy of them: apply
/// [`Timeouts::connect`](crate::Timeouts::connect) to whatever the transport opens itself.
///
/// # What a transport puts in its error chain
///
/// The session knows no transport, so it classifies failures by two markers that it looks for
/// anywhere in an error's source chain (`Error::source`), in the errors `connect` returns and in
/// the errors of the transport's `send`:
///
/// - [`AuthorizationRequired`](crate::AuthorizationRequired), when the server refused the
///   credentials (HTTP 401 or 403). The session reports it as unauthorized, does not retry it,
///   and an authorization layer starts from its challenge.
/// - [`NotDelivered`](crate::NotDelivered), when a message surely never reached the server
///   (the connection could not be opened, or the transport was already down). The session may
///   then send a tool call again whatever its annotations, since it did not run. Without the
///   marker a failed call's outcome is uncertain, and it is not replayed.
///
/// Keep the underlying cause as the marker's (or your error's) source rather than flattening
/// it into a string, so that users can still tell a timeout from a refusal. A transport that
/// dies without an error simply ends `receive` with `None`; [`ConnectionDiagnostics`] can then
/// say why.
///
/// # Examples
///
/// A connector that hands out in-memory pipes, as a test double would. Over a byte stream,
/// `toolport-stdio`'s `StreamTransport` is the transport to use: it reads as stdio does, with
/// Toolport's decoder (`toolport_codec::ServerMessageDecoder`: the message limit, 2025-11-25
/// tasks), where rmcp's `AsyncRwTransport`, boxed here, has neither.
///
/// ```
/// use rmcp::transport::async_rw::AsyncRwTransport;
/// use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};
///
/// #[derive(Debug)]
/// struct Loopback;
///
/// #[async_trait::async_trait]
/// impl Connector for Loopback {
///     async fn connect(&self, _context: &ConnectContext) -> Result<Connection, ConnectError> {
///         let (client_side, _server_side) = tokio::io::duplex(64 * 1024);
///         let (read, write) = tokio::io::split(client_side);
///         let transport = AsyncRwTransport::new_client(read, write);
///         Ok(Connection::new(BoxedTransport::new(transport)))
///     }
///
///     fn target(&self) -> String {
///         "loopback".into()
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait Connector: Send + Sync + fmt::Debug + 'static {
    /// Opens a new transport to the server, within the bounds of `context`. Nothing has been
    /// sent on it yet.
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError>;

    /// A short, secret-free description of the server for error messages, such as
    /// `` `npx server-everything` over stdio `` or `https://example.com/mcp`.
    fn target(&self) -> String;

    /// Whether the transport carries only the protocol versions with an `initialize`
    /// handshake (2025-11-25 and before), as the deprecated HTTP+SSE transport does: a session
    /// that negotiates its version then sends `initialize` at once, without probing for a
    /// newer one. `false` by default; a connector that wraps another forwards the inner one's.
    fn handshake_only(&self) -> bool {
        false
    }
}

#[async_trait::async_trait]
impl<C: Connector + ?Sized> Connector for Arc<C> {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        (**self).connect(context).await
    }

    fn target(&self) -> String {
        (**self).target()
    }

    fn handshake_only(&self) -> bool {
        (**self).handshake_only()
    }
}

/// What a [`Connector`] hands the session: the transport, and a way to explain its failure.
#[derive(Debug)]
#[non_exhaustive]
pub struct Connection {
    /// The transport, ready for the `initialize` handshake.
    pub transport: BoxedTransport,
    /// Explains, after the fact, why the transport died (an exit status, the tail of stderr).
    pub diagnostics: Arc<dyn ConnectionDiagnostics>,
    /// What the server says that rmcp's model drops (2025-11-25 tasks, each tool's unmodeled
    /// fields), as the transport's decoder keeps it
    /// (`toolport_codec::ServerMessageDecoder::with_unmodeled_fields`).
    /// `None` for a transport that does not keep it: its calls never run as 2025-11-25 tasks,
    /// and its tools are as rmcp's model has them.
    pub unmodeled_fields: Option<Arc<UnmodeledFields>>,
}

impl Connection {
    /// A connection with nothing to add when it fails.
    pub fn new(transport: BoxedTransport) -> Self {
        Self {
            transport,
            diagnostics: Arc::new(NoDiagnostics),
            unmodeled_fields: None,
        }
    }

    /// Attaches what the transport's decoder keeps of what rmcp's model drops.
    #[must_use]
    pub fn with_unmodeled_fields(mut self, unmodeled_fields: Arc<UnmodeledFields>) -> Self {
        self.unmodeled_fields = Some(unmodeled_fields);
        self
    }

    /// Attaches diagnostics that explain a failure of this connection.
    #[must_use]
    pub fn with_diagnostics(mut self, diagnostics: Arc<dyn ConnectionDiagnostics>) -> Self {
        self.diagnostics = diagnostics;
        self
    }
}

/// Explains a dead connection in words a user can act on, and names the connection for
/// traces.
pub trait ConnectionDiagnostics: Send + Sync + fmt::Debug {
    /// Why the connection failed, if the transport knows: for a child process, its exit status
    /// and the last lines it wrote to stderr; for a stream, the last garbage it received.
    /// `None` when there is nothing to add.
    fn failure_details(&self) -> Option<String>;

    /// How the server ended, once the transport has closed: for a child process, whether it
    /// exited by itself or had to be signalled. `None` for a transport with no process of its
    /// own (the session then reports [`ServerExit::Disconnected`]).
    fn server_exit(&self) -> Option<ServerExit> {
        None
    }

    /// The session id the server assigned (Streamable HTTP's `Mcp-Session-Id`), once the
    /// handshake has it: the `mcp.session.id` of the session's spans. `None` for a transport
    /// without one. Not a credential, but the transport shows it only to the session.
    fn session_id(&self) -> Option<String> {
        None
    }

    /// Whether the transport lost the answer to request `id` while the connection stayed up,
    /// and delivered a JSON-RPC error in its place (see [`LostAnswers`](crate::LostAnswers)).
    /// The session asks once, when a request fails with a JSON-RPC error, so an implementation
    /// forgets the id as it answers `true`. This is the transport's word, out of band: no
    /// message a server sends makes it `true`. `false` for a transport that never loses one
    /// answer alone.
    fn answer_lost(&self, id: &RequestId) -> bool {
        let _ = id;
        false
    }
}

/// Diagnostics for a transport that has nothing to add.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoDiagnostics;

impl ConnectionDiagnostics for NoDiagnostics {
    fn failure_details(&self) -> Option<String> {
        None
    }
}
