//! [`HttpClient`]: one pooled hyper client per server, reused by every connect and request.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use toolport_core::ConnectError;

use crate::HttpError;
use crate::connect::{self, TimeoutConnector};

/// A pooled HTTP/1.1 client: keep-alive connections reused across requests, `TCP_NODELAY`,
/// every connect (TCP and TLS) bounded by the connect timeout, rustls (ring, Mozilla's roots)
/// only when the server is `https` (and the crate's `tls` feature is on). For transport
/// authors; clones share the pool.
///
/// Bodies are sent as one [`Bytes`] buffer; read answers with [`read_limited`](crate::read_limited).
#[derive(Clone)]
pub struct HttpClient {
    inner: Inner,
}

#[derive(Clone)]
enum Inner {
    Plain(Client<TimeoutConnector<HttpConnector>, Full<Bytes>>),
    #[cfg(feature = "tls")]
    Tls(Client<TimeoutConnector<connect::TlsConnector>, Full<Bytes>>),
}

impl HttpClient {
    /// How long an idle pooled connection is kept.
    pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

    /// A client for plain `http` only: no TLS set-up cost.
    pub fn plain(connect_timeout: Duration) -> Self {
        let connector = TimeoutConnector::new(connect::tcp(connect_timeout), connect_timeout);
        Self {
            inner: Inner::Plain(builder().build(connector)),
        }
    }

    /// A client for `https` (and `http`), with rustls on the ring provider and Mozilla's roots.
    ///
    /// # Errors
    ///
    /// [`ConnectError::InvalidSettings`] when TLS cannot be set up, or when this build has no
    /// TLS (the `tls` feature is off).
    pub fn with_tls(connect_timeout: Duration) -> Result<Self, ConnectError> {
        #[cfg(feature = "tls")]
        {
            let tls = connect::tls(connect::tcp(connect_timeout)).map_err(|error| {
                ConnectError::invalid_settings(format!("cannot set up TLS: {error}"))
            })?;
            let connector = TimeoutConnector::new(tls, connect_timeout);
            Ok(Self {
                inner: Inner::Tls(builder().build(connector)),
            })
        }
        #[cfg(not(feature = "tls"))]
        {
            let _ = connect_timeout;
            Err(ConnectError::invalid_settings(
                "this build cannot speak https: toolport-http-client's `tls` feature is off",
            ))
        }
    }

    /// [`with_tls`](Self::with_tls) when `https` is true, otherwise [`plain`](Self::plain).
    ///
    /// # Errors
    ///
    /// As [`with_tls`](Self::with_tls).
    pub fn for_scheme(https: bool, connect_timeout: Duration) -> Result<Self, ConnectError> {
        if https {
            Self::with_tls(connect_timeout)
        } else {
            Ok(Self::plain(connect_timeout))
        }
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
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, HttpError> {
        let result = match &self.inner {
            Inner::Plain(client) => client.request(request).await,
            #[cfg(feature = "tls")]
            Inner::Tls(client) => client.request(request).await,
        };
        result.map_err(HttpError::unreachable)
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
            .finish()
    }
}
