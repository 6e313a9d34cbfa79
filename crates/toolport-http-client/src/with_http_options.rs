//! [`WithHttpOptions`]: the builder methods of the header, credential, limit and network
//! settings, written once for [`HttpOptions`] and every HTTP transport's server type.

use std::sync::Arc;

use toolport_core::Secret;

use crate::{
    Authorizer, ClientIdentity, Credential, HeaderProvider, HttpOptions, NetworkOptions, Proxy,
    TokenSource,
};

/// The builder methods of the [`HttpOptions`] a type keeps: [`HttpOptions`] itself,
/// `toolport-http`'s `HttpServer`, `toolport-sse`'s `SseServer`, and a server type of your own
/// transport, which implements [`http_options_mut`](Self::http_options_mut) and gets the rest.
/// Bring the trait into scope to call them.
///
/// # Examples
///
/// ```
/// use toolport_http_client::{HttpOptions, WithHttpOptions};
///
/// /// A server reached over some HTTP transport.
/// #[derive(Debug)]
/// pub struct MyServer {
///     url: String,
///     options: HttpOptions,
/// }
///
/// impl WithHttpOptions for MyServer {
///     fn http_options_mut(&mut self) -> &mut HttpOptions {
///         &mut self.options
///     }
/// }
///
/// let server = MyServer { url: "http://127.0.0.1:1/mcp".into(), options: HttpOptions::new() }
///     .header("X-Client", "my-agent")
///     .max_response_bytes(4096);
/// assert_eq!(server.options.max_response_bytes, 4096);
/// ```
pub trait WithHttpOptions: Sized {
    /// The settings the other methods change.
    fn http_options_mut(&mut self) -> &mut HttpOptions;

    /// Replaces all header, credential, limit and network settings at once.
    #[must_use]
    fn options(mut self, options: HttpOptions) -> Self {
        *self.http_options_mut() = options;
        self
    }

    /// Adds a header sent with every request. The value is treated as a secret: it is marked
    /// sensitive and never appears in `Debug` output. A name given twice is sent twice, in
    /// order. Invalid names or values fail the connect.
    #[must_use]
    fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.http_options_mut()
            .headers
            .push((name.into(), value.into()));
        self
    }

    /// Computes headers for every request from the caller's context (`None` for requests no
    /// caller made, such as `initialize` and notifications). Its headers replace static headers
    /// and the credential of the same name.
    #[must_use]
    fn header_provider(mut self, provider: impl HeaderProvider + 'static) -> Self {
        self.http_options_mut().header_provider = Some(Arc::new(provider));
        self
    }

    /// Sends `Authorization: Bearer <token>`, asking `source` for the token on every request, so
    /// a [`RotatingToken`](crate::RotatingToken) rotates without a rebuild.
    #[must_use]
    fn bearer_token(mut self, source: impl TokenSource + 'static) -> Self {
        self.http_options_mut().credential = Some(Credential::Bearer(Arc::new(source)));
        self
    }

    /// Sends the key from `source` in the header `header` (such as `X-API-Key`), asked for on
    /// every request. Replaces a bearer token.
    #[must_use]
    fn api_key(mut self, header: impl Into<String>, source: impl TokenSource + 'static) -> Self {
        self.http_options_mut().credential = Some(Credential::ApiKey {
            header: header.into(),
            source: Arc::new(source),
        });
        self
    }

    /// Authorizes every request with `authorizer` (after the static headers and the
    /// credential), and gives a request the server refuses with 401 or 403 one more try when
    /// the authorizer renews its credentials. `toolport-auth`'s OAuth client is one.
    #[must_use]
    fn authorizer(mut self, authorizer: impl Authorizer + 'static) -> Self {
        self.http_options_mut().authorizer = Some(Arc::new(authorizer));
        self
    }

    /// The largest response accepted, in bytes: a JSON body, or one SSE event. A larger answer
    /// to a request fails that request with an error naming the limit. Default 16 MiB.
    #[must_use]
    fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.http_options_mut().max_response_bytes = bytes;
        self
    }

    /// Replaces the proxy, the added roots and the client certificate at once.
    #[must_use]
    fn network(mut self, network: NetworkOptions) -> Self {
        self.http_options_mut().network = network;
        self
    }

    /// Sends every request through the `http://` proxy at `url` (`https` servers through a
    /// `CONNECT` tunnel), loopback servers included, instead of the environment's proxy.
    /// Credentials in the URL (`http://user:password@host:port`) are sent as
    /// `Proxy-Authorization` and never shown. Hosts that `NO_PROXY` (or
    /// [`proxy_bypass`](Self::proxy_bypass)) lists still go straight to the server. A URL that
    /// is not `http://` fails the connect.
    #[must_use]
    fn proxy(mut self, url: impl Into<Secret>) -> Self {
        self.http_options_mut().network.proxy = Proxy::Url(url.into());
        self
    }

    /// Sends every request straight to its server, whatever `HTTPS_PROXY`, `HTTP_PROXY` and
    /// `ALL_PROXY` say.
    #[must_use]
    fn no_proxy(mut self) -> Self {
        self.http_options_mut().network.proxy = Proxy::Off;
        self
    }

    /// The hosts that bypass the proxy, in `NO_PROXY`'s syntax (comma-separated hosts,
    /// `.domains`, IP addresses, CIDR ranges, or `*`), instead of the `NO_PROXY` variable.
    #[must_use]
    fn proxy_bypass(mut self, hosts: impl Into<String>) -> Self {
        self.http_options_mut().network.proxy_bypass = Some(hosts.into());
        self
    }

    /// Trusts the certificate authorities of `pem` (one or more `BEGIN CERTIFICATE` blocks)
    /// besides the system's, for servers whose certificates your organisation's CA issued.
    /// Call it once per file. A text that is not PEM fails the connect.
    #[must_use]
    fn add_root_certificate(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.http_options_mut()
            .network
            .root_certificates
            .push(pem.into());
        self
    }

    /// Presents this certificate chain (PEM, leaf first) and its private key (PEM) to servers
    /// that ask for a client certificate (mutual TLS). The key is a [`Secret`]: it never shows
    /// in `Debug` output or a log. A chain or key that is not PEM fails the connect.
    ///
    /// # Examples
    ///
    /// ```
    /// use toolport_http_client::{HttpOptions, WithHttpOptions};
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
    fn client_identity(
        mut self,
        cert_chain_pem: impl Into<Vec<u8>>,
        key_pem: impl Into<Secret>,
    ) -> Self {
        self.http_options_mut().network.client_identity = Some(ClientIdentity {
            cert_chain_pem: cert_chain_pem.into(),
            key_pem: key_pem.into(),
        });
        self
    }
}

impl WithHttpOptions for HttpOptions {
    fn http_options_mut(&mut self) -> &mut HttpOptions {
        self
    }
}
