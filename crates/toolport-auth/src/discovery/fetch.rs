//! [`MetadataFetcher`]: the one HTTP `GET` discovery needs, and [`HttpMetadataFetcher`], its
//! implementation on Toolport's pooled [`HttpClient`].

use std::fmt::Debug;
use std::time::Duration;

use bytes::Bytes;
use http::header::ACCEPT;
use http::{Method, Request};
use http_body_util::Full;
use toolport_core::{BoxError, ConnectError};
use toolport_http_client::HttpClient;
use toolport_http_client::toolkit::read_limited;
use url::Url;

/// What a metadata `GET` answered: the status and, for a success, the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataResponse {
    /// The HTTP status code.
    pub status: u16,
    /// The body, within the fetcher's size limit. A fetcher may leave it empty when the status
    /// is not a success: discovery reads only successful bodies.
    pub body: Bytes,
}

/// Fetches a metadata document: a `GET` that returns the status and a size-bounded body.
///
/// Discovery asks for nothing else, so it can run over any HTTP stack, and tests can answer
/// from a table. [`HttpMetadataFetcher`] is the implementation on Toolport's HTTP client.
///
/// # Examples
///
/// A fetcher that answers from a table, 404 for anything else:
///
/// ```
/// use std::collections::HashMap;
/// use toolport_auth::{EndpointPolicy, MetadataFetcher, MetadataResponse, discover_authorization_server};
/// use toolport_core::BoxError;
/// use url::Url;
///
/// #[derive(Debug)]
/// struct Table(HashMap<&'static str, &'static str>);
///
/// #[async_trait::async_trait]
/// impl MetadataFetcher for Table {
///     async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError> {
///         Ok(match self.0.get(url.as_str()) {
///             Some(body) => MetadataResponse { status: 200, body: body.as_bytes().to_vec().into() },
///             None => MetadataResponse { status: 404, body: Default::default() },
///         })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), toolport_auth::DiscoveryError> {
/// let table = Table(HashMap::from([(
///     "https://auth.example.com/.well-known/openid-configuration",
///     r#"{"issuer": "https://auth.example.com", "token_endpoint": "https://auth.example.com/token"}"#,
/// )]));
/// let policy = EndpointPolicy::for_resource(&Url::parse("https://mcp.example.com/mcp").unwrap());
/// let found = discover_authorization_server(&table, &policy, "https://auth.example.com").await?;
/// assert_eq!(found.url.path(), "/.well-known/openid-configuration");
/// assert_eq!(found.metadata.token_endpoint.as_deref(), Some("https://auth.example.com/token"));
/// # Ok(())
/// # }
/// ```
#[async_trait::async_trait]
pub trait MetadataFetcher: Send + Sync + Debug {
    /// `GET url` with `Accept: application/json`. Redirects are not followed. An `Err` means no
    /// status was received (the server could not be reached, the answer took too long or was
    /// too large); keep secrets out of it.
    async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError>;
}

/// A [`MetadataFetcher`] on an [`HttpClient`]: each `GET` bounded in time (connect included)
/// and its body in size.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_auth::HttpMetadataFetcher;
/// use toolport_http_client::HttpClient;
///
/// let client = HttpClient::plain(Duration::from_secs(5));
/// let fetcher = HttpMetadataFetcher::new(client)
///     .with_timeout(Duration::from_secs(10))
///     .with_limit(64 * 1024);
/// # let _ = fetcher;
/// ```
#[derive(Debug, Clone)]
pub struct HttpMetadataFetcher {
    client: HttpClient,
    limit: usize,
    timeout: Duration,
}

impl HttpMetadataFetcher {
    /// The default largest body read: 256 KiB, far above any real metadata document.
    pub const DEFAULT_LIMIT: usize = 256 * 1024;
    /// The default bound on one `GET`, from connecting to the last byte of the body.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// Fetches with `client` (make it with [`HttpClient::for_scheme`] so it speaks `https`),
    /// [`DEFAULT_LIMIT`](Self::DEFAULT_LIMIT) and [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT).
    pub fn new(client: HttpClient) -> Self {
        Self {
            client,
            limit: Self::DEFAULT_LIMIT,
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// Fetches with a client of its own, which speaks `https` when `https` is true (as
    /// [`HttpClient::for_scheme`] makes it), each `GET` bounded by
    /// [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT), connect included. For a program that has no
    /// [`HttpClient`] at hand.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::for_scheme`], when this build cannot speak `https`.
    ///
    /// # Examples
    ///
    /// ```
    /// use toolport_auth::HttpMetadataFetcher;
    ///
    /// let fetcher = HttpMetadataFetcher::for_scheme(false).unwrap();
    /// # let _ = fetcher;
    /// ```
    pub fn for_scheme(https: bool) -> Result<Self, ConnectError> {
        Ok(Self::new(HttpClient::for_scheme(
            https,
            Self::DEFAULT_TIMEOUT,
        )?))
    }

    /// Sets the largest body read, in bytes.
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Sets the bound on one `GET`.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

#[async_trait::async_trait]
impl MetadataFetcher for HttpMetadataFetcher {
    async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError> {
        let mut target = url.clone();
        target.set_fragment(None);
        let request = Request::builder()
            .method(Method::GET)
            .uri(target.as_str())
            .header(ACCEPT, "application/json")
            .body(Full::new(Bytes::new()))?;
        let exchange = async {
            let response = self.client.send(request).await?;
            let status = response.status();
            let body = if status.is_success() {
                read_limited(response.into_body(), self.limit).await?
            } else {
                Bytes::new()
            };
            Ok::<_, BoxError>(MetadataResponse {
                status: status.as_u16(),
                body,
            })
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Ok(result) => result,
            Err(_) => Err(format!("no answer within {:?}", self.timeout).into()),
        }
    }
}
