//! [`GrantAuthorizer`]: the OAuth grants that need no user (client credentials, the JWT bearer
//! grant of workload identity, enterprise-managed authorization) as a `toolport-http-client`
//! [`Authorizer`].

mod builder;
mod client_auth;
mod exchange;
mod grant;
mod obtain;
mod present;
mod renew;
mod target;
mod token_request;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use http::HeaderMap;
use toolport_core::BoxError;
use toolport_http_client::toolkit::redacted_url;
use toolport_http_client::{Authorizer, Refusal, RequestTarget};
use url::Url;

pub use builder::GrantAuthorizerBuilder;
pub use client_auth::ClientAuthentication;
pub use exchange::IdentityProvider;
pub use grant::Grant;

use self::target::GrantTarget;
use crate::oauth::cache::TokenCache;
use crate::oauth::scopes::Scopes;
use crate::oauth::transport::OAuthHttp;

/// An [`Authorizer`] for one MCP server that gets its tokens with a [`Grant`] needing no user:
/// client credentials, a workload's JWT, or the user's enterprise ID token.
///
/// The first request goes without a token; on the server's 401, the authorizer finds the
/// token endpoint (protected-resource metadata, then the authorization server's, with the
/// 2025-03-26 fallback to the server's origin; or the endpoint the builder was given), asks
/// for a token with the RFC 8707 `resource` and the scopes (set on the builder, else the
/// challenge's `scope`, else the resource's `scopes_supported`, else none), keeps it in the
/// [`TokenStore`](crate::TokenStore), and the request is sent again. The token is sent on every
/// request; a new one is asked for a minute before it expires (half its lifetime, if that is
/// shorter), on each 401 that refused the current token (once per refusal: a refusal of a
/// token already replaced only sends the request again), and on a 403 `insufficient_scope`
/// that asks for more scopes. A refused grant is an error, not retried.
///
/// A grant's credential (a client secret or key, a workload's JWT, an ID-JAG) goes only to the
/// authorization server the builder pins, by [`token_url`](GrantAuthorizerBuilder::token_url)
/// or [`issuer`](GrantAuthorizerBuilder::issuer); the MCP server's word alone sends it nowhere.
/// A token kept from another issuer than the one in use is an error, not replaced.
///
/// Clones share everything. `Debug` shows no secret, and neither do errors nor trace events.
///
/// # Examples
///
/// ```
/// use toolport_auth::{ClientAuthentication, Grant, GrantAuthorizer};
/// use toolport_core::Secret;
///
/// let client = ClientAuthentication::secret("my-agent", Secret::new("s3cret"));
/// let authorizer = GrantAuthorizer::builder("https://mcp.example.com/mcp", Grant::client_credentials(client))
///     .issuer("https://auth.example.com")
///     .scopes(["tools:read"])
///     .build()
///     .unwrap();
/// assert!(!format!("{authorizer:?}").contains("s3cret"));
/// // Hand it to a transport: `HttpOptions::new().authorizer(authorizer)`.
/// ```
#[derive(Clone)]
pub struct GrantAuthorizer {
    inner: Arc<Inner>,
}

/// What the clones of a [`GrantAuthorizer`] share.
struct Inner {
    server_url: Url,
    grant: Grant,
    /// The token endpoint the user gave, instead of discovery.
    token_url: Option<Url>,
    /// The authorization server the user pinned, by issuer.
    pinned_issuer: Option<String>,
    /// Scopes the user set, replacing the selection strategy.
    scopes: Option<Scopes>,
    http: OAuthHttp,
    tokens: TokenCache,
    /// How long before its expiry the current token is replaced.
    renewal_margin: std::sync::Mutex<Duration>,
    /// The clock a token's lifetime is measured by: `SystemTime::now`, but in a unit test that
    /// moves it forward.
    wall_clock: fn() -> SystemTime,
    /// Held while a token is asked for.
    session: tokio::sync::Mutex<Session>,
}

/// What the authorizer remembers between token requests.
#[derive(Debug, Default)]
struct Session {
    /// Where the last token came from.
    target: Option<GrantTarget>,
    /// The scopes asked for so far.
    asked: Scopes,
}

impl GrantAuthorizer {
    /// A builder for the MCP server at `server_url`, getting its tokens with `grant`.
    pub fn builder(server_url: &str, grant: Grant) -> GrantAuthorizerBuilder {
        GrantAuthorizerBuilder::new(server_url, grant)
    }
}

impl fmt::Debug for GrantAuthorizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("GrantAuthorizer")
            .field("server", &redacted_url(&inner.server_url))
            .field("grant", &inner.grant)
            .field("token_url", &inner.token_url.as_ref().map(redacted_url))
            .field("pinned_issuer", &inner.pinned_issuer)
            .field("tokens", &inner.tokens)
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl Authorizer for GrantAuthorizer {
    async fn authorize(
        &self,
        _request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError> {
        self.inner.present(headers).await
    }

    async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, BoxError> {
        Ok(self.inner.renew(refusal).await?)
    }
}
