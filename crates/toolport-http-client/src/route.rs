//! [`Route`]: the TCP connector that follows the proxy rules: straight to the server, through a
//! `CONNECT` tunnel for `https`, or to the proxy itself for `http` (which then gets each request
//! in absolute form).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use toolport_core::BoxError;

use crate::proxy::Proxies;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Connects to a destination, or to the proxy the rules pick for it.
#[derive(Debug, Clone)]
pub(crate) struct Route {
    tcp: HttpConnector,
    proxies: Arc<Proxies>,
}

impl Route {
    pub(crate) fn new(tcp: HttpConnector, proxies: Arc<Proxies>) -> Self {
        Self { tcp, proxies }
    }
}

/// A TCP connection, to the server or (for `http` through a proxy) to the proxy.
#[derive(Debug)]
pub(crate) struct Routed {
    io: TokioIo<TcpStream>,
    /// Connected to a forwarding proxy: requests go in absolute form.
    forwarding: bool,
}

/// The proxy could not be reached, or refused the tunnel. Names the proxy without its
/// credentials; the source is hyper-util's error.
#[derive(Debug, thiserror::Error)]
#[error("through the proxy {proxy}{}", hint(.source))]
struct ProxyFailed {
    proxy: String,
    #[source]
    source: BoxError,
}

/// What to do about a proxy that wants credentials. hyper-util's tunnel error is not public,
/// so its text is all there is to go by.
fn hint(error: &BoxError) -> &'static str {
    if error.to_string().contains("proxy authorization required") {
        " (it asks for credentials: give them in the proxy URL, http://user:password@host:port)"
    } else {
        ""
    }
}

impl tower_service::Service<Uri> for Route {
    type Response = Routed;
    type Error = BoxError;
    type Future = BoxFuture<Result<Routed, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.tcp.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, destination: Uri) -> Self::Future {
        let Some(proxy) = self.proxies.intercept(&destination) else {
            let connecting = self.tcp.call(destination);
            return Box::pin(async move {
                let io = connecting.await?;
                Ok(Routed {
                    io,
                    forwarding: false,
                })
            });
        };
        let shown = proxy.uri().to_string();
        let failed = move |source: BoxError| -> BoxError {
            Box::new(ProxyFailed {
                proxy: shown,
                source,
            })
        };
        // `https` through a tunnel, TLS inside it; `http` to the proxy, which forwards it.
        let forwarding = destination.scheme() != Some(&http::uri::Scheme::HTTPS);
        let connecting: BoxFuture<Result<TokioIo<TcpStream>, BoxError>> = if forwarding {
            let connecting = self.tcp.call(proxy.uri().clone());
            Box::pin(async move { connecting.await.map_err(|error| failed(Box::new(error))) })
        } else {
            let mut tunnel = Tunnel::new(proxy.uri().clone(), self.tcp.clone());
            if let Some(credentials) = proxy.basic_auth() {
                tunnel = tunnel.with_auth(credentials.clone());
            }
            let tunnelling = tunnel.call(destination);
            Box::pin(async move { tunnelling.await.map_err(|error| failed(Box::new(error))) })
        };
        Box::pin(async move {
            let io = connecting.await?;
            Ok(Routed { io, forwarding })
        })
    }
}

impl Connection for Routed {
    fn connected(&self) -> Connected {
        self.io.connected().proxy(self.forwarding)
    }
}

impl Read for Routed {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl Write for Routed {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }
}
