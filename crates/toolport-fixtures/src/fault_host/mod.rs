//! [`FaultHost`]: an MCP server over Streamable HTTP or legacy HTTP+SSE on `127.0.0.1`, written
//! by hand on hyper rather than rmcp, so that it can misbehave below the protocol: hang, crash,
//! trickle, reset its connection, forget its session, or answer with the wrong id.

mod behaviour;
mod body;
mod connection;
mod legacy_sse;
mod listener;
mod message;
mod routes;
mod rpc;
mod state;
mod streamable;

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex, MutexGuard};

pub use behaviour::{FaultBehaviour, HostTransport};
use listener::Generation;
use routes::Routes;
use state::Shared;

/// A misbehaving MCP server on `127.0.0.1`, for tests of what a client does about faults.
///
/// It speaks just enough MCP for a session to initialize (2025-11-25, or the version the client
/// asks for), list its one tool, `record`, and call it, over the [`HostTransport`] it is started
/// with; then it misbehaves once as its [`FaultBehaviour`] says, and serves well from then on.
/// Every call of `record` is counted ([`executions`](Self::executions)), so a test can tell
/// whether a call ran and whether it was replayed; so are `initialize` requests and the client's
/// cancellations.
///
/// [`stop`](Self::stop) drops every connection and the listener; [`restart`](Self::restart)
/// serves again on the same port with every session forgotten, and the counts kept. Dropping
/// the host stops it. It must start inside a tokio runtime.
///
/// # Examples
///
/// ```
/// use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let host = FaultHost::start(FaultBehaviour::HangInCall, HostTransport::StreamableHttp)
///     .await
///     .unwrap();
/// assert_eq!(host.url(), format!("http://127.0.0.1:{}/mcp", host.port()));
/// assert_eq!(host.executions(), 0);
/// host.stop().await;
/// # }
/// ```
pub struct FaultHost {
    transport: HostTransport,
    port: u16,
    shared: Arc<Shared>,
    running: Mutex<Option<Generation>>,
}

impl FaultHost {
    /// The id of the response [`FaultBehaviour::UnsolicitedId`] sends, which no client sent.
    pub const UNSOLICITED_ID: u64 = rpc::UNSOLICITED_ID;

    /// Starts a host that behaves as `behaviour` over `transport`, on an ephemeral port.
    pub async fn start(behaviour: FaultBehaviour, transport: HostTransport) -> io::Result<Self> {
        let shared = Arc::new(Shared::new(behaviour));
        let (generation, port) = Self::serve(0, transport, &shared).await?;
        Ok(Self {
            transport,
            port,
            shared,
            running: Mutex::new(Some(generation)),
        })
    }

    async fn serve(
        port: u16,
        transport: HostTransport,
        shared: &Arc<Shared>,
    ) -> io::Result<(Generation, u16)> {
        let shared = Arc::clone(shared);
        Generation::start(port, move |dead| Routes::new(transport, shared, dead)).await
    }

    /// The URL a client connects to: `http://127.0.0.1:<port>/mcp` for Streamable HTTP,
    /// `http://127.0.0.1:<port>/sse` for legacy SSE.
    pub fn url(&self) -> String {
        let path = match self.transport {
            HostTransport::StreamableHttp => streamable::PATH,
            HostTransport::LegacySse => legacy_sse::PATH,
        };
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The port, the same across restarts.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// From now on, answer over Streamable HTTP with an event stream of one event (the
    /// answer), as many servers do, rather than with a JSON body. Legacy SSE answers on its
    /// stream anyway.
    pub fn answer_in_streams(&self) {
        self.shared.answer_in_streams();
    }

    /// How many calls of `record` reached the host, across restarts: a call the host hung on,
    /// crashed in or answered wrongly counts, one refused with a 404 does not.
    pub fn executions(&self) -> usize {
        self.shared.executions()
    }

    /// How many `initialize` requests reached the host, across restarts.
    pub fn initializations(&self) -> usize {
        self.shared.initializations()
    }

    /// How many `notifications/cancelled` reached the host, across restarts.
    pub fn cancellations(&self) -> usize {
        self.shared.cancellations()
    }

    /// Closes the listener and every connection, and waits until they are closed. Stopping a
    /// stopped (or crashed) host only cleans up.
    pub async fn stop(&self) {
        let running = self.lock().take();
        if let Some(generation) = running {
            generation.stop().await;
        }
    }

    /// Stops, then serves again on the same port, with every session forgotten (a client's old
    /// session gets a 404) and the counts kept. The fault does not strike again.
    pub async fn restart(&self) -> io::Result<()> {
        self.stop().await;
        let (generation, _) = Self::serve(self.port, self.transport, &self.shared).await?;
        *self.lock() = Some(generation);
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Option<Generation>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for FaultHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FaultHost")
            .field("url", &self.url())
            .field("executions", &self.executions())
            .finish_non_exhaustive()
    }
}
