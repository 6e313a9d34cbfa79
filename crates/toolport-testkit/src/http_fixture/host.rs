//! [`Host`]: the listener under both fixture servers: an accept loop on `127.0.0.1`, one task per
//! connection, a stop that drops them all at once, and a restart on the same port.

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
        })
    }

    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    pub(crate) fn gate(&self) -> &Gate {
        &self.gate
    }

    /// Closes the listener and drops every connection and session; does nothing if stopped.
    pub(crate) async fn stop(&self) {
        let running = self.lock().take();
        if let Some(running) = running {
            running.stop().await;
        }
    }

    /// Stops, then serves a fresh generation on the same port.
    pub(crate) async fn restart(&self) -> io::Result<()> {
        self.stop().await;
        let running = Running::start(self.port, &self.gate, (self.make_app)()).await?;
        *self.lock() = Some(running);
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Running>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One generation: its app and the accept loop that owns every connection task.
struct Running {
    port: u16,
    app: Arc<dyn App>,
    shutdown: CancellationToken,
    accept: Option<JoinHandle<()>>,
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

    /// Ends the sessions and waits until the listener and every connection are closed.
    async fn stop(mut self) {
        self.app.shutdown();
        self.shutdown.cancel();
        if let Some(accept) = self.accept.take() {
            let _ = accept.await;
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

/// Accepts connections until `shutdown`, then aborts them all and closes the listener.
async fn accept_loop(
    listener: TcpListener,
    shutdown: CancellationToken,
    gate: Arc<Gate>,
    app: Arc<dyn App>,
) {
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
                    connections.spawn(serve_connection(stream, Arc::clone(&gate), Arc::clone(&app)));
                }
                Err(_) => tokio::time::sleep(ACCEPT_BACKOFF).await,
            },
        }
    }
    drop(listener);
    connections.shutdown().await;
}

/// Serves HTTP/1.1 on one connection, every request through the gate first.
async fn serve_connection(stream: TcpStream, gate: Arc<Gate>, app: Arc<dyn App>) {
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
    // A client that leaves mid-request is not an error worth reporting here.
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(stream), service)
        .await;
}
