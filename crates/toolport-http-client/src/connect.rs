//! [`TimeoutConnector`]: bounds a whole connect (TCP, proxy, then TLS) by the connect timeout,
//! and the connectors for `http` and `https`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use toolport_core::BoxError;

#[cfg(feature = "tls")]
use crate::route::Route;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A TCP connector with `TCP_NODELAY` (no 40 ms delayed-ACK stall on small requests).
pub(crate) fn tcp(timeout: Duration) -> HttpConnector {
    let mut tcp = HttpConnector::new();
    tcp.set_nodelay(true);
    tcp.set_connect_timeout(Some(timeout));
    tcp.enforce_http(false);
    tcp
}

/// The connector of a client that speaks `https` too.
#[cfg(feature = "tls")]
pub(crate) type TlsConnector = hyper_rustls::HttpsConnector<Route>;

/// The rustls connector on `config`, for `https` and `http`.
#[cfg(feature = "tls")]
pub(crate) fn tls(route: Route, config: rustls::ClientConfig) -> TlsConnector {
    hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .wrap_connector(route)
}

/// Fails a connect that takes longer than `timeout`, TLS handshake included.
#[derive(Debug, Clone)]
pub(crate) struct TimeoutConnector<C> {
    inner: C,
    timeout: Duration,
}

impl<C> TimeoutConnector<C> {
    pub(crate) fn new(inner: C, timeout: Duration) -> Self {
        Self { inner, timeout }
    }
}

/// The connect took longer than the connect timeout.
#[derive(Debug, thiserror::Error)]
#[error("no connection within {} ms (the connect timeout)", .0.as_millis())]
struct ConnectTimedOut(Duration);

impl<C> tower_service::Service<Uri> for TimeoutConnector<C>
where
    C: tower_service::Service<Uri>,
    C::Future: Send + 'static,
    C::Error: Into<BoxError>,
{
    type Response = C::Response;
    type Error = BoxError;
    type Future = BoxFuture<Result<C::Response, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let connecting = self.inner.call(uri);
        let timeout = self.timeout;
        Box::pin(async move {
            match tokio::time::timeout(timeout, connecting).await {
                Ok(result) => result.map_err(Into::into),
                Err(_) => Err(Box::new(ConnectTimedOut(timeout)) as BoxError),
            }
        })
    }
}
