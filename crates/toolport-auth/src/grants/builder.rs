//! [`GrantAuthorizerBuilder`]: the settings of a [`GrantAuthorizer`], checked once.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use toolport_http_client::NetworkOptions;
use toolport_http_client::toolkit::{describe_raw_url, parse_server_url, redacted_url};
use url::Url;

use super::{Grant, GrantAuthorizer, Inner};
use crate::oauth::builder::check_pinned_issuer;
use crate::oauth::cache::TokenCache;
use crate::oauth::scopes::Scopes;
use crate::oauth::transport::OAuthHttp;
use crate::{AuthorizationError, EndpointPolicy, MemoryTokenStore, TokenKey, TokenStore};

/// Builds a [`GrantAuthorizer`]; from [`GrantAuthorizer::builder`]. `Debug` shows no secret.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_auth::{ClientAuthentication, Grant, GrantAuthorizer};
/// use toolport_core::Secret;
/// use url::Url;
///
/// let client = ClientAuthentication::secret("my-agent", Secret::new("s3cret"));
/// let authorizer = GrantAuthorizer::builder("https://mcp.example.com/mcp", Grant::client_credentials(client))
///     .token_url(Url::parse("https://auth.example.com/oauth/token").unwrap())
///     .identity("my-agent")
///     .timeout(Duration::from_secs(10))
///     .build()
///     .unwrap();
///
/// let client = ClientAuthentication::public("x");
/// let error = GrantAuthorizer::builder("not a URL", Grant::client_credentials(client))
///     .build()
///     .unwrap_err();
/// assert!(error.to_string().contains("server URL"));
/// ```
pub struct GrantAuthorizerBuilder {
    server_url: String,
    grant: Grant,
    token_url: Option<Url>,
    issuer: Option<String>,
    store: Option<Arc<dyn TokenStore>>,
    identity: String,
    scopes: Option<Scopes>,
    timeout: Duration,
    network: NetworkOptions,
    private_addresses: bool,
}

impl GrantAuthorizerBuilder {
    /// The default bound on each HTTP request (discovery, token requests): 30 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default identity the tokens are kept under: `default`.
    pub const DEFAULT_IDENTITY: &'static str = "default";

    pub(super) fn new(server_url: &str, grant: Grant) -> Self {
        Self {
            server_url: server_url.to_owned(),
            grant,
            token_url: None,
            issuer: None,
            store: None,
            identity: Self::DEFAULT_IDENTITY.to_owned(),
            scopes: None,
            timeout: Self::DEFAULT_TIMEOUT,
            network: NetworkOptions::default(),
            private_addresses: false,
        }
    }

    /// The authorization server's token endpoint, when you know it: no discovery is made, the
    /// `resource` is the server's URL, the client authenticates with a secret by HTTP Basic,
    /// and an assertion's `aud` is this URL (or the [`issuer`](Self::issuer), if set). It pins
    /// the grant's credentials to this endpoint.
    #[must_use]
    pub fn token_url(mut self, url: Url) -> Self {
        self.token_url = Some(url);
        self
    }

    /// Pins the authorization server: its issuer identifier (`https://auth.example.com`), as
    /// its metadata gives it. Without a [`token_url`](Self::token_url), the token endpoint is
    /// this issuer's, which the MCP server's protected-resource metadata must list (else
    /// [`AuthorizationError::IssuerContradicted`]); with one, it is the assertions' `aud`.
    ///
    /// A grant that carries a credential (a secret, a private key, a workload's JWT, an
    /// ID-JAG) needs this or a `token_url`: its credential never goes to an authorization
    /// server only the MCP server named ([`AuthorizationError::CredentialNotPinned`]).
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Where tokens are kept; a [`MemoryTokenStore`] of its own unless set.
    #[must_use]
    pub fn store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// Who the tokens act for: with the server's URL, it makes the [`TokenKey`] they are kept
    /// under. [`DEFAULT_IDENTITY`](Self::DEFAULT_IDENTITY) unless set; give each client its
    /// own when several share a store.
    #[must_use]
    pub fn identity(mut self, identity: &str) -> Self {
        self.identity = identity.to_owned();
        self
    }

    /// The scopes to ask for, instead of MCP's selection strategy (the challenge's `scope`,
    /// else the resource's `scopes_supported`). A 403 `insufficient_scope` still adds the
    /// scopes it asks for.
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The proxy, extra trusted roots and client certificate of every request to the
    /// authorization server (discovery, registration, tokens); the environment's proxy and the
    /// system's roots unless set. Pass the MCP server's own
    /// [`HttpOptions::network`](toolport_http_client::HttpOptions::network) to reach both alike.
    #[must_use]
    pub fn network(mut self, network: NetworkOptions) -> Self {
        self.network = network;
        self
    }

    /// The bound on each HTTP request, connect included;
    /// [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT) unless set.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Whether the authorization server's URLs (and the identity provider's) may name
    /// private, link-local, loopback or unspecified addresses (see [`EndpointPolicy`]);
    /// `false` unless set, for a server on an internal network named by its address. Loopback
    /// is allowed anyway when the MCP server itself is on loopback, and `https` is required
    /// either way (plain `http` only to a loopback host).
    #[must_use]
    pub fn allow_private_addresses(mut self, allow: bool) -> Self {
        self.private_addresses = allow;
        self
    }

    /// The authorizer.
    ///
    /// # Errors
    ///
    /// [`AuthorizationError::Settings`] when the server URL or the token endpoint is not an
    /// `http` or `https` URL, or the pinned issuer is not an issuer identifier the endpoint
    /// policy allows.
    pub fn build(self) -> Result<GrantAuthorizer, AuthorizationError> {
        let settings = |problem: String| AuthorizationError::Settings { problem };
        let server_url = parse_server_url(&self.server_url).map_err(settings)?;
        if let Some(url) = &self.token_url
            && !matches!(url.scheme(), "http" | "https")
        {
            return Err(settings(format!(
                "the token endpoint {} is not an http or https URL",
                redacted_url(url)
            )));
        }
        let policy = EndpointPolicy::for_resource(&server_url)
            .allow_private_addresses(self.private_addresses);
        if let Some(issuer) = &self.issuer {
            check_pinned_issuer(issuer, &policy).map_err(settings)?;
        }
        let store = self
            .store
            .unwrap_or_else(|| Arc::new(MemoryTokenStore::new()));
        let key = TokenKey::new(server_url.as_str(), self.identity);
        Ok(GrantAuthorizer {
            inner: Arc::new(Inner {
                server_url,
                grant: self.grant,
                token_url: self.token_url,
                pinned_issuer: self.issuer,
                scopes: self.scopes,
                http: OAuthHttp::new(self.timeout, policy, self.network),
                tokens: TokenCache::new(key, store),
                renewal_margin: std::sync::Mutex::new(super::present::RENEWAL_MARGIN),
                wall_clock: SystemTime::now,
                session: Default::default(),
            }),
        })
    }
}

impl fmt::Debug for GrantAuthorizerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GrantAuthorizerBuilder")
            .field("server_url", &describe_raw_url(&self.server_url))
            .field("grant", &self.grant)
            .field("token_url", &self.token_url.as_ref().map(redacted_url))
            .field("issuer", &self.issuer)
            .field("identity", &self.identity)
            .field("scopes", &self.scopes)
            .field("timeout", &self.timeout)
            .field("private_addresses", &self.private_addresses)
            .finish_non_exhaustive()
    }
}
