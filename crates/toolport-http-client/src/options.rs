//! [`HttpOptions`]: the header, credential and limit settings every HTTP transport shares.

use std::fmt;
use std::sync::Arc;

use toolport_core::Secret;

use crate::{
    Authorizer, ClientIdentity, Credential, Header, HeaderProvider, NetworkOptions, Proxy,
    TokenSource,
};

/// The settings an HTTP-based transport shares: static headers, a credential asked for on
/// every request, a per-request header provider and the response size limit.
///
/// A transport keeps one in a field named `options` and gets the same builder methods with
/// [`http_options_builder!`](crate::http_options_builder), then turns it into
/// [`RequestHeaders`](crate::RequestHeaders) and reads the limit. The bounds on connecting and
/// each request are the session's (see [`ConnectContext`](toolport_core::ConnectContext)), not
/// settings here.
///
/// # Examples
///
/// ```
/// use toolport_core::Secret;
/// use toolport_http_client::HttpOptions;
///
/// let options = HttpOptions::new()
///     .header("X-Client", "my-agent")
///     .bearer_token(Secret::new("sk-123"))
///     .max_response_bytes(1024 * 1024);
/// assert_eq!(options.max_response_bytes, 1024 * 1024);
/// assert!(!format!("{options:?}").contains("sk-123"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Headers sent with every request, in order; a name may repeat.
    pub headers: Vec<Header>,
    /// Computes headers for every request from the caller's context.
    pub header_provider: Option<Arc<dyn HeaderProvider>>,
    /// The credential, asked for on every request.
    pub credential: Option<Credential>,
    /// Authorizes every request and renews refused credentials, such as an OAuth client.
    pub authorizer: Option<Arc<dyn Authorizer>>,
    /// The largest response accepted, in bytes: a JSON body, or one SSE event.
    pub max_response_bytes: usize,
    /// The proxy, the roots trusted besides the system's, and the client certificate.
    pub network: NetworkOptions,
}

impl HttpOptions {
    /// Default for [`max_response_bytes`](Self::max_response_bytes): 16 MiB.
    pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

    /// No headers, no credential, a 16 MiB response limit.
    pub fn new() -> Self {
        Self {
            headers: Vec::new(),
            header_provider: None,
            credential: None,
            authorizer: None,
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
            network: NetworkOptions::default(),
        }
    }

    /// Adds a header sent with every request. The value is treated as a secret: it is marked
    /// sensitive and never appears in `Debug` output. A name given twice is sent twice, in
    /// order. Invalid names or values fail the connect.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Computes headers for every request from the caller's context (`None` for requests no
    /// caller made, such as `initialize` and notifications). Its headers replace static headers
    /// and the credential of the same name.
    #[must_use]
    pub fn header_provider(mut self, provider: impl HeaderProvider + 'static) -> Self {
        self.header_provider = Some(Arc::new(provider));
        self
    }

    /// Sends `Authorization: Bearer <token>`, asking `source` for the token on every request, so
    /// a [`RotatingToken`](crate::RotatingToken) rotates without a rebuild.
    #[must_use]
    pub fn bearer_token(mut self, source: impl TokenSource + 'static) -> Self {
        self.credential = Some(Credential::Bearer(Arc::new(source)));
        self
    }

    /// Sends the key from `source` in the header `header` (such as `X-API-Key`), asked for on
    /// every request. Replaces a bearer token.
    #[must_use]
    pub fn api_key(
        mut self,
        header: impl Into<String>,
        source: impl TokenSource + 'static,
    ) -> Self {
        self.credential = Some(Credential::ApiKey {
            header: header.into(),
            source: Arc::new(source),
        });
        self
    }

    /// Authorizes every request with `authorizer` (after the static headers and the
    /// credential), and gives a request the server refuses with 401 or 403 one more try when
    /// the authorizer renews its credentials. `toolport-auth`'s OAuth client is one.
    #[must_use]
    pub fn authorizer(mut self, authorizer: impl Authorizer + 'static) -> Self {
        self.authorizer = Some(Arc::new(authorizer));
        self
    }

    /// The largest response accepted, in bytes: a JSON body, or one SSE event. A larger answer
    /// to a request fails that request with an error naming the limit. Default 16 MiB.
    #[must_use]
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// Replaces the proxy, the added roots and the client certificate at once.
    #[must_use]
    pub fn network(mut self, network: NetworkOptions) -> Self {
        self.network = network;
        self
    }

    /// Sends every request through the `http://` proxy at `url` (`https` servers through a
    /// `CONNECT` tunnel), loopback servers included, instead of the environment's proxy.
    /// Credentials in the URL (`http://user:password@host:port`) are sent as
    /// `Proxy-Authorization` and never shown. Hosts that `NO_PROXY` (or
    /// [`proxy_bypass`](Self::proxy_bypass)) lists still go straight to the server. A URL that
    /// is not `http://` fails the connect.
    #[must_use]
    pub fn proxy(mut self, url: impl Into<Secret>) -> Self {
        self.network.proxy = Proxy::Url(url.into());
        self
    }

    /// Sends every request straight to its server, whatever `HTTPS_PROXY`, `HTTP_PROXY` and
    /// `ALL_PROXY` say.
    #[must_use]
    pub fn no_proxy(mut self) -> Self {
        self.network.proxy = Proxy::Off;
        self
    }

    /// The hosts that bypass the proxy, in `NO_PROXY`'s syntax (comma-separated hosts,
    /// `.domains`, IP addresses, CIDR ranges, or `*`), instead of the `NO_PROXY` variable.
    #[must_use]
    pub fn proxy_bypass(mut self, hosts: impl Into<String>) -> Self {
        self.network.proxy_bypass = Some(hosts.into());
        self
    }

    /// Trusts the certificate authorities of `pem` (one or more `BEGIN CERTIFICATE` blocks)
    /// besides the system's, for servers whose certificates your organisation's CA issued.
    /// Call it once per file. A text that is not PEM fails the connect.
    #[must_use]
    pub fn add_root_certificate(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.network.root_certificates.push(pem.into());
        self
    }

    /// Presents this certificate chain (PEM, leaf first) and its private key (PEM) to servers
    /// that ask for a client certificate (mutual TLS). The key is a [`Secret`]: it never shows
    /// in `Debug` output or a log. A chain or key that is not PEM fails the connect.
    ///
    /// # Examples
    ///
    /// ```
    /// use toolport_http_client::HttpOptions;
    ///
    /// let options = HttpOptions::new()
    ///     .proxy("http://agent:pr0xy-pw@proxy.corp.example:3128")
    ///     .add_root_certificate("-----BEGIN CERTIFICATE-----\n...")
    ///     .client_identity("-----BEGIN CERTIFICATE-----\n...", "-----BEGIN PRIVATE KEY-----\nk3y");
    /// let shown = format!("{options:?}");
    /// assert!(shown.contains("http://proxy.corp.example:3128"));
    /// assert!(!shown.contains("pr0xy-pw") && !shown.contains("k3y"));
    /// ```
    #[must_use]
    pub fn client_identity(
        mut self,
        cert_chain_pem: impl Into<Vec<u8>>,
        key_pem: impl Into<Secret>,
    ) -> Self {
        self.network.client_identity = Some(ClientIdentity {
            cert_chain_pem: cert_chain_pem.into(),
            key_pem: key_pem.into(),
        });
        self
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HttpOptions")
            .field("header_names", &header_names)
            .field("header_provider", &self.header_provider.is_some())
            .field("credential", &self.credential)
            .field("authorizer", &self.authorizer)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("network", &self.network)
            .finish()
    }
}
