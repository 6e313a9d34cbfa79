//! [`Host`]: the listener under both fixture servers: an accept loop on `127.0.0.1`, one task per
//! connection, a stop that hangs up on them all at once, a wait until the clients have closed
//! them too, and a restart on the same port.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::Ipv4Addr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http::{Request, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use super::body::FixtureBody;
use super::gate::Gate;

/// What a route answers, later.
pub(crate) type ResponseFuture = Pin<Box<dyn Future<Output = Response<FixtureBody>> + Send>>;

/// The routes and state of one server generation, from a start to the next stop.
pub(crate) trait App: Send + Sync + 'static {
    /// Answers one request that passed the [`Gate`].
    fn handle(&self, request: Request<Incoming>) -> ResponseFuture;

    /// Ends every session of this generation.
    fn shutdown(&self);
}

/// Makes a fresh [`App`] for each start.
pub(crate) type MakeApp = Box<dyn Fn() -> Arc<dyn App> + Send + Sync>;

/// How long the accept loop pauses after a failed `accept` (out of file descriptors, say).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);

/// A server on `127.0.0.1:port` that can stop and start again on the same port.
pub(crate) struct Host {
    port: u16,
    gate: Arc<Gate>,
    make_app: MakeApp,
    running: Mutex<Option<Running>>,
    /// One task per connection a stop hung up on, until its client closes it too.
    hung_up: Mutex<JoinSet<()>>,
}

impl Host {
    /// Listens on `port` (0 for an ephemeral one) and serves a first generation.
    pub(crate) async fn start(port: u16, make_app: MakeApp) -> io::Result<Self> {
        let gate = Arc::new(Gate::new());
        let running = Running::start(port, &gate, make_app()).await?;
        Ok(Self {
            port: running.port,
            gate,
            make_app,
            running: Mutex::new(Some(running)),
            hung_up: Mutex::default(),
        })
    }

    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    pub(crate) fn gate(&self) -> &Gate {
        &self.gate
    }

    /// Closes the listener, ends every session, and hangs up every connection: each has sent
    /// its FIN (what was in flight on it is dropped) when this returns. Does nothing if
    /// stopped.
    pub(crate) async fn stop(&self) {
        let running = lock(&self.running).take();
        if let Some(running) = running {
            let connections = running.stop().await;
            let mut hung_up = lock(&self.hung_up);
            for connection in connections {
                hung_up.spawn(until_the_client_closes(connection));
            }
        }
    }

    /// Waits until the client of every connection a stop hung up on has closed it too: from
    /// then on it can send nothing more on them, so its next request goes out on a new
    /// connection.
    pub(crate) async fn clients_closed(&self) {
        let mut hung_up = std::mem::take(&mut *lock(&self.hung_up));
        while hung_up.join_next().await.is_some() {}
    }

    /// Stops, then serves a fresh generation on the same port.
    pub(crate) async fn restart(&self) -> io::Result<()> {
        self.stop().await;
        let running = Running::start(self.port, &self.gate, (self.make_app)()).await?;
        *lock(&self.running) = Some(running);
        Ok(())
    }
}

/// `mutex`'s guard, even if a holder panicked.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// One generation: its app and the accept loop that owns every connection task.
struct Running {
    port: u16,
    app: Arc<dyn App>,
    shutdown: CancellationToken,
    accept: Option<JoinHandle<Vec<TcpStream>>>,
}

impl Running {
    async fn start(port: u16, gate: &Arc<Gate>, app: Arc<dyn App>) -> io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
        let port = listener.local_addr()?.port();
        let shutdown = CancellationToken::new();
        let accept = tokio::spawn(accept_loop(
            listener,
            shutdown.clone(),
            Arc::clone(gate),
            Arc::clone(&app),
        ));
        Ok(Self {
            port,
            app,
            shutdown,
            accept: Some(accept),
        })
    }

    /// Ends the sessions, closes the listener and hangs up every connection; the connections
    /// whose clients have not closed them yet.
    async fn stop(mut self) -> Vec<TcpStream> {
        self.app.shutdown();
        self.shutdown.cancel();
        match self.accept.take() {
            Some(accept) => accept.await.unwrap_or_default(),
            None => Vec::new(),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.app.shutdown();
        self.shutdown.cancel();
        // Aborting the loop drops its `JoinSet`, which aborts every connection task.
        if let Some(accept) = &self.accept {
            accept.abort();
        }
    }
}

/// Accepts connections until `shutdown`, then closes the listener, lets every connection hang
/// up, and returns those whose clients have not closed them yet.
async fn accept_loop(
    listener: TcpListener,
    shutdown: CancellationToken,
    gate: Arc<Gate>,
    app: Arc<dyn App>,
) -> Vec<TcpStream> {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            () = shutdown.cancelled() => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    // rmcp writes an SSE priming event and the answer as two small writes;
                    // with Nagle's algorithm the second waits ~40 ms for the client's ACK.
                    let _ = stream.set_nodelay(true);
                    let serving = serve_connection(
                        stream,
                        Arc::clone(&gate),
                        Arc::clone(&app),
                        shutdown.clone(),
                    );
                    connections.spawn(serving);
                }
                Err(_) => tokio::time::sleep(ACCEPT_BACKOFF).await,
            },
        }
    }
    drop(listener);
    let mut hung_up = Vec::new();
    while let Some(served) = connections.join_next().await {
        if let Ok(Some(connection)) = served {
            hung_up.push(connection);
        }
    }
    hung_up
}

/// Serves HTTP/1.1 on one connection, every request through the gate first, until the client
/// closes it (`None`) or `shutdown`: then it drops what is in flight, sends its FIN, and
/// returns the connection, for its client to close.
async fn serve_connection(
    stream: TcpStream,
    gate: Arc<Gate>,
    app: Arc<dyn App>,
    shutdown: CancellationToken,
) -> Option<TcpStream> {
    let service = service_fn(move |request: Request<Incoming>| {
        let denied = gate.check(&request);
        let app = Arc::clone(&app);
        async move {
            Ok::<_, Infallible>(match denied {
                Some(denied) => denied,
                None => app.handle(request).await,
            })
        }
    });
    let mut connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        // A client that leaves mid-request is not an error worth reporting here.
        _ = &mut connection => None,
        () = shutdown.cancelled() => {
            let mut stream = connection.into_parts().io.into_inner();
            let _ = stream.shutdown().await;
            Some(stream)
        }
    }
}

/// Reads and drops whatever the client of a hung-up connection still sends, until it closes
/// the connection (or resets it).
async fn until_the_client_closes(mut connection: TcpStream) {
    let mut discarded = [0; 1024];
    while let Ok(1..) = connection.read(&mut discarded).await {}
}
