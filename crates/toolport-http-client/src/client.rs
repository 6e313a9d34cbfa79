//! [`HttpClient`]: one pooled hyper client per server, reused by every connect and request.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use toolport_core::ConnectError;

use crate::connect::{self, TimeoutConnector};
use crate::proxy::Proxies;
use crate::route::Route;
use crate::{HttpError, NetworkOptions};

/// A pooled HTTP/1.1 client: keep-alive connections reused across requests, `TCP_NODELAY`,
/// every connect (TCP, proxy and TLS) bounded by the connect timeout, the proxy rules of its
/// [`NetworkOptions`], and rustls (ring, the system's roots and those added) only when the
/// server is `https` (and the crate's `tls` feature is on). For transport authors; clones share
/// the pool.
///
/// Bodies are sent as one [`Bytes`] buffer; read answers with [`read_limited`](crate::toolkit::read_limited).
#[derive(Clone)]
pub struct HttpClient {
    inner: Inner,
    proxies: Arc<Proxies>,
}

#[derive(Clone)]
enum Inner {
    Plain(Client<TimeoutConnector<Route>, Full<Bytes>>),
    #[cfg(feature = "tls")]
    Tls(Client<TimeoutConnector<connect::TlsConnector>, Full<Bytes>>),
}

impl HttpClient {
    /// How long an idle pooled connection is kept.
    pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

    /// A client with the proxy, roots and client certificate of `network`, for `https` (and
    /// `http`) when `https` is true, otherwise for plain `http` alone, with no TLS set-up cost.
    ///
    /// # Errors
    ///
    /// [`ConnectError::InvalidSettings`] when a proxy setting (or variable) is not an `http://`
    /// URL, when TLS cannot be set up (a root or the client certificate is not PEM, there is no
    /// trusted root at all), or when this build has no TLS (the `tls` feature is off).
    pub fn new(
        network: &NetworkOptions,
        https: bool,
        connect_timeout: Duration,
    ) -> Result<Self, ConnectError> {
        let proxies = Arc::new(
            Proxies::new(&network.proxy, network.proxy_bypass.as_deref())
                .map_err(ConnectError::invalid_settings)?,
        );
        let route = Route::new(connect::tcp(connect_timeout), Arc::clone(&proxies));
        if !https {
            let connector = TimeoutConnector::new(route, connect_timeout);
            return Ok(Self {
                inner: Inner::Plain(builder().build(connector)),
                proxies,
            });
        }
        #[cfg(feature = "tls")]
        {
            let config =
                crate::tls::client_config(network).map_err(ConnectError::invalid_settings)?;
            let connector = TimeoutConnector::new(connect::tls(route, config), connect_timeout);
            Ok(Self {
                inner: Inner::Tls(builder().build(connector)),
                proxies,
            })
        }
        #[cfg(not(feature = "tls"))]
        {
            Err(ConnectError::invalid_settings(
                "this build cannot speak https: turn on the `tls` feature of `toolport` (or of \
                 `toolport-http-client`, if you depend on it alone)",
            ))
        }
    }

    /// A client for plain `http` only, straight to the server (no proxy): no TLS set-up cost.
    pub fn plain(connect_timeout: Duration) -> Self {
        let proxies = Arc::new(Proxies::off());
        let route = Route::new(connect::tcp(connect_timeout), Arc::clone(&proxies));
        let connector = TimeoutConnector::new(route, connect_timeout);
        Self {
            inner: Inner::Plain(builder().build(connector)),
            proxies,
        }
    }

    /// A client for `https` (and `http`) with the default [`NetworkOptions`]: the
    /// environment's proxy, the system's roots.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    pub fn with_tls(connect_timeout: Duration) -> Result<Self, ConnectError> {
        Self::new(&NetworkOptions::default(), true, connect_timeout)
    }

    /// [`new`](Self::new) with the default [`NetworkOptions`]: the environment's proxy, the
    /// system's roots.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    pub fn for_scheme(https: bool, connect_timeout: Duration) -> Result<Self, ConnectError> {
        Self::new(&NetworkOptions::default(), https, connect_timeout)
    }

    /// Whether this client can speak `https`.
    pub fn supports_tls(&self) -> bool {
        match self.inner {
            Inner::Plain(_) => false,
            #[cfg(feature = "tls")]
            Inner::Tls(_) => true,
        }
    }

    /// Sends `request` on a pooled connection (or a new one) and returns the response head;
    /// the body streams. Failures to connect or to exchange are [`HttpError::Unreachable`].
    pub async fn send(
        &self,
        mut request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, HttpError> {
        // A forwarding proxy reads its credentials from each request; a tunnel's CONNECT
        // carries them for `https`.
        if request.uri().scheme() == Some(&http::uri::Scheme::HTTP)
            && let Some(proxy) = self.proxies.intercept(request.uri())
            && let Some(credentials) = proxy.basic_auth()
        {
            request
                .headers_mut()
                .insert(http::header::PROXY_AUTHORIZATION, credentials.clone());
        }
        // Kept for the error alone: a clone of its shared bytes, no copy.
        let uri = request.uri().clone();
        let result = match &self.inner {
            Inner::Plain(client) => client.request(request).await,
            #[cfg(feature = "tls")]
            Inner::Tls(client) => client.request(request).await,
        };
        result.map_err(|error| HttpError::unreachable(error, uri.host().unwrap_or_default()))
    }
}

fn builder() -> hyper_util::client::legacy::Builder {
    let mut builder = Client::builder(TokioExecutor::new());
    builder
        .pool_idle_timeout(HttpClient::POOL_IDLE_TIMEOUT)
        .pool_timer(hyper_util::rt::TokioTimer::new());
    builder
}

impl fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpClient")
            .field("tls", &self.supports_tls())
            .field("proxies", &self.proxies.is_on())
            .finish()
    }
}

#[cfg(all(test, not(feature = "tls")))]
mod without_tls {
    use std::time::Duration;

    use super::HttpClient;
    use crate::NetworkOptions;

    #[test]
    fn an_https_client_is_refused_with_the_feature_that_turns_it_on() {
        let refused = HttpClient::new(&NetworkOptions::default(), true, Duration::from_secs(1))
            .expect_err("no TLS in this build");
        let said = refused.to_string();
        assert!(said.contains("`tls` feature of `toolport`"), "{said}");
    }
}
