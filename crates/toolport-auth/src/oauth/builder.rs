//! [`OAuthAuthorizerBuilder`]: the settings of an [`OAuthAuthorizer`], checked once.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use toolport_core::Secret;
use toolport_http_client::NetworkOptions;
use toolport_http_client::toolkit::{describe_raw_url, parse_server_url, redacted_url};
use url::Url;

use super::cache::TokenCache;
use super::identity::ClientSettings;
use super::refresh;
use super::scopes::Scopes;
use super::transport::OAuthHttp;
use super::{AuthorizationError, Inner, OAuthAuthorizer};
use crate::dpop::DpopSigner;
use crate::{
    AuthorizationHandler, DpopMode, EndpointPolicy, MemoryTokenStore, TokenKey, TokenStore,
    authorization_server_metadata_urls,
};

/// Builds an [`OAuthAuthorizer`]; from [`OAuthAuthorizer::builder`]. Only the
/// [`handler`](Self::handler) is required. `Debug` shows no secret.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_auth::{HeadlessAuthorization, OAuthAuthorizer};
/// use toolport_core::Secret;
/// use url::Url;
///
/// let handler = HeadlessAuthorization::new(Url::parse("http://127.0.0.1:8765/callback").unwrap());
/// let authorizer = OAuthAuthorizer::builder("https://mcp.example.com/mcp")
///     .handler(handler)
///     .identity("alice")
///     .pre_registered("my-client", Some(Secret::new("s3cret")))
///     .scopes(["files:read"])
///     .timeout(Duration::from_secs(10))
///     .build()
///     .unwrap();
/// assert!(!format!("{authorizer:?}").contains("s3cret"));
///
/// let error = OAuthAuthorizer::builder("https://mcp.example.com/mcp").build().unwrap_err();
/// assert!(error.to_string().contains("handler"));
/// ```
pub struct OAuthAuthorizerBuilder {
    server_url: String,
    handler: Option<Arc<dyn AuthorizationHandler>>,
    store: Option<Arc<dyn TokenStore>>,
    identity: String,
    client: ClientSettings,
    scopes: Option<Scopes>,
    timeout: Duration,
    network: NetworkOptions,
    dpop: DpopMode,
    private_addresses: bool,
    issuer: Option<String>,
}

impl OAuthAuthorizerBuilder {
    /// The default bound on each HTTP request of the flow (discovery, registration, token
    /// requests): 30 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default identity the tokens are kept under: `default`.
    pub const DEFAULT_IDENTITY: &'static str = "default";
    /// The default `client_name` sent in a dynamic registration: `Toolport`.
    pub const DEFAULT_CLIENT_NAME: &'static str = "Toolport";

    pub(super) fn new(server_url: &str) -> Self {
        Self {
            server_url: server_url.to_owned(),
            handler: None,
            store: None,
            identity: Self::DEFAULT_IDENTITY.to_owned(),
            client: ClientSettings {
                name: Self::DEFAULT_CLIENT_NAME.to_owned(),
                metadata_url: None,
                pre_registered: None,
            },
            scopes: None,
            timeout: Self::DEFAULT_TIMEOUT,
            network: NetworkOptions::default(),
            dpop: DpopMode::default(),
            private_addresses: false,
            issuer: None,
        }
    }

    /// The interactive step: how the user visits the authorization URL. Required.
    #[must_use]
    pub fn handler(mut self, handler: impl AuthorizationHandler + 'static) -> Self {
        self.handler = Some(Arc::new(handler));
        self
    }

    /// Where tokens are kept; a [`MemoryTokenStore`] of its own unless set.
    #[must_use]
    pub fn store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// The user or tenant the tokens act for: with the server's URL, it makes the
    /// [`TokenKey`] they are kept under. [`DEFAULT_IDENTITY`](Self::DEFAULT_IDENTITY) unless
    /// set.
    #[must_use]
    pub fn identity(mut self, identity: &str) -> Self {
        self.identity = identity.to_owned();
        self
    }

    /// The `client_name` of a dynamic registration;
    /// [`DEFAULT_CLIENT_NAME`](Self::DEFAULT_CLIENT_NAME) unless set.
    #[must_use]
    pub fn client_name(mut self, name: &str) -> Self {
        self.client.name = name.to_owned();
        self
    }

    /// The `https` URL of the client's Client ID Metadata Document, used as its `client_id`
    /// with authorization servers that advertise `client_id_metadata_document_supported`
    /// (and are not given a pre-registered client). The document itself is hosted by you,
    /// and must list the handler's redirect URI.
    #[must_use]
    pub fn client_metadata_url(mut self, url: Url) -> Self {
        self.client.metadata_url = Some(url);
        self
    }

