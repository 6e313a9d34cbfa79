//! [`HttpFixtureServer`]: serves a fixture MCP server over Streamable HTTP on `127.0.0.1`, with a
//! request log, an optional bearer token, and stop and restart for reconnect tests.

use std::fmt;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, StatusCode};
use hyper::body::Incoming;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::body::text_response;
use super::host::{App, Host, ResponseFuture};
use super::request_log::RecordedRequest;

/// An rmcp Streamable HTTP server (stateful, with `Mcp-Session-Id` sessions) on
/// `http://127.0.0.1:<port>/mcp`, serving a fresh server from the factory for each session.
///
/// Every request is logged, see [`requests`](Self::requests), and answered with a 401 when
/// [`require_bearer`](Self::require_bearer) was set and the token is missing or wrong.
/// [`stop`](Self::stop) hangs up every connection and ends every session at once, so clients
/// see their streams break, and [`clients_closed`](Self::clients_closed) waits until they have
/// closed those connections too; [`restart`](Self::restart) serves again on the same port with
/// every session forgotten, so an old `Mcp-Session-Id` gets a 404. Dropping the server stops
/// it.
///
/// The server must start inside a tokio runtime.
///
/// # Examples
///
/// ```
/// use toolport_testkit::TaskTracker;
/// use toolport_fixtures::HttpFixtureServer;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = HttpFixtureServer::start(TaskTracker::new).await.unwrap();
/// assert_eq!(server.url(), format!("http://127.0.0.1:{}/mcp", server.port()));
/// assert!(server.requests().is_empty());
/// server.stop().await;
/// # }
/// ```
pub struct HttpFixtureServer {
    host: Host,
}

impl HttpFixtureServer {
    /// The path the MCP endpoint answers on; every other path gets a 404.
    pub const PATH: &'static str = "/mcp";

    /// Starts serving `factory()` on an ephemeral port.
    pub async fn start<S, F>(factory: F) -> io::Result<Self>
    where
        S: ServerHandler,
        F: Fn() -> S + Send + Sync + 'static,
    {
        Self::start_on(0, factory).await
    }

    /// Starts serving `factory()` on `port` (0 for an ephemeral one), as a server that comes back
    /// at the same address would.
    pub async fn start_on<S, F>(port: u16, factory: F) -> io::Result<Self>
    where
        S: ServerHandler,
        F: Fn() -> S + Send + Sync + 'static,
    {
        let factory = Arc::new(factory);
        let make_app =
            move || -> Arc<dyn App> { Arc::new(StreamableApp::new(Arc::clone(&factory))) };
        let host = Host::start(port, Box::new(make_app)).await?;
        Ok(Self { host })
    }

    /// The MCP endpoint, `http://127.0.0.1:<port>/mcp`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}{}", self.port(), Self::PATH)
    }

    /// The port the server listens on, the same across restarts.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// From now on, answer requests without `Authorization: Bearer <token>` with a 401 and
    /// [`BEARER_CHALLENGE`](crate::BEARER_CHALLENGE).
    pub fn require_bearer(&self, token: impl Into<String>) {
        self.host.gate().require_bearer(token.into());
    }

    /// From now on, answer every request with `status` (401 or 403, say) and `challenge` as its
    /// `WWW-Authenticate` header, as a server that stopped trusting the client would.
    pub fn refuse_all(&self, status: StatusCode, challenge: impl Into<String>) {
        self.host.gate().refuse_all(status, challenge.into());
    }

    /// From now on, answer the requests whose `Mcp-Method` header names `method` with `status`
    /// and the plain-text `body`: `server/discover` with a 400, say, as a server older than
    /// 2026-07-28 refuses a request that comes before its handshake.
    pub fn refuse_method(
        &self,
        method: impl Into<String>,
        status: StatusCode,
        body: impl Into<String>,
    ) {
        self.host
            .gate()
            .refuse_method(method.into(), status, body.into());
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

    /// Closes the listener, ends every session, and hangs up every open connection: what was
    /// in flight on it is dropped and the server's FIN is sent. Stopping a stopped server does
    /// nothing.
    pub async fn stop(&self) {
        self.host.stop().await;
    }

    /// Completes once the clients have closed every connection a [`stop`](Self::stop) hung up
    /// on. A client that has closed a connection sends nothing more on it, so its next request
    /// opens a new one: refused while the server is stopped, answered by a fresh session after
    /// a [`restart`](Self::restart). A request made before this completes may go out on a
    /// connection the server has hung up on, and fail with its outcome unknown, as it would
    /// after any real restart.
    pub async fn clients_closed(&self) {
        self.host.clients_closed().await;
    }

    /// Stops, then serves again on the same port with fresh state: every session is forgotten.
    pub async fn restart(&self) -> io::Result<()> {
        self.host.restart().await
    }
}

impl fmt::Debug for HttpFixtureServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpFixtureServer")
            .field("url", &self.url())
            .finish_non_exhaustive()
    }
}

/// One generation of the server: rmcp's service and the token that ends its sessions.
struct StreamableApp<S> {
    service: StreamableHttpService<S, LocalSessionManager>,
    sessions: CancellationToken,
}

impl<S: ServerHandler> StreamableApp<S> {
    fn new<F>(factory: Arc<F>) -> Self
    where
        F: Fn() -> S + Send + Sync + 'static,
    {
        let sessions = CancellationToken::new();
        // The defaults are what the fixtures need: stateful sessions, SSE keep-alive. `Host`
        // headers: loopback (`127.0.0.1:<port>`), and the name the `tls` feature's proxy takes
        // for this machine, for tests of a server only a proxy reaches.
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(sessions.clone())
            .with_allowed_hosts(["localhost", "127.0.0.1", "::1", "mcp.internal.test"]);
        let service = StreamableHttpService::new(move || Ok(factory()), Arc::default(), config);
        Self { service, sessions }
    }
}

impl<S: ServerHandler> App for StreamableApp<S> {
    fn handle(&self, request: Request<Incoming>) -> ResponseFuture {
        if request.uri().path() != HttpFixtureServer::PATH {
            return Box::pin(async { text_response(StatusCode::NOT_FOUND, "Not Found") });
        }
        let service = self.service.clone();
        Box::pin(async move { service.handle(request).await })
    }

    fn shutdown(&self) {
        self.sessions.cancel();
    }
}
