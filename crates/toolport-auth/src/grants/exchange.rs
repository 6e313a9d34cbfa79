//! [`IdentityProvider`] and the first step of enterprise-managed authorization: the user's ID
//! token exchanged at the identity provider for an ID-JAG (RFC 8693 token exchange).

use std::fmt;
use std::sync::Arc;

use toolport_core::Secret;
use toolport_http_client::TokenSource;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::target::GrantTarget;
use super::token_request::TokenRequest;
use crate::oauth::scopes::Scopes;
use crate::oauth::transport::OAuthHttp;
use crate::{AuthorizationError, ClientAuthentication};

/// The `grant_type` of a token exchange (RFC 8693 §2.1).
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";

/// The token type of an Identity Assertion JWT Authorization Grant.
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// The token type of an OpenID Connect ID token (RFC 8693 §3).
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";

/// The enterprise's identity provider, for [`Grant::enterprise_managed`](crate::Grant::enterprise_managed):
/// its token endpoint, the client there, and the user's ID token it issued. `Debug` shows the
/// endpoint and the client ID, never the token.
///
/// # Examples
///
/// ```
/// use toolport_auth::{ClientAuthentication, IdentityProvider};
/// use toolport_core::Secret;
/// use url::Url;
///
/// let provider = IdentityProvider::new(
///     Url::parse("https://idp.example.com/oauth2/token").unwrap(),
///     ClientAuthentication::public("idp-client"),
///     Secret::new("the user's ID token"),
/// );
/// assert!(!format!("{provider:?}").contains("ID token"));
/// ```
#[derive(Clone)]
pub struct IdentityProvider {
    token_url: Url,
    client: ClientAuthentication,
    id_token: Arc<dyn TokenSource>,
}

impl IdentityProvider {
    /// The identity provider whose token endpoint is `token_url`, where the client is
    /// `client` (a secret goes by HTTP Basic; an assertion names `token_url` as its `aud`),
    /// and the user's ID token comes from `id_token`, read for each exchange.
    pub fn new(
        token_url: Url,
        client: ClientAuthentication,
        id_token: impl TokenSource + 'static,
    ) -> Self {
        Self {
            token_url,
            client,
            id_token: Arc::new(id_token),
        }
    }
}

impl fmt::Debug for IdentityProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdentityProvider")
            .field("token_url", &redacted_url(&self.token_url))
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}

/// Exchanges the user's ID token at `provider` for an ID-JAG whose audience is `target`'s
/// authorization server and whose resource is `target`'s, for `scopes`.
///
/// # Errors
///
/// When the ID token cannot be read, the exchange fails or is refused, or it issues anything
/// but an ID-JAG.
pub(super) async fn identity_assertion(
    provider: &IdentityProvider,
    http: &OAuthHttp,
    target: &GrantTarget,
    scopes: &Scopes,
) -> Result<Secret, AuthorizationError> {
    let id_token = provider
        .id_token
        .token()
        .await
        .map_err(AuthorizationError::AssertionSource)?;
    let mut request = TokenRequest::new(&provider.token_url, TOKEN_EXCHANGE);
    request
        .param("requested_token_type", ID_JAG)
        .param("audience", target.audience())
        .param("resource", &target.resource)
        .scopes(scopes)
        .param("subject_token", id_token.expose())
        .param("subject_token_type", ID_TOKEN);
    provider
        .client
        .apply(&mut request, None, provider.token_url.as_str())?;
    let url = request.shown_url();
    tracing::debug!(%url, audience = target.audience(), "token exchange for an ID-JAG");
    request.send(http).await?.issued(ID_JAG, &url)
}
