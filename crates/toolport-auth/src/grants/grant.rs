//! [`Grant`]: which OAuth grant a [`GrantAuthorizer`](super::GrantAuthorizer) gets its tokens
//! with, and the token request each one makes.

use std::fmt;
use std::sync::Arc;

use toolport_http_client::TokenSource;

use super::exchange::{self, IdentityProvider};
use super::target::GrantTarget;
use super::token_request::{TokenAnswer, TokenRequest};
use crate::oauth::scopes::Scopes;
use crate::oauth::transport::OAuthHttp;
use crate::{AuthorizationError, ClientAuthentication};

/// The `grant_type` of the client-credentials grant (RFC 6749 §4.4).
const CLIENT_CREDENTIALS: &str = "client_credentials";

/// The `grant_type` of the JWT bearer grant (RFC 7523 §2.1).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// A grant that needs no user at the time of the request: the client acts for itself, or
/// presents an assertion it was given. `Debug` shows the grant and the client ID, never a
/// secret or an assertion.
///
/// # Examples
///
/// ```
/// use toolport_auth::{ClientAuthentication, Grant};
/// use toolport_core::Secret;
///
/// let grant = Grant::client_credentials(ClientAuthentication::secret("my-agent", Secret::new("s3cret")));
/// assert!(format!("{grant:?}").contains("client_credentials"));
/// // A workload's JWT, read again for each token request (a `TokenSource` can read a file).
/// let grant = Grant::jwt_bearer(ClientAuthentication::public("my-workload"), Secret::new("eyJ..."));
/// assert!(!format!("{grant:?}").contains("eyJ"));
/// ```
#[derive(Clone)]
pub struct Grant {
    client: ClientAuthentication,
    kind: Kind,
}

/// The grants.
#[derive(Clone)]
enum Kind {
    /// `client_credentials`.
    ClientCredentials,
    /// `jwt-bearer` with an assertion from a source.
    JwtBearer(Arc<dyn TokenSource>),
    /// A token exchange at the identity provider, then `jwt-bearer` with the ID-JAG.
    EnterpriseManaged(IdentityProvider),
}

impl Grant {
    /// The client-credentials grant (RFC 6749 §4.4; MCP's OAuth client-credentials extension,
    /// SEP-1046): the client gets a token for itself, authenticated by `client`, usually with a
    /// secret or a private key.
    pub fn client_credentials(client: ClientAuthentication) -> Self {
        Self {
            client,
            kind: Kind::ClientCredentials,
        }
    }

    /// The JWT bearer grant (RFC 7523 §2.1), as workload identity federation uses it: the JWT
    /// the workload's platform issued it (its `aud` the authorization server) is the
    /// `assertion`, read from `assertion` for each token request, so a JWT that the platform
    /// rotates (a file, say) is read fresh. `client` is the workload's client, usually
    /// [`ClientAuthentication::public`].
    pub fn jwt_bearer(client: ClientAuthentication, assertion: impl TokenSource + 'static) -> Self {
        Self {
            client,
            kind: Kind::JwtBearer(Arc::new(assertion)),
        }
    }

    /// Enterprise-managed authorization (MCP's extension, SEP-990, the Identity Assertion
    /// Authorization Grant): the user's ID token is exchanged at the enterprise's identity
    /// provider for an ID-JAG naming the authorization server and the resource (RFC 8693), and
    /// the ID-JAG for an access token with the JWT bearer grant, the client authenticated by
    /// `client` (usually a secret).
    pub fn enterprise_managed(client: ClientAuthentication, provider: IdentityProvider) -> Self {
        Self {
            client,
            kind: Kind::EnterpriseManaged(provider),
        }
    }

    /// The ID of the client the grant authenticates.
    pub(crate) fn client_id(&self) -> &str {
        self.client.client_id()
    }

    /// Whether the token request carries a credential another authorization server could use
    /// or replay: the client's secret or key, a workload's JWT, or an ID-JAG. Only a public
    /// client's client-credentials grant carries none.
    pub(crate) fn carries_credential(&self) -> bool {
        match self.kind {
            Kind::ClientCredentials => self.client.proves_itself(),
            Kind::JwtBearer(_) | Kind::EnterpriseManaged(_) => true,
        }
    }

    /// The `grant_type` at the authorization server.
    fn grant_type(&self) -> &'static str {
        match self.kind {
            Kind::ClientCredentials => CLIENT_CREDENTIALS,
            Kind::JwtBearer(_) | Kind::EnterpriseManaged(_) => JWT_BEARER,
        }
    }

    /// Requests a token for `scopes` at `target` with this grant.
    ///
    /// # Errors
    ///
    /// When an assertion cannot be read or signed, or a token endpoint fails or refuses.
    pub(crate) async fn request(
        &self,
        http: &OAuthHttp,
        target: &GrantTarget,
        scopes: &Scopes,
    ) -> Result<TokenAnswer, AuthorizationError> {
        let mut request = TokenRequest::new(&target.token_url, self.grant_type());
        match &self.kind {
            Kind::ClientCredentials => {}
            Kind::JwtBearer(source) => {
                let assertion = source
                    .token()
                    .await
                    .map_err(AuthorizationError::AssertionSource)?;
                request.param("assertion", assertion.expose());
            }
            Kind::EnterpriseManaged(provider) => {
                let assertion =
                    exchange::identity_assertion(provider, http, target, scopes).await?;
                request.param("assertion", assertion.expose());
            }
        }
        request.param("resource", &target.resource).scopes(scopes);
        self.client.apply(
            &mut request,
            target.auth_methods.as_deref(),
            target.audience(),
        )?;
        tracing::debug!(
            grant_type = self.grant_type(),
            url = %request.shown_url(),
            client_id = %self.client.client_id(),
            "token request"
        );
        request.send(http).await
    }
}

impl fmt::Debug for Grant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Grant");
        debug
            .field("grant_type", &self.grant_type())
            .field("client", &self.client);
        if let Kind::EnterpriseManaged(provider) = &self.kind {
            debug.field("identity_provider", provider);
        }
        debug.finish_non_exhaustive()
    }
}