    /// A client registered with the authorization server beforehand: its ID, and its secret
    /// for a confidential client. Used before any other way of getting a client ID. With a
    /// secret, the client authenticates with HTTP Basic, or in the form body when the server
    /// lists only `client_secret_post`.
    ///
    /// A secret goes only to the authorization server pinned with [`issuer`](Self::issuer):
    /// without a pin, the flow stops with
    /// [`AuthorizationError::CredentialNotPinned`] before sending it anywhere.
    #[must_use]
    pub fn pre_registered(mut self, client_id: impl Into<String>, secret: Option<Secret>) -> Self {
        self.client.pre_registered = Some((client_id.into(), secret));
        self
    }

    /// Pins the authorization server: its issuer identifier (`https://auth.example.com`), as
    /// its metadata gives it. The MCP server's protected-resource metadata must list it (when
    /// it lists several, this one is used), else the flow stops with
    /// [`AuthorizationError::IssuerContradicted`]; without such metadata, this issuer's is
    /// used. Tokens kept from another issuer are not refreshed or replaced: that is
    /// [`AuthorizationError::IssuerChanged`] (unpinned, a public client drops them and
    /// registers with the server's new authorization server, as MCP says). Required for a
    /// [`pre_registered`](Self::pre_registered) client with a secret.
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The scopes to ask for, instead of MCP's selection strategy (the challenge's `scope`,
    /// else the resource's `scopes_supported`). A step-up still adds the scopes a server's
    /// challenge asks for.
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

    /// The bound on each HTTP request of the flow, connect included;
    /// [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT) unless set. The interactive step is bounded
    /// by the handler.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// When to ask for DPoP-bound tokens; [`DpopMode::Auto`] unless set: when the
    /// authorization server advertises ES256 proofs, or the resource requires bound tokens.
    #[must_use]
    pub fn dpop(mut self, mode: DpopMode) -> Self {
        self.dpop = mode;
        self
    }

    /// Whether the authorization server's URLs may name private, link-local, loopback or
    /// unspecified addresses (see [`EndpointPolicy`]); `false` unless set, for an
    /// authorization server on an internal network named by its address. Loopback is allowed
    /// anyway when the MCP server itself is on loopback, and `https` is required either way
    /// (plain `http` only to a loopback host).
    #[must_use]
    pub fn allow_private_addresses(mut self, allow: bool) -> Self {
        self.private_addresses = allow;
        self
    }

    /// The authorizer.
    ///
    /// # Errors
    ///
    /// [`AuthorizationError::Settings`] without a handler, when the server URL is not an
    /// `http` or `https` URL, when the metadata-document URL is not `https` with a path, or
    /// when the pinned issuer is not an issuer identifier the endpoint policy allows.
    pub fn build(self) -> Result<OAuthAuthorizer, AuthorizationError> {
        let settings = |problem: String| AuthorizationError::Settings { problem };
        let server_url = parse_server_url(&self.server_url).map_err(settings)?;
        let handler = self.handler.ok_or_else(|| {
            settings("no authorization handler: set one with `handler`".to_owned())
        })?;
        if let Some(url) = &self.client.metadata_url
            && (url.scheme() != "https" || matches!(url.path(), "" | "/"))
        {
            return Err(settings(format!(
                "the client metadata URL {} is not an https URL with a path",
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
        Ok(OAuthAuthorizer {
            inner: Arc::new(Inner {
                server_url,
                handler,
                client: self.client,
                pinned_issuer: self.issuer,
                scopes: self.scopes,
                http: OAuthHttp::new(self.timeout, policy, self.network),
                tokens: TokenCache::new(key, store),
                refresh_hold: refresh::lease_hold(self.timeout),
                dpop: DpopSigner::new(self.dpop),
                session: Default::default(),
            }),
        })
    }
}

impl fmt::Debug for OAuthAuthorizerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthAuthorizerBuilder")
            .field("server_url", &describe_raw_url(&self.server_url))
            .field("identity", &self.identity)
            .field("client_name", &self.client.name)
            .field("pre_registered", &self.client.pre_registered.is_some())
            .field("issuer", &self.issuer)
            .field("scopes", &self.scopes)
            .field("timeout", &self.timeout)
            .field("dpop", &self.dpop)
            .field("private_addresses", &self.private_addresses)
            .finish_non_exhaustive()
    }
}

/// Whether `issuer` can be pinned: an issuer identifier (`https` or `http` with a host, no
/// query, fragment or user info) whose metadata URLs `policy` allows; else why not.
pub(crate) fn check_pinned_issuer(issuer: &str, policy: &EndpointPolicy) -> Result<(), String> {
    let candidates = authorization_server_metadata_urls(issuer)
        .map_err(|error| format!("the pinned issuer {error}"))?;
    for url in &candidates {
        policy
            .check(url)
            .map_err(|refused| format!("the pinned issuer: {refused}"))?;
    }
    Ok(())
}
