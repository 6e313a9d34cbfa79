//! [`DuplexConnector`]: a [`Connector`] that serves a fresh in-process server over
//! `tokio::io::duplex` on every connect.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ServerHandler;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::DuplexStream;
use tokio_util::sync::CancellationToken;
use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};

use crate::TaskTracker;

/// Serves one server instance on one end of a pipe until the client leaves.
type ServeFn = dyn Fn(DuplexStream) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync;

/// The pipe's buffer in each direction: big enough for any fixture's message.
const DEFAULT_BUFFER: usize = 1024 * 1024;

/// A [`Connector`] for tests: each [`connect`](Connector::connect) builds a new server from the
/// factory, runs it on a tokio task over one end of a `tokio::io::duplex` pipe, and hands the
/// other end to the client. Every session therefore starts from a fresh server state, as it
/// would with a newly spawned child process.
///
/// [`kill_all`](DuplexConnector::kill_all) drops every running server, as a crash would, so
/// tests can check that the client notices and reconnects.
///
/// `connect` spawns a task, so it must run inside a tokio runtime.
///
/// # Examples
///
/// ```
/// use rmcp::ServiceExt;
/// use toolport_core::{ConnectContext, Connector};
/// use toolport_testkit::task_tracker_connector;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let connector = task_tracker_connector();
/// let connection = connector.connect(&ConnectContext::default()).await.unwrap();
/// let client = ().serve(connection.transport).await.unwrap();
/// let tools = client.list_all_tools().await.unwrap();
/// assert_eq!(tools.len(), 3);
/// assert_eq!(connector.connect_count(), 1);
/// # }
/// ```
pub struct DuplexConnector {
    serve: Arc<ServeFn>,
    target: String,
    buffer: usize,
    connects: AtomicUsize,
    live: Arc<AtomicUsize>,
    kill: Mutex<CancellationToken>,
}

impl DuplexConnector {
    /// A connector that serves `factory()` on every connect.
    pub fn new<S, F>(factory: F) -> Self
    where
        S: ServerHandler,
        F: Fn() -> S + Send + Sync + 'static,
    {
        let serve = move |stream: DuplexStream| -> Pin<Box<dyn Future<Output = ()> + Send>> {
            Box::pin(crate::serve(factory(), stream))
        };
        Self {
            serve: Arc::new(serve),
            target: "in-process".to_owned(),
            buffer: DEFAULT_BUFFER,
            connects: AtomicUsize::new(0),
            live: Arc::new(AtomicUsize::new(0)),
            kill: Mutex::new(CancellationToken::new()),
        }
    }

    /// Sets what [`Connector::target`] says, `in-process` by default.
    pub fn with_target(mut self, target: impl Into<String>) -> Self {
        self.target = target.into();
        self
    }

    /// Sets the pipe's buffer size in each direction (1 MiB by default).
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.buffer = bytes;
        self
    }

    /// How many times [`connect`](Connector::connect) has been called.
    pub fn connect_count(&self) -> usize {
        self.connects.load(Ordering::SeqCst)
    }

    /// How many servers are running now: connected, and neither left by their client nor killed.
    pub fn live_servers(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// Drops every running server at once, as if the process had crashed: their clients see the
    /// pipe close and any request in flight gets no answer. Later connects work as before.
    pub fn kill_all(&self) {
        let mut kill = self.kill.lock().unwrap_or_else(|e| e.into_inner());
        kill.cancel();
        *kill = CancellationToken::new();
    }

    fn kill_token(&self) -> CancellationToken {
        self.kill
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .child_token()
    }
}

impl fmt::Debug for DuplexConnector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DuplexConnector")
            .field("target", &self.target)
            .field("connects", &self.connect_count())
            .field("live_servers", &self.live_servers())
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl Connector for DuplexConnector {
    async fn connect(&self, _context: &ConnectContext) -> Result<Connection, ConnectError> {
        self.connects.fetch_add(1, Ordering::SeqCst);
        // The client and the server talk through a relay, so that a kill cuts the line at
        // once: whatever the server answers after that (an in-flight tool reacting to its
        // cancellation, say) never reaches the client, as with a crashed process.
        let (client_side, mut relay_client_end) = tokio::io::duplex(self.buffer);
        let (mut relay_server_end, server_side) = tokio::io::duplex(self.buffer);
        let serving = (self.serve)(server_side);
        let killed = self.kill_token();
        let live = LiveGuard::enter(&self.live);
        tokio::spawn(async move {
            let _live = live;
            let relay = tokio::io::copy_bidirectional(&mut relay_client_end, &mut relay_server_end);
            tokio::select! {
                () = killed.cancelled() => {}
                _ = async { tokio::join!(serving, relay) } => {}
            }
        });
        let (read, write) = tokio::io::split(client_side);
        Ok(Connection::new(BoxedTransport::new(
            AsyncRwTransport::new_client(read, write),
        )))
    }

    fn target(&self) -> String {
        self.target.clone()
    }
}

/// Counts a running server for as long as it is alive.
struct LiveGuard(Arc<AtomicUsize>);

impl LiveGuard {
    fn enter(live: &Arc<AtomicUsize>) -> Self {
        live.fetch_add(1, Ordering::SeqCst);
        Self(Arc::clone(live))
    }
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A [`DuplexConnector`] serving a fresh [`TaskTracker`] on every connect, with the target
/// `the in-process toolport-task-tracker`.
pub fn task_tracker_connector() -> DuplexConnector {
    DuplexConnector::new(TaskTracker::new)
        .with_target(format!("the in-process {}", TaskTracker::NAME))
}
