//! [`Generation`]: one life of a fault host, from a start to a stop or a crash: the listener on
//! `127.0.0.1`, and a task per connection, which hands its routes a [`ConnectionHandle`] with
//! which a route resets its own connection (a TCP `RST`, not a `FIN`).

use std::convert::Infallible;
use std::io;
use std::net::Ipv4Addr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use super::connection::ConnectionHandle;
use super::routes::Routes;

/// How long the accept loop pauses after a failed `accept` (out of file descriptors, say).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);

/// A running generation: its accept loop owns every connection task.
#[derive(Debug)]
pub(super) struct Generation {
    /// Cancelled by a stop, or by a crash from within a route.
    dead: CancellationToken,
    accept: Option<JoinHandle<()>>,
}

impl Generation {
    /// Listens on `port` (0 for an ephemeral one) and serves the routes `make_routes` builds
    /// with the token that kills this generation. Returns the generation and its port.
    pub(super) async fn start(
        port: u16,
        make_routes: impl FnOnce(CancellationToken) -> Routes,
    ) -> io::Result<(Self, u16)> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
        let port = listener.local_addr()?.port();
        let dead = CancellationToken::new();
        let routes = Arc::new(make_routes(dead.clone()));
        let accept = tokio::spawn(accept_loop(listener, dead.clone(), routes));
        let generation = Self {
            dead,
            accept: Some(accept),
        };
        Ok((generation, port))
    }

    /// Closes the listener and every connection, and waits until they are closed.
    pub(super) async fn stop(mut self) {
        self.dead.cancel();
        if let Some(accept) = self.accept.take() {
            let _ = accept.await;
        }
    }
}

impl Drop for Generation {
    fn drop(&mut self) {
        self.dead.cancel();
        // Aborting the loop drops its `JoinSet`, which aborts every connection task.
        if let Some(accept) = &self.accept {
            accept.abort();
        }
    }
}

/// Accepts connections until `dead`, then drops them all and the listener.
async fn accept_loop(listener: TcpListener, dead: CancellationToken, routes: Arc<Routes>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            () = dead.cancelled() => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    connections.spawn(serve_connection(stream, Arc::clone(&routes)));
                }
                Err(_) => tokio::time::sleep(ACCEPT_BACKOFF).await,
            },
        }
    }
    drop(listener);
    connections.shutdown().await;
}

/// Serves HTTP/1.1 on one connection until it ends or a route resets it.
async fn serve_connection(stream: TcpStream, routes: Arc<Routes>) {
    let reset = CancellationToken::new();
    let handle = ConnectionHandle::new(reset.clone());
    let service = service_fn(move |request: Request<Incoming>| {
        let routes = Arc::clone(&routes);
        let handle = handle.clone();
        async move { Ok::<_, Infallible>(routes.handle(request, handle).await) }
    });
    let io = ResettableStream {
        stream,
        reset: reset.clone(),
    };
    let serving = http1::Builder::new().serve_connection(TokioIo::new(io), service);
    tokio::select! {
        // A client that leaves mid-request is not an error worth reporting here.
        _ = serving => {}
        () = reset.cancelled() => {}
    }
}

/// A TCP stream that, once its connection's reset is asked for, closes with `RST`.
struct ResettableStream {
    stream: TcpStream,
    reset: CancellationToken,
}

impl Drop for ResettableStream {
    fn drop(&mut self) {
        if self.reset.is_cancelled() {
            // SO_LINGER 0: the close discards what is unsent and sends RST.
            let _ = self.stream.set_zero_linger();
        }
    }
}

impl AsyncRead for ResettableStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for ResettableStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
