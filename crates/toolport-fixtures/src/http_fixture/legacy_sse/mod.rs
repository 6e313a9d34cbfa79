//! [`LegacySseFixtureServer`]: a minimal server for the legacy MCP HTTP+SSE transport
//! (protocol 2024-11-05), bridging each SSE session to a fresh rmcp server.

mod app;
mod session;
mod stream;
mod transport;

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServerHandler;

use self::app::{LegacySseApp, StreamOptions};
use super::host::{App, Host};
use super::request_log::RecordedRequest;

/// A legacy HTTP+SSE MCP server on `http://127.0.0.1:<port>/sse`.
///
/// `GET /sse` opens a session with a fresh server from the factory and answers with an event
/// stream whose first event is `event: endpoint` with `data: /messages?session_id=<id>`.
/// `POST /messages?session_id=<id>` takes one JSON-RPC message and answers `202 Accepted`; the
/// server's responses and notifications go out on the stream as `event: message` with the JSON
/// as `data`. A session ends when its stream does: its id then gets a 404.
///
/// For client tests it can point the endpoint event at another origin
/// ([`endpoint_override`](Self::endpoint_override)), end streams early
/// ([`drop_stream_after`](Self::drop_stream_after)), require a bearer token, stop and restart.
/// Every request is logged. Dropping the server stops it.
///
/// The server must start inside a tokio runtime.
///
/// # Examples
///
/// ```
/// use toolport_fixtures::{LabServer, LegacySseFixtureServer};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = LegacySseFixtureServer::start(LabServer::new).await.unwrap();
/// assert_eq!(server.url(), format!("http://127.0.0.1:{}/sse", server.port()));
/// # }
/// ```
pub struct LegacySseFixtureServer {
    host: Host,
    options: Arc<Mutex<StreamOptions>>,
}

impl LegacySseFixtureServer {
    /// Starts serving `factory()` for each SSE session, on an ephemeral port.
    pub async fn start<S, F>(factory: F) -> io::Result<Self>
    where
        S: ServerHandler,
        F: Fn() -> S + Send + Sync + 'static,
    {
        Self::start_on(0, factory).await
    }

    /// Starts serving `factory()` for each SSE session, on `port` (0 for an ephemeral one).
    pub async fn start_on<S, F>(port: u16, factory: F) -> io::Result<Self>
    where
        S: ServerHandler,
        F: Fn() -> S + Send + Sync + 'static,
    {
        let factory = Arc::new(factory);
        let options = Arc::new(Mutex::new(StreamOptions::default()));
        let app_options = Arc::clone(&options);
        let make_app = move || -> Arc<dyn App> {
            Arc::new(LegacySseApp::new(
                Arc::clone(&factory),
                Arc::clone(&app_options),
            ))
        };
        let host = Host::start(port, Box::new(make_app)).await?;
        Ok(Self { host, options })
    }

    /// The event stream's URL, `http://127.0.0.1:<port>/sse`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/sse", self.port())
    }

    /// The port the server listens on, the same across restarts.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// Makes the endpoint event of streams opened from now on name `url` (with
    /// `?session_id=<id>` appended) instead of `/messages`: an absolute URL on another origin,
    /// such as `http://127.0.0.2:9/messages`, is one a client must refuse to POST to.
    pub fn endpoint_override(&self, url: impl Into<String>) {
        self.options().endpoint = Some(url.into());
    }

    /// Makes streams opened from now on end after `events` events (the endpoint event counts),
    /// which ends their sessions, so that clients have to reconnect.
    pub fn drop_stream_after(&self, events: usize) {
        self.options().drop_after = Some(events);
    }

    /// From now on, answer requests without `Authorization: Bearer <token>` with a 401 and
    /// [`BEARER_CHALLENGE`](crate::BEARER_CHALLENGE).
    pub fn require_bearer(&self, token: impl Into<String>) {
        self.host.gate().require_bearer(token.into());
    }

    /// Every HTTP request received so far, oldest first, across restarts.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.host.gate().log().requests()
    }

    /// The first request (received so far or within `timeout`) that `matches`.
    pub async fn wait_for_request(
        &self,
        matches: impl Fn(&RecordedRequest) -> bool,
        timeout: Duration,
    ) -> Option<RecordedRequest> {
        self.host.gate().log().wait_for(matches, timeout).await
    }

    /// Closes the listener and drops every open stream and session. Stopping a stopped server
    /// does nothing.
    pub async fn stop(&self) {
        self.host.stop().await;
    }

    /// Stops, then serves again on the same port with every session forgotten.
    pub async fn restart(&self) -> io::Result<()> {
        self.host.restart().await
    }

    fn options(&self) -> std::sync::MutexGuard<'_, StreamOptions> {
        self.options.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for LegacySseFixtureServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LegacySseFixtureServer")
            .field("url", &self.url())
            .finish_non_exhaustive()
    }
}
