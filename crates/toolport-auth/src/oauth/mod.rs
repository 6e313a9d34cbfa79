//! [`OAuthAuthorizer`]: MCP's OAuth 2.1 authorization-code flow as a `toolport-http-client`
//! [`Authorizer`]: discovery, client identity, PKCE, the interactive step, the code exchange,
//! refresh and step-up.

mod bound;
pub(crate) mod builder;
pub(crate) mod cache;
mod error;
mod flow;
pub(crate) mod identity;
mod present;
mod refresh;
mod registration;
pub(crate) mod renew;
pub(crate) mod scopes;
pub(crate) mod target;
mod token_endpoint;
mod token_http;
pub(crate) mod transport;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, HeaderValue};
use toolport_core::BoxError;
use toolport_http_client::toolkit::redacted_url;
use toolport_http_client::{Authorizer, Refusal, RequestTarget};
use url::Url;

pub use builder::OAuthAuthorizerBuilder;
pub use error::AuthorizationError;

use self::bound::Bound;
use self::cache::TokenCache;
use self::identity::{ClientIdentity, ClientSettings};
use self::scopes::Scopes;
use self::transport::OAuthHttp;
use crate::AuthorizationHandler;
use crate::dpop::DpopSigner;

/// The client side of MCP authorization for one server: an [`Authorizer`] that sends the
/// current access token with every request, refreshes it before it expires, and, when the
/// server refuses a request, refreshes or runs the authorization-code flow again.
///
/// The flow follows MCP's authorization spec and the official conformance suite:
///
/// - discovery from the server's `WWW-Authenticate` challenge (RFC 9728, then RFC 8414 or
///   OpenID Connect Discovery), and for servers of the 2025-03-26 revision without
///   protected-resource metadata, the server's origin as the authorization server, its
///   metadata at the root, or the default endpoints `/authorize`, `/token`, `/register`;
/// - the client identity, in this order: pre-registered (its secret sent only to the
///   [pinned](OAuthAuthorizerBuilder::issuer) issuer), a Client ID Metadata Document URL when
///   the server supports them, a dynamic registration (RFC 7591, kept per authorization
///   server);
/// - the authorization server bound: a pinned issuer the resource does not list, or tokens
///   kept from another issuer than the one in use now, stop the flow with an error naming
///   both, the kept tokens left as they are;
/// - PKCE with S256 always (a server whose metadata does not list it is refused), a random
///   `state`, the RFC 8707 `resource` in authorization and token requests, and the answer
///   checked with [`PendingAuthorization::accept`](crate::PendingAuthorization::accept);
/// - scopes from the challenge, else the resource's `scopes_supported`, with
///   `offline_access` when the authorization server lists it; a 403 `insufficient_scope`
///   asks again for the union of the scopes asked before and the challenge's (never for
///   nothing new, and at most three times in the authorizer's life);
/// - refresh with rotation: a new refresh token replaces the old one, which is not used
///   again;
/// - DPoP (RFC 9449) as [`DpopMode`](crate::DpopMode) says (by default, when the
///   authorization server advertises ES256 or the resource requires bound tokens): a proof
///   on each token request and `Authorization: DPoP` with a fresh proof on each request, the
///   servers' nonces kept and a `use_dpop_nonce` answered by sending again.
///
/// Tokens are kept in a [`TokenStore`](crate::TokenStore) (in memory unless set) under a
/// [`TokenKey`](crate::TokenKey) of the server's URL and an identity. Renewals are serialized:
/// requests refused together lead to one authorization. Refreshes take the store's refresh
/// lease (see [`TokenStore`](crate::TokenStore)), so authorizers sharing a store, in one
/// process or in replicas sharing a Redis store, refresh a token once and the others adopt the
/// result. Bearer tokens are saved with a [`RefreshBinding`](crate::RefreshBinding) (the
/// authorization server, the client and its secret, the `resource`), so an authorizer that
/// only loaded them (a replica, or the same program started again on a
/// [`FileTokenStore`](crate::FileTokenStore)) refreshes them without a new sign-in. Clones
/// share everything. `Debug` shows no secret, and neither do errors nor trace
/// events.
///
/// # Examples
///
/// ```no_run
/// use std::sync::Arc;
/// use toolport_auth::{FileTokenStore, HeadlessAuthorization, OAuthAuthorizer};
/// use url::Url;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let handler = HeadlessAuthorization::new(Url::parse("http://localhost:3000/callback")?);
/// let authorizer = OAuthAuthorizer::builder("https://mcp.example.com/mcp")
///     .handler(handler)
///     .store(Arc::new(FileTokenStore::new("tokens.json")))
///     .client_name("my-agent")
///     .build()?;
/// // Hand it to a transport: `HttpOptions::new().authorizer(authorizer)`.
/// # let _ = authorizer;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct OAuthAuthorizer {
    inner: Arc<Inner>,
}

/// What the clones of an [`OAuthAuthorizer`] share.
struct Inner {
    server_url: Url,
    handler: Arc<dyn AuthorizationHandler>,
    client: ClientSettings,
    /// The authorization server the user pinned, by issuer: the only one the client's
    /// credentials and the tokens may come from.
    pinned_issuer: Option<String>,
    /// Scopes the user set, replacing the selection strategy.
    scopes: Option<Scopes>,
    http: OAuthHttp,
    tokens: TokenCache,
    /// How long a refresh holds the key's refresh lease.
    refresh_hold: Duration,
    /// The DPoP key and nonces.
    dpop: DpopSigner,
    /// Held by a renewal (and a refresh) from start to end.
    session: tokio::sync::Mutex<Session>,
}

/// What the flow remembers between renewals.
#[derive(Debug, Default)]
struct Session {
    /// The authorization server and client of the last authorization, or of the current
    /// tokens' [`RefreshBinding`](crate::RefreshBinding): what a refresh needs.
    bound: Option<Bound>,
    /// The dynamic registration, for the issuer in its `registered_at`.
    registration: Option<ClientIdentity>,
    /// The scopes asked for so far.
    asked: Scopes,
    /// How many step-ups (403 `insufficient_scope`) have been tried.
    step_ups: u32,
    /// The `Authorization` header of the token the last refresh gave: when that one is
    /// refused, another refresh will not help.
    refreshed: Option<HeaderValue>,
}

impl OAuthAuthorizer {
    /// A builder for the MCP server at `server_url`.
    pub fn builder(server_url: &str) -> OAuthAuthorizerBuilder {
        OAuthAuthorizerBuilder::new(server_url)
    }
}

impl fmt::Debug for OAuthAuthorizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("OAuthAuthorizer")
            .field("server", &redacted_url(&inner.server_url))
            .field("identity", &inner.tokens.key().identity())
            .field("client_name", &inner.client.name)
            .field(
                "client_metadata_url",
                &inner.client.metadata_url.as_ref().map(redacted_url),
            )
            .field("pre_registered", &inner.client.pre_registered.is_some())
            .field("pinned_issuer", &inner.pinned_issuer)
            .field("handler", &inner.handler)
            .field("tokens", &inner.tokens)
            .field("dpop", &inner.dpop)
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl Authorizer for OAuthAuthorizer {
    async fn authorize(
        &self,
        request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError> {
        self.inner.present(request, headers).await
    }

    async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, BoxError> {
        Ok(self.inner.renew(refusal).await?)
    }
}
