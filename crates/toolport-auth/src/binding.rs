//! [`RefreshBinding`]: what refreshing a [`TokenSet`](crate::TokenSet) needs, kept with the
//! tokens so an authorizer that only loaded them (after a restart, or on another replica) can
//! refresh them.

use std::fmt;

use toolport_core::Secret;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use crate::oauth::identity::TokenAuthMethod;

/// How to refresh a [`TokenSet`](crate::TokenSet): the authorization server that issued it (its
/// issuer identifier and token endpoint), the client the tokens were issued to (its
/// `client_id`, secret, and how it authenticates at the token endpoint), and the RFC 8707
/// `resource` they are for.
///
/// [`OAuthAuthorizer`](crate::OAuthAuthorizer) adds one to the Bearer tokens it saves with a
/// refresh token. It adds none to DPoP-bound tokens: their refresh token is bound to a key that
/// lives only in the authorizer's memory, so no other authorizer could use it.
///
/// The client secret is a [`Secret`]: `Debug` shows neither it nor the token endpoint's query.
/// A store writes it down with the tokens, and keeps it as safe as them.
///
/// # Examples
///
/// ```
/// use toolport_auth::RefreshBinding;
/// use toolport_core::Secret;
/// use url::Url;
///
/// let token_endpoint = Url::parse("https://auth.example.com/token").unwrap();
/// let binding = RefreshBinding::new(
///     "https://auth.example.com",
///     token_endpoint,
///     "my-client",
///     "https://mcp.example.com/mcp",
/// )
/// .with_client_secret(Secret::new("s3cret"), "client_secret_basic")
/// .expect("a known method");
///
/// assert_eq!(binding.token_endpoint_auth_method(), "client_secret_basic");
/// assert!(!format!("{binding:?}").contains("s3cret"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct RefreshBinding {
    issuer: String,
    token_endpoint: Url,
    client_id: String,
    client_secret: Option<Secret>,
    method: TokenAuthMethod,
    resource: String,
}

impl RefreshBinding {
    /// The tokens `issuer`'s authorization server issued to the public client `client_id`
    /// (token endpoint authentication `none`) for `resource`, refreshed at `token_endpoint`.
    pub fn new(
        issuer: impl Into<String>,
        token_endpoint: Url,
        client_id: impl Into<String>,
        resource: impl Into<String>,
    ) -> Self {
        Self {
            issuer: issuer.into(),
            token_endpoint,
            client_id: client_id.into(),
            client_secret: None,
            method: TokenAuthMethod::None,
            resource: resource.into(),
        }
    }

    /// Adds the client's secret and how it is sent to the token endpoint: `method` is
    /// `client_secret_basic`, `client_secret_post` or `none` (the secret is then kept but not
    /// sent). `None` for another method.
    #[must_use]
    pub fn with_client_secret(self, secret: Secret, method: &str) -> Option<Self> {
        let method = TokenAuthMethod::parse(method)?;
        Some(self.with_secret(Some(secret), method))
    }

    /// Sets the secret, if any, and the method.
    pub(crate) fn with_secret(mut self, secret: Option<Secret>, method: TokenAuthMethod) -> Self {
        self.client_secret = secret;
        self.method = method;
        self
    }

    /// The authorization server's issuer identifier.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The authorization server's token endpoint.
    pub fn token_endpoint(&self) -> &Url {
        &self.token_endpoint
    }

    /// The `client_id` the tokens were issued to.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The client's secret, if it has one.
    pub fn client_secret(&self) -> Option<&Secret> {
        self.client_secret.as_ref()
    }

    /// How the client authenticates at the token endpoint: `client_secret_basic`,
    /// `client_secret_post` or `none`.
    pub fn token_endpoint_auth_method(&self) -> &'static str {
        self.method.as_str()
    }

    /// The method, parsed.
    pub(crate) fn method(&self) -> TokenAuthMethod {
        self.method
    }

    /// The RFC 8707 `resource` the tokens are for, sent again with the refresh.
    pub fn resource(&self) -> &str {
        &self.resource
    }
}

impl fmt::Debug for RefreshBinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefreshBinding")
            .field("issuer", &self.issuer)
            .field("token_endpoint", &redacted_url(&self.token_endpoint))
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret)
            .field("token_endpoint_auth_method", &self.method.as_str())
            .field("resource", &self.resource)
            .finish()
    }
}
